//! Static avian colliders as obstacles: each collider's shape as the
//! obstacles it is, children of its entity.

use avian2d::parry::math::Pose;
use avian2d::parry::shape::{Shape, TypedShape};
use avian2d::prelude::{Collider, ColliderOf, RigidBody, Sensor};
use bevy::prelude::*;

use super::{ColliderObstacle, UnsupportedShape};
use crate::agent::SteeringAgent;
use crate::level::SteeringObstacle;
use crate::math::Vector;

/// Sides of each of a capsule's round ends.
const CAP_SIDES: usize = 8;

/// A collider's shape as obstacles, in the collider's own frame: each with
/// the point it is placed at (a circle's centre; the others' points are
/// given from the collider's origin, at zero). `Err` names a shape that is
/// no obstacle: meshes, height fields, half-planes, rounded shapes.
///
/// ```
/// # use avian2d::prelude::Collider;
/// # use bevy::prelude::*;
/// # use bevy_reynolds::{SteeringObstacle, physics::obstacles_of};
/// let wall = obstacles_of(&Collider::segment(Vec2::ZERO, Vec2::new(0.0, 100.0))).unwrap();
/// assert_eq!(wall, [(Vec2::ZERO, SteeringObstacle::wall(Vec2::ZERO, Vec2::new(0.0, 100.0)))]);
/// ```
pub fn obstacles_of(
    collider: &Collider,
) -> Result<Vec<(Vector, SteeringObstacle)>, UnsupportedShape> {
    let mut obstacles = Vec::new();
    shape_obstacles(collider.shape().as_ref(), Pose::IDENTITY, &mut obstacles)?;
    Ok(obstacles)
}

/// `shape`, placed by `pose` in the collider's frame, as obstacles.
fn shape_obstacles(
    shape: &dyn Shape,
    pose: Pose,
    obstacles: &mut Vec<(Vector, SteeringObstacle)>,
) -> Result<(), UnsupportedShape> {
    let polygon = |points: &mut dyn Iterator<Item = Vector>| {
        (
            Vector::ZERO,
            SteeringObstacle::polygon(points.map(|p| pose * p)),
        )
    };
    match shape.as_typed_shape() {
        TypedShape::Ball(ball) => {
            obstacles.push((pose * Vector::ZERO, SteeringObstacle::circle(ball.radius)))
        }
        TypedShape::Cuboid(cuboid) => {
            let h = cuboid.half_extents;
            let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
            obstacles.push(polygon(
                &mut corners
                    .into_iter()
                    .map(|(x, y)| Vector::new(x * h.x, y * h.y)),
            ));
        }
        TypedShape::Capsule(capsule) => {
            let (a, b, radius) = (capsule.segment.a, capsule.segment.b, capsule.radius);
            if a == b {
                obstacles.push((pose * a, SteeringObstacle::circle(radius)));
            } else {
                obstacles.push(polygon(&mut stadium(a, b, radius)));
            }
        }
        TypedShape::Segment(segment) => {
            obstacles.push((
                Vector::ZERO,
                SteeringObstacle::wall(pose * segment.a, pose * segment.b),
            ));
        }
        TypedShape::Triangle(triangle) => {
            obstacles.push(polygon(&mut triangle.vertices().iter().copied()));
        }
        TypedShape::ConvexPolygon(convex) => {
            obstacles.push(polygon(&mut convex.points().iter().copied()));
        }
        TypedShape::Polyline(polyline) => {
            for segment in polyline.segments() {
                obstacles.push((
                    Vector::ZERO,
                    SteeringObstacle::wall(pose * segment.a, pose * segment.b),
                ));
            }
        }
        TypedShape::Compound(compound) => {
            for (part_pose, part) in compound.shapes() {
                shape_obstacles(part.as_ref(), pose * *part_pose, obstacles)?;
            }
        }
        _ => {
            return Err(UnsupportedShape {
                shape: format!("{:?}", shape.shape_type()),
            });
        }
    }
    Ok(())
}

/// The polygon round a capsule from `a` to `b`: each round end as
/// [`CAP_SIDES`] sides whose middles touch it (so it is nowhere inside).
fn stadium(a: Vector, b: Vector, radius: f32) -> impl Iterator<Item = Vector> {
    let along = (b - a).normalize();
    let out = radius / (std::f32::consts::PI / (2.0 * CAP_SIDES as f32)).cos();
    let cap = move |end: Vector, facing: Vector| {
        (0..=CAP_SIDES).map(move |k| {
            let turn =
                -std::f32::consts::FRAC_PI_2 + std::f32::consts::PI * k as f32 / CAP_SIDES as f32;
            end + Vector::from_angle(turn).rotate(facing) * out
        })
    };
    cap(b, along).chain(cap(a, -along))
}

/// Before [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// the obstacles of each collider added or changed, if it does not move
/// on its own, made again as its children; those of a collider removed,
/// gone.
#[allow(clippy::type_complexity)]
pub(super) fn colliders_to_obstacles(
    changed: Query<
        (
            Entity,
            &Collider,
            Option<&ColliderOf>,
            Option<&Children>,
            Option<&ChildOf>,
            Option<&Transform>,
            Option<&GlobalTransform>,
        ),
        (Changed<Collider>, Without<SteeringAgent>, Without<Sensor>),
    >,
    bodies: Query<&RigidBody>,
    children: Query<&Children>,
    made: Query<(), With<ColliderObstacle>>,
    mut removed: RemovedComponents<Collider>,
    mut commands: Commands,
) {
    let unmake = |kids: Option<&Children>, commands: &mut Commands| {
        for kid in kids.into_iter().flatten() {
            if made.contains(*kid) {
                commands.entity(*kid).despawn();
            }
        }
    };
    for entity in removed.read() {
        if let Ok(kids) = children.get(entity) {
            unmake(Some(kids), &mut commands);
        }
    }
    for (entity, collider, of, kids, parent, transform, global) in &changed {
        unmake(kids, &mut commands);
        let body = of.map_or(entity, |of| of.body);
        if bodies
            .get(body)
            .is_ok_and(|body| *body != RigidBody::Static)
        {
            continue;
        }
        let obstacles = match obstacles_of(collider) {
            Ok(obstacles) => obstacles,
            Err(shape) => {
                warn_once!(
                    "collider {entity} is a {}, which is no obstacle the agents can see: skipped (circles, rectangles, capsules, segments, triangles, convex polygons, polylines and compounds of them are)",
                    shape.shape
                );
                continue;
            }
        };
        // Where the collider is now: its transform, if it has no parent
        // (its global transform is made after the step).
        let here = match (parent, transform, global) {
            (None, Some(transform), _) => GlobalTransform::from(*transform),
            (_, _, Some(global)) => *global,
            _ => GlobalTransform::IDENTITY,
        };
        // The children take the collider's scale, which moves their points
        // (corners, ends, centres) as avian scales the shape; a circle's
        // radius is the level's own length, so it is scaled here: by the
        // larger of the two, round a ball stretched one way (avian makes
        // it an ellipse). Avian changes the collider when the scale
        // changes, so this is made again then.
        let stretch = here.scale().truncate().abs().max_element();
        for (at, mut obstacle) in obstacles {
            if let SteeringObstacle::Circle { radius } = &mut obstacle {
                *radius *= stretch;
            }
            let transform = Transform::from_translation(at.extend(0.0));
            commands.spawn((
                ColliderObstacle,
                obstacle,
                transform,
                here.mul_transform(transform),
                ChildOf(entity),
            ));
        }
    }
}
