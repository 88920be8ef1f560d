//! The corpus's original screenshots behind the blend segments (read at run time from the VGLC
//! folder's `*/Original/`, never copied): each image aligned with its text level, and every
//! segment cell's sprite cut from it and pooled to [`SPRITE_SIDE`] × [`SPRITE_SIDE`] RGB.
//!
//! - **Lode Runner**: `Lode Runner/Original/Level N.png`, 8-pixel tiles inside a border whose
//!   size differs from image to image (269–292 × 208–227 px for a 32 × 22 level of 256 × 176
//!   px), so the offset of the grid is searched.
//! - **Zelda**: `The Legend of Zelda/Original/tloz*.png`, 16-pixel tiles; the image is the text
//!   transposed (the text's rows are the image's columns), rooms 16 × 11 tiles.
//!
//! The **alignment** is the offset whose cells' mean colours vary least within a letter: the
//! residual is the within-letter sum of squares of the cells' mean colours over their total
//! sum of squares (0: every letter one colour; 1: the letters say nothing about colour).

use super::data::{DataError, Segment, Source, SIDE};
use image::RgbImage;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Side of a pooled sprite, in samples.
pub const SPRITE_SIDE: usize = 4;
/// Numbers of a pooled sprite: [`SPRITE_SIDE`]² RGB samples, each 0 to 1.
pub const SPRITE: usize = SPRITE_SIDE * SPRITE_SIDE * 3;
/// A pooled sprite.
pub type Sprite = [f32; SPRITE];

/// The sprites a pixel representation reads (built and used by `pixel_embed`; kept here,
/// beside the sprites, so that the letters' representation can hold one without importing
/// the module that learns from it).
#[derive(Clone, Debug, Default)]
pub struct PixelTiles {
    /// Each own tile's typical sprite (`embed::OWN` order; zeros for a tile never seen).
    pub typical: Vec<Sprite>,
    /// The screenshots' sprites of the segments read at training, by their rows (not saved:
    /// a loaded model uses [`Self::typical`]).
    pub known: HashMap<Vec<String>, Vec<Option<Sprite>>>,
}
/// Lode Runner's tile side in its screenshots, pixels.
pub const LODE_RUNNER_TILE: usize = 8;
/// Zelda's tile side in its screenshots, pixels.
pub const ZELDA_TILE: usize = 16;
/// Rows of blank padding above a Zelda room in its segment ([`super::data::pad_room`]).
const ZELDA_PAD_TOP: usize = 3;
/// A Zelda room's height and width in game orientation (tiles).
const ROOM: (usize, usize) = (11, 16);

/// Where a letter grid lies on its image.
#[derive(Clone, Debug, PartialEq)]
pub struct Alignment {
    /// The image.
    pub image: PathBuf,
    /// Pixels from the image's left edge to the grid's.
    pub left: usize,
    /// Pixels from the image's top edge to the grid's.
    pub top: usize,
    /// Tile side, pixels.
    pub tile: usize,
    /// Within-letter share of the cells' mean-colour variance (0 to 1).
    pub residual: f64,
}

/// A summed-area table of an image's RGB values.
struct Integral {
    width: usize,
    sums: Vec<[f64; 3]>,
}

impl Integral {
    fn new(image: &RgbImage) -> Self {
        let (w, h) = (image.width() as usize, image.height() as usize);
        let mut sums = vec![[0.0; 3]; (w + 1) * (h + 1)];
        for y in 0..h {
            for x in 0..w {
                let p = image.get_pixel(x as u32, y as u32).0;
                for c in 0..3 {
                    sums[(y + 1) * (w + 1) + x + 1][c] = f64::from(p[c])
                        + sums[y * (w + 1) + x + 1][c]
                        + sums[(y + 1) * (w + 1) + x][c]
                        - sums[y * (w + 1) + x][c];
                }
            }
        }
        Self { width: w, sums }
    }

    /// Mean colour of the `side` × `side` square at (x, y).
    fn mean(&self, x: usize, y: usize, side: usize) -> [f64; 3] {
        let w = self.width + 1;
        let at = |x: usize, y: usize| self.sums[y * w + x];
        let (a, b, c, d) = (
            at(x, y),
            at(x + side, y),
            at(x, y + side),
            at(x + side, y + side),
        );
        let n = (side * side) as f64;
        [0, 1, 2].map(|k| (d[k] - b[k] - c[k] + a[k]) / n)
    }
}

/// The within-letter share of the variance of the cells' mean colours, the grid at (left, top).
fn residual(table: &Integral, grid: &[Vec<char>], tile: usize, left: usize, top: usize) -> f64 {
    let mut by_letter: HashMap<char, ([f64; 3], usize)> = HashMap::new();
    let (mut total, mut squares, mut n) = ([0.0; 3], 0.0, 0usize);
    for (y, row) in grid.iter().enumerate() {
        for (x, &letter) in row.iter().enumerate() {
            let c = table.mean(left + x * tile, top + y * tile, tile);
            let entry = by_letter.entry(letter).or_insert(([0.0; 3], 0));
            for k in 0..3 {
                entry.0[k] += c[k];
                total[k] += c[k];
                squares += c[k] * c[k];
            }
            entry.1 += 1;
            n += 1;
        }
    }
    let norm = |v: [f64; 3]| v.iter().map(|x| x * x).sum::<f64>();
    let between_letters: f64 = by_letter.values().map(|(s, k)| norm(*s) / *k as f64).sum();
    let all = squares - norm(total) / n.max(1) as f64;
    if all <= 1e-9 {
        return 1.0;
    }
    ((squares - between_letters) / all).clamp(0.0, 1.0)
}

/// The offset of `grid` (rows of letters in the image's orientation) on `image` with tiles of
/// `tile` pixels that minimises the within-letter colour residual; `None` when the grid does
/// not fit on the image.
pub fn align(image: &RgbImage, grid: &[Vec<char>], tile: usize) -> Option<(usize, usize, f64)> {
    let rows = grid.len();
    let cols = grid.first().map_or(0, Vec::len);
    let (w, h) = (image.width() as usize, image.height() as usize);
    if rows == 0 || cols == 0 || cols * tile > w || rows * tile > h {
        return None;
    }
    let table = Integral::new(image);
    let mut best: Option<(usize, usize, f64)> = None;
    for top in 0..=h - rows * tile {
        for left in 0..=w - cols * tile {
            let r = residual(&table, grid, tile, left, top);
            if best.is_none_or(|b| r < b.2) {
                best = Some((left, top, r));
            }
        }
    }
    best
}

/// The sprite of the tile at pixel (x, y), pooled to [`SPRITE_SIDE`]² RGB samples in 0–1.
pub fn sprite(image: &RgbImage, x: usize, y: usize, tile: usize) -> Sprite {
    let step = (tile / SPRITE_SIDE).max(1);
    let mut out = [0.0f32; SPRITE];
    for sy in 0..SPRITE_SIDE {
        for sx in 0..SPRITE_SIDE {
            let mut sum = [0.0f32; 3];
            for dy in 0..step {
                for dx in 0..step {
                    let px = (x + sx * step + dx).min(image.width() as usize - 1);
                    let py = (y + sy * step + dy).min(image.height() as usize - 1);
                    let p = image.get_pixel(px as u32, py as u32).0;
                    for c in 0..3 {
                        sum[c] += f32::from(p[c]);
                    }
                }
            }
            for c in 0..3 {
                out[(sy * SPRITE_SIDE + sx) * 3 + c] = sum[c] / (step * step) as f32 / 255.0;
            }
        }
    }
    out
}

/// Every cell's sprite of the segments read, by segment name (`None`: a cell with no picture,
/// the blank padding of a Zelda room), and the alignment of each image used.
#[derive(Clone, Debug, Default)]
pub struct Pictures {
    /// 256 sprites a segment, row-major, by segment name.
    pub sprites: HashMap<String, Vec<Option<Sprite>>>,
    /// One per image, in the order read.
    pub alignments: Vec<Alignment>,
}

fn read_image(path: &Path) -> Result<RgbImage, DataError> {
    let image = image::ImageReader::open(path)
        .map_err(|e| DataError::Read {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?
        .decode()
        .map_err(|e| DataError::Read {
            path: path.to_path_buf(),
            reason: format!("not a readable image: {e}"),
        })?;
    Ok(image.to_rgb8())
}

fn read_grid(path: &Path) -> Result<Vec<Vec<char>>, DataError> {
    let text = studio_core::io::read_text(path).map_err(|e| DataError::Read {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    Ok(text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .map(|l| l.chars().collect())
        .collect())
}

/// Where a segment lies in its level: the level file's stem, and the text (row, column) of
/// the segment cell (x, y), `None` for a cell outside the level (Zelda's padding).
type Locate = Box<dyn Fn(usize, usize) -> Option<(usize, usize)>>;

/// Parses a segment's name ([`super::data`]'s "Level 12 top-left", "tloz3_1 room 2,4").
fn locate(segment: &Segment) -> Option<(String, Locate)> {
    match segment.source {
        Source::LodeRunner => {
            let (stem, place) = segment.name.rsplit_once(' ')?;
            let (vertical, horizontal) = place.split_once('-')?;
            let top = match vertical {
                "top" => 0,
                "bottom" => 22 - SIDE,
                _ => return None,
            };
            let left = match horizontal {
                "left" => 0,
                "right" => 32 - SIDE,
                _ => return None,
            };
            Some((
                stem.to_string(),
                Box::new(move |x, y| Some((top + y, left + x))),
            ))
        }
        Source::Zelda => {
            let (stem, room) = segment.name.split_once(" room ")?;
            let (rx, ry) = room.split_once(',')?;
            let (rx, ry): (usize, usize) = (rx.parse().ok()?, ry.parse().ok()?);
            Some((
                stem.to_string(),
                Box::new(move |x, y| {
                    let y = y.checked_sub(ZELDA_PAD_TOP).filter(|&y| y < ROOM.0)?;
                    // Text row = the room's x, text column = its y (transposed).
                    Some((ry * ROOM.1 + x, rx * ROOM.0 + y))
                }),
            ))
        }
    }
}

/// Reads the screenshots behind `segments` from the VGLC folder `dir` (its `Lode
/// Runner/Original` and `The Legend of Zelda/Original`, beside the `Processed` text), aligns
/// each with its text level and cuts every cell's sprite.
///
/// # Errors
/// A missing or unreadable image or text, a segment name that does not say where it was cut,
/// or an image its text does not fit on, naming the file.
pub fn load(dir: &Path, segments: &[Segment]) -> Result<Pictures, DataError> {
    let mut pictures = Pictures::default();
    let mut images: HashMap<(Source, String), (RgbImage, Alignment)> = HashMap::new();
    for segment in segments {
        let (stem, place) = locate(segment).ok_or_else(|| DataError::Read {
            path: dir.to_path_buf(),
            reason: format!(
                "segment {:?} does not say which level and place it was cut from",
                segment.name
            ),
        })?;
        let key = (segment.source, stem.clone());
        if !images.contains_key(&key) {
            let (folder, tile) = match segment.source {
                Source::LodeRunner => ("Lode Runner", LODE_RUNNER_TILE),
                Source::Zelda => ("The Legend of Zelda", ZELDA_TILE),
            };
            let game = dir.join(folder);
            let path = game.join("Original").join(format!("{stem}.png"));
            let text = read_grid(&game.join("Processed").join(format!("{stem}.txt")))?;
            let image = read_image(&path)?;
            let grid = match segment.source {
                Source::LodeRunner => text,
                // The image's row Y is the text's column Y.
                Source::Zelda => {
                    let cols = text.first().map_or(0, Vec::len);
                    (0..cols)
                        .map(|y| {
                            text.iter()
                                .map(|r| r.get(y).copied().unwrap_or('-'))
                                .collect()
                        })
                        .collect()
                }
            };
            let (left, top, residual) =
                align(&image, &grid, tile).ok_or_else(|| DataError::Read {
                    path: path.clone(),
                    reason: format!(
                        "{} × {} px cannot hold its level of {} × {} tiles of {tile} px",
                        image.width(),
                        image.height(),
                        grid.first().map_or(0, Vec::len),
                        grid.len()
                    ),
                })?;
            let alignment = Alignment {
                image: path,
                left,
                top,
                tile,
                residual,
            };
            pictures.alignments.push(alignment.clone());
            images.insert(key.clone(), (image, alignment));
        }
        let (image, a) = &images[&key];
        let mut cells = Vec::with_capacity(SIDE * SIDE);
        for y in 0..SIDE {
            for x in 0..SIDE {
                cells.push(place(x, y).map(|(row, col)| {
                    // Lode Runner: text (row, col) is image (col, row); Zelda: transposed.
                    let (px, py) = match segment.source {
                        Source::LodeRunner => (col, row),
                        Source::Zelda => (row, col),
                    };
                    sprite(image, a.left + px * a.tile, a.top + py * a.tile, a.tile)
                }));
            }
        }
        pictures.sprites.insert(segment.name.clone(), cells);
    }
    Ok(pictures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data;

    #[test]
    fn a_grid_drawn_at_a_known_offset_is_found_there() {
        // Three letters, each one colour, drawn at (5, 3) on a grey image with 4-px tiles.
        let grid: Vec<Vec<char>> = ["ab.a", ".ba.", "aa.b"]
            .iter()
            .map(|r| r.chars().collect())
            .collect();
        let colour = |c: char| match c {
            'a' => [200, 30, 30],
            'b' => [30, 30, 200],
            _ => [0, 0, 0],
        };
        let mut image = RgbImage::from_pixel(30, 20, image::Rgb([90, 90, 90]));
        for (y, row) in grid.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                for dy in 0..4 {
                    for dx in 0..4 {
                        let p = image::Rgb(colour(c));
                        image.put_pixel((5 + 4 * x + dx) as u32, (3 + 4 * y + dy) as u32, p);
                    }
                }
            }
        }
        let (left, top, residual) = align(&image, &grid, 4).unwrap();
        assert_eq!((left, top), (5, 3));
        assert!(residual < 1e-9, "{residual}");
        // Off by a tile, the letters no longer tell the colours.
        let table = Integral::new(&image);
        assert!(super::residual(&table, &grid, 4, 9, 3) > 0.3);
        // The pooled sprite of the first cell is its letter's colour.
        let s = sprite(&image, 5, 3, 4);
        assert!((s[0] - 200.0 / 255.0).abs() < 1e-6 && (s[2] - 30.0 / 255.0).abs() < 1e-6);
        // A grid larger than its image is refused.
        assert!(align(&RgbImage::new(8, 8), &grid, 4).is_none());
    }

    #[test]
    fn the_screenshots_line_up_with_the_text_levels() {
        let dir = Path::new(studio_core::datasets::DEFAULT_DIR);
        if !dir.join("Lode Runner").join("Original").is_dir() {
            println!(
                "skipped: the VGLC screenshots are not under {}",
                dir.display()
            );
            return;
        }
        let segments = data::load(dir).unwrap();
        let pictures = load(dir, &segments).unwrap();
        assert_eq!(pictures.alignments.len(), 150 + 18);
        for game in ["Lode Runner", "Zelda"] {
            let r: Vec<&Alignment> = pictures
                .alignments
                .iter()
                .filter(|a| a.image.to_string_lossy().contains(game))
                .collect();
            let worst = r
                .iter()
                .max_by(|a, b| a.residual.total_cmp(&b.residual))
                .unwrap();
            let mean = r.iter().map(|a| a.residual).sum::<f64>() / r.len() as f64;
            println!(
                "{game}: {} images, residual mean {mean:.3}, worst {:.3} ({}, grid at {}, {})",
                r.len(),
                worst.residual,
                worst.image.display(),
                worst.left,
                worst.top
            );
        }
        // Per own tile: the mean colour of its sprites and their spread.
        let mut by_tile: HashMap<(Source, char), Vec<[f32; 3]>> = HashMap::new();
        for s in &segments {
            for (sprite, letter) in pictures.sprites[&s.name]
                .iter()
                .zip(s.rows.iter().flat_map(|r| r.chars()))
            {
                if let Some(sprite) = sprite {
                    let mut c = [0.0f32; 3];
                    for (k, v) in sprite.iter().enumerate() {
                        c[k % 3] += v / (SPRITE / 3) as f32;
                    }
                    by_tile.entry((s.source, letter)).or_default().push(c);
                }
            }
        }
        let mut spreads = Vec::new();
        let mut keys: Vec<_> = by_tile.keys().copied().collect();
        keys.sort_by_key(|k| (k.0 == Source::Zelda, k.1));
        for key in keys {
            let cs = &by_tile[&key];
            let n = cs.len() as f32;
            let mean = [0, 1, 2].map(|k| cs.iter().map(|c| c[k]).sum::<f32>() / n);
            let spread = (cs
                .iter()
                .map(|c| (0..3).map(|k| (c[k] - mean[k]).powi(2)).sum::<f32>())
                .sum::<f32>()
                / n)
                .sqrt();
            println!(
                "{:?} {:?}: {} cells, mean colour {:.2} {:.2} {:.2}, spread {spread:.3}",
                key.0,
                key.1,
                cs.len(),
                mean[0],
                mean[1],
                mean[2]
            );
            spreads.push((key, spread, cs.len()));
        }
        // Every image's letters tell its colours; Lode Runner's sprites are one per letter.
        assert!(pictures.alignments.iter().all(|a| a.residual < 0.15));
        for ((game, letter), spread, n) in spreads {
            if game == Source::LodeRunner {
                assert!(spread < 0.05, "{letter:?}: spread {spread} over {n} cells");
            }
        }
        // One tile off, the first level's letters no longer tell its colours.
        let first = &pictures.alignments[0];
        let image = read_image(&first.image).unwrap();
        let stem = first
            .image
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let text = dir
            .join("Lode Runner/Processed")
            .join(format!("{stem}.txt"));
        let grid = read_grid(&text).unwrap();
        let shifted = super::residual(
            &Integral::new(&image),
            &grid,
            first.tile,
            first
                .left
                .checked_sub(first.tile)
                .unwrap_or(first.left + first.tile),
            first.top,
        );
        println!(
            "{stem}: residual {:.3}, one tile off {shifted:.3}",
            first.residual
        );
        assert!(shifted > 0.3, "{shifted}");
    }
}
