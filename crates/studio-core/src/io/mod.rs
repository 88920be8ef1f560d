//! Reading and writing files safely, for every part of the studio: atomic saves (a temporary
//! file beside the target, synced, then renamed), one writer at a time ([`lock`]), capped and
//! non-blocking reads, RON and JSON text with errors that name the file, line and column, and
//! the fingerprint that stamps files. Nothing here knows levels, games or models.

mod atomic;
mod folder;
mod hash;
pub mod lock;
mod read;

pub use atomic::{
    crash_point, create_temp, is_temp_name, sibling_name, swap_in_folder, write_atomic, FileState,
};
pub use folder::{export_folder, is_export_temp_name, write_new, FolderExport};
pub use hash::fnv1a_hex;
pub use lock::{LockError, WriteLock};
pub use read::{read_bytes, read_bytes_capped, read_regular_text, read_text, MAX_FILE_BYTES};

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What went wrong with a file, always naming it.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error (not a `source`: the message already says it, and a
        /// chain would print it twice).
        error: std::io::Error,
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
    /// A game description the pack carries (a GVGAI game's) could not be registered, so its
    /// levels cannot be read.
    #[error("{path}: {error}")]
    Source {
        /// The pack file.
        path: PathBuf,
        /// Why the description was refused.
        #[source]
        error: Box<crate::formats::FormatError>,
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
    /// The file holds nothing (or only blanks).
    #[error("{path}: the file is empty")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The file's extension says nothing the studio can read here.
    #[error("{path}: unknown file type (expected {expected})")]
    UnknownType {
        /// The file.
        path: PathBuf,
        /// The extensions that are read here, in words (".ron or .json").
        expected: &'static str,
    },
    /// The file is larger than the studio reads.
    #[error("{path}: larger than {} MiB; not a level, pack or model file the studio reads", limit / (1024 * 1024))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// A file that is not a regular file: a FIFO could block and a device never end, so it
    /// is not read (every reader of a file the user or the studio names checks this).
    #[error("{path}: not read: it is {kind}, not a regular file")]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead, in words ("a FIFO (named pipe)", "a device", "a folder").
        kind: &'static str,
    },
    /// A save target that must not be replaced (a link, a device, a read-only file).
    #[error("{path}: not replaced: {reason}")]
    Refused {
        /// The target.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// A value could not be written as RON or JSON (a number the format cannot hold).
    #[error("could not write the data: {0}")]
    Serialise(String),
    /// Another process is writing the same file (see [`lock`]).
    #[error(transparent)]
    Locked(#[from] lock::LockError),
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
    move |error| FileError::Io {
        path: path.to_path_buf(),
        error,
    }
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
/// [`FileError::Empty`] for a file of blanks, else [`FileError::Parse`].
pub fn from_ron<'a, T: Deserialize<'a>>(path: &Path, text: &'a str) -> Result<T, FileError> {
    if text.trim().is_empty() {
        return Err(FileError::Empty {
            path: path.to_path_buf(),
        });
    }
    ron::from_str(text).map_err(|e| {
        // A file cut off mid-write or mid-copy fails on whatever its last word happens to
        // be ("unexpected field `bran`"): the real cause is said first (W13).
        if ends_early(text) {
            let line = text.lines().count().max(1);
            let column = text.lines().last().map_or(0, |l| l.chars().count()) + 1;
            return FileError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: format!(
                    "the file ends early, inside an unfinished entry (cut off while being \
                     written or copied?); the reader stopped at line {}: {}",
                    e.span.start.line, e.code
                ),
            };
        }
        FileError::Parse {
            path: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        }
    })
}

/// True when RON or JSON text stops with a bracket or a string still open: a file cut off
/// rather than one written wrong.
pub fn ends_early(text: &str) -> bool {
    let mut depth = 0_i64;
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '\'' => {
                // A character literal such as '(' holds no bracket.
                if chars.next() == Some('\\') {
                    chars.next();
                }
                if chars.peek() == Some(&'\'') {
                    chars.next();
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    in_string || depth > 0
}

/// Parses JSON text, mapping errors to the file's line and column.
///
/// # Errors
/// [`FileError::Empty`] for a file of blanks, else [`FileError::Parse`].
pub fn from_json<'a, T: Deserialize<'a>>(path: &Path, text: &'a str) -> Result<T, FileError> {
    if text.trim().is_empty() {
        return Err(FileError::Empty {
            path: path.to_path_buf(),
        });
    }
    serde_json::from_str(text).map_err(|e| FileError::Parse {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

/// Parses `part`, a slice of the file's `text` (one field's raw RON or JSON, read in a first
/// pass), as `T`, with errors at their line and column in the whole file.
///
/// # Errors
/// [`FileError::Parse`].
pub fn from_part<'a, T: Deserialize<'a>>(
    path: &Path,
    text: &str,
    part: &'a str,
    json: bool,
) -> Result<T, FileError> {
    let parsed = if json {
        from_json(path, part)
    } else {
        from_ron(path, part)
    };
    parsed.map_err(|e| match e {
        FileError::Parse {
            path,
            line,
            column,
            message,
        } => {
            let start = (part.as_ptr() as usize)
                .checked_sub(text.as_ptr() as usize)
                .filter(|&s| s <= text.len())
                .unwrap_or(0);
            let before = &text[..start];
            let first_line = before.matches('\n').count() + 1;
            let first_column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            let (at_line, at_column) = (
                first_line + line - 1,
                if line <= 1 {
                    first_column + column - 1
                } else {
                    column
                },
            );
            // serde_json says the place in its message too: the whole file's place.
            let message = match message.strip_suffix(&format!(" at line {line} column {column}")) {
                Some(said) => format!("{said} at line {at_line} column {at_column}"),
                None => message,
            };
            FileError::Parse {
                path,
                line: at_line,
                column: at_column,
                message,
            }
        }
        other => other,
    })
}

/// The folder a file is in (`.` for a bare name).
pub fn folder_of(path: &Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// The first `max` bytes of `name`, cut at a character boundary.
pub fn truncate_name(name: &str, max: usize) -> &str {
    let mut end = max.min(name.len());
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}
