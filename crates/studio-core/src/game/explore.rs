//! One state-graph explorer for every game with a finite state space: every position
//! reachable from a start, found breadth-first through the game's `step` function (the shape
//! of the `pathfinding` crate's `successors`), edges labelled with their move, and each node
//! put in exactly one [`NodeClass`]. On top of the graph come, for any such game, the graph
//! variables of SPEC §2.2 ([`GraphVariables`]) and the player model ([`PlayerModel`]), and the
//! window's viewer draws it.
//!
//! In an acyclic space ([`StateSpace::ACYCLIC`], the default) [`StateSpace::progress`] grows
//! along every move (cells filled), and classes and the player model come from one
//! sweep over that order, successors first. A space whose moves can return to a position
//! (a room whose avatar walks back and forth) sets `ACYCLIC = false`: its classes come
//! from a backward search from the successes, and a node from which no success is reachable
//! is [`NodeClass::Dead`] (the win is unreachable); it has no player model.

use super::{CellLook, ClassStyle, GraphLayout, StateGraphView, StatePicture};
use crate::grid::Grid;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt::Write;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// What a node means to a player. Exclusive, first match wins, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeClass {
    /// The goal is reached: solved (green).
    Success,
    /// Not solved, and no legal move (red).
    Fail,
    /// Visibly lost by the game's own test (the empty cells are split) (purple).
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

/// A game's positions and moves, as the explorer walks them; `B` is the number of moves the
/// game ever offers (the four directions).
pub trait StateSpace<const B: usize> {
    /// One position.
    type State: Copy + PartialEq;
    /// What identifies a position in the graph's index.
    type Key: Eq + Hash;
    /// One move.
    type Move: Copy + PartialEq;
    /// What stays the same across a graph, worked out once and passed to every call
    /// (a board's masks; a room's terrain and monsters), so positions
    /// stay small.
    type Context;
    /// Every move, in the order edges list them.
    fn moves() -> [Self::Move; B];
    /// The position's key.
    fn key(state: &Self::State) -> Self::Key;
    /// The position after `mv`, or `None` when the move is not legal.
    fn step(context: &Self::Context, state: &Self::State, mv: Self::Move) -> Option<Self::State>;
    /// True when the goal is reached.
    fn is_success(context: &Self::Context, state: &Self::State) -> bool;
    /// True when the position is visibly lost (no play can win from it).
    fn is_dead(_context: &Self::Context, _state: &Self::State) -> bool {
        false
    }
    /// False when a move can lead back to an earlier position (see the module's notes).
    const ACYCLIC: bool = true;
    /// A number that grows along every move (acyclic spaces; others return 0).
    fn progress(state: &Self::State) -> u32;
    /// Cells on the board (the `size` graph variable).
    fn cells(context: &Self::Context, state: &Self::State) -> usize;
    /// The letter the viewer and Graphviz write on an edge of this move (`U`).
    fn label(_mv: Self::Move) -> char {
        '·'
    }
    /// How a position looks, cell by cell (the viewer's hover and the canvas show it).
    fn look(context: &Self::Context, state: &Self::State) -> Grid<CellLook>;
    /// How many dense numbers [`StateSpace::dense`] gives in this context, for spaces that
    /// can number every position cheaply: the explorer then finds positions in an array
    /// instead of hashing their keys (when the array is small enough, see
    /// [`DENSE_LIMIT`]). `None` (the default) always hashes.
    fn dense_size(_context: &Self::Context) -> Option<usize> {
        None
    }
    /// The position's dense number, below [`StateSpace::dense_size`]; different positions
    /// get different numbers.
    fn dense(_context: &Self::Context, _state: &Self::State) -> usize {
        0
    }
}

/// The largest dense index the explorer allocates (one `u32` per number: 1 MiB).
pub const DENSE_LIMIT: usize = 1 << 18;

/// Where the explorer finds a position's node: its key hashed, or its dense number.
#[derive(Clone)]
enum NodeIndex<K> {
    Hashed(HashMap<K, u32, BuildHasherDefault<KeyHasher>>),
    Dense(Vec<u32>),
}

/// An outgoing edge: the move and the node it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge<M> {
    /// The move.
    pub action: M,
    /// Index of the node reached, into [`StateGraph::nodes`].
    pub to: usize,
}

const NO_EDGE: u32 = u32::MAX;

/// One position of the graph.
pub struct Node<P: StateSpace<B>, const B: usize> {
    /// The position at this node.
    pub state: P::State,
    /// Fewest moves from the start.
    pub depth: u32,
    /// What the node means to a player.
    pub class: NodeClass,
    successors: [u32; B],
}

impl<P: StateSpace<B>, const B: usize> Clone for Node<P, B> {
    fn clone(&self) -> Self {
        Self {
            state: self.state,
            depth: self.depth,
            class: self.class,
            successors: self.successors,
        }
    }
}

impl<P: StateSpace<B>, const B: usize> std::fmt::Debug for Node<P, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("depth", &self.depth)
            .field("class", &self.class)
            .field("successors", &self.successors)
            .finish_non_exhaustive()
    }
}

impl<P: StateSpace<B>, const B: usize> Node<P, B> {
    /// The outgoing edges, in the order of [`StateSpace::moves`].
    pub fn edges(&self) -> impl Iterator<Item = Edge<P::Move>> + '_ {
        P::moves()
            .into_iter()
            .zip(self.successors)
            .filter(|&(_, to)| to != NO_EDGE)
            .map(|(action, to)| Edge {
                action,
                to: to as usize,
            })
    }

    /// The node reached by `mv`, if that move is legal here.
    pub fn successor(&self, mv: P::Move) -> Option<usize> {
        P::moves()
            .iter()
            .position(|&m| m == mv)
            .map(|i| self.successors[i])
            .filter(|&to| to != NO_EDGE)
            .map(|to| to as usize)
    }

    /// The indices of the nodes reached, in move order.
    pub fn targets(&self) -> impl Iterator<Item = usize> + '_ {
        self.successors
            .iter()
            .filter(|&&to| to != NO_EDGE)
            .map(|&to| to as usize)
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

/// A fast hasher for position keys (packed `u128` keys are already well spread in
/// the low bits; one multiply mixes the rest).
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let folded = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = (folded ^ (folded >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        self.0 ^= self.0 >> 32;
    }
}

/// The state graph of a start position: its nodes (node 0 is the start), edges and classes.
pub struct StateGraph<P: StateSpace<B>, const B: usize> {
    nodes: Vec<Node<P, B>>,
    topological: Vec<u32>,
    index: NodeIndex<P::Key>,
    context: P::Context,
}

impl<P: StateSpace<B>, const B: usize> Clone for StateGraph<P, B>
where
    P::Key: Clone,
    P::Context: Clone,
{
    fn clone(&self) -> Self {
        Self {
            nodes: self.nodes.clone(),
            topological: self.topological.clone(),
            index: self.index.clone(),
            context: self.context.clone(),
        }
    }
}

impl<P: StateSpace<B>, const B: usize> std::fmt::Debug for StateGraph<P, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StateGraph({} nodes)", self.nodes.len())
    }
}

impl<P: StateSpace<B>, const B: usize> StateGraph<P, B> {
    /// Explores every position reachable from `start` in `context`.
    ///
    /// # Errors
    /// [`GraphError::TooLarge`] when more than `budget` positions exist.
    pub fn explore(
        context: P::Context,
        start: P::State,
        budget: usize,
    ) -> Result<Self, GraphError> {
        let mut nodes = Vec::with_capacity(budget.min(4096));
        nodes.push(Node {
            state: start,
            depth: 0,
            class: NodeClass::Indeterminate,
            successors: [NO_EDGE; B],
        });
        let mut index = match P::dense_size(&context).filter(|&n| n <= DENSE_LIMIT) {
            Some(n) => NodeIndex::Dense(vec![NO_EDGE; n]),
            None => NodeIndex::Hashed(HashMap::default()),
        };
        match &mut index {
            NodeIndex::Hashed(map) => {
                map.insert(P::key(&start), 0);
            }
            NodeIndex::Dense(slots) => slots[P::dense(&context, &start)] = 0,
        }
        let moves = P::moves();
        let mut next = 0;
        while next < nodes.len() {
            let state = nodes[next].state;
            let depth = nodes[next].depth + 1;
            let mut successors = [NO_EDGE; B];
            for (slot, &mv) in successors.iter_mut().zip(moves.iter()) {
                let Some(child) = P::step(&context, &state, mv) else {
                    continue;
                };
                let fresh = nodes.len() as u32;
                let id = match &mut index {
                    NodeIndex::Hashed(map) => *map.entry(P::key(&child)).or_insert(fresh),
                    NodeIndex::Dense(slots) => {
                        let s = &mut slots[P::dense(&context, &child)];
                        if *s == NO_EDGE {
                            *s = fresh;
                        }
                        *s
                    }
                };
                if id == fresh {
                    nodes.push(Node {
                        state: child,
                        depth,
                        class: NodeClass::Indeterminate,
                        successors: [NO_EDGE; B],
                    });
                }
                *slot = id;
            }
            if nodes.len() > budget {
                return Err(GraphError::TooLarge { budget });
            }
            nodes[next].successors = successors;
            next += 1;
        }
        let topological = if P::ACYCLIC {
            by_progress::<P, B>(&nodes)
        } else {
            (0..nodes.len() as u32).collect()
        };
        let mut graph = Self {
            nodes,
            topological,
            index,
            context,
        };
        if P::ACYCLIC {
            graph.classify();
        } else {
            graph.classify_backward();
        }
        Ok(graph)
    }

    /// Classes of a space with cycles: the nodes that reach a success are found by a
    /// breadth-first search over the reversed edges; a node that reaches none is dead.
    fn classify_backward(&mut self) {
        let context = &self.context;
        let n = self.nodes.len();
        // Predecessor lists in one array: `starts[v]..starts[v + 1]` indexes `from`.
        let mut starts = vec![0usize; n + 1];
        for node in &self.nodes {
            for to in node.targets() {
                starts[to + 1] += 1;
            }
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut from = vec![0u32; starts[n]];
        for (id, node) in self.nodes.iter().enumerate() {
            for to in node.targets() {
                from[fill[to]] = id as u32;
                fill[to] += 1;
            }
        }
        // Which nodes reach a success: a search backwards from every success (depth first;
        // the order does not matter).
        let mut reaches = vec![false; n];
        let mut stack = Vec::new();
        for (id, node) in self.nodes.iter().enumerate() {
            if P::is_success(context, &node.state) {
                reaches[id] = true;
                stack.push(id);
            }
        }
        while let Some(v) = stack.pop() {
            for &u in &from[starts[v]..starts[v + 1]] {
                let u = u as usize;
                if !reaches[u] {
                    reaches[u] = true;
                    stack.push(u);
                }
            }
        }
        for (id, node) in self.nodes.iter_mut().enumerate() {
            node.class = if P::is_success(context, &node.state) {
                NodeClass::Success
            } else if node.successors.iter().all(|&s| s == NO_EDGE) {
                NodeClass::Fail
            } else if reaches[id] {
                NodeClass::Solution
            } else {
                NodeClass::Dead
            };
        }
    }

    /// Classes in one sweep, successors first.
    fn classify(&mut self) {
        let context = &self.context;
        for &id in self.topological.iter().rev() {
            let node = &self.nodes[id as usize];
            let class = if P::is_success(context, &node.state) {
                NodeClass::Success
            } else if node.successors.iter().all(|&s| s == NO_EDGE) {
                NodeClass::Fail
            } else if P::is_dead(context, &node.state) {
                NodeClass::Dead
            } else if node.targets().any(|s| {
                matches!(
                    self.nodes[s].class,
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
    pub fn nodes(&self) -> &[Node<P, B>] {
        &self.nodes
    }

    /// One node.
    pub fn node(&self, id: usize) -> &Node<P, B> {
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
    pub fn find(&self, state: &P::State) -> Option<usize> {
        let id = match &self.index {
            NodeIndex::Hashed(map) => map.get(&P::key(state)).copied(),
            NodeIndex::Dense(slots) => {
                let n = P::dense(&self.context, state);
                slots.get(n).copied().filter(|&id| id != NO_EDGE)
            }
        };
        id.map(|id| id as usize)
            .filter(|&id| self.nodes.get(id).is_some_and(|n| n.state == *state))
    }

    /// Where a node's class sits in [`CLASS_STYLES`] (the viewer's legend); an unknown node
    /// counts as indeterminate.
    pub fn legend_class(&self, node: usize) -> usize {
        legend_index(
            self.nodes
                .get(node)
                .map_or(NodeClass::Indeterminate, |n| n.class),
        )
    }

    /// The state at a node as the viewer and canvas draw it, `None` out of range.
    pub fn picture(&self, node: usize) -> Option<StatePicture> {
        let n = self.nodes.get(node)?;
        Some(StatePicture {
            caption: format!("node {node} · depth {} · {}", n.depth, n.class.name()),
            cells: P::look(&self.context, &n.state),
        })
    }

    /// Node indices in an order where every edge goes forward (less progress first); in a
    /// space with cycles, breadth-first order, where edges may go back.
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
    pub fn shortest_solution(&self) -> Option<Vec<P::Move>> {
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
            let (from, action) = self
                .nodes
                .iter()
                .enumerate()
                .filter(|(_, n)| n.depth + 1 == depth)
                .find_map(|(i, n)| n.edges().find(|e| e.to == at).map(|e| (i, e.action)))?;
            path.push(action);
            at = from;
        }
        path.reverse();
        Some(path)
    }
}

/// Node ids sorted by progress (a counting sort over the progress values seen).
fn by_progress<P: StateSpace<B>, const B: usize>(nodes: &[Node<P, B>]) -> Vec<u32> {
    let progress: Vec<u32> = nodes.iter().map(|n| P::progress(&n.state)).collect();
    let max = progress.iter().copied().max().unwrap_or(0) as usize;
    let mut counts = vec![0u32; max + 2];
    for &p in &progress {
        counts[p as usize + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    let mut order = vec![0u32; nodes.len()];
    for (id, &p) in progress.iter().enumerate() {
        order[counts[p as usize] as usize] = id as u32;
        counts[p as usize] += 1;
    }
    order
}

/// The graph variables of SPEC §2.2, the numbers the difficulty predictor reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct GraphVariables {
    /// Nodes in the graph.
    pub states: usize,
    /// Cells on the board.
    pub size: usize,
    /// Branches summed over all nodes (`max(0, out-degree − 1)` each).
    pub branches: usize,
    /// Success nodes.
    pub solutions: usize,
    /// Fail nodes.
    pub fails: usize,
    /// Fewest moves to a success; `None` when unsolvable.
    pub shortest_solution: Option<u32>,
    /// Branches summed over solution nodes.
    pub solution_branches: usize,
    /// Nodes that are not dead.
    pub non_dead: usize,
    /// Dead nodes.
    pub dead: usize,
    /// Indeterminate nodes.
    pub indeterminate: usize,
    /// Branches summed over indeterminate nodes.
    pub indeterminate_branches: usize,
}

impl GraphVariables {
    /// Counts the variables of a graph.
    pub fn of<P: StateSpace<B>, const B: usize>(graph: &StateGraph<P, B>) -> Self {
        let first = &graph.node(graph.start()).state;
        let mut v = GraphVariables {
            states: graph.len(),
            size: P::cells(&graph.context, first),
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

    /// The variables as a row of numbers, in [`GraphVariables::NAMES`] order (an unsolvable
    /// level's shortest solution counts as 0).
    pub fn to_vec(&self) -> [f64; 11] {
        [
            self.states as f64,
            self.size as f64,
            self.branches as f64,
            self.solutions as f64,
            self.fails as f64,
            f64::from(self.shortest_solution.unwrap_or(0)),
            self.solution_branches as f64,
            self.non_dead as f64,
            self.dead as f64,
            self.indeterminate as f64,
            self.indeterminate_branches as f64,
        ]
    }

    /// The variables' names, as in JSON and the predictor's files.
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

/// The player model of SPEC §2.2, computed exactly on the state graph.
///
/// A player picks uniformly among the legal moves, restarts at once on a dead or fail state,
/// and is charged one unit for each move taken where there was a real choice (out-degree ≥ 2).
/// `P(s)` is the chance that one attempt from `s` succeeds and `M(s)` its expected charge; the
/// difficulty is `M(start) / P(start)`, the expected charge until the first success (Wald's
/// identity over independent attempts).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerModel {
    /// `P(s)`: chance that one attempt from node `s` reaches a success.
    pub success_chance: Vec<f64>,
    /// `M(s)`: expected charge of one attempt from node `s`.
    pub expected_charge: Vec<f64>,
    start: usize,
    solvable: bool,
}

impl PlayerModel {
    /// Computes `P` and `M` for every node, successors first (acyclic spaces only: in a
    /// space with cycles there is no "successors first").
    pub fn of<P: StateSpace<B>, const B: usize>(graph: &StateGraph<P, B>) -> Self {
        debug_assert!(P::ACYCLIC, "the player model needs an acyclic state space");
        let n = graph.len();
        let mut p = vec![0.0; n];
        let mut m = vec![0.0; n];
        for id in graph.topological_order().rev() {
            let node = graph.node(id);
            match node.class {
                NodeClass::Success => p[id] = 1.0,
                NodeClass::Fail | NodeClass::Dead => {}
                NodeClass::Solution | NodeClass::Indeterminate => {
                    let (mut sum_p, mut sum_m, mut degree) = (0.0, 0.0, 0usize);
                    for to in node.targets() {
                        sum_p += p[to];
                        sum_m += m[to];
                        degree += 1;
                    }
                    let d = degree as f64;
                    p[id] = sum_p / d;
                    m[id] = sum_m / d + if degree >= 2 { 1.0 } else { 0.0 };
                }
            }
        }
        Self {
            success_chance: p,
            expected_charge: m,
            start: graph.start(),
            solvable: graph.solvable(),
        }
    }

    /// `P(start)`.
    pub fn start_success_chance(&self) -> f64 {
        self.success_chance[self.start]
    }

    /// `M(start)`.
    pub fn start_expected_charge(&self) -> f64 {
        self.expected_charge[self.start]
    }

    /// `M(start) / P(start)`, or `None` when the level is unsolvable (`P(start) = 0`).
    pub fn difficulty(&self) -> Option<f64> {
        self.solvable
            .then(|| self.start_expected_charge() / self.start_success_chance())
    }
}

/// Horizontal distance between depth columns in the viewer, in graph units.
pub const COLUMN_GAP: f32 = 44.0;
/// Vertical distance between nodes of one column in the viewer, in graph units.
pub const ROW_GAP: f32 = 22.0;

fn on_the_way(class: NodeClass) -> bool {
    matches!(class, NodeClass::Solution | NodeClass::Success)
}

/// Lays nodes out in columns by depth; within a column, nodes are ordered by the mean
/// position of their parents (one barycentre sweep), solution nodes pulled to the middle.
pub fn layout<P: StateSpace<B>, const B: usize>(graph: &StateGraph<P, B>) -> GraphLayout {
    let nodes = graph.nodes();
    let n = nodes.len();
    let max_depth = nodes.iter().map(|nd| nd.depth as usize).max().unwrap_or(0);
    let mut columns: Vec<Vec<u32>> = vec![Vec::new(); max_depth + 1];
    for (i, nd) in nodes.iter().enumerate() {
        columns[nd.depth as usize].push(i as u32);
    }
    let mut parents: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut edges = Vec::new();
    let mut solution_edge = Vec::new();
    for (i, nd) in nodes.iter().enumerate() {
        for e in nd.edges() {
            parents[e.to].push(i as u32);
            edges.push((i as u32, e.to as u32, P::label(e.action)));
            solution_edge.push(nd.class == NodeClass::Solution && on_the_way(nodes[e.to].class));
        }
    }
    let mut rank = vec![0f32; n];
    let mut positions = vec![[0f32; 2]; n];
    for (depth, column) in columns.iter_mut().enumerate() {
        if depth > 0 {
            let key = |id: u32| {
                let ps = &parents[id as usize];
                let mean = if ps.is_empty() {
                    0.0
                } else {
                    ps.iter().map(|&p| rank[p as usize]).sum::<f32>() / ps.len() as f32
                };
                (mean, id)
            };
            column.sort_by(|&a, &b| {
                key(a)
                    .partial_cmp(&key(b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
        }
        let half = (column.len() as f32 - 1.0) / 2.0;
        for (row, &id) in column.iter().enumerate() {
            let y = row as f32 - half;
            rank[id as usize] = y;
            positions[id as usize] = [depth as f32 * COLUMN_GAP, y * ROW_GAP];
        }
    }
    let mut bounds = [f32::MAX, f32::MAX, f32::MIN, f32::MIN];
    for p in &positions {
        bounds = [
            bounds[0].min(p[0]),
            bounds[1].min(p[1]),
            bounds[2].max(p[0]),
            bounds[3].max(p[1]),
        ];
    }
    if positions.is_empty() {
        bounds = [0.0; 4];
    }
    let column_sizes = columns.iter().map(|c| c.len()).collect();
    GraphLayout {
        positions,
        edges,
        solution_edge,
        bounds,
        column_sizes,
    }
}

/// The viewer's classes, in legend order, with their colours (SPEC §2.2).
pub const CLASS_STYLES: [ClassStyle; 5] = [
    ClassStyle {
        name: "success",
        rgb: [60, 190, 90],
    },
    ClassStyle {
        name: "solution",
        rgb: [70, 130, 245],
    },
    ClassStyle {
        name: "indeterminate",
        rgb: [235, 200, 50],
    },
    ClassStyle {
        name: "dead",
        rgb: [160, 90, 210],
    },
    ClassStyle {
        name: "fail",
        rgb: [225, 70, 64],
    },
];

/// Where a class sits in [`CLASS_STYLES`].
pub fn legend_index(class: NodeClass) -> usize {
    match class {
        NodeClass::Success => 0,
        NodeClass::Solution => 1,
        NodeClass::Indeterminate => 2,
        NodeClass::Dead => 3,
        NodeClass::Fail => 4,
    }
}

/// An explored graph with its layout, ready for the window's viewer: what a game's analysis
/// puts in [`Analysis::graph`](super::Analysis::graph) to get the viewer with no code of its
/// own.
pub struct GraphPicture<P: StateSpace<B>, const B: usize> {
    graph: StateGraph<P, B>,
    layout: GraphLayout,
}

impl<P: StateSpace<B>, const B: usize> GraphPicture<P, B> {
    /// Lays a graph out for the viewer.
    pub fn new(graph: StateGraph<P, B>) -> Self {
        let layout = layout(&graph);
        Self { graph, layout }
    }

    /// The graph.
    pub fn graph(&self) -> &StateGraph<P, B> {
        &self.graph
    }
}

impl<P, const B: usize> StateGraphView for GraphPicture<P, B>
where
    P: StateSpace<B>,
    P::State: Send + Sync,
    P::Key: Send + Sync,
    P::Context: Send + Sync,
{
    fn node_count(&self) -> usize {
        self.graph.len()
    }

    fn start(&self) -> usize {
        self.graph.start()
    }

    fn layout(&self) -> &GraphLayout {
        &self.layout
    }

    fn classes(&self) -> &'static [ClassStyle] {
        &CLASS_STYLES
    }

    fn class_of(&self, node: usize) -> usize {
        self.graph.legend_class(node)
    }

    fn solution_rgb(&self) -> [u8; 3] {
        CLASS_STYLES[legend_index(NodeClass::Solution)].rgb
    }

    fn state(&self, node: usize) -> Option<StatePicture> {
        self.graph.picture(node)
    }

    fn to_dot(&self, title: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph \"{}\" {{", title.replace('"', "'"));
        let _ = writeln!(out, "  rankdir=LR;");
        let _ = writeln!(out, "  node [style=filled, shape=circle, label=\"\"];");
        for (id, node) in self.graph.nodes().iter().enumerate() {
            let extra = if id == self.graph.start() {
                ", penwidth=3"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  n{id} [fillcolor={}, tooltip=\"#{id} d{} {}\"{extra}];",
                node.class.colour(),
                node.depth,
                node.class.name()
            );
        }
        for (a, b, letter) in &self.layout.edges {
            let _ = writeln!(out, "  n{a} -> n{b} [label=\"{letter}\"];");
        }
        out.push_str("}\n");
        out
    }
}
