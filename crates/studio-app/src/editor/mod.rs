//! The editor room: the tile canvas, how tiles are painted, and the sidebar with the level's
//! conditions, the tools and the palette. The level itself (board, edits, undo) is the
//! GUI-free document model in [`studio_core::document`].

pub mod canvas;
mod cells;
pub use studio_ui::palette;
pub mod sidebar;
mod tools;

pub use studio_core::document::editor::{EditCommand, Editor};
