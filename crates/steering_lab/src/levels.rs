//! The lab's own levels for navigation, in pixels, each with a start and a
//! goal that only a route reaches: a U-shaped trap with the goal behind it,
//! a maze, a spiral, and an office floor of rooms and doors.

use bevy::math::Vec2;

use crate::scenario::Level;

/// The names `--level` takes.
pub const NAMES: [&str; 4] = ["u-trap", "maze", "spiral", "office"];

/// A level, where its agent starts, and where it is sent.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedLevel {
    /// The walls and rocks.
    pub level: Level,
    /// Where the agent starts.
    pub start: Vec2,
    /// Where it is sent.
    pub goal: Vec2,
}

/// The level called `name` (see [`NAMES`]), if there is one.
pub fn named(name: &str) -> Option<NamedLevel> {
    match name {
        "u-trap" => Some(u_trap()),
        "maze" => Some(maze(20, 60.0, 7)),
        "spiral" => Some(spiral()),
        "office" => Some(office()),
        _ => None,
    }
}

fn walls(level_walls: &[(f32, f32, f32, f32)]) -> Vec<(Vec2, Vec2)> {
    level_walls
        .iter()
        .map(|&(x0, y0, x1, y1)| (Vec2::new(x0, y0), Vec2::new(x1, y1)))
        .collect()
}

/// A U open toward the agent, 300 px deep and 240 px wide, the goal behind
/// its bottom: an agent that seeks walks into the U and stays there.
pub fn u_trap() -> NamedLevel {
    NamedLevel {
        level: Level {
            walls: walls(&[
                (0.0, 120.0, 300.0, 120.0),
                (300.0, 120.0, 300.0, -120.0),
                (300.0, -120.0, 0.0, -120.0),
            ]),
            ..Default::default()
        },
        start: Vec2::new(-200.0, 0.0),
        goal: Vec2::new(450.0, 0.0),
    }
}

/// A `size` × `size` maze of square cells `cell` px wide (a perfect maze:
/// one way between any two cells), from its bottom-left cell to its
/// top-right one, made by a depth-first walk from a seeded stream.
pub fn maze(size: usize, cell: f32, seed: u64) -> NamedLevel {
    let mut state = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut next = move |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    };
    // Which walls stand: right of each cell, and above each.
    let mut right = vec![true; size * size];
    let mut up = vec![true; size * size];
    let mut seen = vec![false; size * size];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(&here) = stack.last() {
        let (x, y) = (here % size, here / size);
        let mut ways = Vec::with_capacity(4);
        if x + 1 < size && !seen[here + 1] {
            ways.push(here + 1);
        }
        if x > 0 && !seen[here - 1] {
            ways.push(here - 1);
        }
        if y + 1 < size && !seen[here + size] {
            ways.push(here + size);
        }
        if y > 0 && !seen[here - size] {
            ways.push(here - size);
        }
        if ways.is_empty() {
            stack.pop();
            continue;
        }
        let there = ways[next(ways.len())];
        match there {
            t if t == here + 1 => right[here] = false,
            t if t + 1 == here => right[there] = false,
            t if t == here + size => up[here] = false,
            _ => up[there] = false,
        }
        seen[there] = true;
        stack.push(there);
    }
    let side = size as f32 * cell;
    let mut level_walls = vec![
        (0.0, 0.0, side, 0.0),
        (side, 0.0, side, side),
        (side, side, 0.0, side),
        (0.0, side, 0.0, 0.0),
    ];
    for y in 0..size {
        for x in 0..size {
            let (x0, y0) = (x as f32 * cell, y as f32 * cell);
            if right[y * size + x] && x + 1 < size {
                level_walls.push((x0 + cell, y0, x0 + cell, y0 + cell));
            }
            if up[y * size + x] && y + 1 < size {
                level_walls.push((x0, y0 + cell, x0 + cell, y0 + cell));
            }
        }
    }
    NamedLevel {
        level: Level {
            walls: walls(&level_walls),
            ..Default::default()
        },
        start: Vec2::splat(cell / 2.0),
        goal: Vec2::splat(side - cell / 2.0),
    }
}

/// A square spiral of walls, its corridor 80 px wide, from outside its
/// mouth (at the bottom left) to its middle: four and a half turns in.
pub fn spiral() -> NamedLevel {
    let gap = 80.0;
    // Each side's length in corridors, turning left each time: three
    // sides of ten, then two of each length down to two.
    let mut lengths = vec![10.0, 10.0, 10.0];
    for n in (2..=9).rev() {
        lengths.extend([n as f32, n as f32]);
    }
    let dirs = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y];
    let mut p = Vec2::splat(-5.0 * gap);
    let mut level_walls = Vec::new();
    for (i, length) in lengths.into_iter().enumerate() {
        let q = p + dirs[i % 4] * length * gap;
        level_walls.push((p, q));
        p = q;
    }
    NamedLevel {
        level: Level {
            walls: level_walls,
            ..Default::default()
        },
        start: Vec2::new(-7.0 * gap, -4.5 * gap),
        goal: Vec2::new(-0.5 * gap, 0.0),
    }
}

/// An office floor 1,200 × 800 px: a corridor across the middle, three
/// rooms above it and three below, each with a door 80 px wide onto the
/// corridor, desks (boxes) in the rooms; from the far corner of the first
/// room to the far corner of the last.
pub fn office() -> NamedLevel {
    let (w, h) = (1200.0, 800.0);
    let (corridor_lo, corridor_hi) = (340.0, 460.0);
    let mut level_walls = vec![
        (0.0, 0.0, w, 0.0),
        (w, 0.0, w, h),
        (w, h, 0.0, h),
        (0.0, h, 0.0, 0.0),
    ];
    let room = w / 3.0;
    for i in 0..3 {
        let x0 = i as f32 * room;
        // Walls between rooms, above and below the corridor.
        if i > 0 {
            level_walls.push((x0, 0.0, x0, corridor_lo));
            level_walls.push((x0, corridor_hi, x0, h));
        }
        // The rooms' walls along the corridor, each with a door.
        let door = x0 + room / 2.0;
        for y in [corridor_lo, corridor_hi] {
            level_walls.push((x0, y, door - 40.0, y));
            level_walls.push((door + 40.0, y, x0 + room, y));
        }
    }
    let mut circles = Vec::new();
    for i in 0..3 {
        for y in [170.0, 630.0] {
            circles.push((Vec2::new(i as f32 * room + room / 2.0, y), 50.0));
        }
    }
    NamedLevel {
        level: Level {
            walls: walls(&level_walls),
            circles,
            ..Default::default()
        },
        start: Vec2::new(40.0, 40.0),
        goal: Vec2::new(w - 40.0, h - 40.0),
    }
}
