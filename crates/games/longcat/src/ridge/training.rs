//! Training sets for the ridge predictor: by default, generated levels labelled with the
//! player model; or a playtest CSV of real mean solve times.

use super::{parse_playtest_csv, PredictorError, RidgeModel};
use crate::analysis::GraphAnalysis;
use crate::generators::RandomGenerator;
use crate::graph::DEFAULT_BUDGET;
use crate::level::LongcatLevel;
use crate::rules::State;
use crate::variables::GraphVariables;
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::Path;
use studio_core::rng::Rng;

/// The ridge penalty used for the shipped model (on standardised features).
pub const DEFAULT_ALPHA: f64 = 1.0;

/// Board sizes of the default training set.
pub const TRAINING_SIZES: [(usize, usize); 6] = [(5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 10)];

/// Generation attempts per generator and size in the default training set.
pub const TRAINING_ATTEMPTS: usize = 2_000;

/// Feature rows and labels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainingSet {
    /// Graph variables per level, in [`GraphVariables::NAMES`] order.
    pub features: Vec<Vec<f64>>,
    /// The label per level.
    pub labels: Vec<f64>,
}

impl TrainingSet {
    /// Fits the ridge model on this set.
    ///
    /// # Errors
    /// As [`RidgeModel::fit`].
    pub fn fit(
        &self,
        alpha: f64,
        label: &str,
        provenance: &str,
    ) -> Result<RidgeModel, PredictorError> {
        let mut model =
            RidgeModel::fit(&GraphVariables::NAMES, &self.features, &self.labels, alpha)?;
        model.label = label.to_string();
        model.provenance = provenance.to_string();
        Ok(model)
    }
}

/// The default training set: unique solvable levels from both random generators over
/// [`TRAINING_SIZES`] ([`TRAINING_ATTEMPTS`] attempts each, attempt `i` of generator `g` and
/// size `s` seeded `Rng::derive(seed, …)`), labelled with the player-model difficulty.
pub fn generated_training_set(seed: u64) -> TrainingSet {
    let mut jobs = Vec::new();
    for (g, generator) in [RandomGenerator::SolutionDown, RandomGenerator::PuzzleUp]
        .into_iter()
        .enumerate()
    {
        for (s, &(w, h)) in TRAINING_SIZES.iter().enumerate() {
            for i in 0..TRAINING_ATTEMPTS {
                jobs.push((
                    generator,
                    w,
                    h,
                    ((g * 16 + s) * TRAINING_ATTEMPTS + i) as u64,
                ));
            }
        }
    }
    let levels: Vec<LongcatLevel> = jobs
        .par_iter()
        .flat_map_iter(|&(generator, w, h, stream)| {
            generator
                .attempt(w, h, &mut Rng::derive(seed, stream))
                .unwrap_or_default()
        })
        .collect();
    let mut seen = HashSet::new();
    let unique: Vec<LongcatLevel> = levels
        .into_iter()
        .filter(|l| {
            let s = State::start(l);
            seen.insert((s.walls(), s.head_index(), s.width()))
        })
        .collect();
    let rows: Vec<(Vec<f64>, f64)> = unique
        .par_iter()
        .filter_map(|level| {
            let analysis = GraphAnalysis::of(level, DEFAULT_BUDGET).ok()?;
            Some((analysis.variables.to_vec().to_vec(), analysis.difficulty?))
        })
        .collect();
    let (features, labels) = rows.into_iter().unzip();
    TrainingSet { features, labels }
}

/// A training set from a playtest CSV (see [`parse_playtest_csv`] for the format), labelled
/// with the players' mean seconds.
///
/// # Errors
/// [`PredictorError::Csv`] naming the line of a malformed row, a level that cannot be
/// loaded, or one whose graph passes the state budget.
pub fn playtest_training_set(path: &Path) -> Result<TrainingSet, PredictorError> {
    let text = studio_core::io::read_text(path)?;
    let rows = parse_playtest_csv(path, &text)?;
    let mut set = TrainingSet::default();
    for row in rows {
        let bad = |message: String| PredictorError::Csv {
            path: path.to_path_buf(),
            line: row.line,
            message,
        };
        let levels = studio_core::files::load_levels(&row.path).map_err(|e| bad(e.to_string()))?;
        let level = match &row.name {
            Some(name) => levels
                .iter()
                .find(|l| &l.name == name)
                .ok_or_else(|| bad(format!("no level named {name:?} in {}", row.path.display())))?,
            None if levels.len() == 1 => &levels[0],
            None => {
                return Err(bad(format!(
                    "{} holds {} levels; write `file#level name`",
                    row.path.display(),
                    levels.len()
                )))
            }
        };
        let cat = LongcatLevel::from_rows(&level.cells)
            .map_err(|e| bad(format!("level {:?}: {e}", row.level)))?;
        let analysis = GraphAnalysis::of(&cat, DEFAULT_BUDGET)
            .map_err(|e| bad(format!("level {:?}: {e}", row.level)))?;
        set.features.push(analysis.variables.to_vec().to_vec());
        set.labels.push(row.mean_seconds);
    }
    Ok(set)
}
