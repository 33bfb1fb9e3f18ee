//! What a flyer is made of: the 3D counterparts of a walker's components
//! (its position, velocity, steering), the way it faces and its up
//! ([`FlyerAttitude`]), the direction it wanders along
//! ([`WanderDirection`]) and the limits of things that fly
//! ([`FlightParams`]).

use std::sync::Arc;

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use reynolds::combine::PriorityGroups;
use reynolds::flight::{Attitude, Flight};
use reynolds::path::Polyline;
use reynolds::wander::{wander_3d, wander_step_3d};

use crate::agent::{
    AgentSpace, FlyerBehavior, GroundPlane, SteeringLengthUnit, SteeringParams, SteeringPriority,
    WanderRng, accumulator_api, from_vector, place_new_agent, reset_previous_position,
};
use crate::level::PathFollower;

/// Makes an entity an agent that flies (or swims): it moves in full 3D by
/// the model, with every behavior a walker has ([`FlyerBehavior`]), and
/// banks into its turns. Add it with a [`FlyerBehavior`] and a
/// [`FlyerPosition`]; everything else is added with defaults.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// # let mut world = World::new();
/// world.spawn((
///     SteeringFlyer,
///     FlyerBehavior::Arrive(FlyerTarget::Point(Vec3::new(500.0, 300.0, -200.0))),
///     FlyerPosition(Vec3::new(0.0, 100.0, 0.0)),
/// ));
/// ```
///
/// Its [`Transform`] is written from its simulated state, +y up: a body
/// modelled facing +x with +y up (as walkers are) is turned to face its
/// velocity and rolled by its [`FlyerAttitude`]. A flyer spawned with a
/// [`Transform`] and no position starts where the transform puts it.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(
    FlyerPosition,
    FlyerPreviousPosition,
    FlyerVelocity,
    FlyerAttitude,
    FlyerBehavior,
    WanderDirection,
    WanderRng,
    SteeringParams,
    FlightParams,
    FlyerAccumulator,
    Transform
)]
#[component(on_add = place_new_agent::<Vec3>)]
pub struct SteeringFlyer;

/// The way a flyer faces and its up, square to each other: along its
/// velocity (kept while it is slower than 1 px/s), its up leaning into its
/// turns by `atan(lateral acceleration / gravity)`, as a bird's or an
/// aircraft's does, and level again on straight flight
/// ([`bank`](reynolds::flight::bank)).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// let level = FlyerAttitude::default();
/// assert_eq!(level.rotation(), Quat::IDENTITY); // facing +x, +y up
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct FlyerAttitude(pub Attitude);

impl FlyerAttitude {
    /// The rotation that turns a body facing +x with +y up to this
    /// attitude: what a flyer's [`Transform`] is drawn with.
    pub fn rotation(&self) -> Quat {
        let Attitude { forward, up } = self.0;
        Quat::from_mat3(&Mat3::from_cols(forward, up, forward.cross(up))).normalize()
    }
}

/// The direction a flying wanderer heads along, a unit vector roaming the
/// sphere by random steps ([`wander_step_3d`]): about 21° of drift a second
/// at the default rate, as a walker's [`WanderAngle`](crate::WanderAngle).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct WanderDirection(pub Vec3);

impl Default for WanderDirection {
    /// +x.
    fn default() -> Self {
        Self(Vec3::X)
    }
}

/// How a flyer handles beyond its [`SteeringParams`]: a least speed, the
/// steepest climb and dive, and how it banks ([`Flight`]: none of the
/// limits by default, as the model's agents; banking under 9.81 m/s²).
/// Added at the default, it is scaled to the game's
/// [`SteeringLengthUnit`].
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// // A glider: never under 80 px/s, never steeper than 30°.
/// let glider = FlightParams(Flight {
///     min_speed: 80.0,
///     max_climb: 30f32.to_radians(),
///     max_dive: 30f32.to_radians(),
///     ..default()
/// });
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
#[component(on_add = scale_default_flight)]
pub struct FlightParams(pub Flight);

/// A flyer added with the default [`FlightParams`] gets them in the game's
/// units, as [`SteeringParams`] follow the settings.
fn scale_default_flight(mut world: DeferredWorld, ctx: HookContext) {
    let scale = world
        .get_resource::<SteeringLengthUnit>()
        .map_or(1.0, |unit| unit.scale());
    if scale != 1.0
        && let Some(mut flight) = world.get_mut::<FlightParams>(ctx.entity)
        && flight.0 == Flight::default()
    {
        flight.0 = Flight::default().scaled(scale);
    }
}

/// Where a flyer is, in pixels (world units), as the simulation sees it:
/// the 3D [`AgentPosition`](crate::AgentPosition). Inserting one also
/// resets [`FlyerPreviousPosition`], so a teleport is not drawn as a sweep.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
#[component(on_insert = reset_previous_position::<Vec3>)]
pub struct FlyerPosition(pub Vec3);

/// The [`FlyerPosition`] before the last fixed step, kept to interpolate the
/// drawn position between steps.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct FlyerPreviousPosition(pub Vec3);

/// A flyer's velocity, in pixels a second: the 3D
/// [`AgentVelocity`](crate::AgentVelocity). Pursuers and evaders read it
/// from their target.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct FlyerVelocity(pub Vec3);

/// The velocity a flyer's steering asked for in its last step, for drawing
/// and debugging: the 3D [`DesiredVelocity`](crate::DesiredVelocity), on
/// flyers that carry it.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct FlyerDesiredVelocity(pub Vec3);

/// The force a flyer's steering combined into in its last step, before the
/// cap: the 3D [`SteeringForce`](crate::SteeringForce), on flyers that
/// carry it.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct FlyerForce(pub Vec3);

/// Every steering force asked of a flyer this step, by
/// [`SteeringPriority`] group: the 3D
/// [`SteeringAccumulator`](crate::SteeringAccumulator). A behavior of a
/// game's own adds to it in
/// [`SteeringSystems::Forces`](crate::SteeringSystems::Forces).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// /// Keep above the ground: climb at full speed below 50 px.
/// fn keep_up(mut flyers: Query<(&FlyerPosition, &FlyerVelocity, &SteeringParams, &mut FlyerAccumulator)>) {
///     for (pos, vel, params, mut steering) in &mut flyers {
///         if pos.y < 50.0 {
///             let desired = Vec3::new(vel.x, params.max_speed, vel.z);
///             steering.add_desired(SteeringPriority::Critical, 1.0, desired, vel.0, params.response_time);
///         }
///     }
/// }
/// App::new()
///     .add_plugins((MinimalPlugins, SteeringPlugins::default()))
///     .add_systems(FixedUpdate, keep_up.in_set(SteeringSystems::Forces));
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct FlyerAccumulator(#[reflect(ignore)] pub PriorityGroups<Vec3>);

accumulator_api!(FlyerAccumulator, Vec3);

from_vector!(Vec3 => FlyerPosition, FlyerPreviousPosition, FlyerVelocity, FlyerDesiredVelocity, FlyerForce);

impl AgentSpace for Vec3 {
    type Marker = SteeringFlyer;
    type Position = FlyerPosition;
    type PreviousPosition = FlyerPreviousPosition;
    type Velocity = FlyerVelocity;
    type Desired = FlyerDesiredVelocity;
    type Force = FlyerForce;
    type Accumulator = FlyerAccumulator;
    type Heading = FlyerAttitude;
    type Wander = WanderDirection;

    #[inline]
    fn facing(attitude: &FlyerAttitude) -> Self {
        attitude.forward
    }

    #[inline]
    fn wander(
        direction: &mut WanderDirection,
        rng: &mut WanderRng,
        dt: f32,
        rate: f32,
        max_speed: f32,
    ) -> Self {
        let unit = [rng.unit(), rng.unit()];
        direction.0 = wander_step_3d(direction.0, dt, rate, unit);
        wander_3d(direction.0, max_speed)
    }

    #[inline]
    fn from_world(world: Vec3, _ground: GroundPlane) -> Self {
        world
    }

    #[inline]
    fn from_measured(_velocity: Vec2) -> Option<Self> {
        // Measured on the ground: not a flyer's.
        None
    }
}

/// A path for flyers: the engine-free [`Polyline`] in 3D, shared between
/// followers with an [`Arc`].
pub type FlyerPath = Polyline<Vec3>;

/// Follows a 3D path, open or looped (a course through rings in the air),
/// as a walker's [`FollowPath`](crate::FollowPath) does: it seeks a point
/// a little ahead of a cursor that only moves forward, slower where the
/// path turns, and arrives at the end of an open path. Its steering goes
/// into [`SteeringPriority::Normal`], with the flyer's [`FlyerBehavior`]
/// if it has one (`FlyerBehavior::Idle`, the default, only follows).
///
/// ```
/// # use std::sync::Arc;
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// let rings = Arc::new(FlyerPath::new(
///     [Vec3::ZERO, Vec3::new(400.0, 100.0, 0.0), Vec3::new(400.0, 200.0, -400.0)],
///     true,
/// ));
/// # let mut world = World::new();
/// world.spawn(FlyerFollowPath::new(rings, 20.0));
/// ```
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringFlyer)]
pub struct FlyerFollowPath {
    /// The path, shared.
    #[reflect(ignore)]
    pub path: Arc<FlyerPath>,
    /// How far off the path counts as on it, in pixels: the cursor looks at
    /// least this far ahead.
    pub radius: f32,
    /// How far along the path the flyer is, in pixels of arc length (past
    /// the length on a looped path: each lap adds the length).
    pub cursor: f32,
    /// Where the flyer aimed in its last step.
    pub aim: Vec3,
}

impl FlyerFollowPath {
    /// Follows `path`, `radius` wide, from its start.
    pub fn new(path: Arc<FlyerPath>, radius: f32) -> Self {
        Self {
            path,
            radius,
            cursor: 0.0,
            aim: Vec3::ZERO,
        }
    }

    /// How many laps of a looped path the cursor has made.
    pub fn laps(&self) -> u32 {
        if self.path.is_looped() && self.path.length() > 0.0 {
            (self.cursor / self.path.length()) as u32
        } else {
            0
        }
    }
}

impl PathFollower<Vec3> for FlyerFollowPath {
    fn parts(&mut self) -> (&Polyline<Vec3>, f32, &mut f32, &mut Vec3) {
        (&self.path, self.radius, &mut self.cursor, &mut self.aim)
    }
}

impl FlightParams {
    /// What is wrong with each field, and what the flyer does instead: a
    /// warning's text for each bad one (none for good parameters).
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_reynolds::prelude::*;
    /// let bad = FlightParams(Flight { min_speed: f32::NAN, ..default() });
    /// assert!(bad.problems()[0].starts_with("FlightParams.min_speed is NaN"));
    /// assert!(FlightParams::default().problems().is_empty());
    /// ```
    pub fn problems(&self) -> Vec<String> {
        let Flight {
            min_speed,
            max_climb,
            max_dive,
            bank_gravity,
            bank_half_life,
        } = self.0;
        let angle = "0 or more radians (a quarter turn or more for no limit); NaN counts as no limit, below 0 as 0";
        [
            (
                "min_speed",
                min_speed,
                !(min_speed.is_finite() && min_speed >= 0.0),
                "0 or more and finite; it counts as 0, no least speed",
            ),
            (
                "max_climb",
                max_climb,
                max_climb.is_nan() || max_climb < 0.0,
                angle,
            ),
            (
                "max_dive",
                max_dive,
                max_dive.is_nan() || max_dive < 0.0,
                angle,
            ),
            (
                "bank_gravity",
                bank_gravity,
                bank_gravity.is_nan() || bank_gravity <= 0.0,
                "positive (infinite to fly level); the flyer flies level",
            ),
            (
                "bank_half_life",
                bank_half_life,
                !(bank_half_life.is_finite() && bank_half_life >= 0.0),
                "0 or more and finite; 0 or less, or NaN, banks at once, infinite never",
            ),
        ]
        .into_iter()
        .filter(|(_, _, bad, _)| *bad)
        .map(|(field, value, _, what)| {
            format!("FlightParams.{field} is {value}, but must be {what}")
        })
        .collect()
    }
}

/// Each flyer whose [`FlightParams`] changed and are bad is warned of,
/// naming the field.
pub(crate) fn validate_flight(flyers: Query<(Entity, &FlightParams), Changed<FlightParams>>) {
    for (flyer, flight) in &flyers {
        for problem in flight.problems() {
            warn!("flyer {flyer}: {problem}");
        }
    }
}
