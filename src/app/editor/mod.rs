//! The editor room: the tile canvas, how tiles are painted, and the sidebar with the level's
//! conditions, the tools and the palette. The level itself (board, edits, undo) is the
//! GUI-free document model in [`crate::document`].

pub mod canvas;
pub mod palette;
pub mod sidebar;
mod tools;

pub use crate::document::editor::{EditCommand, Editor};
