//! Doors that take turns: each step, who is coming to each [`TakeTurns`]
//! door, which way has it, and right of way for those it lets through.

use bevy::prelude::*;
use reynolds::crowd::turns::{DoorLine, DoorTurns, Passer};

use super::prepare::Avoiding;
use crate::agent::{AgentPosition, GroundPlane};
use crate::flocking::NeighborGrid;
use crate::level::placer;
use crate::math::Vector;

/// How far a door sees people coming by default, in door widths.
const REACH: f32 = 1.5;

/// A narrow door that crowds pass both ways, taking turns: one way has it
/// for a run of people, then the other, as a game's rule for a door might.
/// Those of the way that has it get more right of way
/// ([`AvoidAgents::right_of_way`](crate::AvoidAgents::right_of_way)) while
/// they go through and until they are clear of its mouth, so those of the
/// other way give way and wait. A crowd left to itself cannot take turns:
/// nobody in it sees the whole door.
///
/// In the crowd lab's two-way door it brings more people through in time
/// than the crowd alone or ORCA (BENCHMARKS.md, "Crowds"); it is for doors
/// about a body wide each way (in wider ones both ways pass at once, and
/// turns do not help). It changes only right of way:
/// the agents' own steering (a route, a path, a seek) still takes them to
/// and through the door, and letting those with the door use all of it
/// (not keeping right) helps; [`DoorTurn::has_way`] says who has it.
///
/// Someone is coming to the door when, within [`reach`](Self::reach) of
/// its middle, the rest of their steering takes them towards its wall
/// (within 60° of straight across) along a line that meets the wall in
/// the opening. Only [`AvoidAgents`](crate::AvoidAgents) agents are seen.
/// The door starts with the way of whoever is nearest, and turns once its
/// way has had its [`run`](Self::run), or has nobody left to come, while
/// someone waits on the other side; those already in its mouth finish
/// first.
///
/// The posts are placed as an [`SteeringObstacle`](crate::SteeringObstacle)'s points are:
/// relative to the entity's [`AgentPosition`], or through its
/// [`GlobalTransform`] on the ground. The walls beside the door are the
/// level's obstacles, as usual.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
///
/// // Two units a metre: the model's critters, half a metre long, one unit.
/// # let mut app = App::new();
/// # app.add_plugins((MinimalPlugins, SteeringPlugins::default().with_length_unit(2.0)));
/// # let world = app.world_mut();
/// // A 2 m door in a wall along the y axis, and the wall either side.
/// let (a, b) = (Vec2::new(0.0, 1.0), Vec2::new(0.0, -1.0));
/// world.spawn(TakeTurns::between(a, b));
/// world.spawn(SteeringObstacle::wall(a, Vec2::new(0.0, 20.0)));
/// world.spawn(SteeringObstacle::wall(b, Vec2::new(0.0, -20.0)));
/// // Ten people a side, each sent across.
/// for i in 0..10 {
///     let y = i as f32 - 4.5;
///     for x in [-8.0, 8.0] {
///         world.spawn((Navigate::to(Vec2::new(-x, y)), AvoidAgents::default(), AgentPosition::new(x, y)));
///     }
/// }
/// # use bevy::time::TimeUpdateStrategy;
/// # app.insert_resource(TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(1.0 / 64.0)));
/// # for _ in 0..64 * 90 { app.update(); }
/// # let mut statuses = app.world_mut().query::<&NavigationStatus>();
/// # assert!(statuses.iter(app.world()).all(|s| *s == NavigationStatus::Arrived));
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(DoorTurn)]
pub struct TakeTurns {
    /// The door's two posts: the ends of its opening.
    pub posts: [Vector; 2],
    /// How many go through one way before it turns to the other, if anyone
    /// waits there (at least one). 16: in the lab's door, runs of 12 to 25
    /// did about as well, 8 worse.
    pub run: u32,
    /// How far from the door's middle it sees people coming, in door
    /// widths: 1.5 (3 m for a 2 m door; from 3 to 8 m measured alike).
    pub reach: f32,
    /// How much right of way it adds for those it lets through: 1.
    pub right_of_way: u8,
}

impl TakeTurns {
    /// A door between posts `a` and `b`, in runs of 16.
    pub fn between(a: Vector, b: Vector) -> Self {
        Self {
            posts: [a, b],
            run: 16,
            reach: REACH,
            right_of_way: 1,
        }
    }

    /// Why the door would do nothing, or see with its default reach, if it
    /// would; `None` if it is fine.
    pub fn problem(&self) -> Option<String> {
        let [a, b] = self.posts;
        if DoorLine::between(a, b).is_none() {
            Some(format!(
                "TakeTurns.posts must be two different finite points, not {a:?} and {b:?}; \
                 the door takes no turns"
            ))
        } else if self.good_reach().is_none() {
            Some(format!(
                "TakeTurns.reach must be above 0 and finite, not {:?}; using {REACH}",
                self.reach
            ))
        } else {
            None
        }
    }

    /// The reach in door widths, if it is above 0 and finite.
    fn good_reach(&self) -> Option<f32> {
        (self.reach.is_finite() && self.reach > 0.0).then_some(self.reach)
    }
}

/// Whom a [`TakeTurns`] door sees and lets through, kept by the plugin.
#[derive(Component, Reflect, Debug, Default, Clone)]
#[reflect(Component, Debug, Default)]
pub struct DoorTurn {
    /// Its opening on the ground, where it was in the last step.
    #[reflect(ignore)]
    line: Option<DoorLine>,
    /// Which way has it.
    #[reflect(ignore)]
    turns: DoorTurns,
    /// Those it saw in the last step, by entity.
    #[reflect(ignore)]
    passers: Vec<Passer>,
    /// Those it saw the step before: kept to reuse its memory.
    #[reflect(ignore)]
    before: Vec<Passer>,
}

impl DoorTurn {
    /// The direction through the door of those it lets through (a unit
    /// vector on the ground), if anyone is coming.
    pub fn way(&self) -> Option<Vector> {
        let line = self.line?;
        match self.turns.way() {
            0 => None,
            way => Some(line.across * f32::from(way)),
        }
    }

    /// The door's two posts on the ground, where they were in the last step
    /// (`None` if they are bad, or before its first step).
    pub fn opening(&self) -> Option<(Vector, Vector)> {
        let [a, b] = self.line?.posts();
        Some((a, b))
    }

    /// Whether the door gave `agent` right of way in the last step.
    pub fn has_way(&self, agent: Entity) -> bool {
        self.passer(agent).is_some_and(|p| p.right_of_way)
    }

    fn passer(&self, agent: Entity) -> Option<&Passer> {
        let key = agent.to_bits();
        let i = self.passers.binary_search_by_key(&key, |p| p.key).ok()?;
        Some(&self.passers[i])
    }
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare),
/// after the grid is made: a warning for each door whose posts or reach
/// are bad, when it is added or changed; then each door sees who is
/// coming, takes its turns, and raises the right of way of those it lets
/// through for this step's avoiding. Doors are visited in the query's
/// order and each one's people in entity order, so the result does not
/// depend on the thread count. (One system, run only while there are
/// doors: each system a step costs every app some thousand instructions.)
pub(super) fn take_turns(
    grid: Res<NeighborGrid>,
    ground: Res<GroundPlane>,
    mut avoiding: ResMut<Avoiding>,
    changed: Query<(Entity, &TakeTurns), Changed<TakeTurns>>,
    mut doors: Query<(
        &TakeTurns,
        &mut DoorTurn,
        Option<&AgentPosition>,
        Option<&GlobalTransform>,
    )>,
) {
    for (entity, door) in &changed {
        if let Some(problem) = door.problem() {
            warn!("door {entity}: {problem}");
        }
    }
    for (door, mut state, position, global) in &mut doors {
        let DoorTurn {
            line,
            turns,
            passers,
            before,
        } = &mut *state;
        let place = placer(*ground, position, global);
        *line = DoorLine::between(place(door.posts[0]), place(door.posts[1]));
        std::mem::swap(passers, before);
        passers.clear();
        let Some(line) = *line else {
            *turns = DoorTurns::new();
            continue;
        };
        let reach = 2.0 * line.half_width * door.good_reach().unwrap_or(REACH);
        grid.for_each_within(line.middle, reach, |slot, _, _| {
            let entity = grid.entity(slot);
            if avoiding.right_of_way(entity).is_none() {
                return;
            }
            let (at, _, radius) = grid.agent(slot);
            let heading = avoiding.intent(entity).heading;
            let key = entity.to_bits();
            let seen = before
                .binary_search_by_key(&key, |p| p.key)
                .ok()
                .map(|i| before[i]);
            let passer = match seen {
                Some(p) => {
                    // One not yet through who turns away from the door is
                    // no longer coming (unless finishing its way through).
                    let away = heading.dot(line.across) * f32::from(p.from) < 0.0;
                    if away && !p.crossed && !p.finishing {
                        return;
                    }
                    Passer {
                        past: line.past(at, p.from),
                        radius,
                        ..p
                    }
                }
                None => match line.coming(at, heading, radius, reach) {
                    Some(from) => Passer::coming(key, from, line.past(at, from), radius),
                    None => return,
                },
            };
            if passer.still_near() {
                passers.push(passer);
            }
        });
        passers.sort_unstable_by_key(|p| p.key);
        turns.step(door.run, passers);
        for p in passers.iter().filter(|p| p.right_of_way) {
            avoiding.raise(Entity::from_bits(p.key), door.right_of_way);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bad posts and a bad reach are named in the warning; a good door has
    /// no problem.
    #[test]
    fn a_bad_door_says_which_field() {
        let (a, b) = (Vector::new(0.0, 1.0), Vector::new(0.0, -1.0));
        assert_eq!(TakeTurns::between(a, b).problem(), None);
        for posts in [(a, a), (a, Vector::NAN), (Vector::INFINITY, b)] {
            let problem = TakeTurns::between(posts.0, posts.1).problem();
            assert!(problem.is_some_and(|p| p.contains("TakeTurns.posts")));
        }
        for reach in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let door = TakeTurns {
                reach,
                ..TakeTurns::between(a, b)
            };
            assert!(
                door.problem()
                    .is_some_and(|p| p.contains("TakeTurns.reach"))
            );
            assert_eq!(door.good_reach(), None);
        }
    }
}
