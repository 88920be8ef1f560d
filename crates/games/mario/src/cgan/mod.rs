//! The conditional GAN that maps a 3-number vector to the next 4-column Mario pattern, given the
//! three patterns before it (rl-quality-diversity §6.4, Table 6.1, Fig. 6.6), with Matching to
//! the legal patterns and the latent-map verification of Fig. 6.9.
//!
//! The pattern type, its normalisation and Pat_legal with Matching are `crate::patterns`';
//! `data` cuts the VGLC levels into training windows, `model` holds the networks, `train` the adversarial loop,
//! `matching` the Pat_legal nearest-pattern search and `map` the latent sweep and its picture.
//!
//! Departures from the thesis (each explained where it is implemented):
//! - Patterns are 14 rows high (the VGLC levels), not 15, so a pattern is 56 values, not 60.
//! - Tiles are the studio's palette indices 0..=18, normalised by dividing by 18.
//! - The CNNs are ours (Fig. 6.7's layer sizes are not in the text we have): two strided 3 × 3
//!   convolutions and one dense layer each, small enough to train in minutes on a 2-core CPU.
//! - Appendix A's four-way duplication with a one-hot position is trained; the studio
//!   generates at the fourth position (the pattern after three).
//! - The learning rate is 2e-4, not Table 6.1's 5e-5 (the same result in a quarter of the
//!   steps), and an optional mode-seeking term (`CganConfig::mode_seeking`) asks two z to give
//!   two patterns.
//! - Dropout is ours, with masks drawn from the seeded [`studio_core::rng::Rng`], and only in the
//!   discriminator; the generator has none.

pub mod data;
pub mod file;
pub mod map;
pub mod model;
pub mod train;

pub use crate::patterns::{normalised as normalise, PatLegal, Pattern, CELLS, ROWS};
pub use data::{CganData, Level};
pub use map::{latent_map, write_png, LatentMap};
pub use model::{generate_batch, generate_raw, Discriminator, Generator};
pub use train::{train, CganConfig, CganProgress};

use crate::tiles::Tile;

/// Columns of a pattern.
pub const COLS: usize = crate::level::PATTERN_COLUMNS;
/// Patterns the generator is conditioned on.
pub const CONTEXT: usize = 3;
/// Dimension of the latent vector z (Table 6.1).
pub const Z_DIM: usize = 3;
/// The largest tile index, which normalises to 1.
pub const MAX_INDEX: f32 = 18.0;

/// The all-`Empty` pattern.
pub const EMPTY_PATTERN: Pattern = [Tile::Empty.index(); CELLS];

/// A raw generator output rounded to the nearest tile index per cell (clamped to 0..=18).
pub fn round_to_indices(raw: &[f32; CELLS]) -> Pattern {
    let mut out = [0u8; CELLS];
    for (o, &r) in out.iter_mut().zip(raw) {
        *o = (r * MAX_INDEX).round().clamp(0.0, MAX_INDEX) as u8;
    }
    out
}

/// Euclidean distance between two normalised patterns.
pub fn distance(a: &[f32; CELLS], b: &[f32; CELLS]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f32>()
        .sqrt()
}

#[cfg(test)]
mod tests;
