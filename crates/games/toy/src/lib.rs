//! The toy game: the template a new game copies, and the game the tests that show games are
//! plug-ins register. Two tiles (`o` open, `x` crate), an analysis that counts crates and
//! draws the state graph of clearing them (through the core's generic explorer), a generator
//! of random rows, a playtest in which a click clears a crate, a file format of its own, a
//! command and a tool window. It is never in `GAMES`: tests register it at run time
//! (`tests/studio/registry.rs`, `tests/ui/ui_toy.rs`, and its own `tests/integration`).
//!
//! It has the shape every game crate has (ARCHITECTURE.md, "How a game plugs in"), each part
//! tiny: `level` (id, tiles, the level type and its helpers), `rules`, `analysis`,
//! `generators`, `formats`, `game` (`impl Game` and `impl GameView` only, named by nothing but
//! this file), `cli/` (its command), `ui/` (its window part, behind the `ui` feature), a test
//! (`tests/integration`) and a bench (`benches/toy.rs`). A game that stores figures with its
//! levels adds `figures.rs` (Longcat's is the smallest); one with learned models,
//! `models/<name>/`. A new game copies this crate, renames it, and adds two lines outside it:
//! its workspace dependency in `Cargo.toml` and its `plugin` in `GAMES` (`src/lib.rs`).

pub mod analysis;
pub mod cli;
pub mod formats;
mod game;
pub mod generators;
pub mod level;
pub mod rules;
#[cfg(feature = "ui")]
pub mod ui;

pub use generators::toy_request;
pub use level::{toy_level, ToyGame, MAX_CELLS, TOY};
pub use rules::{Clearing, Crates};

use studio_cli::RegisterCommands;
use studio_core::game::registry::{self, Registry};

/// The plug-in: adds the toy, its command, its file format and (with `ui`) its tool window
/// to a registry.
pub fn plugin(registry: &mut Registry) {
    registry.add_game(&ToyGame);
    registry.add_command(cli::command());
    registry.add_importer(formats::IMPORTER);
    registry.add_exporter(formats::EXPORTER);
    #[cfg(feature = "ui")]
    studio_ui::RegisterWindowParts::add_tool(registry, ui::tool());
}

/// Installs the toy's plug-in in the studio's registry at run time (once; later calls do
/// nothing).
pub fn register_toy() {
    registry::install(&[plugin]);
}
