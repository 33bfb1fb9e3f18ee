//! Where the simulation meets a game's world: the plane agents move on,
//! what the plugins write back, and the size of the game's units (the
//! transforms themselves are written in `transforms.rs`).

use bevy::prelude::*;
use reynolds::defaults::UNITS_PER_METRE;

use crate::math::{Dir, Vector};

/// The plane agents move on. The simulation is 2D whatever the game's
/// world: a [`AgentPosition`](crate::AgentPosition) `(x, y)` is the world's
/// `(x, y)` on [`GroundPlane::Xy`] (2D games, the default) and `(x, z)` on
/// [`GroundPlane::Xz`] (3D games, y up). The coordinate off the plane (z, or
/// y) of an agent's [`Transform`] is left as the game set it, and targets'
/// [`GlobalTransform`]s are read on the same plane.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// // Agents on the ground of a 3D world.
/// App::new().add_plugins((MinimalPlugins, SteeringPlugins::default().with_ground(GroundPlane::Xz)));
/// ```
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub enum GroundPlane {
    /// x right, y up: 2D, the agent turns about z.
    #[default]
    Xy,
    /// x and z on the ground, y up: 3D, the agent turns about y (a yaw).
    Xz,
}

impl GroundPlane {
    /// A point of the world, seen on the ground.
    #[inline]
    pub fn to_ground(self, world: Vec3) -> Vector {
        match self {
            GroundPlane::Xy => world.truncate(),
            GroundPlane::Xz => Vector::new(world.x, world.z),
        }
    }

    /// `world` moved to `ground` on the plane, its up coordinate kept.
    #[inline]
    pub fn place(self, ground: Vector, world: Vec3) -> Vec3 {
        match self {
            GroundPlane::Xy => ground.extend(world.z),
            GroundPlane::Xz => Vec3::new(ground.x, world.y, ground.y),
        }
    }

    /// The world's axis off the plane: up, where heights are measured
    /// (z on the XY plane, y on the XZ ground).
    #[inline]
    pub fn up(self) -> Vec3 {
        match self {
            GroundPlane::Xy => Vec3::Z,
            GroundPlane::Xz => Vec3::Y,
        }
    }

    /// The rotation that turns a body facing +x to face `heading` on the
    /// ground, about the plane's up axis, with no trigonometry.
    #[inline]
    pub fn rotation(self, heading: Dir) -> Quat {
        let h = heading.as_vec2();
        match self {
            GroundPlane::Xy => Quat::from_rotation_arc_2d(Vec2::X, h),
            GroundPlane::Xz => {
                // A yaw of φ about +y takes +x to (cos φ, 0, -sin φ): φ's
                // half-angles from cos φ = h.x, the sign of sin φ from -h.y.
                // (Not `from_rotation_arc`, which may turn a body facing
                // straight back about the wrong axis.)
                let cos_half = ((1.0 + h.x) * 0.5).max(0.0).sqrt();
                let sin_half = ((1.0 - h.x) * 0.5).max(0.0).sqrt();
                let sin_half = if h.y > 0.0 { -sin_half } else { sin_half };
                Quat::from_xyzw(0.0, sin_half, 0.0, cos_half).normalize()
            }
        }
    }
}

/// What the plugin does with each step's result.
///
/// With [`Writeback::Physics`], a physics engine moves the agents: the
/// plugin chooses each agent's [`AgentVelocity`](crate::AgentVelocity) (the capped
/// force, the mass, the speed cap, the turn limit) and leaves its
/// [`AgentPosition`](crate::AgentPosition) alone. Hand the velocity to the body after
/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate), and
/// the body's position to the agent before
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare). With
/// avian it looks like this (here with stand-ins for avian's types, so the
/// example builds without it; with bevy_rapier, its `Velocity::linvel` and the
/// `Transform` instead):
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # mod avian2d { pub mod prelude {
/// #     use bevy::prelude::*;
/// #     #[derive(Component, Default)] pub struct LinearVelocity(pub Vec2);
/// #     #[derive(Component, Default)] pub struct Position(pub Vec2);
/// # } }
/// use avian2d::prelude::{LinearVelocity, Position};
///
/// /// The body's position, where steering reads it.
/// fn bodies_to_agents(mut agents: Query<(&Position, &mut AgentPosition)>) {
///     for (body, mut agent) in &mut agents {
///         agent.0 = body.0;
///     }
/// }
///
/// /// The velocity steering chose, for the physics engine to move by.
/// fn agents_to_bodies(mut agents: Query<(&AgentVelocity, &mut LinearVelocity)>) {
///     for (steered, mut body) in &mut agents {
///         body.0 = steered.0;
///     }
/// }
///
/// App::new()
///     .add_plugins((
///         MinimalPlugins,
///         SteeringPlugins::default().with_writeback(Writeback::Physics),
///     ))
///     .add_systems(
///         FixedUpdate,
///         (
///             bodies_to_agents.before(SteeringSystems::Prepare),
///             agents_to_bodies.after(SteeringSystems::Integrate),
///         ),
///     );
/// ```
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub enum Writeback {
    /// The plugin moves agents and writes their [`Transform`] (interpolated
    /// between fixed steps), on the [`GroundPlane`].
    #[default]
    Transform,
    /// The plugin moves agents and writes nothing else: read
    /// [`AgentPosition`](crate::AgentPosition), [`AgentVelocity`](crate::AgentVelocity) and
    /// [`AgentHeading`](crate::AgentHeading) yourself.
    Nothing,
    /// The plugin only chooses velocities; a physics engine moves the agents.
    Physics,
}

/// How many of the game's units make a metre, as avian's
/// `PhysicsLengthUnit`: the scale of the defaults. The default, 40, is the
/// model's own scale, in pixels (its creatures, 20 px long, are half a
/// metre; [`UNITS_PER_METRE`](reynolds::defaults::UNITS_PER_METRE)); a 3D
/// game in metres uses 1, a 2D game at avian's common 100 pixels a metre
/// uses 100.
///
/// [`SteeringPlugins::with_length_unit`](crate::SteeringPlugins::with_length_unit)
/// sets it, and the default [`SteeringSettings`](crate::SteeringSettings)
/// follow it (speeds, forces, radii; times and weights are the same at any
/// scale). A game that inserts its own settings sets its own numbers; use
/// [`SteeringSettings::with_length_unit`](crate::SteeringSettings::with_length_unit)
/// and [`Flocking::scaled`](crate::Flocking::scaled) to start from the
/// model's.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Deref)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct SteeringLengthUnit(pub f32);

impl Default for SteeringLengthUnit {
    fn default() -> Self {
        Self(UNITS_PER_METRE)
    }
}

impl SteeringLengthUnit {
    /// How many of the game's units one of the model's pixels is: the factor
    /// its lengths are scaled by (1 at the default). A unit that is not
    /// positive and finite counts as the default.
    pub fn scale(self) -> f32 {
        if self.0.is_finite() && self.0 > 0.0 {
            self.0 / UNITS_PER_METRE
        } else {
            1.0
        }
    }
}

/// Whether [`Transform`]s are interpolated between fixed steps: true when
/// the steering plugins run in a fixed schedule.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Eq, Deref, DerefMut)]
#[reflect(Resource, Debug, PartialEq)]
pub struct InterpolateTransforms(pub bool);

/// Where an entity is on the ground: its [`AgentPosition`](super::AgentPosition) if
/// it has one, else its [`GlobalTransform`]'s translation; `None` if it
/// has neither or no longer exists. (For what a component names by entity:
/// a goal to navigate to, a hunter to hide from.)
pub(crate) fn entity_on_ground(
    entity: Entity,
    ground: GroundPlane,
    places: &Query<(Option<&super::AgentPosition>, Option<&GlobalTransform>)>,
) -> Option<Vector> {
    match places.get(entity).ok()? {
        (Some(p), _) => Some(p.0),
        (None, Some(g)) => Some(ground.to_ground(g.translation())),
        (None, None) => None,
    }
}
