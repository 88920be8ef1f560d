//! Mirror symmetry of a play area: the kinds, detection, the mask of cells a generator
//! fills, and mirroring that makes a grid symmetric by construction.

use crate::grid::Grid;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The mirror symmetries a layout can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Symmetry {
    /// No mirror symmetry.
    #[default]
    None,
    /// Mirror image left↔right (about the vertical centre line).
    Vertical,
    /// Mirror image top↔bottom (about the horizontal centre line).
    Horizontal,
    /// Both vertical and horizontal.
    Quadrant,
}

impl Symmetry {
    /// Every kind, in a stable order.
    pub const ALL: [Symmetry; 4] = [
        Symmetry::None,
        Symmetry::Vertical,
        Symmetry::Horizontal,
        Symmetry::Quadrant,
    ];

    /// The three kinds that constrain a layout (used by the generator sweep).
    pub const MIRRORED: [Symmetry; 3] =
        [Symmetry::Vertical, Symmetry::Horizontal, Symmetry::Quadrant];

    /// True when the left↔right mirror holds.
    pub fn mirrors_left_right(self) -> bool {
        matches!(self, Symmetry::Vertical | Symmetry::Quadrant)
    }

    /// True when the top↔bottom mirror holds.
    pub fn mirrors_top_bottom(self) -> bool {
        matches!(self, Symmetry::Horizontal | Symmetry::Quadrant)
    }

    /// The kind made of the two mirror flags.
    pub fn from_flags(left_right: bool, top_bottom: bool) -> Self {
        match (left_right, top_bottom) {
            (true, true) => Symmetry::Quadrant,
            (true, false) => Symmetry::Vertical,
            (false, true) => Symmetry::Horizontal,
            (false, false) => Symmetry::None,
        }
    }

    /// The lowercase name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Vertical => "vertical",
            Symmetry::Horizontal => "horizontal",
            Symmetry::Quadrant => "quadrant",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Ok(Symmetry::None),
            "vertical" | "v" => Ok(Symmetry::Vertical),
            "horizontal" | "h" => Ok(Symmetry::Horizontal),
            "quadrant" | "q" | "both" => Ok(Symmetry::Quadrant),
            other => Err(format!(
                "unknown symmetry {other:?} (none, vertical, horizontal, quadrant)"
            )),
        }
    }
}

/// The strongest symmetry that `area` has (quadrant before vertical before horizontal).
pub fn detect<T: Copy + PartialEq>(area: &Grid<T>) -> Symmetry {
    let (w, h) = (area.width(), area.height());
    let left_right = (0..h).all(|y| (0..w / 2).all(|x| area.get(x, y) == area.get(w - 1 - x, y)));
    let top_bottom = (0..h / 2).all(|y| (0..w).all(|x| area.get(x, y) == area.get(x, h - 1 - y)));
    Symmetry::from_flags(left_right, top_bottom)
}

/// Number of columns (or rows) kept by a mirror of an axis of length `n`: up to and
/// including the centre one.
pub fn kept_len(n: usize) -> usize {
    n.div_ceil(2)
}

/// The cells a generator fills for `symmetry` on a `width × height` area: `true` where kept.
pub fn mask(width: usize, height: usize, symmetry: Symmetry) -> Grid<bool> {
    let kw = if symmetry.mirrors_left_right() {
        kept_len(width)
    } else {
        width
    };
    let kh = if symmetry.mirrors_top_bottom() {
        kept_len(height)
    } else {
        height
    };
    let mut m = Grid::filled(width, height, false);
    for y in 0..kh {
        for x in 0..kw {
            m.set(x, y, true);
        }
    }
    m
}

/// Copies the kept part of `area` onto its mirror images so the result has `symmetry`
/// exactly; the kept cells are unchanged.
pub fn mirror<T: Copy>(area: &Grid<T>, symmetry: Symmetry) -> Grid<T> {
    let (w, h) = (area.width(), area.height());
    let mut out = area.clone();
    if symmetry.mirrors_left_right() {
        for y in 0..h {
            for x in 0..w / 2 {
                out.set(w - 1 - x, y, out.get(x, y));
            }
        }
    }
    if symmetry.mirrors_top_bottom() {
        for y in 0..h / 2 {
            for x in 0..w {
                out.set(x, h - 1 - y, out.get(x, y));
            }
        }
    }
    out
}

/// The cells that mirror `(x, y)` under `symmetry` on a `width × height` area, the cell
/// itself first, without repeats (the mirrored brush of the editor).
pub fn mirrored_cells(
    x: usize,
    y: usize,
    width: usize,
    height: usize,
    symmetry: Symmetry,
) -> Vec<(usize, usize)> {
    let mx = width - 1 - x;
    let my = height - 1 - y;
    let mut out = vec![(x, y)];
    let mut push = |c: (usize, usize)| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    if symmetry.mirrors_left_right() {
        push((mx, y));
    }
    if symmetry.mirrors_top_bottom() {
        push((x, my));
    }
    if symmetry == Symmetry::Quadrant {
        push((mx, my));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(text: &str) -> Grid<char> {
        let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        let mut out = Grid::filled(rows[0].len(), rows.len(), ' ');
        for (y, r) in rows.iter().enumerate() {
            for (x, &c) in r.iter().enumerate() {
                out.set(x, y, c);
            }
        }
        out
    }

    #[test]
    fn detection_on_odd_and_even_sizes() {
        assert_eq!(detect(&g("ab\nab")), Symmetry::Horizontal);
        assert_eq!(detect(&g("aa\nbb")), Symmetry::Vertical);
        assert_eq!(detect(&g("aa\naa")), Symmetry::Quadrant);
        assert_eq!(detect(&g("ab\ncd")), Symmetry::None);
        assert_eq!(detect(&g("aba\ncdc\naba")), Symmetry::Quadrant);
        assert_eq!(detect(&g("abca\nbbbb")), Symmetry::None);
        assert_eq!(detect(&g("abba\nxyyx\nabba")), Symmetry::Quadrant);
        assert_eq!(detect(&g("abxba\ncdydc")), Symmetry::Vertical);
    }

    #[test]
    fn masks_keep_up_to_the_centre() {
        let m = mask(5, 4, Symmetry::Quadrant);
        let kept: Vec<(usize, usize)> = m.iter().filter(|c| c.2).map(|c| (c.0, c.1)).collect();
        assert_eq!(kept.len(), 3 * 2);
        assert!(m.get(2, 1) && !m.get(3, 1) && !m.get(2, 2));
        assert_eq!(
            mask(4, 4, Symmetry::Vertical)
                .cells()
                .iter()
                .filter(|&&b| b)
                .count(),
            8
        );
        assert_eq!(
            mask(4, 5, Symmetry::Horizontal)
                .cells()
                .iter()
                .filter(|&&b| b)
                .count(),
            12
        );
        assert!(mask(3, 3, Symmetry::None).cells().iter().all(|&b| b));
    }

    #[test]
    fn mirroring_yields_the_symmetry_and_keeps_the_kept_part() {
        for (w, h) in [(4, 4), (5, 5), (4, 7), (9, 11)] {
            let mut area = Grid::filled(w, h, 0u32);
            for (i, c) in area.cells_mut().iter_mut().enumerate() {
                *c = (i * 7919 % 13) as u32;
            }
            for s in Symmetry::ALL {
                let m = mirror(&area, s);
                let d = detect(&m);
                assert!(
                    !s.mirrors_left_right() || d.mirrors_left_right(),
                    "{w}x{h} {s}"
                );
                assert!(
                    !s.mirrors_top_bottom() || d.mirrors_top_bottom(),
                    "{w}x{h} {s}"
                );
                let keep = mask(w, h, s);
                for (x, y, k) in keep.iter() {
                    if k {
                        assert_eq!(m.get(x, y), area.get(x, y));
                    }
                }
            }
        }
    }

    #[test]
    fn mirrored_cells_on_centre_lines_do_not_repeat() {
        assert_eq!(
            mirrored_cells(2, 0, 5, 4, Symmetry::Quadrant),
            vec![(2, 0), (2, 3)]
        );
        assert_eq!(mirrored_cells(0, 0, 4, 4, Symmetry::Quadrant).len(), 4);
        assert_eq!(
            mirrored_cells(1, 1, 4, 4, Symmetry::Vertical),
            vec![(1, 1), (2, 1)]
        );
    }
}
