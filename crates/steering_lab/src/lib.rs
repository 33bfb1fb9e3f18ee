//! The steering lab: scenarios run through the real
//! [`SteeringPlugins`](bevy_reynolds::SteeringPlugins) in a headless Bevy app,
//! measured the way the chapter quotes its numbers.
//!
//! ```
//! use steering_lab::{BehaviorKind, Scenario};
//!
//! // The chapter's seeker: in at full speed, it flies ~65 px past a still target.
//! let report = Scenario {
//!     behavior: BehaviorKind::Seek,
//!     start_vel: bevy::math::Vec2::new(220.0, 0.0),
//!     seconds: 3.0,
//!     ..Default::default()
//! }
//! .run()
//! .unwrap();
//! assert!((report.overshoot_px - 65.0).abs() < 3.0);
//! ```
#![warn(missing_docs)]

pub mod bench;
mod checks;
pub mod crowd;
mod experiments;
pub mod figures;
pub mod groups;
pub mod levels;
pub mod memory;
pub mod orders;
pub mod routes;
mod scenario;
pub mod shortest;
mod soak;

pub use checks::*;
pub use experiments::*;
pub use scenario::*;
pub use soak::*;
