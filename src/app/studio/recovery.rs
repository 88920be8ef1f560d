//! Autosave of unsaved work to a recovery file, offered back at the next start when the
//! studio did not close cleanly (a clean exit deletes the file).

use crate::files::{from_ron, to_ron, write_atomic};
use crate::level::{Game, Level, Pack};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One open pack as autosaved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecoveredPack {
    /// The pack's file, if it had one.
    pub path: Option<PathBuf>,
    /// The pack as it was.
    pub pack: Pack,
    /// True when it had unsaved changes.
    pub dirty: bool,
}

/// Everything needed to put the designer's work back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recovery {
    /// Seconds since the Unix epoch at the autosave.
    pub saved_at: u64,
    /// The game shown.
    pub game: Game,
    /// The level on the canvas of each game.
    pub levels: Vec<Level>,
    /// The open packs.
    pub packs: Vec<RecoveredPack>,
}

impl Recovery {
    /// Reads a recovery file; `None` when there is none or it cannot be read (a damaged
    /// recovery file is not worth an error dialog at start).
    pub fn read(path: &Path) -> Option<Self> {
        let text = crate::files::read_text(path).ok()?;
        from_ron(path, &text).ok()
    }

    /// Writes the recovery file atomically.
    ///
    /// # Errors
    /// The file error in words.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = to_ron(self).map_err(|e| e.to_string())?;
        write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
    }

    /// Deletes the recovery file (clean exit, or the designer declined it).
    pub fn remove(path: &Path) {
        let _ = std::fs::remove_file(path);
    }

    /// "3 minutes ago" style age of the autosave.
    pub fn age(&self) -> String {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let s = now.saturating_sub(self.saved_at);
        match s {
            0..=59 => format!("{s} s ago"),
            60..=3599 => format!("{} min ago", s / 60),
            _ => format!("{} h ago", s / 3600),
        }
    }
}

/// Seconds since the Unix epoch now.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}
