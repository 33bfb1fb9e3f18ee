//! The two spaces agents move in, walkers on a plane (`Vec2`) and flyers
//! in 3D (`Vec3`): what the systems written once for both need to know of
//! each.

use std::ops::{Deref, DerefMut};

use bevy::ecs::component::Mutable;
use bevy::prelude::*;
use bevy::reflect::{GetTypeRegistration, Typed};
use reynolds::combine::PriorityGroups;
use reynolds::math::SteeringVector;

use super::ground::GroundPlane;
use super::wander::WanderRng;
use crate::math::Vector;

/// A vector agents are simulated in: `Vec2` for [`SteeringAgent`]s on their
/// plane, `Vec3` for [`SteeringFlyer`](crate::SteeringFlyer)s. The
/// behaviors' system is written once over it.
pub(crate) trait AgentSpace:
    SteeringVector + Reflect + FromReflect + TypePath + GetTypeRegistration + Typed
{
    /// What marks an agent of this space.
    type Marker: Component;
    /// Where an agent of this space is.
    type Position: Holds<Self>;
    /// Where it was before the last fixed step.
    type PreviousPosition: Holds<Self>;
    /// Its velocity.
    type Velocity: Holds<Self>;
    /// The velocity its steering asked for (a debug output).
    type Desired: Holds<Self>;
    /// Its combined steering force (a debug output).
    type Force: Holds<Self>;
    /// Its steering this step, by priority group.
    type Accumulator: Component<Mutability = Mutable>
        + Copy
        + DerefMut<Target = PriorityGroups<Self>>
        + From<PriorityGroups<Self>>;
    /// The way an agent of this space faces.
    type Heading: Component<Mutability = Mutable> + Copy;
    /// A wanderer's state.
    type Wander: Component<Mutability = Mutable>;

    /// The unit vector `heading` faces along.
    fn facing(heading: &Self::Heading) -> Self;
    /// Wander's desired velocity after one more step of its state.
    fn wander(
        state: &mut Self::Wander,
        rng: &mut WanderRng,
        dt: f32,
        rate: f32,
        max_speed: f32,
    ) -> Self;
    /// A point of the world as agents of this space see it.
    fn from_world(world: Vec3, ground: GroundPlane) -> Self;
    /// A velocity measured on the ground (a
    /// [`MeasuredVelocity`](super::measure::MeasuredVelocity)'s), if agents
    /// of this space can use it.
    fn from_measured(velocity: Vector) -> Option<Self>;
}

/// A component holding one vector of an agent's space.
pub(crate) trait Holds<V>:
    Component<Mutability = Mutable> + Copy + Deref<Target = V> + From<V>
{
}

impl<V, C> Holds<V> for C where
    C: Component<Mutability = Mutable> + Copy + Deref<Target = V> + From<V>
{
}
