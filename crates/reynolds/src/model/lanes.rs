//! Eight agents' [`step_vehicle`] at once.
//! An agent's step is three square roots and three divisions in a chain
//! (the force capped, the speed capped, the heading), each waiting on the
//! last: most of what integrating costs. Eight lanes take one of each for
//! eight agents. Every lane does the same operations in the same order as
//! [`step_vehicle`], so the same results to the bit; a lane it would treat
//! specially (a value not finite, a turn limit, a heading not a unit
//! vector, a vector too long to square) is stepped by [`step_vehicle`]
//! itself.
//! Planar: the lanes hold each vector's x and y apart.

use glam::Vec2;
use wide::f32x8;

use super::{Kinematics, Vehicle, step_vehicle};
use crate::defaults::HEADING_MIN_SPEED;
use crate::math::sanitize_dt;

/// How many agents [`step_vehicles`] steps at once.
pub const LANES: usize = 8;

/// [`step_vehicle`] for eight agents: each one's next kinematics and
/// heading, the same to the bit as stepping each alone.
///
/// ```
/// # use reynolds::model::{Kinematics, Vehicle, step_vehicle, step_vehicles};
/// # use glam::Vec2;
/// let agents = std::array::from_fn(|i| Kinematics {
///     pos: Vec2::new(i as f32, 0.0),
///     vel: Vec2::new(100.0, i as f32),
/// });
/// let headings = [Vec2::X; 8];
/// let steering = std::array::from_fn(|i| Vec2::new(0.0, 50.0 * i as f32));
/// let vehicles = [Vehicle::default(); 8];
/// let (next, facing) = step_vehicles(&agents, &headings, &steering, &vehicles, 1.0 / 60.0);
/// for i in 0..8 {
///     let one = step_vehicle(agents[i], headings[i], steering[i], vehicles[i], 1.0 / 60.0);
///     assert_eq!((next[i], facing[i]), one);
/// }
/// ```
pub fn step_vehicles(
    agents: &[Kinematics; LANES],
    headings: &[Vec2; LANES],
    steering: &[Vec2; LANES],
    vehicles: &[Vehicle; LANES],
    dt: f32,
) -> ([Kinematics; LANES], [Vec2; LANES]) {
    let dt = sanitize_dt(dt);
    let alone = |i: usize| step_vehicle(agents[i], headings[i], steering[i], vehicles[i], dt);
    if dt == 0.0 {
        let each: [(Kinematics, Vec2); LANES] = std::array::from_fn(alone);
        return (each.map(|(k, _)| k), each.map(|(_, h)| h));
    }
    let (px, py) = (lanes(|i| agents[i].pos.x), lanes(|i| agents[i].pos.y));
    let (vx, vy) = (lanes(|i| agents[i].vel.x), lanes(|i| agents[i].vel.y));
    let (hx, hy) = (lanes(|i| headings[i].x), lanes(|i| headings[i].y));
    let (sx, sy) = (lanes(|i| steering[i].x), lanes(|i| steering[i].y));
    let max_speed = lanes(|i| vehicles[i].limits.max_speed);
    let max_force = lanes(|i| vehicles[i].limits.max_force);
    let mass = lanes(|i| vehicles[i].mass);
    let turn_rate = lanes(|i| vehicles[i].max_turn_rate);
    let (zero, one, infinity) = (f32x8::ZERO, f32x8::ONE, f32x8::splat(f32::INFINITY));
    let dt = f32x8::splat(dt);
    let finite = |x: f32x8| x.abs().simd_lt(infinity);

    // The lanes `step_vehicle` takes no detour in: everything finite, the
    // heading a unit vector (as glam's `is_normalized` has it), limits above
    // 0 (a limit of -0 would scale by -0), a mass above 0, and no turn limit
    // (`sanitize_turn_rate` makes a negative or NaN rate none).
    let mut usual = finite(px) & finite(py) & finite(vx) & finite(vy) & finite(sx) & finite(sy);
    usual &= ((hx * hx + hy * hy) - one)
        .abs()
        .simd_le(f32x8::splat(2e-4));
    usual &= max_speed.simd_gt(zero) & max_force.simd_gt(zero);
    usual &= finite(mass) & mass.simd_gt(zero);
    usual &= !(turn_rate.simd_ge(zero) & finite(turn_rate));

    // `truncated`: shortened to the limit if longer. A length that
    // overflows is a detour; that check also catches every vector that is
    // not finite, so none other is needed before the next one is taken.
    let truncated = |x: f32x8, y: f32x8, max: f32x8, usual: &mut f32x8| {
        let len = (x * x + y * y).sqrt();
        *usual &= finite(len);
        let longer = len.simd_gt(max);
        let scale = max / len;
        (longer.select(x * scale, x), longer.select(y * scale, y))
    };
    let (fx, fy) = truncated(sx, sy, max_force, &mut usual);
    let (ax, ay) = (fx / mass, fy / mass);
    let (wx, wy) = (vx + ax * dt, vy + ay * dt);
    let (vx, vy) = truncated(wx, wy, max_speed, &mut usual);
    // `heading`: along the velocity above 1 px/s, else as it faced.
    let speed = (vx * vx + vy * vy).sqrt();
    let moving = speed.simd_gt(f32x8::splat(HEADING_MIN_SPEED));
    let (nx, ny) = (moving.select(vx / speed, hx), moving.select(vy / speed, hy));
    let (px, py) = (px + vx * dt, py + vy * dt);
    usual &= finite(px) & finite(py);

    let (px, py, vx, vy) = (px.to_array(), py.to_array(), vx.to_array(), vy.to_array());
    let (nx, ny) = (nx.to_array(), ny.to_array());
    let usual = usual.to_bitmask();
    let mut next = [Kinematics::default(); LANES];
    let mut facing = [Vec2::ZERO; LANES];
    for i in 0..LANES {
        (next[i], facing[i]) = if usual & (1 << i) != 0 {
            let kinematics = Kinematics {
                pos: Vec2::new(px[i], py[i]),
                vel: Vec2::new(vx[i], vy[i]),
            };
            (kinematics, Vec2::new(nx[i], ny[i]))
        } else {
            alone(i)
        };
    }
    (next, facing)
}

/// Eight lanes, lane `i` being `f(i)`.
#[inline(always)]
fn lanes(f: impl Fn(usize) -> f32) -> f32x8 {
    f32x8::new(std::array::from_fn(f))
}
