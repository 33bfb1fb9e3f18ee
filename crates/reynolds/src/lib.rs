#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod behaviors;
pub mod combine;
pub mod crowd;
pub mod defaults;
pub mod flight;
pub mod flock;
pub mod formation;
pub mod level;
pub mod math;
pub mod measure;
pub mod model;
pub mod navigate;
pub mod path;
pub mod predict;
pub mod spatial;
pub mod wander;
pub mod wrap;
