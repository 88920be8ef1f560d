//! Patterns (rl-quality-diversity §6.3–6.4): a level read 4 columns at a time. `Pat_legal` is
//! every 4-column window (sliding by 1) of the training levels — the VGLC's Super Mario Bros
//! levels, 14 rows high (the thesis's levels have 15; ours keep the corpus's 14). Generators
//! build a level from 10 patterns and a goal column (41 columns); Matching replaces a
//! generated pattern with the nearest legal one. Also the thesis's diversity measures between
//! two levels: the number of different tiles and KL_level (§6.6.2).

use super::formats::{read_vglc, vglc_levels_dir};
use super::level::{MarioLevel, PATTERN_COLUMNS};
use super::tiles::Tile;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use studio_core::grid::Grid;

/// Why the VGLC's Super Mario Bros levels could not be read.
#[derive(Debug, thiserror::Error)]
pub enum VglcLevelsError {
    /// The folder is not there or cannot be listed.
    #[error(
        "the VGLC Super Mario Bros levels are not in {dir} ({error}); set VGLC_DIR to the VGLC \
         folder"
    )]
    Missing {
        /// The folder.
        dir: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// A level file cannot be read.
    #[error(transparent)]
    File(#[from] studio_core::io::FileError),
    /// A level file is not VGLC Mario text.
    #[error("{path}: {error}")]
    Level {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: super::formats::FormatError,
    },
    /// The folder holds no level.
    #[error("no VGLC level in {dir}")]
    Empty {
        /// The folder.
        dir: PathBuf,
    },
}

/// Rows of a pattern (the VGLC's levels).
pub const ROWS: usize = 14;
/// Cells of a pattern.
pub const CELLS: usize = ROWS * PATTERN_COLUMNS;
/// Patterns of a generated level (then the goal column: 41 columns).
pub const LEVEL_PATTERNS: usize = 10;

/// A 4-column pattern: tile indices, column by column (`column × ROWS + row`).
pub type Pattern = [u8; CELLS];

/// The pattern of `level` at columns `x0 .. x0 + 4` (markers read as sky); `None` when the
/// level is not [`ROWS`] high or the window runs past its end.
pub fn pattern_at(level: &MarioLevel, x0: usize) -> Option<Pattern> {
    if level.height() != ROWS || x0 + PATTERN_COLUMNS > level.width() {
        return None;
    }
    let mut p = [Tile::Empty.index(); CELLS];
    for c in 0..PATTERN_COLUMNS {
        for r in 0..ROWS {
            let t = match level.get(x0 + c, r) {
                Tile::Start | Tile::Goal => Tile::Empty,
                t => t,
            };
            p[c * ROWS + r] = t.index();
        }
    }
    Some(p)
}

/// The pattern of the bottom [`ROWS`] rows of `level` at columns `x0 .. x0 + 4` (a 15- or
/// 16-row level loses its top rows, which are sky in practice); `None` when the level is lower
/// than [`ROWS`] or the window runs past its end.
pub fn pattern_at_bottom(level: &MarioLevel, x0: usize) -> Option<Pattern> {
    let top = level.height().checked_sub(ROWS)?;
    if x0 + PATTERN_COLUMNS > level.width() {
        return None;
    }
    let mut p = [Tile::Empty.index(); CELLS];
    for c in 0..PATTERN_COLUMNS {
        for r in 0..ROWS {
            let t = match level.get(x0 + c, top + r) {
                Tile::Start | Tile::Goal => Tile::Empty,
                t => t,
            };
            p[c * ROWS + r] = t.index();
        }
    }
    Some(p)
}

/// A pattern's tiles normalised to [0, 1] (index / 18), as the thesis's Matching compares them.
/// The thesis's 19 tiles fill [0, 1]; the framework's further tiles (a platform, a spiky, …)
/// fall above 1, which no training pattern has.
pub fn normalised(p: &Pattern) -> [f32; CELLS] {
    let top = (Tile::THESIS_TILES - 1) as f32;
    let mut out = [0.0; CELLS];
    for (o, &t) in out.iter_mut().zip(p) {
        *o = f32::from(t) / top;
    }
    out
}

/// The legal patterns: every distinct 4-column window of the training levels.
#[derive(Clone, Debug, PartialEq)]
pub struct PatLegal {
    patterns: Vec<Pattern>,
    normalised: Vec<[f32; CELLS]>,
    /// Three consecutive patterns of a training level (12 columns, at every column): the
    /// contexts a CGAN level starts from.
    pub contexts: Vec<[Pattern; 3]>,
    /// Windows read, repeats included.
    pub windows: usize,
    /// Names of the levels read.
    pub levels: Vec<String>,
}

impl PatLegal {
    /// The windows of `levels` (name, level); levels that are not [`ROWS`] high are skipped.
    pub fn from_levels(levels: &[(String, MarioLevel)]) -> Self {
        let mut seen: HashMap<Pattern, ()> = HashMap::new();
        let mut patterns = Vec::new();
        let mut windows = 0;
        let mut names = Vec::new();
        let mut contexts = Vec::new();
        for (name, level) in levels {
            if level.height() != ROWS {
                continue;
            }
            names.push(name.clone());
            for x0 in 0..=level.width().saturating_sub(3 * PATTERN_COLUMNS) {
                if let (Some(a), Some(b), Some(c)) = (
                    pattern_at(level, x0),
                    pattern_at(level, x0 + PATTERN_COLUMNS),
                    pattern_at(level, x0 + 2 * PATTERN_COLUMNS),
                ) {
                    contexts.push([a, b, c]);
                }
            }
            for x0 in 0..=level.width().saturating_sub(PATTERN_COLUMNS) {
                if let Some(p) = pattern_at(level, x0) {
                    windows += 1;
                    if seen.insert(p, ()).is_none() {
                        patterns.push(p);
                    }
                }
            }
        }
        let normalised = patterns.iter().map(normalised).collect();
        Self {
            patterns,
            normalised,
            contexts,
            windows,
            levels: names,
        }
    }

    /// Pat_legal from pattern windows: the distinct ones, in order of first appearance.
    pub fn from_patterns(windows: &[Pattern]) -> Self {
        let mut seen: HashMap<Pattern, ()> = HashMap::new();
        let patterns: Vec<Pattern> = windows
            .iter()
            .copied()
            .filter(|p| seen.insert(*p, ()).is_none())
            .collect();
        let normalised = patterns.iter().map(normalised).collect();
        Self {
            patterns,
            normalised,
            contexts: Vec::new(),
            windows: windows.len(),
            levels: Vec::new(),
        }
    }

    /// The place of `pattern` in the set, if it is legal.
    pub fn index_of(&self, pattern: &Pattern) -> Option<usize> {
        self.patterns.iter().position(|p| p == pattern)
    }

    /// The normalised patterns, in the set's order.
    pub fn normalised(&self) -> &[[f32; CELLS]] {
        &self.normalised
    }

    /// The VGLC's levels in `dir` (all of them), read once per folder and shared.
    ///
    /// # Errors
    /// [`VglcLevelsError`]: the folder or a level cannot be read (naming `$VGLC_DIR`).
    pub fn vglc(dir: &Path) -> Result<Arc<Self>, VglcLevelsError> {
        static CACHE: Mutex<Vec<(PathBuf, Arc<PatLegal>)>> = Mutex::new(Vec::new());
        if let Ok(cache) = CACHE.lock() {
            if let Some((_, p)) = cache.iter().find(|(d, _)| d == dir) {
                return Ok(Arc::clone(p));
            }
        }
        let levels = vglc_levels(dir)?;
        let pat = Arc::new(Self::from_levels(&levels));
        if let Ok(mut cache) = CACHE.lock() {
            cache.push((dir.to_path_buf(), Arc::clone(&pat)));
        }
        Ok(pat)
    }

    /// The shipped default: the VGLC folder beside the repository or under `$VGLC_DIR`.
    ///
    /// # Errors
    /// As [`PatLegal::vglc`].
    pub fn default_set() -> Result<Arc<Self>, VglcLevelsError> {
        Self::vglc(&vglc_levels_dir())
    }

    /// Distinct patterns.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Pattern `i`.
    pub fn get(&self, i: usize) -> Option<&Pattern> {
        self.patterns.get(i)
    }

    /// The patterns.
    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }

    /// Matching: the index of the legal pattern nearest `raw` (normalised tiles) by
    /// Euclidean distance.
    pub fn nearest(&self, raw: &[f32; CELLS]) -> usize {
        let mut best = (f32::INFINITY, 0);
        for (i, p) in self.normalised.iter().enumerate() {
            let mut d = 0.0;
            for (a, b) in p.iter().zip(raw) {
                d += (a - b) * (a - b);
                if d >= best.0 {
                    break;
                }
            }
            if d < best.0 {
                best = (d, i);
            }
        }
        best.1
    }
}

/// The VGLC's Super Mario Bros levels in `dir`, sorted by name.
///
/// # Errors
/// [`VglcLevelsError`]: the folder or a file cannot be read or parsed.
pub fn vglc_levels(dir: &Path) -> Result<Vec<(String, MarioLevel)>, VglcLevelsError> {
    let entries = std::fs::read_dir(dir).map_err(|error| VglcLevelsError::Missing {
        dir: dir.to_path_buf(),
        error,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    let mut levels = Vec::new();
    for path in paths {
        let text = studio_core::io::read_text(&path)?;
        let level = read_vglc(&text).map_err(|error| VglcLevelsError::Level {
            path: path.clone(),
            error,
        })?;
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        levels.push((name, level));
    }
    if levels.is_empty() {
        return Err(VglcLevelsError::Empty {
            dir: dir.to_path_buf(),
        });
    }
    Ok(levels)
}

/// A level of `patterns` side by side, then the goal column: ground in the bottom two rows
/// and the goal marker above it. Mario starts on the first column with ground.
pub fn assemble(patterns: &[Pattern]) -> Grid<Tile> {
    let columns = patterns.len() * PATTERN_COLUMNS + 1;
    let mut cells = Grid::filled(columns, ROWS, Tile::Empty);
    for (i, p) in patterns.iter().enumerate() {
        for c in 0..PATTERN_COLUMNS {
            for r in 0..ROWS {
                let t = Tile::from_index(p[c * ROWS + r]).unwrap_or(Tile::Empty);
                cells.set(i * PATTERN_COLUMNS + c, r, t);
            }
        }
    }
    let goal = columns - 1;
    cells.set(goal, ROWS - 1, Tile::Ground);
    cells.set(goal, ROWS - 2, Tile::Ground);
    cells.set(goal, ROWS - 3, Tile::Goal);
    cells
}

/// The cells two levels are compared on: the pattern area (all but the goal column).
fn pattern_area(level: &MarioLevel) -> impl Iterator<Item = Tile> + '_ {
    let columns = level.width().saturating_sub(1);
    (0..columns).flat_map(move |x| (0..level.height()).map(move |y| level.get(x, y)))
}

/// The number of cells where two levels of the same size differ (the pattern area).
pub fn different_tiles(a: &MarioLevel, b: &MarioLevel) -> usize {
    pattern_area(a)
        .zip(pattern_area(b))
        .filter(|(x, y)| x != y)
        .count()
}

/// What KL_level adds to every cell's value before the vectors are normalised: the smoothing
/// that keeps KL finite where one level has a wall or an enemy and the other has nothing
/// (value 0). Chosen so that real Mario content lands on the thesis's scale: over 11,438
/// pairs of 40-column windows of the 15 VGLC levels, pairs 97–109 tiles apart average
/// KL_level 1.65 and pairs 120–132 apart 1.72, against Fig. 6.20's 1.586 (103 tiles) and
/// 1.748 (126 tiles); 0.08 is the value that fits those two best (docs/mario.md, "KL_level").
pub const KL_SMOOTHING: f64 = 0.08;

/// The value KL_level gives a tile (§6.6.2): walls 2, enemies 3, everything else 0 (the
/// thesis converts only walls and enemies), plus [`KL_SMOOTHING`].
fn kl_value(t: Tile) -> f64 {
    KL_SMOOTHING
        + if t.is_solid() {
            2.0
        } else if t.is_enemy() {
            3.0
        } else {
            0.0
        }
}

/// KL(a ‖ b) of two value vectors, each normalised to sum 1; 0 when they differ in length.
fn kl_of(va: &[f64], vb: &[f64]) -> f64 {
    let (sa, sb): (f64, f64) = (va.iter().sum(), vb.iter().sum());
    if va.len() != vb.len() || sa <= 0.0 || sb <= 0.0 {
        return 0.0;
    }
    va.iter()
        .zip(vb)
        .map(|(x, y)| {
            let (p, q) = (x / sa, y / sb);
            p * (p / q).ln()
        })
        .sum()
}

/// KL_level (§6.6.2): walls become 2, enemies 3, every other cell 0, each plus
/// [`KL_SMOOTHING`]; the two levels' vectors, each normalised to sum 1, are compared by
/// Kullback–Leibler divergence KL(a ‖ b).
pub fn kl_level(a: &MarioLevel, b: &MarioLevel) -> f64 {
    let va: Vec<f64> = pattern_area(a).map(kl_value).collect();
    let vb: Vec<f64> = pattern_area(b).map(kl_value).collect();
    kl_of(&va, &vb)
}

/// KL_pattern (§6.6.2, DAGP's distance): KL_level's measure between two patterns.
pub fn kl_pattern(a: &Pattern, b: &Pattern) -> f64 {
    let values = |p: &Pattern| -> Vec<f64> {
        p.iter()
            .map(|&i| kl_value(Tile::from_index(i).unwrap_or(Tile::Empty)))
            .collect()
    };
    kl_of(&values(a), &values(b))
}

/// Mean KL_level and different tiles over pairs of `levels`: every pair up to 100 levels,
/// else 4,950 pairs drawn with `seed`.
pub fn diversity(levels: &[MarioLevel], seed: u64) -> (f64, f64) {
    let n = levels.len();
    if n < 2 {
        return (0.0, 0.0);
    }
    let mut pairs = Vec::new();
    if n <= 100 {
        for i in 0..n {
            for j in i + 1..n {
                pairs.push((i, j));
            }
        }
    } else {
        let mut rng = studio_core::rng::Rng::derive(seed, 0xd1);
        while pairs.len() < 4950 {
            let (i, j) = (rng.index(n), rng.index(n));
            if i != j {
                pairs.push((i, j));
            }
        }
    }
    let count = pairs.len() as f64;
    let (kl, tiles) = pairs.iter().fold((0.0, 0.0), |(k, t), &(i, j)| {
        (
            k + kl_level(&levels[i], &levels[j]),
            t + different_tiles(&levels[i], &levels[j]) as f64,
        )
    });
    (kl / count, tiles / count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat() -> Pattern {
        let mut p = [Tile::Empty.index(); CELLS];
        for c in 0..PATTERN_COLUMNS {
            p[c * ROWS + ROWS - 1] = Tile::Ground.index();
            p[c * ROWS + ROWS - 2] = Tile::Ground.index();
        }
        p
    }

    #[test]
    fn windows_slide_by_one_and_repeats_are_kept_once() {
        let level = MarioLevel::new(assemble(&[flat(); 5])).unwrap();
        assert_eq!(level.width(), 21);
        let pat = PatLegal::from_levels(&[("flat".into(), level.clone())]);
        assert_eq!(pat.windows, 18);
        // Every window is flat ground except the ones over the goal column (marker → sky).
        assert!(pat.len() <= 2, "{}", pat.len());
        let i = pat.nearest(&normalised(&flat()));
        assert_eq!(pat.get(i), Some(&flat()));
        assert_eq!(pattern_at(&level, 0), Some(flat()));
    }

    #[test]
    fn diversity_counts_tiles_and_kl_is_zero_for_equal_levels() {
        let a = MarioLevel::new(assemble(&[flat(); 10])).unwrap();
        let mut holed = [flat(); 10];
        holed[4][ROWS - 1] = Tile::Empty.index();
        holed[4][ROWS - 2] = Tile::Empty.index();
        holed[6][ROWS - 3] = Tile::Goomba.index();
        let b = MarioLevel::new(assemble(&holed)).unwrap();
        assert_eq!(different_tiles(&a, &a), 0);
        assert_eq!(different_tiles(&a, &b), 3);
        assert!(kl_level(&a, &a).abs() < 1e-12);
        assert!(kl_level(&a, &b) > 0.0);
        let (kl, tiles) = diversity(&[a.clone(), b.clone(), a], 0);
        assert!((tiles - 2.0).abs() < 1e-9, "{tiles}");
        assert!(kl > 0.0);
    }

    #[test]
    fn kl_counts_walls_and_enemies_against_nothing_with_the_smoothing() {
        // A wall where the other has sky, and the reverse: p = (2.08, 0.08) / 2.16 against
        // q = (0.08, 2.08) / 2.16, KL = (p₀ − p₁) · ln(2.08 / 0.08).
        let a = [kl_value(Tile::Ground), kl_value(Tile::Empty)];
        let b = [kl_value(Tile::Coin), kl_value(Tile::Brick)];
        let want = (2.0 / 2.16) * (2.08f64 / 0.08).ln();
        assert!((kl_of(&a, &b) - want).abs() < 1e-12, "{}", kl_of(&a, &b));
        // Coins, sky and markers are all "nothing"; an enemy weighs more than a wall.
        assert_eq!(kl_value(Tile::Coin), kl_value(Tile::Empty));
        assert!(kl_value(Tile::Goomba) > kl_value(Tile::Ground));
    }

    /// The reading's calibration (docs/mario.md, "KL_level"): pairs of 40-column windows of
    /// the VGLC levels as far apart as Fig. 6.20's pair average KL_level 1.5–1.8 (the thesis:
    /// 1.586 at 103 tiles, 1.748 at 126), where "every other cell 1" gave about 0.06.
    #[test]
    fn real_mario_content_is_on_the_thesis_kl_scale() {
        let names = [
            "1-1", "1-2", "1-3", "2-1", "3-1", "3-3", "4-1", "4-2", "5-1", "5-3",
        ];
        let mut windows: Vec<Vec<Tile>> = Vec::new();
        for name in names {
            let Some(text) = crate::formats::vglc_level_text(name) else {
                eprintln!("skipped: the VGLC corpus is absent");
                return;
            };
            let level = crate::formats::read_vglc(&text).unwrap();
            for x0 in (0..level.width().saturating_sub(40)).step_by(4) {
                windows.push(
                    (x0..x0 + 40)
                        .flat_map(|x| (0..level.height()).map(move |y| (x, y)))
                        .map(|(x, y)| level.get(x, y))
                        .collect(),
                );
            }
        }
        let (mut near, mut far) = (Vec::new(), Vec::new());
        for i in 0..windows.len() {
            for j in i + 1..windows.len() {
                let (a, b) = (&windows[i], &windows[j]);
                let tiles = a.iter().zip(b).filter(|(x, y)| x != y).count();
                let kl = || {
                    let v = |w: &[Tile]| w.iter().map(|&t| kl_value(t)).collect::<Vec<_>>();
                    kl_of(&v(a), &v(b))
                };
                if (97..=109).contains(&tiles) {
                    near.push(kl());
                } else if (120..=132).contains(&tiles) {
                    far.push(kl());
                }
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        assert!(
            near.len() > 100 && far.len() > 100,
            "{} {}",
            near.len(),
            far.len()
        );
        let (near, far) = (mean(&near), mean(&far));
        assert!((1.5..1.8).contains(&near), "{near}");
        assert!((1.5..1.8).contains(&far), "{far}");
    }

    #[test]
    fn the_vglc_gives_thousands_of_legal_patterns_when_present() {
        let Ok(pat) = PatLegal::default_set() else {
            eprintln!("skipped: the VGLC folder is absent");
            return;
        };
        assert_eq!(pat.levels.len(), 15);
        eprintln!("{} windows, {} distinct patterns", pat.windows, pat.len());
        assert!(pat.windows > 2500 && pat.len() > 500);
    }
}
