//! The paper's metrics (SPEC §4) as pure functions over layouts, so they can be checked on
//! hand-made sets: size, diversity, plagiarism, difficulty and tile-distribution accuracy.

use crate::layout::Layout;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

/// The figures of one sweep (shares as 0..1).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SweepMetrics {
    /// Levels in the sweep.
    pub levels: usize,
    /// Share with exactly the requested size.
    pub size_accuracy: f64,
    /// Share of distinct pairs.
    pub diversity: f64,
    /// Share identical to a training level.
    pub plagiarism: f64,
    /// The same share for the decoder's raw output, before copies are made novel.
    #[serde(default)]
    pub plagiarism_raw: Option<f64>,
    /// Share whose requested moves lie within ±1 std of the validated median (none without
    /// a moves condition).
    pub difficulty_accuracy: Option<f64>,
    /// Mean of |requested − validated median|.
    pub difficulty_mean_distance: Option<f64>,
    /// Standard deviation of |requested − validated median|.
    pub difficulty_std_distance: Option<f64>,
    /// Share the bots validate (median ≤ 20).
    pub valid: f64,
    /// Share of (size, cell type) whose generated median count lies in the training Q1–Q3.
    pub tile_distribution_accuracy: f64,
    /// Generation time per level (batched), milliseconds.
    pub ms_per_level: f64,
    /// Variety within a condition: for each sweep condition, the share of distinct levels
    /// among [`VARIETY_SAMPLES`] generated with different seeds, averaged (not in the paper;
    /// `diversity` compares levels of different conditions and cannot see a model that
    /// ignores its latent point).
    #[serde(default)]
    pub variety: Option<f64>,
    /// The same for the decoder's raw output (the argmax, copies of training levels kept).
    #[serde(default)]
    pub variety_raw: Option<f64>,
    /// Median over the levels of the cells (of the 9 × 11 canvas) in which each differs from
    /// its nearest training layout of the same size (levels whose size no training layout has
    /// are left out). 0 for a copy, 1–2 for a copy with a cell flipped.
    #[serde(default)]
    pub nearest_training_distance_median: Option<f64>,
    /// The distribution of those distances: levels at distance 0, 1, …, 9 and ≥ 10.
    #[serde(default)]
    pub nearest_training_distance_histogram: Option<Vec<usize>>,
    /// The median for the decoder's raw output (before copies are made novel).
    #[serde(default)]
    pub nearest_training_distance_median_raw: Option<f64>,
    /// Median share of the play area without tiles (BLOCK or GAP); see [`blocked_figures`].
    #[serde(default)]
    pub blocked_share_median: Option<f64>,
    /// The same for the training layouts matched to the levels by size and moves (each
    /// level's group weighted as one level).
    #[serde(default)]
    pub blocked_share_median_training: Option<f64>,
    /// Share of the levels at most 5 % blocked.
    #[serde(default)]
    pub nearly_open_share: Option<f64>,
    /// The same for the matched training layouts.
    #[serde(default)]
    pub nearly_open_share_training: Option<f64>,
}

/// Levels generated per condition to measure [`SweepMetrics::variety`].
pub const VARIETY_SAMPLES: usize = 16;

/// The share of distinct levels in `levels` (1 when all differ, 1/n when all are equal).
pub fn distinct_share(levels: &[Layout]) -> f64 {
    let distinct: HashSet<&Layout> = levels.iter().collect();
    share(distinct.len(), levels.len())
}

impl SweepMetrics {
    /// The checkpoint-selection score: the mean of size, diversity, tile-distribution and
    /// (where there is one) difficulty accuracy.
    pub fn selection_score(&self) -> f64 {
        let mut parts = vec![
            self.size_accuracy,
            self.diversity,
            self.tile_distribution_accuracy,
        ];
        if let Some(d) = self.difficulty_accuracy {
            parts.push(d);
        }
        parts.iter().sum::<f64>() / parts.len() as f64
    }
}

/// For each level, the cells (of the 9 × 11 canvas) in which it differs from the nearest
/// training layout of the same size; `None` where no training layout has its size.
pub fn nearest_training_distances(levels: &[Layout], training: &[Layout]) -> Vec<Option<usize>> {
    let mut by_size: std::collections::HashMap<(usize, usize), Vec<&Layout>> =
        std::collections::HashMap::new();
    for t in training {
        by_size.entry(t.size()).or_default().push(t);
    }
    levels
        .iter()
        .map(|l| {
            by_size
                .get(&l.size())
                .and_then(|same| same.iter().map(|t| canvas_distance(l, t)).min())
        })
        .collect()
}

/// Cells of the 9 × 11 canvas in which two layouts differ.
pub fn canvas_distance(a: &Layout, b: &Layout) -> usize {
    a.canvas()
        .cells()
        .iter()
        .zip(b.canvas().cells())
        .filter(|(x, y)| x != y)
        .count()
}

/// Largest blocked share at which a layout counts as nearly open.
pub const NEARLY_OPEN: f64 = 0.05;

/// Share of a layout's play area (the bounding box of its non-BLOCK cells) without tiles:
/// BLOCK or GAP.
pub fn blocked_share(layout: &Layout) -> f64 {
    let area = layout.area_cells();
    share(
        area.cells()
            .iter()
            .filter(|&&c| c != crate::layout::Cell::Playfield)
            .count(),
        area.cells().len(),
    )
}

/// How blocked a set of layouts is: the median blocked share and the share of nearly open
/// layouts, for the levels and for the training layouts matched to them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlockedFigures {
    /// Median blocked share of the levels.
    pub median: f64,
    /// Share of the levels at most [`NEARLY_OPEN`] blocked.
    pub nearly_open: f64,
    /// The same median for the training layouts matched to each level (see
    /// [`blocked_figures`]), each level's group weighted as one level.
    pub median_training: f64,
    /// The same share for those training layouts, weighted likewise.
    pub nearly_open_training: f64,
}

/// Training layouts matched to a level asking for moves: those within this many moves of
/// the request (at its size).
pub const MATCHED_MOVES: f64 = 2.0;

/// Fewest training layouts a level is matched to: when fewer lie within
/// [`MATCHED_MOVES`], the nearest this many by moves at its size.
pub const MATCHED_AT_LEAST: usize = 5;

/// [`BlockedFigures`] of `levels` (each with the moves it asked for, if any) against the
/// `training` layouts (with their validated moves) matched to each: the same measured size
/// and, for a level that asked for moves, moves within [`MATCHED_MOVES`] of the request (at
/// least the nearest [`MATCHED_AT_LEAST`]). Levels whose size no training layout has are left
/// out; `None` when none is left.
pub fn blocked_figures(
    levels: &[(Layout, Option<f64>)],
    training: &[(Layout, f64)],
) -> Option<BlockedFigures> {
    let mut by_size: std::collections::HashMap<(usize, usize), Vec<(f64, f64)>> =
        std::collections::HashMap::new();
    for (t, moves) in training {
        by_size
            .entry(t.size())
            .or_default()
            .push((*moves, blocked_share(t)));
    }
    let mut mine = Vec::new();
    // (blocked share, weight) of the matched training layouts.
    let mut theirs: Vec<(f64, f64)> = Vec::new();
    for (l, asked) in levels {
        let Some(group) = by_size.get(&l.size()) else {
            continue;
        };
        let matched: Vec<f64> = match asked {
            None => group.iter().map(|g| g.1).collect(),
            Some(want) => {
                let mut near: Vec<&(f64, f64)> = group.iter().collect();
                near.sort_by(|a, b| (a.0 - want).abs().total_cmp(&(b.0 - want).abs()));
                let within = near
                    .iter()
                    .take_while(|g| (g.0 - want).abs() <= MATCHED_MOVES)
                    .count();
                near.iter()
                    .take(within.max(MATCHED_AT_LEAST))
                    .map(|g| g.1)
                    .collect()
            }
        };
        mine.push(blocked_share(l));
        let w = 1.0 / matched.len() as f64;
        theirs.extend(matched.iter().map(|&b| (b, w)));
    }
    if mine.is_empty() {
        return None;
    }
    let open = |b: f64| b <= NEARLY_OPEN + 1e-9;
    let total: f64 = theirs.iter().map(|t| t.1).sum();
    theirs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut run = 0.0;
    let median_training = theirs
        .iter()
        .find(|t| {
            run += t.1;
            run >= total / 2.0 - 1e-9
        })
        .map_or(f64::NAN, |t| t.0);
    Some(BlockedFigures {
        median: quantile(&mine, 0.5),
        nearly_open: share(mine.iter().filter(|&&b| open(b)).count(), mine.len()),
        median_training,
        nearly_open_training: theirs
            .iter()
            .filter(|t| open(t.0))
            .map(|t| t.1)
            .sum::<f64>()
            / total,
    })
}

/// The median of the known distances, and their histogram (0–9, ≥ 10); `None` when no level
/// has a same-size training layout.
pub fn distance_summary(distances: &[Option<usize>]) -> Option<(f64, Vec<usize>)> {
    let known: Vec<f64> = distances.iter().flatten().map(|&d| d as f64).collect();
    if known.is_empty() {
        return None;
    }
    let mut histogram = vec![0usize; 11];
    for &d in distances.iter().flatten() {
        histogram[d.min(10)] += 1;
    }
    Some((quantile(&known, 0.5), histogram))
}

/// Share of `levels` whose size is the requested one (`sizes[i]` for `levels[i]`).
pub fn size_accuracy(levels: &[Layout], sizes: &[(usize, usize)]) -> f64 {
    share(
        levels
            .iter()
            .zip(sizes)
            .filter(|(l, &s)| l.size() == s)
            .count(),
        levels.len(),
    )
}

/// Share of unordered pairs of `levels` that differ in at least one cell.
pub fn diversity(levels: &[Layout]) -> f64 {
    let n = levels.len();
    if n < 2 {
        return 1.0;
    }
    let mut distinct = 0usize;
    for i in 0..n {
        for j in i + 1..n {
            distinct += usize::from(levels[i] != levels[j]);
        }
    }
    share(distinct, n * (n - 1) / 2)
}

/// Share of `levels` identical to some level of `training`.
pub fn plagiarism(levels: &[Layout], training: &[Layout]) -> f64 {
    let known: HashSet<&Layout> = training.iter().collect();
    share(
        levels.iter().filter(|l| known.contains(l)).count(),
        levels.len(),
    )
}

/// Difficulty accuracy from (requested moves, validated median, validated std) triples:
/// (share within ±1 std, mean |distance|, std of |distance|).
pub fn difficulty(results: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    if results.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let hits = results
        .iter()
        .filter(|&&(want, median, std)| (want - median).abs() <= std)
        .count();
    let distances: Vec<f64> = results
        .iter()
        .map(|&(want, median, _)| (want - median).abs())
        .collect();
    let (mean, std) = mean_std(&distances);
    (share(hits, results.len()), mean, std)
}

/// Tile-distribution accuracy: for every size present in both sets and each cell type, is
/// the median count of `generated` (grouped by `sizes`, the requested sizes) within the
/// Q1–Q3 of `training` levels of that size (grouped by their own size)?
pub fn tile_distribution(
    generated: &[Layout],
    sizes: &[(usize, usize)],
    training: &[Layout],
) -> f64 {
    let mut gen_by_size: BTreeMap<(usize, usize), Vec<[usize; 3]>> = BTreeMap::new();
    for (l, &s) in generated.iter().zip(sizes) {
        gen_by_size.entry(s).or_default().push(l.counts());
    }
    let mut train_by_size: BTreeMap<(usize, usize), Vec<[usize; 3]>> = BTreeMap::new();
    for l in training {
        train_by_size.entry(l.size()).or_default().push(l.counts());
    }
    let (mut hits, mut total) = (0, 0);
    for (size, gen) in &gen_by_size {
        let Some(train) = train_by_size.get(size) else {
            continue;
        };
        for cell in 0..3 {
            let g: Vec<f64> = gen.iter().map(|c| c[cell] as f64).collect();
            let t: Vec<f64> = train.iter().map(|c| c[cell] as f64).collect();
            let m = quantile(&g, 0.5);
            total += 1;
            hits += usize::from(m >= quantile(&t, 0.25) && m <= quantile(&t, 0.75));
        }
    }
    share(hits, total)
}

/// The `q`-quantile with linear interpolation between order statistics (NumPy's default).
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let pos = q * (v.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// Mean and population standard deviation.
pub fn mean_std(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.5), 2.5);
        assert_eq!(quantile(&v, 0.25), 1.75);
        assert_eq!(quantile(&[7.0], 0.75), 7.0);
    }

    #[test]
    fn nearest_training_distance_counts_cells_against_the_same_size_only() {
        use crate::layout::Cell;
        let open = Layout::open(7, 9).unwrap();
        let mut one = open.clone();
        let mut three = open.clone();
        // Blocks inside the play area keep the size (the longest runs stay 7 × 9).
        let (x0, y0) = crate::layout::area_origin(7, 9);
        one.set(x0 + 3, y0 + 4, Cell::Block);
        for dx in 2..5 {
            three.set(x0 + dx, y0 + 4, Cell::Block);
        }
        assert_eq!((one.size(), three.size()), ((7, 9), (7, 9)));
        let other = Layout::open(5, 5).unwrap();
        let d = nearest_training_distances(
            &[open.clone(), one.clone(), three.clone(), other],
            &[open.clone(), one],
        );
        assert_eq!(d, vec![Some(0), Some(0), Some(2), None]);
        let (median, histogram) = distance_summary(&d).unwrap();
        assert_eq!(median, 0.0);
        assert_eq!(histogram[0], 2);
        assert_eq!(histogram[2], 1);
        assert_eq!(
            histogram.iter().sum::<usize>(),
            3,
            "the unmatched size is left out"
        );
        assert_eq!(distance_summary(&[None]), None);
    }

    #[test]
    fn blocked_figures_match_levels_to_training_layouts_of_their_size_and_moves() {
        use crate::layout::Cell;
        let open = Layout::open(4, 5).unwrap();
        assert_eq!(blocked_share(&open), 0.0);
        let (x0, y0) = crate::layout::area_origin(4, 5);
        let mut two = open.clone();
        two.set(x0 + 1, y0 + 2, Cell::Block);
        two.set(x0 + 2, y0 + 2, Cell::Gap);
        assert_eq!(two.size(), (4, 5));
        assert!((blocked_share(&two) - 0.1).abs() < 1e-12);
        // Training: three open 4 × 5 and one blocked (weights ¼ each); one 6 × 6 that no
        // level matches.
        let training = vec![
            (open.clone(), 30.0),
            (open.clone(), 31.0),
            (open.clone(), 32.0),
            (two.clone(), 12.0),
            (Layout::open(6, 6).unwrap(), 20.0),
        ];
        let levels = [
            (two.clone(), None),
            (two.clone(), None),
            (open.clone(), None),
        ];
        let f = blocked_figures(&levels, &training).unwrap();
        assert!((f.median - 0.1).abs() < 1e-12);
        assert!((f.nearly_open - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(f.median_training, 0.0);
        assert!((f.nearly_open_training - 0.75).abs() < 1e-12);
        // Asking for moves matches by moves too, but never fewer than five layouts: here all
        // four of the size, whatever was asked.
        let f = blocked_figures(&[(open.clone(), Some(12.0))], &training).unwrap();
        assert!((f.nearly_open_training - 0.75).abs() < 1e-12);
        // With enough of them, only those within two moves count.
        let mut many = training.clone();
        for m in [11.0, 12.5, 13.0, 14.0] {
            many.push((two.clone(), m));
        }
        let f = blocked_figures(&[(open.clone(), Some(12.0))], &many).unwrap();
        assert_eq!(f.nearly_open_training, 0.0);
        assert!((f.median_training - 0.1).abs() < 1e-12);
        assert_eq!(
            blocked_figures(&[(Layout::open(9, 9).unwrap(), None)], &training),
            None
        );
    }
}
