//! The debug view of flyers, in 3D with gizmos wherever they fly: each
//! flyer's velocity as an arrow and its up as a short line (how it banks),
//! and the point each pursuer, and each evader within its panic radius,
//! looks ahead to (where it expects its target to be). Their bodies are
//! the game's own meshes.

use bevy::prelude::*;
use reynolds::behaviors::predicted_position;

use super::ground::SteeringGizmos;
use super::{AgentColor, DebugDraw};
use crate::agent::{FlyerBehavior, FlyerTarget, SteeringLengthUnit, SteeringParams};
use crate::flight::{FlyerAttitude, FlyerPosition, FlyerVelocity, SteeringFlyer};

/// The flyers' view, in `PostUpdate`, where any flyer is.
pub(super) fn add_systems(app: &mut App) {
    app.add_systems(
        PostUpdate,
        draw_flyers
            .run_if(any_with_component::<SteeringFlyer>)
            .after(bevy::transform::TransformSystems::Propagate),
    );
}

type Flyers<'w, 's> = Query<
    'w,
    's,
    (
        &'static GlobalTransform,
        &'static FlyerVelocity,
        &'static FlyerAttitude,
        &'static FlyerPosition,
        &'static FlyerBehavior,
        &'static SteeringParams,
        Option<&'static AgentColor>,
    ),
    With<SteeringFlyer>,
>;

fn draw_flyers(
    draw: Res<DebugDraw>,
    unit: Option<Res<SteeringLengthUnit>>,
    flyers: Flyers,
    targets: Query<(&FlyerPosition, &FlyerVelocity)>,
    mut gizmos: Gizmos<SteeringGizmos>,
) {
    if !(draw.velocity || draw.look_ahead) {
        return;
    }
    // A flyer's up drawn 10 px long, in the game's units.
    let up_length = 10.0 * unit.map_or(1.0, |u| u.scale());
    let seconds = draw.arrow_seconds;
    for (transform, vel, attitude, pos, behavior, params, color) in &flyers {
        let color = color.copied().unwrap_or_default().0;
        // Where the flyer is drawn (its interpolated transform).
        let at = transform.translation();
        if !at.is_finite() {
            continue;
        }
        if draw.velocity {
            let to = at + vel.0 * seconds;
            if to.is_finite() && to != at {
                gizmos.arrow(at, to, color);
            }
            let up = at + attitude.up * up_length;
            if up.is_finite() {
                gizmos.line(at, up, color.with_alpha(0.6));
            }
        }
        if draw.look_ahead
            && let Some((target, evading)) = chased(behavior)
        {
            let (there, moving) = match target {
                FlyerTarget::Point(p) => (p, Vec3::ZERO),
                FlyerTarget::Entity(e) => match targets.get(e) {
                    Ok((p, v)) => (p.0, v.0),
                    Err(_) => continue,
                },
            };
            let ahead = predicted_position(pos.0, there, moving, params.max_speed);
            // An evader only while its threat is close enough to flee.
            if evading && ahead.distance(pos.0) > params.panic_radius {
                continue;
            }
            // Drawn from where the flyer is drawn.
            let ahead = at + (ahead - pos.0);
            if ahead.is_finite() {
                gizmos.line(at, ahead, draw.radii_color.with_alpha(0.5));
            }
        }
    }
}

/// The target a flyer pursues or evades (the first in a blend), and
/// whether it evades it.
fn chased(behavior: &FlyerBehavior) -> Option<(FlyerTarget, bool)> {
    match behavior {
        FlyerBehavior::Pursue(target) => Some((*target, false)),
        FlyerBehavior::Evade(target) => Some((*target, true)),
        FlyerBehavior::Blend(parts) => parts.iter().find_map(|part| chased(&part.behavior)),
        _ => None,
    }
}
