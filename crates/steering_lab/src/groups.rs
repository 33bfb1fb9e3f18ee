//! Groups through the real plugin: an escort holding its place beside a
//! leader, a bodyguard between two walkers, followers keeping out of their
//! leader's way, prey hiding from a hunter among rocks, and a formation
//! through a door, round a turn, turning about, and losing and gaining
//! members. Each scene returns what it measured; `steering-lab groups`
//! prints it as JSON, and `crates/steering_lab/tests/scenes/groups.rs` and `crates/steering_lab/tests/scenes/formations.rs` hold
//! the plugin to it.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_reynolds::prelude::*;
use bevy_reynolds::reynolds::formation::ways_cross;
use serde_json::{Value, json};

use crate::{headless_app, run_steps};

/// The chapter's agent's top speed, px/s.
const TOP_SPEED: f32 = 220.0;

/// Every body's radius in the group scenes, px.
pub const RADIUS: f32 = 8.0;

/// The scenes, by the names `steering-lab groups --scene` takes.
pub const SCENES: [&str; 8] = [
    "escort",
    "bodyguard",
    "followers",
    "hide",
    "door",
    "wheel",
    "about-face",
    "fall-and-join",
];

/// A formation's shape, number and spacing, for the formation scenes.
#[derive(Debug, Clone, PartialEq)]
pub struct Squad {
    /// The shape.
    pub shape: FormationShape,
    /// How many members.
    pub members: usize,
    /// Neighbours' distance, px.
    pub spacing: f32,
}

impl Default for Squad {
    /// A wedge of 12, 40 px apart: 456 px across.
    fn default() -> Self {
        Self {
            shape: FormationShape::Wedge,
            members: 12,
            spacing: 40.0,
        }
    }
}

impl Squad {
    /// How wide it stands: from its leftmost place to its rightmost, and a
    /// body.
    pub fn width(&self) -> f32 {
        let ys = (0..self.members).map(|i| self.shape.slot(i, self.members, self.spacing).y);
        let (lo, hi) = ys.fold((0.0f32, 0.0f32), |(lo, hi), y| (lo.min(y), hi.max(y)));
        hi - lo + 2.0 * RADIUS
    }
}

/// Runs the scene called `name` at `hz`, and what it measured as JSON;
/// `None` for a name not in [`SCENES`].
pub fn run_scene(name: &str, hz: f64, squad: &Squad) -> Option<Value> {
    let turn =
        |r: TurnReport| json!({"steps": r.steps, "crossings": r.crossings, "off_px": r.off_px});
    let mut line = match name {
        "escort" => {
            let [before, widest, settled] = escort(hz);
            json!({"off_before_turn_px": before, "off_after_turn_px": widest, "back_within_5pct_s": settled})
        }
        "bodyguard" => {
            let [line, middle] = bodyguard(hz);
            json!({"off_midpoint_line_px": line, "off_midpoint_px": middle})
        }
        "followers" => {
            let [in_way, nearest, farthest] = followers(hz);
            json!({"longest_in_way_s": in_way, "nearest_px": nearest, "farthest_px": farthest})
        }
        "hide" => {
            let [hidden, closest] = hide(hz);
            json!({"hidden_share": hidden, "hunter_closest_px": closest})
        }
        "door" => {
            let r = door(hz, squad);
            json!({
                "door_px": r.door_px, "went_column": r.went_column, "through_s": r.through_s,
                "off_after_px": r.off_after_px, "leader_x": r.leader_x,
                "deepest_overlap_px": r.deepest_overlap_px, "nearest_wall_px": r.nearest_wall_px,
            })
        }
        "wheel" => turn(wheel(hz, squad)),
        "about-face" => turn(about_face(hz, squad)),
        "fall-and-join" => {
            let r = fall_and_join(hz, squad);
            json!({
                "after_fall": r.after_fall, "off_after_fall_px": r.off_after_fall_px,
                "after_join": r.after_join, "off_after_join_px": r.off_after_join_px,
            })
        }
        _ => return None,
    };
    line["scene"] = json!(name);
    line["hz"] = json!(hz);
    Some(line)
}

fn body(max_speed: f32) -> SteeringParams {
    SteeringParams {
        radius: RADIUS,
        max_speed,
        ..default()
    }
}

/// A leader seeking far off along `toward` at 60% of the top speed.
fn walker(world: &mut World, at: Vec2, toward: Vec2) -> Entity {
    world
        .spawn((
            SteeringAgent,
            SteeringBehavior::Seek(SteeringTarget::Point(at + toward * 1e6)),
            AgentPosition(at),
            body(0.6 * TOP_SPEED),
        ))
        .id()
}

/// The escort scene: a leader cruising east at 60% of top speed, turning
/// north 6 s in; its escort, 200 px off its place at first, holds a place
/// 60 px behind and 40 px left of it (72 px from it).
pub fn escort(hz: f64) -> [f32; 3] {
    let offset = Vec2::new(-60.0, 40.0);
    let tolerance = 0.05 * offset.length();
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    let world = app.world_mut();
    let leader = walker(world, Vec2::ZERO, Vec2::X);
    world
        .entity_mut(leader)
        .insert(AgentVelocity(Vec2::new(0.6 * TOP_SPEED, 0.0)));
    let escort = world
        .spawn((
            SteeringAgent,
            SteeringBehavior::OffsetPursuit {
                leader: SteeringTarget::Entity(leader),
                offset,
            },
            AgentPosition(Vec2::new(-60.0, 240.0)),
        ))
        .id();
    let turn = 6.0;
    let (mut before, mut widest, mut settled) = (0.0f32, 0.0f32, 0.0f32);
    let mut step = 0u64;
    run_steps(&mut app, (hz * 10.0) as u64, |world| {
        step += 1;
        let t = (step as f64 / hz) as f32;
        if step == (turn * hz) as u64 {
            let x = world.get::<AgentPosition>(leader).unwrap().x;
            *world.get_mut::<SteeringBehavior>(leader).unwrap() =
                SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(x, 1e6)));
        }
        let at = world.get::<AgentPosition>(leader).unwrap().0;
        let heading = world.get::<AgentHeading>(leader).unwrap().0.as_vec2();
        let place = bevy_reynolds::reynolds::behaviors::slot_position(at, heading, offset);
        let off = world
            .get::<AgentPosition>(escort)
            .unwrap()
            .0
            .distance(place);
        if (3.0..turn as f32).contains(&t) {
            before = before.max(off);
        }
        if t > turn as f32 {
            widest = widest.max(off);
            if off > tolerance {
                settled = t - turn as f32;
            }
        }
    });
    [before, widest, settled]
}

/// The bodyguard scene: two walkers in straight lines (one east at
/// 80 px/s, one north-east at 85 px/s), a bodyguard starting 112 px from
/// their midpoint. From 2 s on: the farthest it was from the line their
/// midpoint moves along, and from the midpoint.
pub fn bodyguard(hz: f64) -> [f32; 2] {
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    let world = app.world_mut();
    let mut walker = |from: Vec2, vel: Vec2| {
        world
            .spawn((
                SteeringAgent,
                SteeringBehavior::Seek(SteeringTarget::Point(from + vel * 1e4)),
                AgentPosition(from),
                AgentVelocity(vel),
                SteeringParams {
                    max_speed: vel.length(),
                    ..default()
                },
            ))
            .id()
    };
    let vip = walker(Vec2::new(0.0, 0.0), Vec2::new(80.0, 0.0));
    let threat = walker(Vec2::new(0.0, 300.0), Vec2::new(60.0, 60.0));
    let guard = world
        .spawn((
            SteeringAgent,
            SteeringBehavior::Interpose(
                SteeringTarget::Entity(vip),
                SteeringTarget::Entity(threat),
            ),
            AgentPosition(Vec2::new(-100.0, 100.0)),
        ))
        .id();
    let (start, drift) = (Vec2::new(0.0, 150.0), Vec2::new(70.0, 30.0).normalize());
    let mut step = 0u64;
    let (mut off_line, mut off_middle) = (0.0f32, 0.0f32);
    run_steps(&mut app, (hz * 6.0) as u64, |world| {
        step += 1;
        let at = |e: Entity| world.get::<AgentPosition>(e).unwrap().0;
        let middle = (at(vip) + at(threat)) / 2.0;
        let g = at(guard);
        if step as f64 / hz >= 2.0 {
            off_line = off_line.max((g - start).perp_dot(drift).abs());
            off_middle = off_middle.max(g.distance(middle));
        }
    });
    [off_line, off_middle]
}

/// The followers scene: a leader walking east at 60% of top speed, turned
/// back west 4 s in through its six followers (each keeping 40 px behind
/// it, nothing else steering them). The longest a follower was in the
/// leader's way (ahead, nearer than 80 px, within the two bodies' radii of
/// its line), in seconds; the nearest any came to its middle; the farthest
/// any ended from it.
pub fn followers(hz: f64) -> [f32; 3] {
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    let world = app.world_mut();
    let leader = walker(world, Vec2::ZERO, Vec2::X);
    let followers: Vec<Entity> = (0..6)
        .map(|i| {
            let at = Vec2::new(-40.0 - 25.0 * (i / 2) as f32, 20.0 * (i % 2) as f32 - 10.0);
            world
                .spawn((
                    SteeringAgent,
                    SteeringBehavior::FollowLeader {
                        leader: SteeringTarget::Entity(leader),
                        behind: 40.0,
                    },
                    AgentPosition(at),
                    body(TOP_SPEED),
                ))
                .id()
        })
        .collect();
    let turn = (4.0 * hz) as u64;
    let mut step = 0u64;
    let mut in_way = vec![0u64; followers.len()];
    let (mut longest, mut nearest) = (0u64, f32::INFINITY);
    run_steps(&mut app, (hz * 10.0) as u64, |world| {
        step += 1;
        if step == turn {
            *world.get_mut::<SteeringBehavior>(leader).unwrap() =
                SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(-1e6, 0.0)));
        }
        let at = world.get::<AgentPosition>(leader).unwrap().0;
        let forward = world.get::<AgentHeading>(leader).unwrap().0.as_vec2();
        for (i, f) in followers.iter().enumerate() {
            let rel = world.get::<AgentPosition>(*f).unwrap().0 - at;
            nearest = nearest.min(rel.length());
            let (ahead, aside) = (rel.dot(forward), rel.dot(forward.perp()));
            if ahead > 0.0 && ahead < 80.0 && aside.abs() < 2.0 * RADIUS {
                in_way[i] += 1;
                longest = longest.max(in_way[i]);
            } else {
                in_way[i] = 0;
            }
        }
    });
    let at = app.world().get::<AgentPosition>(leader).unwrap().0;
    let farthest = followers
        .iter()
        .map(|f| app.world().get::<AgentPosition>(*f).unwrap().0.distance(at))
        .fold(0.0, f32::max);
    [(longest as f64 / hz) as f32, nearest, farthest]
}

/// The hide scene: a field of 1000 x 700 px with 25 rocks (radii 20 to 36)
/// on a jittered 5 x 5 grid, a hunter wandering among them, and prey hiding
/// from it (bodies of 8 px, kept on the field, the chapter's top speed
/// each), for 42 s. From 2 s on: the share of steps the hunter's line of
/// sight to the prey's middle passes through a rock, and the nearest the
/// hunter came to the prey.
pub fn hide(hz: f64) -> [f32; 2] {
    hide_with(hz, Hide::from)
}

/// [`hide`] with the prey given `prey` (another behavior, to compare).
pub fn hide_with<B: Bundle>(hz: f64, prey: impl FnOnce(Entity) -> B) -> [f32; 2] {
    let field = (Vec2::ZERO, Vec2::new(1000.0, 700.0));
    let rocks: Vec<(Vec2, f32)> = (0..25)
        .map(|i| {
            let (col, row) = ((i % 5) as f32, (i / 5) as f32);
            let jitter = Vec2::new((i * 37 % 11) as f32 - 5.0, (i * 53 % 13) as f32 - 6.0) * 4.0;
            let center = Vec2::new(100.0 + 200.0 * col, 70.0 + 140.0 * row) + jitter;
            (center, 20.0 + (i * 7 % 17) as f32)
        })
        .collect();
    let mut app = headless_app(hz, 3, SteeringSettings::default());
    let world = app.world_mut();
    for &(center, radius) in &rocks {
        world.spawn((SteeringObstacle::circle(radius), AgentPosition(center)));
    }
    let keep = Containment::rect(field.0, field.1);
    let hunter = world
        .spawn((
            SteeringAgent,
            SteeringBehavior::Wander,
            keep.clone(),
            AgentPosition(Vec2::new(200.0, 140.0)),
            body(TOP_SPEED),
        ))
        .id();
    let hider = world
        .spawn((
            SteeringAgent,
            prey(hunter),
            keep,
            AgentPosition(Vec2::new(400.0, 300.0)),
            body(TOP_SPEED),
        ))
        .id();
    let (mut seen, mut hidden, mut closest) = (0u64, 0u64, f32::INFINITY);
    let mut step = 0u64;
    run_steps(&mut app, (hz * 42.0) as u64, |world| {
        step += 1;
        if (step as f64) < 2.0 * hz {
            return;
        }
        let h = world.get::<AgentPosition>(hunter).unwrap().0;
        let p = world.get::<AgentPosition>(hider).unwrap().0;
        closest = closest.min(h.distance(p));
        let blocked = rocks.iter().any(|&(center, radius)| {
            let along = ((center - h).dot(p - h) / (p - h).length_squared()).clamp(0.0, 1.0);
            center.distance(h + (p - h) * along) < radius
        });
        if blocked {
            hidden += 1;
        } else {
            seen += 1;
        }
    });
    [(hidden as f64 / (hidden + seen) as f64) as f32, closest]
}

/// A leader at `at` facing +x with `squad`'s formation, its members in
/// their places, all bodies of 8 px avoiding each other (the leader with
/// the right of way), the leader at 60% of the top speed.
pub fn spawn_squad(world: &mut World, at: Vec2, squad: &Squad) -> (Entity, Vec<Entity>) {
    let leader = world
        .spawn((
            Formation::new(squad.shape.clone(), squad.spacing),
            AvoidAgents {
                right_of_way: 1,
                ..default()
            },
            AgentPosition(at),
            body(0.6 * TOP_SPEED),
        ))
        .id();
    let members = (0..squad.members)
        .map(|i| {
            let place = at + squad.shape.slot(i, squad.members, squad.spacing);
            world
                .spawn((
                    InFormation(leader),
                    AvoidAgents::default(),
                    AgentPosition(place),
                    body(TOP_SPEED),
                ))
                .id()
        })
        .collect();
    (leader, members)
}

/// How far the members are from the places of a shape of their number,
/// reckoned from the leader's place and the way its formation faces alone: for each place, the
/// nearest member; the farthest of those (so 0 only if no place is empty).
pub fn off_places(world: &mut World, leader: Entity) -> f32 {
    let members: Vec<Vec2> = world
        .query::<(&InFormation, &AgentPosition)>()
        .iter(world)
        .filter(|(of, _)| of.0 == leader)
        .map(|(_, p)| p.0)
        .collect();
    let formation = world.get::<Formation>(leader).unwrap();
    let at = world.get::<AgentPosition>(leader).unwrap().0;
    let heading = world.get::<FormationState>(leader).unwrap().facing;
    let n = members.len();
    (0..n)
        .map(|i| {
            let place = formation.place(i, n, at, heading);
            members
                .iter()
                .map(|m| m.distance(place))
                .fold(f32::INFINITY, f32::min)
        })
        .fold(0.0, f32::max)
}

/// How many times two members' paths (each its positions, step by step)
/// cross.
pub fn crossings(paths: &[Vec<Vec2>]) -> usize {
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

/// The deepest any two bodies among `agents` overlap, px.
fn deepest_overlap(world: &World, agents: &[Entity]) -> f32 {
    let at: Vec<Vec2> = agents
        .iter()
        .map(|&a| world.get::<AgentPosition>(a).unwrap().0)
        .collect();
    let mut deepest = 0.0f32;
    for i in 0..at.len() {
        for j in i + 1..at.len() {
            deepest = deepest.max(2.0 * RADIUS - at[i].distance(at[j]));
        }
    }
    deepest
}

/// What a formation did going through a door.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DoorReport {
    /// How wide the door was, px.
    pub door_px: f32,
    /// Whether the members walked in a column on the way.
    pub went_column: bool,
    /// When the last member was through, s (`None`: not all were).
    pub through_s: Option<f64>,
    /// From 3 s after that, for 3 s, the farthest a place was from its
    /// nearest member, px.
    pub off_after_px: f32,
    /// Where the leader was at the end of those 3 s (x, px).
    pub leader_x: f32,
    /// The deepest two bodies overlapped, px.
    pub deepest_overlap_px: f32,
    /// The nearest a body came to the wall (negative: in it), px.
    pub nearest_wall_px: f32,
}

/// The door scene: a wall 20 px thick across x = 800 (y from -700 to
/// 700), with a door half the squad's width centred on y = 200, so the
/// route bends; the squad's leader navigates from (0, 0) to (2600, 0), for
/// 30 s.
pub fn door(hz: f64, squad: &Squad) -> DoorReport {
    let door_px = squad.width() / 2.0;
    let door = (200.0 - door_px / 2.0, 200.0 + door_px / 2.0);
    let walls = [
        (Vec2::new(790.0, -700.0), Vec2::new(810.0, door.0)),
        (Vec2::new(790.0, door.1), Vec2::new(810.0, 700.0)),
    ];
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    let world = app.world_mut();
    for &(lo, hi) in &walls {
        world.spawn((
            SteeringObstacle::polygon([lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)]),
            AgentPosition(Vec2::ZERO),
        ));
    }
    let (leader, members) = spawn_squad(world, Vec2::ZERO, squad);
    world
        .entity_mut(leader)
        .insert(Navigate::to(Vec2::new(2600.0, 0.0)));
    let mut everyone = members.clone();
    everyone.push(leader);
    let mut report = DoorReport {
        door_px,
        went_column: false,
        through_s: None,
        off_after_px: 0.0,
        leader_x: 0.0,
        deepest_overlap_px: 0.0,
        nearest_wall_px: f32::INFINITY,
    };
    let mut step = 0u64;
    run_steps(&mut app, (hz * 30.0) as u64, |world| {
        step += 1;
        let t = step as f64 / hz;
        report.deepest_overlap_px = report
            .deepest_overlap_px
            .max(deepest_overlap(world, &everyone));
        for &a in &everyone {
            let p = world.get::<AgentPosition>(a).unwrap().0;
            for &(lo, hi) in &walls {
                let gap = (p - p.clamp(lo, hi)).length() - RADIUS;
                report.nearest_wall_px = report.nearest_wall_px.min(gap);
            }
        }
        report.went_column |= world.get::<FormationState>(leader).unwrap().in_column;
        let last_x = members
            .iter()
            .map(|&m| world.get::<AgentPosition>(m).unwrap().x)
            .fold(f32::INFINITY, f32::min);
        if report.through_s.is_none() && last_x > 810.0 + RADIUS {
            report.through_s = Some(t);
        }
        if report
            .through_s
            .is_some_and(|at| t >= at + 3.0 && t <= at + 6.0)
        {
            report.off_after_px = report.off_after_px.max(off_places(world, leader));
            report.leader_x = world.get::<AgentPosition>(leader).unwrap().x;
        }
    });
    report
}

/// What a formation did while its leader turned.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurnReport {
    /// Steps recorded.
    pub steps: usize,
    /// How many times two members' paths crossed.
    pub crossings: usize,
    /// The farthest a place was from its nearest member, px, while
    /// measured.
    pub off_px: f32,
}

/// The wheel scene: the squad's leader walks east, round a half circle of
/// 500 px radius (north, then west), and back west, for 20 s. Recorded
/// from 1 s in while the leader is east of x = 500: the turn.
pub fn wheel(hz: f64, squad: &Squad) -> TurnReport {
    let center = Vec2::new(600.0, 500.0);
    let mut points = vec![Vec2::ZERO];
    points.extend((0..=24).map(|k| {
        let angle = -std::f32::consts::FRAC_PI_2 + std::f32::consts::PI * k as f32 / 24.0;
        center + Vec2::from_angle(angle) * 500.0
    }));
    points.push(Vec2::new(-600.0, 1000.0));
    let path = Arc::new(SteeringPath::new(points, false));
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    let world = app.world_mut();
    let (leader, members) = spawn_squad(world, Vec2::ZERO, squad);
    world.entity_mut(leader).insert(FollowPath::new(path, 10.0));
    let mut paths: Vec<Vec<Vec2>> = vec![Vec::new(); members.len()];
    let mut off_px = 0.0f32;
    let mut step = 0u64;
    run_steps(&mut app, (hz * 20.0) as u64, |world| {
        step += 1;
        let at = world.get::<AgentPosition>(leader).unwrap().0;
        if at.x < 500.0 || (step as f64) < hz {
            return;
        }
        for (path, &m) in paths.iter_mut().zip(&members) {
            path.push(world.get::<AgentPosition>(m).unwrap().0);
        }
        off_px = off_px.max(off_places(world, leader));
    });
    TurnReport {
        steps: paths[0].len(),
        crossings: crossings(&paths),
        off_px,
    }
}

/// The about-face scene: the squad's leader seeks east, and 4 s in is
/// sent back west. Recorded from the order for 8 s; the places measured
/// from 4 s after it.
pub fn about_face(hz: f64, squad: &Squad) -> TurnReport {
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    let world = app.world_mut();
    let (leader, members) = spawn_squad(world, Vec2::ZERO, squad);
    world
        .entity_mut(leader)
        .insert(SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(
            1e5, 0.0,
        ))));
    let mut paths: Vec<Vec<Vec2>> = vec![Vec::new(); members.len()];
    let mut off_px = 0.0f32;
    let mut step = 0u64;
    let order = (4.0 * hz) as u64;
    run_steps(&mut app, (hz * 12.0) as u64, |world| {
        step += 1;
        if step == order {
            *world.get_mut::<SteeringBehavior>(leader).unwrap() =
                SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(-1e5, 0.0)));
        }
        if step < order {
            return;
        }
        for (path, &m) in paths.iter_mut().zip(&members) {
            path.push(world.get::<AgentPosition>(m).unwrap().0);
        }
        if step as f64 >= 8.0 * hz {
            off_px = off_px.max(off_places(world, leader));
        }
    });
    TurnReport {
        steps: paths[0].len(),
        crossings: crossings(&paths),
        off_px,
    }
}

/// What a formation did as members fell and joined.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FallAndJoinReport {
    /// Members the plugin counted between 3 and 4 s after the fall.
    pub after_fall: usize,
    /// The farthest a place was from its nearest member then, px.
    pub off_after_fall_px: f32,
    /// Members counted from 3 to 4 s after the join.
    pub after_join: usize,
    /// The farthest a place was from its nearest member then, px.
    pub off_after_join_px: f32,
}

/// The fall-and-join scene: the squad walks east; 2 s in, its 4th to 7th
/// members fall (despawned), and 6 s in, two new ones join from 300 px
/// behind the leader.
pub fn fall_and_join(hz: f64, squad: &Squad) -> FallAndJoinReport {
    let mut app = headless_app(hz, 1, SteeringSettings::default());
    let world = app.world_mut();
    let (leader, members) = spawn_squad(world, Vec2::ZERO, squad);
    world
        .entity_mut(leader)
        .insert(SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(
            1e5, 0.0,
        ))));
    let mut report = FallAndJoinReport {
        after_fall: 0,
        off_after_fall_px: 0.0,
        after_join: 0,
        off_after_join_px: 0.0,
    };
    let mut step = 0u64;
    run_steps(&mut app, (hz * 10.0) as u64, |world| {
        step += 1;
        let t = step as f64 / hz;
        if step == (2.0 * hz) as u64 {
            for &fallen in members.iter().skip(3).take(4) {
                world.despawn(fallen);
            }
        }
        if step == (6.0 * hz) as u64 {
            let at = world.get::<AgentPosition>(leader).unwrap().0;
            for y in [-60.0, 60.0] {
                world.spawn((
                    InFormation(leader),
                    AvoidAgents::default(),
                    AgentPosition(at + Vec2::new(-300.0, y)),
                    body(TOP_SPEED),
                ));
            }
        }
        let n = world.get::<FormationState>(leader).unwrap().members.len();
        if (5.0..6.0).contains(&t) {
            report.off_after_fall_px = report.off_after_fall_px.max(off_places(world, leader));
            report.after_fall = n;
        }
        if (9.0..=10.0).contains(&t) {
            report.off_after_join_px = report.off_after_join_px.max(off_places(world, leader));
            report.after_join = n;
        }
    });
    report
}
