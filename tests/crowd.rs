//! Crowds: people who avoid each other (`AvoidAgents`), measured through
//! the real plugin in the crowd lab's scenes: who arrives, and whether any
//! two bodies overlap by more than a centimetre. (The same bits on one
//! thread and two: `crates/steering_lab/tests/lab.rs`, one process each,
//! since Bevy's compute pool is made once a process.)

use steering_lab::crowd::{self, CrowdReport, Method, OVERLAP};

fn run(name: &str, method: Method, hz: f64, threads: usize) -> CrowdReport {
    let scene = crowd::scene(name, 1).expect("a scene of the lab");
    crowd::run(&scene, method, hz, Some(threads))
}

/// Two people meeting head-on, at right angles, one overtaking the other,
/// and at a box's corner: both arrive, their bodies never overlap, within
/// 1.3 times the straight line's time, at 60 and 144 steps a second.
/// (Separation alone leaves the head-on pair standing 1.4 m apart, and the
/// crossing pair overlapping by a quarter of a metre.)
#[test]
fn pairs_pass_without_touching() {
    for hz in [60.0, 144.0] {
        for name in ["oncoming", "crossing", "overtaking", "corner"] {
            let r = run(name, Method::Avoid, hz, 1);
            assert_eq!(r.reached, 2, "{name} at {hz} Hz: {r:?}");
            assert_eq!(r.collisions, 0, "{name} at {hz} Hz: {r:?}");
            assert!(r.deepest_overlap <= OVERLAP, "{name} at {hz} Hz: {r:?}");
            assert!(r.time_ratio.1 <= 1.3, "{name} at {hz} Hz: {r:?}");
        }
    }
}

/// 24 and 100 people on a circle, each walking to the point opposite
/// (where ORCA locks up for 24): everyone arrives within twice the straight
/// line's time, and no two bodies overlap.
#[test]
fn circles_swap_sides() {
    for name in ["circle-24", "circle-100"] {
        let r = run(name, Method::Avoid, 60.0, 1);
        assert_eq!(r.reached, r.agents, "{name}: {r:?}");
        assert_eq!(r.collisions, 0, "{name}: {r:?}");
        assert!(r.time_ratio.1 <= 2.0, "{name}: {r:?}");
    }
}

mod hostile {
    use bevy::prelude::*;
    use bevy_reynolds::prelude::*;
    use bevy_reynolds::{Position, Velocity};
    use proptest::prelude::*;
    use steering_lab::{headless_app, run_steps};

    fn hostile() -> impl Strategy<Value = f32> + Clone {
        prop_oneof![
            6 => -50.0f32..50.0,
            1 => Just(0.0f32),
            1 => Just(f32::NAN),
            1 => Just(f32::INFINITY),
            1 => Just(-1.0f32),
            1 => Just(1e30f32),
        ]
    }

    fn avoider() -> impl Strategy<Value = (Vec2, Vec2, f32, AvoidParams)> {
        let v = || (hostile(), hostile()).prop_map(|(x, y)| Vec2::new(x, y));
        (v(), v(), hostile(), (hostile(), hostile(), hostile())).prop_map(
            |(p, vel, radius, (horizon, strength, keep_right))| {
                let rules = AvoidParams {
                    horizon,
                    strength,
                    keep_right,
                };
                (p, vel, radius, rules)
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// Crowds of avoiders with bodies, hostile numbers and all (on one
        /// spot, NaN radii and horizons, huge speeds): no panic, and every
        /// position and force stays finite.
        #[test]
        fn hostile_crowds_stay_finite(agents in proptest::collection::vec(avoider(), 1..24)) {
            let mut app = headless_app(60.0, 1, SteeringSettings::default());
            for (p, vel, radius, rules) in agents {
                app.world_mut().spawn((
                    SteeringParams { radius, ..default() },
                    Behavior::Arrive(Target::Point(Vec2::ZERO)),
                    AvoidAgents { rules, ..default() },
                    Position(p),
                    Velocity(vel),
                    SteeringForce::default(),
                ));
            }
            run_steps(&mut app, 20, |_| {});
            let mut query = app.world_mut().query::<(&Position, &Velocity, &SteeringForce)>();
            for (p, v, f) in query.iter(app.world()) {
                prop_assert!(p.is_finite() && v.is_finite() && f.is_finite(), "{p:?} {v:?} {f:?}");
            }
        }
    }
}
