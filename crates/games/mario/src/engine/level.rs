//! The level's fixed tiles, read once and shared (behind an `Arc`) by every [`World`] cloned
//! from it: terrain for collision, enemy spawn points in column order, start and goal.
//!
//! [`World`]: super::World

use super::sprites::SpriteKind;
use crate::tiles::Tile;
use std::fmt;

/// Why text or tiles are not a playable level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelError {
    /// No rows or no columns.
    Empty,
    /// A row whose length differs from the first row's.
    Ragged {
        /// Row number (1-based).
        row: usize,
        /// Columns of the first row.
        expected: usize,
        /// Columns of this row.
        found: usize,
    },
    /// A letter that is not a tile.
    Letter {
        /// Row number (1-based).
        row: usize,
        /// Column number (1-based).
        column: usize,
        /// The letter.
        letter: char,
    },
    /// No start marker and no ground in the bottom row to start on.
    NoStart,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelError::Empty => write!(f, "a level needs at least one row and one column"),
            LevelError::Ragged {
                row,
                expected,
                found,
            } => write!(f, "row {row} has {found} columns, not {expected}"),
            LevelError::Letter {
                row,
                column,
                letter,
            } => write!(f, "'{letter}' at row {row}, column {column} is not a tile"),
            LevelError::NoStart => write!(f, "no start marker and no ground in the bottom row"),
        }
    }
}

impl std::error::Error for LevelError {}

/// An enemy waiting to appear at its tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Spawn {
    /// Column of the spawn tile.
    pub column: i32,
    /// Row of the spawn tile.
    pub row: i32,
    /// What appears.
    pub kind: SpriteKind,
    /// True for a winged enemy.
    pub winged: bool,
}

/// The immutable part of a level: tiles as given, collision terrain, spawns, start and goal.
#[derive(Clone, Debug)]
pub struct LevelMap {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    terrain: Vec<Tile>,
    spawns: Vec<Spawn>,
    /// Cannon tops (column, row), which fire bullet bills, by column then row.
    cannons: Vec<(i32, i32)>,
    start: (usize, usize),
    goal_column: usize,
}

impl LevelMap {
    /// A map from `width × height` tiles, row by row from the top.
    ///
    /// # Errors
    /// [`LevelError::Empty`] for no cells or a length that is not `width × height`,
    /// [`LevelError::NoStart`] when there is nowhere to start.
    pub fn new(width: usize, height: usize, tiles: Vec<Tile>) -> Result<Self, LevelError> {
        if width == 0 || height == 0 || tiles.len() != width * height {
            return Err(LevelError::Empty);
        }
        let at = |x: usize, y: usize| tiles[y * width + x];
        let start = match tiles.iter().position(|&t| t == Tile::Start) {
            Some(i) => (i % width, i / width),
            None => {
                let bottom = height - 1;
                let x = (0..width)
                    .find(|&x| at(x, bottom) == Tile::Ground)
                    .ok_or(LevelError::NoStart)?;
                let top = (0..height).find(|&y| at(x, y).is_solid()).unwrap_or(bottom);
                (x, top.saturating_sub(1))
            }
        };
        let goal_column = tiles
            .iter()
            .position(|&t| t == Tile::Goal)
            .map_or(width - 1, |i| i % width);
        let terrain = tiles
            .iter()
            .map(|&t| match t {
                Tile::PiranhaPipe => Tile::PipeTopLeft,
                Tile::Start | Tile::Goal => Tile::Empty,
                t if t.is_enemy() => Tile::Empty,
                other => other,
            })
            .collect();
        let mut spawns = Vec::new();
        let mut cannons = Vec::new();
        for x in 0..width {
            for y in 0..height {
                let (kind, winged) = match at(x, y) {
                    Tile::Goomba => (SpriteKind::Goomba, false),
                    Tile::WingedGoomba => (SpriteKind::Goomba, true),
                    Tile::Koopa => (SpriteKind::Koopa, false),
                    Tile::WingedKoopa => (SpriteKind::Koopa, true),
                    Tile::RedKoopa => (SpriteKind::RedKoopa, false),
                    Tile::WingedRedKoopa => (SpriteKind::RedKoopa, true),
                    Tile::Spiky => (SpriteKind::Spiky, false),
                    Tile::WingedSpiky => (SpriteKind::Spiky, true),
                    Tile::PiranhaPipe => (SpriteKind::Piranha, false),
                    Tile::CannonTop => {
                        cannons.push((x as i32, y as i32));
                        continue;
                    }
                    _ => continue,
                };
                spawns.push(Spawn {
                    column: x as i32,
                    row: y as i32,
                    kind,
                    winged,
                });
            }
        }
        Ok(Self {
            width,
            height,
            tiles,
            terrain,
            spawns,
            cannons,
            start,
            goal_column,
        })
    }

    /// A map from rows of tile letters (the studio's alphabet, see [`Tile::ascii`]).
    ///
    /// # Errors
    /// [`LevelError`] with the position of a bad letter, ragged rows, or no start.
    pub fn from_ascii(text: &str) -> Result<Self, LevelError> {
        Self::parse(text, Tile::from_ascii)
    }

    /// The map of a checked level.
    pub fn from_level(level: &crate::MarioLevel) -> Self {
        let tiles = level.cells().cells().to_vec();
        let (width, height) = (level.width(), level.height());
        // A checked level always has somewhere to start, so this cannot fail; the fallback
        // keeps the signature infallible without a panic.
        Self::new(width, height, tiles).unwrap_or_else(|_| Self::flat_fallback(width, height))
    }

    fn flat_fallback(width: usize, height: usize) -> Self {
        let mut tiles = vec![Tile::Empty; width * height];
        for t in tiles.iter_mut().skip(width * (height - 1)) {
            *t = Tile::Ground;
        }
        Self {
            width,
            height,
            terrain: tiles.clone(),
            tiles,
            spawns: Vec::new(),
            cannons: Vec::new(),
            start: (0, height.saturating_sub(2)),
            goal_column: width - 1,
        }
    }

    fn parse(text: &str, letter: impl Fn(char) -> Option<Tile>) -> Result<Self, LevelError> {
        let rows: Vec<&str> = text
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.is_empty())
            .collect();
        let width = rows.first().map_or(0, |r| r.chars().count());
        let mut tiles = Vec::with_capacity(width * rows.len());
        for (y, row) in rows.iter().enumerate() {
            let found = row.chars().count();
            if found != width {
                return Err(LevelError::Ragged {
                    row: y + 1,
                    expected: width,
                    found,
                });
            }
            for (x, c) in row.chars().enumerate() {
                tiles.push(letter(c).ok_or(LevelError::Letter {
                    row: y + 1,
                    column: x + 1,
                    letter: c,
                })?);
            }
        }
        Self::new(width, rows.len(), tiles)
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The tile as given at column `x`, row `y` (markers and enemy starts included).
    pub fn tile(&self, x: usize, y: usize) -> Tile {
        self.tiles
            .get(y * self.width + x)
            .copied()
            .unwrap_or(Tile::Empty)
    }

    /// The cell Mario starts in (column, row).
    pub fn start_cell(&self) -> (usize, usize) {
        self.start
    }

    /// The goal's column: the goal marker's, else the last column.
    pub fn goal_column(&self) -> usize {
        self.goal_column
    }

    /// The number of enemies the level spawns.
    pub fn enemy_count(&self) -> usize {
        self.spawns.len()
    }

    /// The level's height in pixels.
    pub fn pixel_height(&self) -> f32 {
        self.height as f32 * super::TILE
    }

    /// The level's width in pixels.
    pub fn pixel_width(&self) -> f32 {
        self.width as f32 * super::TILE
    }

    /// Spawns, sorted by column then row.
    pub(crate) fn spawns(&self) -> &[Spawn] {
        &self.spawns
    }

    /// Cannon tops (column, row), sorted by column then row.
    pub(crate) fn cannons(&self) -> &[(i32, i32)] {
        &self.cannons
    }

    /// The terrain index of cell (x, y) as the framework looks tiles up: x clamped into the
    /// level, `None` above or below it.
    #[inline]
    pub(crate) fn index(&self, x: i32, y: i32) -> Option<usize> {
        if y < 0 || y >= self.height as i32 {
            return None;
        }
        let x = x.clamp(0, self.width as i32 - 1);
        Some(y as usize * self.width + x as usize)
    }

    /// The terrain at a flat index (enemy starts and markers read as air).
    #[inline]
    pub(crate) fn terrain_at(&self, index: usize) -> Tile {
        self.terrain.get(index).copied().unwrap_or(Tile::Empty)
    }
}
