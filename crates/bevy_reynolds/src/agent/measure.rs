//! Measured velocities: for targets that other code moves (the mouse, a
//! player), so pursuers and evaders can lead them.

use bevy::prelude::*;
use reynolds::defaults::MEASURE_HALF_LIFE;
use reynolds::measure::measured_velocity;

use super::components::AgentPosition;
use super::ground::GroundPlane;
use crate::math::Vector;

/// A velocity measured from how an entity's position changes each step,
/// for targets moved by other code (the mouse, a player). Pursuers and
/// evaders use it when the target has no [`AgentVelocity`](super::components::AgentVelocity).
///
/// The measurement is smoothed with a half-life (the model's 0.1 s), so
/// one jerky frame does not throw pursuers off.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct MeasuredVelocity {
    /// The smoothed velocity, in pixels a second.
    pub velocity: Vector,
    /// The smoothing half-life, in seconds; 0 does not smooth.
    pub half_life: f32,
    /// Where the entity was at the last measurement.
    pub last_position: Option<Vector>,
}

impl Default for MeasuredVelocity {
    fn default() -> Self {
        Self {
            velocity: Vector::ZERO,
            half_life: MEASURE_HALF_LIFE,
            last_position: None,
        }
    }
}

/// Measures the velocity of every entity with a [`MeasuredVelocity`].
pub(crate) fn measure_velocities(
    time: Res<Time>,
    ground: Res<GroundPlane>,
    mut measured: Query<(
        &mut MeasuredVelocity,
        Option<&AgentPosition>,
        Option<&GlobalTransform>,
    )>,
) {
    let dt = time.delta_secs();
    for (mut measured, position, global) in &mut measured {
        let Some(pos) = position
            .map(|p| p.0)
            .or_else(|| global.map(|g| ground.to_ground(g.translation())))
        else {
            continue;
        };
        let last = measured.last_position.unwrap_or(pos);
        // As the model does, no division when no time has passed; the
        // position is kept for the next measurement either way.
        measured.velocity = measured_velocity(measured.velocity, last, pos, dt, measured.half_life);
        measured.last_position = Some(pos);
    }
}
