//! Formats other tools write and read, added by the games that own them: an [`Importer`]
//! turns files into levels of a pack (`import --format`), an [`Exporter`] writes a pack out
//! (`export --format`). A game's plug-in adds them to the registry
//! ([`Registry::add_importer`](crate::game::registry::Registry::add_importer),
//! [`Registry::add_exporter`](crate::game::registry::Registry::add_exporter)); the command
//! line (and the window's File menu) list [`importers`] and [`exporters`] without naming a
//! game. Both answer a [`FormatError`], as does a game's source loader.

use crate::datasets::VglcError;
use crate::game::registry;
use crate::io::FileError;
use crate::level::{Level, Pack};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why an import, an export or a game source failed; every message names the file where
/// there is one.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// A file or folder could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error (not a `source`: the message says it already).
        error: std::io::Error,
    },
    /// A file read or written through the studio's safe file I/O (it names the file).
    #[error(transparent)]
    File(#[from] FileError),
    /// A file is not of the format: its path, the line where known, and what is wrong (the
    /// message says the line and column in the format's own words).
    #[error("{path}: {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line of the problem, counted from 1, where known.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A file could not be encoded (a picture, JSON) before it was written.
    #[error("{path}: {message}")]
    Encode {
        /// The file being written.
        path: PathBuf,
        /// What the encoder said.
        message: String,
    },
    /// A level's game is not registered.
    #[error(transparent)]
    UnknownGame(#[from] registry::UnknownGame),
    /// A VGLC file is not a grid of rooms, or the folder has none.
    #[error(transparent)]
    Vglc(#[from] VglcError),
    /// The format refuses what it was given (a pack of another game, no file named), in
    /// words.
    #[error("{0}")]
    Refused(String),
    /// A game's own typed error, kept as it is (it names the file in the game's words; a
    /// caller may downcast it).
    #[error(transparent)]
    Game(Box<dyn std::error::Error + Send + Sync>),
    /// No importer or exporter has this name.
    #[error("unknown format {format:?} ({known})")]
    UnknownFormat {
        /// The name asked for.
        format: String,
        /// The formats there are, comma-separated.
        known: String,
    },
    /// A pack names a game of a kind no plug-in reads.
    #[error("the pack's game {file} is a {kind} description, which this build cannot read")]
    UnknownSource {
        /// The game's description file.
        file: String,
        /// Its kind (`vgdl`).
        kind: String,
    },
    /// A pack's game does not load.
    #[error("the pack's game {file} does not load: {error}")]
    SourceRefused {
        /// The game's description file.
        file: String,
        /// Why its loader refused it.
        error: Box<FormatError>,
    },
}

impl FormatError {
    /// A refusal in words.
    pub fn refused(message: impl Into<String>) -> Self {
        FormatError::Refused(message.into())
    }

    /// `path` is not of the format, at `line` (from 1) where known.
    pub fn malformed(path: &Path, line: Option<usize>, message: impl Into<String>) -> Self {
        FormatError::Malformed {
            path: path.to_path_buf(),
            line,
            message: message.into(),
        }
    }

    /// A game's own error, kept with its type and its words.
    pub fn game(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        FormatError::Game(Box::new(error))
    }

    /// An encoder's error (a picture, JSON) on the file `path`.
    pub fn encode(path: &Path) -> impl FnOnce(&dyn std::fmt::Display) -> FormatError + '_ {
        move |error| FormatError::Encode {
            path: path.to_path_buf(),
            message: error.to_string(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> FormatError + '_ {
        move |error| FormatError::Io {
            path: path.to_path_buf(),
            error,
        }
    }
}

/// What an import is asked for.
#[derive(Clone, Debug)]
pub struct ImportRequest {
    /// The files or folders named.
    pub paths: Vec<PathBuf>,
    /// Seed of anything the import places by chance.
    pub seed: u64,
}

/// What an import made.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    /// The levels, in the order of the files.
    pub levels: Vec<Level>,
    /// The pack's title ("Imported rooms (seed 3)").
    pub title: String,
    /// What one level is called in the summary ("rooms", "segments").
    pub noun: String,
    /// Files or parts left out, each with why (printed, not fatal).
    pub skipped: Vec<String>,
}

/// A format a game reads levels from.
#[derive(Clone, Copy, Debug)]
pub struct Importer {
    /// Its name on the command line (`gvgai-text`).
    pub format: &'static str,
    /// Its name in the window's menus ("GVGAI Zelda levels").
    pub label: &'static str,
    /// What it reads, for help texts ("level files or their folder").
    pub help: &'static str,
    /// A File menu item of its own besides File > Import ("Open GVGAI game…"), for a format
    /// that brings a whole game with it.
    pub menu: Option<&'static str>,
    /// Reads the files.
    pub import: fn(&ImportRequest) -> Result<Imported, FormatError>,
}

/// A format a game writes a pack to.
#[derive(Clone, Copy, Debug)]
pub struct Exporter {
    /// Its name on the command line (`level-text`).
    pub format: &'static str,
    /// Its name in the window's menus ("VGLC Super Mario Bros levels").
    pub label: &'static str,
    /// What it writes, for help texts.
    pub help: &'static str,
    /// Writes `pack` to the folder or file `out`; answers what was written, in words
    /// ("12 level files").
    pub export: fn(&Path, &Pack) -> Result<String, FormatError>,
}

/// The importers the installed games add, in the order they were added.
pub fn importers() -> Vec<Arc<Importer>> {
    registry::entries::<Importer>()
}

/// The exporters the installed games add, in the order they were added.
pub fn exporters() -> Vec<Arc<Exporter>> {
    registry::entries::<Exporter>()
}

/// The importer named `format`.
///
/// # Errors
/// [`FormatError::UnknownFormat`] listing the known ones.
pub fn importer(format: &str) -> Result<Arc<Importer>, FormatError> {
    let all = importers();
    all.iter()
        .find(|i| i.format == format)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|i| i.format).collect();
            FormatError::UnknownFormat {
                format: format.to_string(),
                known: names.join(", "),
            }
        })
}

/// The files an import reads: each path that is a file, and the files of each folder whose
/// name ends in `.extension` (sorted by name).
///
/// # Errors
/// [`FormatError::Io`] for a folder that cannot be listed.
pub fn files_in(paths: &[PathBuf], extension: &str) -> Result<Vec<PathBuf>, FormatError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(FormatError::io(path))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == extension))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// A file's name without its extension, as a level name (`fallback` when it has none).
pub fn stem(path: &Path, fallback: &str) -> String {
    path.file_stem()
        .map_or(fallback.into(), |s| s.to_string_lossy().into_owned())
}
