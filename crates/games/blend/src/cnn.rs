//! The convolutional blend VAE (level-blending-learned-representation §III-D1), scaled to two
//! CPU cores.
//!
//! - Encoder: three 4 × 4 convolutions of stride 2 (16 → 8 → 4 → 2 cells a side) with
//!   [`CHANNELS`] filters, a dense layer of [`DENSE`], then μ and log σ² of
//!   [`super::shape::LATENT`] dimensions. The paper: 256, 256 and 128 filters, a dense layer of
//!   1,024 and 512 latent dimensions, batch normalisation after every layer.
//! - Decoder: the mirror image — dense, then three steps of nearest-neighbour upsampling ×2
//!   followed by a 3 × 3 convolution, the last giving the cell's 15 logits (unified) or 16
//!   embedding numbers (learned). Upsampling and a convolution stand in for the paper's
//!   transposed convolutions (the same shapes, without their checkerboard artefacts).
//! - ReLU after every hidden layer; no batch normalisation (at batch 64 on this data it only
//!   slowed training down in our trials of the FC-VAE, and it would need running statistics in
//!   the model file).
//!
//! Inputs and outputs have the FC-VAE's layout (cell-major, `[N, 256·w]` in and `[N, 256, w]`
//! out), so training, decoding and evaluation are shared.

use super::data::SIDE;
use super::shape::{CELLS, LATENT};
use candle_core::{Module, Tensor};
use candle_nn::{conv2d, linear, Conv2d, Conv2dConfig, Linear, VarBuilder};

/// Filters of the three encoder convolutions (the decoder runs them backwards).
pub const CHANNELS: [usize; 3] = [32, 64, 64];
/// Width of the dense layer between the convolutions and the latent space.
pub const DENSE: usize = 256;
/// Cells a side after the three strided convolutions.
const BOTTOM: usize = SIDE / 8;

/// The convolutional VAE.
pub struct CnnVae {
    width: usize,
    enc: [Conv2d; 3],
    dense: Linear,
    mu: Linear,
    logvar: Linear,
    d_latent: Linear,
    d_dense: Linear,
    dec: [Conv2d; 3],
}

impl CnnVae {
    /// Builds (or loads) the network under `vb`, for `width` numbers a cell.
    ///
    /// # Errors
    /// A missing or misshapen tensor.
    pub fn new(width: usize, vb: VarBuilder) -> candle_core::Result<Self> {
        let strided = Conv2dConfig {
            padding: 1,
            stride: 2,
            ..Default::default()
        };
        let same = Conv2dConfig {
            padding: 1,
            ..Default::default()
        };
        let [c1, c2, c3] = CHANNELS;
        let flat = c3 * BOTTOM * BOTTOM;
        Ok(Self {
            width,
            enc: [
                conv2d(width, c1, 4, strided, vb.pp("c1"))?,
                conv2d(c1, c2, 4, strided, vb.pp("c2"))?,
                conv2d(c2, c3, 4, strided, vb.pp("c3"))?,
            ],
            dense: linear(flat, DENSE, vb.pp("dense"))?,
            mu: linear(DENSE, LATENT, vb.pp("mu"))?,
            logvar: linear(DENSE, LATENT, vb.pp("logvar"))?,
            d_latent: linear(LATENT, DENSE, vb.pp("d_latent"))?,
            d_dense: linear(DENSE, flat, vb.pp("d_dense"))?,
            dec: [
                conv2d(c3, c2, 3, same, vb.pp("u1"))?,
                conv2d(c2, c1, 3, same, vb.pp("u2"))?,
                conv2d(c1, width, 3, same, vb.pp("u3"))?,
            ],
        })
    }

    /// The device its weights are on.
    pub fn device(&self) -> candle_core::Device {
        self.mu.weight().device().clone()
    }

    /// (μ, log σ²) of inputs `[N, 256·w]` (cell-major).
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn encode(&self, x: &Tensor) -> candle_core::Result<(Tensor, Tensor)> {
        let n = x.dim(0)?;
        let mut h = x
            .reshape((n, SIDE, SIDE, self.width))?
            .permute((0, 3, 1, 2))?
            .contiguous()?;
        for conv in &self.enc {
            h = conv.forward(&h)?.relu()?;
        }
        let h = self.dense.forward(&h.flatten_from(1)?)?.relu()?;
        Ok((self.mu.forward(&h)?, self.logvar.forward(&h)?))
    }

    /// Outputs `[N, 256, w]` (logits, or embeddings) of latent points `[N, LATENT]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn decode(&self, z: &Tensor) -> candle_core::Result<Tensor> {
        let n = z.dim(0)?;
        let h = self.d_latent.forward(z)?.relu()?;
        let mut h = self
            .d_dense
            .forward(&h)?
            .relu()?
            .reshape((n, CHANNELS[2], BOTTOM, BOTTOM))?;
        for (i, conv) in self.dec.iter().enumerate() {
            let side = h.dim(2)? * 2;
            h = conv.forward(&h.upsample_nearest2d(side, side)?)?;
            if i + 1 < self.dec.len() {
                h = h.relu()?;
            }
        }
        h.permute((0, 2, 3, 1))?.reshape((n, CELLS, self.width))
    }
}
