//! Export to Tiled (<https://www.mapeditor.org>): one JSON map (`.tmj`) per level, because
//! Tiled's convention is one map per level and a pack's levels may differ in size and game.
//! Each map embeds its game's tileset; the tileset's tile ids are the game's tiles in palette
//! order (gid = tile index + 1), each tile carrying its name and file character as custom
//! properties, and its picture is a PNG strip written next to the maps. A `.world` file lays
//! the pack's maps out in a row, so Tiled shows the whole pack at once (Map > Load World).
//!
//! The files follow Tiled's JSON map format (version 1.10): `docs/export.md` lists the
//! fields written.

use super::font;
use super::png::SheetNote;
use crate::formats::FormatError;
use crate::game::Game;
use crate::io;
use crate::level::{Level, Pack};
use image::{Rgb, RgbImage};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Pixels per tile in the tileset pictures (and the maps' tile size).
pub const TILE: u32 = 16;
/// Tiles between neighbouring maps in the world file.
const WORLD_GAP: u32 = 2;

/// What an export wrote.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TiledExport {
    /// One map per level, in pack order.
    pub maps: Vec<PathBuf>,
    /// One tileset picture per game in the pack.
    pub tilesets: Vec<PathBuf>,
    /// The world file that lays the maps out.
    pub world: PathBuf,
}

/// A name for files: lower case letters, digits and dashes (`level` when none is left).
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-');
    if out.is_empty() {
        "level".into()
    } else {
        out.chars().take(40).collect()
    }
}

/// The file name of a game's tileset picture.
pub fn tileset_file(game: &dyn Game) -> String {
    format!("{}-tiles.png", slug(game.id().as_str()))
}

/// A game's tiles as one row of `TILE`-pixel squares in palette order, each in its colour
/// with a dark rim and its file character, so a designer can tell tiles apart in Tiled.
pub fn tileset_image(game: &dyn Game) -> RgbImage {
    let tiles = game.tiles();
    let mut img = RgbImage::new(TILE * tiles.len().max(1) as u32, TILE);
    for (i, tile) in tiles.iter().enumerate() {
        let left = i as u32 * TILE;
        let rim = tile.rgb.map(|c| c / 2);
        for y in 0..TILE {
            for x in 0..TILE {
                let edge = x == 0 || y == 0 || x == TILE - 1 || y == TILE - 1;
                img.put_pixel(left + x, y, Rgb(if edge { rim } else { tile.rgb }));
            }
        }
        let light = tile.rgb.iter().map(|&c| u32::from(c)).sum::<u32>() > 3 * 128;
        let ink = if light { [20, 20, 24] } else { [235, 235, 240] };
        font::draw(&mut img, left + 6, 5, &tile.ascii.to_string(), ink);
    }
    img
}

fn string_property(name: &str, value: &str) -> Value {
    json!({ "name": name, "type": "string", "value": value })
}

/// The embedded tileset of `game`, its picture at `image` (relative to the map).
fn tileset_json(game: &dyn Game, image: &str) -> Value {
    let tiles = game.tiles();
    let described: Vec<Value> = tiles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({
                "id": i,
                "properties": [
                    string_property("tile", t.name),
                    string_property("char", &t.ascii.to_string()),
                ],
            })
        })
        .collect();
    json!({
        "firstgid": 1,
        "name": game.name(),
        "tilewidth": TILE,
        "tileheight": TILE,
        "tilecount": tiles.len(),
        "columns": tiles.len(),
        "margin": 0,
        "spacing": 0,
        "image": image,
        "imagewidth": TILE * tiles.len() as u32,
        "imageheight": TILE,
        "tiles": described,
    })
}

/// The Tiled map of one level: one tile layer named after the level, the game's tileset
/// embedded, and the level's game, name, tags, figure and verdict as map properties.
///
/// # Errors
/// [`FormatError::UnknownGame`] when the level's game is not registered, a
/// [`FormatError::Refused`] naming the level when a cell is not one of its tiles.
pub fn map_json(level: &Level, note: &SheetNote) -> Result<Value, FormatError> {
    let game = level.game.game()?;
    let rows = crate::game::tile_indices(game, &level.cells)
        .map_err(|e| FormatError::refused(format!("level “{}”: {e}", level.name)))?;
    let height = rows.len();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    if width == 0 || rows.iter().any(|r| r.len() != width) {
        return Err(FormatError::refused(format!(
            "level “{}” is not a rectangle of cells",
            level.name
        )));
    }
    let data: Vec<u32> = rows
        .iter()
        .flat_map(|r| r.iter().map(|&t| u32::from(t) + 1))
        .collect();
    let verdict = match note.pass {
        Some(true) => "passes",
        Some(false) => "fails",
        None => "unknown",
    };
    let mut properties = vec![
        string_property("game", level.game.as_str()),
        string_property("name", &level.name),
        string_property("verdict", verdict),
    ];
    if let Some(figure) = &note.figure {
        properties.push(string_property("figure", figure));
    }
    // One-line tags are labels; a tag of many lines is data a game keeps (a source file's
    // text), not a label for a map property.
    let labels: Vec<&str> = level
        .tags
        .iter()
        .filter(|t| !t.contains('\n'))
        .map(String::as_str)
        .collect();
    if !labels.is_empty() {
        properties.push(string_property("tags", &labels.join(", ")));
    }
    Ok(json!({
        "type": "map",
        "version": "1.10",
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "width": width,
        "height": height,
        "tilewidth": TILE,
        "tileheight": TILE,
        "infinite": false,
        "compressionlevel": -1,
        "nextlayerid": 2,
        "nextobjectid": 1,
        "properties": properties,
        "layers": [{
            "id": 1,
            "name": level.name,
            "type": "tilelayer",
            "x": 0,
            "y": 0,
            "width": width,
            "height": height,
            "opacity": 1,
            "visible": true,
            "data": data,
        }],
        "tilesets": [tileset_json(game, &tileset_file(game))],
    }))
}

fn write_json(path: &Path, value: &Value) -> Result<(), FormatError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| FormatError::encode(path)(&e))?;
    Ok(io::write_new(path, text.as_bytes())?)
}

/// Whether a file of this name is one a Tiled export writes (`NN-name.tmj`,
/// `GAME-tiles.png`, `PACK.world`).
pub fn is_export_file(name: &str) -> bool {
    name.ends_with(".tmj") || name.ends_with("-tiles.png") || name.ends_with(".world")
}

/// Writes the pack as folder `dir`: `NN-name.tmj` per level (`notes` label them, one per
/// level), `GAME-tiles.png` per game and `PACK.world`. The export is written into a fresh
/// hidden folder beside `dir` and swapped in at the end ([`io::export_folder`]), so a reader
/// sees the old export or the new one whole, and no map of an earlier, longer export stays
/// beside the new ones. A `dir` that is a link, a file, a folder of another user or a
/// read-only one, or a folder holding files the export does not write is refused, untouched.
///
/// # Errors
/// A [`FormatError`] naming the file or level, when the folder cannot be made or replaced, a
/// level is not a map of its game, or a file cannot be written.
pub fn export_tmj(
    dir: &Path,
    pack: &Pack,
    notes: &[SheetNote],
) -> Result<TiledExport, FormatError> {
    let kind = io::FolderExport {
        what: "Tiled export",
        owns: is_export_file,
    };
    let written = io::export_folder(dir, kind, |fresh| write_maps(fresh, pack, notes))?;
    let moved = |p: PathBuf| p.file_name().map_or_else(|| p.clone(), |n| dir.join(n));
    Ok(TiledExport {
        maps: written.maps.into_iter().map(moved).collect(),
        tilesets: written.tilesets.into_iter().map(moved).collect(),
        world: moved(written.world),
    })
}

/// Writes every file of the export into the (new, empty) folder `dir`.
fn write_maps(dir: &Path, pack: &Pack, notes: &[SheetNote]) -> Result<TiledExport, FormatError> {
    let mut out = TiledExport::default();
    let mut games: Vec<&'static dyn Game> = Vec::new();
    let mut placed = Vec::new();
    let mut x = 0;
    for (i, level) in pack.levels.iter().enumerate() {
        let note = notes.get(i).cloned().unwrap_or_default();
        let map = map_json(level, &note)?;
        let file = format!(
            "{:02}-{}.tmj",
            i + 1,
            slug(super::name_without_place(&level.name, i + 1))
        );
        let path = dir.join(&file);
        write_json(&path, &map)?;
        io::crash_point("tmj-map");
        let game = level.game.game()?;
        if !games.iter().any(|g| g.id() == game.id()) {
            games.push(game);
        }
        let (w, h) = (
            map["width"].as_u64().unwrap_or(0) as u32 * TILE,
            map["height"].as_u64().unwrap_or(0) as u32 * TILE,
        );
        placed.push(json!({ "fileName": file, "x": x, "y": 0, "width": w, "height": h }));
        x += w + WORLD_GAP * TILE;
        out.maps.push(path);
    }
    for game in games {
        let path = dir.join(tileset_file(game));
        let mut bytes = Vec::new();
        tileset_image(game)
            .write_to(
                &mut std::io::Cursor::new(&mut bytes),
                image::ImageFormat::Png,
            )
            .map_err(|e| FormatError::encode(&path)(&e))?;
        io::write_new(&path, &bytes)?;
        out.tilesets.push(path);
    }
    let world = dir.join(format!("{}.world", slug(&pack.name)));
    write_json(
        &world,
        &json!({ "type": "world", "maps": placed, "onlyShowAdjacentMaps": false }),
    )?;
    out.world = world;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing;

    #[test]
    fn slugs_are_safe_file_names() {
        assert_eq!(slug("Boss Level #3!"), "boss-level-3");
        assert_eq!(slug("///"), "level");
    }

    #[test]
    fn a_map_names_each_cell_by_its_tile() {
        testing::register();
        let mut level = testing::level("a", 9, 11, None);
        level.cells[0] = "#..#.#..#".into();
        let map = map_json(&level, &SheetNote::default()).unwrap();
        assert_eq!(
            (map["width"].as_u64(), map["height"].as_u64()),
            (Some(9), Some(11))
        );
        let data = map["layers"][0]["data"].as_array().unwrap();
        assert_eq!(data.len(), 9 * 11);
        let chars: Vec<String> = map["tilesets"][0]["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["properties"][1]["value"].as_str().unwrap().to_string())
            .collect();
        let first_row: String = data[..9]
            .iter()
            .map(|g| chars[g.as_u64().unwrap() as usize - 1].clone())
            .collect();
        assert_eq!(first_row, level.cells[0]);
    }
}
