//! Formations ([`SteeringFormationPlugin`]): a group that keeps a shape
//! round its leader, walks in a column where the way is too narrow for the
//! shape, and forms up again after it.

mod form;
mod hold;

use std::collections::VecDeque;

use bevy::prelude::*;
use reynolds::behaviors::slot_position;
pub use reynolds::formation::FormationShape;

use crate::agent::SteeringAgent;
use crate::math::Vector;
use crate::schedule::{SteeringSchedule, StepSystems};

/// On a leader: the agents that name it in [`InFormation`] keep a shape
/// round it, `spacing` apart, each holding its place as
/// [`SteeringBehavior::OffsetPursuit`](crate::SteeringBehavior::OffsetPursuit) does.
///
/// Members take places so that no two walk across each other to them
/// ([`untangle`](reynolds::formation::untangle)), and keep them while
/// the leader turns; one that joins or is gone has the rest take places
/// again. While members are more than a spacing off their places, the
/// leader slows for them ([`FormationState::pace`]). Where the way ahead of the leader (its
/// [`Navigate`](crate::Navigate) route, else its velocity) is too narrow
/// for the shape, they fall into a column in its steps, and form up again
/// once the way is wide enough and each sees its place clear. Give
/// members [`AvoidAgents`](crate::AvoidAgents) (and the leader too) to keep
/// their bodies apart meanwhile.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # let mut app = App::new();
/// # app.add_plugins((MinimalPlugins, SteeringPlugins::default()));
/// # let world = app.world_mut();
/// let leader = world
///     .spawn((Navigate::to(Vec2::new(900.0, 300.0)), Formation::new(FormationShape::Wedge, 40.0)))
///     .id();
/// for _ in 0..12 {
///     world.spawn((InFormation(leader), AvoidAgents::default()));
/// }
/// # use bevy::time::TimeUpdateStrategy;
/// # app.insert_resource(TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(1.0 / 64.0)));
/// # for _ in 0..64 * 30 { app.update(); }
/// # assert_eq!(app.world().get::<NavigationStatus>(leader), Some(&NavigationStatus::Arrived));
/// # let mut members = app.world_mut().query::<(&AgentPosition, &FormationPlace)>();
/// # for (at, place) in members.iter(app.world()) {
/// #     assert!(at.0.distance(place.place.expect("placed").0) < 10.0);
/// # }
/// ```
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringAgent, FormationState)]
pub struct Formation {
    /// The shape.
    pub shape: FormationShape,
    /// How far apart neighbours stand, in world units: at least the
    /// members' width, or they stand in each other.
    pub spacing: f32,
}

impl Formation {
    /// A formation of `shape`, neighbours `spacing` apart.
    pub fn new(shape: FormationShape, spacing: f32) -> Self {
        Self { shape, spacing }
    }

    /// Where place `i` of `n` is in the world, for a leader at `leader`
    /// facing `heading` (as [`slot_position`] places it).
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_reynolds::prelude::*;
    /// let wedge = Formation::new(FormationShape::Wedge, 40.0);
    /// // The first place: a row behind a leader facing east, to its left.
    /// assert_eq!(wedge.place(0, 6, Vec2::ZERO, Vec2::X), Vec2::new(-40.0, 20.0));
    /// ```
    pub fn place(&self, i: usize, n: usize, leader: Vector, heading: Vector) -> Vector {
        slot_position(leader, heading, self.shape.slot(i, n, self.spacing))
    }
}

/// What the plugin keeps of a leader's [`Formation`]: who holds which
/// place, and whether it walks in a column now.
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct FormationState {
    /// The members, in the order of their places: `members[i]` holds
    /// place `i` of the shape (or walks `i + 1`-th in the column).
    pub members: Vec<Entity>,
    /// Whether the members walk in a column, the way being too narrow.
    pub in_column: bool,
    /// How fast the leader walks, as a share of what its behaviors ask:
    /// below 1 while a member is more than a spacing off its place, down
    /// to a quarter.
    pub pace: f32,
    /// The way the shape faces: the leader's [`AgentHeading`](crate::AgentHeading)
    /// while it walks; kept while it stands or barely moves (under a tenth
    /// of its top speed), so that a standing leader jostled by others does
    /// not swing its members round it. Zero until the first step.
    pub facing: Vector,
    /// Where the leader walked, newest first, for the column.
    #[reflect(ignore)]
    trail: VecDeque<Vector>,
}

impl Default for FormationState {
    fn default() -> Self {
        Self {
            members: Vec::new(),
            in_column: false,
            pace: 1.0,
            facing: Vector::ZERO,
            trail: VecDeque::new(),
        }
    }
}

/// On a member: the leader whose [`Formation`] it keeps.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringAgent, FormationPlace)]
pub struct InFormation(pub Entity);

/// A member's place this step, and how fast the place moves (the plugin
/// writes it; `None` while its leader has no [`Formation`] or is gone).
#[derive(Component, Reflect, Debug, Clone, Copy, Default, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct FormationPlace {
    /// Where, and the place's velocity.
    pub place: Option<(Vector, Vector)>,
}

/// Formations: each leader's members are given their places in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare), after the
/// obstacles are indexed and routes planned, and hold them in
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors), in
/// [`SteeringPriority::Normal`](crate::SteeringPriority::Normal) with their other
/// behaviors. Needs [`SteeringAgentPlugin`](crate::SteeringAgentPlugin)
/// first; sees the level's obstacles if
/// [`SteeringLevelPlugin`](crate::SteeringLevelPlugin) is in.
#[derive(Debug, Clone, Copy, Default)]
pub struct SteeringFormationPlugin;

impl Plugin for SteeringFormationPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringFormationPlugin");
        app.register_type::<Formation>()
            .register_type::<FormationShape>()
            .register_type::<FormationState>()
            .register_type::<InFormation>()
            .register_type::<FormationPlace>()
            .add_systems(
                schedule,
                (
                    form::form
                        .run_if(any_with_component::<Formation>)
                        .in_set(StepSystems::Form),
                    (hold::hold_places, hold::pace_leaders)
                        .run_if(any_with_component::<InFormation>)
                        .in_set(StepSystems::HoldPlaces),
                ),
            );
    }
}
