//! The plugin's behavior, headless, as games use it: one test binary (each
//! links Bevy), a module a topic.

mod debug_view;
mod defaults;
mod flyers;
mod fuzz;
mod neighbors;
mod physics;
mod physics_3d;
mod plugin;
mod robustness;
mod support;
