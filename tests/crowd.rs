//! Crowds: people who avoid each other (`AvoidAgents`), measured through
//! the real plugin in the crowd lab's scenes: who arrives, and whether any
//! two bodies overlap by more than a centimetre.

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

/// The same circle on one thread and two: the same positions to the bit.
#[test]
fn the_same_bits_on_any_thread_count() {
    let one = run("circle-24", Method::Avoid, 60.0, 1);
    let two = run("circle-24", Method::Avoid, 60.0, 2);
    assert_eq!(one.positions_hash, two.positions_hash);
    assert_eq!(one.reached, one.agents);
}
