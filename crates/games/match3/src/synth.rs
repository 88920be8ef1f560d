//! The rule-based layout synthesiser: designer-like match-3 layouts (symmetric shapes, corner
//! and edge notches, holes, occasional GAP runs), used to build the training datasets and
//! offered in the sidebar as a generator of its own.

use super::layout::{Cell, Layout};
use studio_core::grid::Grid;
use studio_core::rng::Rng;
use studio_core::symmetry::{self, Symmetry};

/// How many attempts one layout may take before the synthesiser gives up.
const ATTEMPTS: usize = 400;

/// Symmetries in the proportions a designer uses them: mostly left↔right.
pub fn designer_symmetry(rng: &mut Rng) -> Symmetry {
    match rng.below(20) {
        0..=7 => Symmetry::Vertical,
        8..=12 => Symmetry::Quadrant,
        13..=15 => Symmetry::Horizontal,
        _ => Symmetry::None,
    }
}

fn fill_rect(area: &mut Grid<Cell>, x0: usize, y0: usize, w: usize, h: usize, cell: Cell) {
    for y in y0..(y0 + h).min(area.height()) {
        for x in x0..(x0 + w).min(area.width()) {
            area.set(x, y, cell);
        }
    }
}

/// Adds one random feature inside the kept `kw × kh` corner of the area.
fn add_feature(area: &mut Grid<Cell>, kw: usize, kh: usize, rng: &mut Rng) {
    let (w, h) = (area.width(), area.height());
    match rng.below(10) {
        // Corner notch: a rectangle in one corner of the kept region.
        0..=2 => {
            let nw = rng.range(1, (w / 3).max(1) as i64) as usize;
            let nh = rng.range(1, (h / 3).max(1) as i64) as usize;
            let x0 = if rng.chance(0.5) {
                0
            } else {
                kw.saturating_sub(nw)
            };
            let y0 = if rng.chance(0.5) {
                0
            } else {
                kh.saturating_sub(nh)
            };
            fill_rect(area, x0, y0, nw.min(kw), nh.min(kh), Cell::Block);
        }
        // Edge notch: a short bar against one edge.
        3..=4 => {
            let along = rng.range(1, 3) as usize;
            let depth = rng.range(1, 2) as usize;
            if rng.chance(0.5) {
                let x0 = rng.index(kw.saturating_sub(along) + 1);
                let y0 = if rng.chance(0.5) {
                    0
                } else {
                    kh.saturating_sub(depth)
                };
                fill_rect(area, x0, y0, along.min(kw), depth, Cell::Block);
            } else {
                let y0 = rng.index(kh.saturating_sub(along) + 1);
                let x0 = if rng.chance(0.5) {
                    0
                } else {
                    kw.saturating_sub(depth)
                };
                fill_rect(area, x0, y0, depth, along.min(kh), Cell::Block);
            }
        }
        // Hole: a small block cluster away from the edges.
        5..=7 => {
            if kw >= 3 && kh >= 3 {
                let hw = rng.range(1, 2) as usize;
                let hh = rng.range(1, 2) as usize;
                let x0 = 1 + rng.index((kw - 1).saturating_sub(hw).max(1));
                let y0 = 1 + rng.index((kh - 1).saturating_sub(hh).max(1));
                fill_rect(area, x0, y0, hw, hh, Cell::Block);
            }
        }
        // GAP run: a horizontal or vertical run that tiles fall through.
        _ => {
            if rng.chance(0.6) && kw >= 2 {
                let len = rng.range(2, kw.max(2) as i64) as usize;
                let x0 = rng.index(kw.saturating_sub(len) + 1);
                let y0 = 1 + rng.index(kh.saturating_sub(2).max(1));
                fill_rect(area, x0, y0, len, 1, Cell::Gap);
            } else if kh >= 3 {
                let len = rng.range(2, (kh - 1).max(2) as i64) as usize;
                let x0 = rng.index(kw);
                let y0 = 1 + rng.index(kh.saturating_sub(len + 1).max(1));
                fill_rect(area, x0, y0, 1, len, Cell::Gap);
            }
        }
    }
}

/// True when every PLAYFIELD cell has a PLAYFIELD neighbour and all PLAYFIELD cells are
/// connected through PLAYFIELD and GAP cells.
pub fn well_formed(area: &Grid<Cell>) -> bool {
    let (w, h) = (area.width() as i64, area.height() as i64);
    let open = |x: i64, y: i64| area.get_checked(x, y).is_some_and(|c| c != Cell::Block);
    let play = |x: i64, y: i64| area.get_checked(x, y) == Some(Cell::Playfield);
    let dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut start = None;
    let mut total = 0;
    for y in 0..h {
        for x in 0..w {
            if play(x, y) {
                total += 1;
                start.get_or_insert((x, y));
                if !dirs.iter().any(|(dx, dy)| play(x + dx, y + dy)) {
                    return false;
                }
            }
        }
    }
    let Some(start) = start else { return false };
    let mut seen = vec![false; (w * h) as usize];
    let mut stack = vec![start];
    seen[(start.1 * w + start.0) as usize] = true;
    let mut reached = 0;
    while let Some((x, y)) = stack.pop() {
        if play(x, y) {
            reached += 1;
        }
        for (dx, dy) in dirs {
            let (nx, ny) = (x + dx, y + dy);
            if open(nx, ny) && !seen[(ny * w + nx) as usize] {
                seen[(ny * w + nx) as usize] = true;
                stack.push((nx, ny));
            }
        }
    }
    reached == total
}

/// A designer-like layout of exactly `width × height` (by the size definition) with the
/// given symmetry; `features` is how busy it is (0 = open). `None` when no attempt worked.
pub fn synthesise(
    width: usize,
    height: usize,
    symmetry: Symmetry,
    features: usize,
    rng: &mut Rng,
) -> Option<Layout> {
    let kw = if symmetry.mirrors_left_right() {
        symmetry::kept_len(width)
    } else {
        width
    };
    let kh = if symmetry.mirrors_top_bottom() {
        symmetry::kept_len(height)
    } else {
        height
    };
    for _ in 0..ATTEMPTS {
        let mut area = Grid::filled(width, height, Cell::Playfield);
        for _ in 0..features {
            add_feature(&mut area, kw, kh, rng);
        }
        let area = symmetry::mirror(&area, symmetry);
        let playfield = area
            .cells()
            .iter()
            .filter(|&&c| c == Cell::Playfield)
            .count();
        if playfield * 2 < width * height || !well_formed(&area) {
            continue;
        }
        let Ok(layout) = Layout::from_area(&area) else {
            continue;
        };
        if layout.size() == (width, height) {
            return Some(layout);
        }
    }
    None
}

/// The stylized variant: an open play area with one 2×2 BLOCK pattern at a random place, no
/// symmetry imposed. `None` when the size is too small to keep its measured size.
pub fn stylized(width: usize, height: usize, rng: &mut Rng) -> Option<Layout> {
    for _ in 0..ATTEMPTS {
        let mut area = Grid::filled(width, height, Cell::Playfield);
        let x0 = rng.index(width - 1);
        let y0 = rng.index(height - 1);
        fill_rect(&mut area, x0, y0, 2, 2, Cell::Block);
        if !well_formed(&area) {
            continue;
        }
        let Ok(layout) = Layout::from_area(&area) else {
            continue;
        };
        if layout.size() == (width, height) {
            return Some(layout);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_keep_their_size_and_symmetry() {
        let mut rng = Rng::new(4);
        for w in 4..=9 {
            for h in 4..=11 {
                for s in Symmetry::ALL {
                    let l = synthesise(w, h, s, 4, &mut rng).expect("a layout");
                    assert_eq!(l.size(), (w, h));
                    let d = l.symmetry();
                    assert!(
                        !s.mirrors_left_right() || d.mirrors_left_right(),
                        "{w}x{h} {s}: {l:?}"
                    );
                    assert!(
                        !s.mirrors_top_bottom() || d.mirrors_top_bottom(),
                        "{w}x{h} {s}: {l:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn same_seed_same_layout() {
        let a = synthesise(7, 9, Symmetry::Vertical, 5, &mut Rng::new(11));
        let b = synthesise(7, 9, Symmetry::Vertical, 5, &mut Rng::new(11));
        assert_eq!(a, b);
    }

    #[test]
    fn stylized_has_one_two_by_two_block() {
        let l = stylized(6, 7, &mut Rng::new(2)).unwrap();
        let area = l.area_cells();
        assert_eq!(
            area.cells().iter().filter(|&&c| c == Cell::Block).count(),
            4
        );
        assert_eq!(l.size(), (6, 7));
    }
}
