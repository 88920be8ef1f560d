//! A Mario level (SPEC §2.6): 14–16 rows × 16–400 columns of [`Tile`]s, at most one start and
//! one goal marker. Without markers Mario starts on the first column with ground and the
//! goal is the right end.

use super::tiles::Tile;
use std::fmt;
use studio_core::game::GameId;
use studio_core::grid::{Grid, GridError};
use studio_core::level::Level;

/// The id of Mario levels.
pub const ID: GameId = GameId::new("mario");

/// Super Mario Bros levels.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarioGame;

/// Fewest rows (the VGLC's levels).
pub const MIN_ROWS: usize = 14;
/// Most rows (the Mario AI Framework's levels).
pub const MAX_ROWS: usize = 16;
/// Fewest columns.
pub const MIN_COLUMNS: usize = 16;
/// Most columns.
pub const MAX_COLUMNS: usize = 400;
/// Columns of one pattern (rl-quality-diversity §6.3: levels are read 4 columns at a time).
pub const PATTERN_COLUMNS: usize = 4;

/// Why cells are not a Mario level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// A letter that is not a Mario tile, or ragged rows.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// Rows or columns out of range.
    #[error(
        "a Mario level is {MIN_ROWS}–{MAX_ROWS} rows × {MIN_COLUMNS}–{MAX_COLUMNS} columns, \
         not {rows} × {columns}"
    )]
    Size {
        /// Rows given.
        rows: usize,
        /// Columns given.
        columns: usize,
    },
    /// More than one start or goal.
    #[error("a level has at most one {what}; this one has {count}")]
    Markers {
        /// `start (M)` or `goal (F)`.
        what: &'static str,
        /// How many it has.
        count: usize,
    },
    /// No column with ground to start on and no start marker.
    #[error("no start: put Mario's start (M) or ground (X) in the bottom row")]
    NoStart,
}

/// A checked Mario level.
#[derive(Clone, PartialEq, Eq)]
pub struct MarioLevel {
    cells: Grid<Tile>,
}

impl fmt::Debug for MarioLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "MarioLevel {}×{}", self.width(), self.height())?;
        f.write_str(&self.cells.to_ascii())
    }
}

impl MarioLevel {
    /// A level from its cells.
    ///
    /// # Errors
    /// [`LevelError`]: the size, more than one marker, or nowhere to start.
    pub fn new(cells: Grid<Tile>) -> Result<Self, LevelError> {
        let (columns, rows) = (cells.width(), cells.height());
        if !(MIN_ROWS..=MAX_ROWS).contains(&rows) || !(MIN_COLUMNS..=MAX_COLUMNS).contains(&columns)
        {
            return Err(LevelError::Size { rows, columns });
        }
        for (tile, what) in [(Tile::Start, "start (M)"), (Tile::Goal, "goal (F)")] {
            let count = cells.cells().iter().filter(|&&t| t == tile).count();
            if count > 1 {
                return Err(LevelError::Markers { what, count });
            }
        }
        let level = Self { cells };
        if level.start_cell().is_none() {
            return Err(LevelError::NoStart);
        }
        Ok(level)
    }

    /// A level from rows of letters.
    ///
    /// # Errors
    /// [`LevelError`] with the position of a bad letter, or the broken rule.
    pub fn from_rows(rows: &[String]) -> Result<Self, LevelError> {
        Self::new(Grid::from_rows(rows)?)
    }

    /// The rows of letters.
    pub fn to_rows(&self) -> Vec<String> {
        self.cells.to_rows()
    }

    /// The cells.
    pub fn cells(&self) -> &Grid<Tile> {
        &self.cells
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.cells.width()
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.cells.height()
    }

    /// The tile at column `x`, row `y` (row 0 at the top).
    pub fn get(&self, x: usize, y: usize) -> Tile {
        self.cells.get(x, y)
    }

    /// The cell Mario starts in: the start marker, else the air cell above the topmost solid
    /// tile of the first column whose bottom cell is ground.
    pub fn start_cell(&self) -> Option<(usize, usize)> {
        if let Some((x, y, _)) = self.cells.iter().find(|&(_, _, t)| t == Tile::Start) {
            return Some((x, y));
        }
        let bottom = self.height() - 1;
        let x = (0..self.width()).find(|&x| self.get(x, bottom) == Tile::Ground)?;
        let top = (0..self.height()).find(|&y| self.get(x, y).is_solid())?;
        Some((x, top.saturating_sub(1)))
    }

    /// The goal's column: the goal marker's, else the last column.
    pub fn goal_column(&self) -> usize {
        self.cells
            .iter()
            .find(|&(_, _, t)| t == Tile::Goal)
            .map_or(self.width() - 1, |(x, _, _)| x)
    }

    /// True when column `x` has no solid tile in its bottom row: Mario falls through.
    pub fn is_hole(&self, x: usize) -> bool {
        !self.get(x, self.height() - 1).is_solid()
    }

    /// The number of hole columns.
    pub fn holes(&self) -> usize {
        (0..self.width()).filter(|&x| self.is_hole(x)).count()
    }

    /// The number of enemies.
    pub fn enemies(&self) -> usize {
        self.cells.cells().iter().filter(|t| t.is_enemy()).count()
    }
}

/// A blank level: ground along the bottom two rows, Mario's start at the left and the goal
/// at the right.
pub fn blank(columns: usize, rows: usize) -> Grid<Tile> {
    let columns = columns.clamp(MIN_COLUMNS, MAX_COLUMNS);
    let rows = rows.clamp(MIN_ROWS, MAX_ROWS);
    let mut cells = Grid::filled(columns, rows, Tile::Empty);
    for x in 0..columns {
        cells.set(x, rows - 1, Tile::Ground);
        cells.set(x, rows - 2, Tile::Ground);
    }
    cells.set(1, rows - 3, Tile::Start);
    cells.set(columns - 2, rows - 3, Tile::Goal);
    cells
}

/// A stored level of a Mario level.
pub fn to_level(level: &MarioLevel, name: impl Into<String>) -> Level {
    Level::bare(ID, name, level.to_rows())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn blank_level_is_a_level_with_its_markers() {
        let level = MarioLevel::new(blank(40, 14)).unwrap();
        assert_eq!(level.start_cell(), Some((1, 11)));
        assert_eq!(level.goal_column(), 38);
        assert_eq!(level.holes(), 0);
    }

    #[test]
    fn sizes_and_markers_are_checked() {
        let small = Grid::filled(10, 14, Tile::Ground);
        assert!(matches!(
            MarioLevel::new(small),
            Err(LevelError::Size {
                rows: 14,
                columns: 10
            })
        ));
        let mut two = blank(20, 14);
        two.set(5, 5, Tile::Start);
        assert!(matches!(
            MarioLevel::new(two),
            Err(LevelError::Markers { count: 2, .. })
        ));
        let air = Grid::filled(20, 14, Tile::Empty);
        assert_eq!(MarioLevel::new(air), Err(LevelError::NoStart));
    }

    #[test]
    fn default_start_stands_on_the_first_ground_and_holes_are_counted() {
        let mut text = String::new();
        for _ in 0..12 {
            text.push_str(&"-".repeat(16));
            text.push('\n');
        }
        text.push_str("--##------------\n");
        text.push_str("--XXXXX---XXXXXX\n");
        let level = MarioLevel::from_rows(&rows(&text)).unwrap();
        assert_eq!(level.start_cell(), Some((2, 11)));
        assert_eq!(level.goal_column(), 15);
        assert_eq!(level.holes(), 5);
        assert!(level.is_hole(0) && level.is_hole(7) && !level.is_hole(4));
    }
}
