//! The five tile metrics of level-blending-learned-representation §IV-B, each a share of the
//! segment's 256 cells, and which game a segment is like. The paper's text lost its tile
//! lists; our reading, on Table I's properties:
//!
//! - **density**: cells the player can stand on — Table I's solid tiles (`B b M F I O D W`);
//! - **non-linearity**: per column, the height of its surface (the topmost solid cell); a
//!   least-squares line through the surfaces; the mean absolute distance of the surfaces from
//!   the line over the segment's height (0: one straight surface). Columns without a solid
//!   cell are left out; fewer than two columns give 0;
//! - **leniency**: cells *not* holding an enemy or hazard (`E M`);
//! - **interestingness**: gold, climbable tiles, doors and elements (`G - # S D P I O`);
//! - **path proportion**: cells the player can be in — Table I's passable tiles
//!   (`. - # G S`).

use super::tiles::{origin, props, Origin};
use serde::{Deserialize, Serialize};

/// The five metrics, each 0..1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TileMetrics {
    /// Standable cells.
    pub density: f64,
    /// Spread of the surface heights around a line.
    pub non_linearity: f64,
    /// Cells without an enemy or hazard.
    pub leniency: f64,
    /// Gold, climbables, doors, elements.
    pub interestingness: f64,
    /// Passable cells.
    pub path_proportion: f64,
}

impl TileMetrics {
    /// The metrics as a vector, in the order above (E-distance compares these).
    pub fn vector(&self) -> [f64; 5] {
        [
            self.density,
            self.non_linearity,
            self.leniency,
            self.interestingness,
            self.path_proportion,
        ]
    }

    /// The metric names, in [`TileMetrics::vector`] order.
    pub const NAMES: [&'static str; 5] = [
        "density",
        "non_linearity",
        "leniency",
        "interestingness",
        "path_proportion",
    ];
}

/// The metrics of a segment's rows.
pub fn tile_metrics(rows: &[String]) -> TileMetrics {
    let cells: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let n = cells.iter().map(Vec::len).sum::<usize>().max(1) as f64;
    let share =
        |f: &dyn Fn(char) -> bool| cells.iter().flatten().filter(|&&c| f(c)).count() as f64 / n;
    let solid = |c: char| props(c).is_some_and(|p| p.solid);
    let height = cells.len().max(1) as f64;
    let width = cells.first().map_or(0, Vec::len);
    let surfaces: Vec<(f64, f64)> = (0..width)
        .filter_map(|x| {
            (0..cells.len())
                .find(|&y| cells[y].get(x).copied().is_some_and(solid))
                .map(|y| (x as f64, y as f64))
        })
        .collect();
    TileMetrics {
        density: share(&solid),
        non_linearity: non_linearity(&surfaces) / height,
        leniency: 1.0 - share(&|c| props(c).is_some_and(|p| p.damaging)),
        interestingness: share(&|c| {
            props(c).is_some_and(|p| p.gold || p.climbable || p.door || p.element)
        }),
        path_proportion: share(&|c| props(c).is_some_and(|p| p.passable)),
    }
}

/// Mean absolute residual of a least-squares line through `points`.
fn non_linearity(points: &[(f64, f64)]) -> f64 {
    if points.len() < 2 {
        return 0.0;
    }
    let n = points.len() as f64;
    let (mx, my) = (
        points.iter().map(|p| p.0).sum::<f64>() / n,
        points.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    points
        .iter()
        .map(|p| (p.1 - (my + slope * (p.0 - mx))).abs())
        .sum::<f64>()
        / n
}

/// Which game a segment is like.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Likeness {
    /// More Lode Runner-only tiles than Zelda-only ones (ties, and segments of shared tiles
    /// only, count as Lode Runner-like: its A* is the stricter test).
    LodeRunner,
    /// More Zelda-only tiles.
    Zelda,
}

/// Lode Runner-only and Zelda-only tiles in `rows`.
pub fn origin_counts(rows: &[String]) -> (usize, usize) {
    let mut counts = (0, 0);
    for c in rows.iter().flat_map(|r| r.chars()) {
        match origin(c) {
            Origin::LodeRunner => counts.0 += 1,
            Origin::Zelda => counts.1 += 1,
            Origin::Both => {}
        }
    }
    counts
}

/// Which game `rows` is like, by majority of the tiles only one game has.
pub fn likeness(rows: &[String]) -> Likeness {
    let (lr, zelda) = origin_counts(rows);
    if zelda > lr {
        Likeness::Zelda
    } else {
        Likeness::LodeRunner
    }
}
