//! Which cells a tool touches: a brush's cells and their mirror images, the cells of a
//! rectangle and of a straight line (what the canvas previews and the tools paint).

use crate::board::Board;
use crate::studio::settings::ToolState;

/// The cells a brush touches when it paints `cells`: each one and its mirror images under the
/// chosen symmetry (the game's unique tile, such as the cat's head, is painted once).
pub(crate) fn brush_targets(
    board: &Board,
    tools: &ToolState,
    cells: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let rules = board.rules();
    let unique = rules.unique_tile() == Some(tools.tile(rules));
    let mut out = Vec::new();
    for &(x, y) in cells {
        if unique {
            out.push((x, y));
        } else {
            out.extend(Board::mirrored(
                x,
                y,
                board.mirror_frame(x, y),
                tools.mirror,
            ));
        }
    }
    out
}

/// The rectangle with corners `a` and `b` as `[x, y, width, height]`.
pub(crate) fn selection_of(a: (usize, usize), b: (usize, usize)) -> [usize; 4] {
    let (x, y) = (a.0.min(b.0), a.1.min(b.1));
    [x, y, a.0.max(b.0) - x + 1, a.1.max(b.1) - y + 1]
}

/// The cells of the rectangle with corners `a` and `b`, row by row.
pub(crate) fn rect_cells(a: (usize, usize), b: (usize, usize)) -> Vec<(usize, usize)> {
    let mut cells = Vec::new();
    for y in a.1.min(b.1)..=a.1.max(b.1) {
        for x in a.0.min(b.0)..=a.0.max(b.0) {
            cells.push((x, y));
        }
    }
    cells
}

/// The cells on a straight line between two cells (so fast strokes leave no holes).
pub(crate) fn line_cells(a: (usize, usize), b: (usize, usize)) -> Vec<(usize, usize)> {
    let (mut x0, mut y0) = (a.0 as i64, a.1 as i64);
    let (x1, y1) = (b.0 as i64, b.1 as i64);
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    let mut out = Vec::new();
    loop {
        out.push((x0 as usize, y0 as usize));
        if x0 == x1 && y0 == y1 {
            return out;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x0 += sx;
        }
        if e2 <= dx {
            err += dx;
            y0 += sy;
        }
    }
}
