//! What can go wrong in the window, typed: the error list shows each one in words, and tests
//! and code match on the kind instead of the text.

use std::path::PathBuf;

/// A problem shown in the window's error list (nothing the designer made is lost by it).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AppError {
    /// A file could not be opened (the message names file, line and column).
    #[error("Could not open: {0}")]
    Open(String),
    /// A pack opened at start could not be read.
    #[error("{0}")]
    Startup(String),
    /// A pack could not be saved (the old file is left whole).
    #[error("Could not save: {0}")]
    Save(String),
    /// A pack has no file yet, so "save all" cannot save it.
    #[error("“{0}” has no file yet: use File > Save pack as... first")]
    NoFile(String),
    /// An export failed.
    #[error("Could not export {}: {reason}", path.display())]
    Export {
        /// Where the export was going.
        path: PathBuf,
        /// Why it failed.
        reason: String,
    },
    /// The autosave could not be written.
    #[error("autosave failed: {0}")]
    Autosave(String),
    /// The pack strip's background analysis failed.
    #[error("measuring the pack: {0}")]
    Measure(String),
    /// The level under edit cannot be played.
    #[error("Cannot playtest: {0}")]
    Playtest(String),
    /// A level cannot be put on the canvas.
    #[error("level “{name}”: {reason}")]
    Level {
        /// The level's name.
        name: String,
        /// Why.
        reason: String,
    },
}

impl AppError {
    /// True when the message contains `text` (tests look for file positions this way).
    pub fn mentions(&self, text: &str) -> bool {
        self.to_string().contains(text)
    }
}
