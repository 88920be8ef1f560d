//! The blend dataset from the VGLC text levels (never copied into the repository): the 150 Lode
//! Runner levels (22 × 32) cut into four 16 × 16 quadrant segments each (rows 0–15 and 6–21,
//! so top and bottom overlap by 10 rows; columns 0–15 and 16–31), 600 segments; the Zelda rooms
//! (11 × 16 in game orientation, transposed from the text) padded with 3 blank rows above and 2
//! below, 459 segments; one seeded 85 / 10 / 5 % train / test / validation split.
//!
//! Blank padding is `-` (Zelda's void, which Table I merges with the rope), so it counts for
//! neither game.
//!
//! A segment becomes a studio level, tagged with its source game, by [`segment_level`].

pub use super::level::SIDE;
use std::path::{Path, PathBuf};
use studio_core::level::Level;
use studio_core::rng::Rng;

/// The game a segment was cut from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A Lode Runner quadrant.
    LodeRunner,
    /// A padded Zelda room.
    Zelda,
}

/// A 16 × 16 segment in the unified tile set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// "Level 12 top-left", "tloz3_1 room 2,4".
    pub name: String,
    /// Where it comes from.
    pub source: Source,
    /// 16 rows of 16 letters.
    pub rows: Vec<String>,
}

/// A segment as a studio level, tagged with its source game.
pub fn segment_level(segment: &Segment) -> Level {
    Level {
        game: super::ID,
        name: segment.name.clone(),
        cells: segment.rows.clone(),
        symmetry: Default::default(),
        tags: vec![match segment.source {
            Source::LodeRunner => "lode-runner".into(),
            Source::Zelda => "zelda".into(),
        }],
        figures: None,
        playtests: Vec::new(),
    }
}

/// The train / test / validation split.
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// 85 %.
    pub train: Vec<Segment>,
    /// 10 %.
    pub test: Vec<Segment>,
    /// 5 %.
    pub validation: Vec<Segment>,
}

/// Why the data could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The folder or a file is missing or unreadable.
    #[error("{path}: {reason}")]
    Read {
        /// The path.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A level is not the shape or the letters VGLC uses.
    #[error("{path}, line {line}: {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl From<DataError> for studio_core::formats::FormatError {
    fn from(error: DataError) -> Self {
        studio_core::formats::FormatError::game(error)
    }
}

/// The Lode Runner level files of `dir` (its `Lode Runner/Processed/`, or `dir` itself), in
/// level-number order.
///
/// # Errors
/// [`DataError::Read`] when there are none.
pub fn lode_runner_files(dir: &Path) -> Result<Vec<PathBuf>, DataError> {
    for folder in [
        dir.join("Lode Runner").join("Processed"),
        dir.join("Processed"),
        dir.to_path_buf(),
    ] {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut files: Vec<(u32, PathBuf)> = entries
            .flatten()
            .map(|e| e.path())
            .filter_map(|p| {
                let name = p.file_name()?.to_str()?;
                let n = name.strip_prefix("Level ")?.strip_suffix(".txt")?;
                Some((n.parse().ok()?, p.clone()))
            })
            .collect();
        if !files.is_empty() {
            files.sort();
            return Ok(files.into_iter().map(|(_, p)| p).collect());
        }
    }
    Err(DataError::Read {
        path: dir.to_path_buf(),
        reason: "no Lode Runner levels (\"Level N.txt\") here or in Lode Runner/Processed/".into(),
    })
}

/// The four quadrant segments of one Lode Runner level's text.
///
/// # Errors
/// [`DataError::Malformed`] for a level that is not 22 × 32 in Lode Runner's letters.
pub fn lode_runner_segments(path: &Path, text: &str) -> Result<Vec<Segment>, DataError> {
    let bad = |line: usize, message: String| DataError::Malformed {
        path: path.to_path_buf(),
        line,
        message,
    };
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.len() != 22 {
        return Err(bad(
            1,
            format!("{} rows, a Lode Runner level has 22", lines.len()),
        ));
    }
    for (i, l) in lines.iter().enumerate() {
        if l.chars().count() != 32 {
            return Err(bad(i + 1, format!("{} columns, not 32", l.chars().count())));
        }
        if let Some(c) = l.chars().find(|c| !"Bb.-#GEM".contains(*c)) {
            return Err(bad(i + 1, format!("{c:?} is not a Lode Runner letter")));
        }
    }
    let grid: Vec<Vec<char>> = lines.iter().map(|l| l.chars().collect()).collect();
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("level");
    let mut out = Vec::with_capacity(4);
    for (top, vertical) in [(0, "top"), (22 - SIDE, "bottom")] {
        for (left, horizontal) in [(0, "left"), (32 - SIDE, "right")] {
            out.push(Segment {
                name: format!("{stem} {vertical}-{horizontal}"),
                source: Source::LodeRunner,
                rows: (top..top + SIDE)
                    .map(|y| grid[y][left..left + SIDE].iter().collect())
                    .collect(),
            });
        }
    }
    Ok(out)
}

/// A Zelda room (11 rows of 16, game orientation) padded to a segment.
pub fn pad_room(name: String, terrain: &[String]) -> Segment {
    let blank = "-".repeat(SIDE);
    let mut rows = vec![blank.clone(); 3];
    rows.extend(terrain.iter().cloned());
    rows.extend([blank.clone(), blank]);
    Segment {
        name,
        source: Source::Zelda,
        rows,
    }
}

/// Every segment of both games under `dir` (the VGLC folder), Lode Runner first.
///
/// # Errors
/// A missing folder or a malformed file, naming it.
pub fn load(dir: &Path) -> Result<Vec<Segment>, DataError> {
    let read = |p: &Path| {
        studio_core::io::read_text(p).map_err(|e| DataError::Read {
            path: p.to_path_buf(),
            reason: e.to_string(),
        })
    };
    let mut out = Vec::new();
    for path in lode_runner_files(dir)? {
        out.extend(lode_runner_segments(&path, &read(&path)?)?);
    }
    let zelda = dir.join("The Legend of Zelda");
    let zelda = if zelda.is_dir() {
        zelda
    } else {
        dir.to_path_buf()
    };
    let files = studio_core::datasets::zelda::vglc_files(&zelda).map_err(|e| DataError::Read {
        path: zelda.clone(),
        reason: e.to_string(),
    })?;
    for path in files {
        let text = read(&path)?;
        let rooms = studio_core::datasets::zelda::vglc_terrains(&path, &text).map_err(|e| {
            DataError::Malformed {
                path: path.clone(),
                line: 1,
                message: e.to_string(),
            }
        })?;
        out.extend(rooms.into_iter().map(|(name, t)| pad_room(name, &t)));
    }
    Ok(out)
}

/// The seeded 85 / 10 / 5 % split of `segments` (shuffled together, as the paper's).
pub fn split(mut segments: Vec<Segment>, seed: u64) -> Split {
    Rng::derive(seed, 0xb1e).shuffle(&mut segments);
    let n = segments.len();
    let train = (n as f64 * 0.85).round() as usize;
    let test = (n as f64 * 0.10).round() as usize;
    let validation = segments.split_off((train + test).min(n));
    let test = segments.split_off(train.min(segments.len()));
    Split {
        train: segments,
        test,
        validation,
    }
}

/// `import --format vglc-lode-runner`: VGLC Lode Runner level files (or folders holding
/// "Level N.txt") as blend segments, each level's four quadrants.
///
/// # Errors
/// A file that cannot be read or is not a Lode Runner level, named.
pub fn import_lode_runner(
    request: &studio_core::formats::ImportRequest,
) -> Result<studio_core::formats::Imported, studio_core::formats::FormatError> {
    let mut files = Vec::new();
    for path in &request.paths {
        if path.is_dir() {
            files.extend(lode_runner_files(path)?);
        } else {
            files.push(path.clone());
        }
    }
    let mut levels = Vec::new();
    for path in &files {
        let text = studio_core::io::read_text(path)?;
        for segment in lode_runner_segments(path, &text)? {
            levels.push(segment_level(&segment));
        }
    }
    Ok(studio_core::formats::Imported {
        levels,
        title: "VGLC Lode Runner segments".into(),
        noun: format!("segments of {} Lode Runner levels", files.len()),
        skipped: Vec::new(),
    })
}
