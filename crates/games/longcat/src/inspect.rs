//! The one Longcat analysis the studio runs: build the state graph, measure difficulty and the
//! graph variables, predict difficulty, and lay the graph out by depth for the viewer. It runs
//! on a worker (the window) or inline (the command line); the UI thread only draws.

use super::difficulty::{PlayerModel, NON_TRIVIAL_DIFFICULTY};
use super::graph::StateGraph;
use super::ridge::RidgeModel;
use super::variables::GraphVariables;
use super::LongcatLevel;
use crate::LongcatGraph;
use std::sync::OnceLock;
pub use studio_core::game::GraphLayout;
use studio_core::jobs::{Cancel, JobError};

pub use studio_core::game::explore::{COLUMN_GAP, ROW_GAP};

/// Everything the gauge and the graph viewer show for one Longcat board.
#[derive(Clone, Debug)]
pub struct LongcatAnalysis {
    /// The full state graph.
    pub graph: StateGraph,
    /// The graph variables of SPEC §2.2.
    pub variables: GraphVariables,
    /// The player-model difficulty, `None` when unsolvable.
    pub difficulty: Option<f64>,
    /// Chance one random attempt succeeds.
    pub success_chance: f64,
    /// The player model's expected charge of one attempt from the start.
    pub expected_charge: f64,
    /// The ridge predictor's difficulty, when the shipped model loads.
    pub predicted: Option<f64>,
    /// The threshold above which a level counts as non-trivial.
    pub non_trivial_threshold: f64,
    /// The shortest solution as move letters.
    pub shortest: Option<String>,
    /// Where the viewer draws each node.
    pub layout: GraphLayout,
}

/// The shipped ridge predictor, loaded once (`None` when its file is missing or damaged).
pub fn shipped_model() -> Option<&'static RidgeModel> {
    static MODEL: OnceLock<Option<RidgeModel>> = OnceLock::new();
    MODEL.get_or_init(|| RidgeModel::shipped().ok()).as_ref()
}

/// Builds and measures the graph of a Longcat level, exploring at most `budget` states.
///
/// # Errors
/// "graph too large: …" and the like, in words; [`JobError::Cancelled`] when superseded.
pub fn analyse(
    level: &LongcatLevel,
    budget: usize,
    cancel: &Cancel,
) -> Result<LongcatAnalysis, JobError> {
    analyse_with(level, budget, shipped_model(), cancel)
}

/// [`analyse`] with a chosen difficulty predictor (`None`: no prediction).
///
/// # Errors
/// As [`analyse`].
pub fn analyse_with(
    level: &LongcatLevel,
    budget: usize,
    predictor: Option<&RidgeModel>,
    cancel: &Cancel,
) -> Result<LongcatAnalysis, JobError> {
    let graph = StateGraph::build(level, budget).map_err(|e| e.to_string())?;
    if cancel.is_cancelled() {
        return Err(JobError::Cancelled);
    }
    let variables = GraphVariables::of(&graph);
    let model = PlayerModel::of(&graph);
    let predicted = predictor.map(|m| m.predict(&variables));
    let shortest = graph
        .shortest_solution()
        .map(|moves| moves.iter().map(|d| d.letter()).collect());
    if cancel.is_cancelled() {
        return Err(JobError::Cancelled);
    }
    let layout = layout(&graph);
    Ok(LongcatAnalysis {
        difficulty: model.difficulty(),
        success_chance: model.start_success_chance(),
        expected_charge: model.start_expected_charge(),
        predicted,
        non_trivial_threshold: NON_TRIVIAL_DIFFICULTY,
        shortest,
        variables,
        layout,
        graph,
    })
}

pub use studio_core::game::explore::layout;

impl LongcatAnalysis {
    /// True when a success is reachable from the start.
    pub fn solvable(&self) -> bool {
        self.graph.solvable()
    }

    /// The figures stored with a level (the predicted difficulty is 0 without a predictor).
    pub fn figures(&self) -> super::LongcatFigures {
        super::analysis::figures_of(
            &self.variables,
            self.solvable(),
            self.difficulty,
            self.predicted.unwrap_or(0.0),
        )
    }

    /// Nodes per class, in [`NodeClass`](super::NodeClass) order.
    pub fn class_counts(&self) -> [usize; 5] {
        let mut counts = [0; 5];
        for node in self.graph.nodes() {
            counts[node.class as usize] += 1;
        }
        counts
    }
}
