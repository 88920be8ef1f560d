//! Level Studio: a level design studio for tile-based puzzle games.
//!
//! The `level-studio` package: [`GAMES`], the one list of games, and the binary that installs
//! them and runs the command line (the `studio-cli` crate, [`cli`]) or the window (the
//! `studio-app` crate, [`app`], behind the default `gui` feature, which also turns on the
//! games' own window parts). Everything else lives in the
//! workspace's crates, re-exported here under their old paths: the core (`studio-core`), the
//! ML plumbing (`studio-ml`) and one crate per game (`crates/games/<game>`).

#[cfg(feature = "gui")]
pub use studio_app as app;

pub use studio_cli as cli;
pub use studio_core::{
    datasets, document, evolve, export, files, formats, game, generation, grid, io, jobs, level,
    rng, symmetry,
};
pub use studio_ml as ml;
pub use studio_ml::rl;
pub use {blend, course, dungeon, gvgai, longcat, mario, match3};

/// The games this build ships, in the order menus list them: the one list of games.
pub const GAMES: &[game::registry::Plugin] = &[
    match3::plugin,
    longcat::plugin,
    dungeon::plugin,
    course::plugin,
    blend::plugin,
    mario::plugin,
    gvgai::plugin,
];

/// Installs [`GAMES`] in the registry (the binary does this first; tests and benches too).
pub fn install_games() {
    game::registry::install(GAMES);
}
