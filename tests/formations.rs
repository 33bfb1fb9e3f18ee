//! Formations through the real plugin, at 60 and 144 Hz: a wedge of 12
//! through a door half its width, a wedge wheeling round a 180° turn, and
//! members that join and fall out.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::behaviors::slot_position;
use bevy_reynolds::reynolds::formation::ways_cross;
use bevy_reynolds::{FormationState, Position};
use steering_lab::{headless_app, run_steps};

const RATES: [f64; 2] = [60.0, 144.0];

/// The chapter's agent's top speed, px/s.
const TOP_SPEED: f32 = 220.0;

/// Every body's radius, px.
const RADIUS: f32 = 8.0;

/// Neighbours' distance in the formations, px.
const SPACING: f32 = 40.0;

/// The deepest two bodies may overlap: 1 cm of a body 16 px (half a
/// metre) across.
const OVERLAP: f32 = 0.32;

fn body(max_speed: f32) -> SteeringParams {
    SteeringParams {
        radius: RADIUS,
        max_speed,
        ..default()
    }
}

/// A leader at `at` facing +x with `formation`, and `n` members in their
/// places, all avoiding each other (the leader with the right of way).
fn squad(world: &mut World, at: Vec2, formation: Formation, n: usize) -> (Entity, Vec<Entity>) {
    let shape = formation.shape.clone();
    let leader = world
        .spawn((
            formation,
            AvoidAgents {
                right_of_way: 1,
                ..default()
            },
            Position(at),
            body(0.6 * TOP_SPEED),
        ))
        .id();
    let members = (0..n)
        .map(|i| {
            world
                .spawn((
                    InFormation(leader),
                    AvoidAgents::default(),
                    Position(at + shape.slot(i, n, SPACING)),
                    body(TOP_SPEED),
                ))
                .id()
        })
        .collect();
    (leader, members)
}

/// How far the members are from the places of a shape of their number,
/// reckoned here from the leader's place and heading alone: for each place,
/// the nearest member (all within d of one of their own: the shape is
/// whole, no place empty).
fn off_places(world: &mut World, leader: Entity) -> Vec<f32> {
    let members: Vec<Vec2> = world
        .query::<(&InFormation, &Position)>()
        .iter(world)
        .filter(|(of, _)| of.0 == leader)
        .map(|(_, p)| p.0)
        .collect();
    let formation = world.get::<Formation>(leader).unwrap();
    let at = world.get::<Position>(leader).unwrap().0;
    let heading = world.get::<Heading>(leader).unwrap().0.as_vec2();
    let n = members.len();
    (0..n)
        .map(|i| {
            let place = slot_position(at, heading, formation.shape.slot(i, n, formation.spacing));
            members
                .iter()
                .map(|m| m.distance(place))
                .fold(f32::INFINITY, f32::min)
        })
        .collect()
}

/// How many times two members' paths (each its positions, step by step)
/// cross.
fn crossings(paths: &[Vec<Vec2>]) -> usize {
    let mut crossings = 0;
    for a in 0..paths.len() {
        for b in a + 1..paths.len() {
            for sa in paths[a].windows(2) {
                for sb in paths[b].windows(2) {
                    crossings += ways_cross(sa[0], sa[1], sb[0], sb[1]) as usize;
                }
            }
        }
    }
    crossings
}

/// The deepest any two of `agents` overlap.
fn deepest_overlap(world: &World, agents: &[Entity]) -> f32 {
    let at: Vec<Vec2> = agents
        .iter()
        .map(|&a| world.get::<Position>(a).unwrap().0)
        .collect();
    let mut deepest = 0.0f32;
    for i in 0..at.len() {
        for j in i + 1..at.len() {
            deepest = deepest.max(2.0 * RADIUS - at[i].distance(at[j]));
        }
    }
    deepest
}

/// A wall 20 px thick across x = 800, from y = -700 to 700, with a door
/// 228 px wide (half the wedge's 456: 11 spacings and a body) centred on
/// y = 200, so the route bends. A wedge of 12 led by an agent navigating
/// from (0, 0) to (2600, 0), all bodies of 8 px avoiding each other. All 12
/// get through; no two bodies overlap by more than 1 cm, none touches the
/// wall; from 3 s after the last is through, for 3 s, every member is
/// within 5% of the spacing (2 px) of its place.
#[test]
fn a_wedge_of_twelve_goes_through_a_door_half_its_width_and_forms_again() {
    let door = (200.0 - 114.0, 200.0 + 114.0);
    let walls = [
        (Vec2::new(790.0, -700.0), Vec2::new(810.0, door.0)),
        (Vec2::new(790.0, door.1), Vec2::new(810.0, 700.0)),
    ];
    for hz in RATES {
        let mut app = headless_app(hz, 1, SteeringSettings::default());
        let world = app.world_mut();
        for &(lo, hi) in &walls {
            world.spawn((
                Obstacle::polygon([lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)]),
                Position(Vec2::ZERO),
            ));
        }
        let (leader, members) = squad(
            world,
            Vec2::ZERO,
            Formation::new(FormationShape::Wedge, SPACING),
            12,
        );
        world
            .entity_mut(leader)
            .insert(Navigate::to(Vec2::new(2600.0, 0.0)));
        let mut everyone = members.clone();
        everyone.push(leader);
        let (mut deepest, mut nearest_wall) = (0.0f32, f32::INFINITY);
        let mut through: Option<f64> = None;
        let mut worst_after = 0.0f32;
        let mut leader_x = 0.0f32;
        let mut went_column = false;
        let mut step = 0u64;
        run_steps(&mut app, (hz * 30.0) as u64, |world| {
            step += 1;
            let t = step as f64 / hz;
            deepest = deepest.max(deepest_overlap(world, &everyone));
            for &a in &everyone {
                let p = world.get::<Position>(a).unwrap().0;
                for &(lo, hi) in &walls {
                    let gap = (p - p.clamp(lo, hi)).length() - RADIUS;
                    nearest_wall = nearest_wall.min(gap);
                }
            }
            went_column |= world.get::<FormationState>(leader).unwrap().in_column;
            let last_x = members
                .iter()
                .map(|&m| world.get::<Position>(m).unwrap().x)
                .fold(f32::INFINITY, f32::min);
            if through.is_none() && last_x > 810.0 + RADIUS {
                through = Some(t);
            }
            if through.is_some_and(|at| t >= at + 3.0 && t <= at + 6.0) {
                let off = off_places(world, leader).into_iter().fold(0.0, f32::max);
                worst_after = worst_after.max(off);
                leader_x = world.get::<Position>(leader).unwrap().x;
            }
        });
        let end = app.world().get::<Position>(leader).unwrap().0;
        eprintln!(
            "at {hz} Hz: in a column on the way: {went_column}; all through at {through:?} s; \
             from 3 s after, up to {worst_after:.2} px off a place; deepest overlap \
             {deepest:.3} px; nearest a wall {nearest_wall:.2} px; the leader ends at {end}"
        );
        let through = through.unwrap_or_else(|| panic!("at {hz} Hz: not all 12 got through"));
        assert!(
            through < 24.0,
            "at {hz} Hz: the last was through at {through} s"
        );
        // Cruising, not braking for its goal, while it was measured.
        assert!(
            leader_x < 2400.0,
            "at {hz} Hz: the leader was at {leader_x}, braking"
        );
        assert!(
            went_column,
            "at {hz} Hz: the wedge never fell into a column"
        );
        assert!(
            deepest <= OVERLAP,
            "at {hz} Hz: bodies overlapped by {deepest} px"
        );
        assert!(
            nearest_wall >= 0.0,
            "at {hz} Hz: a body was {nearest_wall} px into a wall"
        );
        assert!(
            worst_after <= 0.05 * SPACING,
            "at {hz} Hz: 3 s after the door, a member was {worst_after} px off its place"
        );
    }
}

/// A wedge of 12 (456 px wide) whose leader walks east, round a half
/// circle of 500 px radius, and back west, at 60% of top speed: its outer
/// members walk up to 1.5 times as fast as the leader (it slows for them
/// to 90% of their top speed). During the turn no two members' paths cross,
/// and every member stays within 15% of the spacing of its place (3.9 px
/// measured: the places' turning is led, their acceleration is not). (On a
/// 300 px half circle, the inner arm's members pass over each other's
/// footsteps, 0.6 s apart: 12 crossings.)
#[test]
fn a_wedge_wheels_round_a_half_turn_without_crossing_paths() {
    let mut points = vec![Vec2::new(0.0, 0.0)];
    let center = Vec2::new(600.0, 500.0);
    for k in 0..=24 {
        let angle = -std::f32::consts::FRAC_PI_2 + std::f32::consts::PI * k as f32 / 24.0;
        points.push(center + Vec2::from_angle(angle) * 500.0);
    }
    points.push(Vec2::new(-600.0, 1000.0));
    let path = Arc::new(SteeringPath::new(points, false));
    for hz in RATES {
        let mut app = headless_app(hz, 1, SteeringSettings::default());
        let world = app.world_mut();
        let (leader, members) = squad(
            world,
            Vec2::ZERO,
            Formation::new(FormationShape::Wedge, SPACING),
            12,
        );
        world
            .entity_mut(leader)
            .insert(FollowPath::new(path.clone(), 10.0));
        let mut paths: Vec<Vec<Vec2>> = vec![Vec::new(); members.len()];
        let mut worst = 0.0f32;
        let mut step = 0u64;
        run_steps(&mut app, (hz * 20.0) as u64, |world| {
            step += 1;
            let at = world.get::<Position>(leader).unwrap().0;
            // From a little before the turn starts to a little after it ends.
            if at.x < 500.0 || (step as f64) < hz {
                return;
            }
            for (path, &m) in paths.iter_mut().zip(&members) {
                path.push(world.get::<Position>(m).unwrap().0);
            }
            worst = worst.max(off_places(world, leader).into_iter().fold(0.0, f32::max));
        });
        let crossings = crossings(&paths);
        let steps = paths[0].len();
        eprintln!(
            "at {hz} Hz: over {steps} steps of the turn, {crossings} crossings of two members' \
             paths; up to {worst:.2} px off a place"
        );
        assert!(
            steps as f64 > 5.0 * hz,
            "at {hz} Hz: the turn took {steps} steps"
        );
        assert_eq!(crossings, 0, "at {hz} Hz: members' paths crossed");
        assert!(
            worst <= 0.15 * SPACING,
            "at {hz} Hz: a member was {worst} px off its place"
        );
    }
}

/// A wedge of 12 whose leader walks east at 60% of top speed and, 4 s in,
/// is sent back west: it turns about, and its members pass it to their
/// places behind it, each keeping to its row (their ways crossing, two
/// would swap places). From the order on, for 8 s, no two members' paths
/// cross, and from 4 s after it they are within 5% of the spacing of their
/// places. (Trading places only when it saved half a spacing, not also
/// whenever two ways crossed: 5 crossings.)
#[test]
fn a_wedge_turns_about_without_crossing_paths() {
    for hz in RATES {
        let mut app = headless_app(hz, 1, SteeringSettings::default());
        let world = app.world_mut();
        let (leader, members) = squad(
            world,
            Vec2::ZERO,
            Formation::new(FormationShape::Wedge, SPACING),
            12,
        );
        world
            .entity_mut(leader)
            .insert(Behavior::Seek(Target::Point(Vec2::new(1e5, 0.0))));
        let mut paths: Vec<Vec<Vec2>> = vec![Vec::new(); members.len()];
        let mut worst = 0.0f32;
        let mut step = 0u64;
        let order = (4.0 * hz) as u64;
        run_steps(&mut app, (hz * 12.0) as u64, |world| {
            step += 1;
            if step == order {
                *world.get_mut::<Behavior>(leader).unwrap() =
                    Behavior::Seek(Target::Point(Vec2::new(-1e5, 0.0)));
            }
            if step < order {
                return;
            }
            for (path, &m) in paths.iter_mut().zip(&members) {
                path.push(world.get::<Position>(m).unwrap().0);
            }
            if step as f64 >= 8.0 * hz {
                worst = worst.max(off_places(world, leader).into_iter().fold(0.0, f32::max));
            }
        });
        let crossings = crossings(&paths);
        eprintln!(
            "at {hz} Hz: turning about, {crossings} crossings of two members' paths; from 4 s \
             after, up to {worst:.2} px off a place"
        );
        assert_eq!(crossings, 0, "at {hz} Hz: members' paths crossed");
        assert!(
            worst <= 0.05 * SPACING,
            "at {hz} Hz: a member was {worst} px off its place"
        );
    }
}

/// A wedge of 12 walking east; 2 s in, four members fall (despawned), and
/// 6 s in, two new ones join from 300 px behind. Each time, the rest take the
/// places of a wedge of their number, and within 3 s every member is
/// within 5% of the spacing of its place (the leader slowing for them
/// meanwhile).
#[test]
fn members_that_fall_or_join_take_places_again() {
    for hz in RATES {
        let mut app = headless_app(hz, 1, SteeringSettings::default());
        let world = app.world_mut();
        let (leader, members) = squad(
            world,
            Vec2::ZERO,
            Formation::new(FormationShape::Wedge, SPACING),
            12,
        );
        world
            .entity_mut(leader)
            .insert(Behavior::Seek(Target::Point(Vec2::new(1e5, 0.0))));
        let mut step = 0u64;
        let (mut worst_after_fall, mut worst_after_join) = (0.0f32, 0.0f32);
        let mut counts = (0, 0);
        run_steps(&mut app, (hz * 10.0) as u64, |world| {
            step += 1;
            let t = step as f64 / hz;
            if step == (2.0 * hz) as u64 {
                for &fallen in &members[3..7] {
                    world.despawn(fallen);
                }
            }
            if step == (6.0 * hz) as u64 {
                let at = world.get::<Position>(leader).unwrap().0;
                for y in [-60.0, 60.0] {
                    world.spawn((
                        InFormation(leader),
                        AvoidAgents::default(),
                        Position(at + Vec2::new(-300.0, y)),
                        body(TOP_SPEED),
                    ));
                }
            }
            let off = off_places(world, leader).into_iter().fold(0.0, f32::max);
            let n = world.get::<FormationState>(leader).unwrap().members.len();
            if (5.0..6.0).contains(&t) {
                worst_after_fall = worst_after_fall.max(off);
                counts.0 = n;
            }
            if (9.0..=10.0).contains(&t) {
                worst_after_join = worst_after_join.max(off);
                counts.1 = n;
            }
        });
        eprintln!(
            "at {hz} Hz: {} members after the fall, {} after the join; 3 s after each, up to \
             {worst_after_fall:.2} and {worst_after_join:.2} px off a place",
            counts.0, counts.1
        );
        assert_eq!(counts, (8, 10), "at {hz} Hz: members counted");
        assert!(
            worst_after_fall <= 0.05 * SPACING,
            "at {hz} Hz: {worst_after_fall} px off after the fall"
        );
        assert!(
            worst_after_join <= 0.05 * SPACING,
            "at {hz} Hz: {worst_after_join} px off after the join"
        );
    }
}
