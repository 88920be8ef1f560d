//! What the shape of every blend VAE shares, the fully connected and the convolutional alike:
//! the cells of a segment and the width of the latent space.

use super::level::SIDE;

/// Cells in a segment.
pub const CELLS: usize = SIDE * SIDE;
/// Latent dimensions.
pub const LATENT: usize = 32;
