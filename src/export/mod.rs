//! Exports of a pack that other tools read: the JSON export lives with the files
//! ([`crate::files::export_pack_json`]); here the labelled PNG sheet.

pub mod png;

pub use png::{export_png, render_sheet};
