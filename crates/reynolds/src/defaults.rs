//! The model's numbers for Critters: the defaults everywhere in this
//! workspace, in pixels and seconds.

/// Top speed, in pixels a second.
pub const MAX_SPEED: f32 = 220.0;
/// The most the steering can change the velocity in a second, in pixels
/// a second, every second.
pub const MAX_FORCE: f32 = 380.0;
/// The quick response time, in seconds: the agent's reaction time.
pub const RESPONSE_TIME: f32 = 0.15;
/// The slow response time, in seconds, hidden in `steering = desired - vel`.
pub const SLOW_RESPONSE_TIME: f32 = 1.0;
/// Arrivers slow down inside this distance of the target, in pixels.
pub const SLOWING_RADIUS: f32 = 150.0;
/// Fleers panic inside this distance of the threat, in pixels.
pub const PANIC_RADIUS: f32 = 220.0;
/// Wander's angle step, in radians per square-root second: about 21° of
/// drift (one standard deviation) per second, at any frame rate.
pub const WANDER_RATE: f32 = 0.65;
/// How much more a grazer's fleeing counts than its wandering.
pub const GRAZE_FLEE_WEIGHT: f32 = 3.0;
/// Pursue and evade never look more than this far ahead, in seconds.
pub const MAX_LOOK_AHEAD: f32 = 1.0;
/// Below this speed, in pixels a second, an agent keeps its heading.
pub const HEADING_MIN_SPEED: f32 = 1.0;
/// Half-life of a measured target velocity's smoothing, in seconds.
pub const MEASURE_HALF_LIFE: f32 = 0.1;
/// Seconds between two trail samples.
pub const TRAIL_INTERVAL: f32 = 0.05;
/// Places a trail keeps: a second and a half of path.
pub const TRAIL_LENGTH: usize = 30;
/// An agent's mass: the model's agents all have a mass of 1, so their
/// steering force and their acceleration are the same number.
pub const MASS: f32 = 1.0;
/// How fast an agent's velocity may turn, in radians a second: the
/// model's agents have no limit but the force cap.
pub const MAX_TURN_RATE: f32 = f32::INFINITY;
/// An agent's body radius, in pixels: the model's agents are points.
pub const RADIUS: f32 = 0.0;
/// In priority combination, a group's force counts when it is longer
/// than this, in pixels a second per second (1% of the max force).
pub const PRIORITY_THRESHOLD: f32 = 3.8;
/// Avoidance looks this many seconds ahead at the agent's speed.
pub const LOOK_AHEAD_TIME: f32 = 0.8;
/// ...but never less than this far, in pixels, so a stopped agent still
/// sees what is in front of it.
pub const MIN_LOOK_AHEAD: f32 = 40.0;
/// The gap, in pixels, avoidance keeps between an agent's body and an
/// obstacle or wall.
pub const CLEARANCE: f32 = 4.0;
/// How many of the model's units (pixels) make a metre: its creatures, 20
/// px long, are half a metre. A game in other units scales the lengths by
/// its own units per metre over this (times, rates and weights stay).
pub const UNITS_PER_METRE: f32 = 40.0;
/// The gravity flyers bank under, in pixels a second per second: 9.81
/// m/s² at [`UNITS_PER_METRE`]. At the max force a flyer rolls by about 44°.
pub const BANK_GRAVITY: f32 = 9.81 * UNITS_PER_METRE;
/// How quickly a flyer's roll follows its acceleration: a half-life, in
/// seconds.
pub const BANK_HALF_LIFE: f32 = 0.1;
/// The Critters window, which the agents wrap around, in pixels.
pub const WORLD_SIZE: [f32; 2] = [1000.0, 700.0];
