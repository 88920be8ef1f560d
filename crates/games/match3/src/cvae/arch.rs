//! The conditional VAE network of SPEC §3 in candle: encoder (3 convolutions → μ, log σ²),
//! decoder (linear → 3 transposed convolutions) and the symmetry-masked loss.

use super::error::Result;
use crate::layout::{CANVAS_HEIGHT, CANVAS_WIDTH};
use candle_core::{DType, Tensor, D};
use candle_nn::{
    conv2d, conv_transpose2d, linear, Conv2d, Conv2dConfig, ConvTranspose2d, ConvTranspose2dConfig,
    Linear, Module, VarBuilder,
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Number of cell classes (GAP, BLOCK, PLAYFIELD): the decoder's `K`.
pub const CLASSES: usize = 3;
/// Dimensions of the latent space.
pub const LATENT: usize = 5;
/// Encoder filters, layer by layer (the decoder mirrors them).
pub const FILTERS: [usize; 3] = [16, 32, 64];
/// Convolution kernel size.
pub const KERNEL: usize = 3;
/// Width of the width one-hot (4..=9).
pub const WIDTH_CLASSES: usize = 6;
/// Width of the height one-hot (4..=11).
pub const HEIGHT_CLASSES: usize = 8;
/// Height × width of the encoder's last feature map (valid 3×3 convolutions shrink by 2).
pub const INNER: (usize, usize) = (CANVAS_HEIGHT - 6, CANVAS_WIDTH - 6);

/// Which of the two models: with or without the difficulty (moves) condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ModelKind {
    /// Conditioned on size and the bots' median moves.
    Avalon,
    /// Conditioned on size only.
    Vanilla,
}

impl ModelKind {
    /// The lowercase name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Avalon => "avalon",
            ModelKind::Vanilla => "vanilla",
        }
    }

    /// True when the model takes the moves condition.
    pub fn uses_moves(self) -> bool {
        self == ModelKind::Avalon
    }

    /// Encoder input channels: 3 one-hot planes, the size mask, and the moves plane (Avalon).
    pub fn encoder_channels(self) -> usize {
        CLASSES + 1 + usize::from(self.uses_moves())
    }

    /// Decoder input: `[z, one-hot W, one-hot H, d]` (no `d` for Vanilla).
    pub fn decoder_inputs(self) -> usize {
        LATENT + WIDTH_CLASSES + HEIGHT_CLASSES + usize::from(self.uses_moves())
    }
}

impl fmt::Display for ModelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ModelKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "avalon" => Ok(ModelKind::Avalon),
            "vanilla" => Ok(ModelKind::Vanilla),
            other => Err(format!("unknown model kind {other:?} (avalon, vanilla)")),
        }
    }
}

/// The encoder: `[N, C, 11, 9]` → (μ, log σ²), each `[N, 5]`.
#[derive(Debug)]
pub struct Encoder {
    enc1: Conv2d,
    enc2: Conv2d,
    enc3: Conv2d,
    mu: Linear,
    logvar: Linear,
}

impl Encoder {
    /// Builds (or loads) the encoder's layers under `vb`.
    ///
    /// # Errors
    /// A missing or misshapen tensor in `vb`.
    pub fn new(kind: ModelKind, vb: VarBuilder) -> Result<Self> {
        let cfg = Conv2dConfig::default();
        let flat = FILTERS[2] * INNER.0 * INNER.1;
        Ok(Self {
            enc1: conv2d(
                kind.encoder_channels(),
                FILTERS[0],
                KERNEL,
                cfg,
                vb.pp("enc1"),
            )?,
            enc2: conv2d(FILTERS[0], FILTERS[1], KERNEL, cfg, vb.pp("enc2"))?,
            enc3: conv2d(FILTERS[1], FILTERS[2], KERNEL, cfg, vb.pp("enc3"))?,
            mu: linear(flat, LATENT, vb.pp("enc_mu"))?,
            logvar: linear(flat, LATENT, vb.pp("enc_logvar"))?,
        })
    }

    /// The latent distribution of encoder inputs `x` (`[N, C, 11, 9]`).
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn forward(&self, x: &Tensor) -> Result<(Tensor, Tensor)> {
        let h = self.enc1.forward(x)?.relu()?;
        let h = self.enc2.forward(&h)?.relu()?;
        let h = self.enc3.forward(&h)?.relu()?.flatten_from(1)?;
        Ok((self.mu.forward(&h)?, self.logvar.forward(&h)?))
    }
}

/// The decoder: `[N, 5 + 6 + 8 (+1)]` → logits `[N, 3, 11, 9]`.
///
/// "Linear to 64" is read as 64 feature maps on the encoder's last 5×3 grid, so that three
/// unpadded 3×3 transposed convolutions mirror the encoder back to 11×9.
#[derive(Debug)]
pub struct Decoder {
    dec_fc: Linear,
    dec1: ConvTranspose2d,
    dec2: ConvTranspose2d,
    dec3: ConvTranspose2d,
}

impl Decoder {
    /// Builds (or loads) the decoder's layers under `vb`.
    ///
    /// # Errors
    /// A missing or misshapen tensor in `vb`.
    pub fn new(kind: ModelKind, vb: VarBuilder) -> Result<Self> {
        let cfg = ConvTranspose2dConfig::default();
        Ok(Self {
            dec_fc: linear(
                kind.decoder_inputs(),
                FILTERS[2] * INNER.0 * INNER.1,
                vb.pp("dec_fc"),
            )?,
            dec1: conv_transpose2d(FILTERS[2], FILTERS[1], KERNEL, cfg, vb.pp("dec1"))?,
            dec2: conv_transpose2d(FILTERS[1], FILTERS[0], KERNEL, cfg, vb.pp("dec2"))?,
            dec3: conv_transpose2d(FILTERS[0], CLASSES, KERNEL, cfg, vb.pp("dec3"))?,
        })
    }

    /// The layers, for copying into the fast CPU decoder: (linear, transposed convolutions).
    pub fn parts(&self) -> (&Linear, [&ConvTranspose2d; 3]) {
        (&self.dec_fc, [&self.dec1, &self.dec2, &self.dec3])
    }

    /// Per-cell class logits for decoder inputs `z_hat` (`[N, decoder_inputs]`).
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn forward(&self, z_hat: &Tensor) -> Result<Tensor> {
        let n = z_hat.dim(0)?;
        let h = self
            .dec_fc
            .forward(z_hat)?
            .relu()?
            .reshape((n, FILTERS[2], INNER.0, INNER.1))?;
        let h = self.dec1.forward(&h)?.relu()?;
        let h = self.dec2.forward(&h)?.relu()?;
        Ok(self.dec3.forward(&h)?)
    }
}

/// The whole conditional VAE (Avalon or Vanilla).
#[derive(Debug)]
pub struct Cvae {
    kind: ModelKind,
    encoder: Encoder,
    decoder: Decoder,
}

/// The terms of one loss evaluation, each averaged over the batch.
#[derive(Debug)]
pub struct Loss {
    /// Cross-entropy + KL: what is minimised.
    pub total: Tensor,
    /// Masked cross-entropy summed over the kept cells.
    pub reconstruction: Tensor,
    /// KL divergence to the standard normal.
    pub kl: Tensor,
}

impl Cvae {
    /// Builds (or loads) the network under `vb`; the layer names are the safetensors keys.
    ///
    /// # Errors
    /// A missing or misshapen tensor in `vb`.
    pub fn new(kind: ModelKind, vb: VarBuilder) -> Result<Self> {
        Ok(Self {
            kind,
            encoder: Encoder::new(kind, vb.clone())?,
            decoder: Decoder::new(kind, vb)?,
        })
    }

    /// Avalon or Vanilla.
    pub fn kind(&self) -> ModelKind {
        self.kind
    }

    /// (μ, log σ²) of encoder inputs.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn encode(&self, x: &Tensor) -> Result<(Tensor, Tensor)> {
        self.encoder.forward(x)
    }

    /// The decoder.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Logits of decoder inputs `[z, conditions]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn decode(&self, z_hat: &Tensor) -> Result<Tensor> {
        self.decoder.forward(z_hat)
    }

    /// One training pass: encode `x`, sample `z = μ + σ·eps`, decode with `conditions`
    /// (`[N, decoder_inputs − 5]`); returns (logits, μ, log σ²).
    ///
    /// # Errors
    /// Tensors of the wrong shape.
    pub fn forward(
        &self,
        x: &Tensor,
        conditions: &Tensor,
        eps: &Tensor,
    ) -> Result<(Tensor, Tensor, Tensor)> {
        let (mu, logvar) = self.encode(x)?;
        let z = (&mu + (logvar.affine(0.5, 0.0)?.exp()? * eps)?)?;
        let z_hat = Tensor::cat(&[&z, conditions], 1)?;
        Ok((self.decode(&z_hat)?, mu, logvar))
    }
}

/// Cross-entropy of `logits` (`[N, 3, 11, 9]`) against one-hot `target` of the same shape,
/// counted only where `mask` (`[N, 11, 9]`) is 1, summed per level; plus the KL term.
///
/// # Errors
/// Tensors of mismatched shapes.
pub fn loss(
    logits: &Tensor,
    target: &Tensor,
    mask: &Tensor,
    mu: &Tensor,
    logvar: &Tensor,
) -> Result<Loss> {
    let n = logits.dim(0)? as f64;
    let log_p = candle_nn::ops::log_softmax(logits, 1)?;
    let cell_ce = (log_p * target)?.sum(1)?.neg()?;
    let reconstruction = (cell_ce * mask)?.sum_all()?.affine(1.0 / n, 0.0)?;
    let kl_terms = ((logvar.affine(1.0, 1.0)? - mu.sqr()?)? - logvar.exp()?)?;
    let kl = kl_terms.sum(D::Minus1)?.sum_all()?.affine(-0.5 / n, 0.0)?;
    let total = (&reconstruction + &kl)?;
    Ok(Loss {
        total,
        reconstruction,
        kl,
    })
}

pub use studio_ml::device;

/// The dtype of every tensor (f32 everywhere).
pub const DTYPE: DType = DType::F32;
