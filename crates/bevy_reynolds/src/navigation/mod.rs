//! Navigation ([`SteeringNavigationPlugin`]): send an agent anywhere it can
//! reach with [`Navigate`], and it finds the shortest way there for its
//! body through the level's [`SteeringObstacle`](crate::SteeringObstacle)s and follows it. Planar.

mod areas;
mod follow;
mod ground;
mod routes;
mod work;

use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;

pub use areas::NavigationAreas;
pub use reynolds::navigate::RouteEnd;

use crate::agent::{AgentPosition, GroundPlane, SteeringAgent, entity_on_ground};
use crate::level::RouteKeepsClear;
use crate::math::Vector;
use crate::schedule::{SteeringSchedule, StepSystems};

/// Sends an agent somewhere: the plugin finds the shortest route there for
/// its body (its [`radius`](crate::SteeringParams::radius) and
/// [`clearance`](Self::clearance)) round every [`SteeringObstacle`](crate::SteeringObstacle), inside its
/// [`Containment`](crate::Containment) if it has one, and the agent follows
/// it corner to corner and arrives at its end. Every other behavior,
/// containment and [`AvoidAgents`](crate::AvoidAgents) still apply; the
/// level's look-ahead and [`AvoidAgents`](crate::AvoidAgents)' foresight
/// leave obstacles to the route (pushing the agent further off than the
/// route's clearance, they would stop it at every door post and rock the
/// route passes close by); its body is still kept out of every obstacle,
/// a [`MovingObstacle`] too, after each step.
/// Its [`NavigationStatus`] says how it is going, and [`Arrived`] or
/// [`Unreachable`] is triggered on the agent when it ends.
///
/// Give it no [`SteeringBehavior`](crate::SteeringBehavior) (or `SteeringBehavior::Idle`): the
/// route is its behavior. A point (radius 0, the default) is routed as the
/// body [`SteeringParams::body_radius`](crate::SteeringParams::body_radius)
/// gives it: as wide as its clearance, 4 px.
///
/// ```
/// use bevy::prelude::*;
/// # use bevy::time::TimeUpdateStrategy;
/// use bevy_reynolds::prelude::*;
///
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SteeringPlugins::default()));
/// // A wall between the agent and where it is sent.
/// app.world_mut().spawn(SteeringObstacle::wall(Vec2::new(0.0, -200.0), Vec2::new(0.0, 200.0)));
/// let agent = app
///     .world_mut()
///     .spawn((Navigate::to(Vec2::new(300.0, 0.0)), AgentPosition::new(-300.0, 0.0)))
///     .observe(|arrived: On<Arrived>| info!("{} is there", arrived.entity))
///     .id();
/// # // Ten seconds of fixed steps, however fast this machine runs them.
/// # app.insert_resource(TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(1.0 / 64.0)));
/// # for _ in 0..640 { app.update(); }
/// # assert_eq!(app.world().get::<NavigationStatus>(agent), Some(&NavigationStatus::Arrived));
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringAgent, NavigationStatus, NavigationRoute, follow::Progress)]
pub struct Navigate {
    /// Where to.
    pub goal: NavigationGoal,
    /// How far beyond its body the route keeps from every obstacle, as a
    /// share of the body's radius: 0.25. The agent cuts a corner by at most
    /// this much, so it never touches what it goes round.
    pub clearance: f32,
}

impl Navigate {
    /// Sends the agent to `point`.
    pub fn to(point: Vector) -> Self {
        Self {
            goal: NavigationGoal::Point(point),
            clearance: 0.25,
        }
    }

    /// Sends the agent to an entity (placed by its
    /// [`AgentPosition`](crate::AgentPosition) or its transform), planned again when
    /// it moves off the route's end.
    pub fn to_entity(entity: Entity) -> Self {
        Self {
            goal: NavigationGoal::Entity(entity),
            clearance: 0.25,
        }
    }
}

/// Where a [`Navigate`] agent goes.
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
pub enum NavigationGoal {
    /// A point on the ground.
    Point(Vector),
    /// An entity, where it is.
    Entity(Entity),
}

impl NavigationGoal {
    /// Where the goal is now, if it is anywhere.
    pub(crate) fn point(
        self,
        ground: GroundPlane,
        places: &Query<(Option<&AgentPosition>, Option<&GlobalTransform>)>,
    ) -> Option<Vector> {
        match self {
            NavigationGoal::Point(p) => p.is_finite().then_some(p),
            NavigationGoal::Entity(entity) => entity_on_ground(entity, ground, places),
        }
    }
}

/// How a [`Navigate`] agent is doing.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub enum NavigationStatus {
    /// Waiting for its route, heading straight for its goal meanwhile:
    /// found off the step within
    /// [`NavigationSettings::search_per_second`], each taken
    /// [`NavigationSettings::route_lag`] after it was paid for (and the
    /// ground first made [`NavigationSettings::area_lag`] after it is
    /// first needed).
    #[default]
    Planning,
    /// On its way.
    Following,
    /// At the goal (or the nearest place to it a body fits, if the goal is
    /// inside an obstacle or off the ground).
    Arrived,
    /// The goal has no way to it: going to the nearest place that has.
    Unreachable,
    /// It has come no nearer its goal for [`STALL_AFTER`] seconds, twice:
    /// once on its route, and again on a new one planned for that reason
    /// (held by a crowd, a door taking turns, a [`MovingObstacle`] in its
    /// way, or its other steering). It keeps trying, and is `Following`
    /// again once it gets on; [`Stalled`] is triggered as it stalls.
    Stalled,
}

/// How long a [`Navigate`] agent may come no nearer its goal before it is
/// planned again, and after that before it is [`NavigationStatus::Stalled`]:
/// 5 s.
pub const STALL_AFTER: f32 = 5.0;

/// Triggered on a [`Navigate`] agent that has stalled (see
/// [`NavigationStatus::Stalled`]). The first time an agent stalls, a
/// warning names it and what holds it; of agents held by a crowd (waiting
/// their turn at a door, say), only the first is logged.
#[derive(EntityEvent, Debug, Clone, Copy, PartialEq)]
pub struct Stalled {
    /// The agent.
    pub entity: Entity,
}

/// Triggered on a [`Navigate`] agent when it reaches the end of its route.
#[derive(EntityEvent, Debug, Clone, Copy, PartialEq)]
pub struct Arrived {
    /// The agent.
    pub entity: Entity,
}

/// Triggered on a [`Navigate`] agent whose goal has no way to it (it goes
/// to the nearest place that has).
#[derive(EntityEvent, Debug, Clone, Copy, PartialEq)]
pub struct Unreachable {
    /// The agent.
    pub entity: Entity,
}

/// A [`Navigate`] agent's route: the corners it goes through, and the one
/// it heads for.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct NavigationRoute {
    /// From where it was planned to its end.
    pub points: Vec<Vector>,
    /// The index of the corner it heads for.
    pub corner: usize,
    /// The goal it was planned for.
    pub(crate) planned_for: Option<Vector>,
    /// The goal it was searched for (it may have been mended since).
    pub(crate) searched_for: Option<Vector>,
    /// The body it was planned for (its radius grown by its clearance).
    pub(crate) planned_body: f32,
    /// The walkable area's generation it was planned on.
    pub(crate) generation: u64,
    /// Whether that area was out of date (being made again): then it is
    /// planned again on the next, wherever the change was.
    pub(crate) provisional: bool,
    /// The ask for a new route it waits for, if any.
    pub(crate) asked: Option<u64>,
    /// Where it last went on past a corner because it saw past it: its
    /// way to the corner it heads for starts there, not at the corner
    /// before (which it never went round).
    pub(crate) seen_from: Option<Vector>,
    /// Whether it is to be planned again from where it is: it made no
    /// progress on it.
    pub(crate) again: bool,
}

impl NavigationRoute {
    /// Its length still to go from `pos`.
    pub fn remaining(&self, pos: Vector) -> f32 {
        match self.points.get(self.corner..) {
            Some([first, rest @ ..]) if !self.points.is_empty() => {
                pos.distance(*first)
                    + rest
                        .iter()
                        .scan(*first, |prev, p| {
                            let d = prev.distance(*p);
                            *prev = *p;
                            Some(d)
                        })
                        .sum::<f32>()
            }
            _ => 0.0,
        }
    }
}

/// An [`SteeringObstacle`](crate::SteeringObstacle) that moves (a cart, a door that swings): avoided where
/// agents meet it, never carved out of the routes' ground. Every other
/// obstacle is still: routes go round it, and adding, moving or removing
/// one makes the ground again (off the step, in use
/// [`NavigationSettings::area_lag`] later) and plans again the routes it
/// touches.
/// Obstacles on agents are moving ones without it.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct MovingObstacle;

/// How navigation spends its time. Walkable areas and routes are made off
/// the step, each on a thread of its own (on the web, which has none, at
/// once; on Linux and Android in the idle class, so that they run only on
/// cores the app leaves free), and taken a set time after they were asked
/// for, whatever the machine's speed, so that a run goes the same way on
/// any machine; a step waits for one that is late.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Resource, Debug, PartialEq)]
pub struct NavigationSettings {
    /// The search work routes may take a second, in nodes expanded
    /// (Polyanya's): 400,000. Routes are paid for out of it in the order
    /// they were asked for, each step its share (6,667 at 60 Hz), work a
    /// step cannot pay carried to the next. A route among 30 rocks takes
    /// about 20 nodes, one through an office's doors about 100: a thousand
    /// units sent at once have their routes within half a second. On a
    /// ground of more than 1,000 polygons a node counts for more, as it
    /// takes longer (1 + log10(polygons / 1,000): 2.3 on a level of 1,000
    /// obstacles, where a route counts about 600). It is counted, not
    /// timed, so that routes come at the same steps on every machine; it
    /// keeps about 40% of a spare core busy while routes wait, and a step
    /// waits for a route due that a slower machine has not found yet.
    pub search_per_second: u32,
    /// Seconds between a route's work being paid for and the route taken
    /// (at least a step): 0.05, so that the routes are found on a thread
    /// between frames (between the end of `Last` and `First`), leaving the
    /// frames their cores. Meanwhile an agent sent somewhere new heads
    /// straight for its goal.
    pub route_lag: f32,
    /// Seconds between a change of the still obstacles (or a first route
    /// for a size of body) and the walkable ground made for it: 0.2, time
    /// to make the ground of a thousand obstacles (about 0.1 s a size of
    /// body) without a step waiting. Meanwhile routes use the ground as it
    /// was.
    pub area_lag: f32,
}

impl Default for NavigationSettings {
    fn default() -> Self {
        Self {
            search_per_second: 400_000,
            route_lag: 0.05,
            area_lag: 0.2,
        }
    }
}

/// Navigation: each [`Navigate`] agent's route planned in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare) (after the
/// [`ObstacleIndex`](crate::ObstacleIndex), on the
/// [`NavigationAreas`] made from it), and followed in
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors), after
/// path following, in [`SteeringPriority::Normal`](crate::SteeringPriority::Normal). Needs
/// [`SteeringLevelPlugin`](crate::SteeringLevelPlugin), which indexes the
/// obstacles.
#[derive(Debug, Clone, Copy, Default)]
pub struct SteeringNavigationPlugin;

impl Plugin for SteeringNavigationPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringNavigationPlugin");
        let frame_end = frame_ended(app);
        app.register_type::<Navigate>()
            .register_type::<NavigationStatus>()
            .register_type::<NavigationRoute>()
            .register_type::<MovingObstacle>()
            .register_type::<NavigationSettings>()
            .init_resource::<NavigationSettings>()
            .init_resource::<NavigationAreas>()
            .init_resource::<routes::RoutesUnderWay>()
            // The route keeps it clear of still obstacles, and the level's
            // look-ahead leaves them to it; again when it stops navigating.
            .register_required_components::<Navigate, RouteKeepsClear>()
            .register_required_components::<Navigate, ground::OnGround>()
            .add_observer(look_ahead_again)
            .add_systems(First, routes::frame_begins)
            .add_systems(frame_end, routes::frame_ends)
            .add_systems(
                schedule,
                (
                    (areas::gather_solids, routes::plan_routes)
                        .chain()
                        .run_if(any_with_component::<Navigate>)
                        .in_set(StepSystems::PlanRoutes),
                    follow::follow_routes
                        .run_if(any_with_component::<Navigate>)
                        .in_set(StepSystems::FollowRoutes),
                    ground::keep_on_ground
                        .run_if(any_with_component::<Navigate>)
                        .in_set(StepSystems::KeepOnGround),
                ),
            );
    }
}

/// An agent that stops navigating is the level's look-ahead's again, and
/// forgets its route: sent again, even where it was sent before, it plans
/// anew.
fn look_ahead_again(removed: On<Remove, Navigate>, mut commands: Commands) {
    if let Ok(mut agent) = commands.get_entity(removed.entity) {
        agent
            .try_remove::<RouteKeepsClear>()
            .try_insert((NavigationRoute::default(), NavigationStatus::default()));
    }
}

/// The schedule that marks a frame's end: its own, run after `Last` on
/// this thread, so that routes waiting between frames start only once the
/// frame's last system has run (marked in `Last`, their thread took a core
/// from the rest of `Last`: BENCHMARKS.md, "Routes"). `Last` in an app without Bevy's main schedule order.
fn frame_ended(app: &mut App) -> InternedScheduleLabel {
    use bevy::app::MainScheduleOrder;
    use bevy::ecs::schedule::SingleThreadedExecutor;
    let Some(mut order) = app.world_mut().get_resource_mut::<MainScheduleOrder>() else {
        return Last.intern();
    };
    if !order.labels.contains(&FrameEnded.intern()) {
        order.insert_after(Last, FrameEnded);
        let mut schedule = Schedule::new(FrameEnded);
        schedule.set_executor(SingleThreadedExecutor::new());
        app.add_schedule(schedule);
    }
    FrameEnded.intern()
}

/// After `Last`: the frame has ended.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct FrameEnded;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SteeringPlugins;

    /// A search's nodes count as they are on a ground of under 1,000
    /// polygons, and for more on a bigger one, where each takes longer:
    /// counted alike there, the budget kept a core busy and steps waited.
    #[test]
    fn a_node_counts_for_more_on_a_big_ground() {
        use reynolds::navigate::{Ground, Solid, WalkableArea};
        let rocks = |n: usize| -> Vec<Solid> {
            (0..n * n)
                .map(|i| Solid::Circle {
                    center: Vec2::new((i % n) as f32, (i / n) as f32) * 10.0,
                    radius: 2.0,
                })
                .collect()
        };
        let ground = Ground::Open { around: &[] };
        let small = WalkableArea::new(&rocks(2), ground, 0.5);
        let big = WalkableArea::new(&rocks(20), ground, 0.5);
        assert!(small.polygon_count() < 1_000 && big.polygon_count() > 5_000);
        assert_eq!(routes::work_of(100, &small), 100);
        let weight = 1.0 + (big.polygon_count() as f64 / 1_000.0).log10();
        assert_eq!(routes::work_of(100, &big), (100.0 * weight).ceil() as u32);
        assert!(routes::work_of(100, &big) > 170);
    }

    /// Routes waiting between frames start only once the frame's last
    /// system has run: a system at the end of `Last` still sees the frame
    /// running, and after the update it has ended. (Marked in `Last`, the
    /// threads finding routes woke while the rest of `Last` ran and took a
    /// core from it.)
    #[test]
    fn a_frame_ends_after_its_last_system() {
        #[derive(Resource, Default)]
        struct SeenInLast(Vec<bool>);
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, SteeringPlugins::default()))
            .init_resource::<SeenInLast>()
            .add_systems(
                Last,
                |areas: Res<NavigationAreas>, mut seen: ResMut<SeenInLast>| {
                    seen.0.push(areas.frames.running());
                },
            );
        for _ in 0..3 {
            app.update();
            assert!(!app.world().resource::<NavigationAreas>().frames.running());
        }
        assert_eq!(app.world().resource::<SeenInLast>().0, [true; 3]);
    }
}
