//! The studio's own files read at start (settings `app.ron`, `session.ron`, `recovery.ron`),
//! read so that no content can stop, crash or slow the start: only regular files of at most
//! [`MAX_FILE_BYTES`](crate::io::MAX_FILE_BYTES), opened without blocking; every number
//! brought into its range; and a file that cannot be used moved aside (renamed, never deleted)
//! so that the designer keeps it and the next start is clean. What was wrong comes back in
//! words for the status bar.

use crate::io::{read_regular_text, FileError};
use crate::level::Level;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// A value read from a start-up file and checked, with what was changed, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked<T> {
    /// The value, every number in range.
    pub value: T,
    /// One line per value changed or dropped (empty when the file was all in range).
    pub notes: Vec<String>,
}

/// What reading one start-up file gave.
#[derive(Clone, Debug, PartialEq)]
pub struct StartupRead<T> {
    /// The value, when the file was there and could be used.
    pub value: Option<T>,
    /// What was wrong, in words, for the status bar.
    pub notes: Vec<String>,
    /// The file could not be used and could not be moved aside either: it is still in place,
    /// and nothing else (eframe's storage) may open it.
    pub left_in_place: bool,
}

impl<T> StartupRead<T> {
    fn nothing() -> Self {
        Self {
            value: None,
            notes: Vec::new(),
            left_in_place: false,
        }
    }
}

/// Reads the start-up file `path` (`what` names it in the notes) with `parse`. A missing file
/// gives no value and no note. A file that is not a regular file, is larger than the cap, or
/// does not read (`parse` fails) is moved aside to `NAME.unread-SECONDS` beside it and
/// named in a note; the studio starts without it.
pub fn read_startup_file<T>(
    path: &Path,
    what: &str,
    parse: impl FnOnce(&Path, &str) -> Result<Checked<T>, FileError>,
) -> StartupRead<T> {
    let problem = match read_regular_text(path).and_then(|text| parse(path, &text)) {
        Ok(checked) => {
            return StartupRead {
                value: Some(checked.value),
                notes: checked.notes,
                left_in_place: false,
            }
        }
        // No file (or a dangling link): nothing to read, nothing to say.
        Err(FileError::Io { error, .. }) if error.kind() == std::io::ErrorKind::NotFound => {
            return StartupRead::nothing();
        }
        Err(e) => e.to_string(),
    };
    match move_aside(path) {
        Ok(kept) => StartupRead {
            value: None,
            notes: vec![format!(
                "{what} not read ({problem}); it is kept as {} and a fresh one is started",
                kept.display()
            )],
            left_in_place: false,
        },
        Err(e) => StartupRead {
            value: None,
            notes: vec![format!(
                "{what} not read ({problem}); it could not be moved aside ({e}), so it is \
                 left alone and this run's {what} is not kept"
            )],
            left_in_place: true,
        },
    }
}

/// Renames `path` to `NAME.unread-SECONDS` (`-2`, `-3`, … when taken) beside it; returns the
/// new path.
///
/// # Errors
/// The rename's error.
pub fn move_aside(path: &Path) -> std::io::Result<PathBuf> {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut last = std::io::Error::other("no free name");
    for n in 1..100 {
        let suffix = if n == 1 {
            String::new()
        } else {
            format!("-{n}")
        };
        let kept = path.with_file_name(format!("{name}.unread-{stamp}{suffix}"));
        if std::fs::symlink_metadata(&kept).is_ok() {
            continue;
        }
        match std::fs::rename(path, &kept) {
            Ok(()) => return Ok(kept),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// A number brought into `range`: a value that is not finite becomes `default`, a finite one
/// outside the range its nearest end. The note says what changed (`None` when nothing did).
pub fn checked_number(
    name: &str,
    value: f64,
    range: RangeInclusive<f64>,
    default: f64,
) -> (f64, Option<String>) {
    if range.contains(&value) {
        return (value, None);
    }
    let (min, max) = (*range.start(), *range.end());
    if !value.is_finite() || min.is_nan() || max.is_nan() || min > max {
        return (
            default,
            Some(format!(
                "{name} {value} is not a finite number; {default} is used"
            )),
        );
    }
    let near = value.clamp(min, max);
    (
        near,
        Some(format!(
            "{name} {value} is outside {min}–{max}; {near} is used"
        )),
    )
}

/// A level read from a start-up file, made safe to open: playtests whose time is not a finite
/// number are dropped, then the figures when one of them is not finite (validate it again).
/// `None`, with a note, when its game is unknown or its cells are not a level of its game.
pub fn checked_level(mut level: Level, what: &str, notes: &mut Vec<String>) -> Option<Level> {
    let name = level.name.clone();
    if let Some(problem) = level.non_finite_number() {
        level.playtests.retain(|p| p.seconds.is_finite());
        let dropped = if level.non_finite_number().is_some() {
            level.figures = None;
            "its figures are dropped (validate it again)"
        } else {
            "that playtest is dropped"
        };
        notes.push(format!("{what}: level “{name}”: {problem}; {dropped}"));
    }
    let problem = match level.game.game() {
        Ok(game) => game.check(&level.cells).err().map(|e| e.to_string()),
        Err(e) => Some(e.to_string()),
    };
    match problem {
        Some(problem) => {
            notes.push(format!("{what}: level “{name}” skipped: {problem}"));
            None
        }
        None => Some(level),
    }
}

/// The notes of a start-up as one line for the status bar: the first few, and how many more.
pub fn status_line(notes: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut line = notes
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(" · ");
    if notes.len() > SHOWN {
        line.push_str(&format!(" · and {} more", notes.len() - SHOWN));
    }
    line
}
