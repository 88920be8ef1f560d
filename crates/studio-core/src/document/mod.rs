//! The document model under the window: the board being edited for any game, the editor
//! that applies edit commands, undo/redo history, and open packs with their curation
//! (difficulty, verdicts, sorting, the difficulty curve), and what the window keeps between
//! runs (settings, session, recovery) with the checked reading of those start-up files.
//! GUI-free, so tests, fuzz targets and the command line can drive it too.

pub mod board;
pub mod editor;
pub mod history;
pub mod pack_doc;
pub mod recovery;
pub mod session;
pub mod settings;
pub mod startup;

pub use board::{Board, Tile};
pub use editor::{EditCommand, Editor, Identity};
pub use history::{History, Step};
pub use pack_doc::{LevelRef, Measured, PackDoc};
