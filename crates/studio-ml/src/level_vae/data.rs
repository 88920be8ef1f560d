//! A pack's levels as the level VAE reads them: each cell an index into the game's palette,
//! laid top-left in the model's grid, with a mask that is 1 on the level's own cells and 0 on
//! the padding (so padding never counts in the loss), and the conditions (size, and perhaps
//! one figure of the game's analysis) as numbers in 0..1.

use candle_core::{Device, Tensor};

/// One level (or window of a side-scroller) ready for the network.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Palette index of every cell of the model's grid, row-major (0 on padding).
    pub tiles: Vec<u8>,
    /// 1 on the level's cells, 0 on padding.
    pub mask: Vec<f32>,
    /// The level's width and height.
    pub size: (usize, usize),
    /// The conditioning figure's value, when the model takes one.
    pub figure: Option<f64>,
}

/// Why rows are not a level this model can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// A character the palette does not have.
    #[error("row {row}, column {column}: {ch:?} is not one of the model's tiles")]
    UnknownTile {
        /// Row, from 1.
        row: usize,
        /// Column, from 1.
        column: usize,
        /// The character.
        ch: char,
    },
    /// Larger than the model's grid.
    #[error("a {width}x{height} level does not fit the model's {max_w}x{max_h} grid")]
    TooLarge {
        /// The level's width.
        width: usize,
        /// The level's height.
        height: usize,
        /// The model's width.
        max_w: usize,
        /// The model's height.
        max_h: usize,
    },
    /// No rows, or rows of different lengths.
    #[error("the level has no cells, or rows of different lengths")]
    Ragged,
}

/// The width and height of rows, when they form a rectangle.
pub fn size_of(rows: &[String]) -> Option<(usize, usize)> {
    let width = rows.first()?.chars().count();
    (width > 0 && rows.iter().all(|r| r.chars().count() == width)).then_some((width, rows.len()))
}

/// Reads `rows` into the model's `grid` (width, height) with the palette `palette`.
///
/// # Errors
/// [`DataError`]: a tile the palette lacks, a level too large, or ragged rows.
pub fn encode(
    rows: &[String],
    palette: &[char],
    grid: (usize, usize),
    figure: Option<f64>,
) -> Result<Example, DataError> {
    let (width, height) = size_of(rows).ok_or(DataError::Ragged)?;
    if width > grid.0 || height > grid.1 {
        return Err(DataError::TooLarge {
            width,
            height,
            max_w: grid.0,
            max_h: grid.1,
        });
    }
    let mut tiles = vec![0u8; grid.0 * grid.1];
    let mut mask = vec![0f32; grid.0 * grid.1];
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let tile = palette
                .iter()
                .position(|&c| c == ch)
                .ok_or(DataError::UnknownTile {
                    row: y + 1,
                    column: x + 1,
                    ch,
                })?;
            tiles[y * grid.0 + x] = tile as u8;
            mask[y * grid.0 + x] = 1.0;
        }
    }
    Ok(Example {
        tiles,
        mask,
        size: (width, height),
        figure,
    })
}

/// The windows `width` columns wide of a side-scroller's rows, every `stride` columns (the
/// last window ends at the level's end); a level narrower than a window is one window.
pub fn windows(rows: &[String], width: usize, stride: usize) -> Vec<Vec<String>> {
    let Some((w, _)) = size_of(rows) else {
        return Vec::new();
    };
    if w <= width {
        return vec![rows.to_vec()];
    }
    let mut starts: Vec<usize> = (0..=w - width).step_by(stride.max(1)).collect();
    if starts.last() != Some(&(w - width)) {
        starts.push(w - width);
    }
    starts
        .into_iter()
        .map(|x0| {
            rows.iter()
                .map(|r| r.chars().skip(x0).take(width).collect())
                .collect()
        })
        .collect()
}

/// The conditions of a level as numbers in 0..1: width and height over the grid's, then the
/// figure scaled by `figure_range` when the model takes one.
pub fn conditions(
    size: (usize, usize),
    grid: (usize, usize),
    figure: Option<f64>,
    figure_range: Option<(f64, f64)>,
) -> Vec<f32> {
    let mut c = vec![
        size.0 as f32 / grid.0.max(1) as f32,
        size.1 as f32 / grid.1.max(1) as f32,
    ];
    if let Some((lo, hi)) = figure_range {
        let v = figure.unwrap_or((lo + hi) / 2.0);
        let span = (hi - lo).max(1e-9);
        c.push(((v - lo) / span).clamp(0.0, 1.0) as f32);
    }
    c
}

/// A batch as tensors: inputs `[N, cells·tiles]` (one-hot, zero on padding), targets
/// `[N, cells, tiles]` (one-hot), mask `[N, cells]`, conditions `[N, C]`.
pub struct Batch {
    /// One-hot inputs.
    pub x: Tensor,
    /// One-hot targets, cell by cell.
    pub target: Tensor,
    /// 1 on level cells.
    pub mask: Tensor,
    /// Conditions.
    pub cond: Tensor,
}

/// The tensors of `examples` for a model of `tiles` tiles over `grid`.
///
/// # Errors
/// A tensor failure.
pub fn batch(
    examples: &[&Example],
    tiles: usize,
    grid: (usize, usize),
    figure_range: Option<(f64, f64)>,
    device: &Device,
) -> candle_core::Result<Batch> {
    let n = examples.len();
    let cells = grid.0 * grid.1;
    let mut onehot = vec![0f32; n * cells * tiles];
    let mut target = vec![0f32; n * cells * tiles];
    let mut mask = Vec::with_capacity(n * cells);
    let mut cond = Vec::new();
    for (i, e) in examples.iter().enumerate() {
        for (c, (&t, &m)) in e.tiles.iter().zip(&e.mask).enumerate() {
            let at = (i * cells + c) * tiles + t as usize;
            target[at] = 1.0;
            if m > 0.0 {
                onehot[at] = 1.0;
            }
        }
        mask.extend_from_slice(&e.mask);
        cond.extend(conditions(e.size, grid, e.figure, figure_range));
    }
    let c = cond.len() / n.max(1);
    Ok(Batch {
        x: Tensor::from_vec(onehot, (n, cells * tiles), device)?,
        target: Tensor::from_vec(target, (n, cells, tiles), device)?,
        mask: Tensor::from_vec(mask, (n, cells), device)?,
        cond: Tensor::from_vec(cond, (n, c), device)?,
    })
}

/// The FNV-1a hash of a level's rows (how the sidecar remembers training levels, to tell a
/// copy).
pub fn rows_hash(rows: &[String]) -> String {
    studio_core::io::fnv1a_hex(rows.join("\n").as_bytes())
}

/// Each level's share of every palette tile: the vector the E-distance compares (a
/// game-free stand-in for the blend lab's tile metrics).
pub fn tile_shares(rows: &[String], palette: &[char]) -> Vec<f64> {
    let mut counts = vec![0f64; palette.len()];
    let mut n = 0f64;
    for ch in rows.iter().flat_map(|r| r.chars()) {
        if let Some(i) = palette.iter().position(|&c| c == ch) {
            counts[i] += 1.0;
        }
        n += 1.0;
    }
    counts.iter().map(|c| c / n.max(1.0)).collect()
}

/// The energy distance between two sets of vectors (Euclidean):
/// 2·E‖X − Y‖ − E‖X − X′‖ − E‖Y − Y′‖, each over all ordered pairs (a point with itself
/// counts, at distance 0), as the blend lab computes it.
pub fn energy_distance(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let dist = |x: &[f64], y: &[f64]| {
        x.iter()
            .zip(y)
            .map(|(p, q)| (p - q).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    let mean = |s: &[Vec<f64>], t: &[Vec<f64>]| {
        s.iter()
            .map(|x| t.iter().map(|y| dist(x, y)).sum::<f64>())
            .sum::<f64>()
            / (s.len() * t.len()) as f64
    };
    2.0 * mean(a, b) - mean(a, a) - mean(b, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_small_level_is_padded_and_the_padding_is_masked_out() {
        let e = encode(&rows("ab\nba"), &['a', 'b'], (3, 3), None).unwrap();
        assert_eq!(e.tiles, [0, 1, 0, 1, 0, 0, 0, 0, 0]);
        assert_eq!(e.mask, [1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(e.size, (2, 2));
        assert!(matches!(
            encode(&rows("ac"), &['a', 'b'], (3, 3), None),
            Err(DataError::UnknownTile { column: 2, .. })
        ));
        assert!(matches!(
            encode(&rows("aaaa"), &['a'], (3, 3), None),
            Err(DataError::TooLarge { .. })
        ));
    }

    #[test]
    fn windows_cover_the_level_to_its_last_column() {
        let w = windows(&rows("abcdefg\nABCDEFG"), 3, 2);
        let firsts: Vec<&str> = w.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(firsts, ["abc", "cde", "efg"]);
        assert_eq!(windows(&rows("ab"), 3, 2), vec![rows("ab")]);
    }

    #[test]
    fn a_set_is_at_energy_distance_zero_from_itself() {
        let a = vec![vec![0.0, 1.0], vec![1.0, 0.0]];
        assert!(energy_distance(&a, &a).abs() < 1e-12);
        let b = vec![vec![5.0, 5.0]];
        assert!(energy_distance(&a, &b) > 1.0);
        assert_eq!(
            tile_shares(&rows("aab"), &['a', 'b']),
            [2.0 / 3.0, 1.0 / 3.0]
        );
    }
}
