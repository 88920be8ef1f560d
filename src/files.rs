//! Reading and writing levels and packs: RON, JSON export and ASCII input. Saves are atomic
//! (a temporary file in the same folder, then a rename), and every parse error names the file,
//! line and column.

use crate::grid::GridError;
use crate::level::{Game, Level, Pack};
use crate::match3::{Layout, LayoutError};
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
        path: PathBuf,
        source: std::io::Error,
    },
    /// The RON or JSON text is malformed or has the wrong shape.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// The cells of a level are not a valid level of its game.
    #[error("{path}: level {level:?}: {message}")]
    Level {
        path: PathBuf,
        level: String,
        message: String,
    },
    /// The file's extension says nothing the studio can read.
    #[error("{path}: unknown file type (expected .ron, .json or .txt)")]
    UnknownType { path: PathBuf },
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
pub fn to_ron<T: Serialize>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new()
        .compact_arrays(true)
        .struct_names(false)
        .indentor("  ");
    let mut s =
        ron::ser::to_string_pretty(value, config).expect("levels and packs always serialise");
    s.push('\n');
    s
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
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
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

/// Checks that a level's cells make a level of its game.
///
/// # Errors
/// [`FileError::Level`] naming the level and the problem.
pub fn check_level(path: &Path, level: &Level) -> Result<(), FileError> {
    let problem = match level.game {
        Game::Match3 => level.layout().err().map(|e| e.to_string()),
        Game::Longcat => crate::longcat::check_cells(&level.cells).err(),
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

/// Guesses the game of ASCII art: a cat head `@` means Longcat, anything else match-3.
pub fn guess_game(text: &str) -> Game {
    if text.contains('@') {
        Game::Longcat
    } else {
        Game::Match3
    }
}

/// Builds a level from ASCII art of either game.
///
/// # Errors
/// [`FileError::Parse`] for a bad character or ragged rows (with line and column),
/// [`FileError::Level`] for a bad size or content.
pub fn level_from_ascii(path: &Path, text: &str, game: Option<Game>) -> Result<Level, FileError> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("level")
        .to_string();
    let grid_err = |e: GridError| {
        let (line, column) = match e {
            GridError::Ragged { line, .. } => (line, 1),
            GridError::UnknownChar { line, column, .. } => (line, column),
            GridError::Empty => (1, 1),
        };
        FileError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: e.to_string(),
        }
    };
    match game.unwrap_or_else(|| guess_game(text)) {
        Game::Match3 => {
            let layout = Layout::parse_ascii(text).map_err(|e| match e {
                LayoutError::Grid(g) => grid_err(g),
                other => FileError::Level {
                    path: path.to_path_buf(),
                    level: name.clone(),
                    message: other.to_string(),
                },
            })?;
            Ok(Level::from_layout(name, &layout))
        }
        Game::Longcat => crate::longcat::level_from_ascii(&name, text).map_err(|e| match e {
            crate::longcat::LevelError::Grid(g) => grid_err(g),
            other => FileError::Level {
                path: path.to_path_buf(),
                level: name.clone(),
                message: other.to_string(),
            },
        }),
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
    for level in &pack.levels {
        check_level(path, level)?;
    }
    Ok(pack)
}

/// Loads the levels of a file that may be a pack or a single level (RON or JSON) or ASCII.
///
/// # Errors
/// As [`load_level`]; a RON file that is neither a pack nor a level reports the level parse
/// error.
pub fn load_levels(path: &Path) -> Result<Vec<Level>, FileError> {
    let text = read(path)?;
    let ext = extension(path);
    if ext == "ron" || ext == "json" {
        let as_pack: Result<Pack, FileError> = if ext == "ron" {
            from_ron(path, &text)
        } else {
            from_json(path, &text)
        };
        if let Ok(pack) = as_pack {
            for level in &pack.levels {
                check_level(path, level)?;
            }
            return Ok(pack.levels);
        }
    }
    load_level(path).map(|l| vec![l])
}

/// Saves a level as RON, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn save_level(path: &Path, level: &Level) -> Result<(), FileError> {
    write_atomic(path, to_ron(level).as_bytes())
}

/// Saves a pack as RON, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn save_pack(path: &Path, pack: &Pack) -> Result<(), FileError> {
    write_atomic(path, to_ron(pack).as_bytes())
}

/// Writes a pack's JSON export, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn export_pack_json(path: &Path, pack: &Pack) -> Result<(), FileError> {
    let mut s = serde_json::to_string_pretty(pack).expect("packs always serialise");
    s.push('\n');
    write_atomic(path, s.as_bytes())
}
