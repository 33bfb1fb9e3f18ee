//! Global defaults, and the seed behind every agent's random numbers.

use bevy::prelude::*;
use reynolds::defaults;

use super::params::SteeringParams;

/// The seed [`SteeringPlugins`](crate::SteeringPlugins) uses unless told
/// otherwise, so runs are reproducible by default.
pub const DEFAULT_SEED: u64 = 0x5EED_0000_C217_7E25;

/// The global steering settings: every agent's default parameters, and
/// what belongs to the world (its wrap rectangle, the trails' clock, the
/// neighbor grid).
///
/// The defaults are a game's: the model's agents in an open world.
/// [`SteeringSettings::critters`] is the Critters demo, whose agents wrap
/// round its 1000 × 700 window.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
/// let mut settings = SteeringSettings::default();
/// settings.agent.response_time = 1.0; // every agent without its own
/// settings.wrap = Some(Rect::new(-500.0, -350.0, 500.0, 350.0)); // round the screen
/// ```
///
/// Changes take effect on the next fixed step, for every agent that has
/// not set its own value in its [`SteeringParams`]. Values that make no
/// sense (zero, negative, NaN or infinite where they must be positive)
/// never panic and never put a NaN into the world: the model uses a safe
/// value instead, and a warning says which field and what is used.
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct SteeringSettings {
    /// Every agent's parameters, unless its own [`SteeringParams`] say
    /// otherwise. The defaults are the model's.
    pub agent: SteeringParams,
    /// Simulated seconds between two [`AgentTrail`](crate::AgentTrail) samples. 0.05.
    pub trail_interval: f32,
    /// Places a [`AgentTrail`](crate::AgentTrail) keeps. 30.
    pub trail_length: usize,
    /// The rectangle agents wrap around (off one edge, back at the
    /// opposite one), or `None` (the default) for an open world.
    pub wrap: Option<Rect>,
    /// Keep the [`NeighborGrid`](crate::NeighborGrid) with cells of this
    /// size even when no agent flocks, for your own queries. `None` (the
    /// default): the grid is rebuilt only while some agent flocks, sized for
    /// the flockers.
    pub neighbor_grid: Option<f32>,
}

impl Default for SteeringSettings {
    fn default() -> Self {
        Self {
            agent: SteeringParams::default(),
            trail_interval: defaults::TRAIL_INTERVAL,
            trail_length: defaults::TRAIL_LENGTH,
            wrap: None,
            neighbor_grid: None,
        }
    }
}

impl SteeringSettings {
    /// The model's Critters: the defaults, in a world that wraps round its
    /// 1000 × 700 window (0..1000, 0..700, y up).
    pub fn critters() -> Self {
        let [width, height] = defaults::WORLD_SIZE;
        Self {
            wrap: Some(Rect::new(0.0, 0.0, width, height)),
            ..default()
        }
    }

    /// The defaults for a game with `units_per_metre` of its units to a
    /// metre (see [`SteeringLengthUnit`](crate::SteeringLengthUnit)):
    /// speeds, forces and radii scaled, times and weights as they are.
    pub fn with_length_unit(units_per_metre: f32) -> Self {
        Self {
            agent: SteeringParams::default()
                .scaled(super::ground::SteeringLengthUnit(units_per_metre).scale()),
            ..default()
        }
    }

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
        if let Some(cell) = self.neighbor_grid
            && !(cell.is_finite() && cell > 0.0)
        {
            problems.push(format!(
                "SteeringSettings.neighbor_grid is Some({cell}), but a cell must be positive and finite; cells of 1 are used"
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
/// [`SteeringPlugins::with_seed`](crate::SteeringPlugins::with_seed).
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

/// Logs every problem of the settings once, when they change.
pub(crate) fn validate_settings(settings: Res<SteeringSettings>) {
    if settings.is_changed() {
        for problem in settings.problems() {
            warn!("{problem}");
        }
    }
}
