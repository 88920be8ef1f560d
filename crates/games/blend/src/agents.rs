//! The two playability agents of level-blending-learned-representation §IV-C on a 16 × 16
//! segment, read point by point from the paper (`docs/blend.md` lists each reading beside
//! the paper's words). Both search the segment's positions: a path exists exactly when A*
//! would find one, so a breadth-first search gives the same verdicts for every target at once.
//!
//! Each agent reads the tiles the two games share in its own game's sense: `-` is a rope to
//! the Lode Runner agent and void to the Zelda agent, `M` is the Lode Runner spawn (an empty
//! cell) or a Zelda monster (standing on floor), and `B` is ground or a block.
//!
//! - **Lode Runner** (gravity): it can only be in passable cells (Table I's `. - # G S`, and
//!   the spawn `M`); enemies, elements and every solid tile keep it out. Standing (on a ladder
//!   or rope, on the bottom row, or above a cell it cannot be in or a ladder) it may walk left
//!   or right, climb up a ladder, go down onto a ladder or let go of a rope or ladder, and dig
//!   the brick below-left or below-right when the cell beside it is free (it drops into the
//!   hole). Not standing, it falls one cell. It starts from the top (the free cell nearest the
//!   middle of the topmost row that has one) or from the bottom (the same from the bottommost
//!   row). **Playable** when one run from one start *collects* at least half of the gold: gold
//!   it passes on the way counts, gold below a drop it cannot climb back from ends the run's
//!   choices (the most gold of one walk, over the graph's strongly connected parts). A segment
//!   **without gold** has no goal and is not playable.
//! - **Zelda** (4-way, no gravity): it walks floor, doors, stairs and monsters (`F D S M`) and
//!   Lode Runner's open cells (`. # G E`); walls, blocks, bricks, elements (no ladder) and void
//!   (`W B b P I O -`) block it. **Playable** when at least 2 of the 4 corner-to-opposite-corner
//!   paths exist. A corner it cannot stand on is replaced by the walkable cell nearest to it
//!   (Manhattan distance, then row-major order), so a padded VGLC room starts and ends on its
//!   inner floor; a segment with no walkable cell has no path.

use studio_core::grid::{breadth_first, breadth_first_to};

pub(super) type Cells = Vec<Vec<char>>;

fn cells(rows: &[String]) -> Cells {
    rows.iter().map(|r| r.chars().collect()).collect()
}

fn at(c: &Cells, x: i64, y: i64) -> Option<char> {
    if x < 0 || y < 0 {
        return None;
    }
    c.get(y as usize).and_then(|r| r.get(x as usize)).copied()
}

/// A cell the Lode Runner agent can be in: Table I's passable tiles and the spawn.
pub(super) fn lr_free(letter: char) -> bool {
    matches!(letter, '.' | '-' | '#' | 'G' | 'S' | 'M')
}

/// Ladders and stairs, which the Lode Runner agent climbs.
pub(super) fn lr_climb(letter: char) -> bool {
    matches!(letter, '#' | 'S')
}

/// Whether the Lode Runner agent at `(x, y)` is held: on a ladder or rope, on the bottom
/// row, or above a cell it cannot fall into or a ladder's top.
pub(super) fn lr_stands(c: &Cells, x: i64, y: i64) -> bool {
    let here = at(c, x, y).unwrap_or('.');
    let below = at(c, x, y + 1);
    lr_climb(here) || here == '-' || below.is_none_or(|b| !lr_free(b) || lr_climb(b))
}

/// The positions the Lode Runner agent reaches in one step from `(x, y)`.
fn lr_moves(c: &Cells, (x, y): (usize, usize)) -> Vec<(usize, usize)> {
    let (xi, yi) = (x as i64, y as i64);
    let here = c[y][x];
    let below = at(c, xi, yi + 1);
    let mut next: Vec<(i64, i64)> = Vec::new();
    if lr_stands(c, xi, yi) {
        next.extend([(xi - 1, yi), (xi + 1, yi)]);
        if lr_climb(here) {
            next.push((xi, yi - 1));
        }
        if below.is_some_and(lr_free) {
            next.push((xi, yi + 1));
        }
        for dx in [-1, 1] {
            let side = at(c, xi + dx, yi);
            let under = at(c, xi + dx, yi + 1);
            if side.is_some_and(lr_free) && under == Some('b') {
                next.push((xi + dx, yi + 1));
            }
        }
    } else if below.is_some_and(lr_free) {
        next.push((xi, yi + 1));
    }
    next.into_iter()
        .filter(|&(nx, ny)| {
            at(c, nx, ny).is_some_and(|letter| {
                // A dug brick is free for the moment the agent drops into it.
                lr_free(letter) || (letter == 'b' && ny == yi + 1 && nx != xi)
            })
        })
        .map(|(nx, ny)| (nx as usize, ny as usize))
        .collect()
}

/// Every position the Lode Runner agent reaches from `start`.
fn lr_reach(c: &Cells, start: (usize, usize)) -> Vec<Vec<bool>> {
    let h = c.len();
    let w = c.iter().map(Vec::len).max().unwrap_or(0);
    let mut seen = vec![vec![false; w]; h];
    for &(x, y) in breadth_first(w, h, start, |p| lr_moves(c, p)).reached() {
        seen[y][x] = true;
    }
    seen
}

/// The most gold one run from `start` collects: the heaviest path through the strongly
/// connected parts of the positions it reaches (a part's gold can all be taken, since every
/// cell of it leads back to every other).
fn lr_most_gold(c: &Cells, start: (usize, usize)) -> usize {
    let w = c.first().map_or(0, Vec::len);
    let seen = lr_reach(c, start);
    let nodes: Vec<(usize, usize)> = seen
        .iter()
        .enumerate()
        .flat_map(|(y, r)| {
            r.iter()
                .enumerate()
                .filter(|(_, &s)| s)
                .map(move |(x, _)| (x, y))
        })
        .collect();
    let index = |(x, y): (usize, usize)| y * w + x;
    let mut id = vec![usize::MAX; c.len() * w];
    for (i, &p) in nodes.iter().enumerate() {
        id[index(p)] = i;
    }
    let edges: Vec<Vec<usize>> = nodes
        .iter()
        .map(|&p| lr_moves(c, p).into_iter().map(|q| id[index(q)]).collect())
        .collect();
    // Each node's reach as a bit set: two nodes share a part when each reaches the other, and
    // a part that reaches another reaches more nodes, so larger reach sets come first in a
    // topological order of the parts.
    let words = nodes.len().div_ceil(64).max(1);
    let reach: Vec<Vec<u64>> = (0..nodes.len())
        .map(|s| {
            let mut bits = vec![0u64; words];
            bits[s / 64] |= 1 << (s % 64);
            let mut stack = vec![s];
            while let Some(n) = stack.pop() {
                for &m in &edges[n] {
                    if bits[m / 64] & (1 << (m % 64)) == 0 {
                        bits[m / 64] |= 1 << (m % 64);
                        stack.push(m);
                    }
                }
            }
            bits
        })
        .collect();
    let has = |a: usize, b: usize| reach[a][b / 64] & (1 << (b % 64)) != 0;
    let size: Vec<u32> = reach
        .iter()
        .map(|b| b.iter().map(|w| w.count_ones()).sum())
        .collect();
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by_key(|&n| size[n]);
    // best[n]: the most gold of a walk from n; filled from the smallest reach up.
    let mut best = vec![0usize; nodes.len()];
    let gold_in_part = |n: usize| {
        (0..nodes.len())
            .filter(|&m| has(n, m) && has(m, n))
            .filter(|&m| c[nodes[m].1][nodes[m].0] == 'G')
            .count()
    };
    for &n in &order {
        let onward = (0..nodes.len())
            .filter(|&m| has(n, m) && !has(m, n))
            .map(|m| best[m])
            .max()
            .unwrap_or(0);
        best[n] = gold_in_part(n) + onward;
    }
    id.get(index(start))
        .and_then(|&i| best.get(i))
        .copied()
        .unwrap_or(0)
}

/// The free cell of the topmost (or bottommost) row that has one, nearest the middle.
pub(super) fn lr_start(c: &Cells, from_top: bool) -> Option<(usize, usize)> {
    let h = c.len();
    let rows: Vec<usize> = if from_top {
        (0..h).collect()
    } else {
        (0..h).rev().collect()
    };
    for y in rows {
        let w = c[y].len();
        let mut xs: Vec<usize> = (0..w).collect();
        xs.sort_by_key(|&x| (2 * x as i64 - (w as i64 - 1)).abs());
        if let Some(&x) = xs.iter().find(|&&x| lr_free(c[y][x])) {
            return Some((x, y));
        }
    }
    None
}

/// The Lode Runner agent's verdict on a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LrVerdict {
    /// Gold in the segment.
    pub gold: usize,
    /// The most gold one run from one start collects.
    pub reached: usize,
    /// Gold, and at least half of it collected in one run.
    pub playable: bool,
}

/// The Lode Runner agent on `rows`.
pub fn lode_runner(rows: &[String]) -> LrVerdict {
    let c = cells(rows);
    let gold = c.iter().flatten().filter(|&&l| l == 'G').count();
    let reached = [lr_start(&c, true), lr_start(&c, false)]
        .into_iter()
        .flatten()
        .map(|s| lr_most_gold(&c, s))
        .max()
        .unwrap_or(0);
    LrVerdict {
        gold,
        reached,
        playable: gold > 0 && 2 * reached >= gold,
    }
}

/// A cell the Zelda agent can walk: floor, doors, stairs, monsters and Lode Runner's open
/// cells (`F D S M . # G E`).
pub(super) fn zelda_free(letter: char) -> bool {
    matches!(letter, 'F' | 'D' | 'S' | 'M' | '.' | '#' | 'G' | 'E')
}

/// The walkable cell nearest `corner` (Manhattan, then row-major).
pub(super) fn nearest_free(c: &Cells, corner: (usize, usize)) -> Option<(usize, usize)> {
    c.iter()
        .enumerate()
        .flat_map(|(y, r)| {
            r.iter()
                .enumerate()
                .filter(|(_, &l)| zelda_free(l))
                .map(move |(x, _)| (x, y))
        })
        .min_by_key(|&(x, y)| (x.abs_diff(corner.0) + y.abs_diff(corner.1), y, x))
}
/// The Zelda agent's verdict on a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeldaVerdict {
    /// Corner-to-opposite-corner paths that exist (0–4): bottom-left → top-right,
    /// bottom-right → top-left, top-left → bottom-right, top-right → bottom-left.
    pub paths: usize,
    /// At least 2 of the 4.
    pub playable: bool,
}

/// The Zelda agent on `rows`.
pub fn zelda(rows: &[String]) -> ZeldaVerdict {
    zelda_on_regions_of(rows, 1)
}

/// Walkable cells per 4-connected walkable region, each cell's region's size (0: blocked).
fn region_sizes(c: &Cells) -> Vec<Vec<usize>> {
    let h = c.len();
    let w = c.first().map_or(0, Vec::len);
    let mut size = vec![vec![0usize; w]; h];
    let mut seen = vec![vec![false; w]; h];
    for y0 in 0..h {
        for x0 in 0..w {
            if seen[y0][x0] || !zelda_free(c[y0][x0]) {
                continue;
            }
            let mut region = vec![(x0, y0)];
            seen[y0][x0] = true;
            let mut i = 0;
            while let Some(&(x, y)) = region.get(i) {
                i += 1;
                for (dx, dy) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if at(c, nx, ny).is_some_and(zelda_free) && !seen[ny as usize][nx as usize] {
                        seen[ny as usize][nx as usize] = true;
                        region.push((nx as usize, ny as usize));
                    }
                }
            }
            for &(x, y) in &region {
                size[y][x] = region.len();
            }
        }
    }
    size
}

/// The Zelda agent with each corner moved to the nearest walkable cell of a region of at
/// least `min_region` cells (1: [`zelda`] itself). A diagnostic of the corner rule: how often
/// a segment fails only because a corner's nearest walkable cell is a speck cut off from the
/// rest (`eval` reports it with 4).
pub fn zelda_on_regions_of(rows: &[String], min_region: usize) -> ZeldaVerdict {
    let c = cells(rows);
    let h = c.len();
    let w = c.first().map_or(0, Vec::len);
    if h == 0 || w == 0 {
        return ZeldaVerdict {
            paths: 0,
            playable: false,
        };
    }
    let (r, b) = (w - 1, h - 1);
    let pairs = [
        ((0, b), (r, 0)),
        ((r, b), (0, 0)),
        ((0, 0), (r, b)),
        ((r, 0), (0, b)),
    ];
    let sizes = (min_region > 1).then(|| region_sizes(&c));
    let nearest = |corner: (usize, usize)| match &sizes {
        None => nearest_free(&c, corner),
        Some(sizes) => (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| sizes[y][x] >= min_region)
            .min_by_key(|&(x, y)| (x.abs_diff(corner.0) + y.abs_diff(corner.1), y, x)),
    };
    let mut paths = 0;
    for (from, to) in pairs {
        let (Some(s), Some(g)) = (nearest(from), nearest(to)) else {
            continue;
        };
        let open = |(x, y): (usize, usize)| {
            [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .map(move |(dx, dy)| (x as i64 + dx, y as i64 + dy))
                .filter(|&(nx, ny)| at(&c, nx, ny).is_some_and(zelda_free))
                .map(|(nx, ny)| (nx as usize, ny as usize))
        };
        if breadth_first_to(w, h, s, g, open)
            .distance(g.0, g.1)
            .is_some()
        {
            paths += 1;
        }
    }
    ZeldaVerdict {
        paths,
        playable: paths >= 2,
    }
}

/// Corner-to-opposite-corner paths (0–4) the Lode Runner agent finds, with gravity: how the
/// paper runs it on Zelda-like segments. Corners are placed as the Zelda agent's are, on the
/// nearest cell the Lode Runner agent can be in.
pub fn lode_runner_corners(rows: &[String]) -> usize {
    let c = cells(rows);
    let h = c.len();
    let w = c.first().map_or(0, Vec::len);
    if h == 0 || w == 0 {
        return 0;
    }
    let nearest = |corner: (usize, usize)| {
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| lr_free(c[y][x]))
            .min_by_key(|&(x, y)| (x.abs_diff(corner.0) + y.abs_diff(corner.1), y, x))
    };
    let (r, b) = (w - 1, h - 1);
    let pairs = [
        ((0, b), (r, 0)),
        ((r, b), (0, 0)),
        ((0, 0), (r, b)),
        ((r, 0), (0, b)),
    ];
    pairs
        .iter()
        .filter(|(from, to)| match (nearest(*from), nearest(*to)) {
            (Some(s), Some(g)) => lr_reach(&c, s)[g.1][g.0],
            _ => false,
        })
        .count()
}

/// The paper's Lode Runner A* verdict on any segment: on a Lode Runner-like one, half the
/// gold; on a Zelda-like one, at least 2 of the 4 corner paths.
pub fn lode_runner_playable(rows: &[String]) -> bool {
    match super::metrics::likeness(rows) {
        super::metrics::Likeness::LodeRunner => lode_runner(rows).playable,
        super::metrics::Likeness::Zelda => lode_runner_corners(rows) >= 2,
    }
}

/// [`lode_runner_playable`] with the other reading of a Lode Runner-like segment without gold:
/// it has nothing to collect, so it is (vacuously) playable. The paper does not say which
/// reading it used; `eval` reports both.
pub fn lode_runner_playable_vacuous(rows: &[String]) -> bool {
    match super::metrics::likeness(rows) {
        super::metrics::Likeness::LodeRunner => {
            let v = lode_runner(rows);
            v.gold == 0 || v.playable
        }
        super::metrics::Likeness::Zelda => lode_runner_corners(rows) >= 2,
    }
}
