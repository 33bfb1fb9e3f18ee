//! Examples, tests and benches of bevy_steering live beside this crate.
