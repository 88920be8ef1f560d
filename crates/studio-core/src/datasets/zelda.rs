//! The VGLC Zelda dungeons: files of rooms, each 11 columns × 16 rows of text, transposed
//! relative to the game (16 wide × 11 high on screen); a room of `-` only is no room.

use super::VglcError;
use std::path::{Path, PathBuf};

/// Columns of a room in a VGLC text file (its height on screen).
pub const VGLC_TEXT_COLUMNS: usize = 11;
/// Rows of a room in a VGLC text file (its width on screen).
pub const VGLC_TEXT_ROWS: usize = 16;

/// The VGLC dungeon files of a folder (or of its `Processed/` folder), in name order.
///
/// # Errors
/// [`VglcError::NoDungeons`].
pub fn vglc_files(dir: &Path) -> Result<Vec<PathBuf>, VglcError> {
    for folder in [dir.to_path_buf(), dir.join("Processed")] {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("tloz") && n.ends_with(".txt"))
            })
            .collect();
        if !files.is_empty() {
            files.sort();
            return Ok(files);
        }
    }
    Err(VglcError::NoDungeons(dir.to_path_buf()))
}

/// The rooms of one VGLC dungeon file's text as VGLC letters in game orientation (16 wide, 11
/// high), named "<file> room x,y"; all-void rooms are left out.
///
/// # Errors
/// [`VglcError::Text`] at the first line of the wrong length or letter VGLC does not use.
pub fn vglc_terrains(path: &Path, text: &str) -> Result<Vec<(String, Vec<String>)>, VglcError> {
    let bad = |line: usize, column: usize, message: String| VglcError::Text {
        path: path.to_path_buf(),
        line,
        column,
        message,
    };
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let lines: Vec<&str> = match lines.iter().rposition(|l| !l.is_empty()) {
        Some(last) => lines[..=last].to_vec(),
        None => return Err(bad(1, 1, "the file is empty".into())),
    };
    let width = lines[0].chars().count();
    if width == 0
        || !width.is_multiple_of(VGLC_TEXT_COLUMNS)
        || !lines.len().is_multiple_of(VGLC_TEXT_ROWS)
    {
        return Err(bad(
            1,
            1,
            format!(
                "{width} columns × {} lines is not a grid of {VGLC_TEXT_COLUMNS}×{VGLC_TEXT_ROWS} rooms",
                lines.len()
            ),
        ));
    }
    let mut chars: Vec<Vec<char>> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let row: Vec<char> = line.chars().collect();
        if row.len() != width {
            return Err(bad(
                i + 1,
                row.len().min(width) + 1,
                format!("{} columns, the first line has {width}", row.len()),
            ));
        }
        if let Some(j) = row.iter().position(|c| !"WFBMPOIDS-".contains(*c)) {
            return Err(bad(
                i + 1,
                j + 1,
                format!("{:?} is not a VGLC Zelda letter", row[j]),
            ));
        }
        chars.push(row);
    }
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("dungeon");
    let mut rooms = Vec::new();
    for ry in 0..lines.len() / VGLC_TEXT_ROWS {
        for rx in 0..width / VGLC_TEXT_COLUMNS {
            // Game orientation: x along the text's rows, y along its columns.
            let letter =
                |x: usize, y: usize| chars[ry * VGLC_TEXT_ROWS + x][rx * VGLC_TEXT_COLUMNS + y];
            let (w, h) = (VGLC_TEXT_ROWS, VGLC_TEXT_COLUMNS);
            if (0..h).all(|y| (0..w).all(|x| letter(x, y) == '-')) {
                continue;
            }
            let terrain: Vec<String> = (0..h)
                .map(|y| (0..w).map(|x| letter(x, y)).collect())
                .collect();
            rooms.push((format!("{stem} room {rx},{ry}"), terrain));
        }
    }
    Ok(rooms)
}
