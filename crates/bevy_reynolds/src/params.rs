//! Per-agent parameters: every agent's own [`SteeringParams`] component,
//! filled from the global defaults in
//! [`SteeringSettings::agent`](crate::SteeringSettings::agent) and its
//! [`SteeringOverride`], and how its steering forces combine.
//!
//! Every parameter is declared once, in the table of `agent_params!` below:
//! its type, default, the check a good value passes and what the model
//! does with a bad one. The component, the overrides, the resolution and
//! the warnings all follow from that one line.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use reynolds::{self as model, PriorityGroups, Vehicle, defaults};

use crate::settings::SteeringSettings;

/// How an agent's steering forces become the one force it applies: the
/// chapter's weighted sum, or by priority.
///
/// ```
/// # use bevy_reynolds::prelude::*;
/// // This agent avoids first, and only then does anything else.
/// let cautious = SteeringOverride { combine: Some(Combine::priority()), ..Default::default() };
/// ```
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Debug, Default, PartialEq)]
pub enum Combine {
    /// Every force, weighted, added up and capped once: the chapter's way.
    /// [`Priority`] is ignored.
    #[default]
    Weighted,
    /// The forces of each [`Priority`] group are added up, and the first
    /// group, [`Priority::Critical`] first, whose force is longer than
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
    /// Priority with the default threshold: 3.8 px/s², 1% of the chapter's
    /// max force.
    pub const fn priority() -> Self {
        Self::Priority {
            threshold: defaults::PRIORITY_THRESHOLD,
        }
    }

    /// The one force `groups` make, not yet capped.
    #[inline]
    pub fn apply(self, groups: &PriorityGroups) -> Vec2 {
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
pub enum Priority {
    /// First: avoiding obstacles and walls, staying inside.
    Critical,
    /// Before the ordinary behaviors: fleeing, say.
    High,
    /// The chapter's behaviors and flocking, by default.
    #[default]
    Normal,
    /// Only when nothing else asks: wandering, say.
    Low,
}

impl Priority {
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
/// [`SteeringOverride`] and what joins them.
macro_rules! agent_params {
    ($(
        $(#[doc = $doc:literal])+
        $field:ident: $ty:ty = $default:expr, $check:ident, $bad:literal;
    )+) => {
        /// One agent's parameters. The plugin fills it when the agent is
        /// added, and again whenever [`SteeringSettings`] or the agent's
        /// [`SteeringOverride`] changes: the global defaults of
        /// [`SteeringSettings::agent`], with the agent's overrides applied.
        /// Every system reads this one component.
        ///
        /// To give one agent its own value, insert a [`SteeringOverride`]:
        /// writing here directly lasts only until the defaults change.
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
            /// The chapter's numbers.
            fn default() -> Self {
                Self { $( $field: $default, )+ }
            }
        }

        /// One agent's own values: each field that is `Some` replaces the
        /// global default of [`SteeringSettings::agent`] for this agent, in
        /// its [`SteeringParams`]; the rest follow the defaults as they
        /// change.
        ///
        /// ```
        /// # use bevy_reynolds::prelude::*;
        /// // A sluggish heavy agent among quick ones.
        /// let heavy = SteeringOverride { max_force: Some(120.0), mass: Some(3.0), ..Default::default() };
        /// ```
        #[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
        #[reflect(Component, Debug, Default, PartialEq)]
        pub struct SteeringOverride {
            $(
                #[doc = concat!("Replaces [`SteeringParams::", stringify!($field), "`].")]
                pub $field: Option<$ty>,
            )+
        }

        impl SteeringParams {
            /// These parameters with `overrides` applied.
            pub fn with_overrides(mut self, overrides: &SteeringOverride) -> Self {
                $( if let Some(value) = overrides.$field { self.$field = value; } )+
                self
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

        impl SteeringOverride {
            /// What is wrong with the values these overrides set, as
            /// [`SteeringParams::problems`].
            pub fn problems(&self) -> Vec<String> {
                let mut problems = Vec::new();
                $(
                    if let Some(value) = &self.$field
                        && let Some(must_be) = check::$check(value)
                    {
                        problems.push(format!(
                            "SteeringOverride.{} is {:?}, but must be {must_be}; {}",
                            stringify!($field), value, $bad
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
    /// between bodies' edges. 0: the chapter's agents are points.
    radius: f32 = defaults::RADIUS, not_negative, "the agent is a point";
    /// Mass: the capped steering force is divided by it, so a heavy agent
    /// steers more sluggishly. 1, as in the chapter.
    mass: f32 = defaults::MASS, positive, "it counts as 1";
    /// The fastest the velocity's direction may turn, in radians a second:
    /// like a car, the agent swings round in arcs instead of turning on the
    /// spot, and from rest it starts the way it faces ([`Heading`]).
    /// Infinite (no limit but the force), as in the chapter.
    ///
    /// [`Heading`]: crate::Heading
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
    /// How the agent's steering forces combine: the chapter's weighted sum
    /// (the default) or by [`Priority`].
    combine: Combine = Combine::Weighted, combine,
        "a NaN or negative threshold counts as 0, an infinite one adds every group up";
}

impl SteeringParams {
    /// These parameters in units of `unit` pixels each: the lengths (speed,
    /// force, radii, the priority threshold) multiplied by `unit`; times,
    /// rates, weights and the mass as they are. A unit that is not positive
    /// and finite changes nothing.
    ///
    /// ```
    /// # use bevy_reynolds::prelude::*;
    /// // The chapter's critters, in metres, half a metre long.
    /// let metres = SteeringParams::default().scaled(0.025);
    /// assert_eq!(metres.max_speed, 220.0 * 0.025);
    /// ```
    pub fn scaled(self, unit: f32) -> Self {
        if !(unit.is_finite() && unit > 0.0) {
            return self;
        }
        Self {
            max_speed: self.max_speed * unit,
            max_force: self.max_force * unit,
            slowing_radius: self.slowing_radius * unit,
            panic_radius: self.panic_radius * unit,
            radius: self.radius * unit,
            min_look_ahead: self.min_look_ahead * unit,
            clearance: self.clearance * unit,
            combine: match self.combine {
                Combine::Priority { threshold } => Combine::Priority {
                    threshold: threshold * unit,
                },
                weighted => weighted,
            },
            ..self
        }
    }

    /// The body these parameters move: limits, mass and turn rate.
    #[inline]
    pub fn vehicle(&self) -> Vehicle {
        Vehicle {
            limits: model::Limits {
                max_speed: self.max_speed,
                max_force: self.max_force,
            },
            mass: self.mass,
            max_turn_rate: self.max_turn_rate,
        }
    }
}

/// Fills a new agent's [`SteeringParams`] from the defaults and its
/// overrides, so they are right before its first step.
pub(crate) fn fill_params(mut world: DeferredWorld, ctx: HookContext) {
    let Some(defaults) = world.get_resource::<SteeringSettings>().map(|s| s.agent) else {
        return;
    };
    let params = match world.get::<SteeringOverride>(ctx.entity) {
        Some(overrides) => defaults.with_overrides(overrides),
        None => defaults,
    };
    if let Some(mut own) = world.get_mut::<SteeringParams>(ctx.entity) {
        *own = params;
    }
}

/// Keeps every agent's [`SteeringParams`] up to date: all of them when the
/// settings change, else those whose overrides changed or went.
pub(crate) fn resolve_params(
    settings: Res<SteeringSettings>,
    mut removed: RemovedComponents<SteeringOverride>,
    mut agents: ParamSet<(
        Query<(&mut SteeringParams, Option<&SteeringOverride>)>,
        Query<(&mut SteeringParams, &SteeringOverride), Changed<SteeringOverride>>,
    )>,
) {
    let defaults = settings.agent;
    if settings.is_changed() {
        removed.clear();
        crate::passes::for_each(
            crate::passes::CHEAP,
            &mut agents.p0(),
            |(mut params, overrides)| {
                let resolved = overrides.map_or(defaults, |o| defaults.with_overrides(o));
                params.set_if_neq(resolved);
            },
        );
        return;
    }
    for (mut params, overrides) in &mut agents.p1() {
        params.set_if_neq(defaults.with_overrides(overrides));
    }
    let mut all = agents.p0();
    for entity in removed.read() {
        if let Ok((mut params, None)) = all.get_mut(entity) {
            params.set_if_neq(defaults);
        }
    }
}
