//! The components an agent is made of, and the ones other entities carry to
//! be steered toward.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro128PlusPlus;
use std::collections::VecDeque;

use reynolds::{self as model, PriorityGroups};

use crate::params::{Priority, SteeringParams, fill_params};
use crate::settings::SteeringSeed;

/// Makes an entity a steering agent: add it, with a [`Behavior`] and a
/// [`Position`], and everything else the model needs is added with defaults.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # use bevy_reynolds::Position;
/// # let mut world = World::new();
/// world.spawn((
///     SteeringAgent,
///     Behavior::Arrive(Target::Point(Vec2::new(500.0, 350.0))),
///     Position(Vec2::new(100.0, 100.0)),
/// ));
/// ```
///
/// The simulated [`Position`] is the truth; the [`Transform`] is written from
/// it for drawing, interpolated between fixed steps. An agent spawned with a
/// [`Transform`] and no [`Position`] starts where the transform puts it, on
/// the [`GroundPlane`](crate::GroundPlane). Add a [`Trail`] to
/// record the agent's recent path, and a
/// [`SteeringOverride`](crate::SteeringOverride) to give it its own limits.
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
    SteeringParams,
    SteeringAccumulator,
    crate::level::AvoidanceMemory,
    Transform
)]
#[component(on_add = on_add_agent)]
pub struct SteeringAgent;

/// A new agent's parameters are filled; it starts where its [`Transform`]
/// puts it if it was given no [`Position`]; and it starts drawn where it
/// is, even when its [`Position`] was there before it became an agent.
fn on_add_agent(mut world: DeferredWorld, ctx: HookContext) {
    fill_params(world.reborrow(), ctx);
    let ground = world
        .get_resource::<crate::GroundPlane>()
        .copied()
        .unwrap_or_default();
    let placed = world
        .get::<Transform>(ctx.entity)
        .map(|t| ground.to_ground(t.translation));
    if let Some(placed) = placed.filter(|p| *p != Vec2::ZERO && p.is_finite())
        && let Some(mut pos) = world.get_mut::<Position>(ctx.entity)
        && pos.0 == Vec2::ZERO
    {
        pos.0 = placed;
    }
    reset_previous_position(world, ctx);
}

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
/// # use bevy_reynolds::prelude::*;
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
pub struct DesiredVelocity(pub Vec2);

/// The force an agent's steering combined into in its last step, in pixels
/// a second per second, before the cap at the max force (and the mass).
///
/// For debugging and tests, so an agent has it only if you add it: written
/// in [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate) from
/// the [`SteeringAccumulator`]; writing it changes nothing.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct SteeringForce(pub Vec2);

/// Every steering force asked of an agent this step, summed by
/// [`Priority`] group: each behavior adds to it, and
/// [`SteeringSystems::Integrate`](crate::SteeringSystems::Integrate) makes
/// one force of it (by the agent's [`Combine`](crate::Combine)), caps that
/// once at the max force and moves the agent. It starts each step empty.
///
/// The chapter's behaviors and flocking add to it in
/// [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors); add
/// yours in [`SteeringSystems::Forces`](crate::SteeringSystems::Forces):
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # use bevy_reynolds::{Position, Velocity};
/// /// A behavior of your own: keep out of the half-plane y < 0.
/// #[derive(Component)]
/// struct KeepOutBelowZero;
///
/// fn keep_out(
///     mut agents: Query<
///         (&Position, &Velocity, &SteeringParams, &mut SteeringAccumulator),
///         With<KeepOutBelowZero>,
///     >,
/// ) {
///     for (pos, vel, params, mut steering) in &mut agents {
///         if pos.y < 100.0 {
///             // Straight up, at full speed: the chapter's
///             // (desired - vel) / response_time, at the top priority.
///             let desired = Vec2::new(vel.x, params.max_speed);
///             steering.add_desired(Priority::Critical, 1.0, desired, vel.0, params.response_time);
///         }
///     }
/// }
///
/// App::new()
///     .add_plugins((MinimalPlugins, SteeringPlugin::default()))
///     .add_systems(FixedUpdate, keep_out.in_set(SteeringSystems::Forces));
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct SteeringAccumulator(#[reflect(ignore)] pub PriorityGroups);

impl SteeringAccumulator {
    /// Adds a steering force, in pixels a second per second, to the
    /// `priority` group. A non-finite force adds nothing.
    #[inline]
    pub fn add_force(&mut self, priority: Priority, force: Vec2) {
        self.0.add(priority.group(), force);
    }

    /// Adds the steering toward `desired` (in pixels a second) of an agent
    /// going `vel`: `weight * (desired - vel) / response_time`, the chapter's
    /// formula, to the `priority` group. Weights that are negative or not
    /// finite count as 0.
    #[inline]
    pub fn add_desired(
        &mut self,
        priority: Priority,
        weight: f32,
        desired: Vec2,
        vel: Vec2,
        response_time: f32,
    ) {
        let weight = model::sanitize_weight(weight);
        if weight > 0.0 {
            self.add_force(
                priority,
                model::steering(desired, vel, response_time) * weight,
            );
        }
    }
}

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
    /// Full speed, straight at the target ([`reynolds::seek`]).
    Seek(Target),
    /// Seek, slowing down inside the slowing radius ([`reynolds::arrive`]).
    Arrive(Target),
    /// Full speed away from the threat inside the panic radius
    /// ([`reynolds::flee`]).
    Flee(Target),
    /// Seek where the target will be ([`reynolds::pursue`]).
    Pursue(Target),
    /// Flee from where the threat will be ([`reynolds::evade`]).
    Evade(Target),
    /// Head along a drifting angle ([`reynolds::wander`]).
    Wander,
}

/// A [`Steer`] with a weight and a [`Priority`]: a part of a
/// [`Behavior::Blend`].
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// let threat = Target::Point(Vec2::new(500.0, 350.0));
/// let flee_first = Weighted::new(3.0, Steer::Flee(threat)).with_priority(Priority::High);
/// ```
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Debug, PartialEq)]
pub struct Weighted {
    /// How much this part's steering counts. Negative and non-finite
    /// weights count as 0.
    pub weight: f32,
    /// The part.
    pub steer: Steer,
    /// The part's group when the agent combines by priority.
    pub priority: Priority,
}

impl Weighted {
    /// `steer`, weighted `weight`, at the normal priority.
    pub const fn new(weight: f32, steer: Steer) -> Self {
        Self {
            weight,
            steer,
            priority: Priority::Normal,
        }
    }

    /// The same part at `priority`.
    pub const fn with_priority(mut self, priority: Priority) -> Self {
        self.priority = priority;
        self
    }
}

/// What an agent does: the velocity it wants each step.
///
/// Behaviors combine by adding their weighted steering and capping the sum
/// once, so the weights decide each one's share.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// let mouse = Vec2::new(500.0, 350.0);
/// let grazer = Behavior::Graze(Target::Point(mouse));
/// // The same, spelled out, with a weight of its own:
/// let jumpy = Behavior::Blend(vec![
///     Weighted::new(1.0, Steer::Wander),
///     Weighted::new(5.0, Steer::Flee(Target::Point(mouse))),
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
    /// [`SteeringParams::graze_flee_weight`](crate::SteeringParams::graze_flee_weight)
    /// (3). Far from the threat flee asks for nothing, so it wanders; inside
    /// the panic radius flee swamps wander, and it bolts.
    Graze(Target),
    /// Any weighted sum of parts.
    Blend(Vec<Weighted>),
}

impl Behavior {
    /// Calls `f` with each part, its weight made sane (not negative, finite).
    /// A behavior that is not a blend has one part of weight 1 at the normal
    /// priority; [`Behavior::Idle`] has none.
    #[inline]
    pub fn for_each_part(&self, graze_flee_weight: f32, mut f: impl FnMut(Weighted)) {
        let mut one = |steer| f(Weighted::new(1.0, steer));
        match self {
            Behavior::Idle => {}
            Behavior::Seek(t) => one(Steer::Seek(*t)),
            Behavior::Arrive(t) => one(Steer::Arrive(*t)),
            Behavior::Flee(t) => one(Steer::Flee(*t)),
            Behavior::Pursue(t) => one(Steer::Pursue(*t)),
            Behavior::Evade(t) => one(Steer::Evade(*t)),
            Behavior::Wander => one(Steer::Wander),
            Behavior::Graze(t) => {
                f(Weighted::new(1.0, Steer::Wander));
                let flee = Steer::Flee(*t);
                f(Weighted::new(
                    model::sanitize_weight(graze_flee_weight),
                    flee,
                ));
            }
            Behavior::Blend(parts) => {
                for part in parts {
                    f(Weighted {
                        weight: model::sanitize_weight(part.weight),
                        ..*part
                    });
                }
            }
        }
    }
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
            half_life: reynolds::defaults::MEASURE_HALF_LIFE,
            last_position: None,
        }
    }
}
