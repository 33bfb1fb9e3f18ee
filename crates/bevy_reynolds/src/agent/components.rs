//! The components an agent is made of: where it is, how it moves, the
//! way it faces, and the steering asked of it this step.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use reynolds::combine::PriorityGroups;
use reynolds::wander::{wander, wander_step};

use super::behavior::SteeringBehavior;
use super::ground::GroundPlane;
use super::params::{SteeringParams, SteeringPriority};
use super::space::AgentSpace;
use super::wander::{WanderAngle, WanderRng};
use crate::math::{Dir, Vector};

/// Makes an entity a steering agent: add it, with a [`SteeringBehavior`] and a
/// [`AgentPosition`], and everything else the model needs is added with defaults.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # let mut world = World::new();
/// world.spawn((
///     SteeringAgent,
///     SteeringBehavior::Arrive(SteeringTarget::Point(Vec2::new(500.0, 350.0))),
///     AgentPosition(Vec2::new(100.0, 100.0)),
/// ));
/// ```
///
/// The simulated [`AgentPosition`] is the truth; the [`Transform`] is written from
/// it for drawing, interpolated between fixed steps. An agent spawned with a
/// [`Transform`] and no [`AgentPosition`] starts where the transform puts it, on
/// the [`GroundPlane`]. Add a [`AgentTrail`](crate::AgentTrail) to record the agent's
/// recent path, and its own [`SteeringParams`] to give it its own limits.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(
    AgentPosition,
    AgentPreviousPosition,
    AgentVelocity,
    AgentHeading,
    SteeringBehavior,
    WanderAngle,
    WanderRng,
    SteeringParams,
    SteeringAccumulator,
    Transform
)]
#[component(on_add = place_new_agent::<Vector>)]
pub struct SteeringAgent;

/// A new agent starts where its [`Transform`] puts it if it was given no
/// position (on the ground, for a walker), and starts drawn where it is,
/// even when its position was there before it became an agent.
pub(crate) fn place_new_agent<V: AgentSpace>(mut world: DeferredWorld, ctx: HookContext) {
    let ground = world
        .get_resource::<GroundPlane>()
        .copied()
        .unwrap_or_default();
    let placed = world
        .get::<Transform>(ctx.entity)
        .map(|t| V::from_world(t.translation, ground));
    if let Some(placed) = placed.filter(|p| *p != V::ZERO && p.is_finite())
        && let Some(mut pos) = world.get_mut::<V::Position>(ctx.entity)
        && **pos == V::ZERO
    {
        *pos = placed.into();
    }
    reset_previous_position::<V>(world, ctx);
}

/// Where an agent is, in pixels (world units), as the simulation sees it.
///
/// Inserting a `AgentPosition` also resets [`AgentPreviousPosition`], so a teleport
/// is not drawn as a sweep across the screen.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
#[component(on_insert = reset_previous_position::<Vector>)]
pub struct AgentPosition(pub Vector);

impl AgentPosition {
    /// A position at `(x, y)`.
    pub const fn new(x: f32, y: f32) -> Self {
        Self(Vector::new(x, y))
    }
}

/// Inserting a position resets the previous one, for walkers and flyers.
pub(crate) fn reset_previous_position<V: AgentSpace>(mut world: DeferredWorld, ctx: HookContext) {
    let Some(pos) = world.get::<V::Position>(ctx.entity).copied() else {
        return;
    };
    if let Some(mut previous) = world.get_mut::<V::PreviousPosition>(ctx.entity) {
        *previous = (*pos).into();
    }
}

/// The [`AgentPosition`] before the last fixed step, kept to interpolate the
/// drawn position between steps.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct AgentPreviousPosition(pub Vector);

/// An agent's velocity, in pixels a second. Pursuers and evaders read it
/// from their target, if the target has one.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct AgentVelocity(pub Vector);

/// The way an agent faces: along its velocity, kept while it is slower than
/// 1 px/s. A direction, not an angle, so that neither the step nor the
/// drawing needs trigonometry; [`AgentHeading::from_angle`] and
/// [`AgentHeading::angle`] convert.
///
/// ```
/// # use bevy_reynolds::prelude::*;
/// let up = AgentHeading::from_angle(std::f32::consts::FRAC_PI_2);
/// assert!((up.angle() - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct AgentHeading(pub Dir);

impl Default for AgentHeading {
    /// Facing +x, the way the model's triangle points.
    fn default() -> Self {
        Self(Dir::X)
    }
}

impl AgentHeading {
    /// Facing `radians` counterclockwise from +x (+x if not finite).
    pub fn from_angle(radians: f32) -> Self {
        if radians.is_finite() {
            Self(Dir::new_unchecked(Vec2::from_angle(radians)))
        } else {
            Self::default()
        }
    }

    /// The angle counterclockwise from +x, in radians, in `-π..=π`.
    pub fn angle(&self) -> f32 {
        self.0.to_angle()
    }

    /// The rotation about z that turns +x to this heading, without
    /// trigonometry: what an agent's [`Transform`] is drawn with on
    /// [`GroundPlane::Xy`](crate::GroundPlane::Xy)
    /// ([`GroundPlane::rotation`](crate::GroundPlane::rotation) for either
    /// plane).
    pub fn rotation(&self) -> Quat {
        Quat::from_rotation_arc_2d(Vec2::X, self.0.as_vec2())
    }
}

/// The velocity an agent's steering asked for in its last step, in pixels a
/// second: `vel + force * response_time`, the velocity the combined
/// [`SteeringForce`] would reach in one response time. With one behavior it
/// is that behavior's desired velocity.
///
/// For drawing and debugging, so an agent has it only if you add it (the
/// debug view adds it while it draws desired velocities): written in
/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate), and
/// writing it changes nothing. To steer, add to the [`SteeringAccumulator`].
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct DesiredVelocity(pub Vector);

/// The force an agent's steering combined into in its last step, in pixels
/// a second per second, before the cap at the max force (and the mass).
///
/// For debugging and tests, so an agent has it only if you add it: written
/// in [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate) from
/// the [`SteeringAccumulator`]; writing it changes nothing.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct SteeringForce(pub Vector);

/// Every steering force asked of an agent this step, summed by
/// [`SteeringPriority`] group: each behavior adds to it, and
/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate) makes
/// one force of it (by the agent's [`Combine`](crate::Combine)), caps that
/// once at the max force and moves the agent. It starts each step empty.
///
/// The model's behaviors and flocking add to it in
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors); add
/// yours in [`SteeringSystems::Forces`](crate::SteeringSystems::Forces):
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// /// A behavior of your own: keep out of the half-plane y < 0.
/// #[derive(Component)]
/// struct KeepOutBelowZero;
///
/// fn keep_out(
///     mut agents: Query<
///         (&AgentPosition, &AgentVelocity, &SteeringParams, &mut SteeringAccumulator),
///         With<KeepOutBelowZero>,
///     >,
/// ) {
///     for (pos, vel, params, mut steering) in &mut agents {
///         if pos.y < 100.0 {
///             // Straight up, at full speed: the model's
///             // (desired - vel) / response_time, at the top priority.
///             let desired = Vec2::new(vel.x, params.max_speed);
///             steering.add_desired(SteeringPriority::Critical, 1.0, desired, vel.0, params.response_time);
///         }
///     }
/// }
///
/// App::new()
///     .add_plugins((MinimalPlugins, SteeringPlugins::default()))
///     .add_systems(FixedUpdate, keep_out.in_set(SteeringSystems::Forces));
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct SteeringAccumulator(#[reflect(ignore)] pub PriorityGroups);

impl AgentSpace for Vector {
    type Marker = SteeringAgent;
    type Position = AgentPosition;
    type PreviousPosition = AgentPreviousPosition;
    type Velocity = AgentVelocity;
    type Desired = DesiredVelocity;
    type Force = SteeringForce;
    type Accumulator = SteeringAccumulator;
    type Heading = AgentHeading;
    type Wander = WanderAngle;

    #[inline]
    fn facing(heading: &AgentHeading) -> Self {
        heading.0.as_vec2()
    }

    #[inline]
    fn wander(
        angle: &mut WanderAngle,
        rng: &mut WanderRng,
        dt: f32,
        rate: f32,
        max_speed: f32,
    ) -> Self {
        angle.0 = wander_step(angle.0, dt, rate, rng.unit());
        wander(angle.0, max_speed)
    }

    #[inline]
    fn from_world(world: Vec3, ground: GroundPlane) -> Self {
        ground.to_ground(world)
    }

    #[inline]
    fn from_measured(velocity: Vector) -> Option<Self> {
        Some(velocity)
    }
}

accumulator_api!(SteeringAccumulator, Vector);

/// An accumulator's `From` its groups and its two ways of adding steering,
/// for walkers' [`SteeringAccumulator`] and flyers'
/// [`FlyerAccumulator`](crate::FlyerAccumulator).
macro_rules! accumulator_api {
    ($accumulator:ident, $vector:ty) => {
        impl From<PriorityGroups<$vector>> for $accumulator {
            fn from(groups: PriorityGroups<$vector>) -> Self {
                Self(groups)
            }
        }

        impl $accumulator {
            /// Adds a steering force, in pixels a second per second, to the
            /// `priority` group. A non-finite force adds nothing.
            #[inline]
            pub fn add_force(&mut self, priority: SteeringPriority, force: $vector) {
                self.0.add(priority.group(), force);
            }

            /// Adds the steering toward `desired` (in pixels a second) of an
            /// agent going `vel`: `weight * (desired - vel) / response_time`,
            /// the model's formula, to the `priority` group. Weights that
            /// are negative or not finite count as 0.
            #[inline]
            pub fn add_desired(
                &mut self,
                priority: SteeringPriority,
                weight: f32,
                desired: $vector,
                vel: $vector,
                response_time: f32,
            ) {
                self.0
                    .add_desired(priority.group(), weight, desired, vel, response_time);
            }
        }
    };
}
pub(crate) use accumulator_api;

/// Marks an agent whose body the [`NeighborGrid`](crate::NeighborGrid)
/// holds at its [`SteeringParams::body_radius`](crate::SteeringParams::body_radius)
/// (a point's too) rather than its bare radius: added with
/// [`AvoidAgents`](crate::AvoidAgents), whose foresight and contacts need a
/// body. Other agents keep theirs as it is, so flocking's separation stays
/// the model's.
#[derive(Component, Debug, Default, Clone, Copy)]
pub(crate) struct Embodied;

/// `From` the vector each of an agent's vector components holds, for the
/// systems written once for walkers and flyers.
macro_rules! from_vector {
    ($vector:ty => $($component:ident),+) => {
        $(impl From<$vector> for $component {
            #[inline]
            fn from(v: $vector) -> Self {
                Self(v)
            }
        })+
    };
}
pub(crate) use from_vector;

from_vector!(Vector => AgentPosition, AgentPreviousPosition, AgentVelocity, DesiredVelocity, SteeringForce);
