//! Hide: from a hunter, behind the nearest obstacle that covers the agent.

use bevy::prelude::*;
use reynolds::behaviors::{arrive, flee, hiding_spot};
use reynolds::math::sanitize_limit;

use super::containment::Containment;
use super::obstacles::ObstacleIndex;
use crate::agent::{
    AgentPosition, AgentVelocity, GroundPlane, SteeringAccumulator, SteeringAgent, SteeringParams,
    SteeringPriority, SteeringTarget, entity_on_ground,
};
use crate::math::Vector;

/// Hides from a hunter behind the level's [`SteeringObstacle`](super::SteeringObstacle)s:
/// each step it takes the nearest spot on the far side of an obstacle, seen
/// from the hunter ([`hiding_spot`]), and arrives there, so it stays
/// hidden as the hunter moves. With no obstacle within `reach`, or none
/// whose spot is free and inside its [`Containment`], it flees. Its
/// steering goes into [`SteeringPriority::Normal`], with the agent's
/// [`SteeringBehavior`](crate::SteeringBehavior) if it has one (give it none, or
/// `SteeringBehavior::Idle`, to only hide).
///
/// An obstacle covers the agent by its middle (the mean of its corners):
/// rocks, walls and convex blocks do; hollow or hooked polygons may not.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_reynolds::prelude::*;
///
/// # let mut app = App::new();
/// # app.add_plugins((MinimalPlugins, SteeringPlugins::default()));
/// # let world = app.world_mut();
/// world.spawn((SteeringObstacle::circle(40.0), AgentPosition::new(300.0, 200.0)));
/// let hunter = world.spawn((SteeringAgent, AgentPosition::new(100.0, 200.0))).id();
/// // Behind any obstacle within 300 px of it, else away from the hunter.
/// let hider = world
///     .spawn((Hide::from(hunter).within(300.0), AgentPosition::new(200.0, 400.0)))
///     .id();
/// # use bevy::time::TimeUpdateStrategy;
/// # app.insert_resource(TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(1.0 / 64.0)));
/// # for _ in 0..64 * 10 { app.update(); }
/// # let at = app.world().get::<AgentPosition>(hider).unwrap().0;
/// # // The rock between the hunter and the hider.
/// # assert!((at - Vec2::new(100.0, 200.0)).normalize().dot(Vec2::X) > 0.98 && at.x > 340.0, "{at}");
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringAgent)]
pub struct Hide {
    /// Whom it hides from.
    pub hunter: SteeringTarget,
    /// How far from the agent an obstacle may be to hide behind, in world
    /// units (infinite by default: any).
    pub reach: f32,
    /// The obstacle it hides behind now, `None` while it flees (the
    /// plugin writes it).
    pub cover: Option<Entity>,
    /// Where it hides now (the plugin writes it).
    pub spot: Vector,
}

impl Hide {
    /// Hides from `hunter`, an entity or a point, behind any obstacle.
    pub fn from(hunter: impl Into<SteeringTarget>) -> Self {
        Self {
            hunter: hunter.into(),
            reach: f32::INFINITY,
            cover: None,
            spot: Vector::ZERO,
        }
    }

    /// Only behind obstacles within `reach` of it.
    pub fn within(mut self, reach: f32) -> Self {
        self.reach = reach;
        self
    }
}

/// Part of [`SteeringSystems::Behaviors`](crate::SteeringSystems::Behaviors),
/// after path following: each hider heads for its hiding spot.
pub(super) fn hide(
    ground: Res<GroundPlane>,
    index: Res<ObstacleIndex>,
    hunters: Query<(Option<&AgentPosition>, Option<&GlobalTransform>)>,
    mut hiders: Query<
        (
            Entity,
            &AgentPosition,
            &AgentVelocity,
            &SteeringParams,
            &mut Hide,
            Option<&Containment>,
            &mut SteeringAccumulator,
        ),
        With<SteeringAgent>,
    >,
) {
    for (entity, pos, vel, params, mut hide, containment, mut steering) in &mut hiders {
        let (pos, vel) = (pos.0, vel.0);
        let hunter = match hide.hunter {
            SteeringTarget::Point(point) => point,
            SteeringTarget::Entity(hunter) => match entity_on_ground(hunter, *ground, &hunters) {
                Some(p) => p,
                None => {
                    warn_once!(
                        "agent {entity} hides from an entity that no longer exists \
                         (or has no Position or GlobalTransform); it does not hide"
                    );
                    continue;
                }
            },
        };
        let body = sanitize_limit(params.radius) + sanitize_limit(params.clearance);
        let reach = sanitize_limit(hide.reach);
        let free = |spot: Vector| {
            let mut free = containment.is_none_or(|area| area.contains(spot));
            index.for_each_near(spot, body, |near| {
                free &= near.shape.distance(spot) >= body;
            });
            free
        };
        let mut best: Option<(Entity, Vector, f32)> = None;
        for cover in index.covers() {
            if pos.distance(cover.center) - cover.radius > reach {
                continue;
            }
            let spot = hiding_spot(hunter, cover.center, cover.radius, 2.0 * body);
            let distance = pos.distance(spot);
            if best.is_none_or(|(_, _, nearest)| distance < nearest) && free(spot) {
                best = Some((cover.obstacle, spot, distance));
            }
        }
        let desired = match best {
            Some((_, spot, _)) => arrive(pos, spot, params.max_speed, params.slowing_radius),
            None => flee(pos, vel, hunter, params.max_speed, params.panic_radius),
        };
        let (cover, spot) = best.map_or((None, pos), |(cover, spot, _)| (Some(cover), spot));
        if hide.cover != cover || hide.spot != spot {
            hide.cover = cover;
            hide.spot = spot;
        }
        steering.add_desired(
            SteeringPriority::Normal,
            1.0,
            desired,
            vel,
            params.response_time,
        );
    }
}
