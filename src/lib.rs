#![doc = include_str!("../README.md")]
//!
//! (This crate holds the examples, tests and benches of `bevy_reynolds`;
//! its docs are the project's README, so that the README's code is
//! compiled and tested.)
