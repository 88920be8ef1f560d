//! What a game tells the tile editor: how a tile is marked beyond its colour, the tile a
//! level holds once, its play area and markers, and how painting a cell changes a level.

use super::play::Heading;

/// How a tile is drawn on top of its colour, so that tiles of similar colours stay apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TileMark {
    /// Colour only.
    #[default]
    Plain,
    /// Diagonal hatching (a tile that looks like another but behaves differently).
    Hatched,
    /// A face: the player's avatar.
    Avatar,
    /// A face with a sword on one side: an avatar that faces a direction (the dungeon's).
    Facing(Heading),
    /// Eyes and pips: a monster, with 1 (slow) to 3 (quick) pips for its speed.
    Monster(u8),
    /// A character drawn in the middle (a course's digits, an event's letter).
    Glyph(char),
}

/// A rectangle of cells: column, row, width, height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    /// Left column.
    pub x: usize,
    /// Top row.
    pub y: usize,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl Area {
    /// True when `(x, y)` lies inside.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.width && y < self.y + self.height
    }
}

/// Cells a game marks on the canvas (match-3 spawners), with what designers call them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Markers {
    /// One marker's name, singular (`spawner`).
    pub name: &'static str,
    /// The marked cells.
    pub cells: Vec<(usize, usize)>,
}

/// Colours a game lays over the canvas to show structure the tiles do not (the dungeon's
/// sprite patterns, each group tinted by its size class).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Overlay {
    /// Cells and the RGBA tint each gets.
    pub cells: Vec<(usize, usize, [u8; 4])>,
    /// What each tint means, for the legend.
    pub legend: Vec<(String, [u8; 3])>,
}
