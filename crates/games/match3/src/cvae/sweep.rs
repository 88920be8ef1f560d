//! The evaluation sweep of SPEC §4: 48 sizes × vertical/horizontal/quadrant, one level each,
//! every level validated by the bots; and the same metrics on a dataset split as baseline.

use super::encoding::{Condition, Sample};
use super::generator::{CvaeModel, Decoding};
use super::metrics::{self, SweepMetrics};
use crate::layout::{Layout, HEIGHTS, WIDTHS};
use crate::{validate, Validation, ValidationConfig};
use rayon::prelude::*;
use std::time::Instant;
use studio_core::rng::Rng;
use studio_core::symmetry::Symmetry;

/// Generation runs timed per sweep (the median is reported).
pub const TIMING_RUNS: usize = 5;

/// The highest move count the sweep asks for: the designers' limit.
pub const SWEEP_MAX_MOVES: f64 = 20.0;

/// One level of a sweep with what the bots made of it.
#[derive(Clone, Debug)]
pub struct SweptLevel {
    /// What the level was asked for: size, symmetry and moves.
    pub condition: Condition,
    /// The level generated for it.
    pub layout: Layout,
    /// `None` when no game could make a move (counted invalid, 40 moves).
    pub validation: Option<Validation>,
}

impl SweptLevel {
    /// (median, std) of the validation; a layout without any move counts as 40 ± 0.
    pub fn moves(&self) -> (f64, f64) {
        self.validation
            .as_ref()
            .map_or((40.0, 0.0), |v| (v.median_moves, v.std_moves))
    }
}

/// A sweep's figures and its levels.
#[derive(Clone, Debug)]
pub struct SweepReport {
    /// The sweep's figures.
    pub metrics: SweepMetrics,
    /// The levels, one a condition, in condition order.
    pub levels: Vec<SweptLevel>,
}

/// The 144 sweep conditions; with `min_moves` (Avalon) each asks for moves drawn uniformly
/// from `[min_moves, 20]` with a stream of `seed`.
pub fn sweep_conditions(min_moves: Option<f64>, seed: u64) -> Vec<Condition> {
    let mut rng = Rng::derive(seed, 0x5eed);
    let mut out = Vec::with_capacity(144);
    for height in HEIGHTS {
        for width in WIDTHS {
            for symmetry in Symmetry::MIRRORED {
                let moves = min_moves.map(|lo| lo + (SWEEP_MAX_MOVES - lo).max(0.0) * rng.unit());
                out.push(Condition::new(width, height, symmetry, moves));
            }
        }
    }
    out
}

/// Validates layouts in parallel with the bots.
pub fn validate_all(layouts: &[Layout], config: &ValidationConfig) -> Vec<Option<Validation>> {
    layouts
        .par_iter()
        .map(|l| validate(l, config).ok())
        .collect()
}

/// Runs the sweep for a generator as the designer gets it (copies of training levels
/// made novel): generate the 144 levels (timed, batched), validate them, and compute every
/// metric against the training layouts; `plagiarism_raw` measures the decoder alone.
///
/// # Errors
/// A generation failure.
pub fn run_sweep(
    generator: &CvaeModel,
    training: &[Sample],
    seed: u64,
    config: &ValidationConfig,
) -> super::Result<SweepReport> {
    run_sweep_with(generator, training, seed, config, Decoding::Novel)
}

/// As [`run_sweep`], decoding as `decoding` says: [`Decoding::Raw`] is the decoder's own
/// output (what checkpoint selection scores: the model itself).
///
/// # Errors
/// A generation failure.
pub fn run_sweep_with(
    generator: &CvaeModel,
    training: &[Sample],
    seed: u64,
    config: &ValidationConfig,
    decoding: Decoding,
) -> super::Result<SweepReport> {
    let min_moves = generator
        .kind()
        .uses_moves()
        .then_some(generator.sidecar().moves.min);
    let conditions = sweep_conditions(min_moves, seed);
    // Timed as the median of a few identical runs: one 144-level batch takes ~10 ms, and a
    // single run is at the mercy of whatever else the machine is doing.
    let mut seconds = Vec::with_capacity(TIMING_RUNS);
    let mut layouts = Vec::new();
    for _ in 0..TIMING_RUNS {
        let started = Instant::now();
        layouts = generator.generate_each_decoded(&conditions, seed, decoding)?;
        seconds.push(started.elapsed().as_secs_f64());
    }
    let ms_per_level = metrics::quantile(&seconds, 0.5) * 1e3 / conditions.len() as f64;
    let validations = validate_all(&layouts, config);
    let levels: Vec<SweptLevel> = conditions
        .iter()
        .copied()
        .zip(layouts)
        .zip(validations)
        .map(|((condition, layout), validation)| SweptLevel {
            condition,
            layout,
            validation,
        })
        .collect();
    let mut m = score(&levels, training);
    m.ms_per_level = ms_per_level;
    let training: Vec<Layout> = training.iter().map(|s| s.layout.clone()).collect();
    let training = training.as_slice();
    if decoding != Decoding::Raw {
        let raw = generator.generate_each_with(&conditions, seed, false)?;
        m.plagiarism_raw = Some(metrics::plagiarism(&raw, training));
        m.nearest_training_distance_median_raw =
            metrics::distance_summary(&metrics::nearest_training_distances(&raw, training))
                .map(|n| n.0);
    } else {
        m.plagiarism_raw = Some(m.plagiarism);
        m.nearest_training_distance_median_raw = m.nearest_training_distance_median;
    }
    m.variety = Some(variety(generator, &conditions, seed, decoding)?);
    m.variety_raw = if decoding == Decoding::Raw {
        m.variety
    } else {
        Some(variety(generator, &conditions, seed, Decoding::Raw)?)
    };
    Ok(SweepReport { metrics: m, levels })
}

/// [`SweepMetrics::variety`]: for each condition, [`metrics::VARIETY_SAMPLES`] levels from
/// seeds of their own; the mean share of distinct ones.
///
/// # Errors
/// A generation failure.
pub fn variety(
    generator: &CvaeModel,
    conditions: &[Condition],
    seed: u64,
    decoding: Decoding,
) -> super::Result<f64> {
    let n = metrics::VARIETY_SAMPLES;
    let many: Vec<Condition> = conditions
        .iter()
        .flat_map(|c| std::iter::repeat_n(*c, n))
        .collect();
    let layouts = generator.generate_each_decoded(&many, seed ^ 0x7a71_e7a1, decoding)?;
    let shares: Vec<f64> = layouts.chunks(n).map(metrics::distinct_share).collect();
    Ok(shares.iter().sum::<f64>() / shares.len().max(1) as f64)
}

/// The dataset baseline: the same metrics on a split's levels, each "conditioned" on its own
/// size, symmetry and stored moves, and re-validated with `config`.
pub fn dataset_baseline(
    split: &[Sample],
    training: &[Sample],
    config: &ValidationConfig,
) -> SweepReport {
    let layouts: Vec<Layout> = split.iter().map(|s| s.layout.clone()).collect();
    let validations = validate_all(&layouts, config);
    let levels: Vec<SweptLevel> = split
        .iter()
        .zip(validations)
        .map(|(s, validation)| SweptLevel {
            condition: s.condition(),
            layout: s.layout.clone(),
            validation,
        })
        .collect();
    SweepReport {
        metrics: score(&levels, training),
        levels,
    }
}

/// Every metric of a set of swept levels (all but the timing).
pub fn score(levels: &[SweptLevel], samples: &[Sample]) -> SweepMetrics {
    let layouts: Vec<Layout> = levels.iter().map(|l| l.layout.clone()).collect();
    let training: Vec<Layout> = samples.iter().map(|s| s.layout.clone()).collect();
    let training = training.as_slice();
    let sizes: Vec<(usize, usize)> = levels
        .iter()
        .map(|l| (l.condition.width, l.condition.height))
        .collect();
    let difficulty: Vec<(f64, f64, f64)> = levels
        .iter()
        .filter_map(|l| {
            l.condition
                .moves
                .map(|want| (want, l.moves().0, l.moves().1))
        })
        .collect();
    let (acc, mean, std) = metrics::difficulty(&difficulty);
    let has_moves = !difficulty.is_empty();
    let valid = levels
        .iter()
        .filter(|l| l.validation.as_ref().is_some_and(|v| v.valid))
        .count();
    let nearest =
        metrics::distance_summary(&metrics::nearest_training_distances(&layouts, training));
    let asked: Vec<(Layout, Option<f64>)> = levels
        .iter()
        .map(|l| (l.layout.clone(), l.condition.moves))
        .collect();
    let known: Vec<(Layout, f64)> = samples
        .iter()
        .map(|s| (s.layout.clone(), s.moves))
        .collect();
    let blocked = metrics::blocked_figures(&asked, &known);
    SweepMetrics {
        levels: levels.len(),
        size_accuracy: metrics::size_accuracy(&layouts, &sizes),
        diversity: metrics::diversity(&layouts),
        plagiarism: metrics::plagiarism(&layouts, training),
        plagiarism_raw: None,
        difficulty_accuracy: has_moves.then_some(acc),
        difficulty_mean_distance: has_moves.then_some(mean),
        difficulty_std_distance: has_moves.then_some(std),
        valid: valid as f64 / levels.len().max(1) as f64,
        tile_distribution_accuracy: metrics::tile_distribution(&layouts, &sizes, training),
        ms_per_level: 0.0,
        variety: None,
        variety_raw: None,
        nearest_training_distance_median: nearest.as_ref().map(|n| n.0),
        nearest_training_distance_histogram: nearest.map(|n| n.1),
        nearest_training_distance_median_raw: None,
        blocked_share_median: blocked.map(|b| b.median),
        blocked_share_median_training: blocked.map(|b| b.median_training),
        nearly_open_share: blocked.map(|b| b.nearly_open),
        nearly_open_share_training: blocked.map(|b| b.nearly_open_training),
    }
}
