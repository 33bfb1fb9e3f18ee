//! Trails: the last places an agent has been, sampled on one clock for
//! every agent.

use std::collections::VecDeque;

use bevy::prelude::*;
use reynolds::math::sanitize_dt;

use super::components::AgentPosition;
use super::settings::SteeringSettings;
use crate::math::Vector;
use crate::parallel::{CHEAP, for_each};

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
pub struct AgentTrail {
    /// The places, oldest first.
    pub points: VecDeque<Vector>,
}

/// The clock every [`AgentTrail`] samples by: all trails add a point on the same
/// step, so on the steps between, the trail stage touches no agent.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct TrailClock {
    /// Simulated seconds since the trails last sampled.
    pub since_last_sample: f32,
}

/// Part of [`SteeringSystems::Writeback`](crate::SteeringSystems::Writeback):
/// every `trail_interval` seconds of simulated time, by one [`TrailClock`], each
/// trail adds where its agent is, keeping the last `trail_length` places.
pub(crate) fn sample_trails(
    settings: Res<SteeringSettings>,
    time: Res<Time>,
    mut clock: ResMut<TrailClock>,
    mut trails: Query<(&AgentPosition, &mut AgentTrail)>,
) {
    let dt = sanitize_dt(time.delta_secs());
    let interval = settings.trail_interval;
    clock.since_last_sample += dt;
    if interval.is_finite() && interval > 0.0 {
        if clock.since_last_sample < interval {
            return;
        }
        clock.since_last_sample -= interval;
        // After a long pause, do not try to catch up sample by sample.
        clock.since_last_sample = clock.since_last_sample.min(interval);
    } else {
        // A bad interval samples once a step rather than never or forever.
        clock.since_last_sample = 0.0;
    }
    let length = settings.trail_length;
    for_each(CHEAP, &mut trails, |(pos, mut trail)| {
        if length == 0 {
            if !trail.points.is_empty() {
                trail.points.clear();
            }
            return;
        }
        while trail.points.len() >= length {
            trail.points.pop_front();
        }
        trail.points.push_back(pos.0);
    });
}
