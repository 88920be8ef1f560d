//! Match-3 board layouts (the Avalon setting): cells and canvas, the rules engine, the
//! validation bots and the figures they leave with a level, the rule-based layout
//! synthesiser that makes the datasets, the Avalon and Vanilla cVAEs (`cvae`), and the pattern
//! GA's layout breeder (`evolve`).

pub mod analysis;
pub mod bot;
pub mod cli;
pub mod cvae;
pub mod dataset;
pub mod easiest;
pub mod evolve;
pub mod figures;
pub mod game;
pub mod generators;
pub mod layout;
pub mod rules;
pub mod synth;
#[cfg(feature = "ui")]
pub mod ui;
pub mod validate;

pub use bot::BotKind;
pub use figures::Match3Figures;
pub use layout::{Cell, Layout, LayoutError, Match3Game, Match3Level, ID};
pub use validate::{validate, Validation, ValidationConfig, ValidationError};

/// The plug-in: adds this game, its command-line commands and its file formats to the
/// studio's registry.
pub fn plugin(registry: &mut studio_core::game::registry::Registry) {
    registry.add_game(&Match3Game);
    cli::commands(registry);
    #[cfg(feature = "ui")]
    ui::plugin(registry);
}

/// Unit tests run with this game registered, from the repository root (where the shipped
/// models and levels are), as the binary does.
#[cfg(test)]
#[ctor::ctor]
fn install_for_unit_tests() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[plugin]);
}
