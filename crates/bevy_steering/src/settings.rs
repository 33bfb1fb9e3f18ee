//! Global defaults, and the seed behind every agent's random numbers.

use bevy::prelude::*;
use steering_core::{Limits, defaults};

use crate::components::SteeringOverride;

/// The global steering parameters: every agent uses these unless its
/// [`SteeringOverride`] says otherwise. The defaults are the chapter's.
///
/// Changes take effect on the next fixed step. Values that make no sense
/// (zero, negative, NaN or infinite where they must be positive) never
/// panic and never put a NaN into the world: the model uses a safe value
/// instead, and a warning says which field and what is used.
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct SteeringSettings {
    /// Top speed, in pixels a second. 220.
    pub max_speed: f32,
    /// The most the steering can change the velocity in a second, in pixels
    /// a second per second. 380.
    pub max_force: f32,
    /// Reaction time, in seconds: `steering = (desired - vel) / response_time`.
    /// 0.15 is quick; 1.0 is the hidden response of `desired - vel`, which
    /// makes arrivers overshoot.
    pub response_time: f32,
    /// Arrivers slow down inside this distance, in pixels. 150. Keep it
    /// bigger than the braking distance `max_speed² / (2 max_force)` (64 px).
    pub slowing_radius: f32,
    /// Fleers and evaders panic inside this distance, in pixels. 220.
    pub panic_radius: f32,
    /// Wander's angle step, in radians per square-root second. 0.65 gives
    /// about 21° of drift a second at any rate.
    pub wander_rate: f32,
    /// How much a grazer's fleeing counts against its wandering. 3.
    pub graze_flee_weight: f32,
    /// Simulated seconds between two [`Trail`](crate::Trail) samples. 0.05.
    pub trail_interval: f32,
    /// Places a [`Trail`](crate::Trail) keeps. 30.
    pub trail_length: usize,
    /// The rectangle agents wrap around (off one edge, back at the
    /// opposite one), or `None` for an open world. 0..1000 by 0..700, the
    /// chapter's window.
    pub wrap: Option<Rect>,
}

impl Default for SteeringSettings {
    fn default() -> Self {
        let [width, height] = defaults::WORLD_SIZE;
        Self {
            max_speed: defaults::MAX_SPEED,
            max_force: defaults::MAX_FORCE,
            response_time: defaults::RESPONSE_TIME,
            slowing_radius: defaults::SLOWING_RADIUS,
            panic_radius: defaults::PANIC_RADIUS,
            wander_rate: defaults::WANDER_RATE,
            graze_flee_weight: defaults::GRAZE_FLEE_WEIGHT,
            trail_interval: defaults::TRAIL_INTERVAL,
            trail_length: defaults::TRAIL_LENGTH,
            wrap: Some(Rect::new(0.0, 0.0, width, height)),
        }
    }
}

/// One agent's parameters: the global settings with its overrides applied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentParams {
    /// Speed and force limits.
    pub limits: Limits,
    /// Reaction time, in seconds.
    pub response_time: f32,
    /// Arrive's slowing radius, in pixels.
    pub slowing_radius: f32,
    /// Flee's and evade's panic radius, in pixels.
    pub panic_radius: f32,
    /// Wander's angle step, in radians per square-root second.
    pub wander_rate: f32,
}

impl SteeringSettings {
    /// The parameters of an agent with `overrides` (or none).
    #[inline]
    pub fn params(&self, overrides: Option<&SteeringOverride>) -> AgentParams {
        let pick = |over: Option<f32>, global: f32| over.unwrap_or(global);
        let o = overrides.copied().unwrap_or_default();
        AgentParams {
            limits: Limits {
                max_speed: pick(o.max_speed, self.max_speed),
                max_force: pick(o.max_force, self.max_force),
            },
            response_time: pick(o.response_time, self.response_time),
            slowing_radius: pick(o.slowing_radius, self.slowing_radius),
            panic_radius: pick(o.panic_radius, self.panic_radius),
            wander_rate: pick(o.wander_rate, self.wander_rate),
        }
    }

    /// What is wrong with these settings, one line a problem, each naming
    /// the field and what the model does instead. Empty when all is well.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let mut check = |name: &str, value: f32, instead: &str| {
            if !(value.is_finite() && value > 0.0) {
                problems.push(format!(
                    "SteeringSettings.{name} is {value}, but must be positive and finite; {instead}"
                ));
            }
        };
        check("max_speed", self.max_speed, "agents will not move");
        check(
            "max_force",
            self.max_force,
            "agents cannot steer (an infinite force is uncapped)",
        );
        check(
            "response_time",
            self.response_time,
            "agents react as fast as max_force allows (an infinite one never reacts)",
        );
        check(
            "slowing_radius",
            self.slowing_radius,
            "arrivers will seek and overshoot",
        );
        check(
            "panic_radius",
            self.panic_radius,
            "fleers only panic on top of the threat",
        );
        check(
            "trail_interval",
            self.trail_interval,
            "trails sample once a step",
        );
        if !(self.wander_rate.is_finite() && self.wander_rate >= 0.0) {
            problems.push(format!(
                "SteeringSettings.wander_rate is {}, but must be 0 or more and finite; wanderers will not turn",
                self.wander_rate
            ));
        }
        if !(self.graze_flee_weight.is_finite() && self.graze_flee_weight >= 0.0) {
            problems.push(format!(
                "SteeringSettings.graze_flee_weight is {}, but must be 0 or more and finite; grazers will not flee",
                self.graze_flee_weight
            ));
        }
        if let Some(rect) = self.wrap {
            let size = rect.size();
            if !(size.is_finite() && size.x > 0.0 && size.y > 0.0) {
                problems.push(format!(
                    "SteeringSettings.wrap is {rect:?}, which has no area; agents will not wrap on the empty axis"
                ));
            }
        }
        problems
    }
}

impl SteeringOverride {
    /// What is wrong with these overrides, as [`SteeringSettings::problems`].
    pub fn problems(&self) -> Vec<String> {
        let fields = [
            ("max_speed", self.max_speed),
            ("max_force", self.max_force),
            ("response_time", self.response_time),
            ("slowing_radius", self.slowing_radius),
            ("panic_radius", self.panic_radius),
        ];
        let mut problems: Vec<String> = fields
            .into_iter()
            .filter_map(|(name, value)| value.map(|v| (name, v)))
            .filter(|(_, v)| !(v.is_finite() && *v > 0.0))
            .map(|(name, v)| {
                format!("SteeringOverride.{name} is {v}, but must be positive and finite; the model uses a safe value instead")
            })
            .collect();
        if let Some(rate) = self.wander_rate.filter(|r| !(r.is_finite() && *r >= 0.0)) {
            problems.push(format!(
                "SteeringOverride.wander_rate is {rate}, but must be 0 or more and finite; this agent will not turn"
            ));
        }
        problems
    }
}

/// The seed behind every agent's [`WanderRng`](crate::WanderRng), and the
/// count of streams handed out so far. Set by
/// [`SteeringPlugin::seed`](crate::SteeringPlugin::seed).
///
/// Each new agent gets the next stream, so the same seed and the same order
/// of spawns give bit-identical runs, whatever the thread count.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct SteeringSeed {
    /// The seed every stream derives from.
    pub seed: u64,
    /// How many streams have been handed out.
    pub streams: u64,
}

impl SteeringSeed {
    /// A fresh count of streams from `seed`.
    pub fn new(seed: u64) -> Self {
        Self { seed, streams: 0 }
    }

    /// The seed of the next agent's stream.
    pub fn next_stream(&mut self) -> u64 {
        // A golden-ratio step spreads consecutive streams over the seed space.
        let stream = self
            .seed
            .wrapping_add(self.streams.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.streams += 1;
        stream
    }
}
