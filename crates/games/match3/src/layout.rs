//! A match-3 layout: the three cell types on the fixed 9×11 canvas, the centred play area,
//! the size definition (longest PLAYFIELD runs), symmetry and the derived spawners.

use std::fmt;
use studio_core::game::{
    ConditionKind, ConditionSpec, ConditionValue, Conditions, GameId, TileInfo,
};
use studio_core::grid::{AsciiCell, Grid, GridError};
use studio_core::level::Level;
use studio_core::symmetry::{self, Symmetry};

/// The id of match-3 layouts.
pub const ID: GameId = GameId::new("match3");

/// Match-3 board layouts (the Avalon setting).
#[derive(Clone, Copy, Debug, Default)]
pub struct Match3Game;

/// The palette: PLAYFIELD, BLOCK and GAP, in tile-index order.
pub(crate) const TILES: [TileInfo; 3] = [
    TileInfo {
        ascii: '.',
        name: "PLAYFIELD",
        rgb: [236, 226, 198],
    },
    TileInfo {
        ascii: '#',
        name: "BLOCK",
        rgb: [62, 66, 80],
    },
    TileInfo {
        ascii: '~',
        name: "GAP",
        rgb: [110, 124, 150],
    },
];

/// Index of PLAYFIELD in the palette.
pub const PLAYFIELD: u8 = 0;
/// Index of BLOCK in the palette.
pub const BLOCK: u8 = 1;
/// Index of GAP in the palette.
pub const GAP: u8 = 2;

/// Canvas width in cells.
pub const CANVAS_WIDTH: usize = 9;
/// Canvas height in cells.
pub const CANVAS_HEIGHT: usize = 11;
/// Number of canvas cells.
pub const CANVAS_CELLS: usize = CANVAS_WIDTH * CANVAS_HEIGHT;
/// Play-area widths a layout may have.
pub const WIDTHS: std::ops::RangeInclusive<usize> = 4..=9;
/// Play-area heights a layout may have.
pub const HEIGHTS: std::ops::RangeInclusive<usize> = 4..=11;

/// One cell of a layout, in the categorical order the models use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Looks like BLOCK, but tiles fall through it. Class 0.
    Gap = 0,
    /// No tile; tiles cannot fall through it. Class 1.
    Block = 1,
    /// Holds a tile; the game is played here. Class 2.
    Playfield = 2,
}

impl Cell {
    /// The cells in class order.
    pub const ALL: [Cell; 3] = [Cell::Gap, Cell::Block, Cell::Playfield];

    /// The cell of a class index.
    pub fn from_class(class: usize) -> Option<Cell> {
        Cell::ALL.get(class).copied()
    }
}

impl AsciiCell for Cell {
    fn to_ascii(self) -> char {
        match self {
            Cell::Gap => '~',
            Cell::Block => '#',
            Cell::Playfield => '.',
        }
    }
    fn from_ascii(c: char) -> Option<Self> {
        match c {
            '~' => Some(Cell::Gap),
            '#' => Some(Cell::Block),
            '.' => Some(Cell::Playfield),
            _ => None,
        }
    }
}

/// Why cells do not make a layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The ASCII art itself is malformed.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// The area is wider or taller than the 9×11 canvas.
    #[error("play area {width}x{height} is larger than the 9x11 canvas")]
    TooLarge {
        /// The play area's width, in cells.
        width: usize,
        /// The play area's height, in cells.
        height: usize,
    },
    /// There is no PLAYFIELD cell at all.
    #[error("the play area is empty: no PLAYFIELD ('.') cell")]
    EmptyPlayArea,
}

/// A rectangle of the canvas: column, row, width, height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// The left column.
    pub x: usize,
    /// The top row.
    pub y: usize,
    /// Columns covered.
    pub width: usize,
    /// Rows covered.
    pub height: usize,
}

/// A match-3 layout on the 9×11 canvas; cells outside the play area are BLOCK.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    cells: Grid<Cell>,
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.cells)
    }
}

/// The top-left corner of a centred `width × height` play area on the canvas.
pub fn area_origin(width: usize, height: usize) -> (usize, usize) {
    ((CANVAS_WIDTH - width) / 2, (CANVAS_HEIGHT - height) / 2)
}

impl Layout {
    /// A `width × height` play area, all PLAYFIELD, centred on the canvas.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] past 9×11, [`LayoutError::EmptyPlayArea`] for a zero size.
    pub fn open(width: usize, height: usize) -> Result<Self, LayoutError> {
        Self::from_area(&Grid::filled(width, height, Cell::Playfield))
    }

    /// Centres a play area (any size up to 9×11) on the canvas.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] when it does not fit, [`LayoutError::EmptyPlayArea`] when it
    /// has no PLAYFIELD cell.
    pub fn from_area(area: &Grid<Cell>) -> Result<Self, LayoutError> {
        let (w, h) = (area.width(), area.height());
        if w > CANVAS_WIDTH || h > CANVAS_HEIGHT {
            return Err(LayoutError::TooLarge {
                width: w,
                height: h,
            });
        }
        let mut cells = Grid::filled(CANVAS_WIDTH, CANVAS_HEIGHT, Cell::Block);
        let (x0, y0) = area_origin(w, h);
        cells.paste(area, x0, y0);
        Self::from_canvas(cells)
    }

    /// Wraps a full 9×11 canvas.
    ///
    /// # Errors
    /// [`LayoutError::TooLarge`] if the grid is not 9×11 (a smaller one should go through
    /// [`Layout::from_area`]), [`LayoutError::EmptyPlayArea`] without PLAYFIELD cells.
    pub fn from_canvas(cells: Grid<Cell>) -> Result<Self, LayoutError> {
        if cells.width() != CANVAS_WIDTH || cells.height() != CANVAS_HEIGHT {
            return Err(LayoutError::TooLarge {
                width: cells.width(),
                height: cells.height(),
            });
        }
        if !cells.cells().contains(&Cell::Playfield) {
            return Err(LayoutError::EmptyPlayArea);
        }
        Ok(Self { cells })
    }

    /// Parses ASCII art of a play area (or the full canvas) and centres it.
    ///
    /// # Errors
    /// [`LayoutError`] naming the line and column of a bad character, or the size problem.
    pub fn parse_ascii(text: &str) -> Result<Self, LayoutError> {
        Self::from_area(&Grid::parse_ascii(text)?)
    }

    /// Builds a layout from stored rows (a level file's `cells`).
    ///
    /// # Errors
    /// As [`Layout::parse_ascii`].
    pub fn from_rows(rows: &[String]) -> Result<Self, LayoutError> {
        Self::from_area(&Grid::from_rows(rows)?)
    }

    /// The full 9×11 canvas.
    pub fn canvas(&self) -> &Grid<Cell> {
        &self.cells
    }

    /// The cell at canvas column `x`, row `y`.
    pub fn get(&self, x: usize, y: usize) -> Cell {
        self.cells.get(x, y)
    }

    /// Sets one canvas cell. Refuses to remove the last PLAYFIELD cell (returns false).
    pub fn set(&mut self, x: usize, y: usize, cell: Cell) -> bool {
        let old = self.cells.get(x, y);
        self.cells.set(x, y, cell);
        if !self.cells.cells().contains(&Cell::Playfield) {
            self.cells.set(x, y, old);
            return false;
        }
        true
    }

    /// The bounding box of the non-BLOCK cells: the play area as drawn.
    pub fn play_area(&self) -> Rect {
        let (mut x0, mut y0, mut x1, mut y1) = (CANVAS_WIDTH, CANVAS_HEIGHT, 0, 0);
        for (x, y, c) in self.cells.iter() {
            if c != Cell::Block {
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
            }
        }
        Rect {
            x: x0,
            y: y0,
            width: x1 + 1 - x0,
            height: y1 + 1 - y0,
        }
    }

    /// The play area's cells.
    pub fn area_cells(&self) -> Grid<Cell> {
        let r = self.play_area();
        self.cells.crop(r.x, r.y, r.width, r.height)
    }

    /// The layout's size: (longest PLAYFIELD run in any row, longest in any column).
    pub fn size(&self) -> (usize, usize) {
        let longest = |len_outer: usize, len_inner: usize, at: &dyn Fn(usize, usize) -> Cell| {
            let mut best = 0;
            for o in 0..len_outer {
                let mut run = 0;
                for i in 0..len_inner {
                    if at(o, i) == Cell::Playfield {
                        run += 1;
                        best = best.max(run);
                    } else {
                        run = 0;
                    }
                }
            }
            best
        };
        let width = longest(CANVAS_HEIGHT, CANVAS_WIDTH, &|y, x| self.get(x, y));
        let height = longest(CANVAS_WIDTH, CANVAS_HEIGHT, &|x, y| self.get(x, y));
        (width, height)
    }

    /// The symmetry of the play area.
    pub fn symmetry(&self) -> Symmetry {
        symmetry::detect(&self.area_cells())
    }

    /// True at a PLAYFIELD cell whose nearest non-GAP cell above is BLOCK or the canvas edge:
    /// new tiles enter the board there.
    pub fn is_spawner(&self, x: usize, y: usize) -> bool {
        if self.get(x, y) != Cell::Playfield {
            return false;
        }
        (0..y)
            .rev()
            .map(|yy| self.get(x, yy))
            .find(|&c| c != Cell::Gap)
            != Some(Cell::Playfield)
    }

    /// Every spawner, as canvas `(x, y)`, row by row.
    pub fn spawners(&self) -> Vec<(usize, usize)> {
        self.cells
            .iter()
            .filter(|&(x, y, _)| self.is_spawner(x, y))
            .map(|(x, y, _)| (x, y))
            .collect()
    }

    /// Number of cells of each type, in class order (GAP, BLOCK, PLAYFIELD), on the canvas.
    pub fn counts(&self) -> [usize; 3] {
        let mut n = [0; 3];
        for &c in self.cells.cells() {
            n[c as usize] += 1;
        }
        n
    }

    /// The canvas as rows of ASCII art (what level files store).
    pub fn to_rows(&self) -> Vec<String> {
        self.cells.to_rows()
    }

    /// The play area only, as ASCII art.
    pub fn area_ascii(&self) -> String {
        self.area_cells().to_ascii()
    }
}

/// A studio level as a match-3 layout, and back (the core's [`Level`] knows no game).
pub trait Match3Level {
    /// A match-3 level from a layout, with its detected symmetry.
    fn from_layout(name: impl Into<String>, layout: &Layout) -> Self;
    /// The match-3 layout of this level.
    ///
    /// # Errors
    /// [`LayoutError`] if the cells are not a valid layout.
    fn layout(&self) -> Result<Layout, LayoutError>;
}

impl Match3Level for Level {
    fn from_layout(name: impl Into<String>, layout: &Layout) -> Self {
        let mut level = Level::bare(ID, name, layout.to_rows());
        level.symmetry = layout.symmetry();
        level
    }

    fn layout(&self) -> Result<Layout, LayoutError> {
        Layout::from_rows(&self.cells)
    }
}

pub(crate) fn size_conditions() -> Vec<ConditionSpec> {
    vec![
        ConditionSpec {
            key: "width",
            label: "Width",
            kind: ConditionKind::Int { min: 4, max: 9 },
            default: ConditionValue::Int(7),
            required: false,
            help: "play-area width (longest PLAYFIELD run in a row)",
        },
        ConditionSpec {
            key: "height",
            label: "Height",
            kind: ConditionKind::Int { min: 4, max: 11 },
            default: ConditionValue::Int(9),
            required: false,
            help: "play-area height (longest PLAYFIELD run in a column)",
        },
        ConditionSpec {
            key: "symmetry",
            label: "Symmetry",
            kind: ConditionKind::Symmetry,
            default: ConditionValue::Symmetry(Symmetry::Vertical),
            required: false,
            help: "none, vertical, horizontal or quadrant",
        },
    ]
}

pub(crate) fn size_of(conditions: &Conditions) -> (usize, usize, Symmetry) {
    (
        conditions.usize("width").unwrap_or(7),
        conditions.usize("height").unwrap_or(9),
        conditions.symmetry("symmetry").unwrap_or(Symmetry::None),
    )
}

/// A generated layout as a level, with the symmetry it was generated with.
pub(crate) fn layout_level(layout: &Layout, symmetry: Symmetry) -> Level {
    let mut level = Level::from_layout("generated", layout);
    level.symmetry = symmetry;
    level
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_area_is_centred() {
        let l = Layout::parse_ascii("....\n....\n....\n....\n").unwrap();
        assert_eq!(
            l.play_area(),
            Rect {
                x: 2,
                y: 3,
                width: 4,
                height: 4
            }
        );
        assert_eq!(l.size(), (4, 4));
        assert_eq!(area_origin(9, 11), (0, 0));
        assert_eq!(area_origin(5, 6), (2, 2));
    }

    #[test]
    fn size_is_the_longest_playfield_run() {
        let l = Layout::parse_ascii("..#..\n.....\n.~~~.\n#...#\n").unwrap();
        assert_eq!(l.size(), (5, 3));
        let l = Layout::parse_ascii("....\n.##.\n....\n....\n").unwrap();
        assert_eq!(l.size(), (4, 4));
        let l = Layout::parse_ascii(".#.#\n#.#.\n.#.#\n#.#.\n").unwrap();
        assert_eq!(l.size(), (1, 1));
    }

    #[test]
    fn spawners_sit_under_blocks_and_the_edge_but_not_under_gaps_below_playfield() {
        // column 0: edge spawner at the top; column 1: a BLOCK at row 1 → spawner at row 2;
        // column 2: GAP at row 1 below PLAYFIELD → only the top cell spawns;
        // column 3: GAP at the top → the cell under it spawns (nearest non-GAP above is edge).
        let l = Layout::parse_ascii("...~\n.#~.\n....\n....\n").unwrap();
        let r = l.play_area();
        let rel: Vec<(usize, usize)> = l
            .spawners()
            .iter()
            .map(|&(x, y)| (x - r.x, y - r.y))
            .collect();
        assert_eq!(rel, vec![(0, 0), (1, 0), (2, 0), (3, 1), (1, 2)]);
    }

    #[test]
    fn bad_areas() {
        assert_eq!(
            Layout::parse_ascii("####\n####\n").unwrap_err(),
            LayoutError::EmptyPlayArea
        );
        let wide = "..........\n".repeat(4);
        assert_eq!(
            Layout::parse_ascii(&wide).unwrap_err(),
            LayoutError::TooLarge {
                width: 10,
                height: 4
            }
        );
        assert!(matches!(
            Layout::parse_ascii("..\n.x\n").unwrap_err(),
            LayoutError::Grid(GridError::UnknownChar {
                line: 2,
                column: 2,
                ..
            })
        ));
    }

    #[test]
    fn symmetry_is_detected_on_the_play_area() {
        // 4 wide, placed off the canvas centre (columns 2..6): still vertical within its area.
        let l = Layout::parse_ascii("#..#\n....\n....\n.~~.\n").unwrap();
        assert_eq!(l.symmetry(), Symmetry::Vertical);
        let l = Layout::parse_ascii("#...\n....\n....\n#...\n").unwrap();
        assert_eq!(l.symmetry(), Symmetry::Horizontal);
    }
}
