//! Exports of a pack that other tools read: the JSON export lives with the files
//! ([`crate::files::export_pack_json`]); here the labelled PNG sheet and Tiled maps, and the
//! line charts of the command line's plots.

pub mod chart;
pub mod font;
pub mod png;
pub mod tiled;

pub use png::{export_png, notes_of, render_sheet, SheetNote};
