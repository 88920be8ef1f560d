//! Match-3 board layouts (the Avalon setting): cells and canvas, the rules engine, the
//! validation bots and the rule-based layout synthesiser that makes the datasets.

pub mod bot;
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
pub mod validate;

pub use bot::BotKind;
pub use figures::Match3Figures;
pub use game::{Match3Game, ID};
pub use layout::{Cell, Layout, LayoutError, Match3Level};
pub use validate::{validate, Validation, ValidationConfig, ValidationError};

/// The plug-in: adds this game to the studio's registry.
pub fn plugin(registry: &mut crate::game::registry::Registry) {
    registry.add_game(&Match3Game);
}
