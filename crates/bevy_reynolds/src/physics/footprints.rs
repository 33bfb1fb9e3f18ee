//! Static avian3d colliders as obstacles on the ground: each collider's
//! footprint, where it stands in the agents' way.

use avian3d::parry::math::Pose;
use avian3d::parry::shape::{Shape, SupportMap, TypedShape};
use avian3d::prelude::{Collider, ColliderOf, RigidBody, Sensor};
use bevy::prelude::*;
use geo::{Area, ConvexHull, Coord, MultiPoint, Point};

use super::{ColliderObstacle, UnsupportedShape};
use crate::agent::{AgentPosition, GroundPlane, SteeringAgent, SteeringLengthUnit};
use crate::level::SteeringObstacle;
use crate::math::Vector;

/// Where a static collider is in the agents' way: between `step` and
/// `head` above `ground` (heights along the [`GroundPlane`]'s up axis, in
/// the game's units). A collider, or a compound's part, that reaches no
/// higher than `ground + step` is a floor or a kerb they walk over; one
/// that reaches no lower than `ground + head` a ceiling, a bridge, a sign
/// they walk under; neither is an obstacle.
///
/// By default, the ground at 0, a step of 12 and a head of 80 of the
/// model's pixels scaled by the [`SteeringLengthUnit`] (at 1, a metre
/// world's: 0.3 m and 2 m).
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Resource, Debug, PartialEq)]
pub struct ObstacleHeights {
    /// The height of the ground the agents walk on.
    pub ground: f32,
    /// How high above the ground a collider may reach and still be walked
    /// over.
    pub step: f32,
    /// How high above the ground a collider may begin and still be walked
    /// under.
    pub head: f32,
}

impl ObstacleHeights {
    /// The heights for a world of `units_per_metre` (its
    /// [`SteeringLengthUnit`]).
    pub fn with_length_unit(units_per_metre: f32) -> Self {
        let unit = SteeringLengthUnit(units_per_metre).scale();
        Self {
            ground: 0.0,
            step: 12.0 * unit,
            head: 80.0 * unit,
        }
    }

    /// What is wrong with these heights, if anything: each must be finite,
    /// and the step below the head.
    pub fn problem(&self) -> Option<String> {
        let fields = [
            ("ground", self.ground),
            ("step", self.step),
            ("head", self.head),
        ];
        if let Some((name, value)) = fields.iter().find(|(_, v)| !v.is_finite()) {
            return Some(format!(
                "ObstacleHeights::{name} is {value}; it must be finite"
            ));
        }
        (self.step >= self.head).then(|| {
            format!(
                "ObstacleHeights::step ({}) is not below ObstacleHeights::head ({}): no collider can stand between them",
                self.step, self.head
            )
        })
    }

    /// Whether something from `low` to `high` stands in the agents' way.
    fn blocks(&self, low: f32, high: f32) -> bool {
        high > self.ground + self.step && low < self.ground + self.head
    }
}

impl FromWorld for ObstacleHeights {
    fn from_world(world: &mut World) -> Self {
        Self::with_length_unit(
            world
                .get_resource::<SteeringLengthUnit>()
                .copied()
                .unwrap_or_default()
                .0,
        )
    }
}

/// Marks an obstacle made from a collider's footprint: the collider's
/// entity. (A relationship, not a child: the footprint is on the ground,
/// where the collider's turn and tilt must not carry it.)
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
#[relationship(relationship_target = Footprints)]
pub struct FootprintOf(pub Entity);

/// The obstacles a collider's footprint made, despawned with it.
#[derive(Component, Reflect, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Default, PartialEq)]
#[relationship_target(relationship = FootprintOf, linked_spawn)]
pub struct Footprints(Vec<Entity>);

/// Sides of the polygon round a tilted round shape's footprint.
const ROUND_SIDES: usize = 16;

/// A collider's footprint on the `ground`, where the collider is `at`, as
/// obstacles in the agents' way: each with the point it is placed at (a
/// circle's centre; the others' points are on the ground, placed at zero).
///
/// A ball is a circle; a capsule, a cylinder or a cone standing upright
/// the circle of its radius; a cuboid, a convex hull or a triangle the
/// convex polygon of its corners seen from above (a wall where that is a
/// line); a segment a wall, a polyline its walls; a tilted round shape or
/// a rounded one the polygon of its outline (16 sides touching
/// it from outside); a compound each of its parts. Parts out of the
/// agents' way ([`ObstacleHeights`]) are left out. `Err` names a shape
/// that is no obstacle: meshes, height fields, half-spaces, voxels. A
/// collider placed at no finite point has none.
///
/// ```
/// # use avian3d::prelude::Collider;
/// # use bevy::prelude::*;
/// # use bevy_reynolds::{GroundPlane, SteeringObstacle};
/// # use bevy_reynolds::physics::{ObstacleHeights, footprints_of};
/// let heights = ObstacleHeights::with_length_unit(1.0);
/// // A pillar 3 m high, 0.5 m across, at x = 4, z = 2.
/// let pillar = Collider::cylinder(0.5, 3.0);
/// let at = GlobalTransform::from_xyz(4.0, 1.5, 2.0);
/// let footprint = footprints_of(&pillar, &at, GroundPlane::Xz, &heights).unwrap();
/// assert_eq!(footprint, [(Vec2::new(4.0, 2.0), SteeringObstacle::circle(0.5))]);
/// // The floor: none.
/// let floor = Collider::cuboid(50.0, 0.2, 50.0);
/// let at = GlobalTransform::from_xyz(0.0, -0.1, 0.0);
/// assert!(footprints_of(&floor, &at, GroundPlane::Xz, &heights).unwrap().is_empty());
/// ```
pub fn footprints_of(
    collider: &Collider,
    at: &GlobalTransform,
    ground: GroundPlane,
    heights: &ObstacleHeights,
) -> Result<Vec<(Vector, SteeringObstacle)>, UnsupportedShape> {
    let (_, rotation, translation) = at.to_scale_rotation_translation();
    if !(translation.is_finite() && rotation.is_finite()) {
        return Ok(Vec::new());
    }
    let pose = Pose::from_parts(translation, rotation);
    let mut footprints = Vec::new();
    let shape = collider.shape_scaled().as_ref();
    shape_footprints(shape, pose, ground, heights, &mut footprints)?;
    Ok(footprints)
}

/// `shape`, placed by `pose` in the world, as its footprints.
fn shape_footprints(
    shape: &dyn Shape,
    pose: Pose,
    ground: GroundPlane,
    heights: &ObstacleHeights,
    footprints: &mut Vec<(Vector, SteeringObstacle)>,
) -> Result<(), UnsupportedShape> {
    if let TypedShape::Compound(compound) = shape.as_typed_shape() {
        for (part_pose, part) in compound.shapes() {
            shape_footprints(
                part.as_ref(),
                pose * *part_pose,
                ground,
                heights,
                footprints,
            )?;
        }
        return Ok(());
    }
    let bounds = shape.compute_aabb(&pose);
    let up = ground.up();
    if !heights.blocks(bounds.mins.dot(up), bounds.maxs.dot(up)) {
        return Ok(());
    }
    let seen = |p: Vec3| ground.to_ground(pose * p);
    let at_zero = |footprint: Option<SteeringObstacle>| footprint.map(|o| (Vector::ZERO, o));
    // A round shape about the axis from `a` to `b` (in its own frame), of
    // `radius` at its widest: a circle if the axis stands upright.
    let round = |a: Vec3, b: Vec3, radius: f32, support: &dyn SupportMap| {
        let (a, b) = (seen(a), seen(b));
        if a.distance(b) <= 1e-4 * radius {
            Some((a.midpoint(b), SteeringObstacle::circle(radius)))
        } else {
            at_zero(outline(&round_outline(support, pose, ground)))
        }
    };
    match shape.as_typed_shape() {
        TypedShape::Ball(ball) => {
            footprints.push((seen(Vec3::ZERO), SteeringObstacle::circle(ball.radius)));
        }
        TypedShape::Capsule(capsule) => footprints.extend(round(
            capsule.segment.a,
            capsule.segment.b,
            capsule.radius,
            capsule,
        )),
        TypedShape::Cylinder(cylinder) => {
            let axis = Vec3::Y * cylinder.half_height;
            footprints.extend(round(-axis, axis, cylinder.radius, cylinder));
        }
        TypedShape::Cone(cone) => {
            let axis = Vec3::Y * cone.half_height;
            footprints.extend(round(-axis, axis, cone.radius, cone));
        }
        TypedShape::Cuboid(cuboid) => {
            let h = cuboid.half_extents;
            let corners: Vec<Vector> = (0..8)
                .map(|k| {
                    let sign = |bit: i32| if k & bit == 0 { -1.0 } else { 1.0 };
                    seen(Vec3::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z))
                })
                .collect();
            footprints.extend(at_zero(outline(&corners)));
        }
        TypedShape::ConvexPolyhedron(polyhedron) => {
            let points: Vec<Vector> = polyhedron.points().iter().map(|p| seen(*p)).collect();
            footprints.extend(at_zero(outline(&points)));
        }
        TypedShape::Triangle(triangle) => {
            footprints.extend(at_zero(outline(&triangle.vertices().map(seen))));
        }
        TypedShape::Segment(segment) => {
            footprints.extend(at_zero(outline(&[seen(segment.a), seen(segment.b)])));
        }
        TypedShape::Polyline(polyline) => {
            for segment in polyline.segments() {
                footprints.extend(at_zero(outline(&[seen(segment.a), seen(segment.b)])));
            }
        }
        _ => match shape.as_support_map() {
            // Rounded cuboids, triangles, cylinders, cones, hulls.
            Some(support) => {
                footprints.extend(at_zero(outline(&round_outline(support, pose, ground))))
            }
            None => {
                return Err(UnsupportedShape {
                    shape: format!("{:?}", shape.shape_type()),
                });
            }
        },
    }
    Ok(())
}

/// The corners of the polygon round a convex shape's footprint: where the
/// ground lines touching it from [`ROUND_SIDES`] directions meet (each
/// through the point of the shape farthest that way, so the polygon is
/// nowhere inside the footprint).
fn round_outline(support: &dyn SupportMap, pose: Pose, ground: GroundPlane) -> Vec<Vector> {
    let touching = |k: usize| {
        let normal = Vector::from_angle(std::f32::consts::TAU * k as f32 / ROUND_SIDES as f32);
        let farthest = support.support_point(&pose, ground.place(normal, Vec3::ZERO));
        (normal, normal.dot(ground.to_ground(farthest)))
    };
    let lines: [(Vector, f32); ROUND_SIDES] = std::array::from_fn(touching);
    (0..ROUND_SIDES)
        .map(|k| {
            // The point on both lines n·x = h: Cramer's rule.
            let ((n1, h1), (n2, h2)) = (lines[k], lines[(k + 1) % ROUND_SIDES]);
            (h2 * n1.perp() - h1 * n2.perp()) / n1.perp_dot(n2)
        })
        .collect()
}

/// The convex hull of `points` as an obstacle: a polygon, or a wall if they
/// lie on a line, or nothing if they are one point (a pole seen from
/// above: too thin to avoid) or not all finite.
fn outline(points: &[Vector]) -> Option<SteeringObstacle> {
    if points.is_empty() || points.iter().any(|p| !p.is_finite()) {
        return None;
    }
    let hull = MultiPoint::from(
        points
            .iter()
            .map(|p| Point::new(p.x, p.y))
            .collect::<Vec<_>>(),
    )
    .convex_hull();
    // The ring closes on its first point: not twice.
    let ring = hull
        .exterior()
        .0
        .split_last()
        .map_or(&[][..], |(_, ring)| ring);
    let corners = ring.iter().map(|Coord { x, y }| Vector::new(*x, *y));
    let first = points[0];
    let size = points.iter().map(|p| p.distance(first)).fold(0.0, f32::max);
    if ring.len() >= 3 && hull.unsigned_area() > 1e-6 * size * size {
        return Some(SteeringObstacle::polygon(corners));
    }
    // On a line: its two ends, the points farthest apart along it (unless
    // it is a point, to f32's steps at its distance from the origin).
    let far = points
        .iter()
        .copied()
        .max_by(|p, q| p.distance(first).total_cmp(&q.distance(first)))?;
    if size <= 1e-6 * (1.0 + first.abs().max_element()) {
        return None;
    }
    let along = |p: &&Vector| (far - first).dot(**p - first);
    let a = points.iter().min_by(|p, q| along(p).total_cmp(&along(q)))?;
    Some(SteeringObstacle::wall(*a, far))
}

/// Before [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// the footprints of each collider added, changed or moved, if it does not
/// move on its own, made again; those of a collider removed, gone.
#[allow(clippy::type_complexity)]
pub(super) fn colliders_to_footprints(
    ground: Res<GroundPlane>,
    heights: Res<ObstacleHeights>,
    colliders: Query<
        (
            Entity,
            Ref<Collider>,
            Option<&ColliderOf>,
            Option<&Footprints>,
            Option<&ChildOf>,
            Option<&Transform>,
            Option<Ref<GlobalTransform>>,
        ),
        (Without<SteeringAgent>, Without<Sensor>),
    >,
    bodies: Query<&RigidBody>,
    footprints: Query<&Footprints>,
    obstacles: Query<(&AgentPosition, &SteeringObstacle), With<FootprintOf>>,
    mut removed: RemovedComponents<Collider>,
    mut commands: Commands,
) {
    let unmake = |made: Option<&Footprints>, commands: &mut Commands| {
        for footprint in made.into_iter().flat_map(|made| made.iter()) {
            commands.entity(footprint).despawn();
        }
    };
    for entity in removed.read() {
        unmake(footprints.get(entity).ok(), &mut commands);
    }
    let problem = heights.problem();
    if heights.is_changed()
        && let Some(problem) = &problem
    {
        warn!("{problem}; static colliders make no obstacles until it is mended");
    }
    let redo_all = ground.is_changed() || heights.is_changed();
    for (entity, collider, of, made, parent, transform, global) in &colliders {
        let moved = global.as_ref().is_some_and(|g| g.is_changed());
        if !(redo_all || collider.is_changed() || moved) {
            continue;
        }
        let body = of.map_or(entity, |of| of.body);
        let moves = bodies.get(body).is_ok_and(|b| *b != RigidBody::Static);
        if moves || problem.is_some() {
            unmake(made, &mut commands);
            continue;
        }
        // Where the collider is now: its transform, if it has no parent
        // (its global transform is made after the step).
        let here = match (parent, transform, global) {
            (None, Some(transform), _) => GlobalTransform::from(*transform),
            (_, _, Some(global)) => *global,
            _ => GlobalTransform::IDENTITY,
        };
        let footprint = match footprints_of(&collider, &here, *ground, &heights) {
            Ok(footprint) => footprint,
            Err(shape) => {
                unmake(made, &mut commands);
                warn_once!(
                    "collider {entity} is a {}, which is no obstacle the agents can see: skipped (balls, cuboids, capsules, cylinders, cones, convex hulls, triangles, segments, polylines and compounds of them are)",
                    shape.shape
                );
                continue;
            }
        };
        // The same as before (its transform made again after it was
        // spawned, a change of what is not the ground's): kept, so the
        // level is not gathered again for nothing.
        let before = made.into_iter().flat_map(|made| made.iter());
        let before = before.map(|o| obstacles.get(o).ok().map(|(p, o)| (p.0, o)));
        if before.eq(footprint.iter().map(|(p, o)| Some((*p, o)))) {
            continue;
        }
        unmake(made, &mut commands);
        for (at, obstacle) in footprint {
            // Placed by a `AgentPosition` on the ground: no transform to follow.
            commands.spawn((
                ColliderObstacle,
                FootprintOf(entity),
                obstacle,
                AgentPosition(at),
            ));
        }
    }
}
