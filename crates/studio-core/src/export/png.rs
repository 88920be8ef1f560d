//! The PNG sheet export: every level of a pack as a small picture in reading order, with a
//! bar under each (green valid / non-trivial, red invalid / trivial, grey unknown) and a
//! label: its number and name, its figure and verdict. Tile colours come from each level's
//! game in the registry.

use super::font;
use crate::document::PackDoc;
use crate::formats::FormatError;
use crate::io::write_atomic;
use crate::level::{Level, Pack};
use image::{Rgb, RgbImage};
use std::path::Path;

/// What the sheet says about a level beyond its number and name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SheetNote {
    /// The level's figure in words ("18.0 moves").
    pub figure: Option<String>,
    /// Whether it passes its game's verdict (`None`: unknown).
    pub pass: Option<bool>,
}

/// The notes of every level of an open pack: stored figures first, else what its game's
/// analysis measured (see [`PackDoc::difficulty`]).
pub fn notes_of(doc: &PackDoc) -> Vec<SheetNote> {
    doc.pack
        .levels
        .iter()
        .map(|level| SheetNote {
            figure: doc.difficulty(level).map(|d| {
                level
                    .game
                    .game()
                    .map_or_else(|_| format!("{d:.1}"), |g| g.difficulty_text(d))
            }),
            pass: doc.verdict(level),
        })
        .collect()
}

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
/// Height of the two label lines under each level.
const LABEL: u32 = 2 * (font::HEIGHT + 3);
/// Narrowest a level's place may be, so its label has room.
const MIN_WIDTH: u32 = 19 * font::ADVANCE;

/// The most pixels a PNG sheet may have (about 190 MB in memory while it is drawn): a few
/// thousand levels fit; a larger pack is refused with a suggestion instead of filling the
/// memory and the disk.
pub const MAX_SHEET_PIXELS: u64 = 64_000_000;

/// The width and height in pixels of the sheet of `pack` at `columns` levels a row.
pub fn sheet_size(pack: &Pack, columns: usize) -> (u32, u32) {
    let (tile_w, tile_h, columns, rows) = sheet_grid(pack, columns);
    (
        columns.saturating_mul(tile_w).saturating_add(PAD),
        rows.saturating_mul(tile_h).saturating_add(PAD),
    )
}

/// A sheet's place per level (width, height) and its columns and rows.
fn sheet_grid(pack: &Pack, columns: usize) -> (u32, u32, u32, u32) {
    let columns = columns.clamp(1, u32::MAX as usize) as u32;
    let (mut cw, mut ch) = (1u32, 1u32);
    for level in &pack.levels {
        ch = ch.max(level.cells.len().min(u32::MAX as usize) as u32);
        let width = level
            .cells
            .iter()
            .map(|r| r.chars().count())
            .max()
            .unwrap_or(0);
        cw = cw.max(width.min(u32::MAX as usize) as u32);
    }
    let tile_w = cw.saturating_mul(CELL).max(MIN_WIDTH).saturating_add(PAD);
    let tile_h = ch
        .saturating_mul(CELL)
        .saturating_add(PAD + BAR + 4 + LABEL);
    let rows = (pack.levels.len().min(u32::MAX as usize) as u32)
        .div_ceil(columns)
        .max(1);
    (tile_w, tile_h, columns, rows)
}

/// Draws the sheet: `columns` levels a row, each framed on a dark background and labelled
/// with `notes` (one per level; missing notes read as unknown).
pub fn render_sheet(pack: &Pack, columns: usize, notes: &[SheetNote]) -> RgbImage {
    let columns = columns.max(1) as u32;
    let (mut cw, mut ch) = (1u32, 1u32);
    let pictures: Vec<Option<Vec<Vec<[u8; 3]>>>> = pack.levels.iter().map(colours).collect();
    for rows in pictures.iter().flatten() {
        ch = ch.max(rows.len() as u32);
        cw = cw.max(rows.iter().map(|r| r.len() as u32).max().unwrap_or(0));
    }
    let tile_w = (cw * CELL).max(MIN_WIDTH) + PAD;
    let tile_h = ch * CELL + PAD + BAR + 4 + LABEL;
    let rows = (pack.levels.len() as u32).div_ceil(columns).max(1);
    let mut img = RgbImage::from_pixel(
        columns * tile_w + PAD,
        rows * tile_h + PAD,
        Rgb([28, 30, 36]),
    );
    let place_w = tile_w - PAD;
    for (i, picture) in pictures.iter().enumerate() {
        let (col, row) = (i as u32 % columns, i as u32 / columns);
        let (ox, oy) = (PAD + col * tile_w, PAD + row * tile_h);
        let note = notes.get(i).cloned().unwrap_or_default();
        let colour = match note.pass {
            Some(true) => [76, 187, 94],
            Some(false) => [229, 83, 75],
            None => [120, 120, 120],
        };
        let bar_y = oy + ch * CELL + 3;
        for py in 0..BAR {
            for px in 0..place_w {
                img.put_pixel(ox + px, bar_y + py, Rgb(colour));
            }
        }
        let label_y = bar_y + BAR + 3;
        let name = super::name_without_place(&pack.levels[i].name, i + 1);
        let title = font::fit(&format!("{} {name}", i + 1), place_w);
        font::draw(&mut img, ox, label_y, &title, [225, 225, 230]);
        let verdict = match note.pass {
            Some(true) => "ok",
            Some(false) => "x",
            None => "?",
        };
        let figure = match &note.figure {
            Some(f) => format!("{f} {verdict}"),
            None => format!("no figure {verdict}"),
        };
        let figure = font::fit(&figure, place_w);
        font::draw(&mut img, ox, label_y + font::HEIGHT + 3, &figure, colour);
        let Some(rows) = picture else {
            font::draw(&mut img, ox, oy, "not a level", [229, 83, 75]);
            continue;
        };
        let width = rows.iter().map(|r| r.len() as u32).max().unwrap_or(0);
        let dx = (place_w - width * CELL) / 2;
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
    }
    img
}

/// Writes the sheet of a pack to `path` (atomically), each level labelled with its note.
///
/// # Errors
/// [`FormatError::Refused`] for a sheet too large to write, an encoder's or file error
/// naming the file.
pub fn export_png(path: &Path, pack: &Pack, notes: &[SheetNote]) -> Result<(), FormatError> {
    let columns = pack
        .levels
        .first()
        .and_then(|l| l.game.game().ok())
        .map_or(12, |g| g.sheet_columns())
        // A short pack is one row as wide as its levels, not the game's full row.
        .min(pack.levels.len().max(1));
    let (width, height) = sheet_size(pack, columns);
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_SHEET_PIXELS {
        return Err(FormatError::refused(format!(
            "{}: not written: a sheet of {} levels would be {width} x {height} pixels ({} \
             million), above the {} million a PNG sheet may have; export the pack in parts \
             (split it into smaller packs), or use --format tmj (one map per level)",
            path.display(),
            pack.levels.len(),
            pixels / 1_000_000,
            MAX_SHEET_PIXELS / 1_000_000
        )));
    }
    let img = render_sheet(pack, columns, notes);
    let mut bytes = Vec::new();
    img.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .map_err(|e| FormatError::encode(path)(&e))?;
    Ok(write_atomic(path, &bytes)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing;

    #[test]
    fn a_short_pack_makes_a_sheet_as_wide_as_its_levels() {
        let mut pack = Pack::new("t");
        for _ in 0..3 {
            testing::register();
            pack.levels.push(testing::level("l", 9, 11, None));
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.png");
        export_png(&path, &pack, &[]).unwrap();
        let (w, _) = image::image_dimensions(&path).unwrap();
        assert_eq!(w, 3 * ((9 * CELL).max(MIN_WIDTH) + PAD) + PAD);
    }

    #[test]
    fn the_sheet_has_a_tile_per_level() {
        let mut pack = Pack::new("t");
        for _ in 0..13 {
            testing::register();
            pack.levels.push(testing::level("l", 9, 11, None));
        }
        let img = render_sheet(&pack, 12, &[]);
        assert_eq!(img.width(), 12 * ((9 * CELL).max(MIN_WIDTH) + PAD) + PAD);
        assert_eq!(img.height(), 2 * (11 * CELL + PAD + BAR + 4 + LABEL) + PAD);
    }
}
