//! Each agent's [`Transform`] written from its simulated state, on the
//! [`GroundPlane`], interpolated between fixed steps.

use bevy::prelude::*;
use reynolds::math::SteeringVector;

use super::components::{AgentHeading, AgentPosition, AgentPreviousPosition, SteeringAgent};
use super::ground::{GroundPlane, InterpolateTransforms, Writeback};
use crate::parallel::{CHEAP, for_each};

/// Writes each agent's [`Transform`] from its simulated state, once a frame
/// after the fixed steps: the position interpolated between the last two
/// steps by how far the frame is into the next one, and the rotation from
/// its heading.
pub(crate) fn sync_transforms(
    interpolate: Res<InterpolateTransforms>,
    ground: Res<GroundPlane>,
    writeback: Res<Writeback>,
    fixed: Res<Time<Fixed>>,
    mut agents: Query<
        (
            &AgentPosition,
            &AgentPreviousPosition,
            &AgentHeading,
            &mut Transform,
        ),
        With<SteeringAgent>,
    >,
) {
    if *writeback != Writeback::Transform {
        return;
    }
    let ground = *ground;
    let alpha = interpolation(&interpolate, &fixed);
    for_each(
        CHEAP,
        &mut agents,
        |(pos, previous, heading, mut transform)| {
            let drawn = drawn_at(previous.0, pos.0, alpha);
            // A position set to NaN by other code is not drawn until a step
            // has made it finite again.
            if drawn.is_finite() {
                transform.translation = ground.place(drawn, transform.translation);
            }
            transform.rotation = ground.rotation(heading.0);
        },
    );
}

/// How far between the last two steps agents are drawn: how far the frame
/// is into the next fixed step, or at the last step outside the fixed loop.
pub(crate) fn interpolation(interpolate: &InterpolateTransforms, fixed: &Time<Fixed>) -> f32 {
    if interpolate.0 {
        fixed.overstep_fraction().clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// Where an agent is drawn, `alpha` of the way from `previous` to `pos`.
/// Not `lerp`, whose `a * (1 - t) + b * t` draws a still agent a rounding
/// error off where it is, a different one each frame.
#[inline]
pub(crate) fn drawn_at<V: SteeringVector>(previous: V, pos: V, alpha: f32) -> V {
    if alpha >= 1.0 {
        pos
    } else {
        previous + (pos - previous) * alpha
    }
}
