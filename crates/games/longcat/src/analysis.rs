//! Everything the studio shows about one level in one call: its state graph, graph variables,
//! player-model difficulty and predicted difficulty, and the figures stored with the level.

use super::difficulty::PlayerModel;
use super::graph::{GraphError, NodeClass, StateGraph};
use super::level::LongcatLevel;
use super::ridge::RidgeModel;
use super::variables::GraphVariables;
use super::LongcatFigures;
use crate::LongcatGraph;
use std::fmt::Write;

/// A level's graph with its variables and difficulty.
#[derive(Clone, Debug)]
pub struct GraphAnalysis {
    /// The full state graph.
    pub graph: StateGraph,
    /// The graph variables.
    pub variables: GraphVariables,
    /// `P` and `M` at every node.
    pub player: PlayerModel,
    /// The player-model difficulty; `None` when unsolvable.
    pub difficulty: Option<f64>,
}

impl GraphAnalysis {
    /// Builds the graph and computes classes, variables and the player model.
    ///
    /// # Errors
    /// [`GraphError::TooLarge`] past `budget` states.
    pub fn of(level: &LongcatLevel, budget: usize) -> Result<Self, GraphError> {
        let graph = StateGraph::build(level, budget)?;
        let variables = GraphVariables::of(&graph);
        let player = PlayerModel::of(&graph);
        let difficulty = player.difficulty();
        Ok(Self {
            graph,
            variables,
            player,
            difficulty,
        })
    }

    /// True when a success is reachable from the start.
    pub fn solvable(&self) -> bool {
        self.graph.solvable()
    }

    /// The figures stored with a level, with the predictor's estimate.
    pub fn figures(&self, predictor: &RidgeModel) -> LongcatFigures {
        figures_of(
            &self.variables,
            self.solvable(),
            self.difficulty,
            predictor.predict(&self.variables),
        )
    }

    /// The graph in Graphviz DOT: nodes in their class colours, edges labelled U/D/L/R,
    /// each node labelled with its depth and the board.
    pub fn to_dot(&self, title: &str) -> String {
        dot_of(&self.graph, title)
    }
}

/// The figures stored with a level: its graph variables, solvability, difficulty and the
/// predictor's estimate.
pub fn figures_of(
    v: &GraphVariables,
    solvable: bool,
    difficulty: Option<f64>,
    predicted_difficulty: f64,
) -> LongcatFigures {
    LongcatFigures {
        states: v.states,
        size: v.size,
        branches: v.branches,
        solutions: v.solutions,
        fails: v.fails,
        shortest_solution: v.shortest_solution,
        solution_branches: v.solution_branches,
        non_dead: v.non_dead,
        dead: v.dead,
        indeterminate: v.indeterminate,
        indeterminate_branches: v.indeterminate_branches,
        solvable,
        difficulty,
        predicted_difficulty,
    }
}

/// A state graph in Graphviz DOT: nodes in their class colours, edges labelled U/D/L/R,
/// each node labelled with its depth and the board.
pub fn dot_of(graph: &StateGraph, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", title.replace('"', "'"));
    let _ = writeln!(out, "  rankdir=LR;");
    let _ = writeln!(
        out,
        "  node [style=filled, fontname=\"monospace\", fontsize=9, shape=box];"
    );
    for (id, node) in graph.nodes().iter().enumerate() {
        let board = node.state.render().to_ascii().replace('\n', "\\l");
        let font = match node.class {
            NodeClass::Success | NodeClass::Indeterminate => "black",
            _ => "white",
        };
        let extra = if id == graph.start() {
            ", penwidth=3"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  n{id} [label=\"#{id} d{}\\n{board}\", fillcolor={}, fontcolor={font}, tooltip=\"{}\"{extra}];",
            node.depth,
            node.class.colour(),
            node.class.name()
        );
    }
    for (id, node) in graph.nodes().iter().enumerate() {
        for e in node.edges() {
            let on_solution = matches!(node.class, NodeClass::Solution)
                && matches!(
                    graph.node(e.to).class,
                    NodeClass::Solution | NodeClass::Success
                );
            let colour = if on_solution { ", color=green" } else { "" };
            let _ = writeln!(
                out,
                "  n{id} -> n{} [label=\"{}\"{colour}];",
                e.to,
                e.action.letter()
            );
        }
    }
    out.push_str("}\n");
    out
}
