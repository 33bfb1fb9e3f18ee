//! Every core function: the chapter's worked numbers, and degenerate input.

use approx::assert_relative_eq;
use glam::Vec2;
use reynolds::defaults::*;
use reynolds::{
    behaviors::*, combine::*, flock::*, level::*, math::*, measure::*, model::*, predict::*,
    wander::*, wrap::*,
};

const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

fn non_finite_vectors() -> Vec<Vec2> {
    NON_FINITE
        .iter()
        .flat_map(|&x| [Vec2::new(x, 0.0), Vec2::new(1.0, x), Vec2::splat(x)])
        .collect()
}

fn assert_finite(v: Vec2, what: &str) {
    assert!(v.is_finite(), "{what} gave {v}");
}

#[test]
fn truncated_keeps_short_vectors_and_shortens_long_ones() {
    assert_eq!(truncated(Vec2::new(3.0, 4.0), 5.0), Vec2::new(3.0, 4.0));
    let long = truncated(Vec2::new(30.0, 40.0), 5.0);
    assert_relative_eq!(long.length(), 5.0, epsilon = 1e-5);
    assert_relative_eq!(long.x / long.y, 0.75, epsilon = 1e-6);
    assert_eq!(truncated(Vec2::ZERO, 0.0), Vec2::ZERO);
    assert_eq!(truncated(Vec2::new(1.0, 0.0), f32::INFINITY), Vec2::X);
}

#[test]
fn truncated_is_safe_on_bad_input() {
    for v in non_finite_vectors() {
        assert_eq!(truncated(v, 10.0), Vec2::ZERO);
    }
    for limit in [-1.0, f32::NAN, f32::NEG_INFINITY] {
        assert_eq!(truncated(Vec2::new(3.0, 4.0), limit), Vec2::ZERO);
    }
    // |v| overflows to infinity, but the direction survives.
    let huge = truncated(Vec2::splat(f32::MAX), 2.0);
    assert_relative_eq!(huge.length(), 2.0, epsilon = 1e-5);
}

#[test]
fn steering_is_the_change_over_the_response_time() {
    // Exercise 1: (100, 0) - (0, 50) over 0.25 s, then capped at 380.
    let s = steering(Vec2::new(100.0, 0.0), Vec2::new(0.0, 50.0), 0.25);
    assert_eq!(s, Vec2::new(400.0, -200.0));
    let capped = truncated(s, 380.0);
    assert_relative_eq!(capped.length(), 380.0, epsilon = 1e-3);
    assert_relative_eq!(capped.x, 339.88, epsilon = 0.01);
    assert_relative_eq!(capped.y, -169.94, epsilon = 0.01);
    // A response time of 1 is the common `desired - vel`.
    assert_eq!(steering(Vec2::X * 7.0, Vec2::Y, 1.0), Vec2::new(7.0, -1.0));
}

#[test]
fn steering_with_no_response_time_pushes_as_hard_as_allowed() {
    for rt in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
        let s = steering(Vec2::new(220.0, 0.0), Vec2::ZERO, rt);
        assert_finite(s, "steering");
        assert!(s.x > 0.0 && s.y == 0.0, "rt {rt}: {s}");
        assert_relative_eq!(truncated(s, 380.0).length(), 380.0, epsilon = 1e-3);
    }
    // An infinite reaction time never reacts.
    assert_eq!(steering(Vec2::X, Vec2::ZERO, f32::INFINITY), Vec2::ZERO);
    // No change, no steering, whatever the response time.
    assert_eq!(steering(Vec2::X, Vec2::X, 0.0), Vec2::ZERO);
    for v in non_finite_vectors() {
        assert_finite(steering(v, Vec2::X, 0.15), "steering(bad desired)");
        assert_finite(steering(Vec2::X, v, 0.15), "steering(bad vel)");
    }
}

#[test]
fn step_reaches_top_speed_in_058_s_and_turns_around_in_116_s() {
    let limits = Limits::default();
    let dt = 1.0 / 600.0;
    let mut agent = Kinematics::<Vec2>::default();
    let mut t = 0.0;
    while agent.vel.length() < MAX_SPEED - 1e-3 {
        agent = step(agent, Vec2::X * 1e6, limits, dt);
        t += dt;
    }
    assert_relative_eq!(t, 0.58, epsilon = 0.01);
    assert_relative_eq!(time_to_speed(MAX_SPEED, MAX_FORCE), 0.5789, epsilon = 1e-3);
    let mut t = 0.0;
    while agent.vel.x > -MAX_SPEED + 1e-3 {
        agent = step(agent, -Vec2::X * 1e6, limits, dt);
        t += dt;
    }
    assert_relative_eq!(t, 1.16, epsilon = 0.01);
}

#[test]
fn step_is_semi_implicit_euler_with_both_caps() {
    let limits = Limits::default();
    let agent = Kinematics {
        pos: Vec2::new(10.0, 0.0),
        vel: Vec2::new(200.0, 0.0),
    };
    // The force is capped at 380 before it changes the velocity, the speed at
    // 220 after, and the *new* velocity moves the agent.
    let next = step(agent, Vec2::new(1000.0, 0.0), limits, 0.1);
    assert_eq!(next.vel, Vec2::new(220.0, 0.0));
    assert_relative_eq!(next.pos.x, 32.0, epsilon = 1e-4);
}

#[test]
fn step_with_no_time_or_bad_input_changes_nothing_and_spreads_no_nan() {
    let agent = Kinematics {
        pos: Vec2::new(1.0, 2.0),
        vel: Vec2::new(3.0, 4.0),
    };
    for dt in [0.0, -0.1, f32::NAN, f32::INFINITY] {
        assert_eq!(step(agent, Vec2::X * 100.0, Limits::default(), dt), agent);
    }
    for v in non_finite_vectors() {
        let bad = Kinematics { pos: v, vel: v };
        let next = step(bad, v, Limits::default(), 1.0 / 60.0);
        assert_finite(next.pos, "step pos");
        assert_finite(next.vel, "step vel");
    }
    let broken = Limits {
        max_speed: f32::NAN,
        max_force: -5.0,
    };
    let next = step(agent, Vec2::X, broken, 0.1);
    assert_eq!(next.vel, Vec2::ZERO, "a NaN top speed stops the agent");
}

#[test]
fn braking_distance_matches_the_chapter() {
    assert_relative_eq!(braking_distance(220.0, 380.0), 63.68, epsilon = 0.01);
    // Exercise 2: 300 px/s with 500 px/s².
    assert_eq!(braking_distance(300.0, 500.0), 90.0);
    assert_eq!(braking_distance(0.0, 0.0), 0.0);
    assert_eq!(braking_distance(10.0, 0.0), f32::INFINITY);
    assert_eq!(braking_distance(f32::NAN, 380.0), 0.0);
    assert_eq!(
        braking_distance(-220.0, 380.0),
        braking_distance(220.0, 380.0)
    );
    assert_eq!(time_to_speed(1.0, f32::NAN), f32::INFINITY);
}

#[test]
fn seek_heads_straight_at_the_target_at_full_speed() {
    let d = seek(Vec2::new(1.0, 1.0), Vec2::new(4.0, 5.0), 220.0);
    assert_relative_eq!(d.length(), 220.0, epsilon = 1e-3);
    assert_relative_eq!(d.x / d.y, 0.75, epsilon = 1e-6);
    assert_eq!(seek(Vec2::ONE, Vec2::ONE, 220.0), Vec2::ZERO);
    for v in non_finite_vectors() {
        assert_eq!(seek(v, Vec2::ZERO, 220.0), Vec2::ZERO);
        assert_eq!(seek(Vec2::ZERO, v, 220.0), Vec2::ZERO);
    }
    assert_eq!(seek(Vec2::ZERO, Vec2::X, f32::NAN), Vec2::ZERO);
}

#[test]
fn arrive_slows_in_step_with_the_distance_left() {
    let target = Vec2::ZERO;
    let at = |d: f32| arrive(Vec2::new(-d, 0.0), target, 220.0, 150.0).length();
    assert_relative_eq!(at(400.0), 220.0, epsilon = 1e-3);
    assert_relative_eq!(at(150.0), 220.0, epsilon = 1e-3);
    assert_relative_eq!(at(75.0), 110.0, epsilon = 1e-3);
    assert_eq!(at(0.0), 0.0);
    // The chapter's remap: 0..150 px becomes 0..220 px/s.
    assert_relative_eq!(at(30.0), 44.0, epsilon = 1e-3);
}

#[test]
fn arrive_with_a_bad_radius_is_seek_and_never_nan() {
    let pos = Vec2::new(-10.0, 0.0);
    for r in [0.0, -5.0, f32::NAN] {
        assert_eq!(
            arrive(pos, Vec2::ZERO, 220.0, r),
            seek(pos, Vec2::ZERO, 220.0)
        );
        assert_eq!(arrive(Vec2::ZERO, Vec2::ZERO, 220.0, r), Vec2::ZERO);
    }
    assert_eq!(arrive(pos, Vec2::ZERO, 220.0, f32::INFINITY), Vec2::ZERO);
    // So tiny a radius that 220 / radius overflows: on the target.
    assert_eq!(
        arrive(Vec2::ZERO, Vec2::new(1e-38, 0.0), 220.0, 1e-37),
        Vec2::ZERO
    );
    for v in non_finite_vectors() {
        assert_finite(arrive(v, Vec2::ZERO, 220.0, 150.0), "arrive");
    }
}

#[test]
fn flee_panics_only_inside_its_radius() {
    let vel = Vec2::new(3.0, -4.0);
    let inside = flee(Vec2::new(0.0, 100.0), vel, Vec2::ZERO, 220.0, 220.0);
    assert_relative_eq!(inside.y, 220.0, epsilon = 1e-3);
    assert_eq!(
        flee(Vec2::new(0.0, 221.0), vel, Vec2::ZERO, 220.0, 220.0),
        vel
    );
    // Exactly on the edge still panics: "inside" is `d <= radius`.
    assert_relative_eq!(
        flee(Vec2::new(0.0, 220.0), vel, Vec2::ZERO, 220.0, 220.0).y,
        220.0,
        epsilon = 1e-3
    );
    // On the threat there is no way away: it wants to stop.
    assert_eq!(flee(Vec2::ZERO, vel, Vec2::ZERO, 220.0, 220.0), Vec2::ZERO);
    for r in [f32::NAN, -1.0] {
        assert_eq!(flee(Vec2::X, vel, Vec2::ZERO, 220.0, r), vel);
    }
    for v in non_finite_vectors() {
        assert_finite(flee(v, v, Vec2::ZERO, 220.0, 220.0), "flee");
    }
}

#[test]
fn pursue_aims_ahead_as_the_chapter_works_out() {
    let right = Vec2::new(100.0, 0.0);
    let aim = |d: f32, v: Vec2| predicted_position(Vec2::ZERO, Vec2::new(d, 0.0), v, 220.0);
    assert_eq!(
        aim(440.0, right) - Vec2::new(440.0, 0.0),
        Vec2::new(100.0, 0.0)
    );
    assert_eq!(
        aim(110.0, right) - Vec2::new(110.0, 0.0),
        Vec2::new(50.0, 0.0)
    );
    // Exercise 3: 330 px and 66 px from a target moving (0, 120).
    let up = Vec2::new(0.0, 120.0);
    assert_relative_eq!((aim(330.0, up) - Vec2::new(330.0, 0.0)).length(), 120.0);
    assert_relative_eq!(
        (aim(66.0, up) - Vec2::new(66.0, 0.0)).length(),
        36.0,
        epsilon = 1e-4
    );
    // On the target, pursue is seek.
    assert_eq!(pursue(Vec2::ONE, Vec2::ONE, right, 220.0), Vec2::ZERO);
    let far = pursue(
        Vec2::ZERO,
        Vec2::new(440.0, 0.0),
        Vec2::new(0.0, 440.0),
        220.0,
    );
    assert_eq!(far, seek(Vec2::ZERO, Vec2::new(440.0, 440.0), 220.0));
}

#[test]
fn look_ahead_is_capped_and_safe() {
    assert_eq!(look_ahead(Vec2::ZERO, Vec2::ZERO, 0.0), 0.0);
    assert_eq!(look_ahead(Vec2::ZERO, Vec2::X, 0.0), MAX_LOOK_AHEAD);
    assert_eq!(look_ahead(Vec2::ZERO, Vec2::X, f32::NAN), MAX_LOOK_AHEAD);
    for v in non_finite_vectors() {
        let ahead = look_ahead(v, Vec2::ZERO, 220.0);
        assert!(ahead.is_finite());
        assert_finite(
            pursue(Vec2::ZERO, Vec2::X, v, 220.0),
            "pursue(bad velocity)",
        );
    }
}

#[test]
fn evade_flees_from_where_the_threat_will_be() {
    // A threat 300 px off, outside the panic radius, but coming fast.
    let pos = Vec2::new(300.0, 0.0);
    let vel = Vec2::ZERO;
    let threat_vel = Vec2::new(200.0, 0.0);
    assert_eq!(flee(pos, vel, Vec2::ZERO, 220.0, 220.0), vel);
    let desired = evade(pos, vel, Vec2::ZERO, threat_vel, 220.0, 220.0);
    assert_relative_eq!(desired.x, 220.0, epsilon = 1e-3);
    // A still threat: evade is flee.
    assert_eq!(
        evade(Vec2::X, vel, Vec2::ZERO, Vec2::ZERO, 220.0, 220.0),
        flee(Vec2::X, vel, Vec2::ZERO, 220.0, 220.0)
    );
}

#[test]
fn wander_steps_scale_with_the_square_root_of_dt() {
    assert_eq!(wander_step(0.0, 1.0 / 4.0, 0.65, 1.0), 0.65 * 0.5);
    assert_eq!(wander_step(0.0, 1.0 / 16.0, 0.65, -1.0), -0.65 * 0.25);
    assert_eq!(wander_step(0.3, 0.0, 0.65, 1.0), 0.3);
    for bad in [f32::NAN, f32::INFINITY] {
        assert!(wander_step(bad, 0.1, 0.65, 0.5).is_finite());
        assert!(wander_step(0.0, bad, 0.65, 0.5).is_finite());
        assert!(wander_step(0.0, 0.1, bad, 0.5).is_finite());
        assert!(wander_step(0.0, 0.1, 0.65, bad).is_finite());
    }
    assert_eq!(wander_step(0.2, -1.0, 0.65, 1.0), 0.2);
    assert!(wander_step(1e6, 0.1, 0.65, 0.5).abs() < 7.0, "kept small");
    assert_relative_eq!(wander(0.0, 220.0).x, 220.0, epsilon = 1e-4);
    assert_relative_eq!(
        wander(std::f32::consts::PI, 220.0).x,
        -220.0,
        epsilon = 1e-3
    );
    assert_eq!(wander(f32::NAN, 220.0), wander(0.0, 220.0));
    assert_relative_eq!(wander_spread(0.65, 1.0).to_degrees(), 21.5, epsilon = 0.1);
}

#[test]
fn steering_sum_weights_each_behavior_and_keeps_the_mean_desire() {
    let vel = Vec2::new(10.0, 0.0);
    let a = Vec2::new(220.0, 0.0);
    let b = Vec2::new(0.0, 220.0);
    let mut sum = SteeringSum::default();
    sum.add(1.0, a, vel, 0.15);
    sum.add(3.0, b, vel, 0.15);
    let expected = steering(a, vel, 0.15) + steering(b, vel, 0.15) * 3.0;
    assert_relative_eq!(sum.steering().x, expected.x, epsilon = 1e-2);
    assert_relative_eq!(sum.steering().y, expected.y, epsilon = 1e-2);
    assert_eq!(sum.desired(vel), (a + b * 3.0) / 4.0);
    assert_eq!(SteeringSum::default().desired(vel), vel);
    let mut bad = SteeringSum::default();
    bad.add(f32::NAN, a, vel, 0.15);
    bad.add(1.0, Vec2::NAN, vel, 0.15);
    bad.add_force(f32::INFINITY, a);
    bad.add_force(1.0, Vec2::NAN);
    assert_finite(bad.steering(), "sum");
    assert_finite(bad.desired(vel), "desired");
}

#[test]
fn measured_velocity_is_smoothed_with_a_half_life() {
    // After one half-life of steady motion at 100 px/s, half the way there.
    let dt = 0.1;
    let v = measured_velocity(Vec2::ZERO, Vec2::ZERO, Vec2::new(10.0, 0.0), dt, 0.1);
    assert_relative_eq!(v.x, 50.0, epsilon = 1e-4);
    // Many steps of steady motion converge on the true velocity.
    let mut v = Vec2::ZERO;
    let mut pos = Vec2::ZERO;
    for _ in 0..120 {
        let next = pos + Vec2::new(100.0, 0.0) / 60.0;
        v = measured_velocity(v, pos, next, 1.0 / 60.0, MEASURE_HALF_LIFE);
        pos = next;
    }
    assert_relative_eq!(v.x, 100.0, epsilon = 1e-2);
    assert_eq!(follow_share(0.1, -1.0), 1.0);
    assert_eq!(follow_share(f32::NAN, 0.1), 0.0);
    for bad in non_finite_vectors() {
        assert_finite(measured_velocity(bad, bad, bad, 0.1, 0.1), "measure");
    }
}

#[test]
fn wrap_moves_an_agent_to_the_opposite_edge() {
    let (min, max) = (Vec2::ZERO, Vec2::new(1000.0, 700.0));
    assert_eq!(
        wrap(Vec2::new(1003.0, -2.0), min, max).0,
        Vec2::new(3.0, 698.0)
    );
    assert_eq!(
        wrap(Vec2::new(1000.0, 0.0), min, max).0,
        Vec2::new(1000.0, 0.0)
    );
    assert_eq!(
        wrap(Vec2::new(-2500.0, 0.0), min, max).0,
        Vec2::new(500.0, 0.0)
    );
    // No wrap where the size is not positive and finite.
    let p = Vec2::new(-5.0, 9000.0);
    assert_eq!(
        wrap(p, Vec2::ZERO, Vec2::new(0.0, f32::NAN)),
        (p, Vec2::ZERO)
    );
    assert_eq!(wrap(p, Vec2::new(10.0, 10.0), Vec2::ZERO), (p, Vec2::ZERO));
}

#[test]
fn heading_follows_the_velocity_and_keeps_still_agents_facing() {
    assert_eq!(heading(Vec2::new(-2.0, 0.0), Vec2::X), Vec2::NEG_X);
    assert_eq!(
        heading(Vec2::new(0.0, 1.0), Vec2::Y),
        Vec2::Y,
        "1 px/s is not enough"
    );
    assert_eq!(heading(Vec2::NAN, Vec2::NEG_Y), Vec2::NEG_Y);
    // A previous heading that is not a unit vector is made one, or +x.
    assert_eq!(heading(Vec2::ZERO, Vec2::new(0.0, 3.0)), Vec2::Y);
    assert_eq!(heading(Vec2::ZERO, Vec2::NAN), Vec2::X);
    assert_eq!(heading(Vec2::ZERO, Vec2::ZERO), Vec2::X);
    // Huge speeds still have a direction.
    assert_eq!(heading(Vec2::new(f32::MAX, 0.0), Vec2::Y), Vec2::X);
    let diagonal = heading(Vec2::new(3.0, 4.0), Vec2::X);
    assert!((diagonal - Vec2::new(0.6, 0.8)).length() < 1e-6);
}

#[test]
fn arrive_overshoot_predicts_the_chapter_and_is_safe() {
    let limits = Limits::default();
    let dt = 1.0 / 60.0;
    assert_relative_eq!(
        arrive_overshoot(limits, 1.0, 150.0, 400.0, 0.0, dt, 20.0),
        63.5,
        epsilon = 1.0
    );
    assert_relative_eq!(
        arrive_overshoot(limits, 1.0, 150.0, 400.0, 220.0, dt, 20.0),
        72.8,
        epsilon = 1.0
    );
    assert_eq!(
        arrive_overshoot(limits, 0.15, 150.0, 400.0, 0.0, dt, 20.0),
        0.0
    );
    for bad in NON_FINITE {
        let o = arrive_overshoot(limits, bad, bad, bad, bad, bad, bad);
        assert!(o.is_finite());
        assert!(arrive_overshoot(limits, bad, 50.0, 400.0, 0.0, dt, 5.0).is_finite());
    }
    assert_eq!(
        arrive_overshoot(limits, 0.15, 50.0, 400.0, 0.0, 0.0, 5.0),
        0.0
    );
}

#[test]
fn separation_pushes_away_harder_when_closer_and_never_nan() {
    let only_separation = FlockParams {
        alignment_weight: 0.0,
        cohesion_weight: 0.0,
        ..Default::default()
    };
    let push = |d: f32| {
        flock_steering(
            Vec2::ZERO,
            [Neighbor {
                offset: Vec2::new(d, 0.0),
                vel: Vec2::ZERO,
                radius: 0.0,
            }],
            &only_separation,
            220.0,
            0.15,
        )
    };
    assert!(
        push(5.0).x < push(20.0).x && push(20.0).x < 0.0,
        "closer pushes harder"
    );
    assert_eq!(push(30.0), Vec2::ZERO, "outside 25 px nothing");
    // Two agents on one spot: no direction, no NaN.
    assert_eq!(push(0.0), Vec2::ZERO);
    for v in non_finite_vectors() {
        let f = flock_steering(
            v,
            [Neighbor {
                offset: v,
                vel: v,
                radius: v.x,
            }],
            &FlockParams::default(),
            220.0,
            0.15,
        );
        assert_finite(f, "flock");
    }
}

#[test]
fn alignment_and_cohesion_follow_the_neighbors() {
    let alignment = FlockParams {
        separation_weight: 0.0,
        cohesion_weight: 0.0,
        ..Default::default()
    };
    let neighbors = [
        Neighbor {
            offset: Vec2::new(40.0, 0.0),
            vel: Vec2::new(0.0, 100.0),
            radius: 0.0,
        },
        Neighbor {
            offset: Vec2::new(-40.0, 0.0),
            vel: Vec2::new(0.0, 200.0),
            radius: 0.0,
        },
        Neighbor {
            offset: Vec2::new(200.0, 0.0),
            vel: Vec2::new(0.0, -900.0),
            radius: 0.0,
        },
    ];
    let f = flock_steering(Vec2::ZERO, neighbors, &alignment, 220.0, 0.5);
    // Toward the average velocity of the two within 70 px: (0, 150) / 0.5.
    assert_relative_eq!(f.y, 300.0, epsilon = 1e-3);
    let cohesion = FlockParams {
        separation_weight: 0.0,
        alignment_weight: 0.0,
        ..Default::default()
    };
    let f = flock_steering(
        Vec2::ZERO,
        [Neighbor {
            offset: Vec2::new(0.0, 50.0),
            vel: Vec2::ZERO,
            radius: 0.0,
        }],
        &cohesion,
        220.0,
        1.0,
    );
    assert_relative_eq!(f.y, 220.0, epsilon = 1e-3);
    assert_eq!(
        flock_steering(Vec2::X, [], &FlockParams::default(), 220.0, 0.15),
        Vec2::ZERO
    );
}

#[test]
fn a_field_of_view_hides_neighbors_behind() {
    let params = FlockParams {
        view_half_angle: Some(std::f32::consts::FRAC_PI_2),
        ..Default::default()
    };
    let behind = [Neighbor {
        offset: Vec2::new(-10.0, 0.0),
        vel: Vec2::ZERO,
        radius: 0.0,
    }];
    assert_eq!(
        flock_steering(Vec2::new(100.0, 0.0), behind, &params, 220.0, 0.15),
        Vec2::ZERO
    );
    let ahead = [Neighbor {
        offset: Vec2::new(10.0, 0.0),
        vel: Vec2::ZERO,
        radius: 0.0,
    }];
    assert_ne!(
        flock_steering(Vec2::new(100.0, 0.0), ahead, &params, 220.0, 0.15),
        Vec2::ZERO
    );
}

#[test]
fn offsets_take_the_short_way_round_a_wrapping_world() {
    let size = Vec2::new(1000.0, 700.0);
    assert_eq!(
        wrapped_offset(Vec2::new(10.0, 0.0), Vec2::new(990.0, 0.0), size),
        Vec2::new(-20.0, 0.0)
    );
    assert_eq!(
        wrapped_offset(Vec2::new(10.0, 0.0), Vec2::new(400.0, 0.0), size),
        Vec2::new(390.0, 0.0)
    );
    assert_eq!(
        wrapped_offset(Vec2::ZERO, Vec2::new(990.0, 0.0), Vec2::ZERO),
        Vec2::new(990.0, 0.0)
    );
}

#[test]
fn a_block_skips_the_agent_itself_and_reads_every_length() {
    let params = FlockParams::default();
    let view = FlockView::new(&params, Vec2::ZERO);
    // 0 to 20 neighbors in a row, 10 px apart, plus the agent at the origin:
    // every length, whole chunks of four and the padded rest.
    for n in 0..=20usize {
        let xs: Vec<f32> = (0..=n).map(|i| i as f32 * 10.0).collect();
        let zeros = vec![0.0; n + 1];
        let mut batch = FlockBatch::new(&view);
        batch.add_block(
            NeighborBlock {
                xs: &xs,
                ys: &zeros,
                vxs: &zeros,
                vys: &zeros,
                radii: None,
            },
            Vec2::ZERO,
        );
        // Within 70 px: 10, 20, ..., 60 (70 is not closer than 70).
        assert_eq!(batch.finish().neighbors(), n.min(6) as u32, "{n} neighbors");
    }
}

#[test]
fn a_neighbor_with_a_non_finite_velocity_counts_as_still() {
    let params = FlockParams {
        separation_weight: 0.0,
        cohesion_weight: 0.0,
        ..Default::default()
    };
    let view = FlockView::new(&params, Vec2::ZERO);
    let xs = [10.0, 20.0];
    let mut batch = FlockBatch::new(&view);
    batch.add_block(
        NeighborBlock {
            xs: &xs,
            ys: &[0.0, 0.0],
            vxs: &[f32::NAN, 100.0],
            vys: &[0.0, f32::INFINITY],
            radii: None,
        },
        Vec2::ZERO,
    );
    let sums = batch.finish();
    assert_eq!(sums.neighbors(), 2);
    assert_eq!(sums.steering(Vec2::ZERO, &params, 220.0, 1.0), Vec2::ZERO);
}

#[test]
fn priority_takes_the_first_group_that_asks_and_weighted_adds_them_all() {
    let mut groups = PriorityGroups::default();
    groups.add(2, Vec2::new(100.0, 0.0));
    groups.add(3, Vec2::new(0.0, 50.0));
    // Nothing above: the normal group speaks.
    assert_eq!(groups.first_above(1.0), Vec2::new(100.0, 0.0));
    assert_eq!(groups.total(), Vec2::new(100.0, 50.0));
    // A whisper below the threshold does not silence it...
    groups.add(0, Vec2::new(0.5, 0.0));
    assert_eq!(groups.first_above(1.0), Vec2::new(100.0, 0.0));
    // ...but a real request does, however small against the rest.
    groups.add(0, Vec2::new(0.0, -2.0));
    assert_eq!(groups.first_above(1.0), Vec2::new(0.5, -2.0));
    // Groups past the last count as the last; non-finite forces add nothing.
    groups.add(9, Vec2::new(0.0, 1.0));
    groups.add(1, Vec2::NAN);
    assert_eq!(groups.groups[3], Vec2::new(0.0, 51.0));
    assert_eq!(groups.groups[1], Vec2::ZERO);
    // A NaN threshold is 0; an infinite one finds no group: the sum.
    let all = groups.total();
    assert_eq!(groups.first_above(f32::INFINITY), all);
    assert_eq!(groups.first_above(f32::NAN), Vec2::new(0.5, -2.0));
}

#[test]
fn a_heavy_agent_changes_its_velocity_more_slowly() {
    let step_once = |vehicle: Vehicle, force: Vec2| {
        step_vehicle(Kinematics::default(), Vec2::X, force, vehicle, 0.1).0
    };
    let force = Vec2::new(100.0, 0.0); // under the cap
    let heavy = Vehicle {
        mass: 2.0,
        ..Vehicle::default()
    };
    assert_eq!(
        step_once(Vehicle::default(), force).vel,
        Vec2::new(10.0, 0.0)
    );
    assert_eq!(step_once(heavy, force).vel, Vec2::new(5.0, 0.0));
    // The force is capped before the mass divides it.
    let shoved = step_once(heavy, Vec2::new(1e6, 0.0));
    assert_relative_eq!(shoved.vel.x, MAX_FORCE / 2.0 * 0.1, epsilon = 1e-4);
    // A bad mass counts as 1.
    for mass in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let odd = Vehicle {
            mass,
            ..Vehicle::default()
        };
        assert_eq!(step_once(odd, force), step_once(Vehicle::default(), force));
    }
}

#[test]
fn a_turn_limited_vehicle_turns_at_its_rate_and_from_rest_turns_on_the_spot() {
    let car = Vehicle {
        max_turn_rate: 1.0,
        ..Vehicle::default()
    };
    let dt = 1.0 / 60.0;
    // Full speed along +x, steering straight up at the cap: the velocity
    // turns by exactly the limit, no faster than before.
    let moving = Kinematics {
        pos: Vec2::ZERO,
        vel: Vec2::new(MAX_SPEED, 0.0),
    };
    let up = Vec2::new(0.0, 1e4);
    let (next, facing) = step_vehicle(moving, Vec2::X, up, car, dt);
    assert_relative_eq!(facing.to_angle(), dt, epsilon = 1e-6);
    assert_relative_eq!(next.vel.to_angle(), dt, epsilon = 1e-5);
    let free = step(moving, up, Limits::default(), dt);
    assert!(next.vel.length() < free.vel.length());
    // Its speed is what the steering's part along +x left it: the cap is
    // all sideways, so the full 220 px/s.
    assert_relative_eq!(next.vel.length(), free.vel.x, epsilon = 1e-3);
    // From rest, asked to go backward, a car turns on the spot first...
    let (parked, facing) = step_vehicle(
        Kinematics::default(),
        Vec2::X,
        Vec2::new(-1e4, 0.0),
        car,
        dt,
    );
    assert_eq!(parked.vel, Vec2::ZERO);
    assert_relative_eq!(facing.to_angle(), dt, epsilon = 1e-6);
    // ...and drives off once the way is within a right angle.
    let mut state = (Kinematics::default(), Vec2::X);
    let mut steps = 0;
    while state.0.vel == Vec2::ZERO && steps < 1000 {
        state = step_vehicle(state.0, state.1, Vec2::new(-1e4, 0.0), car, dt);
        steps += 1;
    }
    assert!(
        state.0.vel.length() > 0.0 && state.1.x <= 0.0,
        "{state:?} after {steps} steps"
    );
    // A bad rate is no limit.
    for rate in [f32::NAN, -1.0] {
        let odd = Vehicle {
            max_turn_rate: rate,
            ..Vehicle::default()
        };
        assert_eq!(
            step_vehicle(moving, Vec2::X, up, odd, dt).0,
            step(moving, up, Limits::default(), dt)
        );
    }
}

#[test]
fn separation_is_measured_between_the_bodies_edges() {
    let only_separation = FlockParams {
        alignment_weight: 0.0,
        cohesion_weight: 0.0,
        ..Default::default()
    };
    let push = |d: f32, body: f32, other: f32| {
        let view = FlockView::new(&only_separation, Vec2::ZERO).with_body_radius(body);
        let mut sums = FlockSums::default();
        sums.add(
            Neighbor {
                offset: Vec2::new(d, 0.0),
                vel: Vec2::ZERO,
                radius: other,
            },
            &view,
        );
        sums.steering(Vec2::ZERO, &only_separation, 220.0, 0.15)
    };
    // Points 40 px apart do not push (25 px radius); bodies of 10 and 10
    // leave a 20 px gap, which does.
    assert_eq!(push(40.0, 0.0, 0.0), Vec2::ZERO);
    assert!(push(40.0, 10.0, 10.0).x < 0.0);
    // The push depends on the gap only: 40 px apart with 20 px of bodies is
    // 20 px apart with none.
    assert_relative_eq!(
        push(40.0, 12.0, 8.0).x,
        push(20.0, 0.0, 0.0).x,
        epsilon = 1e-3
    );
    // Touching or overlapping: as hard as separation pushes.
    assert_relative_eq!(
        push(15.0, 10.0, 10.0).x,
        push(20.0, 10.0, 10.0).x,
        epsilon = 1e-3
    );
    let reach = only_separation.reach_with_bodies(10.0, 10.0);
    assert_eq!(reach, 70.0_f32.max(25.0 + 20.0));
}

#[test]
fn a_turn_limit_catches_turns_too_small_for_a_cosine() {
    // Found by the property test: a sideways push turns the velocity by
    // 3e-4 rad in a tiny step, too little for cos(3e-4) to differ from 1
    // in f32, yet a limit of 0 must stop it.
    let heading = Vec2::from_angle(3.226_372_2);
    let car = Vehicle {
        max_turn_rate: 0.0,
        ..Vehicle::default()
    };
    let agent = Kinematics {
        pos: Vec2::ZERO,
        vel: heading * 150.506_74,
    };
    let (next, facing) = step_vehicle(
        agent,
        heading,
        Vec2::new(0.0, 1_907.115_2),
        car,
        1.183_614_3e-4,
    );
    let turn = |to: Vec2| heading.perp_dot(to).atan2(heading.dot(to)).abs();
    assert!(turn(facing) < 1e-6, "heading turned {}", turn(facing));
    assert!(turn(next.vel) < 1e-6, "velocity turned {}", turn(next.vel));
}

#[test]
fn a_negative_weight_counts_as_nothing_as_everywhere_else() {
    // The plugin and flocking treat a negative weight as 0; the core's own
    // sum did not, and pushed the other way.
    let vel = Vec2::new(50.0, 0.0);
    let mut with_negative = SteeringSum::default();
    with_negative.add(1.0, Vec2::new(0.0, 220.0), vel, 0.15);
    with_negative.add(-2.0, Vec2::new(220.0, 0.0), vel, 0.15);
    with_negative.add_force(-1.0, Vec2::new(0.0, 100.0));
    let mut without = SteeringSum::default();
    without.add(1.0, Vec2::new(0.0, 220.0), vel, 0.15);
    assert_eq!(with_negative.steering(), without.steering());
    assert_eq!(with_negative.desired(vel), without.desired(vel));
    assert_eq!(sanitize_weight(-3.0), 0.0);
    assert_eq!(sanitize_weight(f32::NAN), 0.0);
    assert_eq!(sanitize_weight(2.5), 2.5);
}

/// The closest an agent comes to a wall `free` px ahead, starting at the
/// speed `stopping_speed` allows there and meaning, every step, the speed
/// `stop` allows for what is left (negative: it went through).
fn closest_approach(free: f32, hz: f32, stop: impl Fn(f32) -> f32) -> f32 {
    let limits = Limits::default();
    let dt = 1.0 / hz;
    let mut agent = Kinematics {
        pos: Vec2::ZERO,
        vel: Vec2::X * stop(free).min(limits.max_speed),
    };
    let mut closest = free;
    for _ in 0..(10.0 * hz) as usize {
        let left = free - agent.pos.x;
        let desired = Vec2::X * stop(left);
        agent = step(
            agent,
            steering(desired, agent.vel, RESPONSE_TIME),
            limits,
            dt,
        );
        closest = closest.min(free - agent.pos.x);
    }
    closest
}

#[test]
fn at_the_stopping_speed_an_agent_stops_before_what_it_sees() {
    let stop = |left: f32| stopping_speed(left, MAX_FORCE, RESPONSE_TIME);
    // The bare braking curve, sqrt(2 a d), forgets that the velocity lags
    // what it means by a response time: it goes through.
    let braking_curve = |left: f32| (2.0 * MAX_FORCE * left.max(0.0)).sqrt();
    for hz in [60.0, 144.0] {
        for free in [5.0, 20.0, 60.0, 150.0, 400.0] {
            let closest = closest_approach(free, hz, stop);
            assert!(closest >= 0.0, "{closest} px from {free} px at {hz} Hz");
        }
        let through = closest_approach(150.0, hz, braking_curve);
        assert!(
            through < 0.0,
            "the bare braking curve stopped {through} px short at {hz} Hz"
        );
    }
}
