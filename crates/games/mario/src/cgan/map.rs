//! The latent-map verification of Fig. 6.9: with the context and the first z value fixed, the
//! second and third z values sweep `[0, 1]` on a grid; each point records how far the raw
//! output and its Matching lie from the empty pattern, and the map counts distinct patterns
//! before Matching (raw rounded to the nearest tile index per cell) and after it.
//!
//! The picture uses one colour scale (blue = near empty, red = far) for both halves, set by
//! the largest distance in either, so the two halves can be compared directly.

use super::model::{generate_batch, Generator};
use super::{distance, round_to_indices, PatLegal, Pattern, CELLS, CONTEXT};
use candle_core::Result;
use image::{ImageResult, Rgb, RgbImage};
use std::collections::HashSet;
use std::path::Path;

/// The sweep's results; point `(i, j)` (i along z₂, j along z₃) is at `j * size + i`.
#[derive(Clone, Debug, PartialEq)]
pub struct LatentMap {
    /// Grid points per axis (101 in the thesis).
    pub size: usize,
    /// The fixed first z value.
    pub first: f32,
    /// Each raw output's Euclidean distance from the empty pattern (normalised).
    pub raw_distance: Vec<f32>,
    /// Each point's matched Pat_legal index.
    pub matched: Vec<usize>,
    /// Each matched pattern's Euclidean distance from the empty pattern.
    pub matched_distance: Vec<f32>,
    /// Distinct raw outputs, each rounded to the nearest tile index per cell.
    pub distinct_raw: usize,
    /// Distinct matched patterns.
    pub distinct_matched: usize,
}

/// The z value of grid step `k` of `size` (0 to 1 inclusive).
fn grid_value(k: usize, size: usize) -> f32 {
    if size <= 1 {
        0.0
    } else {
        k as f32 / (size - 1) as f32
    }
}

/// Sweeps z₂ and z₃ over `[0, 1]` in `size` steps each, z₁ = `first`, after `previous`.
///
/// # Errors
/// A tensor failure.
pub fn latent_map(
    gen: &Generator,
    previous: &[Pattern; CONTEXT],
    first: f32,
    pat: &PatLegal,
    size: usize,
) -> Result<LatentMap> {
    let zs: Vec<[f32; 3]> = (0..size * size)
        .map(|p| {
            [
                first,
                grid_value(p % size, size),
                grid_value(p / size, size),
            ]
        })
        .collect();
    let contexts = vec![*previous; zs.len()];
    let raws = generate_batch(gen, &contexts, &zs)?;
    let empty = [0.0f32; CELLS];
    let mut raw_set = HashSet::new();
    let mut matched_set = HashSet::new();
    let mut map = LatentMap {
        size,
        first,
        raw_distance: Vec::with_capacity(raws.len()),
        matched: Vec::with_capacity(raws.len()),
        matched_distance: Vec::with_capacity(raws.len()),
        distinct_raw: 0,
        distinct_matched: 0,
    };
    for raw in &raws {
        let m = pat.nearest(raw);
        raw_set.insert(round_to_indices(raw));
        matched_set.insert(m);
        map.raw_distance.push(distance(raw, &empty));
        map.matched.push(m);
        map.matched_distance
            .push(pat.normalised().get(m).map_or(0.0, |n| distance(n, &empty)));
    }
    map.distinct_raw = raw_set.len();
    map.distinct_matched = matched_set.len();
    Ok(map)
}

/// Pixels per grid point in the picture.
pub const PIXELS_PER_POINT: u32 = 4;
const GAP: u32 = 12;

/// The map's colour scale: blue (0) → cyan → yellow → red (1).
pub fn heat(t: f32) -> Rgb<u8> {
    let t = t.clamp(0.0, 1.0);
    let stops = [
        [30.0, 40.0, 160.0],
        [40.0, 190.0, 220.0],
        [250.0, 220.0, 50.0],
        [210.0, 30.0, 30.0],
    ];
    let x = t * 3.0;
    let k = (x.floor() as usize).min(2);
    let f = x - k as f32;
    let c = |i: usize| (stops[k][i] + (stops[k + 1][i] - stops[k][i]) * f) as u8;
    Rgb([c(0), c(1), c(2)])
}

/// Draws the map as two heat maps side by side (left: raw output, right: after Matching),
/// x = second z value, y = third z value (0 at the bottom), `PIXELS_PER_POINT` px per point.
///
/// # Errors
/// The PNG cannot be written.
pub fn write_png(map: &LatentMap, path: &Path) -> ImageResult<()> {
    let side = map.size as u32 * PIXELS_PER_POINT;
    let mut img = RgbImage::from_pixel(side * 2 + GAP, side.max(1), Rgb([255, 255, 255]));
    let max = map
        .raw_distance
        .iter()
        .chain(&map.matched_distance)
        .fold(0.0f32, |a, &b| a.max(b))
        .max(f32::EPSILON);
    for (half, values) in [&map.raw_distance, &map.matched_distance]
        .into_iter()
        .enumerate()
    {
        let x0 = half as u32 * (side + GAP);
        for (p, &v) in values.iter().enumerate() {
            let (i, j) = ((p % map.size) as u32, (p / map.size) as u32);
            let colour = heat(v / max);
            let top = side - (j + 1) * PIXELS_PER_POINT;
            for dy in 0..PIXELS_PER_POINT {
                for dx in 0..PIXELS_PER_POINT {
                    img.put_pixel(x0 + i * PIXELS_PER_POINT + dx, top + dy, colour);
                }
            }
        }
    }
    img.save(path)
}
