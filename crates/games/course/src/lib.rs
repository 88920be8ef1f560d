//! Dungeon courses (rl-quality-diversity's turn-based RPG stages): a chain of battles and
//! recovery events ending in a boss, its battle rules and the exact evaluation over every
//! attack / retreat strategy.

pub mod analysis;
pub mod cli;
pub mod ddpg;
pub mod dqn;
pub mod figures;
pub mod game;
pub mod generators;
pub mod matrix;
pub mod model;
pub mod network;
pub mod play;
pub mod policy;
pub mod rules;
pub mod sl;

pub use figures::CourseFigures;
pub use matrix::{Course, CourseError, CourseGame, Structure, ID};
pub use rules::{evaluate, play, Evaluation, Playthrough};

#[cfg(test)]
mod tests;

/// The plug-in: adds this game, its command-line commands and its file formats to the
/// studio's registry.
pub fn plugin(registry: &mut studio_core::game::registry::Registry) {
    registry.add_game(&CourseGame);
    cli::commands(registry);
}

/// Unit tests run with this game registered, from the repository root (where the shipped
/// models and levels are), as the binary does.
#[cfg(test)]
#[ctor::ctor]
fn install_for_unit_tests() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[plugin]);
}
