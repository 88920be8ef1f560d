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
    /// A face with a sword on one side: an avatar that faces a direction.
    Facing(Heading),
    /// Eyes and pips: a monster, with 1 (slow) to 3 (quick) pips for its speed.
    Monster(u8),
    /// A character drawn in the middle (a digit, an event's letter).
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

/// Cells a game marks on the canvas (spawners), with what designers call them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Markers {
    /// One marker's name, singular (`spawner`).
    pub name: &'static str,
    /// The marked cells.
    pub cells: Vec<(usize, usize)>,
}

/// Colours a game lays over the canvas to show structure the tiles do not (a
/// sprite patterns, each group tinted by its size class).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Overlay {
    /// Cells and the RGBA tint each gets.
    pub cells: Vec<(usize, usize, [u8; 4])>,
    /// What each tint means, for the legend.
    pub legend: Vec<(String, [u8; 3])>,
}

/// A level edited as a strip of events with a slider per parameter (battles,
/// fountains and boss) instead of tile by tile. Each parameter is stored as two digit tiles
/// (tens and ones of hundredths), so a slider paints those two cells.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamStrip {
    /// The events, in order.
    pub events: Vec<StripEvent>,
}

/// One event of a [`ParamStrip`].
#[derive(Clone, Debug, PartialEq)]
pub struct StripEvent {
    /// "Battle 2", "Boss".
    pub label: String,
    /// The letter its tile shows (B battle, R recovery, K boss).
    pub glyph: char,
    /// Its tile's colour.
    pub rgb: [u8; 3],
    /// Its parameters.
    pub params: Vec<StripParam>,
}

/// One slider of a [`StripEvent`].
#[derive(Clone, Debug, PartialEq)]
pub struct StripParam {
    /// "HP", "ATK", "Fountain after".
    pub name: &'static str,
    /// The stored value, 0.00–0.99.
    pub value: f64,
    /// What the value means in the game ("70 HP", "no fountain").
    pub shown: String,
    /// The cells of its tens and ones digits.
    pub cells: [(usize, usize); 2],
    /// A tile (letter, colour) the strip shows after its event while the value is above 0
    /// (a fountain), labelled "name event: shown".
    pub tile: Option<(char, [u8; 3])>,
}

impl StripParam {
    /// The highest stored value (two digits of hundredths).
    pub const MAX: f64 = 0.99;

    /// The digit tiles (tile index = digit) that store `value`, clamped to 0–0.99.
    pub fn paint(&self, value: f64) -> Vec<(usize, usize, u8)> {
        let hundredths = (value.clamp(0.0, Self::MAX) * 100.0).round() as u8;
        vec![
            (self.cells[0].0, self.cells[0].1, hundredths / 10),
            (self.cells[1].0, self.cells[1].1, hundredths % 10),
        ]
    }
}
