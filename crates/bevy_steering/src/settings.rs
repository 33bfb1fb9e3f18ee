//! Global defaults, and the seed behind every agent's random numbers.

use bevy::prelude::*;
use steering_core::defaults;

use crate::params::SteeringParams;

/// The global steering settings: every agent's default parameters, and
/// what belongs to the world (its wrap rectangle, the trails' clock).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_steering::prelude::*;
/// let mut settings = SteeringSettings::default();
/// settings.agent.response_time = 1.0; // every agent without its own
/// settings.wrap = None; // an open world
/// ```
///
/// Changes take effect on the next fixed step, for every agent that has
/// not set its own value in a [`SteeringOverride`](crate::SteeringOverride). Values that make no
/// sense (zero, negative, NaN or infinite where they must be positive)
/// never panic and never put a NaN into the world: the model uses a safe
/// value instead, and a warning says which field and what is used.
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct SteeringSettings {
    /// Every agent's parameters, unless its [`SteeringOverride`](crate::SteeringOverride) says
    /// otherwise. The defaults are the chapter's.
    pub agent: SteeringParams,
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
            agent: SteeringParams::default(),
            trail_interval: defaults::TRAIL_INTERVAL,
            trail_length: defaults::TRAIL_LENGTH,
            wrap: Some(Rect::new(0.0, 0.0, width, height)),
        }
    }
}

impl SteeringSettings {
    /// What is wrong with these settings, one line a problem, each naming
    /// the field and what the model does instead. Empty when all is well.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = self.agent.problems("SteeringSettings.agent");
        if !(self.trail_interval.is_finite() && self.trail_interval > 0.0) {
            problems.push(format!(
                "SteeringSettings.trail_interval is {}, but must be positive and finite; trails sample once a step",
                self.trail_interval
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
