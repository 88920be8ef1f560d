//! Table II of level-blending-learned-representation for a set of blends: the five tile
//! metrics' means and standard deviations, the E-distance to the training segments, and both
//! agents' playable shares.
//!
//! - **E-distance** (energy distance) between the blends' and the training segments' metric
//!   vectors — each segment's five tile metrics (density, non-linearity, leniency,
//!   interestingness, path proportion) as a point in R⁵, Euclidean distance:
//!   2·E‖X − Y‖ − E‖X − X′‖ − E‖Y − Y′‖, each expectation the mean over all ordered pairs
//!   (X, X′ blends; Y, Y′ training segments; a point paired with itself counts, with distance
//!   0, so a set is at distance 0 from itself).
//! - **lr_playable**: the share of blends the Lode Runner agent plays — on Lode Runner-like
//!   blends, half the gold; on Zelda-like ones, 2 of the 4 corner paths (the paper's use).
//! - **lr_playable_vacuous**: the same with a Lode Runner-like blend without gold counted
//!   playable (nothing to collect) instead of unplayable (no goal); the paper does not say.
//! - **loz_playable**: the share the Zelda agent plays (2 of the 4 corner paths) over all.

use super::agents::{
    lode_runner_playable, lode_runner_playable_vacuous, zelda, zelda_on_regions_of,
};
use super::metrics::{likeness, tile_metrics, Likeness, TileMetrics};
use rayon::prelude::*;
use serde::Serialize;

/// One model's row of Table II.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlendReport {
    /// Segments judged.
    pub count: usize,
    /// Energy distance to the training segments' metric vectors.
    pub e_distance: f64,
    /// The energy distance on each metric alone, in [`TileMetrics::NAMES`] order: where the
    /// whole distance comes from.
    pub e_distance_by_metric: [f64; 5],
    /// Share the Lode Runner agent plays.
    pub lr_playable: f64,
    /// The same, a Lode Runner-like segment without gold counted playable.
    pub lr_playable_vacuous: f64,
    /// Share the Zelda agent plays.
    pub loz_playable: f64,
    /// The same with each corner on a walkable region of at least [`SPECK`] + 1 cells (a
    /// diagnostic of the corner rule: stray walkable specks near a corner).
    pub loz_playable_without_specks: f64,
    /// Share that is Lode Runner-like.
    pub lr_like: f64,
    /// Each Table I letter's share of all the blends' cells (letters that occur).
    pub letters: std::collections::BTreeMap<char, f64>,
    /// Mean of each tile metric, in [`TileMetrics::NAMES`] order.
    pub mean: [f64; 5],
    /// Standard deviation of each.
    pub std: [f64; 5],
}

fn dist(a: &[f64; 5], b: &[f64; 5]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt()
}

fn mean_within(a: &[[f64; 5]]) -> f64 {
    let n = a.len();
    if n == 0 {
        return 0.0;
    }
    let sum: f64 = (0..n)
        .into_par_iter()
        .map(|i| a[i + 1..].iter().map(|b| dist(&a[i], b)).sum::<f64>())
        .sum();
    2.0 * sum / (n * n) as f64
}

/// The energy distance between two sets of metric vectors.
pub fn energy_distance(a: &[[f64; 5]], b: &[[f64; 5]]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let between: f64 = a
        .par_iter()
        .map(|x| b.iter().map(|y| dist(x, y)).sum::<f64>())
        .sum::<f64>()
        / (a.len() * b.len()) as f64;
    2.0 * between - mean_within(a) - mean_within(b)
}

/// The metric vectors of segments.
pub fn vectors(segments: &[Vec<String>]) -> Vec<[f64; 5]> {
    segments
        .par_iter()
        .map(|s| tile_metrics(s).vector())
        .collect()
}

/// Walkable regions of at most this many cells are specks to
/// [`BlendReport::loz_playable_without_specks`].
pub const SPECK: usize = 3;

/// One blend's verdicts: LR playable, LoZ playable, LR-like, LR playable with no gold allowed,
/// LoZ playable with corners off specks.
type Verdicts = (bool, bool, bool, bool, bool);

/// Judges `blends` against the training segments' metric vectors.
pub fn report(blends: &[Vec<String>], training: &[[f64; 5]]) -> BlendReport {
    let v = vectors(blends);
    let verdicts: Vec<Verdicts> = blends
        .par_iter()
        .map(|s| {
            (
                lode_runner_playable(s),
                zelda(s).playable,
                likeness(s) == Likeness::LodeRunner,
                lode_runner_playable_vacuous(s),
                zelda_on_regions_of(s, SPECK + 1).playable,
            )
        })
        .collect();
    let n = blends.len().max(1) as f64;
    let share = |f: &dyn Fn(&Verdicts) -> bool| verdicts.iter().filter(|v| f(v)).count() as f64 / n;
    let mut mean = [0.0; 5];
    let mut std = [0.0; 5];
    for k in 0..5 {
        mean[k] = v.iter().map(|x| x[k]).sum::<f64>() / n;
        std[k] = (v.iter().map(|x| (x[k] - mean[k]).powi(2)).sum::<f64>() / n).sqrt();
    }
    let mut letters = std::collections::BTreeMap::new();
    let mut cells = 0usize;
    for c in blends.iter().flatten().flat_map(|r| r.chars()) {
        *letters.entry(c).or_insert(0.0) += 1.0;
        cells += 1;
    }
    for share in letters.values_mut() {
        *share /= cells.max(1) as f64;
    }
    let mut by_metric = [0.0; 5];
    for (k, d) in by_metric.iter_mut().enumerate() {
        let only = |x: &[[f64; 5]]| -> Vec<[f64; 5]> {
            x.iter()
                .map(|p| {
                    let mut q = [0.0; 5];
                    q[k] = p[k];
                    q
                })
                .collect()
        };
        *d = energy_distance(&only(&v), &only(training));
    }
    BlendReport {
        count: blends.len(),
        e_distance: energy_distance(&v, training),
        e_distance_by_metric: by_metric,
        lr_playable: share(&|v| v.0),
        lr_playable_vacuous: share(&|v| v.3),
        loz_playable: share(&|v| v.1),
        loz_playable_without_specks: share(&|v| v.4),
        lr_like: share(&|v| v.2),
        letters,
        mean,
        std,
    }
}

/// The paper's Table II rows (E-distance, LR A* %, LoZ A* %), by our model names (its CTE
/// rows beside both our learned representations).
pub const PAPER: [(&str, f64, f64, f64); 6] = [
    ("cte-fc", 0.04016, 33.5, 79.0),
    ("pix-fc", 0.04016, 33.5, 79.0),
    ("vglc-fc", 0.1755, 32.0, 79.5),
    ("cte-cnn", 0.07036, 32.0, 81.5),
    ("pix-cnn", 0.07036, 32.0, 81.5),
    ("vglc-cnn", 0.1930, 31.5, 79.0),
];

/// Names of the metrics for tables.
pub fn metric_names() -> [&'static str; 5] {
    TileMetrics::NAMES
}
