//! What an agent does: a [`SteeringBehavior`], the model's behaviors and their
//! weighted blends, each toward or away from a [`SteeringTarget`]; written
//! once, for walkers (on a plane, `Vec2`) and flyers (`Vec3`).

use bevy::prelude::*;
use bevy::reflect::{GetTypeRegistration, Typed};
use reynolds::math::{SteeringVector, sanitize_weight};

use super::params::SteeringPriority;
use crate::math::Vector;

/// What a walker's behavior steers toward or away from: a [`Target`] on
/// its plane.
pub type SteeringTarget = Target<Vector>;

/// What a flyer's behavior steers toward or away from: a [`Target`] in 3D.
pub type FlyerTarget = Target<Vec3>;

/// What a behavior steers toward or away from, on a plane
/// ([`SteeringTarget`]) or in 3D ([`FlyerTarget`]).
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Debug, PartialEq)]
pub enum Target<V: SteeringVector> {
    /// A fixed point in the world, which never moves.
    Point(V),
    /// Another entity: its [`AgentPosition`](crate::AgentPosition) if it has one, else
    /// its [`GlobalTransform`]'s translation; its
    /// [`AgentVelocity`](crate::AgentVelocity) if it has one, else its
    /// [`MeasuredVelocity`](crate::MeasuredVelocity), else zero. If the
    /// entity is gone, the behavior asks for no steering, and a warning is
    /// logged once.
    Entity(Entity),
}

impl From<Vector> for SteeringTarget {
    fn from(point: Vector) -> Self {
        Target::Point(point)
    }
}

impl From<Vec3> for FlyerTarget {
    fn from(point: Vec3) -> Self {
        Target::Point(point)
    }
}

impl<V: SteeringVector> From<Entity> for Target<V> {
    fn from(entity: Entity) -> Self {
        Target::Entity(entity)
    }
}

/// What a walker does: a [`Behavior`] on its plane.
pub type SteeringBehavior = Behavior<Vector>;

/// What a flyer does: a [`Behavior`] in 3D.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// let hawk = FlyerBehavior::Seek(FlyerTarget::Point(Vec3::new(0.0, 300.0, -200.0)));
/// let swallow = FlyerBehavior::Wander;
/// ```
pub type FlyerBehavior = Behavior<Vec3>;

/// What an agent does: the velocity it wants each step.
///
/// Behaviors combine by adding their weighted steering and capping the sum
/// once, so the weights decide each one's share.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// let mouse = Vec2::new(500.0, 350.0);
/// let grazer = SteeringBehavior::Graze(SteeringTarget::Point(mouse));
/// // The same, spelled out, with a weight of its own:
/// let jumpy = SteeringBehavior::Blend(vec![
///     Weighted::new(1.0, SteeringBehavior::Wander),
///     Weighted::new(5.0, SteeringBehavior::Flee(SteeringTarget::Point(mouse))),
/// ]);
/// ```
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
// A behavior holds blends of behaviors: bounds on its fields' types would
// ask for themselves.
#[reflect(no_field_bounds, where V: FromReflect + GetTypeRegistration + Typed)]
pub enum Behavior<V: SteeringVector> {
    /// No steering: the agent keeps the velocity it has.
    #[default]
    Idle,
    /// Full speed, straight at the target
    /// ([`seek`](reynolds::behaviors::seek)).
    Seek(Target<V>),
    /// Seek, slowing down inside the slowing radius
    /// ([`arrive`](reynolds::behaviors::arrive)).
    Arrive(Target<V>),
    /// Full speed away from the threat inside the panic radius
    /// ([`flee`](reynolds::behaviors::flee)).
    Flee(Target<V>),
    /// Seek where the target will be
    /// ([`pursue`](reynolds::behaviors::pursue)).
    Pursue(Target<V>),
    /// Flee from where the threat will be
    /// ([`evade`](reynolds::behaviors::evade)).
    Evade(Target<V>),
    /// Head along a drifting angle ([`wander`](reynolds::wander::wander)).
    Wander,
    /// The model's grazer: wander, plus flee from the threat weighted by
    /// [`SteeringParams::graze_flee_weight`](crate::SteeringParams::graze_flee_weight)
    /// (3). Far from the threat flee asks for nothing, so it wanders; inside
    /// the panic radius flee swamps wander, and it bolts.
    Graze(Target<V>),
    /// Hold a slot that moves with a leader: `offset.x` ahead of it along
    /// its [`AgentHeading`](crate::AgentHeading) (the way its velocity points, if it
    /// has none), `offset.y` to its left (and for flyers `offset.z` above,
    /// level with the ground: see
    /// [`SteeringVector::in_frame`](reynolds::math::SteeringVector::in_frame)); arriving there and moving with it
    /// ([`offset_pursuit`](reynolds::behaviors::offset_pursuit)). An escort
    /// beside a convoy, a wingman.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_reynolds::prelude::*;
    /// # let mut world = World::new();
    /// let leader = world.spawn((SteeringAgent, SteeringBehavior::Wander)).id();
    /// // 40 px behind the leader and 30 px to its left.
    /// world.spawn((
    ///     SteeringAgent,
    ///     SteeringBehavior::OffsetPursuit { leader: SteeringTarget::Entity(leader), offset: Vec2::new(-40.0, 30.0) },
    /// ));
    /// ```
    OffsetPursuit {
        /// Whom it keeps its place by.
        leader: Target<V>,
        /// Its place, in the leader's frame: ahead, and to its left.
        offset: V,
    },
    /// Follow a leader as Reynolds describes it: keep `behind` it along its
    /// [`AgentHeading`](crate::AgentHeading), and, found in its way (ahead of it,
    /// nearer than `behind`, within the two bodies' radii of the line it
    /// walks), step out of it sideways
    /// ([`follow_leader`](reynolds::behaviors::follow_leader)). With
    /// [`AvoidAgents`](crate::AvoidAgents), followers keep apart, and out
    /// of the leader's body. (Flocking's separation, a desired velocity in
    /// the weighted sum, holds them back: six followers with it walked at
    /// two thirds of their leader's pace.)
    FollowLeader {
        /// Whom it follows.
        leader: Target<V>,
        /// How far behind it, along its heading.
        behind: f32,
    },
    /// Stand between two agents, at the midpoint of where they will be by
    /// the time it could get there ([`interpose`](reynolds::behaviors::interpose)):
    /// a bodyguard between a VIP and a threat.
    Interpose(Target<V>, Target<V>),
    /// Any weighted sum of behaviors (blends and grazers among them).
    Blend(Vec<Weighted<V>>),
}

/// A [`SteeringBehavior`] with a weight and a [`SteeringPriority`]: a part of a
/// [`SteeringBehavior::Blend`].
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// let threat = SteeringTarget::Point(Vec2::new(500.0, 350.0));
/// let flee_first = Weighted::new(3.0, SteeringBehavior::Flee(threat)).with_priority(SteeringPriority::High);
/// ```
#[derive(Reflect, Debug, Clone, PartialEq)]
#[reflect(Debug, PartialEq)]
#[reflect(no_field_bounds, where V: FromReflect + GetTypeRegistration + Typed)]
pub struct Weighted<V: SteeringVector = Vector> {
    /// How much this part's steering counts. Negative and non-finite
    /// weights count as 0.
    pub weight: f32,
    /// The part.
    pub behavior: Behavior<V>,
    /// The part's group when the agent combines by priority (the group of
    /// every behavior inside it, for a blend).
    pub priority: SteeringPriority,
}

impl<V: SteeringVector> Weighted<V> {
    /// `behavior`, weighted `weight`, at the normal priority.
    pub const fn new(weight: f32, behavior: Behavior<V>) -> Self {
        Self {
            weight,
            behavior,
            priority: SteeringPriority::Normal,
        }
    }

    /// The same part at `priority`.
    pub fn with_priority(mut self, priority: SteeringPriority) -> Self {
        self.priority = priority;
        self
    }
}

/// One of the model's behaviors inside a [`SteeringBehavior`], as
/// [`SteeringBehavior::for_each_part`] hands it out: a behavior that is not a
/// blend nor a grazer, its weight (sane, and multiplied through the blends
/// round it) and its group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part<'a, V: SteeringVector> {
    /// The weight: finite and not negative.
    pub weight: f32,
    /// The behavior: any but [`Idle`](SteeringBehavior::Idle),
    /// [`Graze`](SteeringBehavior::Graze) and [`Blend`](SteeringBehavior::Blend).
    pub behavior: &'a Behavior<V>,
    /// Its group.
    pub priority: SteeringPriority,
}

impl<V: SteeringVector> Behavior<V> {
    /// Calls `f` with each of the model's behaviors it is made of. A
    /// behavior that is neither a blend nor a grazer is one part of weight
    /// 1 at the normal priority; [`SteeringBehavior::Idle`] has none; a grazer is
    /// wander and flee, weighted 1 and `graze_flee_weight`.
    #[inline]
    pub fn for_each_part(&self, graze_flee_weight: f32, mut f: impl FnMut(Part<V>)) {
        self.parts(1.0, SteeringPriority::Normal, graze_flee_weight, &mut f);
    }

    /// [`for_each_part`](Self::for_each_part), inside a blend of `weight`
    /// and `priority`.
    #[inline]
    fn parts(
        &self,
        weight: f32,
        priority: SteeringPriority,
        graze_flee_weight: f32,
        f: &mut impl FnMut(Part<V>),
    ) {
        match self {
            Behavior::Idle => {}
            Behavior::Graze(threat) => {
                f(Part {
                    weight,
                    behavior: &Behavior::Wander,
                    priority,
                });
                // The flee part's own behavior, lent for the call.
                let flee = Behavior::Flee(*threat);
                f(Part {
                    weight: weight * sanitize_weight(graze_flee_weight),
                    behavior: &flee,
                    priority,
                });
            }
            Behavior::Blend(parts) => {
                for part in parts {
                    let weight = weight * sanitize_weight(part.weight);
                    part.behavior
                        .blended(weight, part.priority, graze_flee_weight, f);
                }
            }
            one => f(Part {
                weight,
                behavior: one,
                priority,
            }),
        }
    }

    /// [`parts`](Self::parts), out of line: a blend inside a blend.
    #[inline(never)]
    fn blended(
        &self,
        weight: f32,
        priority: SteeringPriority,
        graze_flee_weight: f32,
        f: &mut impl FnMut(Part<V>),
    ) {
        self.parts(weight, priority, graze_flee_weight, f);
    }
}
