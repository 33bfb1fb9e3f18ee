//! Debug drawing (feature `render`): agent bodies, trails, the radii around
//! a target, velocity and desired-velocity arrows, each crowd agent's
//! soonest meeting, and a level's obstacles, walls, paths, each follower's
//! aim, each navigating agent's route, the way each door taking turns lets
//! people through, and each agent's avoidance look-ahead; for flyers, in
//! 3D, each one's velocity, its bank and what it looks ahead to.
//!
//! On the XY plane (2D games) it draws meshes, tessellated with lyon, and
//! stays cheap with many agents: every body shares one mesh, and one
//! material per color, so Bevy batches them; all trails are one mesh, and
//! all arrows another, whose buffers are rewritten in place rather than
//! rebuilt as new entities. On the XZ ground ([`GroundPlane::Xz`], 3D
//! games) it draws the same scene with Bevy's gizmos
//! ([`SteeringGizmos`]), on the ground at [`DebugDraw::ground_height`];
//! the bodies there are the game's own meshes.
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use bevy_reynolds::prelude::*;
//! # use bevy_reynolds::render::*;
//! App::new()
//!     .add_plugins((DefaultPlugins, SteeringPlugins::default(), SteeringDebugPlugin))
//!     .insert_resource(DebugDraw { velocity: true, ..default() });
//! ```

use bevy::prelude::*;

use crate::agent::{DesiredVelocity, GroundPlane, SteeringAgent};

mod flat;
mod flyers;
mod ground;
mod scene;

pub use flat::DebugBody;
pub use ground::SteeringGizmos;

/// Draws agents and what steers them, on the plane the agents move on
/// ([`GroundPlane`]). Adds lyon's `ShapePlugin` if the app does not have
/// it yet; on the XZ ground it draws with Bevy's gizmos, whose plugin
/// (in `DefaultPlugins`) the app needs.
pub struct SteeringDebugPlugin;

/// What [`SteeringDebugPlugin`] draws, each switchable at run time.
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct DebugDraw {
    /// Each agent's body: the model's triangle, turned to its heading.
    pub bodies: bool,
    /// Each [`AgentTrail`](crate::AgentTrail), as dots (a line on the XZ ground).
    pub trails: bool,
    /// The slowing and panic circles around entities with [`ShowRadii`].
    pub radii: bool,
    /// An arrow along each agent's velocity (for a flyer, in 3D, with its
    /// up beside it).
    pub velocity: bool,
    /// An arrow along each agent's desired velocity.
    pub desired: bool,
    /// Seconds of motion an arrow shows: its length is the velocity times this.
    pub arrow_seconds: f32,
    /// Radius of a trail dot, in pixels.
    pub dot_radius: f32,
    /// Color of the radii circles.
    pub radii_color: Color,
    /// Every [`SteeringObstacle`](crate::SteeringObstacle) (as the plugin indexed it this
    /// step), every [`FollowPath`](crate::FollowPath)'s path and the point its follower aims
    /// at, what is left of each [`Navigate`](crate::Navigate) agent's
    /// route (while [`routes`](Self::routes) is on), and each formation
    /// member's place (a dot), in the agent's color; and through each
    /// [`TakeTurns`](crate::TakeTurns) door, an arrow the way it lets people
    /// through, in the paths' color.
    pub level: bool,
    /// With [`level`](Self::level), each navigating agent's route: on. A
    /// crowd's routes would hide the crowd.
    pub routes: bool,
    /// The line each agent looks along for obstacles, as long as it looks;
    /// for a flyer that pursues (or evades, within its panic radius), the
    /// line to where it expects its target to be.
    pub look_ahead: bool,
    /// Each [`AvoidAgents`](crate::AvoidAgents) agent's soonest meeting: a line to where it
    /// would be when its body touches another's, if both kept their
    /// velocities, and a dot where they would touch.
    pub foresight: bool,
    /// Color of obstacles and walls.
    pub obstacle_color: Color,
    /// Color of paths.
    pub path_color: Color,
    /// On the XZ ground, the height (y) the view draws at: the ground's.
    pub ground_height: f32,
}

impl Default for DebugDraw {
    fn default() -> Self {
        Self {
            bodies: true,
            trails: true,
            radii: true,
            velocity: false,
            desired: false,
            arrow_seconds: 0.25,
            dot_radius: 1.5,
            radii_color: Color::srgb_u8(70, 78, 90),
            level: true,
            routes: true,
            look_ahead: false,
            foresight: false,
            obstacle_color: Color::srgb_u8(120, 108, 92),
            path_color: Color::srgb_u8(200, 170, 60),
            ground_height: 0.0,
        }
    }
}

/// An agent's color in the debug view. Agents without one are white.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct AgentColor(pub Color);

impl Default for AgentColor {
    fn default() -> Self {
        Self(Color::WHITE)
    }
}

/// Draws the slowing and panic circles of [`SteeringSettings`](crate::SteeringSettings) around this
/// entity (a target such as the mouse). It needs a [`Transform`].
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(Transform, Visibility)]
pub struct ShowRadii;

/// The model's agent shape: a triangle around its center, facing along x.
pub const BODY: [Vec2; 3] = [
    Vec2::new(12.0, 0.0),
    Vec2::new(-9.0, -7.0),
    Vec2::new(-9.0, 7.0),
];

impl Plugin for SteeringDebugPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<DebugDraw>()
            .register_type::<AgentColor>()
            .register_type::<ShowRadii>()
            .init_resource::<DebugDraw>()
            .add_systems(PostUpdate, record_desired);
        flat::add_systems(app, not(on_the_xz_ground));
        ground::add_systems(app, on_the_xz_ground);
        flyers::add_systems(app);
    }
}

/// Whether agents move on the XZ ground: read each frame, as the plane
/// may be chosen after the plugin is added.
fn on_the_xz_ground(ground: Option<Res<GroundPlane>>) -> bool {
    ground.is_some_and(|ground| *ground == GroundPlane::Xz)
}

/// While desired velocities are drawn, every agent records its
/// [`DesiredVelocity`] (a debug output the step only writes where asked).
fn record_desired(
    mut commands: Commands,
    draw: Res<DebugDraw>,
    agents: Query<Entity, (With<SteeringAgent>, Without<DesiredVelocity>)>,
) {
    if draw.desired {
        for agent in &agents {
            commands.entity(agent).insert(DesiredVelocity::default());
        }
    }
}
