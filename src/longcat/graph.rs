//! The full state graph of a Longcat level: every reachable state found breadth-first, edges
//! labelled with their move, and each node put in exactly one [`NodeClass`].
//!
//! Every move fills at least one cell, so the graph is acyclic and "more cells filled" is a
//! topological order; classes (and the player model) are computed in one sweep over that
//! order, successors before predecessors.

use super::level::LongcatLevel;
use super::rules::{Direction, Geometry, State};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The state budget the command line and the studio use unless told otherwise.
pub const DEFAULT_BUDGET: usize = 200_000;

/// Why a state graph was not built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// Exploring stopped at the state budget, so the machine is not eaten.
    #[error("graph too large: more than {budget} states (raise the budget to explore further)")]
    TooLarge {
        /// The budget that was passed.
        budget: usize,
    },
}

/// What a node means to a player. Exclusive, first match wins, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeClass {
    /// No EMPTY cell left: solved (green).
    Success,
    /// Cells left but no legal move (red).
    Fail,
    /// The EMPTY cells form two or more 4-connected regions: visibly lost (purple).
    Dead,
    /// A success is reachable from here (blue).
    Solution,
    /// None of the above: lost, but not obviously so (yellow).
    Indeterminate,
}

impl NodeClass {
    /// Lower-case name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            NodeClass::Success => "success",
            NodeClass::Fail => "fail",
            NodeClass::Dead => "dead",
            NodeClass::Solution => "solution",
            NodeClass::Indeterminate => "indeterminate",
        }
    }

    /// The viewer colour as a Graphviz / HTML colour name.
    pub fn colour(self) -> &'static str {
        match self {
            NodeClass::Success => "green",
            NodeClass::Fail => "red",
            NodeClass::Dead => "purple",
            NodeClass::Solution => "blue",
            NodeClass::Indeterminate => "yellow",
        }
    }
}

/// An outgoing edge: the move and the node it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The move.
    pub direction: Direction,
    /// Index of the node reached, into [`StateGraph::nodes`].
    pub to: usize,
}

const NO_EDGE: u32 = u32::MAX;

/// One state of the graph.
#[derive(Clone, Debug)]
pub struct Node {
    /// The board at this node (draw it with [`State::render`]).
    pub state: State,
    /// Fewest moves from the start.
    pub depth: u32,
    /// What the node means to a player.
    pub class: NodeClass,
    successors: [u32; 4],
}

impl Node {
    /// The outgoing edges, in U, D, L, R order.
    pub fn edges(&self) -> impl Iterator<Item = Edge> + '_ {
        Direction::ALL
            .into_iter()
            .zip(self.successors)
            .filter(|&(_, to)| to != NO_EDGE)
            .map(|(direction, to)| Edge {
                direction,
                to: to as usize,
            })
    }

    /// The node reached by `direction`, if that move is legal here.
    pub fn successor(&self, direction: Direction) -> Option<usize> {
        let to = self.successors[direction.index()];
        (to != NO_EDGE).then_some(to as usize)
    }

    /// Number of legal moves.
    pub fn out_degree(&self) -> usize {
        self.successors.iter().filter(|&&s| s != NO_EDGE).count()
    }

    /// Branches: `max(0, out-degree − 1)`, the wrong choices a player could make here.
    pub fn branches(&self) -> usize {
        self.out_degree().saturating_sub(1)
    }
}

/// A fast hasher for the packed `u128` state keys (they are already well spread in the low
/// bits; one multiply mixes the rest).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let folded = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = (folded ^ (folded >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 ^= self.0 >> 32;
    }
}

type KeyMap = HashMap<u128, u32, BuildHasherDefault<KeyHasher>>;

/// The state graph of a level: its nodes (node 0 is the start), edges and classes.
#[derive(Clone, Debug)]
pub struct StateGraph {
    nodes: Vec<Node>,
    topological: Vec<u32>,
    index: KeyMap,
}

impl StateGraph {
    /// Explores every state reachable from the level's start.
    ///
    /// # Errors
    /// [`GraphError::TooLarge`] when more than `budget` states exist.
    pub fn build(level: &LongcatLevel, budget: usize) -> Result<Self, GraphError> {
        Self::from_state(State::start(level), budget)
    }

    /// Explores every state reachable from `start` (a level's start or any state of play).
    ///
    /// # Errors
    /// [`GraphError::TooLarge`] when more than `budget` states exist.
    pub fn from_state(start: State, budget: usize) -> Result<Self, GraphError> {
        let mut nodes = vec![Node {
            state: start,
            depth: 0,
            class: NodeClass::Indeterminate,
            successors: [NO_EDGE; 4],
        }];
        let mut index = KeyMap::default();
        index.insert(start.key(), 0);
        let mut next = 0;
        while next < nodes.len() {
            let state = nodes[next].state;
            let depth = nodes[next].depth + 1;
            let mut successors = [NO_EDGE; 4];
            for (i, direction) in Direction::ALL.into_iter().enumerate() {
                let Some(child) = state.apply(direction) else {
                    continue;
                };
                let id = *index.entry(child.key()).or_insert_with(|| {
                    nodes.push(Node {
                        state: child,
                        depth,
                        class: NodeClass::Indeterminate,
                        successors: [NO_EDGE; 4],
                    });
                    (nodes.len() - 1) as u32
                });
                successors[i] = id;
            }
            if nodes.len() > budget {
                return Err(GraphError::TooLarge { budget });
            }
            nodes[next].successors = successors;
            next += 1;
        }
        let topological = by_cells_filled(&nodes);
        let mut graph = Self {
            nodes,
            topological,
            index,
        };
        graph.classify(start.geometry());
        Ok(graph)
    }

    /// Classes in one sweep, successors first.
    fn classify(&mut self, geometry: Geometry) {
        for &id in self.topological.iter().rev() {
            let node = &self.nodes[id as usize];
            let empty = geometry.full & !node.state.filled();
            let class = if empty == 0 {
                NodeClass::Success
            } else if node.successors.iter().all(|&s| s == NO_EDGE) {
                NodeClass::Fail
            } else if geometry.is_split(empty) {
                NodeClass::Dead
            } else if node.successors.iter().any(|&s| {
                s != NO_EDGE
                    && matches!(
                        self.nodes[s as usize].class,
                        NodeClass::Success | NodeClass::Solution
                    )
            }) {
                NodeClass::Solution
            } else {
                NodeClass::Indeterminate
            };
            self.nodes[id as usize].class = class;
        }
    }

    /// All nodes; index 0 is the start.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// One node.
    pub fn node(&self, id: usize) -> &Node {
        &self.nodes[id]
    }

    /// The start node's index (always 0).
    pub fn start(&self) -> usize {
        0
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true: a graph holds at least its start.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node holding `state`, if it is reachable (to follow a playtest on the graph).
    pub fn find(&self, state: &State) -> Option<usize> {
        self.index
            .get(&state.key())
            .map(|&id| id as usize)
            .filter(|&id| self.nodes[id].state == *state)
    }

    /// Node indices in an order where every edge goes forward (fewer cells filled first).
    pub fn topological_order(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.topological.iter().map(|&id| id as usize)
    }

    /// True when a success is reachable from the start.
    pub fn solvable(&self) -> bool {
        matches!(
            self.nodes[0].class,
            NodeClass::Success | NodeClass::Solution
        )
    }

    /// One shortest solution (moves from the start to a success), if any.
    pub fn shortest_solution(&self) -> Option<Vec<Direction>> {
        // BFS depths are shortest distances; walk back from the shallowest success by
        // finding, for each node, a predecessor one level up.
        let target = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.class == NodeClass::Success)
            .min_by_key(|(_, n)| n.depth)
            .map(|(i, _)| i)?;
        let mut path = Vec::new();
        let mut at = target;
        while at != 0 {
            let depth = self.nodes[at].depth;
            let (from, direction) = self
                .nodes
                .iter()
                .enumerate()
                .filter(|(_, n)| n.depth + 1 == depth)
                .find_map(|(i, n)| n.edges().find(|e| e.to == at).map(|e| (i, e.direction)))?;
            path.push(direction);
            at = from;
        }
        path.reverse();
        Some(path)
    }
}

/// Node ids sorted by the number of filled cells (a counting sort: at most 128 buckets).
fn by_cells_filled(nodes: &[Node]) -> Vec<u32> {
    let mut counts = [0u32; 130];
    for n in nodes {
        counts[n.state.filled().count_ones() as usize + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    let mut order = vec![0u32; nodes.len()];
    for (id, n) in nodes.iter().enumerate() {
        let bucket = n.state.filled().count_ones() as usize;
        order[counts[bucket] as usize] = id as u32;
        counts[bucket] += 1;
    }
    order
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
                assert_eq!(g.node(e.to).state, n.state.apply(e.direction).unwrap());
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
