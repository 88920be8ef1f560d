//! The PNG sheet export: every level of a pack as a small picture in reading order, with a
//! bar under each (green valid / non-trivial, red invalid / trivial, grey unknown). Tile
//! colours come from each level's game in the registry.

use crate::files::write_atomic;
use crate::level::{Level, Pack};
use image::{Rgb, RgbImage};
use std::path::Path;

/// A level's cells as tile colours, row by row (`None` when its game is not registered or a
/// character is not one of its tiles).
fn colours(level: &Level) -> Option<Vec<Vec<[u8; 3]>>> {
    let game = level.game.game().ok()?;
    let indices = crate::game::tile_indices(game, &level.cells).ok()?;
    let tiles = game.tiles();
    Some(
        indices
            .iter()
            .map(|row| row.iter().map(|&i| tiles[usize::from(i)].rgb).collect())
            .collect(),
    )
}

/// Pixels per cell.
pub const CELL: u32 = 10;
const PAD: u32 = 14;
const BAR: u32 = 6;

/// Draws the sheet: `columns` levels a row, each framed on a dark background.
pub fn render_sheet(
    pack: &Pack,
    columns: usize,
    difficulty: impl Fn(usize) -> Option<bool>,
) -> RgbImage {
    let columns = columns.max(1) as u32;
    let (mut cw, mut ch) = (1u32, 1u32);
    let pictures: Vec<Option<Vec<Vec<[u8; 3]>>>> = pack.levels.iter().map(colours).collect();
    for rows in pictures.iter().flatten() {
        ch = ch.max(rows.len() as u32);
        cw = cw.max(rows.iter().map(|r| r.len() as u32).max().unwrap_or(0));
    }
    let tile_w = cw * CELL + PAD;
    let tile_h = ch * CELL + PAD + BAR + 4;
    let rows = (pack.levels.len() as u32).div_ceil(columns).max(1);
    let mut img = RgbImage::from_pixel(
        columns * tile_w + PAD,
        rows * tile_h + PAD,
        Rgb([28, 30, 36]),
    );
    for (i, picture) in pictures.iter().enumerate() {
        let (col, row) = (i as u32 % columns, i as u32 / columns);
        let (ox, oy) = (PAD + col * tile_w, PAD + row * tile_h);
        let Some(rows) = picture else {
            continue;
        };
        let width = rows.iter().map(|r| r.len() as u32).max().unwrap_or(0);
        let dx = (cw - width) * CELL / 2;
        let dy = (ch - rows.len() as u32) * CELL / 2;
        for (y, cells) in rows.iter().enumerate() {
            for (x, &rgb) in cells.iter().enumerate() {
                for py in 1..CELL {
                    for px in 1..CELL {
                        img.put_pixel(
                            ox + dx + x as u32 * CELL + px,
                            oy + dy + y as u32 * CELL + py,
                            Rgb(rgb),
                        );
                    }
                }
            }
        }
        let colour = match difficulty(i) {
            Some(true) => [76, 187, 94],
            Some(false) => [229, 83, 75],
            None => [120, 120, 120],
        };
        let bar_y = oy + ch * CELL + 3;
        for py in 0..BAR {
            for px in 0..cw * CELL {
                img.put_pixel(ox + px, bar_y + py, Rgb(colour));
            }
        }
    }
    img
}

/// Writes the sheet of a pack to `path` (atomically); `good(i)` says whether level `i` passes
/// (valid / non-trivial), `None` when unknown.
///
/// # Errors
/// The problem in words, naming the file.
pub fn export_png(
    path: &Path,
    pack: &Pack,
    good: impl Fn(usize) -> Option<bool>,
) -> Result<(), String> {
    let columns = pack
        .levels
        .first()
        .and_then(|l| l.game.game().ok())
        .map_or(12, |g| g.sheet_columns());
    let img = render_sheet(pack, columns, good);
    let mut bytes = Vec::new();
    img.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    write_atomic(path, &bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::match3::Layout;

    #[test]
    fn the_sheet_has_a_tile_per_level() {
        let mut pack = Pack::new("t");
        for _ in 0..13 {
            pack.levels
                .push(Level::from_layout("l", &Layout::open(5, 5).unwrap()));
        }
        let img = render_sheet(&pack, 12, |_| None);
        assert_eq!(img.width(), 12 * (9 * CELL + PAD) + PAD);
        assert_eq!(img.height(), 2 * (11 * CELL + PAD + BAR + 4) + PAD);
    }
}
