//! The vector and direction types agents steer with, on the plane they
//! move on: positions, velocities and forces are [`Vector`]s, headings
//! [`Dir`]s. (The core's [`Vector`]; a full-3D build would change these two
//! and the planar code, which says that it is.)

pub(crate) use reynolds::math::Vector;

/// A direction on the plane agents move on: a unit [`Vector`].
pub(crate) type Dir = bevy::math::Dir2;
