//! Autosave of unsaved work to a recovery file, offered back at the next start when the
//! studio did not close cleanly (a clean exit deletes the file). Reading it checks every
//! number, as for the other start-up files. GUI-free.

use crate::document::startup::{checked_level, Checked};
use crate::io::{from_ron, to_ron, write_atomic, FileError};
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
    /// The run-time games (GVGAI's) the rest may name: first, so reading registers them
    /// before the levels and packs are read.
    #[serde(default)]
    pub games: crate::game::registry::RuntimeGames,
    /// Seconds since the Unix epoch at the autosave.
    pub saved_at: u64,
    /// The game shown.
    pub game: Game,
    /// The level on the canvas of each game.
    pub levels: Vec<Level>,
    /// The open packs.
    pub packs: Vec<RecoveredPack>,
    /// For each canvas level (in the order of `levels`), the pack level it edited in place.
    #[serde(default)]
    pub links: Vec<Option<RecoveredLink>>,
    /// True when a clean exit wrote it to keep canvas work that is in no pack (not a crash).
    #[serde(default)]
    pub clean_exit: bool,
}

/// The pack level a canvas edited in place: its pack (by file and name) and its place.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecoveredLink {
    /// The pack's file, if it had one.
    pub path: Option<PathBuf>,
    /// The pack's name.
    pub pack: String,
    /// The level's place in the pack.
    pub level: usize,
}

impl Recovery {
    /// Reads a recovery file from its text and checks it ([`Recovery::check`]).
    ///
    /// # Errors
    /// [`FileError::Parse`] when the text is not a recovery file.
    pub fn from_text(path: &Path, text: &str) -> Result<Checked<Recovery>, FileError> {
        let mut recovery: Recovery = from_ron(path, text)?;
        let notes = recovery.check(path);
        Ok(Checked {
            value: recovery,
            notes,
        })
    }

    /// Brings every number into range: a save time in the future becomes now, levels (on the
    /// canvases and in the packs) are checked as [`checked_level`] does, and a pack of a newer
    /// format is left out. Returns what changed, in words.
    pub fn check(&mut self, path: &Path) -> Vec<String> {
        let mut notes = Vec::new();
        let now = now_secs();
        if self.saved_at > now {
            notes.push(format!(
                "recovery: saved at {} s, later than now ({now} s); now is used",
                self.saved_at
            ));
            self.saved_at = now;
        }
        let mut links = std::mem::take(&mut self.links);
        if links.len() != self.levels.len() {
            links = vec![None; self.levels.len()];
        }
        let (levels, links): (Vec<Level>, Vec<Option<RecoveredLink>>) =
            std::mem::take(&mut self.levels)
                .into_iter()
                .zip(links)
                .filter_map(|(l, link)| Some((checked_level(l, "recovery", &mut notes)?, link)))
                .unzip();
        (self.levels, self.links) = (levels, links);
        self.packs = std::mem::take(&mut self.packs)
            .into_iter()
            .filter_map(|mut p| {
                p.pack = match crate::files::migrate(path, p.pack) {
                    Ok(pack) => pack,
                    Err(e) => {
                        notes.push(format!("recovery: a pack is left out: {e}"));
                        return None;
                    }
                };
                let what = format!("recovery pack “{}”", p.pack.name);
                p.pack.levels = std::mem::take(&mut p.pack.levels)
                    .into_iter()
                    .filter_map(|l| checked_level(l, &what, &mut notes))
                    .collect();
                Some(p)
            })
            .collect();
        notes
    }

    /// Writes the recovery file atomically.
    ///
    /// # Errors
    /// [`FileError`](crate::io::FileError), naming the file.
    pub fn write(&self, path: &Path) -> Result<(), crate::io::FileError> {
        let text = to_ron(self)?;
        write_atomic(path, text.as_bytes())
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
