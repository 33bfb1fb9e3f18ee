//! The lab's scenes through the real plugin, headless: the chapter's
//! numbers, crowds, groups and formations, games' worlds, levels, routes
//! and move orders, the step's pipeline. One test binary (each links Bevy),
//! a module a topic.

mod chapter_numbers;
mod crowd;
mod formations;
mod game;
mod groups;
mod level;
mod navigate;
mod pipeline;
