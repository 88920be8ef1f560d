//! The full state graph of a Longcat level: the studio's one explorer
//! ([`studio_core::game::explore`]) over Longcat's moves. Every reachable state is found
//! breadth-first, edges are labelled with their move, and each node is put in exactly one
//! [`NodeClass`].
//!
//! Every move fills at least one cell, so the graph is acyclic and "more cells filled" is a
//! topological order; classes (and the player model) are computed in one sweep over that
//! order, successors before predecessors.

use super::level::LongcatLevel;
use super::rules::{Direction, Geometry, State};
use studio_core::game::explore::{self, StateSpace};
use studio_core::game::CellLook;
use studio_core::grid::Grid;

pub use studio_core::game::explore::{GraphError, NodeClass};

/// The state budget the command line and the studio use unless told otherwise.
pub const DEFAULT_BUDGET: usize = 200_000;

/// The board's masks, worked out once per graph (what judging a state needs).
#[derive(Clone, Copy, Debug)]
pub struct Masks(Geometry);

/// Longcat's positions and moves, as the explorer walks them.
#[derive(Clone, Copy, Debug, Default)]
pub struct LongcatSpace;

impl StateSpace<4> for LongcatSpace {
    type State = State;
    type Key = u128;
    type Move = Direction;
    type Context = Masks;

    #[inline]
    fn moves() -> [Direction; 4] {
        Direction::ALL
    }

    #[inline]
    fn key(state: &State) -> u128 {
        state.key()
    }

    #[inline]
    fn step(_: &Masks, state: &State, mv: Direction) -> Option<State> {
        state.apply(mv)
    }

    #[inline]
    fn is_success(masks: &Masks, state: &State) -> bool {
        masks.0.full & !state.filled() == 0
    }

    #[inline]
    fn is_dead(masks: &Masks, state: &State) -> bool {
        masks.0.is_split(masks.0.full & !state.filled())
    }

    fn label(mv: Direction) -> char {
        mv.letter()
    }

    fn look(_: &Masks, state: &State) -> Grid<CellLook> {
        let board = state.render();
        let mut cells = Grid::filled(board.width(), board.height(), CellLook::default());
        for (x, y, c) in board.iter() {
            cells.set(x, y, super::rules::cell_look(c));
        }
        cells
    }

    #[inline]
    fn progress(state: &State) -> u32 {
        state.filled().count_ones()
    }

    fn cells(_: &Masks, state: &State) -> usize {
        state.width() * state.height()
    }
}

/// The state graph of a Longcat level: its nodes (node 0 is the start), edges and classes.
pub type StateGraph = explore::StateGraph<LongcatSpace, 4>;

/// One state of the graph (draw it with [`State::render`]).
pub type Node = explore::Node<LongcatSpace, 4>;

/// An outgoing edge: the direction moved and the node it leads to.
pub type Edge = explore::Edge<Direction>;

/// Building a Longcat [`StateGraph`] (the generic graph lives in the core; this game says how
/// to start it).
pub trait LongcatGraph: Sized {
    /// Explores every state reachable from the level's start.
    ///
    /// # Errors
    /// [`GraphError::TooLarge`] when more than `budget` states exist.
    fn build(level: &LongcatLevel, budget: usize) -> Result<Self, GraphError>;

    /// Explores every state reachable from `start` (a level's start or any state of play).
    ///
    /// # Errors
    /// [`GraphError::TooLarge`] when more than `budget` states exist.
    fn from_state(start: State, budget: usize) -> Result<Self, GraphError>;
}

impl LongcatGraph for StateGraph {
    fn build(level: &LongcatLevel, budget: usize) -> Result<Self, GraphError> {
        let start = State::start(level);
        Self::explore(Masks(start.geometry()), start, budget)
    }

    fn from_state(start: State, budget: usize) -> Result<Self, GraphError> {
        Self::explore(Masks(start.geometry()), start, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(text: &str) -> StateGraph {
        StateGraph::build(&LongcatLevel::parse_ascii(text).unwrap(), DEFAULT_BUDGET).unwrap()
    }

    #[test]
    fn order_is_topological() {
        let g = graph("@...\n....\n..#.\n");
        let position: Vec<usize> = {
            let mut p = vec![0; g.len()];
            for (i, id) in g.topological_order().enumerate() {
                p[id] = i;
            }
            p
        };
        for (id, n) in g.nodes().iter().enumerate() {
            for e in n.edges() {
                assert!(position[e.to] > position[id]);
                assert_eq!(g.node(e.to).state, n.state.apply(e.action).unwrap());
            }
        }
    }

    #[test]
    fn find_and_shortest_solution() {
        let g = graph("@..\n...\n");
        let path = g.shortest_solution().unwrap();
        let mut s = g.node(0).state;
        for d in &path {
            s = s.apply(*d).unwrap();
            assert!(g.find(&s).is_some());
        }
        assert!(s.is_success());
    }

    #[test]
    fn budget_stops_exploring() {
        let level =
            LongcatLevel::parse_ascii("@.........\n..........\n..........\n..........\n").unwrap();
        assert_eq!(
            StateGraph::build(&level, 5).unwrap_err(),
            GraphError::TooLarge { budget: 5 }
        );
    }
}
