//! Per-agent parameters: every agent's own [`SteeringParams`] (whose
//! fields left at the defaults follow the global ones, see `follow.rs`),
//! and how its steering forces combine.
//! Every parameter is declared once, in the table of `agent_params!` below:
//! its type, default, the check a good value passes and what the model
//! does with a bad one. The component, its following of the defaults and
//! the warnings all follow from that one line.

use bevy::prelude::*;
use reynolds::combine::PriorityGroups;
use reynolds::defaults;
use reynolds::math::SteeringVector;
use reynolds::model::{Limits, Vehicle};

/// How an agent's steering forces become the one force it applies: the
/// model's weighted sum, or by priority.
///
/// ```
/// # use bevy_reynolds::prelude::*;
/// // This agent avoids first, and only then does anything else.
/// let cautious = SteeringParams { combine: Combine::priority(), ..Default::default() };
/// ```
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Debug, Default, PartialEq)]
pub enum Combine {
    /// Every force, weighted, added up and capped once: the model's way.
    /// [`SteeringPriority`] is ignored.
    #[default]
    Weighted,
    /// The forces of each [`SteeringPriority`] group are added up, and the first
    /// group, [`SteeringPriority::Critical`] first, whose force is longer than
    /// `threshold` (pixels a second per second) is the force; the rest wait.
    ///
    /// A weighted sum dilutes a high-priority force until agents leak
    /// through it: two behaviors pulling an agent into a wall outvote the
    /// one pushing it out. Priority does not. It takes the first group that
    /// asks for something rather than Buckland's running sum (each group in
    /// turn, truncated to the force left under the cap) because a running
    /// sum hands what the first group leaves to the others, which may spend
    /// it pulling straight back into the wall.
    Priority {
        /// How long a group's force must be to speak, in pixels a second per
        /// second.
        threshold: f32,
    },
}

impl Combine {
    /// Priority with the default threshold: 3.8 px/s², 1% of the model's
    /// max force.
    pub const fn priority() -> Self {
        Self::Priority {
            threshold: defaults::PRIORITY_THRESHOLD,
        }
    }

    /// The one force `groups` make, not yet capped.
    #[inline]
    pub fn apply<V: SteeringVector>(self, groups: &PriorityGroups<V>) -> V {
        match self {
            Combine::Weighted => groups.total(),
            Combine::Priority { threshold } => groups.first_above(threshold),
        }
    }
}

/// Which group a steering force belongs to when an agent [`Combine`]s by
/// priority: the highest group that asks for something decides. Ignored by
/// the weighted sum.
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[reflect(Debug, Default, PartialEq, Hash)]
pub enum SteeringPriority {
    /// First: avoiding obstacles and walls, staying inside.
    Critical,
    /// Before the ordinary behaviors: fleeing, say.
    High,
    /// The model's behaviors and flocking, by default.
    #[default]
    Normal,
    /// Only when nothing else asks: wandering, say.
    Low,
}

impl SteeringPriority {
    /// The group's index in a [`PriorityGroups`]: 0 is first.
    #[inline]
    pub const fn group(self) -> usize {
        self as usize
    }
}

/// Whether a value is good, and if not, what it must be.
mod check {
    use super::Combine;

    pub fn positive(value: &f32) -> Option<&'static str> {
        (!(value.is_finite() && *value > 0.0)).then_some("positive and finite")
    }

    pub fn not_negative(value: &f32) -> Option<&'static str> {
        (!(value.is_finite() && *value >= 0.0)).then_some("0 or more and finite")
    }

    pub fn not_negative_or_infinite(value: &f32) -> Option<&'static str> {
        // NaN is neither.
        (value.is_nan() || *value < 0.0).then_some("0 or more (infinite for no limit)")
    }

    pub fn combine(value: &Combine) -> Option<&'static str> {
        match value {
            Combine::Priority { threshold } => not_negative(threshold)
                .map(|_| "Weighted, or Priority with a threshold of 0 or more"),
            Combine::Weighted => None,
        }
    }
}

/// Declares every per-agent parameter once: `name: type = default, check,
/// "what a bad value does"`, with its docs. Out come [`SteeringParams`],
/// its defaults, its checks and how it follows the global defaults.
macro_rules! agent_params {
    ($(
        $(#[doc = $doc:literal])+
        $field:ident: $ty:ty = $default:expr, $check:ident, $bad:literal;
    )+) => {
        /// One agent's parameters: every system reads this one component.
        ///
        /// A field left at its default follows the global one in
        /// [`SteeringSettings::agent`](crate::SteeringSettings::agent): when the agent is added (or this is
        /// inserted), each field at [`SteeringParams::default`]'s value (the
        /// model's) takes the settings' value, and when the settings
        /// change, each field still at their old value takes the new one.
        /// What a game writes here stays.
        ///
        /// ```
        /// # use bevy::prelude::*;
        /// # use bevy_reynolds::prelude::*;
        /// # let mut world = World::new();
        /// // A sluggish heavy agent among quick ones: the rest of its values
        /// // are the settings'.
        /// world.spawn((SteeringAgent, SteeringParams { max_force: 120.0, mass: 3.0, ..default() }));
        /// ```
        ///
        /// Bad values (NaN, negative where they must not be) never panic and
        /// never put a NaN into the world: the model uses a safe value, and a
        /// warning names the field.
        #[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
        #[reflect(Component, Debug, Default, PartialEq)]
        pub struct SteeringParams {
            $( $(#[doc = $doc])+ pub $field: $ty, )+
        }

        impl Default for SteeringParams {
            /// The model's numbers.
            fn default() -> Self {
                Self { $( $field: $default, )+ }
            }
        }

        impl SteeringParams {
            /// Each field that is `was`'s value takes `now`'s: whether any
            /// did.
            pub fn follow(&mut self, was: &Self, now: &Self) -> bool {
                let mut followed = false;
                $(
                    if self.$field == was.$field && self.$field != now.$field {
                        self.$field = now.$field;
                        followed = true;
                    }
                )+
                followed
            }

            /// What is wrong with these values, one line a problem, each
            /// naming the field as `owner.field` and what the model does
            /// instead. Empty when all is well.
            pub fn problems(&self, owner: &str) -> Vec<String> {
                let mut problems = Vec::new();
                $(
                    if let Some(must_be) = check::$check(&self.$field) {
                        problems.push(format!(
                            "{owner}.{} is {:?}, but must be {must_be}; {}",
                            stringify!($field), self.$field, $bad
                        ));
                    }
                )+
                problems
            }
        }
    };
}

agent_params! {
    /// Top speed, in pixels a second. 220.
    max_speed: f32 = defaults::MAX_SPEED, positive, "it counts as 0: the agent will not move";
    /// The most the steering can change the velocity in a second, in pixels
    /// a second per second. 380.
    max_force: f32 = defaults::MAX_FORCE, positive,
        "it counts as 0 (an infinite force is uncapped): the agent cannot steer";
    /// Reaction time, in seconds: `steering = (desired - vel) / response_time`.
    /// 0.15 is quick; 1.0 is the hidden response of `desired - vel`, which
    /// makes arrivers overshoot.
    response_time: f32 = defaults::RESPONSE_TIME, positive,
        "the agent reacts as fast as max_force allows (an infinite one never reacts)";
    /// Arrivers slow down inside this distance, in pixels. 150. Keep it
    /// bigger than the braking distance `max_speed² / (2 max_force)` (64 px).
    slowing_radius: f32 = defaults::SLOWING_RADIUS, positive,
        "arrivers seek and overshoot";
    /// Fleers and evaders panic inside this distance, in pixels. 220.
    panic_radius: f32 = defaults::PANIC_RADIUS, positive,
        "fleers only panic on top of the threat";
    /// Wander's angle step, in radians per square-root second. 0.65 gives
    /// about 21° of drift a second at any rate.
    wander_rate: f32 = defaults::WANDER_RATE, not_negative, "wanderers will not turn";
    /// How much a grazer's fleeing counts against its wandering. 3.
    graze_flee_weight: f32 = defaults::GRAZE_FLEE_WEIGHT, not_negative,
        "grazers will not flee";
    /// The body's radius, in pixels: flocking's separation is measured
    /// between bodies' edges. 0: the model's agents are points. Where a
    /// capability needs a body (routes, crowds, doors, formations), a point
    /// takes the one [`body_radius`](Self::body_radius) gives it.
    radius: f32 = defaults::RADIUS, not_negative, "the agent is a point";
    /// Mass: the capped steering force is divided by it, so a heavy agent
    /// steers more sluggishly. 1, as in the model.
    mass: f32 = defaults::MASS, positive, "it counts as 1";
    /// The fastest the velocity's direction may turn, in radians a second:
    /// like a car, the agent swings round in arcs instead of turning on the
    /// spot, and from rest it starts the way it faces ([`AgentHeading`]).
    /// Infinite (no limit but the force), as in the model.
    ///
    /// [`AgentHeading`]: crate::AgentHeading
    max_turn_rate: f32 = defaults::MAX_TURN_RATE, not_negative_or_infinite,
        "the agent turns without limit";
    /// Obstacle and wall avoidance looks this many seconds ahead at the
    /// agent's speed. 0.5: at 220 px/s, 110 px, well past the 64 px it
    /// takes to brake.
    look_ahead_time: f32 = defaults::LOOK_AHEAD_TIME, not_negative,
        "the agent looks only min_look_ahead ahead";
    /// ...but never less than this many pixels, so a stopped agent still
    /// sees what is in front of it. 40.
    min_look_ahead: f32 = defaults::MIN_LOOK_AHEAD, not_negative,
        "a slow agent sees only what it touches";
    /// The gap avoidance keeps between the body and an obstacle or wall,
    /// in pixels. 4.
    clearance: f32 = defaults::CLEARANCE, not_negative, "the agent may graze obstacles";
    /// How the agent's steering forces combine: the model's weighted sum
    /// (the default) or by [`SteeringPriority`].
    combine: Combine = Combine::Weighted, combine,
        "a NaN or negative threshold counts as 0, an infinite one adds every group up";
}

/// The body of a point whose clearance and slowing radius are both bad: a
/// thousandth of a pixel, the least a wall is grown by for a route.
const POINT_BODY: f32 = 1e-3;

impl SteeringParams {
    /// These parameters with every length scaled by `factor` (speed, force,
    /// radii, the priority threshold); times, rates, weights and the mass as
    /// they are. A factor that is not positive and finite changes nothing.
    /// [`SteeringLengthUnit::scale`](crate::SteeringLengthUnit::scale) is
    /// the factor for a game's units.
    ///
    /// ```
    /// # use bevy_reynolds::prelude::*;
    /// // The model's critters, in metres, half a metre long.
    /// let metres = SteeringParams::default().scaled(0.025);
    /// assert_eq!(metres.max_speed, 220.0 * 0.025);
    /// ```
    pub fn scaled(self, factor: f32) -> Self {
        if !(factor.is_finite() && factor > 0.0) {
            return self;
        }
        Self {
            max_speed: self.max_speed * factor,
            max_force: self.max_force * factor,
            slowing_radius: self.slowing_radius * factor,
            panic_radius: self.panic_radius * factor,
            radius: self.radius * factor,
            min_look_ahead: self.min_look_ahead * factor,
            clearance: self.clearance * factor,
            combine: match self.combine {
                Combine::Priority { threshold } => Combine::Priority {
                    threshold: threshold * factor,
                },
                weighted => weighted,
            },
            ..self
        }
    }

    /// The radius of the body the agent takes up where a capability needs
    /// one ([`Navigate`](crate::Navigate)'s routes,
    /// [`AvoidAgents`](crate::AvoidAgents), doors that take turns): its
    /// [`radius`](Self::radius), or for a point (radius 0, the default) a
    /// body as wide as the gap it keeps from obstacles,
    /// [`clearance`](Self::clearance) (4 px, scaled with the rest), or if
    /// that is 0 too a hundredth of its
    /// [`slowing_radius`](Self::slowing_radius). A point has no width to
    /// route round a wall's end or to pass another point by: taken as
    /// nothing, its routes grazed walls it then stood against, and two
    /// points walking head-on met on one spot and stood there.
    ///
    /// ```
    /// # use bevy_reynolds::prelude::*;
    /// assert_eq!(SteeringParams::default().body_radius(), 4.0);
    /// assert_eq!(SteeringParams::default().scaled(0.05).body_radius(), 0.2);
    /// assert_eq!(SteeringParams { radius: 10.0, ..SteeringParams::default() }.body_radius(), 10.0);
    /// ```
    pub fn body_radius(&self) -> f32 {
        let positive = |length: f32| (length.is_finite() && length > 0.0).then_some(length);
        positive(self.radius)
            .or_else(|| positive(self.clearance))
            .or_else(|| positive(0.01 * self.slowing_radius))
            .unwrap_or(POINT_BODY)
    }

    /// The body these parameters move: limits, mass and turn rate.
    #[inline]
    pub fn vehicle(&self) -> Vehicle {
        Vehicle {
            limits: Limits {
                max_speed: self.max_speed,
                max_force: self.max_force,
            },
            mass: self.mass,
            max_turn_rate: self.max_turn_rate,
        }
    }
}
