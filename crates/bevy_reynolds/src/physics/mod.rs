//! Avian bodies as agents, and avian colliders as the level: in 2D
//! (feature `avian2d`, [`SteeringAvian2dPlugin`]) and on the XZ ground of a
//! 3D world (feature `avian3d`, [`SteeringAvian3dPlugin`]).
//!
//! **Bodies.** Every agent is an avian body ([`Writeback::Physics`]: the
//! plugin moves none itself). Before each steering step, its
//! [`AgentPosition`](crate::AgentPosition) and [`AgentVelocity`](crate::AgentVelocity) are the
//! body's (where the last physics step and its contacts left it; in 3D,
//! seen on the [`GroundPlane`](crate::GroundPlane)); after it, the velocity
//! steering chose is the body's `LinearVelocity` (in 3D its up component
//! kept, so gravity still pulls), and its [`AgentHeading`](crate::AgentHeading) the
//! body's `Rotation` (in 3D a yaw about the up axis: lock the body's
//! rotations; and let it slide, with `Friction::ZERO` and
//! `CoefficientCombine::Min`, as character controllers do: a floor's
//! friction would drag it behind the velocity steering chose, 2 m behind
//! in 6 s in `tests/headless/physics_3d.rs`). Avian then steps (in `FixedPostUpdate`, after the
//! steering's `FixedUpdate`) and writes the `Transform`, interpolated if
//! the game asks avian to.
//!
//! **A body as big as its collider.** An agent that leaves its
//! [`radius`](crate::SteeringParams::radius) at 0 takes the radius of the
//! circle round its collider (in 3D, round the collider's footprint on the
//! ground: an upright capsule's radius), kept in step when the collider
//! changes and noted in [`RadiusFromCollider`], so that its routes, crowds
//! and doors go by the body avian moves. A radius the game sets stays.
//!
//! A velocity, not a force: the model is the velocity the capped
//! steering force changes, with the agent's mass, its speed cap and its
//! turn limit in it. Handed over as a force, avian would integrate it
//! again with the body's own mass and no speed cap, and an agent would no
//! longer move as the model's numbers say (alone, it seeks as it does
//! without physics, to the pixel). Contacts still act on the velocity
//! given: a body pushes lighter ones aside and stops at a wall.
//!
//! **Colliders.** A collider that does not move on its own (on a
//! `RigidBody::Static` body or on none; not a sensor, not an agent's) is
//! one or more [`SteeringObstacle`](crate::SteeringObstacle)s for avoidance, containment
//! and navigation, marked [`ColliderObstacle`], made again when its
//! `Collider` changes, gone with it. In 2D a circle is a circle; a
//! rectangle, a triangle or a convex polygon its polygon; a capsule the
//! polygon round it (its caps as 8 sides each, a hair outside them); a
//! segment a wall; a polyline its walls; a compound each of its parts;
//! they are children of the collider's entity and move with it. In 3D
//! each is its footprint on the ground (see [`footprints_of`]), where it
//! stands in the agents' way ([`ObstacleHeights`]: floors and ceilings are
//! none), made again when the collider moves. Shapes it cannot use
//! (meshes, height fields, half-spaces, voxels, and in 2D rounded shapes)
//! are skipped, with a warning once. Dynamic and kinematic bodies are not
//! carved into the level: they move each step, and bodies meet them
//! through contacts.

#[cfg(feature = "avian2d")]
mod bodies;
#[cfg(feature = "avian3d")]
mod bodies_3d;
#[cfg(feature = "avian2d")]
mod colliders;
#[cfg(feature = "avian3d")]
mod footprints;

use bevy::prelude::*;

use crate::agent::Writeback;
use crate::schedule::{SteeringSchedule, SteeringSystems};

#[cfg(feature = "avian2d")]
pub use colliders::obstacles_of;
#[cfg(feature = "avian3d")]
pub use footprints::{FootprintOf, Footprints, ObstacleHeights, footprints_of};

/// A collider whose shape makes no obstacle (a mesh, a height field, a
/// half-space, voxels; in 2D a rounded shape): the error of
/// [`obstacles_of`] and [`footprints_of`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedShape {
    /// The shape's kind, as parry names it (`TriMesh`, `HalfSpace`, ...).
    pub shape: String,
}

impl std::fmt::Display for UnsupportedShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a {} makes no obstacle", self.shape)
    }
}

impl std::error::Error for UnsupportedShape {}

/// An [`SteeringObstacle`](crate::SteeringObstacle) made from an avian collider (by
/// [`SteeringAvian2dPlugin`] or [`SteeringAvian3dPlugin`], which make it
/// again when the collider changes and remove it with the collider).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct ColliderObstacle;

/// Makes avian2d bodies agents, and static avian2d colliders obstacles:
/// add it after `SteeringPlugins`, beside avian's `PhysicsPlugins`.
///
/// ```no_run
/// use avian2d::prelude::*;
/// use bevy::prelude::*;
/// use bevy_reynolds::prelude::*;
///
/// App::new()
///     .add_plugins((
///         DefaultPlugins,
///         PhysicsPlugins::default(),
///         SteeringPlugins::default(),
///         SteeringAvian2dPlugin,
///     ))
///     .insert_resource(Gravity::ZERO)
///     .add_systems(Startup, |mut commands: Commands| {
///         // A wall, as avian sees it and as the agents avoid it.
///         commands.spawn((RigidBody::Static, Collider::rectangle(20.0, 400.0)));
///         // An agent that is a body: avian moves it, steering chooses how.
///         commands.spawn((
///             SteeringAgent,
///             SteeringBehavior::Seek(SteeringTarget::Point(Vec2::new(300.0, 0.0))),
///             RigidBody::Dynamic,
///             Collider::circle(8.0),
///             LockedAxes::ROTATION_LOCKED,
///             Transform::from_xyz(-300.0, 0.0, 0.0),
///         ));
///     });
/// ```
#[cfg(feature = "avian2d")]
pub struct SteeringAvian2dPlugin;

#[cfg(feature = "avian2d")]
impl Plugin for SteeringAvian2dPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringAvian2dPlugin");
        // Avian moves the agents (SteeringPlugins, added before, set how).
        app.insert_resource(Writeback::Physics)
            .register_type::<ColliderObstacle>()
            .add_systems(
                schedule,
                (
                    (
                        colliders::colliders_to_obstacles,
                        bodies::bodies_to_agents,
                        bodies::radius_from_collider,
                    )
                        .before(SteeringSystems::Prepare),
                    bodies::agents_to_bodies.after(SteeringSystems::Integrate),
                ),
            );
    }
}

/// Makes avian3d bodies agents on the ground, and the footprints of static
/// avian3d colliders obstacles: add it after `SteeringPlugins` (on the
/// [`GroundPlane::Xz`](crate::GroundPlane::Xz) for a y-up world), beside
/// avian's `PhysicsPlugins`.
///
/// ```no_run
/// use avian3d::prelude::*;
/// use bevy::prelude::*;
/// use bevy_reynolds::prelude::*;
///
/// App::new()
///     .add_plugins((
///         DefaultPlugins,
///         PhysicsPlugins::default(),
///         SteeringPlugins::default()
///             .with_ground(GroundPlane::Xz)
///             .with_length_unit(1.0),
///         SteeringAvian3dPlugin,
///     ))
///     .add_systems(Startup, |mut commands: Commands| {
///         // The floor: under the agents' feet, so no obstacle.
///         commands.spawn((RigidBody::Static, Collider::cuboid(40.0, 0.2, 40.0)));
///         // A wall 2 m high: an obstacle where it stands.
///         commands.spawn((
///             RigidBody::Static,
///             Collider::cuboid(0.3, 2.0, 10.0),
///             Transform::from_xyz(0.0, 1.0, 0.0),
///         ));
///         // A person, 0.5 m across, sent to the wall's far side: upright,
///         // sliding (steering, not the floor's friction, sets its pace).
///         commands.spawn((
///             SteeringAgent,
///             SteeringBehavior::Arrive(SteeringTarget::Point(Vec2::new(8.0, 0.0))),
///             RigidBody::Dynamic,
///             Collider::capsule(0.25, 1.2),
///             LockedAxes::ROTATION_LOCKED,
///             Friction::ZERO.with_combine_rule(CoefficientCombine::Min),
///             Transform::from_xyz(-8.0, 0.9, 0.0),
///         ));
///     });
/// ```
#[cfg(feature = "avian3d")]
pub struct SteeringAvian3dPlugin;

#[cfg(feature = "avian3d")]
impl Plugin for SteeringAvian3dPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringAvian3dPlugin");
        app.insert_resource(Writeback::Physics)
            .init_resource::<ObstacleHeights>()
            .register_type::<ColliderObstacle>()
            .register_type::<ObstacleHeights>()
            .register_type::<FootprintOf>()
            .register_type::<Footprints>()
            .add_systems(
                schedule,
                (
                    (
                        footprints::colliders_to_footprints,
                        bodies_3d::bodies_to_agents,
                        bodies_3d::radius_from_collider,
                    )
                        .before(SteeringSystems::Prepare),
                    bodies_3d::agents_to_bodies.after(SteeringSystems::Integrate),
                ),
            );
    }
}

/// The body radius an agent took from its collider: while its
/// [`SteeringParams::radius`](crate::SteeringParams::radius) still holds it,
/// the radius follows the collider; once the game writes another, the
/// game's stays.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct RadiusFromCollider(pub f32);

/// The agents whose collider `C` or parameters changed, with the radius
/// they took from it, if any.
#[cfg(any(feature = "avian2d", feature = "avian3d"))]
type ColliderAgents<'w, 's, C> = Query<
    'w,
    's,
    (
        Entity,
        &'static C,
        &'static mut crate::agent::SteeringParams,
        Option<&'static RadiusFromCollider>,
    ),
    (
        With<crate::agent::SteeringAgent>,
        Or<(Changed<C>, Changed<crate::agent::SteeringParams>)>,
    ),
>;

/// Gives each agent whose radius is 0 (or still the one it took) the
/// radius `of` its collider: a body as big as its collider.
#[cfg(any(feature = "avian2d", feature = "avian3d"))]
fn radius_from<C: Component>(
    agents: &mut ColliderAgents<C>,
    commands: &mut Commands,
    of: impl Fn(&C) -> f32,
) {
    for (entity, collider, mut params, took) in agents {
        let own = params.radius != 0.0 && took.is_none_or(|took| params.radius != took.0);
        if own {
            if took.is_some() {
                commands.entity(entity).remove::<RadiusFromCollider>();
            }
            continue;
        }
        let radius = of(collider);
        if radius.is_finite() && radius > 0.0 {
            if params.radius != radius {
                params.radius = radius;
            }
            if took != Some(&RadiusFromCollider(radius)) {
                commands.entity(entity).insert(RadiusFromCollider(radius));
            }
        }
    }
}
