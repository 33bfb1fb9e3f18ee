//! The components an agent is made of, and the ones other entities carry to
//! be steered toward.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro128PlusPlus;
use std::collections::VecDeque;

use crate::settings::SteeringSeed;

/// Makes an entity a steering agent: add it, with a [`Behavior`] and a
/// [`Position`], and everything else the model needs is added with defaults.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_steering::prelude::*;
/// # let mut world = World::new();
/// world.spawn((
///     SteeringAgent,
///     Behavior::Arrive(Target::Point(Vec2::new(500.0, 350.0))),
///     Position(Vec2::new(100.0, 100.0)),
/// ));
/// ```
///
/// The simulated [`Position`] is the truth; the [`Transform`] is written from
/// it for drawing, interpolated between fixed steps. Add a [`Trail`] to
/// record the agent's recent path, and a [`SteeringOverride`] to give it its
/// own limits.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(
    Position,
    PreviousPosition,
    Velocity,
    Heading,
    Behavior,
    WanderAngle,
    WanderRng,
    DesiredVelocity,
    SteeringForce,
    Transform
)]
pub struct SteeringAgent;

/// Where an agent is, in pixels (world units), as the simulation sees it.
///
/// Inserting a `Position` also resets [`PreviousPosition`], so a teleport
/// is not drawn as a sweep across the screen.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
#[component(on_insert = reset_previous_position)]
pub struct Position(pub Vec2);

impl Position {
    /// A position at `(x, y)`.
    pub const fn new(x: f32, y: f32) -> Self {
        Self(Vec2::new(x, y))
    }
}

fn reset_previous_position(mut world: DeferredWorld, ctx: HookContext) {
    let Some(pos) = world.get::<Position>(ctx.entity).copied() else {
        return;
    };
    if let Some(mut previous) = world.get_mut::<PreviousPosition>(ctx.entity) {
        previous.0 = pos.0;
    }
}

/// The [`Position`] before the last fixed step, kept to interpolate the
/// drawn position between steps.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct PreviousPosition(pub Vec2);

/// An agent's velocity, in pixels a second. Pursuers and evaders read it
/// from their target, if the target has one.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct Velocity(pub Vec2);

/// The way an agent faces: along its velocity, kept while it is slower than
/// 1 px/s. A direction, not an angle, so that neither the step nor the
/// drawing needs trigonometry; [`Heading::from_angle`] and
/// [`Heading::angle`] convert.
///
/// ```
/// # use bevy_steering::prelude::*;
/// let up = Heading::from_angle(std::f32::consts::FRAC_PI_2);
/// assert!((up.angle() - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct Heading(pub Dir2);

impl Default for Heading {
    /// Facing +x, the way the chapter's triangle points.
    fn default() -> Self {
        Self(Dir2::X)
    }
}

impl Heading {
    /// Facing `radians` counterclockwise from +x (+x if not finite).
    pub fn from_angle(radians: f32) -> Self {
        if radians.is_finite() {
            Self(Dir2::new_unchecked(Vec2::from_angle(radians)))
        } else {
            Self::default()
        }
    }

    /// The angle counterclockwise from +x, in radians, in `-π..=π`.
    pub fn angle(&self) -> f32 {
        self.0.to_angle()
    }

    /// The rotation about z that turns +x to this heading, without
    /// trigonometry: what an agent's [`Transform`] is drawn with.
    pub fn rotation(&self) -> Quat {
        Quat::from_rotation_arc_2d(Vec2::X, self.0.as_vec2())
    }
}

/// The velocity an agent's behavior asks for this step: the weighted mean
/// of its behaviors' desired velocities, in pixels a second.
///
/// Written in [`SteeringSystems::Desire`](crate::SteeringSystems::Desire); a
/// system ordered after that stage and before
/// [`SteeringSystems::Steer`](crate::SteeringSystems::Steer) may change it.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct DesiredVelocity(pub Vec2);

/// The summed steering of an agent's behaviors, in pixels a second per
/// second, not yet capped.
///
/// Written in [`SteeringSystems::Steer`](crate::SteeringSystems::Steer). Add
/// your own forces (separation, avoidance) to it after that stage and before
/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate), which
/// caps the sum once at the max force.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct SteeringForce(pub Vec2);

/// The angle a wanderer heads along, in radians, drifting by random steps.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct WanderAngle(pub f32);

/// An agent's own stream of random numbers for wandering.
///
/// By default it is seeded when added, from the plugin's seed and the order
/// in which agents were spawned, so the same seed and the same spawns give
/// bit-identical runs. [`WanderRng::from_seed`] seeds one by hand.
#[derive(Component, Reflect, Debug, Clone, Default)]
#[reflect(Component, Debug, Default)]
#[component(on_add = seed_wander_rng)]
pub struct WanderRng {
    seeded: bool,
    #[reflect(ignore)]
    rng: StreamRng,
}

impl WanderRng {
    /// A stream seeded with `seed`, left as it is when added.
    pub fn from_seed(seed: u64) -> Self {
        Self {
            seeded: true,
            rng: StreamRng(Xoshiro128PlusPlus::seed_from_u64(seed)),
        }
    }

    /// The next random number from -1 to 1, uniform, as the chapter's
    /// `randRange(-1, 1)`.
    pub fn unit(&mut self) -> f32 {
        use rand::RngExt;
        self.rng.0.random_range(-1.0..1.0)
    }
}

/// The random generator behind [`WanderRng`]: Xoshiro128++, 16 bytes a
/// agent, fast, and reproducible from its seed.
#[derive(Debug, Clone)]
struct StreamRng(Xoshiro128PlusPlus);

impl Default for StreamRng {
    fn default() -> Self {
        Self(Xoshiro128PlusPlus::seed_from_u64(0))
    }
}

fn seed_wander_rng(mut world: DeferredWorld, ctx: HookContext) {
    if world
        .get::<WanderRng>(ctx.entity)
        .is_none_or(|rng| rng.seeded)
    {
        return;
    }
    let seed = match world.get_resource_mut::<SteeringSeed>() {
        Some(mut streams) => streams.next_stream(),
        // Without the plugin, fall back to the entity, which is still
        // reproducible for the same spawns.
        None => ctx.entity.to_bits(),
    };
    if let Some(mut rng) = world.get_mut::<WanderRng>(ctx.entity) {
        *rng = WanderRng::from_seed(seed);
    }
}

/// What a behavior steers toward or away from.
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Debug, PartialEq)]
pub enum Target {
    /// A fixed point in the world, which never moves.
    Point(Vec2),
    /// Another entity: its [`Position`] if it has one, else its
    /// [`GlobalTransform`]'s translation; its [`Velocity`] if it has one, else
    /// its [`MeasuredVelocity`], else zero. If the entity is gone, the
    /// behavior asks for no steering, and a warning is logged once.
    Entity(Entity),
}

impl From<Vec2> for Target {
    fn from(point: Vec2) -> Self {
        Target::Point(point)
    }
}

impl From<Entity> for Target {
    fn from(entity: Entity) -> Self {
        Target::Entity(entity)
    }
}

/// One way of choosing a desired velocity: the building block of a
/// [`Behavior`].
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Debug, PartialEq)]
pub enum Steer {
    /// Full speed, straight at the target ([`steering_core::seek`]).
    Seek(Target),
    /// Seek, slowing down inside the slowing radius ([`steering_core::arrive`]).
    Arrive(Target),
    /// Full speed away from the threat inside the panic radius
    /// ([`steering_core::flee`]).
    Flee(Target),
    /// Seek where the target will be ([`steering_core::pursue`]).
    Pursue(Target),
    /// Flee from where the threat will be ([`steering_core::evade`]).
    Evade(Target),
    /// Head along a drifting angle ([`steering_core::wander`]).
    Wander,
}

/// A [`Steer`] with a weight, a part of a [`Behavior::Blend`].
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Debug, PartialEq)]
pub struct Weighted {
    /// How much this part's steering counts. Negative and non-finite
    /// weights count as 0.
    pub weight: f32,
    /// The part.
    pub steer: Steer,
}

/// What an agent does: the velocity it wants each step.
///
/// Behaviors combine by adding their weighted steering and capping the sum
/// once, so the weights decide each one's share.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_steering::prelude::*;
/// let mouse = Vec2::new(500.0, 350.0);
/// let grazer = Behavior::Graze(Target::Point(mouse));
/// // The same, spelled out, with a weight of its own:
/// let jumpy = Behavior::Blend(vec![
///     Weighted { weight: 1.0, steer: Steer::Wander },
///     Weighted { weight: 5.0, steer: Steer::Flee(Target::Point(mouse)) },
/// ]);
/// ```
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub enum Behavior {
    /// No steering: the agent keeps the velocity it has.
    #[default]
    Idle,
    /// [`Steer::Seek`].
    Seek(Target),
    /// [`Steer::Arrive`].
    Arrive(Target),
    /// [`Steer::Flee`].
    Flee(Target),
    /// [`Steer::Pursue`].
    Pursue(Target),
    /// [`Steer::Evade`].
    Evade(Target),
    /// [`Steer::Wander`].
    Wander,
    /// The chapter's grazer: wander, plus flee from the threat weighted by
    /// [`SteeringSettings::graze_flee_weight`](crate::SteeringSettings::graze_flee_weight)
    /// (3). Far from the threat flee asks for nothing, so it wanders; inside
    /// the panic radius flee swamps wander, and it bolts.
    Graze(Target),
    /// Any weighted sum of parts.
    Blend(Vec<Weighted>),
}

impl Behavior {
    /// Calls `f` with each part's weight and [`Steer`]. A behavior that is
    /// not a blend has one part of weight 1; [`Behavior::Idle`] has none.
    #[inline]
    pub fn for_each_part(&self, graze_flee_weight: f32, mut f: impl FnMut(f32, Steer)) {
        match self {
            Behavior::Idle => {}
            Behavior::Seek(t) => f(1.0, Steer::Seek(*t)),
            Behavior::Arrive(t) => f(1.0, Steer::Arrive(*t)),
            Behavior::Flee(t) => f(1.0, Steer::Flee(*t)),
            Behavior::Pursue(t) => f(1.0, Steer::Pursue(*t)),
            Behavior::Evade(t) => f(1.0, Steer::Evade(*t)),
            Behavior::Wander => f(1.0, Steer::Wander),
            Behavior::Graze(t) => {
                f(1.0, Steer::Wander);
                f(sanitize_weight(graze_flee_weight), Steer::Flee(*t));
            }
            Behavior::Blend(parts) => {
                for part in parts {
                    f(sanitize_weight(part.weight), part.steer);
                }
            }
        }
    }

    /// The sum of the parts' weights.
    pub fn total_weight(&self, graze_flee_weight: f32) -> f32 {
        let mut total = 0.0;
        self.for_each_part(graze_flee_weight, |w, _| total += w);
        total
    }
}

/// Weights are not negative, and finite: anything else counts as 0.
#[inline]
pub(crate) fn sanitize_weight(weight: f32) -> f32 {
    if weight.is_finite() {
        weight.max(0.0)
    } else {
        0.0
    }
}

/// Per-agent overrides of the global [`SteeringSettings`](crate::SteeringSettings):
/// each field that is `Some` replaces the global value for this agent.
///
/// ```
/// # use bevy_steering::prelude::*;
/// // A sluggish heavy agent among quick ones.
/// let heavy = SteeringOverride { max_force: Some(120.0), response_time: Some(1.0), ..Default::default() };
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct SteeringOverride {
    /// Top speed, in pixels a second.
    pub max_speed: Option<f32>,
    /// Steering cap, in pixels a second per second.
    pub max_force: Option<f32>,
    /// Reaction time, in seconds.
    pub response_time: Option<f32>,
    /// Arrive's slowing radius, in pixels.
    pub slowing_radius: Option<f32>,
    /// Flee's and evade's panic radius, in pixels.
    pub panic_radius: Option<f32>,
    /// Wander's angle step, in radians per square-root second.
    pub wander_rate: Option<f32>,
}

/// The last places an agent has been, oldest first, sampled every
/// [`SteeringSettings::trail_interval`](crate::SteeringSettings::trail_interval)
/// seconds of simulated time and keeping
/// [`SteeringSettings::trail_length`](crate::SteeringSettings::trail_length)
/// places. Opt in by adding it to an agent.
///
/// The points live in a ring buffer, so a trail allocates nothing once it is
/// full.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct Trail {
    /// The places, oldest first.
    pub points: VecDeque<Vec2>,
}

/// The clock every [`Trail`] samples by: all trails add a point on the same
/// step, so on the steps between, the trail stage touches no agent.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct TrailClock {
    /// Simulated seconds since the trails last sampled.
    pub since_last_sample: f32,
}

/// A velocity measured from how an entity's position changes each step,
/// for targets moved by other code (the mouse, a player). Pursuers and
/// evaders use it when the target has no [`Velocity`].
///
/// The measurement is smoothed with a half-life (the chapter's 0.1 s), so
/// one jerky frame does not throw pursuers off.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct MeasuredVelocity {
    /// The smoothed velocity, in pixels a second.
    pub velocity: Vec2,
    /// The smoothing half-life, in seconds; 0 does not smooth.
    pub half_life: f32,
    /// Where the entity was at the last measurement.
    pub last_position: Option<Vec2>,
}

impl Default for MeasuredVelocity {
    fn default() -> Self {
        Self {
            velocity: Vec2::ZERO,
            half_life: steering_core::defaults::MEASURE_HALF_LIFE,
            last_position: None,
        }
    }
}
