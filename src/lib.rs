//! Level Studio: a level design studio for tile-based puzzle games.
//!
//! This library holds everything that is not GUI: the grid and symmetry helpers, the game
//! plug-in interface and its registry ([`game`]), the games (match-3 layouts and Longcat), the
//! generation service, jobs, level and pack files, exports, and the command line. The window
//! ([`app`], behind the default `gui` feature) only calls into it.

#[cfg(feature = "gui")]
pub mod app;
pub mod blend;
pub mod cli;
pub mod course;
pub mod datasets;
pub mod document;
pub mod dungeon;
pub mod evolve;
pub mod export;
pub mod files;
pub mod game;
pub mod generation;
pub mod grid;
pub mod io;
pub mod jobs;
pub mod level;
pub mod longcat;
pub mod mario;
pub mod match3;
pub mod ml;
pub mod rl;
pub mod rng;
pub mod symmetry;

/// The games this build ships, in the order menus list them: the one list of games.
pub const GAMES: &[game::registry::Plugin] = &[
    match3::plugin,
    longcat::plugin,
    dungeon::plugin,
    course::plugin,
    blend::plugin,
    mario::plugin,
];

/// Installs [`GAMES`] in the registry (the binary does this first; tests and benches too).
pub fn install_games() {
    game::registry::install(GAMES);
}

#[cfg(test)]
#[ctor::ctor]
fn install_games_for_unit_tests() {
    install_games();
}
