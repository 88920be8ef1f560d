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
    let (kw, kh) = kept_corner(width, height, symmetry);
    for _ in 0..ATTEMPTS {
        let mut area = Grid::filled(width, height, Cell::Playfield);
        for _ in 0..features {
            add_feature(&mut area, kw, kh, rng);
        }
        if let Some(layout) = mirrored_layout(&area, symmetry) {
            return Some(layout);
        }
    }
    None
}

/// The part of a `width × height` area a generator draws in for `symmetry`: (width, height)
/// of its top-left corner; the mirror fills the rest.
fn kept_corner(width: usize, height: usize, symmetry: Symmetry) -> (usize, usize) {
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
    (kw, kh)
}

/// `area` mirrored by `symmetry` as a layout, when it is one a dataset keeps: at least half
/// PLAYFIELD, well formed, and of exactly the area's measured size.
fn mirrored_layout(area: &Grid<Cell>, symmetry: Symmetry) -> Option<Layout> {
    let (width, height) = (area.width(), area.height());
    let area = symmetry::mirror(area, symmetry);
    let playfield = area
        .cells()
        .iter()
        .filter(|&&c| c == Cell::Playfield)
        .count();
    if playfield * 2 < width * height || !well_formed(&area) {
        return None;
    }
    let layout = Layout::from_area(&area).ok()?;
    (layout.size() == (width, height)).then_some(layout)
}

/// Symmetries as the paper-like dataset's designer-like layouts use them: always a mirror
/// but for one in ten, mostly left↔right.
fn designer_like_symmetry(rng: &mut Rng) -> Symmetry {
    match rng.below(20) {
        0..=8 => Symmetry::Vertical,
        9..=15 => Symmetry::Quadrant,
        16..=17 => Symmetry::Horizontal,
        _ => Symmetry::None,
    }
}

/// The board outline a designer starts from (drawn in the kept corner, then mirrored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outline {
    /// Staircase cuts at the outer corners: rounded, octagon-like boards.
    RoundedCorners,
    /// BLOCK bites out of the left and right edges in a middle band: an hourglass.
    Waist,
    /// A BLOCK bite out of the top edge at the centre: a heart or "M" top.
    TopBite,
    /// The four corners cut as rectangles: a cross.
    Cross,
    /// The rectangle itself; a motif inside makes the shape.
    Plain,
}

/// The inside details a designer adds to an outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Motif {
    /// Single BLOCK pillars on a lattice.
    Pillars,
    /// A BLOCK bar hanging from the top at the centre column: two basins.
    CentreBar,
    /// A GAP row across the middle that tiles fall through.
    GapBridge,
    /// A small BLOCK island in the centre.
    Island,
}

/// Draws `outline` into the kept `kw × kh` corner of `area`.
fn draw_outline(area: &mut Grid<Cell>, outline: Outline, kw: usize, kh: usize, rng: &mut Rng) {
    let (w, h) = (area.width(), area.height());
    match outline {
        Outline::RoundedCorners => {
            let depth = 1 + rng.index(w.min(h).div_ceil(4).clamp(1, 3));
            let bottom_too = kh == h && rng.chance(0.6);
            for y in 0..depth {
                for x in 0..depth - y {
                    area.set(x, y, Cell::Block);
                    if kw == w {
                        area.set(w - 1 - x, y, Cell::Block);
                    }
                    if bottom_too {
                        area.set(x, h - 1 - y, Cell::Block);
                        if kw == w {
                            area.set(w - 1 - x, h - 1 - y, Cell::Block);
                        }
                    }
                }
            }
        }
        Outline::Waist => {
            let band = 1 + rng.index((h / 3).max(1));
            let y0 = (h - band) / 2;
            let depth = 1 + usize::from(w >= 7 && rng.chance(0.4));
            fill_rect(area, 0, y0, depth, band, Cell::Block);
            if kw == w {
                fill_rect(area, w - depth, y0, depth, band, Cell::Block);
            }
        }
        Outline::TopBite => {
            let across = 1 + usize::from(w >= 6 && rng.chance(0.5));
            let depth = 1 + usize::from(h >= 8 && rng.chance(0.5));
            let x0 = if kw < w {
                kw - across
            } else {
                (w - across) / 2
            };
            fill_rect(area, x0, 0, across, depth, Cell::Block);
        }
        Outline::Cross => {
            let cw = 1 + rng.index((w / 4).max(1));
            let ch = 1 + rng.index((h / 4).max(1));
            fill_rect(area, 0, 0, cw, ch, Cell::Block);
            if kw == w {
                fill_rect(area, w - cw, 0, cw, ch, Cell::Block);
            }
            if kh == h {
                fill_rect(area, 0, h - ch, cw, ch, Cell::Block);
                if kw == w {
                    fill_rect(area, w - cw, h - ch, cw, ch, Cell::Block);
                }
            }
        }
        Outline::Plain => {}
    }
}

/// Draws `motif` into the kept `kw × kh` corner of `area`.
fn draw_motif(area: &mut Grid<Cell>, motif: Motif, kw: usize, kh: usize, rng: &mut Rng) {
    let (w, h) = (area.width(), area.height());
    match motif {
        Motif::Pillars => {
            let step = 2 + rng.index(2);
            let start = 1 + rng.index(2);
            let mut y = start;
            while y + 1 < kh.min(h - 1) {
                let mut x = start;
                while x + 1 < kw.min(w - 1) {
                    area.set(x, y, Cell::Block);
                    x += step + 1;
                }
                y += step + 1;
            }
        }
        Motif::CentreBar => {
            let x = if kw < w { kw - 1 } else { w / 2 };
            let len = 1 + rng.index((h / 3).max(1));
            fill_rect(area, x, 0, 1, len, Cell::Block);
        }
        Motif::GapBridge => {
            let y = h / 2;
            if y < kh {
                fill_rect(area, 1, y, kw.saturating_sub(1).max(1), 1, Cell::Gap);
            }
        }
        Motif::Island => {
            let iw = 1 + usize::from(w >= 7);
            let ih = 1 + usize::from(h >= 8 && rng.chance(0.5));
            let x0 = if kw < w {
                kw - iw.min(kw)
            } else {
                (w - iw) / 2
            };
            let y0 = if kh < h {
                kh - ih.min(kh)
            } else {
                (h - ih) / 2
            };
            fill_rect(area, x0, y0, iw, ih, Cell::Block);
        }
    }
}

/// A designer-like layout of exactly `width × height`: a shaped outline (rounded corners, a
/// waist, a bite, a cross) and up to two inside details (pillars, a centre bar, a GAP bridge,
/// an island), drawn in the kept part and mirrored by a designer's symmetry. Never the open
/// rectangle. `None` when no attempt kept the size and a well-formed board.
pub fn designer_like(width: usize, height: usize, rng: &mut Rng) -> Option<Layout> {
    const OUTLINES: [Outline; 5] = [
        Outline::RoundedCorners,
        Outline::Waist,
        Outline::TopBite,
        Outline::Cross,
        Outline::Plain,
    ];
    const MOTIFS: [Motif; 4] = [
        Motif::Pillars,
        Motif::CentreBar,
        Motif::GapBridge,
        Motif::Island,
    ];
    let open = Layout::open(width, height).ok();
    for _ in 0..ATTEMPTS {
        let symmetry = designer_like_symmetry(rng);
        let (kw, kh) = kept_corner(width, height, symmetry);
        let mut area = Grid::filled(width, height, Cell::Playfield);
        let outline = OUTLINES[rng.index(OUTLINES.len())];
        draw_outline(&mut area, outline, kw, kh, rng);
        let motifs = usize::from(outline == Outline::Plain) + rng.index(2);
        for _ in 0..motifs {
            draw_motif(&mut area, MOTIFS[rng.index(MOTIFS.len())], kw, kh, rng);
        }
        if let Some(layout) = mirrored_layout(&area, symmetry) {
            if Some(&layout) != open.as_ref() {
                return Some(layout);
            }
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
    fn designer_like_layouts_keep_their_size_and_are_never_open() {
        let mut rng = Rng::new(9);
        for w in 4..=9 {
            for h in 4..=11 {
                let open = Layout::open(w, h).unwrap();
                for _ in 0..6 {
                    let l = designer_like(w, h, &mut rng).expect("a layout");
                    assert_eq!(l.size(), (w, h));
                    assert_ne!(l, open, "{w}x{h}");
                    assert!(well_formed(&l.area_cells()), "{w}x{h}: {l:?}");
                }
            }
        }
        let a = designer_like(8, 10, &mut Rng::new(3));
        assert_eq!(a, designer_like(8, 10, &mut Rng::new(3)));
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
