//! The pack a long command line run writes again and again (`generate --out P` saves every
//! 10 s): each save first checks that the file is still the one this run last wrote, so a
//! designer who edits it meanwhile (in the window, an editor or another command) never loses
//! the edit. When it changed, the run stops writing there, says so once, and writes to a
//! sibling name instead.

use std::path::{Path, PathBuf};
use studio_core::files;
use studio_core::io;
use studio_core::io::{FileError, FileState};
use studio_core::level::Pack;

/// Where a run's pack goes, and what the file was when the run last wrote (or first saw) it.
#[derive(Debug)]
pub struct PackOut {
    path: PathBuf,
    last: Option<FileState>,
    diverted_from: Option<PathBuf>,
    /// Held for the whole run: a second run onto the same pack fails at once.
    _lock: studio_core::io::lock::WriteLock,
}

impl PackOut {
    /// Takes `path` for a run's saves: its write lock now, and its state as it is.
    ///
    /// # Errors
    /// [`FileError::Locked`] when another process is writing it.
    pub fn new(path: &Path) -> Result<Self, FileError> {
        let folder = io::folder_of(path);
        std::fs::create_dir_all(&folder).map_err(|error| FileError::Io {
            path: folder.clone(),
            error,
        })?;
        Ok(Self {
            path: path.to_path_buf(),
            last: FileState::of(path),
            diverted_from: None,
            _lock: studio_core::io::lock::WriteLock::acquire(path)?,
        })
    }

    /// Where the pack is written now (the sibling after a diversion).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file this run was asked to write, when someone else changed it and the run went
    /// to [`PackOut::path`] instead.
    pub fn diverted_from(&self) -> Option<&Path> {
        self.diverted_from.as_deref()
    }

    /// Saves `pack`: to the same file when it is still what this run last wrote, else (once)
    /// to a sibling name, with a warning on stderr.
    ///
    /// # Errors
    /// As [`files::save_pack`].
    pub fn save(&mut self, pack: &Pack) -> Result<(), FileError> {
        if FileState::of(&self.path) != self.last {
            let sibling = io::sibling_name(&self.path);
            eprintln!(
                "warning: {} was changed by someone else since this run {}; it is left as it \
                 is, and this run writes to {} instead",
                self.path.display(),
                if self.diverted_from.is_some() || self.last.is_some() {
                    "last saw it"
                } else {
                    "started"
                },
                sibling.display()
            );
            let lock = studio_core::io::lock::WriteLock::acquire(&sibling)?;
            self.diverted_from.get_or_insert_with(|| self.path.clone());
            self.path = sibling;
            self._lock = lock;
            self.last = None;
        }
        files::save_pack(&self.path, pack)?;
        self.last = FileState::of(&self.path);
        Ok(())
    }
}
