//! What a Longcat level keeps of its last analysis: the graph variables and the difficulty.

use serde::{Deserialize, Serialize};
use studio_core::level::GameFigures;

/// The Longcat figures kept with a level: its graph variables and difficulty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LongcatFigures {
    /// Nodes of the state graph, the start included.
    pub states: usize,
    /// Width × height of the level, in cells.
    pub size: usize,
    /// Branches (wrong choices) summed over all nodes.
    pub branches: usize,
    /// Success nodes.
    pub solutions: usize,
    /// Fail nodes.
    pub fails: usize,
    /// Fewest moves to a success; `None` when unsolvable.
    pub shortest_solution: Option<u32>,
    /// Branches summed over solution-class nodes.
    pub solution_branches: usize,
    /// Nodes not of class dead.
    pub non_dead: usize,
    /// Dead nodes.
    pub dead: usize,
    /// Indeterminate nodes.
    pub indeterminate: usize,
    /// Branches summed over indeterminate nodes.
    pub indeterminate_branches: usize,
    /// True when a success is reachable from the start.
    pub solvable: bool,
    /// The player-model difficulty; `None` when unsolvable.
    pub difficulty: Option<f64>,
    /// The ridge predictor's estimate.
    pub predicted_difficulty: f64,
}

impl GameFigures for LongcatFigures {
    fn tag(&self) -> &'static str {
        "Longcat"
    }

    fn numbers(&self) -> Vec<(&'static str, f64)> {
        let mut v = vec![("predicted_difficulty", self.predicted_difficulty)];
        v.extend(self.difficulty.map(|d| ("difficulty", d)));
        v
    }
}
