//! What the state-graph viewer draws, for any game with a state graph: node positions laid
//! out off the UI thread, edges with their move labels, node classes with their colours,
//! and the board at each node.

use super::TileMark;
use crate::grid::Grid;

/// Where each node sits in the viewer, computed off the UI thread.
#[derive(Clone, Debug, Default)]
pub struct GraphLayout {
    /// Node centres in graph units (x by depth, y within the depth column).
    pub positions: Vec<[f32; 2]>,
    /// Edges as (from, to, move letter).
    pub edges: Vec<(u32, u32, char)>,
    /// True for edges on a solution path (both ends on the way to a success).
    pub solution_edge: Vec<bool>,
    /// The bounding box: min x, min y, max x, max y.
    pub bounds: [f32; 4],
    /// Nodes in each depth column.
    pub column_sizes: Vec<usize>,
}

/// A node class as the legend shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassStyle {
    /// Lower-case name (`solution`).
    pub name: &'static str,
    /// Colour of its nodes.
    pub rgb: [u8; 3],
}

/// How one cell of a graph state looks: a colour and a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CellLook {
    /// Fill colour.
    pub rgb: [u8; 3],
    /// Mark on top of the colour.
    pub mark: TileMark,
}

/// One state of the graph, ready to draw on the canvas.
#[derive(Clone, PartialEq)]
pub struct StatePicture {
    /// A line describing it ("node 12 · depth 3 · solution").
    pub caption: String,
    /// The board at that node.
    pub cells: Grid<CellLook>,
}

impl std::fmt::Debug for StatePicture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "StatePicture({:?}, {}×{})",
            self.caption,
            self.cells.width(),
            self.cells.height()
        )
    }
}

/// A game's state graph as the viewer reads it.
pub trait StateGraphView: Send + Sync {
    /// Nodes in the graph.
    fn node_count(&self) -> usize;
    /// The start node.
    fn start(&self) -> usize;
    /// Positions and edges.
    fn layout(&self) -> &GraphLayout;
    /// The classes in legend order.
    fn classes(&self) -> &'static [ClassStyle];
    /// The class of a node (an index into [`StateGraphView::classes`]).
    fn class_of(&self, node: usize) -> usize;
    /// The colour of solution paths.
    fn solution_rgb(&self) -> [u8; 3];
    /// The state at a node, `None` out of range.
    fn state(&self, node: usize) -> Option<StatePicture>;
    /// The graph in Graphviz DOT, titled `title`.
    fn to_dot(&self, title: &str) -> String;
}

impl std::fmt::Debug for dyn StateGraphView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StateGraph({} nodes)", self.node_count())
    }
}
