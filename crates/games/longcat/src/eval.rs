//! The generator evaluation of the thesis: many seeded generation attempts, then the
//! solvable share, the duplicate share, the difficulty histogram of the unique solvable
//! levels and the non-trivial share. Attempts and graphs run in parallel (rayon); the result
//! depends only on the seed.

use super::analysis::GraphAnalysis;
use super::difficulty::NON_TRIVIAL_DIFFICULTY;
use super::generators::{GeneratorError, RandomGenerator};
use super::rules::State;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;
use std::time::Instant;
use studio_core::rng::Rng;

/// Upper edges of the difficulty histogram's bins (the last bin is open).
pub const HISTOGRAM_EDGES: [f64; 10] =
    [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0];

/// What to evaluate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalConfig {
    /// The generator.
    pub generator: RandomGenerator,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Generation attempts (the thesis uses 20,000).
    pub attempts: usize,
    /// Base seed; attempt `i` uses `Rng::derive(seed, i)`.
    pub seed: u64,
    /// State budget per level graph.
    pub budget: usize,
}

/// One bin of the difficulty histogram: levels with `from ≤ difficulty < to`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HistogramBin {
    /// Lower edge (inclusive).
    pub from: f64,
    /// Upper edge (exclusive); `None` for the open last bin.
    pub to: Option<f64>,
    /// Unique solvable levels in the bin.
    pub count: usize,
}

/// The figures of one evaluation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalReport {
    /// The generator's name.
    pub generator: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Base seed.
    pub seed: u64,
    /// Generation attempts.
    pub attempts: usize,
    /// Attempts that produced at least one solvable level.
    pub solvable_attempts: usize,
    /// Solvable levels produced in all (puzzle-up keeps several per attempt).
    pub levels: usize,
    /// Levels identical to one produced earlier in the run.
    pub duplicates: usize,
    /// Distinct solvable levels.
    pub unique: usize,
    /// Distinct levels whose graph passed the state budget (no difficulty).
    pub over_budget: usize,
    /// Distinct levels with difficulty ≥ the non-trivial threshold.
    pub non_trivial: usize,
    /// The threshold used ([`NON_TRIVIAL_DIFFICULTY`]).
    pub non_trivial_threshold: f64,
    /// `solvable_attempts / attempts`.
    pub solvable_share: f64,
    /// `duplicates / levels`.
    pub duplicate_share: f64,
    /// `non_trivial / attempts` (the thesis's definition).
    pub non_trivial_share: f64,
    /// Median difficulty of the distinct levels.
    pub median_difficulty: f64,
    /// Highest difficulty of the distinct levels.
    pub max_difficulty: f64,
    /// Difficulty histogram of the distinct levels.
    pub histogram: Vec<HistogramBin>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Runs an evaluation.
///
/// # Errors
/// [`GeneratorError::Size`] for a size that is not a Longcat board.
pub fn evaluate(config: &EvalConfig) -> Result<EvalReport, GeneratorError> {
    let started = Instant::now();
    let (w, h) = (config.width, config.height);
    let produced: Vec<Vec<super::LongcatLevel>> = (0..config.attempts)
        .into_par_iter()
        .map(|i| {
            config
                .generator
                .attempt(w, h, &mut Rng::derive(config.seed, i as u64))
        })
        .collect::<Result<_, _>>()?;
    let solvable_attempts = produced.iter().filter(|l| !l.is_empty()).count();
    let levels: usize = produced.iter().map(Vec::len).sum();
    let mut seen = HashSet::new();
    let mut unique = Vec::new();
    for level in produced.into_iter().flatten() {
        let start = State::start(&level);
        if seen.insert((start.walls(), start.head_index())) {
            unique.push(level);
        }
    }
    let difficulties: Vec<Option<Option<f64>>> = unique
        .par_iter()
        .map(|level| {
            GraphAnalysis::of(level, config.budget)
                .ok()
                .map(|a| a.difficulty)
        })
        .collect();
    let over_budget = difficulties.iter().filter(|d| d.is_none()).count();
    let mut known: Vec<f64> = difficulties.iter().flatten().flatten().copied().collect();
    known.sort_by(f64::total_cmp);
    let non_trivial = known
        .iter()
        .filter(|&&d| d >= NON_TRIVIAL_DIFFICULTY)
        .count();
    let mut histogram: Vec<HistogramBin> = std::iter::once(0.0)
        .chain(HISTOGRAM_EDGES)
        .zip(HISTOGRAM_EDGES.into_iter().map(Some).chain([None]))
        .map(|(from, to)| HistogramBin { from, to, count: 0 })
        .collect();
    for &d in &known {
        let bin = HISTOGRAM_EDGES
            .iter()
            .position(|&edge| d < edge)
            .unwrap_or(HISTOGRAM_EDGES.len());
        histogram[bin].count += 1;
    }
    let share = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    Ok(EvalReport {
        generator: config.generator.name().to_string(),
        width: w,
        height: h,
        seed: config.seed,
        attempts: config.attempts,
        solvable_attempts,
        levels,
        duplicates: levels - unique.len(),
        unique: unique.len(),
        over_budget,
        non_trivial,
        non_trivial_threshold: NON_TRIVIAL_DIFFICULTY,
        solvable_share: share(solvable_attempts, config.attempts),
        duplicate_share: share(levels - unique.len(), levels),
        non_trivial_share: share(non_trivial, config.attempts),
        median_difficulty: known.get(known.len() / 2).copied().unwrap_or(0.0),
        max_difficulty: known.last().copied().unwrap_or(0.0),
        histogram,
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl EvalReport {
    /// The report as a human-readable table.
    pub fn to_table(&self) -> String {
        let pct = |x: f64| format!("{:.1} %", 100.0 * x);
        let mut s = format!(
            "Longcat {} {}x{}, {} attempts, seed {}\n",
            self.generator, self.width, self.height, self.attempts, self.seed
        );
        s += &format!(
            "  solvable share     {:>9}  ({} of {} attempts)\n",
            pct(self.solvable_share),
            self.solvable_attempts,
            self.attempts
        );
        s += &format!(
            "  duplicate share    {:>9}  ({} of {} solvable levels)\n",
            pct(self.duplicate_share),
            self.duplicates,
            self.levels
        );
        s += &format!(
            "  non-trivial share  {:>9}  ({} unique levels with difficulty >= {}, of {} attempts)\n",
            pct(self.non_trivial_share),
            self.non_trivial,
            self.non_trivial_threshold,
            self.attempts
        );
        s += &format!(
            "  unique levels      {:>9}  (median difficulty {:.2}, max {:.1})\n",
            self.unique, self.median_difficulty, self.max_difficulty
        );
        if self.over_budget > 0 {
            s += &format!("  over state budget  {:>9}\n", self.over_budget);
        }
        s += "  difficulty histogram (unique solvable levels):\n";
        for bin in &self.histogram {
            let range = match bin.to {
                Some(to) => format!("[{}, {})", bin.from, to),
                None => format!("[{}, inf)", bin.from),
            };
            s += &format!("    {range:<14} {:>7}\n", bin.count);
        }
        s += &format!("  time {:.2} s\n", self.seconds);
        s
    }
}
