//! Reading and writing levels and packs: RON, JSON export and ASCII input. Saves are atomic
//! (a temporary file in the same folder, then a rename), and every parse error names the file,
//! line and column.

use crate::game::AsciiError;
use crate::grid::GridError;
use crate::level::{Game, Level, Pack};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What went wrong with a file, always naming it.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The RON or JSON text is malformed or has the wrong shape.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line of the error, counted from 1.
        line: usize,
        /// The column of the error, counted from 1.
        column: usize,
        /// What the parser expected or found.
        message: String,
    },
    /// The cells of a level are not a valid level of its game.
    #[error("{path}: level {level:?}: {message}")]
    Level {
        /// The file.
        path: PathBuf,
        /// The level's name.
        level: String,
        /// What is wrong with its cells.
        message: String,
    },
    /// The pack was written by a newer studio; it is refused and never rewritten.
    #[error("{path}: pack format {found} is newer than this studio reads (up to {supported}); open it with a newer Level Studio")]
    NewerFormat {
        /// The pack file.
        path: PathBuf,
        /// The format version written in the file.
        found: u32,
        /// The newest format version this studio reads.
        supported: u32,
    },
    /// The file's extension says nothing the studio can read.
    #[error("{path}: unknown file type (expected .ron, .json or .txt)")]
    UnknownType {
        /// The file.
        path: PathBuf,
    },
    /// A value could not be written as RON or JSON (a number the format cannot hold).
    #[error("could not write the data: {0}")]
    Serialise(String),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
    move |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Pretty RON for levels and packs: one row of cells a line, short lists on one line.
///
/// # Errors
/// [`FileError::Serialise`] when RON cannot hold a value.
pub fn to_ron<T: Serialize>(value: &T) -> Result<String, FileError> {
    let config = ron::ser::PrettyConfig::new()
        .compact_arrays(true)
        .struct_names(false)
        .indentor("  ");
    let mut s = ron::ser::to_string_pretty(value, config)
        .map_err(|e| FileError::Serialise(e.to_string()))?;
    s.push('\n');
    Ok(s)
}

/// Parses RON text, mapping errors to the file's line and column.
///
/// # Errors
/// [`FileError::Parse`].
pub fn from_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    ron::from_str(text).map_err(|e| FileError::Parse {
        path: path.to_path_buf(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    })
}

/// Parses JSON text, mapping errors to the file's line and column.
///
/// # Errors
/// [`FileError::Parse`].
pub fn from_json<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    serde_json::from_str(text).map_err(|e| FileError::Parse {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

/// The temporary file a save of `path` writes first: hidden, beside it, named after it and
/// this process (`.NAME.PID.tmp`).
pub fn temp_path(path: &Path) -> PathBuf {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    dir.join(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes bytes atomically: a temporary file beside the target, flushed and synced, then
/// renamed over it, so a crash mid-save leaves the old file whole.
///
/// # Errors
/// [`FileError::Io`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io_err(path))?;
    let tmp = temp_path(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io_err(path))
}

fn read(path: &Path) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(io_err(path))
}

/// Checks that a level's cells make a level of its game (looked up in the registry).
///
/// # Errors
/// [`FileError::Level`] naming the level and the problem.
pub fn check_level(path: &Path, level: &Level) -> Result<(), FileError> {
    let problem = match level.game.game() {
        Ok(game) => game.check(&level.cells).err(),
        Err(e) => Some(e.to_string()),
    };
    match problem {
        Some(message) => Err(FileError::Level {
            path: path.to_path_buf(),
            level: level.name.clone(),
            message,
        }),
        None => Ok(()),
    }
}

/// How many characters of `text` are not tiles of `game` (to pick which game's error to
/// report when no game reads the text).
fn foreign_chars(game: &dyn crate::game::Game, text: &str) -> usize {
    text.chars()
        .filter(|c| !c.is_whitespace() && !game.tiles().iter().any(|t| t.ascii == *c))
        .count()
}

/// Builds a level from ASCII art. With `game`, the text is read as that game's level;
/// without, every registered game tries, and exactly one must accept it.
///
/// # Errors
/// [`FileError::Parse`] for a bad character or ragged rows (with line and column),
/// [`FileError::Level`] for a bad size or content, or text that several games accept.
pub fn level_from_ascii(path: &Path, text: &str, game: Option<Game>) -> Result<Level, FileError> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("level")
        .to_string();
    let file_error = |e: AsciiError| match e {
        AsciiError::Grid(g) => {
            let (line, column) = match g {
                GridError::Ragged { line, .. } => (line, 1),
                GridError::UnknownChar { line, column, .. } => (line, column),
                GridError::Empty => (1, 1),
            };
            FileError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: g.to_string(),
            }
        }
        AsciiError::Level(message) => FileError::Level {
            path: path.to_path_buf(),
            level: name.clone(),
            message,
        },
    };
    let level_error = |message: String| FileError::Level {
        path: path.to_path_buf(),
        level: name.clone(),
        message,
    };
    if let Some(id) = game {
        let game = id.game().map_err(|e| level_error(e.to_string()))?;
        return game.level_from_ascii(&name, text).map_err(file_error);
    }
    let games = crate::game::games();
    let tries: Vec<_> = games
        .iter()
        .map(|g| (*g, g.level_from_ascii(&name, text)))
        .collect();
    let accepted: Vec<&str> = tries
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(g, _)| g.id().as_str())
        .collect();
    if accepted.len() > 1 {
        return Err(level_error(format!(
            "the text is a level of several games ({}); name the game (--game)",
            accepted.join(", ")
        )));
    }
    let best = tries
        .into_iter()
        .min_by_key(|(g, r)| (r.is_err(), foreign_chars(*g, text)));
    match best {
        Some((_, result)) => result.map_err(file_error),
        None => Err(level_error("no game is registered".into())),
    }
}

/// Loads one level: `.ron` (a level file), `.json`, or anything else as ASCII art.
///
/// # Errors
/// [`FileError`] naming the file, and the line and column where the text is malformed.
pub fn load_level(path: &Path) -> Result<Level, FileError> {
    let text = read(path)?;
    let level: Level = match extension(path).as_str() {
        "ron" => from_ron(path, &text)?,
        "json" => from_json(path, &text)?,
        _ => return level_from_ascii(path, &text, None),
    };
    check_level(path, &level)?;
    Ok(level)
}

/// Loads a pack from RON (or from its JSON export).
///
/// # Errors
/// [`FileError`] naming the file, line and column, or the first bad level.
pub fn load_pack(path: &Path) -> Result<Pack, FileError> {
    let text = read(path)?;
    let pack: Pack = match extension(path).as_str() {
        "ron" => from_ron(path, &text)?,
        "json" => from_json(path, &text)?,
        _ => {
            return Err(FileError::UnknownType {
                path: path.to_path_buf(),
            })
        }
    };
    let pack = migrate(path, pack)?;
    for level in &pack.levels {
        check_level(path, level)?;
    }
    Ok(pack)
}

/// Brings a pack of an older format up to this one; refuses a newer one.
///
/// # Errors
/// [`FileError::NewerFormat`].
pub fn migrate(path: &Path, mut pack: Pack) -> Result<Pack, FileError> {
    let supported = Pack::format_version();
    if pack.format > supported {
        return Err(FileError::NewerFormat {
            path: path.to_path_buf(),
            found: pack.format,
            supported,
        });
    }
    // Format 0 (unversioned) and 1 hold the same fields: only the number changes.
    pack.format = supported;
    Ok(pack)
}

/// Loads the levels of a file that may be a pack or a single level (RON or JSON) or ASCII.
///
/// # Errors
/// As [`load_level`]; a RON file that is neither a pack nor a level reports the level parse
/// error.
pub fn load_levels(path: &Path) -> Result<Vec<Level>, FileError> {
    load_levels_as(path, None)
}

/// As [`load_levels`], reading ASCII art as a level of `game` when it is given.
///
/// # Errors
/// As [`load_levels`].
pub fn load_levels_as(path: &Path, game: Option<Game>) -> Result<Vec<Level>, FileError> {
    let text = read(path)?;
    let ext = extension(path);
    if ext == "ron" || ext == "json" {
        let as_pack: Result<Pack, FileError> = if ext == "ron" {
            from_ron(path, &text)
        } else {
            from_json(path, &text)
        };
        if let Ok(pack) = as_pack {
            let pack = migrate(path, pack)?;
            for level in &pack.levels {
                check_level(path, level)?;
            }
            return Ok(pack.levels);
        }
    }
    match ext.as_str() {
        "ron" | "json" => load_level(path).map(|l| vec![l]),
        _ => level_from_ascii(path, &text, game).map(|l| vec![l]),
    }
}

/// Saves a level as RON, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn save_level(path: &Path, level: &Level) -> Result<(), FileError> {
    write_atomic(path, to_ron(level)?.as_bytes())
}

/// Saves a pack as RON, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn save_pack(path: &Path, pack: &Pack) -> Result<(), FileError> {
    write_atomic(path, to_ron(pack)?.as_bytes())
}

/// Writes a pack's JSON export, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn export_pack_json(path: &Path, pack: &Pack) -> Result<(), FileError> {
    let mut s =
        serde_json::to_string_pretty(pack).map_err(|e| FileError::Serialise(e.to_string()))?;
    s.push('\n');
    write_atomic(path, s.as_bytes())
}
