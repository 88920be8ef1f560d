//! Longcat, the one-cat sliding puzzle: level model, rules, the full state graph with node
//! classes, difficulty measured on the graph, and generators.
//!
//! # The API in brief (for the window)
//!
//! - **Rules / playtest**: [`State::start`]`(&level)` gives the start; [`State::apply`]`(dir)`
//!   returns the next state or `None` for an illegal move; [`State::is_success`],
//!   [`State::is_fail`] and [`State::is_dead`] say how play stands; [`State::render`] gives a
//!   [`Grid`](studio_core::grid::Grid) of [`BoardCell`] (EMPTY / WALL / BODY / HEAD) to draw.
//! - **State graph**: [`StateGraph::build`]`(&level, budget)` (or [`GraphAnalysis::of`] for graph,
//!   variables and difficulty in one call). [`StateGraph::nodes`] lists [`Node`]s, node
//!   [`StateGraph::start`] (= 0) first; each node has its `state`, its `depth` (fewest moves
//!   from the start), its [`NodeClass`] (with [`NodeClass::colour`]) and
//!   [`Node::edges`] (an [`Edge`] = [`Direction`] + target index). [`StateGraph::find`] maps
//!   a playtest state to its node; [`GraphAnalysis::to_dot`] writes Graphviz.
//! - **Numbers**: [`GraphVariables::of`], [`PlayerModel::of`] (per-node `P` and `M`,
//!   [`PlayerModel::difficulty`]), [`RidgeModel::shipped`] + [`RidgeModel::predict`].
//! - **Generators**: [`generators::solution_down`], [`generators::puzzle_up`] (size + seeded
//!   [`Rng`](studio_core::rng::Rng)); [`eval::evaluate`] for the thesis's metrics.
//!
//! Graphs past their state budget stop with [`GraphError::TooLarge`], never eating memory.

pub mod analysis;
pub mod cli;
pub mod decode;
pub mod difficulty;
pub mod dqn;
pub mod eval;
pub mod evolve;
pub mod figures;
pub mod game;
pub mod generate;
pub mod generators;
pub mod graph;
pub mod inspect;
pub mod level;
pub mod ridge;
pub mod rules;
pub mod solver;
#[cfg(feature = "ui")]
pub mod ui;
pub mod variables;

pub use analysis::GraphAnalysis;
pub use difficulty::{is_non_trivial, PlayerModel, NON_TRIVIAL_DIFFICULTY};
pub use figures::LongcatFigures;
pub use generators::{GeneratorError, RandomGenerator};
pub use graph::{Edge, GraphError, LongcatGraph, Node, NodeClass, StateGraph, DEFAULT_BUDGET};
pub use level::{check_cells, level_from_ascii, Cell, LevelError, LongcatGame, LongcatLevel, ID};
pub use ridge::{PredictorError, RidgeModel};
pub use rules::{BoardCell, Direction, State};
pub use variables::GraphVariables;

/// The plug-in: adds this game, its command-line commands and its file formats to the
/// studio's registry.
pub fn plugin(registry: &mut studio_core::game::registry::Registry) {
    registry.add_game(&LongcatGame);
    cli::commands(registry);
    #[cfg(feature = "ui")]
    ui::plugin(registry);
}

/// Unit tests run with this game registered, from the repository root (where the shipped
/// models and levels are), as the binary does.
#[cfg(test)]
#[ctor::ctor]
fn install_for_unit_tests() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[plugin]);
}
