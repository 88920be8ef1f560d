//! A Longcat level: a grid up to 10×10 of WALL and EMPTY cells with exactly one cat HEAD;
//! the game's id and tile set, and the conversions to and from stored levels.

use std::fmt;
use studio_core::game::{
    AsciiError, ConditionKind, ConditionSpec, ConditionValue, Conditions, GameId, TileInfo,
};
use studio_core::grid::{AsciiCell, Grid, GridError};
use studio_core::level::Level;
use studio_core::symmetry;

/// The id of Longcat levels.
pub const ID: GameId = GameId::new("longcat");

/// Longcat, the one-cat sliding puzzle.
#[derive(Clone, Copy, Debug, Default)]
pub struct LongcatGame;

/// Largest side of a Longcat grid.
pub const MAX_SIDE: usize = 10;

/// One cell of a Longcat level as drawn (the body does not appear in level files).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Free space the cat must fill.
    Empty,
    /// A wall.
    Wall,
    /// The cat's head, where it starts.
    Head,
}

impl AsciiCell for Cell {
    fn to_ascii(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Wall => '#',
            Cell::Head => '@',
        }
    }
    fn from_ascii(c: char) -> Option<Self> {
        match c {
            '.' => Some(Cell::Empty),
            '#' => Some(Cell::Wall),
            '@' => Some(Cell::Head),
            _ => None,
        }
    }
}

/// Why cells are not a Longcat level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// The ASCII art is malformed.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// Wider or taller than 10.
    #[error("grid {width}x{height} is larger than Longcat's 10x10")]
    TooLarge {
        /// The grid's width, in cells.
        width: usize,
        /// The grid's height, in cells.
        height: usize,
    },
    /// No `@`.
    #[error("no cat head ('@') in the level")]
    NoHead,
    /// More than one `@`.
    #[error("{count} cat heads ('@'); a level has exactly one")]
    ManyHeads {
        /// How many `@` the level has.
        count: usize,
    },
}

/// A validated Longcat level.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct LongcatLevel {
    cells: Grid<Cell>,
    head: (usize, usize),
}

impl fmt::Debug for LongcatLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.cells)
    }
}

impl LongcatLevel {
    /// Checks a grid: at most 10×10, exactly one head.
    ///
    /// # Errors
    /// [`LevelError`] naming the problem.
    pub fn new(cells: Grid<Cell>) -> Result<Self, LevelError> {
        if cells.width() > MAX_SIDE || cells.height() > MAX_SIDE {
            return Err(LevelError::TooLarge {
                width: cells.width(),
                height: cells.height(),
            });
        }
        let heads: Vec<(usize, usize)> = cells
            .iter()
            .filter(|c| c.2 == Cell::Head)
            .map(|c| (c.0, c.1))
            .collect();
        match heads.len() {
            0 => Err(LevelError::NoHead),
            1 => Ok(Self {
                head: heads[0],
                cells,
            }),
            count => Err(LevelError::ManyHeads { count }),
        }
    }

    /// Parses ASCII art (`.` empty, `#` wall, `@` head).
    ///
    /// # Errors
    /// [`LevelError`], with line and column for bad characters.
    pub fn parse_ascii(text: &str) -> Result<Self, LevelError> {
        Self::new(Grid::parse_ascii(text)?)
    }

    /// Builds a level from stored rows.
    ///
    /// # Errors
    /// As [`LongcatLevel::parse_ascii`].
    pub fn from_rows(rows: &[String]) -> Result<Self, LevelError> {
        Self::new(Grid::from_rows(rows)?)
    }

    /// A level from a wall mask and the head's cell, as the bit-mask generators hold a board:
    /// bit and index `y * width + x`; the head goes over a wall bit at its cell.
    ///
    /// # Errors
    /// [`LevelError::TooLarge`] past 10×10, [`LevelError::NoHead`] when `head` is off the board.
    pub(crate) fn from_walls(
        width: usize,
        height: usize,
        walls: u128,
        head: usize,
    ) -> Result<Self, LevelError> {
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(LevelError::TooLarge { width, height });
        }
        if head >= width * height {
            return Err(LevelError::NoHead);
        }
        let mut cells = Grid::filled(width, height, Cell::Empty);
        for i in (0..width * height).filter(|&i| walls & 1u128 << i != 0) {
            cells.set(i % width, i / width, Cell::Wall);
        }
        let head = (head % width, head / width);
        cells.set(head.0, head.1, Cell::Head);
        Ok(Self { cells, head })
    }

    /// The cells.
    pub fn cells(&self) -> &Grid<Cell> {
        &self.cells
    }

    /// Where the head starts, `(x, y)`.
    pub fn head(&self) -> (usize, usize) {
        self.head
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.cells.width()
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.cells.height()
    }

    /// The level as a stored [`Level`].
    pub fn to_level(&self, name: impl Into<String>) -> Level {
        Level {
            game: ID,
            name: name.into(),
            cells: self.cells.to_rows(),
            symmetry: symmetry::detect(&self.cells),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        }
    }
}

/// Checks stored rows as a Longcat level, with the problem in words.
///
/// # Errors
/// The problem as a sentence.
pub fn check_cells(rows: &[String]) -> Result<(), String> {
    LongcatLevel::from_rows(rows)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// A stored level from ASCII art.
///
/// # Errors
/// [`LevelError`].
pub fn level_from_ascii(name: &str, text: &str) -> Result<Level, LevelError> {
    Ok(LongcatLevel::parse_ascii(text)?.to_level(name))
}

/// The palette: WALL, EMPTY and HEAD, in tile-index order.
pub(crate) const TILES: [TileInfo; 3] = [
    TileInfo {
        ascii: '#',
        name: "WALL",
        rgb: [74, 60, 86],
    },
    TileInfo {
        ascii: '.',
        name: "EMPTY",
        rgb: [240, 234, 226],
    },
    TileInfo {
        ascii: '@',
        name: "HEAD",
        rgb: [244, 162, 97],
    },
];

/// Index of EMPTY in the palette.
pub(crate) const EMPTY: u8 = 1;
/// Index of HEAD in the palette.
pub(crate) const HEAD: u8 = 2;

/// A level error as the registry reports it (grid problems stay grid problems).
pub(crate) fn ascii_error(e: LevelError) -> AsciiError {
    match e {
        LevelError::Grid(g) => AsciiError::Grid(g),
        other => AsciiError::Level(other.to_string()),
    }
}

pub(crate) fn size_conditions(default: i64) -> Vec<ConditionSpec> {
    let side = |key, label, help| ConditionSpec {
        key,
        label,
        kind: ConditionKind::Int {
            min: 3,
            max: MAX_SIDE as i64,
        },
        default: ConditionValue::Int(default),
        required: false,
        help,
    };
    vec![
        side("width", "Width", "grid width"),
        side("height", "Height", "grid height"),
    ]
}

pub(crate) fn size_of(conditions: &Conditions) -> (usize, usize) {
    conditions.size().unwrap_or((8, 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_levels_are_named() {
        assert_eq!(
            LongcatLevel::parse_ascii("...\n.#.\n").unwrap_err(),
            LevelError::NoHead
        );
        assert_eq!(
            LongcatLevel::parse_ascii("@..\n.#@\n").unwrap_err(),
            LevelError::ManyHeads { count: 2 }
        );
        let big = format!("@{}\n", ".".repeat(10));
        assert_eq!(
            LongcatLevel::parse_ascii(&big).unwrap_err(),
            LevelError::TooLarge {
                width: 11,
                height: 1
            }
        );
        assert!(matches!(
            LongcatLevel::parse_ascii("@.\n.x\n").unwrap_err(),
            LevelError::Grid(GridError::UnknownChar {
                line: 2,
                column: 2,
                ..
            })
        ));
        let l = LongcatLevel::parse_ascii("@..\n.#.\n").unwrap();
        assert_eq!(l.head(), (0, 0));
    }
}
