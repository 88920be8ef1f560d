//! Match-3 board layouts (the Avalon setting): cells and canvas, the rules engine, the
//! validation bots and the rule-based layout synthesiser that makes the datasets.

pub mod bot;
pub mod cvae;
pub mod dataset;
pub mod easiest;
pub mod evolve;
pub mod game;
pub mod generators;
pub mod layout;
pub mod rules;
pub mod synth;
pub mod validate;

pub use bot::BotKind;
pub use game::{Match3Game, ID};
pub use layout::{Cell, Layout, LayoutError};
pub use validate::{validate, Validation, ValidationConfig, ValidationError};
