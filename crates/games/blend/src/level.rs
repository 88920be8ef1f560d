//! A blend segment as a level: the game's id, the palette of Table I's unified tiles, and the
//! check that rows are a segment (16 rows of 16 unified letters).

use super::tiles::{props, COLOURS, LETTERS, NAMES};
use std::sync::LazyLock;
use studio_core::game::{GameId, TileInfo};

/// The id of blend segments.
pub const ID: GameId = GameId::new("blend");

/// A segment's side.
pub const SIDE: usize = 16;

/// Lode Runner × Zelda segments.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlendGame;

/// The palette: Table I's unified tiles, in letter order.
pub(crate) static TILES: LazyLock<Vec<TileInfo>> = LazyLock::new(|| {
    LETTERS
        .iter()
        .zip(NAMES)
        .zip(COLOURS)
        .map(|((&ascii, name), rgb)| TileInfo { ascii, name, rgb })
        .collect()
});

/// Checks that `rows` are a segment: 16 rows of 16 Table I letters.
///
/// # Errors
/// The first row or letter that is wrong, in words.
pub fn check_rows(rows: &[String]) -> Result<(), String> {
    if rows.len() != SIDE {
        return Err(format!("{} rows, a blend segment has {SIDE}", rows.len()));
    }
    for (y, row) in rows.iter().enumerate() {
        let n = row.chars().count();
        if n != SIDE {
            return Err(format!("row {}: {n} cells, not {SIDE}", y + 1));
        }
        if let Some((x, c)) = row.chars().enumerate().find(|(_, c)| props(*c).is_none()) {
            return Err(format!(
                "row {}, column {}: {c:?} is not one of the 15 unified tiles ({})",
                y + 1,
                x + 1,
                LETTERS.iter().collect::<String>()
            ));
        }
    }
    Ok(())
}
