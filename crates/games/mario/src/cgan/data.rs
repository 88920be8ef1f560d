//! Reading the VGLC Super Mario Bros levels and cutting them into patterns (4-column windows)
//! and training samples (16-column windows = four connected patterns), both sliding by one
//! column, with a seeded train/test split of the levels.
//!
//! The levels are read by the studio's VGLC import. Pat_legal here is built from the training levels only, so the test levels stay
//! unseen by both the generator and Matching (the thesis uses every level for Pat_legal).

use super::{PatLegal, Pattern, CELLS, COLS, ROWS};
use crate::tiles::Tile;
use std::io;
use std::path::Path;
use studio_core::rng::Rng;

/// Patterns in a training sample (three context patterns and the one to generate).
pub const SAMPLE_PATTERNS: usize = 4;
/// Columns of a training sample.
pub const SAMPLE_COLS: usize = SAMPLE_PATTERNS * COLS;

/// One level as columns of tile indices (row 0 at the top).
#[derive(Clone, Debug)]
pub struct Level {
    /// The file's stem, e.g. `mario-1-1`.
    pub name: String,
    /// The level's columns, left to right.
    pub columns: Vec<[u8; ROWS]>,
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

impl Level {
    /// The columns of a checked level of [`ROWS`] rows (markers read as sky).
    pub fn from_mario(name: &str, level: &crate::MarioLevel) -> Self {
        let columns = (0..level.width())
            .map(|x| {
                let mut col = [Tile::Empty.index(); ROWS];
                for (y, c) in col.iter_mut().enumerate().take(level.height()) {
                    *c = match level.get(x, y) {
                        Tile::Start | Tile::Goal => Tile::Empty,
                        t => t,
                    }
                    .index();
                }
                col
            })
            .collect();
        Self {
            name: name.to_string(),
            columns,
        }
    }
}

impl Level {
    /// The pattern whose first column is `start` (`start + 4 <= width`).
    pub fn pattern_at(&self, start: usize) -> Pattern {
        let mut p = [0u8; CELLS];
        for (c, col) in self.columns[start..start + COLS].iter().enumerate() {
            p[c * ROWS..(c + 1) * ROWS].copy_from_slice(col);
        }
        p
    }

    /// Every 4-column window, sliding by one column.
    pub fn patterns(&self) -> Vec<Pattern> {
        let n = (self.columns.len() + 1).saturating_sub(COLS);
        (0..n).map(|s| self.pattern_at(s)).collect()
    }

    /// Every 16-column window (four connected patterns), sliding by one column.
    pub fn samples(&self) -> Vec<[Pattern; SAMPLE_PATTERNS]> {
        let n = (self.columns.len() + 1).saturating_sub(SAMPLE_COLS);
        (0..n)
            .map(|s| std::array::from_fn(|k| self.pattern_at(s + k * COLS)))
            .collect()
    }
}

/// The training data: levels split by seed, their samples, and Pat_legal.
#[derive(Clone, Debug)]
pub struct CganData {
    /// Levels the model trains on.
    pub train_levels: Vec<Level>,
    /// Levels held out.
    pub test_levels: Vec<Level>,
    /// Training samples (four connected patterns each) from `train_levels`.
    pub train: Vec<[Pattern; SAMPLE_PATTERNS]>,
    /// Test samples from `test_levels`.
    pub test: Vec<[Pattern; SAMPLE_PATTERNS]>,
    /// 4-column windows of the training levels, before removing duplicates.
    pub pattern_windows: usize,
    /// The distinct patterns of the training levels.
    pub legal: PatLegal,
}

impl CganData {
    /// Reads every `mario-*.txt` in `dir` and splits the levels (sorted by name, then shuffled
    /// with `seed`) into `test_count` test levels and the rest for training.
    ///
    /// # Errors
    /// A level cannot be read, or there are not more levels than `test_count`.
    pub fn load(dir: &Path, seed: u64, test_count: usize) -> io::Result<Self> {
        let levels = crate::patterns::vglc_levels(dir)
            .map_err(|e| invalid(e.to_string()))?
            .iter()
            .filter(|(_, l)| l.height() == ROWS)
            .map(|(name, l)| Level::from_mario(name, l))
            .collect();
        Self::split(levels, seed, test_count)
    }

    /// Splits already-read levels as [`CganData::load`] does.
    ///
    /// # Errors
    /// There are not more levels than `test_count`.
    pub fn split(mut levels: Vec<Level>, seed: u64, test_count: usize) -> io::Result<Self> {
        if levels.len() <= test_count {
            return Err(invalid(format!(
                "{} levels, {test_count} for test",
                levels.len()
            )));
        }
        Rng::derive(seed, 0x5E1E).shuffle(&mut levels);
        let train_levels = levels.split_off(test_count);
        let test_levels = levels;
        let train = train_levels.iter().flat_map(Level::samples).collect();
        let test = test_levels.iter().flat_map(Level::samples).collect();
        let windows: Vec<Pattern> = train_levels.iter().flat_map(Level::patterns).collect();
        Ok(Self {
            pattern_windows: windows.len(),
            legal: PatLegal::from_patterns(&windows),
            train_levels,
            test_levels,
            train,
            test,
        })
    }
}
