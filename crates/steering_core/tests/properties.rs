//! Properties that hold for any input: finite in, finite out; the speed cap
//! holds; one step changes the velocity by at most `max_force * dt`.

use proptest::prelude::*;
use steering_core::*;

/// Finite floats over many magnitudes, including zero and huge values.
fn any_finite() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        -1e4f32..1e4,
        Just(0.0f32),
        -1e-3f32..1e-3,
        proptest::num::f32::NORMAL,
    ]
}

/// Any float at all, NaN and infinities included.
fn any_float() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        any_finite(),
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        proptest::num::f32::ANY,
    ]
}

fn vec(component: impl Strategy<Value = f32> + Clone) -> impl Strategy<Value = Vec2> {
    (component.clone(), component).prop_map(|(x, y)| Vec2::new(x, y))
}

/// Limits and times in a game's range: positive, possibly tiny or large.
fn limit() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![0.0f32..1e4, Just(0.0f32), 1e-6f32..1.0]
}

fn dt() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        0.0f32..0.5,
        Just(0.0f32),
        Just(1.0 / 60.0),
        Just(1.0 / 144.0)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_behavior_is_finite_for_any_input(
        pos in vec(any_float()), vel in vec(any_float()), target in vec(any_float()),
        target_vel in vec(any_float()), max_speed in any_float(), radius in any_float(),
        angle in any_float(), dt in any_float(), u in any_float(), rt in any_float(),
    ) {
        prop_assert!(seek(pos, target, max_speed).is_finite());
        prop_assert!(arrive(pos, target, max_speed, radius).is_finite());
        prop_assert!(flee(pos, vel, target, max_speed, radius).is_finite());
        prop_assert!(pursue(pos, target, target_vel, max_speed).is_finite());
        prop_assert!(evade(pos, vel, target, target_vel, max_speed, radius).is_finite());
        prop_assert!(look_ahead(pos, target, max_speed).is_finite());
        let next = wander_step(angle, dt, radius, u);
        prop_assert!(next.is_finite());
        prop_assert!(wander(next, max_speed).is_finite());
        prop_assert!(steering(target, vel, rt).is_finite());
        prop_assert!(truncated(pos, max_speed).is_finite());
        prop_assert!(measured_velocity(vel, pos, target, dt, rt).is_finite());
        prop_assert!(wrap(pos, target, vel).0.is_finite() || !pos.is_finite());
        prop_assert!(heading(vel, Vec2::from_angle(angle)).is_normalized());
        prop_assert!(heading(vel, target).is_normalized());
        let stepped = step(Kinematics { pos, vel }, target_vel, Limits { max_speed, max_force: radius }, dt);
        prop_assert!(stepped.pos.is_finite() && stepped.vel.is_finite());
    }

    #[test]
    fn desired_speeds_never_exceed_the_top_speed(
        pos in vec(any_finite()), vel in vec(any_finite()), target in vec(any_finite()),
        target_vel in vec(any_finite()), max_speed in limit(), radius in limit(),
    ) {
        let cap = max_speed * (1.0 + 1e-5) + 1e-5;
        prop_assert!(seek(pos, target, max_speed).length() <= cap);
        prop_assert!(arrive(pos, target, max_speed, radius).length() <= cap);
        prop_assert!(pursue(pos, target, target_vel, max_speed).length() <= cap);
        let fled = flee(pos, vel, target, max_speed, radius);
        prop_assert!(fled == vel || fled.length() <= cap);
    }

    #[test]
    fn one_step_respects_both_limits(
        pos in vec(-1e5f32..1e5), dir in 0.0f32..std::f32::consts::TAU, frac in 0.0f32..=1.0,
        steer in vec(any_finite()), max_speed in limit(), max_force in limit(), dt in dt(),
    ) {
        // Start at or under the top speed, as every agent the model moves is.
        let vel = Vec2::from_angle(dir) * max_speed * frac;
        let limits = Limits { max_speed, max_force };
        let next = step(Kinematics { pos, vel }, steer, limits, dt);
        prop_assert!(next.pos.is_finite() && next.vel.is_finite());
        let tolerance = 1e-4 * (1.0 + max_speed);
        prop_assert!(next.vel.length() <= max_speed + tolerance,
            "speed {} > {}", next.vel.length(), max_speed);
        prop_assert!((next.vel - vel).length() <= max_force * dt + tolerance,
            "change {} > {}", (next.vel - vel).length(), max_force * dt);
    }

    #[test]
    fn the_sum_of_one_behavior_is_that_behavior(
        desired in vec(any_finite()), vel in vec(any_finite()), rt in 1e-3f32..10.0,
    ) {
        let mut sum = SteeringSum::default();
        sum.add(1.0, desired, vel, rt);
        prop_assert_eq!(sum.steering(), steering(desired, vel, rt));
        prop_assert_eq!(sum.desired(vel), desired);
    }

    #[test]
    fn wander_steps_never_exceed_rate_times_sqrt_dt(
        angle in -10.0f32..10.0, dt in dt(), rate in 0.0f32..5.0, u in any_float(),
    ) {
        let step = (wander_step(angle, dt, rate, u) - angle).abs();
        prop_assert!(step <= rate * dt.sqrt() + 1e-5);
    }

    #[test]
    fn flocking_is_finite_for_any_input(
        vel in vec(any_float()), offsets in proptest::collection::vec((vec(any_float()), vec(any_float())), 0..12),
        radius in any_float(), weight in any_float(), max_speed in any_float(), rt in any_float(),
        fov in proptest::option::of(any_float()),
    ) {
        let params = FlockParams {
            separation_radius: radius,
            neighbor_radius: radius,
            separation_weight: weight,
            alignment_weight: weight,
            cohesion_weight: weight,
            view_half_angle: fov,
        };
        let neighbors = offsets.into_iter().map(|(offset, vel)| Neighbor { offset, vel });
        prop_assert!(flock_steering(vel, neighbors, &params, max_speed, rt).is_finite());
    }
}

/// A neighbor's sums one by one through [`FlockSums::add`], and eight at a
/// time through a [`FlockBatch`] block: the same, up to rounding.
fn one_by_one(view: &FlockView, neighbors: &[(Vec2, Vec2)]) -> FlockSums {
    let mut sums = FlockSums::default();
    for (offset, vel) in neighbors {
        sums.add(
            Neighbor {
                offset: *offset,
                vel: *vel,
            },
            view,
        );
    }
    sums
}

/// `(position, velocity)` pairs as the four columns of a [`NeighborBlock`].
fn columns(neighbors: &[(Vec2, Vec2)]) -> [Vec<f32>; 4] {
    [
        neighbors.iter().map(|(p, _)| p.x).collect(),
        neighbors.iter().map(|(p, _)| p.y).collect(),
        neighbors.iter().map(|(_, v)| v.x).collect(),
        neighbors.iter().map(|(_, v)| v.y).collect(),
    ]
}

fn block(columns: &[Vec<f32>; 4]) -> NeighborBlock<'_> {
    let [xs, ys, vxs, vys] = columns;
    NeighborBlock { xs, ys, vxs, vys }
}

fn in_a_block(view: &FlockView, neighbors: &[(Vec2, Vec2)], origin: Vec2) -> FlockSums {
    let placed: Vec<(Vec2, Vec2)> = neighbors.iter().map(|(o, v)| (*o + origin, *v)).collect();
    let mut batch = FlockBatch::new(view);
    batch.add_block(block(&columns(&placed)), -origin);
    batch.finish()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn a_block_sums_what_one_by_one_sums(
        neighbors in proptest::collection::vec(
            (vec(-100.0f32..100.0), vec(-300.0f32..300.0)), 0..40),
        on_the_spot in 0usize..3,
        origin in vec(-1000.0f32..1000.0),
        vel in vec(-300.0f32..300.0),
        fov in proptest::option::of(0.0f32..4.0),
        separation in 0.0f32..80.0,
        reach in 0.0f32..120.0,
    ) {
        // Offsets that are whole pixels survive the trip through absolute
        // positions exactly, so both ways see the same neighbors.
        let mut neighbors: Vec<(Vec2, Vec2)> =
            neighbors.into_iter().map(|(o, v)| (o.round(), v)).collect();
        // The agent itself, and others on its very spot.
        neighbors.extend(std::iter::repeat_n((Vec2::ZERO, Vec2::X), on_the_spot));
        let params = FlockParams {
            separation_radius: separation,
            neighbor_radius: reach,
            view_half_angle: fov,
            ..Default::default()
        };
        let view = FlockView::new(&params, vel);
        let origin = origin.round();
        let (a, b) = (one_by_one(&view, &neighbors), in_a_block(&view, &neighbors, origin));
        prop_assert_eq!(a.neighbors(), b.neighbors());
        let (fa, fb) = (a.steering(vel, &params, 220.0, 0.15), b.steering(vel, &params, 220.0, 0.15));
        prop_assert!((fa - fb).length() <= 1e-3 * (1.0 + fa.length()), "{fa} vs {fb}");
    }

    #[test]
    fn a_block_of_any_floats_sums_to_finite_steering(
        neighbors in proptest::collection::vec((vec(any_float()), vec(any_float())), 0..20),
        shift in vec(any_float()),
        vel in vec(any_float()),
        radius in any_float(),
        fov in proptest::option::of(any_float()),
    ) {
        let params = FlockParams {
            separation_radius: radius,
            neighbor_radius: radius,
            view_half_angle: fov,
            ..Default::default()
        };
        let view = FlockView::new(&params, vel);
        let candidates = columns(&neighbors);
        let mut batch = FlockBatch::new(&view);
        batch.add_block(block(&candidates), shift);
        prop_assert!(batch.finish().steering(vel, &params, 220.0, 0.15).is_finite());
    }
}

proptest! {
    #[test]
    fn a_finite_block_sums_exactly_as_a_checked_one(
        neighbors in proptest::collection::vec((vec(-200.0f32..200.0), vec(-300.0f32..300.0)), 0..40),
        vel in vec(-300.0f32..300.0),
    ) {
        let params = FlockParams::default();
        let view = FlockView::new(&params, vel);
        let candidates = columns(&neighbors);
        let block = block(&candidates);
        let (mut checked, mut finite) = (FlockBatch::new(&view), FlockBatch::new(&view));
        checked.add_block(block, Vec2::ZERO);
        finite.add_finite_block(block, Vec2::ZERO);
        prop_assert_eq!(checked.finish(), finite.finish());
    }
}
