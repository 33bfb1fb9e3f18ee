//! Obstacles: rocks and walls every agent steers round, and the
//! [`ObstacleIndex`] of their shapes, gathered again only when one is
//! added, changed, moved or removed. Planar: circles, walls and polygons on
//! the plane.

use bevy::prelude::*;
use reynolds::level::ShapeIndex;
use reynolds::level::{Shape, cover_circle};
use reynolds::navigate::Solid;

use crate::agent::{AgentPosition, GroundPlane, SteeringLengthUnit};
use crate::math::Vector;

/// Something agents must not walk into: a circle, a wall, or a closed
/// polygon of walls, placed by the entity's [`AgentPosition`] (if it has one)
/// or its [`GlobalTransform`] on the ground. Walls are seen from both sides.
/// It may move: the plugin indexes every obstacle where it is each step.
///
/// Every agent avoids every obstacle, unless it has [`IgnoreObstacles`].
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub enum SteeringObstacle {
    /// A disc of this radius round the entity.
    Circle {
        /// Its radius, in pixels (world units).
        radius: f32,
    },
    /// A wall between two points given relative to the entity.
    Wall {
        /// One end.
        a: Vector,
        /// The other.
        b: Vector,
    },
    /// A closed ring of walls through these points, relative to the entity.
    Polygon {
        /// Its corners, in order.
        points: Vec<Vector>,
    },
}

impl SteeringObstacle {
    /// A circle of `radius`.
    pub fn circle(radius: f32) -> Self {
        Self::Circle { radius }
    }

    /// A wall from `a` to `b`.
    pub fn wall(a: Vector, b: Vector) -> Self {
        Self::Wall { a, b }
    }

    /// A closed polygon of walls through `points`.
    pub fn polygon(points: impl IntoIterator<Item = Vector>) -> Self {
        Self::Polygon {
            points: points.into_iter().collect(),
        }
    }

    /// Whether it is usable: see [`problem`](Self::problem) for what is
    /// wrong when it is not.
    pub fn is_valid(&self) -> bool {
        match self {
            SteeringObstacle::Circle { radius } => radius.is_finite() && *radius >= 0.0,
            SteeringObstacle::Wall { a, b } => a.is_finite() && b.is_finite(),
            SteeringObstacle::Polygon { points } => {
                points.len() >= 3 && points.iter().all(|p| p.is_finite())
            }
        }
    }

    /// What is wrong with it, if anything: a negative or non-finite radius
    /// or point, or a polygon of fewer than three points.
    pub fn problem(&self) -> Option<String> {
        match self {
            SteeringObstacle::Circle { radius } if !(radius.is_finite() && *radius >= 0.0) => Some(
                format!("a circle's radius must be 0 or more and finite, not {radius}"),
            ),
            SteeringObstacle::Wall { a, b } if !(a.is_finite() && b.is_finite()) => {
                Some(format!("a wall's ends must be finite, not {a} and {b}"))
            }
            SteeringObstacle::Polygon { points } if points.len() < 3 => Some(format!(
                "a polygon needs 3 points or more, not {}",
                points.len()
            )),
            SteeringObstacle::Polygon { points } if points.iter().any(|p| !p.is_finite()) => {
                Some("a polygon's points must be finite".to_string())
            }
            _ => None,
        }
    }

    /// The solid it is, for navigation, placed by `place` (a polygon is
    /// solid inside).
    pub(crate) fn solid(&self, place: impl Fn(Vector) -> Vector) -> Solid {
        match self {
            SteeringObstacle::Circle { radius } => Solid::Circle {
                center: place(Vector::ZERO),
                radius: *radius,
            },
            SteeringObstacle::Wall { a, b } => Solid::Wall {
                a: place(*a),
                b: place(*b),
            },
            SteeringObstacle::Polygon { points } => {
                Solid::Ring(points.iter().map(|p| place(*p)).collect())
            }
        }
    }

    /// Each shape it is made of, placed by `place` (local to world ground).
    fn for_each_shape(&self, place: impl Fn(Vector) -> Vector, mut each: impl FnMut(Shape)) {
        match self {
            SteeringObstacle::Circle { radius } => each(Shape::Circle {
                center: place(Vector::ZERO),
                radius: *radius,
            }),
            SteeringObstacle::Wall { a, b } => each(Shape::Wall {
                a: place(*a),
                b: place(*b),
            }),
            SteeringObstacle::Polygon { points } => {
                for (i, a) in points.iter().enumerate() {
                    let b = points[(i + 1) % points.len()];
                    each(Shape::Wall {
                        a: place(*a),
                        b: place(b),
                    });
                }
            }
        }
    }
}

/// An agent with this does not avoid [`SteeringObstacle`]s (it still keeps to its
/// [`Containment`](super::containment::Containment)).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct IgnoreObstacles;

/// Every obstacle's shapes where they are this step, in the core's
/// [`ShapeIndex`] so an agent only tests those near its probe (its methods
/// are this one's). Kept up to date in
/// [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare): gathered
/// again in a step after an obstacle was added, changed, moved or removed,
/// and its grid made again only then (or when the agents look farther).
#[derive(Resource, Debug, Default, Deref)]
pub struct ObstacleIndex {
    #[deref]
    shapes: ShapeIndex<Entity>,
    /// How many obstacles there were when the shapes were last gathered,
    /// and how many were placed by a `AgentPosition` and had a transform.
    counts: [usize; 3],
    /// How many times they were gathered.
    generation: u64,
    /// Each obstacle as a cover a hider can hide behind.
    covers: Vec<Cover>,
}

/// An obstacle seen as cover ([`Hide`](super::Hide)): the circle round it
/// ([`cover_circle`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Cover {
    pub(super) obstacle: Entity,
    pub(super) center: Vector,
    pub(super) radius: f32,
}

impl ObstacleIndex {
    /// How many times the shapes were gathered again (after an obstacle
    /// was added, changed, moved or removed): a new number means something
    /// may have changed.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Each obstacle as a cover a hider can hide behind.
    pub(super) fn covers(&self) -> &[Cover] {
        &self.covers
    }
}

/// Where an obstacle's local points are on the ground: offset by its
/// [`AgentPosition`] if it has one, else through its transform.
pub(crate) fn placer(
    ground: GroundPlane,
    position: Option<&AgentPosition>,
    global: Option<&GlobalTransform>,
) -> impl Fn(Vector) -> Vector {
    let position = position.map(|p| p.0);
    let global = global.copied();
    move |local: Vector| match (position, global) {
        (Some(p), _) => p + local,
        (None, Some(g)) => ground.to_ground(g.transform_point(ground.place(local, Vec3::ZERO))),
        (None, None) => local,
    }
}

/// Logs a bad obstacle once, when it is added or changed.
pub(super) fn validate_obstacles(
    obstacles: Query<(Entity, &SteeringObstacle), Changed<SteeringObstacle>>,
) {
    for (entity, obstacle) in &obstacles {
        if let Some(problem) = obstacle.problem() {
            warn!("obstacle {entity}: {problem}; it is ignored");
        }
    }
}

/// Whether [`index_obstacles`] has anything to do: there are obstacles, or
/// an index of them to empty.
pub(super) fn index_wanted(
    index: Res<ObstacleIndex>,
    obstacles: Query<(), With<SteeringObstacle>>,
) -> bool {
    !obstacles.is_empty() || !index.is_empty()
}

/// Part of [`SteeringSystems::Prepare`](crate::SteeringSystems::Prepare):
/// every obstacle's shapes, where they are now, into the [`ObstacleIndex`],
/// gathered again only when something they are made of changed: an
/// obstacle added, changed, moved or removed (a level's rocks mostly stand
/// still, and gathering a thousand of them cost more than stepping a
/// hundred agents).
#[allow(clippy::type_complexity)]
pub(super) fn index_obstacles(
    ground: Res<GroundPlane>,
    unit: Res<SteeringLengthUnit>,
    mut index: ResMut<ObstacleIndex>,
    obstacles: Query<(
        Entity,
        &SteeringObstacle,
        Option<&AgentPosition>,
        Option<&GlobalTransform>,
    )>,
    moved: Query<
        (),
        (
            With<SteeringObstacle>,
            Or<(
                Changed<SteeringObstacle>,
                Changed<AgentPosition>,
                Changed<GlobalTransform>,
            )>,
        ),
    >,
    placed: Query<(), (With<SteeringObstacle>, With<AgentPosition>)>,
    transformed: Query<(), (With<SteeringObstacle>, With<GlobalTransform>)>,
) {
    let index = &mut *index;
    // An obstacle removed (or no longer placed by its `AgentPosition` or its
    // transform) leaves one of these fewer; one added is `Changed`. (Counts
    // rather than removal messages, which a fixed step can miss when
    // several frames pass between two steps.)
    let counts = [obstacles.count(), placed.count(), transformed.count()];
    let gone = counts != index.counts;
    index.counts = counts;
    let changed = gone || ground.is_changed() || unit.is_changed() || !moved.is_empty();
    if changed {
        index.generation += 1;
        index.shapes.clear();
        index.covers.clear();
        for (entity, obstacle, position, global) in &obstacles {
            // Without building the message `problem` makes.
            if !obstacle.is_valid() {
                continue;
            }
            let place = placer(*ground, position, global);
            let mut part = 0;
            let first = index.shapes.shapes().len();
            obstacle.for_each_shape(place, |shape| {
                if shape.is_valid() {
                    index.shapes.push(entity, part, shape);
                }
                part += 1;
            });
            let shapes = index.shapes.shapes()[first..].iter().map(|s| s.shape);
            if let Some((center, radius)) = cover_circle(shapes) {
                index.covers.push(Cover {
                    obstacle: entity,
                    center,
                    radius,
                });
            }
        }
    }
    // Cells about the size of an agent's look-ahead (and lists for the
    // probes noted since the last step, whether or not the shapes moved).
    index.shapes.rebuild(64.0 * unit.scale(), changed);
}
