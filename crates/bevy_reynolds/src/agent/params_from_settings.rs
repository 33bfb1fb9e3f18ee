//! How every agent's [`SteeringParams`] follows the global defaults in
//! [`SteeringSettings::agent`]: filled when inserted, moved along when the
//! settings change, and its own problems reported.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

use super::params::SteeringParams;
use super::settings::SteeringSettings;
use crate::parallel::{CHEAP, for_each};

/// A [`SteeringParams`] just inserted: each field left at the model's
/// default takes the settings' value.
pub(super) fn follow_settings(mut world: DeferredWorld, ctx: HookContext) {
    let Some(settings) = world.get_resource::<SteeringSettings>().map(|s| s.agent) else {
        return;
    };
    if let Some(mut params) = world.get_mut::<SteeringParams>(ctx.entity) {
        let mut followed = *params;
        if followed.follow(&SteeringParams::default(), &settings) {
            *params = followed;
        }
    }
}

/// The defaults the agents' [`SteeringParams`] last followed: what a field
/// must still hold to follow the next change of the settings.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Deref)]
pub(crate) struct FollowedDefaults(pub(crate) SteeringParams);

/// When the settings' defaults change, every agent's fields still at the
/// old value take the new one.
pub(crate) fn follow_defaults(
    settings: Res<SteeringSettings>,
    mut followed: ResMut<FollowedDefaults>,
    mut agents: Query<&mut SteeringParams>,
) {
    let (was, now) = (followed.0, settings.agent);
    if was == now {
        return;
    }
    followed.0 = now;
    for_each(CHEAP, &mut agents, |mut params| {
        let mut own = *params;
        if own.follow(&was, &now) {
            *params = own;
        }
    });
}

/// Logs every problem of an agent's own parameters once, when they change
/// (the settings' are logged by [`validate_settings`](super::settings::validate_settings)).
pub(crate) fn validate_params(
    settings: Res<SteeringSettings>,
    agents: Query<(Entity, &SteeringParams), Changed<SteeringParams>>,
) {
    let owner = "SteeringParams";
    let mut theirs = None;
    for (entity, params) in &agents {
        if *params == settings.agent {
            continue;
        }
        let theirs = theirs.get_or_insert_with(|| settings.agent.problems(owner));
        for problem in params.problems(owner) {
            if !theirs.contains(&problem) {
                warn!("agent {entity}: {problem}");
            }
        }
    }
}
