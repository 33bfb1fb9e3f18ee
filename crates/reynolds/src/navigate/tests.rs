//! Routes checked against a visibility graph of the same grown solids (the
//! shortest route among polygons runs from corner to corner), and against
//! the solids themselves (a body on the route never touches one).

use super::*;
use crate::math::closest_on_segment;

const BODY: f32 = 0.5;

fn wall(a: (f32, f32), b: (f32, f32)) -> Solid {
    Solid::Wall {
        a: Vec2::new(a.0, a.1),
        b: Vec2::new(b.0, b.1),
    }
}

/// A U open to the left, its inside 4 wide and 6 deep, round (5, 0).
fn u_trap() -> Vec<Solid> {
    vec![
        wall((3.0, 3.0), (9.0, 3.0)),
        wall((9.0, 3.0), (9.0, -3.0)),
        wall((9.0, -3.0), (3.0, -3.0)),
    ]
}

/// How far `p` is from the solid's surface (negative inside a disc or a
/// polygon).
fn distance_to(solid: &Solid, p: Vec2) -> f32 {
    match solid {
        Solid::Circle { center, radius } => p.distance(*center) - radius,
        Solid::Wall { a, b } => p.distance(closest_on_segment(p, *a, *b)),
        Solid::Ring(points) => (0..points.len())
            .map(|i| {
                p.distance(closest_on_segment(
                    p,
                    points[i],
                    points[(i + 1) % points.len()],
                ))
            })
            .fold(f32::INFINITY, f32::min),
        Solid::Polygon(points) => {
            let edge = (0..points.len())
                .map(|i| {
                    p.distance(closest_on_segment(
                        p,
                        points[i],
                        points[(i + 1) % points.len()],
                    ))
                })
                .fold(f32::INFINITY, f32::min);
            if crate::level::inside_polygon(p, points) {
                -edge
            } else {
                edge
            }
        }
    }
}

/// The least clearance of a body along `route` (its centre sampled every
/// hundredth of a side).
fn least_clearance(route: &Route, solids: &[Solid]) -> f32 {
    let mut least = f32::INFINITY;
    for w in route.points.windows(2) {
        for t in 0..=100 {
            let p = w[0].lerp(w[1], t as f32 / 100.0);
            for s in solids {
                least = least.min(distance_to(s, p) - BODY);
            }
        }
    }
    least
}

/// Whether the segment from `p` to `q` crosses into a ring (touching its
/// corners or running along a side is allowed).
fn blocked(p: Vec2, q: Vec2, rings: &[Vec<Vec2>]) -> bool {
    let cross = |a: Vec2, b: Vec2| a.perp_dot(b);
    for ring in rings {
        let n = ring.len();
        for i in 0..n {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            let (d1, d2) = (cross(q - p, a - p), cross(q - p, b - p));
            let (d3, d4) = (cross(b - a, p - a), cross(b - a, q - a));
            let eps = 1e-4 * (q - p).length().max(1.0) * (b - a).length().max(1.0);
            if ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps))
                && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
            {
                return true;
            }
        }
        // Both ends on the ring's corners and the middle inside: a chord.
        for t in [0.25, 0.5, 0.75] {
            if crate::level::inside_polygon(p.lerp(q, t), ring)
                && distance_to(&Solid::Polygon(ring.clone()), p.lerp(q, t)) < -1e-3
            {
                return true;
            }
        }
    }
    false
}

/// The length of the shortest route from `from` to `to` round `rings`, on
/// their visibility graph.
fn visibility_graph_length(from: Vec2, to: Vec2, rings: &[Vec<Vec2>]) -> f32 {
    let mut nodes = vec![from, to];
    for ring in rings {
        for p in ring {
            let inside_another = rings.iter().any(|r| {
                crate::level::inside_polygon(*p, r)
                    && distance_to(&Solid::Polygon(r.clone()), *p) < -1e-4
            });
            if !inside_another {
                nodes.push(*p);
            }
        }
    }
    let n = nodes.len();
    let mut dist = vec![f32::INFINITY; n];
    let mut done = vec![false; n];
    dist[0] = 0.0;
    for _ in 0..n {
        let Some(u) = (0..n)
            .filter(|i| !done[*i] && dist[*i].is_finite())
            .min_by(|a, b| dist[*a].total_cmp(&dist[*b]))
        else {
            break;
        };
        done[u] = true;
        if u == 1 {
            break;
        }
        for v in 0..n {
            if done[v] {
                continue;
            }
            let d = dist[u] + nodes[u].distance(nodes[v]);
            if d < dist[v] && !blocked(nodes[u], nodes[v], rings) {
                dist[v] = d;
            }
        }
    }
    dist[1]
}

fn rings_of(solids: &[Solid]) -> Vec<Vec<Vec2>> {
    let mut rings = Vec::new();
    for s in solids {
        grow::grown_rings(s, BODY, |r| rings.push(r));
    }
    rings
}

#[test]
fn round_a_wall_the_short_way_and_half_a_body_clear() {
    let solids = [wall((0.0, -5.0), (0.0, 2.0))];
    let (from, to) = (Vec2::new(-3.0, 0.0), Vec2::new(3.0, 0.0));
    let area = WalkableArea::new(
        &solids,
        Ground::Open {
            around: &[from, to],
        },
        BODY,
    );
    let route = area.route(from, to).unwrap();
    assert_eq!(route.end, RouteEnd::Goal);
    // Over the top end, which is nearer: tangent to the circle of the
    // body's radius round the wall's end, round it, and tangent away.
    let end = Vec2::new(0.0, 2.0);
    let d = from.distance(end);
    let tangent = (d * d - BODY * BODY).sqrt();
    let between = (from - end).angle_to(to - end).abs();
    let arc = std::f32::consts::TAU - between - 2.0 * (BODY / d).acos();
    let shortest = 2.0 * tangent + BODY * arc;
    assert!(
        route.length >= shortest * 0.999 && route.length <= shortest * 1.004,
        "{} against {shortest}: {:?}",
        route.length,
        route.points
    );
    assert!(least_clearance(&route, &solids) >= -1e-3);
}

#[test]
fn out_of_a_u_trap_as_the_visibility_graph_goes() {
    let solids = u_trap();
    let reach = [Vec2::new(-5.0, -7.0), Vec2::new(13.0, 7.0)];
    let area = WalkableArea::new(&solids, Ground::Open { around: &reach }, BODY);
    let rings = rings_of(&solids);
    // From inside the U to behind it, and back.
    for (from, to) in [
        (Vec2::new(7.0, 0.0), Vec2::new(12.0, 0.0)),
        (Vec2::new(12.0, 0.5), Vec2::new(6.0, -1.0)),
        (Vec2::new(-4.0, 5.0), Vec2::new(11.0, -6.0)),
    ] {
        let route = area.route(from, to).unwrap();
        let best = visibility_graph_length(from, to, &rings);
        assert_eq!(route.end, RouteEnd::Goal);
        assert!(
            (route.length - best).abs() <= best * 1e-3,
            "{from} to {to}: {} against {best} ({:?})",
            route.length,
            route.points
        );
        assert!(
            least_clearance(&route, &solids) >= -1e-3,
            "{:?}",
            route.points
        );
    }
}

/// A small deterministic stream of numbers in [0, 1).
fn stream(mut seed: u64) -> impl FnMut() -> f32 {
    move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// `count` rocks, walls and triangular boxes at random in a square 20
/// across.
fn random_solids(r: &mut impl FnMut() -> f32, count: usize) -> Vec<Solid> {
    (0..count)
        .map(|_| {
            let c = Vec2::new(r() * 20.0, r() * 20.0);
            match (r() * 3.0) as u32 {
                0 => Solid::Circle {
                    center: c,
                    radius: 0.3 + r() * 1.5,
                },
                1 => Solid::Wall {
                    a: c,
                    b: c + Vec2::new(r() * 8.0 - 4.0, r() * 8.0 - 4.0),
                },
                _ => Solid::Polygon(vec![
                    c,
                    c + Vec2::new(2.0 + r(), 0.0),
                    c + Vec2::new(1.0, 1.0 + 2.0 * r()),
                ]),
            }
        })
        .collect()
}

#[test]
fn among_random_rocks_walls_and_boxes_as_the_visibility_graph_goes() {
    for seed in 1..=4 {
        let mut r = stream(seed);
        let solids = random_solids(&mut r, 6);
        let reach = [Vec2::splat(-2.0), Vec2::splat(22.0)];
        let area = WalkableArea::new(&solids, Ground::Open { around: &reach }, BODY);
        let rings = rings_of(&solids);
        for _ in 0..6 {
            let from = Vec2::new(r() * 24.0 - 2.0, r() * 24.0 - 2.0);
            let to = Vec2::new(r() * 24.0 - 2.0, r() * 24.0 - 2.0);
            if !area.is_free(from) || !area.is_free(to) {
                continue;
            }
            let route = area.route(from, to).unwrap();
            if route.end != RouteEnd::Goal {
                continue;
            }
            let best = visibility_graph_length(from, to, &rings);
            assert!(
                (route.length - best).abs() <= best * 1e-3 + 1e-3,
                "seed {seed}, {from} to {to}: {} against {best} ({:?})",
                route.length,
                route.points
            );
            assert!(
                least_clearance(&route, &solids) >= -1e-3,
                "{:?}",
                route.points
            );
        }
    }
}

#[test]
fn a_goal_inside_a_rock_ends_at_the_nearest_free_place() {
    let rock = Solid::Circle {
        center: Vec2::new(5.0, 0.0),
        radius: 2.0,
    };
    let area = WalkableArea::new(
        &[rock],
        Ground::Open {
            around: &[Vec2::new(-2.0, 0.0)],
        },
        BODY,
    );
    let route = area
        .route(Vec2::new(-2.0, 0.0), Vec2::new(5.5, 0.0))
        .unwrap();
    assert_eq!(route.end, RouteEnd::NearestFree);
    let end = *route.points.last().unwrap();
    assert!(area.is_free(end));
    // The nearest free point is on the grown disc's edge, 2.5 out, on the
    // side of the goal.
    assert!(
        (end.distance(Vec2::new(5.0, 0.0)) - 2.5).abs() < 0.05,
        "{end}"
    );
    assert!(end.x > 5.0, "{end}");
}

#[test]
fn a_goal_in_a_closed_room_ends_at_the_nearest_reachable_place() {
    let room = [
        wall((0.0, 0.0), (4.0, 0.0)),
        wall((4.0, 0.0), (4.0, 4.0)),
        wall((4.0, 4.0), (0.0, 4.0)),
        wall((0.0, 4.0), (0.0, 0.0)),
    ];
    let area = WalkableArea::new(
        &room,
        Ground::Open {
            around: &[Vec2::new(-5.0, 2.0)],
        },
        BODY,
    );
    let inside = Vec2::new(1.5, 2.0);
    assert!(area.is_free(inside));
    let route = area.route(Vec2::new(-5.0, 2.0), inside).unwrap();
    assert_eq!(route.end, RouteEnd::NearestReachable);
    let end = *route.points.last().unwrap();
    // Just outside the left wall, a body's radius off it.
    assert!((end - Vec2::new(-BODY, 2.0)).length() < 0.05, "{end}");
}

#[test]
fn inside_a_containment_a_body_keeps_off_its_edges() {
    let field = [
        Vec2::new(0.0, 0.0),
        Vec2::new(10.0, 0.0),
        Vec2::new(10.0, 10.0),
        Vec2::new(0.0, 10.0),
    ];
    let solids = [wall((5.0, 0.0), (5.0, 8.0))];
    let area = WalkableArea::new(&solids, Ground::Within(&field), BODY);
    let route = area
        .route(Vec2::new(2.0, 2.0), Vec2::new(8.0, 2.0))
        .unwrap();
    assert_eq!(route.end, RouteEnd::Goal);
    // Through the gap at the top, 2 wide: the body's centre between 8.5
    // and 9.5.
    let top = route.points.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    assert!((8.5 - 1e-3..=9.5).contains(&top), "{:?}", route.points);
    assert!(!area.is_free(Vec2::new(0.2, 5.0)));
}

#[test]
fn hostile_levels_and_points_give_finite_routes_or_none() {
    let bow_tie = Solid::Polygon(vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 2.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(0.0, 2.0),
    ]);
    let collinear = Solid::Polygon(vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]);
    let repeated = Solid::Polygon(vec![Vec2::ONE; 5]);
    let nan = Solid::Circle {
        center: Vec2::NAN,
        radius: 1.0,
    };
    let negative = Solid::Circle {
        center: Vec2::ZERO,
        radius: -1.0,
    };
    let point_wall = wall((3.0, 3.0), (3.0, 3.0));
    let solids = [bow_tie, collinear, repeated, nan, negative, point_wall];
    for body in [0.0, BODY, f32::NAN, -1.0, 1e-9] {
        for ground in [
            Ground::Open { around: &[] },
            Ground::Within(&[Vec2::ZERO, Vec2::X]),
            Ground::Within(&[Vec2::splat(f32::NAN); 4]),
            // Corners near f32::MAX: grown, they reach infinity.
            Ground::Within(&[
                Vec2::new(0.0, 1e30),
                Vec2::new(f32::MAX, 1e30),
                Vec2::new(f32::MAX, 0.0),
            ]),
        ] {
            let area = WalkableArea::new(&solids, ground, body);
            if let Some(p) = area.nearest_free(Vec2::ZERO) {
                assert!(p.is_finite(), "{p}");
            }
            for (from, to) in [
                (Vec2::new(-3.0, -3.0), Vec2::new(5.0, 5.0)),
                (Vec2::NAN, Vec2::ZERO),
                (Vec2::ZERO, Vec2::INFINITY),
                (Vec2::new(1.0, 1.0), Vec2::new(1e30, 0.0)),
            ] {
                if let Some(route) = area.route(from, to) {
                    assert!(route.length.is_finite(), "{route:?}");
                    assert!(route.points.iter().all(|p| p.is_finite()));
                }
            }
        }
    }
    // A level with no free ground: nowhere to go, and no panic.
    let everything = Solid::Circle {
        center: Vec2::ZERO,
        radius: 100.0,
    };
    let field = [
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
    ];
    let area = WalkableArea::new(&[everything], Ground::Within(&field), BODY);
    assert_eq!(area.route(Vec2::ZERO, Vec2::ONE), None);
}

#[test]
fn levels_laid_out_on_a_grid_are_made_without_a_panic() {
    // Boxes side by side, walls on one line, one solid twice: edges that
    // lie along one another, which a triangulation alone fails on.
    let c = |x: f32, y: f32, r: f32| Solid::Circle {
        center: Vec2::new(x, y),
        radius: r,
    };
    let bx = |x0: f32, y0: f32, x1: f32, y1: f32| {
        Solid::Polygon(vec![
            Vec2::new(x0, y0),
            Vec2::new(x1, y0),
            Vec2::new(x1, y1),
            Vec2::new(x0, y1),
        ])
    };
    let cases: Vec<(&str, Vec<Solid>)> = vec![
        ("same circles", vec![c(0.0, 0.0, 1.0), c(0.0, 0.0, 1.0)]),
        (
            "collinear walls",
            vec![wall((0.0, 0.0), (2.0, 0.0)), wall((1.0, 0.0), (3.0, 0.0))],
        ),
        (
            "same walls",
            vec![wall((0.0, 0.0), (2.0, 0.0)), wall((0.0, 0.0), (2.0, 0.0))],
        ),
        (
            "boxes sharing",
            vec![bx(0.0, 0.0, 1.0, 1.0), bx(1.0, 0.0, 2.0, 1.0)],
        ),
        (
            "same boxes",
            vec![bx(0.0, 0.0, 1.0, 1.0), bx(0.0, 0.0, 1.0, 1.0)],
        ),
        (
            "wall on box side",
            vec![bx(0.0, 0.0, 1.0, 1.0), wall((0.0, 0.0), (1.0, 0.0))],
        ),
        (
            "T walls",
            vec![wall((0.0, 0.0), (2.0, 0.0)), wall((1.0, 0.0), (1.0, 2.0))],
        ),
        (
            "grid walls",
            (0..5)
                .flat_map(|i| {
                    [
                        wall((i as f32, 0.0), (i as f32, 4.0)),
                        wall((0.0, i as f32), (4.0, i as f32)),
                    ]
                })
                .collect(),
        ),
        (
            "collinear poly",
            vec![Solid::Polygon(vec![
                Vec2::ZERO,
                Vec2::X,
                Vec2::new(2.0, 0.0),
            ])],
        ),
        (
            "bow and collinear",
            vec![
                Solid::Polygon(vec![
                    Vec2::new(0.0, 0.0),
                    Vec2::new(2.0, 2.0),
                    Vec2::new(2.0, 0.0),
                    Vec2::new(0.0, 2.0),
                ]),
                Solid::Polygon(vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]),
            ],
        ),
    ];
    let mut r = stream(9);
    let mut cases = cases;
    for _ in 0..200 {
        let n = 2 + (r() * 12.0) as usize;
        let solids = (0..n)
            .map(|_| {
                let (x, y) = ((r() * 6.0).floor(), (r() * 6.0).floor());
                match (r() * 3.0) as u32 {
                    0 => bx(x, y, x + 1.0 + (r() * 2.0).floor(), y + 1.0),
                    1 => wall((x, y), (x + (r() * 3.0).floor(), y + (r() * 3.0).floor())),
                    _ => c(x, y, (r() * 2.0).floor() * 0.5),
                }
            })
            .collect();
        cases.push(("grid", solids));
    }
    for (name, solids) in cases {
        for body in [0.0, 0.25, BODY, 1.0] {
            let solids = solids.clone();
            let (from, to) = (Vec2::new(-3.0, -3.0), Vec2::new(9.0, 9.0));
            let area = WalkableArea::new(
                &solids,
                Ground::Open {
                    around: &[from, to],
                },
                body,
            );
            let route = area.route(from, to);
            assert!(
                route.is_some_and(|r| r.length.is_finite() && r.length >= 16.9),
                "{name}"
            );
        }
    }
}

#[test]
fn a_ring_of_walls_keeps_a_body_inside_it_and_routes_run_within() {
    let square = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(10.0, 0.0),
        Vec2::new(10.0, 10.0),
        Vec2::new(0.0, 10.0),
    ];
    let ring = Solid::Ring(square.clone());
    let (from, to) = (Vec2::new(2.0, 2.0), Vec2::new(8.0, 8.0));
    let area = WalkableArea::new(
        std::slice::from_ref(&ring),
        Ground::Open { around: &[] },
        BODY,
    );
    // Inside: free, and the route runs straight, inside.
    assert!(area.is_free(from) && area.is_free(to));
    let route = area.route(from, to).unwrap();
    assert_eq!(route.end, RouteEnd::Goal);
    assert!((route.length - from.distance(to)).abs() < 1e-3, "{route:?}");
    assert!(least_clearance(&route, &[ring]) >= -1e-3);
    // A polygon of the same corners is solid inside.
    let solid = WalkableArea::new(
        &[Solid::Polygon(square)],
        Ground::Open { around: &[] },
        BODY,
    );
    assert!(!solid.is_free(from));
}

/// The nearest free place, found among the ground's edge in its grid, is
/// the nearest point of any polygon's sides (looked at one by one), on
/// random levels and from points inside solids, beside them and far off.
#[test]
fn the_nearest_free_place_is_the_nearest_of_every_polygons_sides() {
    for seed in 1..=4 {
        let mut r = stream(seed);
        let solids: Vec<Solid> = (0..40)
            .map(|_| {
                let c = Vec2::new(r() * 40.0, r() * 40.0);
                if r() < 0.5 {
                    Solid::Circle {
                        center: c,
                        radius: 0.3 + r() * 2.0,
                    }
                } else {
                    Solid::Wall {
                        a: c,
                        b: c + Vec2::new(r() * 8.0 - 4.0, r() * 8.0 - 4.0),
                    }
                }
            })
            .collect();
        let reach = [Vec2::splat(0.0), Vec2::splat(40.0)];
        let area = WalkableArea::new(&solids, Ground::Open { around: &reach }, BODY);
        let sides: Vec<(Vec2, Vec2)> = area
            .polygons()
            .flat_map(|polygon| {
                let corners: Vec<Vec2> = polygon.collect();
                (0..corners.len())
                    .map(|i| (corners[i], corners[(i + 1) % corners.len()]))
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut off_ground = 0;
        for _ in 0..300 {
            let p = Vec2::new(r() * 80.0 - 20.0, r() * 80.0 - 20.0);
            let found = area.nearest_free(p).unwrap();
            if area.is_free(p) {
                assert_eq!(found, p);
                continue;
            }
            off_ground += 1;
            let nearest = sides
                .iter()
                .map(|(a, b)| p.distance(closest_on_segment(p, *a, *b)))
                .fold(f32::INFINITY, f32::min);
            // The found place stands a hair inside its polygon: a
            // thousandth of the way to its middle, under 0.09 on a ground
            // 60 across.
            assert!(
                (p.distance(found) - nearest).abs() < 0.09,
                "seed {seed}, from {p}: {found} is {} off, the nearest side {nearest}",
                p.distance(found)
            );
            assert!(area.is_free(found), "seed {seed}: {found} from {p}");
        }
        assert!(
            off_ground > 30,
            "seed {seed}: only {off_ground} points off the ground"
        );
    }
}

/// Solids, ground corners and points to reach round that lie too far off
/// for the triangulation's arithmetic (past `FARTHEST`) are left out: the
/// area stays the size of the rest, and routes go on as without them. (A
/// rock of radius 1e30 or an agent at 1e30 once made areas of NaN, and the
/// mesh's sort panicked on them; hostile worlds in `tests/headless/fuzz.rs`.)
#[test]
fn numbers_too_far_off_are_left_out() {
    let mut solids = u_trap();
    solids.push(Solid::Circle {
        center: Vec2::new(951.0, -1479.0),
        radius: 1e30,
    });
    solids.push(Solid::Wall {
        a: Vec2::new(0.0, 3e38),
        b: Vec2::ZERO,
    });
    let reach = [
        Vec2::new(-5.0, -7.0),
        Vec2::new(13.0, 7.0),
        Vec2::new(1e30, -1e30),
    ];
    let area = WalkableArea::new(&solids, Ground::Open { around: &reach }, BODY);
    let (min, max) = area.bounds();
    assert!(
        min.cmpgt(Vec2::splat(-100.0)).all() && max.cmplt(Vec2::splat(100.0)).all(),
        "{min} {max}"
    );
    let route = area
        .route(Vec2::new(7.0, 0.0), Vec2::new(12.0, 0.0))
        .unwrap();
    assert_eq!(route.end, RouteEnd::Goal);
    let within = [
        Vec2::new(-20.0, -20.0),
        Vec2::new(1e30, -20.0),
        Vec2::new(20.0, -20.0),
        Vec2::new(20.0, 20.0),
        Vec2::new(-20.0, 20.0),
    ];
    let area = WalkableArea::new(&solids, Ground::Within(&within), 1e30);
    assert!(area.bounds().1.x <= 20.0, "{:?}", area.bounds());
}

#[test]
fn a_hint_gives_the_answer_the_search_gives_and_mostly_spares_it() {
    let (mut checks, mut spared) = (0, 0);
    for seed in 1..=4 {
        let mut r = stream(seed);
        let solids = random_solids(&mut r, 8);
        let reach = [Vec2::splat(-2.0), Vec2::splat(22.0)];
        let area = WalkableArea::new(&solids, Ground::Open { around: &reach }, BODY);
        // Walks in small steps, across solids and along their edges (each
        // place also pulled onto the ground, a hair inside it, as a body
        // kept on the ground is, and a hair either side of that).
        for _ in 0..20 {
            let mut hint = GroundHint::default();
            let mut p = Vec2::new(r() * 24.0 - 2.0, r() * 24.0 - 2.0);
            let step = Vec2::from_angle(r() * std::f32::consts::TAU) * 0.05;
            for _ in 0..200 {
                p += step;
                let on_edge = area.nearest_free(p).unwrap_or(p);
                for q in [p, on_edge, on_edge + 1e-5, on_edge - 1e-5] {
                    let held = hint.area == area.id && hint.holds(q);
                    let free = area.is_free(q);
                    assert_eq!(area.is_free_from(q, &mut hint), free, "seed {seed}: {q}");
                    if free {
                        checks += 1;
                        spared += usize::from(held);
                    }
                }
            }
        }
    }
    // Steps of 5 cm among polygons metres across: most stay in theirs.
    assert!(spared * 10 >= checks * 8, "{spared} of {checks} spared");
}

#[test]
fn a_hint_noted_on_another_area_is_not_taken_for_this_ones() {
    let reach = [Vec2::splat(-10.0), Vec2::splat(10.0)];
    let open = WalkableArea::new(&[], Ground::Open { around: &reach }, BODY);
    let rock = Solid::Circle {
        center: Vec2::ZERO,
        radius: 2.0,
    };
    let rocky = WalkableArea::new(&[rock], Ground::Open { around: &reach }, BODY);
    let mut hint = GroundHint::default();
    assert!(open.is_free_from(Vec2::ZERO, &mut hint));
    assert_ne!(
        hint,
        GroundHint::default(),
        "the open ground's polygon noted"
    );
    assert!(!rocky.is_free_from(Vec2::ZERO, &mut hint));
}

/// A follower heading for corner 1 of four goes on to the last corner it
/// sees past it, and no further than it sees in a row; seeing nothing past
/// the one it heads for, or on its last leg, it keeps to it.
#[test]
fn a_follower_heads_for_the_last_corner_it_sees() {
    let points = [
        Vec2::ZERO,
        Vec2::new(10.0, 0.0),
        Vec2::new(10.0, 10.0),
        Vec2::new(20.0, 10.0),
        Vec2::new(20.0, 20.0),
    ];
    let sees = |seen: &'static [usize]| move |p: Vec2| seen.iter().any(|&i| points[i] == p);
    assert_eq!(corner_in_sight(&points, 1, sees(&[2, 3])), Some(3));
    // Corner 3 in sight but not 2: it goes round 2 as planned.
    assert_eq!(corner_in_sight(&points, 1, sees(&[3, 4])), None);
    assert_eq!(corner_in_sight(&points, 1, sees(&[])), None);
    assert_eq!(corner_in_sight(&points, 3, sees(&[4])), Some(4));
    assert_eq!(corner_in_sight(&points, 4, sees(&[0, 1, 2, 3, 4])), None);
    // Out of range, and routes too short to skip anything.
    assert_eq!(corner_in_sight(&points, 0, sees(&[2])), Some(2));
    assert_eq!(corner_in_sight(&points, 9, sees(&[4])), None);
    assert_eq!(corner_in_sight(&points[..1], 1, sees(&[0])), None);
    assert_eq!(corner_in_sight(&[], 1, sees(&[])), None);
}

/// A route's search work is counted the same way every time, at least one,
/// and grows with the search: from inside the U to behind it costs more
/// than a step along the open ground. The route is the one `route` gives.
#[test]
fn a_routes_search_work_is_counted_and_grows_with_the_search() {
    let area = WalkableArea::new(
        &u_trap(),
        Ground::Open {
            around: &[Vec2::new(-10.0, -10.0), Vec2::new(20.0, 10.0)],
        },
        BODY,
    );
    let near = area
        .route_counted(Vec2::new(-5.0, 8.0), Vec2::new(-4.0, 8.0))
        .1;
    let (from, behind) = (Vec2::new(5.0, 0.0), Vec2::new(12.0, 0.0));
    let (route, work) = area.route_counted(from, behind);
    assert_eq!(route, area.route(from, behind));
    assert_eq!(area.route_counted(from, behind).1, work);
    assert!(
        work > near && near >= 1,
        "behind the U {work}, a step {near}"
    );
}
