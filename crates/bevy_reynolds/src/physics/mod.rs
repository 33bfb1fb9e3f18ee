//! Avian bodies as agents, and avian colliders as the level (feature
//! `avian2d`).
//!
//! ```no_run
//! use avian2d::prelude::*;
//! use bevy::prelude::*;
//! use bevy_reynolds::prelude::*;
//!
//! App::new()
//!     .add_plugins((
//!         DefaultPlugins,
//!         PhysicsPlugins::default(),
//!         SteeringPlugins::default(),
//!         SteeringAvianPlugin,
//!     ))
//!     .insert_resource(Gravity::ZERO)
//!     .add_systems(Startup, |mut commands: Commands| {
//!         // A wall, as avian sees it and as the agents avoid it.
//!         commands.spawn((RigidBody::Static, Collider::rectangle(20.0, 400.0)));
//!         // An agent that is a body: avian moves it, steering chooses how.
//!         commands.spawn((
//!             SteeringAgent,
//!             Behavior::Seek(Target::Point(Vec2::new(300.0, 0.0))),
//!             RigidBody::Dynamic,
//!             Collider::circle(8.0),
//!             LockedAxes::ROTATION_LOCKED,
//!             Transform::from_xyz(-300.0, 0.0, 0.0),
//!         ));
//!     });
//! ```
//!
//! **Bodies.** Every agent is an avian body ([`Writeback::Physics`]: the
//! plugin moves none itself). Before each steering step, its
//! [`Position`](crate::Position) and [`Velocity`](crate::Velocity) are the
//! body's (where the last physics step and its contacts left it); after
//! it, the velocity steering chose is the body's `LinearVelocity`, and its
//! [`Heading`](crate::Heading) the body's `Rotation`. Avian then steps
//! (in `FixedPostUpdate`, after the steering's `FixedUpdate`) and writes
//! the `Transform`, interpolated if the game asks avian to.
//!
//! A velocity, not a force: the chapter's model is the velocity the capped
//! steering force changes, with the agent's mass, its speed cap and its
//! turn limit in it. Handed over as a force, avian would integrate it
//! again with the body's own mass and no speed cap, and an agent would no
//! longer move as the chapter's numbers say (alone, it seeks as it does
//! without physics, to the pixel). Contacts still act on the velocity
//! given: a body pushes lighter ones aside and stops at a wall.
//!
//! **Colliders.** A collider that does not move on its own (on a
//! `RigidBody::Static` body or on none; not a sensor, not an agent's) is
//! an [`Obstacle`](crate::Obstacle) for avoidance, containment and
//! navigation: a circle is a circle; a rectangle, a triangle or a convex
//! polygon its polygon; a capsule the polygon round it (its caps as 8
//! sides each, a hair outside them); a segment a wall; a polyline its
//! walls; a compound each of its parts. They are children of the
//! collider's entity, marked [`ColliderObstacle`], made again when its
//! `Collider` changes, moved with it, gone with it. Shapes it cannot use
//! (meshes, height fields, half-planes, rounded shapes) are skipped, with
//! a warning once. Dynamic and kinematic bodies are not carved into the
//! level: they move each step, and bodies meet them through contacts.

mod bodies;
mod colliders;

use bevy::prelude::*;

use crate::agent::Writeback;
use crate::schedule::{SteeringSchedule, SteeringSystems};

pub use colliders::{ColliderObstacle, obstacles_of};

/// Makes avian bodies agents, and static avian colliders obstacles: add it
/// after `SteeringPlugins`, beside avian's `PhysicsPlugins`.
pub struct SteeringAvianPlugin;

impl Plugin for SteeringAvianPlugin {
    fn build(&self, app: &mut App) {
        let schedule = SteeringSchedule::of(app, "SteeringAvianPlugin");
        // Avian moves the agents (SteeringPlugins, added before, set how).
        app.insert_resource(Writeback::Physics)
            .register_type::<ColliderObstacle>()
            .add_systems(
                schedule,
                (
                    (colliders::colliders_to_obstacles, bodies::bodies_to_agents)
                        .before(SteeringSystems::Prepare),
                    bodies::agents_to_bodies.after(SteeringSystems::Integrate),
                ),
            );
    }
}
