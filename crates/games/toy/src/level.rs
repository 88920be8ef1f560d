//! The toy's levels: its id, its two tiles (`o` open, `x` crate) and its size rules.

use studio_core::game::{GameId, TileInfo};
use studio_core::level::Level;

/// The toy's id.
pub const TOY: GameId = GameId::new("toy");

/// A 2-tile toy: `o` open, `x` crate; a level passes when it has at least one crate.
pub struct ToyGame;

/// Most cells a toy level has (6×6).
pub const MAX_CELLS: usize = 36;

/// The tiles, in palette order.
pub(crate) const TILES: [TileInfo; 2] = [
    TileInfo {
        ascii: 'o',
        name: "OPEN",
        rgb: [200, 200, 200],
    },
    TileInfo {
        ascii: 'x',
        name: "CRATE",
        rgb: [120, 60, 20],
    },
];

/// The crates of a level.
pub fn crates(level: &Level) -> usize {
    level.cells.concat().matches('x').count()
}

/// A toy level of these rows.
pub fn toy_level(name: &str, rows: Vec<String>) -> Level {
    Level {
        game: TOY,
        name: name.into(),
        cells: rows,
        symmetry: Default::default(),
        tags: Vec::new(),
        figures: None,
        playtests: Vec::new(),
    }
}
