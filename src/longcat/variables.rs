//! The graph variables of SPEC §2.2, the numbers the difficulty predictor reads.

use super::graph::{NodeClass, StateGraph};
use serde::{Deserialize, Serialize};

/// Counts over a level's state graph, with `b(s) = max(0, out-degree(s) − 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct GraphVariables {
    /// Number of nodes, the start included.
    pub states: usize,
    /// Width × height of the level.
    pub size: usize,
    /// Σ b(s) over all nodes.
    pub branches: usize,
    /// Success nodes.
    pub solutions: usize,
    /// Fail nodes.
    pub fails: usize,
    /// Fewest moves from the start to a success; `None` when unsolvable.
    pub shortest_solution: Option<u32>,
    /// Σ b(s) over solution-class nodes.
    pub solution_branches: usize,
    /// Nodes not of class dead.
    pub non_dead: usize,
    /// Dead nodes.
    pub dead: usize,
    /// Indeterminate nodes.
    pub indeterminate: usize,
    /// Σ b(s) over indeterminate nodes.
    pub indeterminate_branches: usize,
}

impl GraphVariables {
    /// Counts the variables of a graph.
    pub fn of(graph: &StateGraph) -> Self {
        let first = graph.node(graph.start()).state;
        let mut v = GraphVariables {
            states: graph.len(),
            size: first.width() * first.height(),
            ..Default::default()
        };
        for node in graph.nodes() {
            let b = node.branches();
            v.branches += b;
            match node.class {
                NodeClass::Success => {
                    v.solutions += 1;
                    v.shortest_solution = Some(
                        v.shortest_solution
                            .map_or(node.depth, |d| d.min(node.depth)),
                    );
                }
                NodeClass::Fail => v.fails += 1,
                NodeClass::Dead => v.dead += 1,
                NodeClass::Solution => v.solution_branches += b,
                NodeClass::Indeterminate => {
                    v.indeterminate += 1;
                    v.indeterminate_branches += b;
                }
            }
        }
        v.non_dead = v.states - v.dead;
        v
    }

    /// The variables as numbers, in [`GraphVariables::NAMES`] order (`shortest_solution` is 0
    /// when unsolvable), for the predictor.
    pub fn to_vec(&self) -> [f64; 11] {
        [
            self.states as f64,
            self.size as f64,
            self.branches as f64,
            self.solutions as f64,
            self.fails as f64,
            self.shortest_solution.unwrap_or(0) as f64,
            self.solution_branches as f64,
            self.non_dead as f64,
            self.dead as f64,
            self.indeterminate as f64,
            self.indeterminate_branches as f64,
        ]
    }

    /// The variable names, in [`GraphVariables::to_vec`] order.
    pub const NAMES: [&'static str; 11] = [
        "states",
        "size",
        "branches",
        "solutions",
        "fails",
        "shortest_solution",
        "solution_branches",
        "non_dead",
        "dead",
        "indeterminate",
        "indeterminate_branches",
    ];
}
