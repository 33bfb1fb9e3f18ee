//! The edge of a piece of ground (the sides of its polygons that no other
//! polygon shares), in a grid of square cells, for the nearest point of
//! the ground to a point off it. An area has tens of thousands of
//! polygons; looking at every side took a navigating world 17% of its time
//! (BENCHMARKS.md, "Routes").

use std::collections::HashMap;

use glam::Vec2;
use polyanya::Mesh;

use crate::math::closest_on_segment;

/// A side on the edge of the ground, and the middle of its polygon.
#[derive(Clone, Copy, Debug)]
struct Side {
    a: Vec2,
    b: Vec2,
    middle: Vec2,
}

/// The sides on a piece's edge, bucketed by the cells their boxes cover.
#[derive(Clone, Debug, Default)]
pub(super) struct Edges {
    sides: Vec<Side>,
    min: Vec2,
    cell: f32,
    columns: usize,
    rows: usize,
    /// Where each cell's sides start in `in_cells` (one more than cells).
    starts: Vec<u32>,
    in_cells: Vec<u32>,
}

impl Edges {
    /// The edge of `mesh`'s ground.
    pub(super) fn of(mesh: &Mesh) -> Self {
        let mut sides = Vec::new();
        for layer in &mesh.layers {
            let corner = |v: u32| layer.vertices[v as usize].coords;
            // How many polygons have each side (its corners in order).
            let mut shared: HashMap<(u32, u32), u32> = HashMap::new();
            let polygons = || layer.polygons.iter().filter(|p| p.vertices.len() >= 3);
            for polygon in polygons() {
                for (a, b) in sides_of(&polygon.vertices) {
                    *shared.entry((a.min(b), a.max(b))).or_default() += 1;
                }
            }
            for polygon in polygons() {
                let middle = polygon.vertices.iter().map(|v| corner(*v)).sum::<Vec2>()
                    / polygon.vertices.len() as f32;
                for (a, b) in sides_of(&polygon.vertices) {
                    if shared[&(a.min(b), a.max(b))] == 1 {
                        sides.push(Side {
                            a: corner(a),
                            b: corner(b),
                            middle,
                        });
                    }
                }
            }
        }
        Self::bucketed(sides)
    }

    fn bucketed(sides: Vec<Side>) -> Self {
        let (min, max) = sides
            .iter()
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), s| {
                (lo.min(s.a.min(s.b)), hi.max(s.a.max(s.b)))
            });
        if sides.is_empty() || !(min.is_finite() && max.is_finite()) {
            // (Ground near f32::MAX: every side looked at, as one cell.)
            let all = (0..sides.len() as u32).collect();
            return Self {
                starts: vec![0, sides.len() as u32],
                in_cells: all,
                sides,
                min: Vec2::ZERO,
                cell: f32::INFINITY,
                columns: 1,
                rows: 1,
            };
        }
        // About two sides a cell.
        let extent = (max - min).max(Vec2::splat(f32::MIN_POSITIVE));
        let cell = (extent.x * extent.y / (sides.len() as f32 / 2.0)).sqrt();
        let cell = if cell.is_finite() && cell > 0.0 {
            cell.max(extent.max_element() / 1024.0)
        } else {
            extent.max_element()
        };
        let columns = ((extent.x / cell).ceil() as usize).clamp(1, 1024);
        let rows = ((extent.y / cell).ceil() as usize).clamp(1, 1024);
        let mut edges = Self {
            sides,
            min,
            cell,
            columns,
            rows,
            starts: Vec::new(),
            in_cells: Vec::new(),
        };
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); columns * rows];
        for (i, side) in edges.sides.iter().enumerate() {
            let (c0, r0) = edges.cell_of(side.a.min(side.b));
            let (c1, r1) = edges.cell_of(side.a.max(side.b));
            for r in r0..=r1 {
                for c in c0..=c1 {
                    buckets[r * columns + c].push(i as u32);
                }
            }
        }
        edges.starts.push(0);
        for bucket in buckets {
            edges.in_cells.extend(bucket);
            edges.starts.push(edges.in_cells.len() as u32);
        }
        edges
    }

    /// The cell `p` is in, or the nearest one.
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let at = ((p - self.min) / self.cell).floor();
        let clamp = |v: f32, n: usize| {
            if v.is_nan() {
                0
            } else {
                v.clamp(0.0, (n - 1) as f32) as usize
            }
        };
        (clamp(at.x, self.columns), clamp(at.y, self.rows))
    }

    /// The nearest point of the edge to `p`, and the middle of the polygon
    /// it is a side of. Cells are looked at in rings round `p`'s until no
    /// nearer side can be in the next.
    pub(super) fn nearest(&self, p: Vec2) -> Option<(Vec2, Vec2)> {
        let (c0, r0) = self.cell_of(p);
        let mut best: Option<(f32, Vec2, Vec2)> = None;
        let most = self.columns.max(self.rows);
        for ring in 0..=most {
            // A cell `ring` cells off is at least `ring - 1` cells away.
            let nearest_possible = (ring as f32 - 1.0).max(0.0) * self.cell;
            if best.is_some_and(|(d, ..)| d <= nearest_possible * nearest_possible) {
                break;
            }
            let (lo_c, hi_c) = (c0 as isize - ring as isize, c0 + ring);
            let (lo_r, hi_r) = (r0 as isize - ring as isize, r0 + ring);
            for r in lo_r.max(0) as usize..=hi_r.min(self.rows - 1) {
                let edge_row = r as isize == lo_r || r == hi_r;
                for c in lo_c.max(0) as usize..=hi_c.min(self.columns - 1) {
                    if !(edge_row || c as isize == lo_c || c == hi_c) {
                        continue;
                    }
                    let cell = r * self.columns + c;
                    let range = self.starts[cell] as usize..self.starts[cell + 1] as usize;
                    for &i in &self.in_cells[range] {
                        let side = self.sides[i as usize];
                        let q = closest_on_segment(p, side.a, side.b);
                        let d = p.distance_squared(q);
                        // (Ground near f32::MAX has corners at infinity.)
                        if q.is_finite() && d.is_finite() && best.is_none_or(|(bd, ..)| d < bd) {
                            best = Some((d, q, side.middle));
                        }
                    }
                }
            }
        }
        best.map(|(_, q, middle)| (q, middle))
    }
}

/// A polygon's sides, each as its two corners in order.
fn sides_of(corners: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    let n = corners.len();
    (0..n).map(move |i| (corners[i], corners[(i + 1) % n]))
}
