//! The two playability agents of level-blending-learned-representation §IV-C on a 16 × 16
//! segment. Both search the segment's positions (a path exists exactly when A* would find
//! one, so a breadth-first search over reachable positions gives the same verdicts for every
//! target at once).
//!
//! - **Lode Runner** (gravity): a position is a passable cell. Standing (on a ladder or rope,
//!   above a solid cell or a ladder, or on the bottom row) it may walk left or right, climb up
//!   a ladder, go down onto a ladder or let go of a rope or ladder, and dig the brick below-left
//!   or below-right when the cell beside it is free (it drops into the hole). Not standing, it
//!   falls one cell. Playable when, from the top start or from the bottom start, it reaches at
//!   least half of the gold. A segment **without gold** is playable when the agent can get
//!   from one start to the other's row (through the segment).
//! - **Zelda** (4-way, no gravity): elements block (`P I O`: lava and water, and the player
//!   has no ladder); every other cell can be walked, walls included. That is the paper's agent
//!   as written, and the only reading that fits its ~80 % of playable blends: with walls
//!   blocking, no padded VGLC room would be playable, because a room's doors sit in the inner
//!   layer of its two-cell wall and the outer layer is wall. Playable when at least 2 of the 4
//!   corner-to-opposite-corner paths exist. A corner that is blocked is replaced by the
//!   walkable cell nearest to it (Manhattan distance, then row-major order); a segment with no
//!   walkable cell has no path.
//!
//! Both read `M` in their own game's sense: the Lode Runner spawn is an empty cell to the Lode
//! Runner agent, a Zelda monster stands on floor the Zelda agent can walk.

use super::tiles::props;
use std::collections::VecDeque;

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

/// A cell the Lode Runner agent can be in.
pub(super) fn lr_free(letter: char) -> bool {
    letter == 'M' || letter == 'E' || letter == 'P' || props(letter).is_some_and(|p| p.passable)
}

pub(super) fn lr_solid(letter: char) -> bool {
    letter != 'M' && props(letter).is_some_and(|p| p.solid)
}

pub(super) fn lr_climb(letter: char) -> bool {
    matches!(letter, '#' | 'S')
}

/// Every position the Lode Runner agent reaches from `start`.
fn lr_reach(c: &Cells, start: (usize, usize)) -> Vec<Vec<bool>> {
    let h = c.len();
    let w = c.first().map_or(0, Vec::len);
    let mut seen = vec![vec![false; w]; h];
    let mut queue = VecDeque::from([start]);
    seen[start.1][start.0] = true;
    while let Some((x, y)) = queue.pop_front() {
        let (xi, yi) = (x as i64, y as i64);
        let here = c[y][x];
        let below = at(c, xi, yi + 1);
        let hanging = lr_climb(here) || here == '-';
        let standing =
            hanging || below.is_none() || below.is_some_and(|b| lr_solid(b) || lr_climb(b));
        let mut next: Vec<(i64, i64)> = Vec::new();
        if standing {
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
        for (nx, ny) in next {
            let Some(letter) = at(c, nx, ny) else {
                continue;
            };
            // A dug brick is free for the moment the agent drops into it.
            let dug = letter == 'b' && ny == yi + 1 && nx != xi;
            if !(lr_free(letter) || dug) {
                continue;
            }
            let (ux, uy) = (nx as usize, ny as usize);
            if !seen[uy][ux] {
                seen[uy][ux] = true;
                queue.push_back((ux, uy));
            }
        }
    }
    seen
}

/// The free cell of row `y` nearest the middle, searching rows from `y` in `step` direction.
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
    /// The most gold reached from one start.
    pub reached: usize,
    /// At least half the gold from one start (or, with no gold, through the segment).
    pub playable: bool,
}

/// The Lode Runner agent on `rows`.
pub fn lode_runner(rows: &[String]) -> LrVerdict {
    let c = cells(rows);
    let gold: Vec<(usize, usize)> = c
        .iter()
        .enumerate()
        .flat_map(|(y, r)| {
            r.iter()
                .enumerate()
                .filter(|(_, &l)| l == 'G')
                .map(move |(x, _)| (x, y))
        })
        .collect();
    let starts = [lr_start(&c, true), lr_start(&c, false)];
    let mut reached = 0;
    let mut through = false;
    for (i, s) in starts.iter().enumerate() {
        let Some(s) = *s else { continue };
        let seen = lr_reach(&c, s);
        reached = reached.max(gold.iter().filter(|(x, y)| seen[*y][*x]).count());
        let other = starts[1 - i].map(|o| o.1);
        if other.is_some_and(|row| seen[row].iter().any(|&v| v)) && other != Some(s.1) {
            through = true;
        }
    }
    LrVerdict {
        gold: gold.len(),
        reached,
        playable: if gold.is_empty() {
            through
        } else {
            2 * reached >= gold.len()
        },
    }
}

pub(super) fn zelda_free(letter: char) -> bool {
    !props(letter).is_some_and(|p| p.element)
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
    let mut paths = 0;
    for (from, to) in pairs {
        let (Some(s), Some(g)) = (nearest_free(&c, from), nearest_free(&c, to)) else {
            continue;
        };
        let mut seen = vec![vec![false; w]; h];
        let mut queue = VecDeque::from([s]);
        seen[s.1][s.0] = true;
        while let Some((x, y)) = queue.pop_front() {
            if (x, y) == g {
                paths += 1;
                break;
            }
            for (dx, dy) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if at(&c, nx, ny).is_some_and(zelda_free) {
                    let (ux, uy) = (nx as usize, ny as usize);
                    if !seen[uy][ux] {
                        seen[uy][ux] = true;
                        queue.push_back((ux, uy));
                    }
                }
            }
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
