//! Neighbor search through a uniform grid, and flocking over it.
//!
//! Each fixed step the grid is rebuilt into flat, cell-sorted arrays of
//! positions and velocities (a counting sort, reusing its buffers), so a
//! query touches only the cells around a point and never looks up a
//! component. In a wrapping world, neighbors across an edge count.

use bevy::prelude::*;
use steering_core::{self as model, FlockParams, FlockSums, Neighbor};

use crate::components::{Position, SteeringAgent, SteeringForce, SteeringOverride, Velocity};
use crate::settings::SteeringSettings;

/// Makes an agent flock with the agents around it: Reynolds' separation,
/// alignment and cohesion, added to its other steering and capped once with
/// it. Separation alone (zero alignment and cohesion weights) stops agents
/// piling up on one spot.
///
/// ```
/// # use bevy_steering::prelude::*;
/// // Arrivers that settle in a loose huddle instead of on top of each other.
/// let huddle = Flocking::separation_only();
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(SteeringAgent)]
pub struct Flocking {
    /// Neighbors closer than this push the agent away, in pixels. 25.
    pub separation_radius: f32,
    /// Neighbors closer than this are aligned with and drawn toward. 70.
    pub neighbor_radius: f32,
    /// Weight of separation. 1.5.
    pub separation_weight: f32,
    /// Weight of alignment. 1.
    pub alignment_weight: f32,
    /// Weight of cohesion. 1.
    pub cohesion_weight: f32,
    /// Only neighbors within this angle either side of the heading count,
    /// in radians; `None` (the default) sees all round.
    pub view_half_angle: Option<f32>,
    /// Consider at most this many neighbors, the nearest first; `None` (the
    /// default) considers all within reach.
    pub max_neighbors: Option<usize>,
}

impl Default for Flocking {
    fn default() -> Self {
        let p = FlockParams::default();
        Self {
            separation_radius: p.separation_radius,
            neighbor_radius: p.neighbor_radius,
            separation_weight: p.separation_weight,
            alignment_weight: p.alignment_weight,
            cohesion_weight: p.cohesion_weight,
            view_half_angle: None,
            max_neighbors: None,
        }
    }
}

impl Flocking {
    /// Only separation, at its default radius and weight: the chapter's
    /// answer to "how do I stop the arrivers piling up".
    pub fn separation_only() -> Self {
        Self {
            alignment_weight: 0.0,
            cohesion_weight: 0.0,
            ..default()
        }
    }

    /// The core's parameters.
    pub fn params(&self) -> FlockParams {
        FlockParams {
            separation_radius: self.separation_radius,
            neighbor_radius: self.neighbor_radius,
            separation_weight: self.separation_weight,
            alignment_weight: self.alignment_weight,
            cohesion_weight: self.cohesion_weight,
            view_half_angle: self.view_half_angle,
        }
    }
}

/// Every agent's position and velocity, sorted by grid cell, rebuilt each
/// fixed step in [`SteeringSystems::Neighbors`](crate::SteeringSystems::Neighbors)
/// when any agent flocks. Use it to find agents near a point.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_steering::prelude::*;
/// fn count_crowd(grid: Res<NeighborGrid>) {
///     let near = grid.within(Vec2::new(500.0, 350.0), 70.0).count();
/// }
/// ```
#[derive(Resource, Debug, Clone, Default)]
pub struct NeighborGrid {
    /// A cell's width and height: in a wrapping world the cells tile the
    /// period exactly, so each is at least the asked-for size.
    cell: Vec2,
    origin: Vec2,
    cols: usize,
    rows: usize,
    /// The wrap period on each axis, or zero where the world does not wrap.
    period: Vec2,
    /// Where each cell's entries start in the sorted arrays; one more entry
    /// than cells, so cell `c` is `cell_start[c]..cell_start[c + 1]`.
    cell_start: Vec<u32>,
    entities: Vec<Entity>,
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    cell_of: Vec<u32>,
    cursor: Vec<u32>,
    scratch: Vec<(Entity, Vec2, Vec2)>,
}

/// The most cells a grid may have, whatever the spread of the agents.
const MAX_CELLS: usize = 1 << 20;

impl NeighborGrid {
    /// Sorts `agents` (entity, position, velocity) into cells of at least
    /// `cell_size` (and at least 1 px). With `wrap`, the grid covers the wrap
    /// rectangle and queries go round its edges; without, it covers the
    /// agents. The buffers are reused: no allocation once they are big
    /// enough.
    pub fn rebuild(
        &mut self,
        agents: impl IntoIterator<Item = (Entity, Vec2, Vec2)>,
        cell_size: f32,
        wrap: Option<Rect>,
    ) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend(
            agents
                .into_iter()
                .filter(|(_, p, v)| p.is_finite() && v.is_finite()),
        );
        let mut cell_size = if cell_size.is_finite() {
            cell_size.max(1.0)
        } else {
            1.0
        };
        let wrap = wrap.filter(|r| {
            let s = r.size();
            s.is_finite() && s.x > 0.0 && s.y > 0.0
        });
        if let Some(rect) = wrap {
            // Keep every position inside the period, so a cell's copies
            // round the edges are exactly one period apart.
            let size = rect.size();
            for (_, p, _) in &mut scratch {
                *p = rect.min + (*p - rect.min).rem_euclid(size);
            }
        }
        let (origin, extent) = match wrap {
            Some(rect) => (rect.min, rect.size()),
            None if scratch.is_empty() => (Vec2::ZERO, Vec2::ONE),
            None => {
                let (min, max) = scratch.iter().fold(
                    (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
                    |(lo, hi), (_, p, _)| (lo.min(*p), hi.max(*p)),
                );
                (min, (max - min).max(Vec2::ONE))
            }
        };
        // In a wrapping world the cells tile the period exactly (each at
        // least `cell_size`); elsewhere they cover the agents. Too many
        // cells for the spread: bigger cells.
        let count = |len: f32, size: f32| ((len / size).floor() as usize).max(1);
        let (cols, rows) = loop {
            let (cols, rows) = match wrap {
                Some(_) => (count(extent.x, cell_size), count(extent.y, cell_size)),
                None => (
                    count(extent.x, cell_size) + 1,
                    count(extent.y, cell_size) + 1,
                ),
            };
            if cols * rows <= MAX_CELLS {
                break (cols, rows);
            }
            cell_size *= 2.0;
        };
        self.cell = match wrap {
            Some(_) => extent / Vec2::new(cols as f32, rows as f32),
            None => Vec2::splat(cell_size),
        };
        self.origin = origin;
        self.cols = cols;
        self.rows = rows;
        self.period = wrap.map_or(Vec2::ZERO, |r| r.size());

        // Counting sort by cell.
        let cells = cols * rows;
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        self.cell_of.clear();
        for (_, p, _) in &scratch {
            let cell = self.cell_index(self.cell_coords(*p));
            self.cell_of.push(cell as u32);
            self.cell_start[cell + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        let n = scratch.len();
        self.entities.clear();
        self.entities.resize(n, Entity::PLACEHOLDER);
        self.positions.clear();
        self.positions.resize(n, Vec2::ZERO);
        self.velocities.clear();
        self.velocities.resize(n, Vec2::ZERO);
        // The next free slot of each cell, in turn.
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.cell_start[..cells]);
        for (i, (entity, p, v)) in scratch.iter().enumerate() {
            let cell = self.cell_of[i] as usize;
            let slot = self.cursor[cell] as usize;
            self.cursor[cell] += 1;
            self.entities[slot] = *entity;
            self.positions[slot] = *p;
            self.velocities[slot] = *v;
        }
        self.scratch = scratch;
    }

    fn cell_coords(&self, p: Vec2) -> (i64, i64) {
        let c = ((p - self.origin) / self.cell).floor();
        (c.x as i64, c.y as i64)
    }

    fn cell_index(&self, (x, y): (i64, i64)) -> usize {
        let wrap_or_clamp = |v: i64, n: usize, wraps: bool| {
            if wraps {
                v.rem_euclid(n as i64) as usize
            } else {
                v.clamp(0, n as i64 - 1) as usize
            }
        };
        let x = wrap_or_clamp(x, self.cols, self.period.x > 0.0);
        let y = wrap_or_clamp(y, self.rows, self.period.y > 0.0);
        y * self.cols + x
    }

    /// `p`, moved inside the period of a wrapping world.
    fn inside_period(&self, p: Vec2) -> Vec2 {
        let axis = |x: f32, origin: f32, period: f32| {
            if period > 0.0 {
                origin + (x - origin).rem_euclid(period)
            } else {
                x
            }
        };
        Vec2::new(
            axis(p.x, self.origin.x, self.period.x),
            axis(p.y, self.origin.y, self.period.y),
        )
    }

    /// How many agents the grid holds.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the grid holds no agent.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Calls `f(index, offset, velocity)` for every agent within `radius`
    /// of `p` (`offset` = its position - `p`, the short way round a
    /// wrapping world). `index` is its place in the grid's arrays.
    pub fn for_each_within(&self, p: Vec2, radius: f32, mut f: impl FnMut(usize, Vec2, Vec2)) {
        if self.is_empty() || !p.is_finite() || radius.is_nan() || radius < 0.0 {
            return;
        }
        let radius = radius.min(1e9);
        let p = self.inside_period(p);
        let (cx, cy) = self.cell_coords(p);
        // The cells to visit on one axis, and whether they cover the whole
        // wrapped axis (then each candidate takes the short way round).
        let span = |n: usize, wraps: bool, c: i64, cell: f32| {
            let reach = (radius / cell).ceil() as i64;
            if wraps && 2 * reach + 1 >= n as i64 {
                (0, n as i64 - 1, true)
            } else if wraps {
                (c - reach, c + reach, false)
            } else {
                ((c - reach).max(0), (c + reach).min(n as i64 - 1), false)
            }
        };
        let (wraps_x, wraps_y) = (self.period.x > 0.0, self.period.y > 0.0);
        let (x0, x1, all_x) = span(self.cols, wraps_x, cx, self.cell.x);
        let (y0, y1, all_y) = span(self.rows, wraps_y, cy, self.cell.y);
        let short_way = all_x || all_y;
        // A visited cell past an edge is a copy of one inside, one period
        // over: shift its agents by that period instead of wrapping each.
        let wrap_axis = |v: i64, n: usize, wraps: bool, period: f32| {
            if wraps {
                (
                    v.rem_euclid(n as i64) as usize,
                    period * v.div_euclid(n as i64) as f32,
                )
            } else {
                (v as usize, 0.0)
            }
        };
        let r2 = radius * radius;
        for y in y0..=y1 {
            let (row, shift_y) = wrap_axis(y, self.rows, wraps_y, self.period.y);
            for x in x0..=x1 {
                let (col, shift_x) = wrap_axis(x, self.cols, wraps_x, self.period.x);
                let cell = row * self.cols + col;
                let shift = Vec2::new(shift_x, shift_y) - p;
                let range = self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize;
                for i in range {
                    let offset = if short_way {
                        model::wrapped_offset(p, self.positions[i], self.period)
                    } else {
                        self.positions[i] + shift
                    };
                    if offset.length_squared() <= r2 {
                        f(i, offset, self.velocities[i]);
                    }
                }
            }
        }
    }

    /// The agents within `radius` of `p`, with their positions.
    pub fn within(&self, p: Vec2, radius: f32) -> impl Iterator<Item = (Entity, Vec2)> {
        let mut found = Vec::new();
        self.for_each_within(p, radius, |i, _, _| {
            found.push((self.entities[i], self.positions[i]))
        });
        found.into_iter()
    }

    /// The entity at `index` of the grid's arrays.
    pub fn entity(&self, index: usize) -> Entity {
        self.entities[index]
    }
}

/// [`SteeringSystems::Neighbors`](crate::SteeringSystems::Neighbors): rebuilds
/// the grid when any agent flocks, with cells as large as the largest reach.
pub(crate) fn rebuild_grid(
    settings: Res<SteeringSettings>,
    mut grid: ResMut<NeighborGrid>,
    flockers: Query<&Flocking>,
    agents: Query<(Entity, &Position, &Velocity), With<SteeringAgent>>,
) {
    let reach = flockers
        .iter()
        .map(|f| f.params().reach())
        .fold(0.0f32, f32::max);
    if reach <= 0.0 {
        if !grid.is_empty() {
            grid.rebuild(std::iter::empty(), 1.0, settings.wrap);
        }
        return;
    }
    grid.rebuild(
        agents.iter().map(|(e, p, v)| (e, p.0, v.0)),
        reach,
        settings.wrap,
    );
}

/// [`SteeringSystems::Flock`](crate::SteeringSystems::Flock): each flocking
/// agent adds the three rules' steering over its neighbors, in one pass.
pub(crate) fn flock(
    settings: Res<SteeringSettings>,
    grid: Res<NeighborGrid>,
    mut agents: Query<(
        Entity,
        &Position,
        &Velocity,
        &Flocking,
        Option<&SteeringOverride>,
        &mut SteeringForce,
    )>,
) {
    agents
        .par_iter_mut()
        .for_each(|(entity, pos, vel, flocking, overrides, mut force)| {
            let agent = settings.params(overrides);
            let params = flocking.params();
            let heading = model::direction(vel.0);
            let mut sums = FlockSums::default();
            match flocking.max_neighbors {
                None => grid.for_each_within(pos.0, params.reach(), |i, offset, v| {
                    if grid.entity(i) != entity {
                        sums.add(Neighbor { offset, vel: v }, &params, heading);
                    }
                }),
                Some(limit) => {
                    let mut near: Vec<Neighbor> = Vec::new();
                    grid.for_each_within(pos.0, params.reach(), |i, offset, v| {
                        if grid.entity(i) != entity {
                            near.push(Neighbor { offset, vel: v });
                        }
                    });
                    near.sort_by(|a, b| {
                        a.offset
                            .length_squared()
                            .total_cmp(&b.offset.length_squared())
                    });
                    for n in near.into_iter().take(limit) {
                        sums.add(n, &params, heading);
                    }
                }
            }
            force.0 += sums.steering(vel.0, &params, agent.limits.max_speed, agent.response_time);
        });
}
