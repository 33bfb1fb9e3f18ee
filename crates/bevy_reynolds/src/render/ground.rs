//! The debug view on the XZ ground (3D games, [`GroundPlane::Xz`]): the
//! scene drawn with gizmos where the agents walk, at
//! [`DebugDraw::ground_height`]. Bodies are the game's own meshes, so none
//! are drawn here; the radii are circles on the ground.

use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;

use super::scene::{ArrowScene, Canvas, LevelScene, TrailScene};
use super::{DebugDraw, ShowRadii};
use crate::agent::{GroundPlane, SteeringSettings};

/// The gizmos the debug view draws with on the XZ ground: their line width
/// and depth bias are set in Bevy's [`GizmoConfigStore`].
#[derive(Default, Reflect, GizmoConfigGroup)]
#[reflect(Default)]
pub struct SteeringGizmos;

/// The ground view's systems, in `PostUpdate`.
pub(super) fn add_systems<M>(app: &mut App, when: impl SystemCondition<M>) {
    app.init_gizmo_group::<SteeringGizmos>();
    // Lines on the ground itself would flicker in and out of it.
    if let Some(mut store) = app.world_mut().get_resource_mut::<GizmoConfigStore>() {
        store.config_mut::<SteeringGizmos>().0.depth_bias = -0.01;
    }
    app.add_systems(
        PostUpdate,
        (draw_scene, draw_radii)
            .run_if(when)
            .before(bevy::transform::TransformSystems::Propagate),
    );
}

/// Gizmos on the ground at one height: a point `(x, y)` of the simulation
/// is `(x, height, y)` of the world.
struct GroundPen<'a, 'w, 's> {
    gizmos: &'a mut Gizmos<'w, 's, SteeringGizmos>,
    height: f32,
}

impl GroundPen<'_, '_, '_> {
    fn line(&mut self, a: Vec2, b: Vec2, color: LinearRgba) {
        let h = self.height;
        self.gizmos
            .line(Vec3::new(a.x, h, a.y), Vec3::new(b.x, h, b.y), color);
    }
}

/// Gizmo lines are as wide on screen whatever their length: widths are
/// the gizmo group's, not the scene's.
impl Canvas for GroundPen<'_, '_, '_> {
    fn line(&mut self, a: Vec2, b: Vec2, _width: f32, color: LinearRgba) {
        if a.is_finite() && b.is_finite() {
            GroundPen::line(self, a, b, color);
        }
    }

    fn arrow(&mut self, from: Vec2, to: Vec2, _width: f32, color: LinearRgba) {
        let along = to - from;
        let length = along.length();
        if !(from.is_finite() && length.is_finite() && length > 0.0) {
            return;
        }
        // A head a fifth of the arrow, flat on the ground.
        let back = along * -0.2;
        let side = back.perp() * 0.5;
        GroundPen::line(self, from, to, color);
        GroundPen::line(self, to, to + back + side, color);
        GroundPen::line(self, to, to + back - side, color);
    }

    fn disc(&mut self, center: Vec2, radius: f32, segments: u32, color: LinearRgba) {
        if !(center.is_finite() && radius.is_finite() && radius > 0.0) {
            return;
        }
        // A circle gizmo lies in its isometry's XY plane: turned a quarter
        // about x, y becomes z, and it lies on the ground.
        let at = Vec3::new(center.x, self.height, center.y);
        let on_ground = Isometry3d::new(at, Quat::from_rotation_x(FRAC_PI_2));
        self.gizmos
            .circle(on_ground, radius, color)
            .resolution(segments);
    }

    fn trail<'a>(
        &mut self,
        points: impl Iterator<Item = &'a Vec2>,
        _radius: f32,
        color: LinearRgba,
    ) {
        let height = self.height;
        let points = points
            .filter(|p| p.is_finite())
            .map(|p| Vec3::new(p.x, height, p.y));
        self.gizmos.linestrip(points, color);
    }
}

fn draw_scene(
    level: LevelScene,
    arrows: ArrowScene,
    trails: TrailScene,
    mut gizmos: Gizmos<SteeringGizmos>,
    mut drawn: Local<Vec<usize>>,
) {
    let height = level_height(&arrows.draw);
    let mut pen = GroundPen {
        gizmos: &mut gizmos,
        height,
    };
    level.paint(&mut pen, &mut drawn);
    trails.paint(&mut pen);
    if arrows.shown() {
        arrows.paint(&mut pen);
    }
}

fn level_height(draw: &DebugDraw) -> f32 {
    if draw.ground_height.is_finite() {
        draw.ground_height
    } else {
        0.0
    }
}

/// The slowing and panic circles round each [`ShowRadii`] entity, on the
/// ground under it.
fn draw_radii(
    draw: Res<DebugDraw>,
    settings: Res<SteeringSettings>,
    targets: Query<&GlobalTransform, With<ShowRadii>>,
    mut gizmos: Gizmos<SteeringGizmos>,
) {
    if !draw.radii {
        return;
    }
    let mut pen = GroundPen {
        gizmos: &mut gizmos,
        height: level_height(&draw),
    };
    let color = draw.radii_color.to_linear();
    for transform in &targets {
        let center = GroundPlane::Xz.to_ground(transform.translation());
        for radius in [settings.agent.slowing_radius, settings.agent.panic_radius] {
            pen.disc(center, radius, 48, color);
        }
    }
}
