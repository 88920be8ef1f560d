//! The toy's own file format, `toy-rows`: a text file of levels, each a `# NAME` line and its
//! rows of `o` and `x`, levels apart by a blank line. What a game's importer and exporter look
//! like: a refusal names the file and the line.

use crate::level::{toy_level, TOY};
use std::path::Path;
use studio_core::formats::{Exporter, FormatError, ImportRequest, Imported, Importer};
use studio_core::io;
use studio_core::level::{Level, Pack};

/// Largest file read, in bytes.
const MAX_BYTES: u64 = 1 << 20;

/// `import --format toy-rows`.
pub const IMPORTER: Importer = Importer {
    format: "toy-rows",
    label: "Toy levels",
    help: "text files of `# NAME` and rows of o and x",
    menu: None,
    import,
};

/// `export --format toy-rows`.
pub const EXPORTER: Exporter = Exporter {
    format: "toy-rows",
    label: "Toy levels",
    help: "one text file of `# NAME` and rows of o and x",
    export,
};

/// The levels of one file's text.
///
/// # Errors
/// A row outside a level, a character other than `o` and `x`, or rows of two lengths: with
/// the line.
pub fn parse(path: &Path, text: &str) -> Result<Vec<Level>, FormatError> {
    let bad = |line: usize, message: String| FormatError::Malformed {
        path: path.to_path_buf(),
        line: Some(line),
        message: format!("line {line}: {message}"),
    };
    let mut levels: Vec<Level> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if let Some(name) = line.strip_prefix('#') {
            levels.push(toy_level(name.trim(), Vec::new()));
            open = true;
        } else if line.trim().is_empty() {
            open = false;
        } else {
            let Some(level) = levels.last_mut().filter(|_| open) else {
                return Err(bad(
                    line_no,
                    "a row outside a level (a `# NAME` line first)".into(),
                ));
            };
            if let Some(c) = line.chars().find(|c| !matches!(c, 'o' | 'x')) {
                return Err(bad(line_no, format!("{c:?} is not a toy tile (o or x)")));
            }
            if level.cells.first().is_some_and(|r| r.len() != line.len()) {
                return Err(bad(
                    line_no,
                    "a row of another length than the first".into(),
                ));
            }
            level.cells.push(line.to_string());
        }
    }
    if let Some(empty) = levels.iter().find(|l| l.cells.is_empty()) {
        return Err(FormatError::refused(format!(
            "{}: level {:?} has no rows",
            path.display(),
            empty.name
        )));
    }
    Ok(levels)
}

/// The text of a pack's levels.
pub fn write(levels: &[Level]) -> String {
    levels
        .iter()
        .map(|l| format!("# {}\n{}\n", l.name, l.cells.join("\n")))
        .collect::<Vec<_>>()
        .join("\n")
}

fn import(request: &ImportRequest) -> Result<Imported, FormatError> {
    let mut levels = Vec::new();
    for path in &request.paths {
        let bytes = io::read_bytes_capped(path, MAX_BYTES)?;
        let text = String::from_utf8_lossy(&bytes);
        levels.extend(parse(path, &text)?);
    }
    Ok(Imported {
        title: "Imported toy levels".into(),
        noun: "levels".into(),
        levels,
        skipped: Vec::new(),
    })
}

fn export(out: &Path, pack: &Pack) -> Result<String, FormatError> {
    if let Some(other) = pack.levels.iter().find(|l| l.game != TOY) {
        return Err(FormatError::refused(format!(
            "{:?} is a {} level: only toy levels export as toy-rows",
            other.name, other.game
        )));
    }
    io::write_atomic(out, write(&pack.levels).as_bytes())?;
    Ok(format!("{} levels", pack.levels.len()))
}
