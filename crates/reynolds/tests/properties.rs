//! Properties that hold for any input: finite in, finite out; the speed cap
//! holds; one step changes the velocity by at most `max_force * dt`.

use glam::{Vec2, Vec3};
use proptest::prelude::*;
use reynolds::{
    behaviors::*, combine::*, flight::*, flock::*, level::*, math::*, measure::*, model::*,
    path::*, wander::*, wrap::*,
};

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

fn vec3(component: impl Strategy<Value = f32> + Clone) -> impl Strategy<Value = Vec3> {
    (component.clone(), component.clone(), component).prop_map(|(x, y, z)| Vec3::new(x, y, z))
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
        let slot = slot_position(target, vel, target_vel);
        prop_assert!(slot.is_finite());
        prop_assert!(offset_pursuit(pos, slot, target_vel, max_speed, radius).is_finite());
        prop_assert!(offset_pursuit(pos, target, target_vel, max_speed, radius).is_finite());
        prop_assert!(interpose(pos, target, target_vel, vel, pos, max_speed, radius).is_finite());
        prop_assert!(follow_leader(pos, target, target_vel, vel, radius, dt, max_speed, rt).is_finite());
        prop_assert!(hiding_spot(pos, target, radius, rt).is_finite());
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
        prop_assert!(offset_pursuit(pos, target, target_vel, max_speed, radius).length() <= cap);
        prop_assert!(interpose(pos, target, target_vel, vel, pos, max_speed, radius).length() <= cap);
        prop_assert!(follow_leader(pos, target, target_vel, vel, radius, radius, max_speed, radius).length() <= cap);
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
            cruise_speed: fov,
        };
        let neighbors = offsets.into_iter().map(|(offset, vel)| Neighbor { offset, vel, radius });
        prop_assert!(flock_steering(vel, neighbors, &params, max_speed, rt).is_finite());
    }
}

/// A candidate: offset (or position), velocity and body radius.
type Candidate = (Vec2, Vec2, f32);

/// A neighbor's sums one by one through [`FlockSums::add`], and four at a
/// time through a [`FlockBatch`] block: the same, up to rounding.
fn one_by_one(view: &FlockView, neighbors: &[Candidate]) -> FlockSums {
    let mut sums = FlockSums::default();
    for &(offset, vel, radius) in neighbors {
        sums.add(
            Neighbor {
                offset,
                vel,
                radius,
            },
            view,
        );
    }
    sums
}

/// Candidates as the five columns of a [`NeighborBlock`].
fn columns(neighbors: &[Candidate]) -> [Vec<f32>; 5] {
    [
        neighbors.iter().map(|(p, _, _)| p.x).collect(),
        neighbors.iter().map(|(p, _, _)| p.y).collect(),
        neighbors.iter().map(|(_, v, _)| v.x).collect(),
        neighbors.iter().map(|(_, v, _)| v.y).collect(),
        neighbors.iter().map(|(_, _, r)| *r).collect(),
    ]
}

/// A block of `columns`, with its radii or as points.
fn block(columns: &[Vec<f32>; 5], with_radii: bool) -> NeighborBlock<'_> {
    let [xs, ys, vxs, vys, radii] = columns;
    NeighborBlock {
        xs,
        ys,
        vxs,
        vys,
        radii: with_radii.then_some(&radii[..]),
    }
}

fn in_a_block(
    view: &FlockView,
    neighbors: &[Candidate],
    origin: Vec2,
    with_radii: bool,
) -> FlockSums {
    let placed: Vec<Candidate> = neighbors
        .iter()
        .map(|(o, v, r)| (*o + origin, *v, *r))
        .collect();
    let mut batch = FlockBatch::new(view);
    batch.add_block(block(&columns(&placed), with_radii), -origin);
    batch.finish()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn a_block_sums_what_one_by_one_sums(
        neighbors in proptest::collection::vec(
            (vec(-100.0f32..100.0), vec(-300.0f32..300.0), 0.0f32..20.0), 0..40),
        on_the_spot in 0usize..3,
        origin in vec(-1000.0f32..1000.0),
        vel in vec(-300.0f32..300.0),
        fov in proptest::option::of(0.0f32..4.0),
        separation in 0.0f32..80.0,
        reach in 0.0f32..120.0,
        body in prop_oneof![Just(0.0f32), 0.0f32..30.0],
        with_radii in any::<bool>(),
    ) {
        // Offsets that are whole pixels survive the trip through absolute
        // positions exactly, so both ways see the same neighbors. Points
        // when the block has no radii.
        let mut neighbors: Vec<Candidate> = neighbors
            .into_iter()
            .map(|(o, v, r)| (o.round(), v, if with_radii { r } else { 0.0 }))
            .collect();
        // The agent itself, and others on its very spot.
        neighbors.extend(std::iter::repeat_n((Vec2::ZERO, Vec2::X, 0.0), on_the_spot));
        let params = FlockParams {
            separation_radius: separation,
            neighbor_radius: reach,
            view_half_angle: fov,
            ..Default::default()
        };
        let view = FlockView::new(&params, vel).with_body_radius(body);
        let origin = origin.round();
        let (a, b) = (
            one_by_one(&view, &neighbors),
            in_a_block(&view, &neighbors, origin, with_radii),
        );
        prop_assert_eq!(a.neighbors(), b.neighbors());
        let (fa, fb) = (a.steering(vel, &params, 220.0, 0.15), b.steering(vel, &params, 220.0, 0.15));
        prop_assert!((fa - fb).length() <= 1e-3 * (1.0 + fa.length()), "{fa} vs {fb}");
    }

    #[test]
    fn a_block_of_any_floats_sums_to_finite_steering(
        neighbors in proptest::collection::vec(
            (vec(any_float()), vec(any_float()), any_float()), 0..20),
        shift in vec(any_float()),
        vel in vec(any_float()),
        radius in any_float(),
        body in any_float(),
        fov in proptest::option::of(any_float()),
    ) {
        let params = FlockParams {
            separation_radius: radius,
            neighbor_radius: radius,
            view_half_angle: fov,
            ..Default::default()
        };
        let view = FlockView::new(&params, vel).with_body_radius(body);
        // A block's radii must be finite and not negative, as the grid's are.
        let neighbors: Vec<Candidate> =
            neighbors.into_iter().map(|(p, v, r)| (p, v, sanitize_radius(r))).collect();
        let candidates = columns(&neighbors);
        let mut batch = FlockBatch::new(&view);
        batch.add_block(block(&candidates, true), shift);
        prop_assert!(batch.finish().steering(vel, &params, 220.0, 0.15).is_finite());
    }
}

proptest! {
    #[test]
    fn a_finite_block_sums_exactly_as_a_checked_one(
        neighbors in proptest::collection::vec(
            (vec(-200.0f32..200.0), vec(-300.0f32..300.0), 0.0f32..20.0), 0..40),
        vel in vec(-300.0f32..300.0),
        with_radii in any::<bool>(),
    ) {
        let params = FlockParams::default();
        let view = FlockView::new(&params, vel);
        let candidates = columns(&neighbors);
        let block = block(&candidates, with_radii);
        let (mut checked, mut finite) = (FlockBatch::new(&view), FlockBatch::new(&view));
        checked.add_block(block, Vec2::ZERO);
        finite.add_finite_block(block, Vec2::ZERO);
        prop_assert_eq!(checked.finish(), finite.finish());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_vehicle_step_is_finite_for_any_input(
        pos in vec(any_float()), vel in vec(any_float()), heading in vec(any_float()),
        steer in vec(any_float()), max_speed in any_float(), max_force in any_float(),
        mass in any_float(), turn in any_float(), dt in any_float(),
    ) {
        let vehicle = Vehicle { limits: Limits { max_speed, max_force }, mass, max_turn_rate: turn };
        let (next, facing) = step_vehicle(Kinematics { pos, vel }, heading, steer, vehicle, dt);
        prop_assert!(next.pos.is_finite() && next.vel.is_finite());
        prop_assert!(facing.is_normalized());
        prop_assert!(limit_turn(heading, vel, turn).is_none_or(|d| d.is_normalized()));
    }

    #[test]
    fn the_chapters_vehicle_steps_exactly_as_the_chapter(
        pos in vec(any_finite()), vel in vec(any_finite()), heading in vec(any_finite()),
        steer in vec(any_finite()), max_speed in limit(), max_force in limit(), dt in dt(),
    ) {
        let limits = Limits { max_speed, max_force };
        let agent = Kinematics { pos, vel };
        let (next, facing) = step_vehicle(agent, heading, steer, Vehicle::new(limits), dt);
        prop_assert_eq!(next, step(agent, steer, limits, dt));
        // And it faces the way the chapter's agents face.
        if dt > 0.0 {
            prop_assert_eq!(facing, reynolds::model::heading(next.vel, reynolds::model::heading(Vec2::ZERO, heading)));
        }
    }

    #[test]
    fn a_turn_limited_step_turns_no_further_than_its_rate(
        facing in -4.0f32..4.0, speed in 0.0f32..220.0, steer in vec(-3000.0f32..3000.0),
        rate in 0.0f32..20.0, dt in dt(),
    ) {
        // A turn-limited vehicle moves the way it faces.
        let heading = Vec2::from_angle(facing);
        let vel = heading * speed;
        let car = Vehicle { max_turn_rate: rate, ..Vehicle::default() };
        let (next, facing_next) = step_vehicle(Kinematics { pos: Vec2::ZERO, vel }, heading, steer, car, dt);
        let limit = rate * dt + 1e-4;
        // atan2, not glam's `angle_to`, whose acos is coarse near 0.
        let turn = |to: Vec2| heading.perp_dot(to).atan2(heading.dot(to)).abs();
        prop_assert!(turn(facing_next) <= limit, "heading turned {} > {limit}", turn(facing_next));
        if next.vel.length() > 1e-3 {
            prop_assert!(turn(next.vel) <= limit, "velocity turned {} > {limit}", turn(next.vel));
        }
        // Never faster than the chapter's step would go.
        let free = step(Kinematics { pos: Vec2::ZERO, vel }, steer, Limits::default(), dt);
        prop_assert!(next.vel.length() <= free.vel.length() + 1e-3);
    }

    #[test]
    fn a_mass_divides_the_capped_force(
        steer in vec(-2000.0f32..2000.0), mass in 0.1f32..20.0, dt in 0.001f32..0.1,
    ) {
        let vehicle = Vehicle { mass, limits: Limits { max_speed: f32::INFINITY, max_force: 380.0 }, ..Vehicle::default() };
        let (next, _) = step_vehicle(Kinematics::default(), Vec2::X, steer, vehicle, dt);
        let expected = truncated(steer, 380.0) / mass * dt;
        prop_assert!((next.vel - expected).length() <= 1e-4 * (1.0 + expected.length()));
    }

    #[test]
    fn priority_groups_combine_to_finite_forces_and_the_first_loud_group_wins(
        forces in proptest::collection::vec((0usize..6, vec(any_float())), 0..12),
        threshold in any_float(),
    ) {
        let mut groups = PriorityGroups::default();
        for (group, force) in &forces {
            groups.add(*group, *force);
        }
        let weighted = groups.total();
        let priority = groups.first_above(threshold);
        prop_assert!(weighted.is_finite() && priority.is_finite());
        // The first group louder than the threshold is the force, exactly.
        let t = threshold.max(0.0);
        if let Some(first) = groups.groups.iter().find(|g| g.length() > t) {
            prop_assert_eq!(priority, finite_or_zero(*first));
        } else {
            prop_assert_eq!(priority, groups.total());
        }
    }
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (vec(any_finite()), any_finite()).prop_map(|(center, radius)| Shape::Circle {
            center,
            radius: radius.abs()
        }),
        (vec(any_finite()), vec(any_finite())).prop_map(|(a, b)| Shape::Wall { a, b }),
    ]
}

proptest! {
    /// A cover's circle round any finite shapes holds every one of them
    /// (to float rounding), and is finite.
    #[test]
    fn a_cover_circle_holds_its_shapes(shapes in proptest::collection::vec(shape(), 1..6)) {
        let (center, radius) = cover_circle(shapes.iter().copied()).unwrap();
        prop_assert!(center.is_finite() && !radius.is_nan());
        let slack = 1e-4 * radius.max(1.0);
        for shape in &shapes {
            let farthest = match *shape {
                Shape::Circle { center: c, radius: r } => c.distance(center) + r,
                Shape::Wall { a, b } => a.distance(center).max(b.distance(center)),
            };
            prop_assert!(farthest <= radius + slack, "{shape:?} reaches {farthest}, past {radius}");
        }
    }
}

proptest! {
    /// Avoidance, containment and path following: any finite geometry, any
    /// agent state at all, and out comes a finite answer, never a panic.
    #[test]
    fn level_geometry_gives_finite_answers(
        shape in shape(),
        from in vec(any_finite()),
        dir in vec(any_float()),
        radius in any_float(),
        length in any_float(),
        speed in any_float(),
        left in any::<bool>(),
        points in proptest::collection::vec(vec(any_finite()), 0..6),
        looped in any::<bool>(),
        cursor in any_float(),
        vel in vec(any_float()),
    ) {
        let unit = direction(dir);
        let unit = if unit == Vec2::ZERO { Vec2::X } else { unit };
        let probe = Probe { from, dir: unit, length: sanitize_limit(length), radius: sanitize_limit(radius) };
        if let Some(t) = probe.hit(&shape) {
            prop_assert!(t.is_finite() && t >= 0.0, "hit at {t}");
        }
        let side = if left { Side::Left } else { Side::Right };
        let way = best_way(unit, unit.perp(), side, length, |d| Probe { dir: d, ..probe }.hit(&shape));
        prop_assert!(way.dir.is_finite() && way.free.is_finite() && way.free >= 0.0, "best_way gave {way:?}");
        prop_assert!(way.dir == Vec2::ZERO || (way.dir.length() - 1.0).abs() < 1e-3, "best_way gave {way:?}");
        let _ = speed;
        if let Some(back) = come_back_inside(from, &points, speed) {
            prop_assert!(back.is_finite());
        }
        let path = Polyline::new(points.iter().copied(), looped);
        prop_assert!(path.length().is_finite());
        let step = follow_path(&path, from, vel, cursor, speed, radius, length);
        prop_assert!(step.desired.is_finite() && step.cursor.is_finite() && step.aim.is_finite(),
            "{step:?}");
        let start = if cursor.is_finite() { cursor.max(0.0) } else { 0.0 };
        prop_assert!(step.cursor >= start, "the cursor went back: {} < {start}", step.cursor);
    }
}

/// A value as a game has it, or now and then (one time in `1 + odds`) one
/// from `odd`.
fn mostly<T: std::fmt::Debug + Clone + 'static>(
    usual: impl Strategy<Value = T> + 'static,
    odd: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop_oneof![8 => usual.boxed(), 1 => odd.boxed()].boxed()
}

/// A limit that is now and then 0, -0, infinite, NaN or negative.
fn any_limit() -> BoxedStrategy<f32> {
    mostly(
        limit(),
        prop_oneof![
            Just(0.0f32),
            Just(-0.0f32),
            Just(f32::INFINITY),
            Just(f32::NAN),
            Just(-1.0f32),
            Just(1e38f32),
        ],
    )
}

/// One agent for [`step_vehicles`]: each field mostly as a game has it (in
/// range, a unit heading, the chapter's vehicle), now and then anything at
/// all, so a lane of eight often holds one of each.
fn lane() -> impl Strategy<Value = (Kinematics, Vec2, Vec2, Vehicle)> {
    let huge = || prop_oneof![Just(f32::MAX), Just(-f32::MAX), Just(1e30f32)];
    let pos = mostly(vec(-1e4f32..1e4), vec(prop_oneof![any_float(), huge()]));
    let vel = mostly(
        vec(-300f32..300.0),
        prop_oneof![
            vec(any_float()),
            // Exactly the heading's threshold, and just under it.
            Just(Vec2::X),
            Just(Vec2::new(0.0, -0.99)),
        ],
    );
    let heading = mostly(
        any_finite().prop_map(Vec2::from_angle),
        prop_oneof![
            vec(any_float()),
            Just(Vec2::ZERO),
            any_finite().prop_map(|a| Vec2::from_angle(a) * 1.001),
        ],
    );
    let steer = mostly(vec(-3e3f32..3e3), vec(prop_oneof![any_float(), huge()]));
    let turn = mostly(
        Just(f32::INFINITY),
        prop_oneof![0.0f32..10.0, Just(f32::NAN), Just(-1.0f32), Just(0.0f32)],
    );
    (
        pos,
        vel,
        heading,
        steer,
        (any_limit(), any_limit(), any_limit(), turn),
    )
        .prop_map(
            |(pos, vel, heading, steer, (max_speed, max_force, mass, max_turn_rate))| {
                let vehicle = Vehicle {
                    limits: Limits {
                        max_speed,
                        max_force,
                    },
                    mass,
                    max_turn_rate,
                };
                (Kinematics { pos, vel }, heading, steer, vehicle)
            },
        )
}

/// `step_vehicles` against `step_vehicle` lane by lane, to the bit.
fn assert_lanes_step_as_one_by_one(lanes: [(Kinematics, Vec2, Vec2, Vehicle); 8], dt: f32) {
    let agents = lanes.map(|l| l.0);
    let headings = lanes.map(|l| l.1);
    let steering = lanes.map(|l| l.2);
    let vehicles = lanes.map(|l| l.3);
    let (next, facing) = step_vehicles(&agents, &headings, &steering, &vehicles, dt);
    let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
    for i in 0..8 {
        let (one, one_facing) = step_vehicle(agents[i], headings[i], steering[i], vehicles[i], dt);
        assert_eq!(
            bits(next[i].pos),
            bits(one.pos),
            "lane {i} position: {:?}",
            lanes[i]
        );
        assert_eq!(
            bits(next[i].vel),
            bits(one.vel),
            "lane {i} velocity: {:?}",
            lanes[i]
        );
        assert_eq!(
            bits(facing[i]),
            bits(one_facing),
            "lane {i} heading: {:?}",
            lanes[i]
        );
    }
}

/// The overflows random lanes seldom reach: a position, a velocity and a
/// speed too big for a float, and a step too long.
#[test]
fn eight_lanes_step_the_overflows_as_one_by_one() {
    let unlimited = Vehicle {
        limits: Limits {
            max_speed: f32::INFINITY,
            max_force: f32::INFINITY,
        },
        ..Vehicle::default()
    };
    let agent =
        |pos: Vec2, vel: Vec2, steer: Vec2| (Kinematics { pos, vel }, Vec2::X, steer, unlimited);
    let usual = agent(Vec2::ZERO, Vec2::new(100.0, 0.0), Vec2::ZERO);
    let edges = [
        agent(Vec2::new(f32::MAX, 0.0), Vec2::new(1e38, 0.0), Vec2::ZERO),
        agent(
            Vec2::ZERO,
            Vec2::new(f32::MAX, 0.0),
            Vec2::new(f32::MAX, 0.0),
        ),
        agent(Vec2::ZERO, Vec2::splat(3e38), Vec2::ZERO),
    ];
    for edge in edges {
        let mut lanes = [usual; 8];
        lanes[3] = edge;
        assert_lanes_step_as_one_by_one(lanes, 0.5);
    }
    // A step so long that a usual velocity overflows the position.
    assert_lanes_step_as_one_by_one([usual; 8], 1e37);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Eight lanes at once step each agent exactly as `step_vehicle` does,
    /// bit for bit (NaN aside, which no step returns).
    #[test]
    fn eight_lanes_step_as_one_by_one(lanes in prop::array::uniform8(lane()), dt in dt()) {
        assert_lanes_step_as_one_by_one(lanes, dt);
    }
}

fn formation_shape() -> impl Strategy<Value = reynolds::formation::FormationShape> {
    use reynolds::formation::FormationShape;
    prop_oneof![
        Just(FormationShape::Line),
        Just(FormationShape::Column),
        Just(FormationShape::Wedge),
        Just(FormationShape::Box),
        Just(FormationShape::Circle),
    ]
}

proptest! {
    /// Untangled, no two members' straight ways to their places cross,
    /// whatever the places, wherever the members start, and however much
    /// shorter a swap must make them: where two ways still touch, they
    /// only touch (one member standing on the other's way, or two ways end
    /// to end along one line), and swapping would make them no shorter.
    #[test]
    fn untangled_ways_never_cross(
        points in proptest::collection::vec((vec(-500.0f32..500.0), vec(-500.0f32..500.0)), 2..24),
        margin in prop_oneof![Just(0.0f32), 0.0f32..200.0],
    ) {
        use reynolds::formation::{untangle, ways_cross};
        let (members, places): (Vec<Vec2>, Vec<Vec2>) = points.into_iter().unzip();
        let mut assigned: Vec<usize> = (0..members.len()).collect();
        untangle(&members, &places, &mut assigned, margin);
        let mut sorted = assigned.clone();
        sorted.sort();
        prop_assert_eq!(sorted, (0..members.len()).collect::<Vec<_>>());
        for a in 0..members.len() {
            for b in a + 1..members.len() {
                let (a0, a1) = (members[a], places[assigned[a]]);
                let (b0, b1) = (members[b], places[assigned[b]]);
                if ways_cross(a0, a1, b0, b1) {
                    let now = a0.distance(a1) + b0.distance(b1);
                    let swapped = a0.distance(b1) + b0.distance(a1);
                    prop_assert!(
                        now - swapped <= now * 1e-5,
                        "{a0}->{a1} crosses {b0}->{b1}, {} shorter swapped",
                        now - swapped
                    );
                }
            }
        }
    }

    /// Every shape's places are finite, and no two (nor a place and the
    /// leader) nearer than the spacing, for any size of group.
    #[test]
    fn formation_places_keep_their_spacing(
        shape in formation_shape(), n in 1usize..40, spacing in 0.1f32..100.0,
    ) {
        let places: Vec<Vec2> = (0..n).map(|i| shape.slot(i, n, spacing)).collect();
        for (i, a) in places.iter().enumerate() {
            prop_assert!(a.is_finite());
            prop_assert!(a.length() >= spacing * 0.999, "{shape:?} {i} of {n} at {a}");
            for b in &places[i + 1..] {
                prop_assert!(a.distance(*b) >= spacing * 0.999, "{shape:?}: {a} and {b}");
            }
        }
    }

    /// Any input at all, slots and trails stay finite.
    #[test]
    fn formation_geometry_is_finite(
        shape in formation_shape(), i in 0usize..50, n in 0usize..50, spacing in any_float(),
        head in vec(any_float()), crumbs in proptest::collection::vec(vec(any_float()), 0..5),
        distance in any_float(),
    ) {
        prop_assert!(shape.slot(i, n, spacing).is_finite());
        let (at, way) = reynolds::formation::back_along(head, crumbs, distance);
        prop_assert!(at.is_finite() && way.is_finite());
    }
}

proptest! {
    /// A door taking turns, any floats at all in: no panic; a door's line
    /// only between two finite posts apart, its directions unit vectors;
    /// someone judged coming is before the wall, within reach; the door's
    /// way is one of the two, or none, and with none nobody has its right
    /// of way.
    #[test]
    fn a_door_taking_turns_takes_any_input(
        a in vec(any_float()),
        b in vec(any_float()),
        people in proptest::collection::vec(
            (vec(any_float()), proptest::option::of(vec(-2.0f32..2.0)), vec(any_float()), any_float()),
            0..12,
        ),
        run in any::<u32>(),
        steps in 1usize..4,
    ) {
        use reynolds::crowd::turns::{DoorLine, DoorTurns, Passer};
        let Some(line) = DoorLine::between(a, b) else {
            prop_assert!(!(a.is_finite() && b.is_finite()) || a == b || direction(b - a) == Vec2::ZERO);
            return Ok(());
        };
        prop_assert!((line.along.length() - 1.0).abs() < 1e-4, "{line:?}");
        prop_assert!((line.across.length() - 1.0).abs() < 1e-4, "{line:?}");
        let reach = 3.0 * line.half_width;
        let mut passers = Vec::new();
        for (key, &(at, near, heading, radius)) in people.iter().enumerate() {
            // Anywhere, or near the door, in its widths.
            let at = near.map_or(at, |offset| line.middle + offset * 2.0 * line.half_width);
            if let Some(from) = line.coming(at, direction(heading), radius, reach) {
                let past = line.past(at, from);
                prop_assert!(from == 1 || from == -1);
                prop_assert!(past <= 0.0, "{past}");
                prop_assert!(at.distance(line.middle) <= reach * 1.001, "{at} {line:?}");
                passers.push(Passer::coming(key as u64, from, past, radius));
            }
        }
        let mut door = DoorTurns::new();
        for _ in 0..steps {
            door.step(run, &mut passers);
            prop_assert!([-1, 0, 1].contains(&door.way()));
        }
        if door.way() == 0 {
            prop_assert!(passers.iter().all(|p| !p.right_of_way));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_behavior_is_finite_in_3d_for_any_input(
        pos in vec3(any_float()), vel in vec3(any_float()), target in vec3(any_float()),
        target_vel in vec3(any_float()), max_speed in any_float(), radius in any_float(),
        dt in any_float(), u in (any_float(), any_float()), rt in any_float(),
    ) {
        prop_assert!(seek(pos, target, max_speed).is_finite());
        prop_assert!(arrive(pos, target, max_speed, radius).is_finite());
        prop_assert!(flee(pos, vel, target, max_speed, radius).is_finite());
        prop_assert!(pursue(pos, target, target_vel, max_speed).is_finite());
        prop_assert!(evade(pos, vel, target, target_vel, max_speed, radius).is_finite());
        let slot = slot_position(target, vel, target_vel);
        prop_assert!(slot.is_finite());
        prop_assert!(offset_pursuit(pos, slot, target_vel, max_speed, radius).is_finite());
        prop_assert!(interpose(pos, target, target_vel, vel, pos, max_speed, radius).is_finite());
        prop_assert!(follow_leader(pos, target, target_vel, vel, radius, dt, max_speed, rt).is_finite());
        prop_assert!(hiding_spot(pos, target, radius, rt).is_finite());
        let dir = wander_step_3d(vel, dt, radius, [u.0, u.1]);
        prop_assert!(dir.is_normalized());
        prop_assert!(wander_3d(dir, max_speed).is_finite());
        prop_assert!(steering(target, vel, rt).is_finite());
        prop_assert!(truncated(pos, max_speed).is_finite());
        prop_assert!(measured_velocity(vel, pos, target, dt, rt).is_finite());
        prop_assert!(heading(vel, target).is_normalized());
        prop_assert!(limit_turn(target, vel, radius).is_none_or(|d| d.is_normalized()));
    }

    #[test]
    fn a_flyer_step_is_finite_and_its_attitude_square_for_any_input(
        pos in vec3(any_float()), vel in vec3(any_float()), forward in vec3(any_float()),
        up in vec3(any_float()), steer in vec3(any_float()), max_speed in any_float(),
        max_force in any_float(), turn in any_float(), dt in any_float(),
        limits in (any_float(), any_float(), any_float(), any_float(), any_float()),
    ) {
        let vehicle = Vehicle { limits: Limits { max_speed, max_force }, mass: 1.0, max_turn_rate: turn };
        let flight = Flight {
            min_speed: limits.0, max_climb: limits.1, max_dive: limits.2,
            bank_gravity: limits.3, bank_half_life: limits.4,
        };
        let attitude = Attitude { forward, up };
        let (next, attitude) = step_flyer(Kinematics { pos, vel }, attitude, steer, vehicle, &flight, dt);
        prop_assert!(next.pos.is_finite() && next.vel.is_finite());
        prop_assert!(attitude.forward.is_normalized() && attitude.up.is_normalized());
        prop_assert!(attitude.forward.dot(attitude.up).abs() < 1e-4);
        prop_assert!(attitude.roll().is_finite());
    }

    #[test]
    fn a_flyer_keeps_its_limits_from_any_start(
        vel in vec3(-300.0f32..300.0), steer in vec3(-3000.0f32..3000.0),
        min_speed in 0.0f32..300.0, climb in 0.0f32..1.6, dive in 0.0f32..1.6, dt in dt(),
    ) {
        let flight = Flight { min_speed, max_climb: climb, max_dive: dive, ..Flight::default() };
        let agent = Kinematics { pos: Vec3::ZERO, vel };
        let (next, _) = step_flyer(agent, Attitude::default(), steer, Vehicle::default(), &flight, dt);
        let speed = next.vel.length();
        if dt > 0.0 {
            prop_assert!(speed >= min_speed.min(220.0) * (1.0 - 1e-5) - 1e-4, "speed {speed}");
            prop_assert!(speed <= 220.0 * (1.0 + 1e-5));
            if speed > 1e-3 {
                let pitch = (next.vel.y / speed).clamp(-1.0, 1.0).asin();
                prop_assert!(pitch <= climb.min(std::f32::consts::FRAC_PI_2) + 1e-3, "pitch {pitch} > {climb}");
                prop_assert!(-pitch <= dive.min(std::f32::consts::FRAC_PI_2) + 1e-3, "pitch {pitch} < -{dive}");
            }
        }
    }

    #[test]
    fn on_the_xy_plane_a_flyer_steps_as_a_walker(
        pos in vec(any_finite()), vel in vec(any_finite()), facing in -4.0f32..4.0,
        steer in vec(any_finite()), max_speed in limit(), max_force in limit(),
        turn in prop_oneof![Just(f32::INFINITY), 0.0f32..20.0], dt in dt(),
    ) {
        let vehicle = Vehicle { limits: Limits { max_speed, max_force }, mass: 1.0, max_turn_rate: turn };
        let heading = Vec2::from_angle(facing);
        let (flat, flat_facing) = step_vehicle(Kinematics { pos, vel }, heading, steer, vehicle, dt);
        let lifted = Kinematics { pos: pos.extend(0.0), vel: vel.extend(0.0) };
        let attitude = Attitude::new(heading.extend(0.0), Vec3::Z);
        let (flown, attitude) = step_flyer(lifted, attitude, steer.extend(0.0), vehicle, &Flight::default(), dt);
        let near = |a: Vec3, b: Vec2| (a - b.extend(0.0)).length() <= 1e-4 * (1.0 + b.length());
        prop_assert!(near(flown.pos, flat.pos) && near(flown.vel, flat.vel), "{flown:?} against {flat:?}");
        prop_assert!(near(attitude.forward, flat_facing), "{} against {flat_facing}", attitude.forward);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Flocking in 3D over the volume grid, any floats at all in (places,
    /// speeds, bodies, radii, weights, a cone, a cruise speed, box sizes):
    /// no panic, a finite force for every flocker the grid took in, and
    /// none for one it left out (at a non-finite place or speed).
    #[test]
    fn flocking_in_3d_is_finite_for_any_input(
        agents in proptest::collection::vec((vec3(any_float()), vec3(any_float()), any_float()), 0..24),
        rules in (any_float(), any_float(), any_float(), any_float(), any_float()),
        cone in proptest::option::of(any_float()),
        cruise in proptest::option::of(any_float()),
        limits in (any_float(), any_float(), any_float()),
        max_neighbors in proptest::option::of(0usize..4),
        box_size in vec3(any_float()),
    ) {
        use reynolds::spatial::{GridAgent, OneThread, VolumeGrid};
        let params = FlockParams {
            separation_radius: rules.0,
            neighbor_radius: rules.1,
            separation_weight: rules.2,
            alignment_weight: rules.3,
            cohesion_weight: rules.4,
            view_half_angle: cone,
            cruise_speed: cruise,
        };
        let flocker = Flocker::new(params, limits.0, limits.1, limits.2, max_neighbors);
        let mut grid = VolumeGrid::default();
        grid.take(agents.iter().enumerate().map(|(i, &(position, velocity, radius))| {
            (GridAgent { id: i as u32, position, velocity, radius }, 0)
        }));
        grid.sort(box_size, &OneThread);
        let (mut forces, mut scratch) = (Vec::new(), Vec::new());
        grid.flock(&[flocker], &OneThread, &mut forces, &mut scratch);
        for (i, &(position, velocity, _)) in agents.iter().enumerate() {
            match grid.slot_of(i as u32) {
                Some(slot) => {
                    let force = forces[slot].unwrap();
                    prop_assert!(force.is_finite(), "{i}: {force}");
                }
                None => prop_assert!(!(position.is_finite() && velocity.is_finite())),
            }
        }
    }
}
