//! The blend VAEs (level-blending-learned-representation §III-D–E), scaled to two CPU cores:
//! the fully connected VAE on the unified one-hot representation (`vglc-fc`) and on the
//! learned tile representation (`cte-fc`, [`super::embed`]); the convolutional one
//! ([`super::cnn`]) on each (`vglc-cnn`, `cte-cnn`). Both families share this file's loss,
//! training loop, decoding and model files.
//!
//! - Input: a segment as 256 cells × 15 tiles one-hot (Table I order), or 256 cells × 16
//!   learned numbers.
//! - FC encoder 256·w → [`HIDDEN`] (512 → 256) → μ, log σ² of [`LATENT`] dimensions; the
//!   decoder mirrors it back to 256 × w (the paper: 1024 → 512 → 256 → 128 with batch
//!   normalisation; ours is narrower and has none, for this CPU; `train --fc-widths paper`
//!   trains the paper's widths, [`PAPER_HIDDEN`], recorded in the sidecar).
//! - Loss: per-cell cross-entropy (unified) or squared error (learned) summed over the
//!   segment, weighted 0.57 for Lode Runner segments and 0.43 for Zelda ones, × 4; plus the KL
//!   term under cyclic annealing — the run
//!   is cut into 20 cycles; the weight is 0 through the first, then in every later cycle it
//!   rises from 0 to 0.01 over the first half and holds 0.01 over the second (the paper's
//!   200-epoch cycles of a 4,000-epoch run).
//! - Adam (AdamW without decay) at 1e-3 (the paper's 1e-5 needs its 4,000 epochs).
//! - Decoding: argmax per cell (unified), the nearest training tile embedding (learned).
//! - Model selection: with validation segments, the weights of the epoch with the lowest
//!   validation loss (reconstruction from the mean plus the whole KL, the evidence bound's
//!   weight 1) are kept, and a patience may end the run early; nothing is chosen by the
//!   blends' evaluation.

use super::data::{Segment, Source, SIDE};
use super::tiles::LETTERS;
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{linear, Linear, Module, Optimizer, VarBuilder, VarMap};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;
use studio_core::rng::Rng;
use studio_ml::{self as ml, Stamped, WeightsStamp};

pub use super::embed::EMBED_PREFIX;
pub use super::shape::{CELLS, LATENT};

/// Tiles in the unified set.
pub const TILES: usize = LETTERS.len();
/// Hidden widths of the FC-VAE's encoder (the decoder mirrors them): the shipped models'.
pub const HIDDEN: &[usize] = &[512, 256];
/// The paper's FC-VAE widths (§III-B: 1,024, 512, 256 and 128), without its batch
/// normalisation (`train --fc-widths paper`).
pub const PAPER_HIDDEN: &[usize] = &[1024, 512, 256, 128];
/// The architecture name of the unified model's sidecar.
pub const ARCHITECTURE: &str = "blend-fc-vae-unified-v1";
/// The architecture name of the learned-representation model's sidecar.
pub const LEARNED_ARCHITECTURE: &str = "blend-fc-vae-learned-v3";
/// The architecture name of the convolutional unified model's sidecar.
pub const CNN_ARCHITECTURE: &str = "blend-cnn-vae-unified-v1";
/// The architecture name of the convolutional learned-representation model's sidecar.
pub const CNN_LEARNED_ARCHITECTURE: &str = "blend-cnn-vae-learned-v2";

/// The architecture name of the FC model on the representation learned from pixels.
pub const PIXELS_ARCHITECTURE: &str = "blend-fc-vae-pixels-v1";
/// The architecture name of the convolutional model on the representation learned from
/// pixels.
pub const CNN_PIXELS_ARCHITECTURE: &str = "blend-cnn-vae-pixels-v1";

/// The sidecar architecture of a family on the representation learned from pixels.
pub fn pixel_architecture(family: Family) -> &'static str {
    match family {
        Family::Fc => PIXELS_ARCHITECTURE,
        Family::Cnn => CNN_PIXELS_ARCHITECTURE,
    }
}

/// The VAE family: fully connected or convolutional.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// [`FcVae`].
    Fc,
    /// [`super::cnn::CnnVae`].
    Cnn,
}

/// The sidecar architecture of a family on the unified (`learned == false`) or the learned
/// representation.
pub fn architecture(family: Family, learned: bool) -> &'static str {
    match (family, learned) {
        (Family::Fc, false) => ARCHITECTURE,
        (Family::Fc, true) => LEARNED_ARCHITECTURE,
        (Family::Cnn, false) => CNN_ARCHITECTURE,
        (Family::Cnn, true) => CNN_LEARNED_ARCHITECTURE,
    }
}

/// The family and representation of a sidecar architecture this build reads (`true`: a
/// learned representation, from letters or from pixels — [`pixel_architecture`] tells which).
pub fn parse_architecture(name: &str) -> Option<(Family, bool)> {
    if let Some(f) = [Family::Fc, Family::Cnn]
        .into_iter()
        .find(|&f| pixel_architecture(f) == name)
    {
        return Some((f, true));
    }
    [
        (Family::Fc, false),
        (Family::Fc, true),
        (Family::Cnn, false),
        (Family::Cnn, true),
    ]
    .into_iter()
    .find(|&(f, l)| architecture(f, l) == name)
}

/// Either VAE, behind one encode / decode.
pub enum Net {
    /// Fully connected.
    Fc(FcVae),
    /// Convolutional (boxed: its layers make it several times the FC-VAE's size).
    Cnn(Box<super::cnn::CnnVae>),
}

impl Net {
    /// Builds (or loads) a network of `family` under `vb`, for `width` numbers a cell;
    /// `fc_hidden` are the FC-VAE's hidden widths (the CNN-VAE does not read them).
    ///
    /// # Errors
    /// A missing or misshapen tensor.
    pub fn new(
        family: Family,
        width: usize,
        fc_hidden: &[usize],
        vb: VarBuilder,
    ) -> candle_core::Result<Self> {
        Ok(match family {
            Family::Fc => Net::Fc(FcVae::new(width, fc_hidden, vb)?),
            Family::Cnn => Net::Cnn(Box::new(super::cnn::CnnVae::new(width, vb)?)),
        })
    }

    /// (μ, log σ²) of inputs `[N, 256·w]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn encode(&self, x: &Tensor) -> candle_core::Result<(Tensor, Tensor)> {
        match self {
            Net::Fc(m) => m.encode(x),
            Net::Cnn(m) => m.encode(x),
        }
    }

    /// Outputs `[N, 256, w]` of latent points `[N, LATENT]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn decode(&self, z: &Tensor) -> candle_core::Result<Tensor> {
        match self {
            Net::Fc(m) => m.decode(z),
            Net::Cnn(m) => m.decode(z),
        }
    }

    /// The device its weights are on (where its inputs must be made).
    pub fn device(&self) -> Device {
        match self {
            Net::Fc(m) => m.mu.weight().device().clone(),
            Net::Cnn(m) => m.device(),
        }
    }
}

/// How a segment is written for the network.
pub enum Repr<'a> {
    /// Table I one-hot, 15 numbers a cell.
    Unified,
    /// The learned tile embedding, 16 numbers a cell.
    Learned(&'a super::embed::Embedding),
}

impl Repr<'_> {
    /// Numbers per cell.
    pub fn width(&self) -> usize {
        match self {
            Repr::Unified => TILES,
            Repr::Learned(_) => super::embed::EMBED,
        }
    }

    /// A segment's numbers, appended to `out`. `source` is the game the segment was cut from
    /// (`None`: unknown); only the learned representation reads it, to tell a shared letter's
    /// own tile.
    ///
    /// # Errors
    /// A candle error (the learned encoder).
    pub fn encode(
        &self,
        rows: &[String],
        source: Option<Source>,
        out: &mut Vec<f32>,
    ) -> candle_core::Result<()> {
        match self {
            Repr::Unified => one_hot(rows, out),
            Repr::Learned(e) => out.extend(e.encode_segment(rows, source)?),
        }
        Ok(())
    }

    /// Segments from decoder outputs `[N, 256, w]`.
    ///
    /// # Errors
    /// A candle error.
    pub fn decode(&self, out: &Tensor) -> candle_core::Result<Vec<Vec<String>>> {
        match self {
            Repr::Unified => segments_of(out),
            Repr::Learned(e) => Ok(out
                .flatten_from(1)?
                .to_vec2::<f32>()?
                .iter()
                .map(|cells| e.decode_segment(cells))
                .collect()),
        }
    }
}
/// Reconstruction weights of Lode Runner and Zelda segments (600 / 1059, 459 / 1059), and the
/// constant they are multiplied by.
pub const GAME_WEIGHTS: (f64, f64, f64) = (0.57, 0.43, 4.0);
/// The KL weight's ceiling in cyclic annealing.
pub const KL_MAX: f64 = 0.01;

/// A segment as one-hot (cell-major: cell i's tile k at `i * TILES + k`).
pub fn one_hot(rows: &[String], out: &mut Vec<f32>) {
    for row in rows {
        for c in row.chars() {
            let k = LETTERS.iter().position(|&l| l == c).unwrap_or(2);
            out.extend((0..TILES).map(|t| if t == k { 1.0f32 } else { 0.0 }));
        }
    }
}

/// The fully connected VAE: encoder layers `e1`, `e2`, … down the hidden widths, then `mu`
/// and `logvar`; decoder layers `d1`, `d2`, … back up them, then `out`.
pub struct FcVae {
    width: usize,
    encoder: Vec<Linear>,
    mu: Linear,
    logvar: Linear,
    decoder: Vec<Linear>,
    out: Linear,
}

impl FcVae {
    /// Builds (or loads) the network under `vb`, with `hidden` widths (at least one).
    ///
    /// # Errors
    /// A missing or misshapen tensor, or no hidden width.
    pub fn new(width: usize, hidden: &[usize], vb: VarBuilder) -> candle_core::Result<Self> {
        let (Some(&first), Some(&last)) = (hidden.first(), hidden.last()) else {
            return Err(candle_core::Error::Msg(
                "an FC-VAE needs at least one hidden layer".into(),
            ));
        };
        let n = CELLS * width;
        let mut encoder = Vec::with_capacity(hidden.len());
        let mut from = n;
        for (i, &to) in hidden.iter().enumerate() {
            encoder.push(linear(from, to, vb.pp(format!("e{}", i + 1)))?);
            from = to;
        }
        let mut decoder = Vec::with_capacity(hidden.len());
        let mut from = LATENT;
        for (i, &to) in hidden.iter().rev().enumerate() {
            decoder.push(linear(from, to, vb.pp(format!("d{}", i + 1)))?);
            from = to;
        }
        Ok(Self {
            width,
            encoder,
            mu: linear(last, LATENT, vb.pp("mu"))?,
            logvar: linear(last, LATENT, vb.pp("logvar"))?,
            decoder,
            out: linear(first, n, vb.pp("out"))?,
        })
    }

    /// (μ, log σ²) of inputs `[N, 256·w]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn encode(&self, x: &Tensor) -> candle_core::Result<(Tensor, Tensor)> {
        let mut h = x.clone();
        for layer in &self.encoder {
            h = layer.forward(&h)?.relu()?;
        }
        Ok((self.mu.forward(&h)?, self.logvar.forward(&h)?))
    }

    /// Outputs `[N, 256, w]` (logits, or embeddings) of latent points `[N, LATENT]`.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn decode(&self, z: &Tensor) -> candle_core::Result<Tensor> {
        let mut h = z.clone();
        for layer in &self.decoder {
            h = layer.forward(&h)?.relu()?;
        }
        self.out
            .forward(&h)?
            .reshape((z.dim(0)?, CELLS, self.width))
    }
}

/// Segments from logits `[N, 256, 15]`, argmax per cell.
///
/// # Errors
/// A tensor of the wrong shape.
pub fn segments_of(logits: &Tensor) -> candle_core::Result<Vec<Vec<String>>> {
    let idx = logits.argmax(D::Minus1)?.to_vec2::<u32>()?;
    Ok(idx
        .into_iter()
        .map(|cells| {
            cells
                .chunks(SIDE)
                .map(|row| row.iter().map(|&k| LETTERS[k as usize % TILES]).collect())
                .collect()
        })
        .collect())
}

/// The KL weight at `epoch` of `epochs` (cyclic annealing, 20 cycles, the first at 0).
pub fn kl_weight(epoch: usize, epochs: usize) -> f64 {
    let cycle = warm_up_epochs(epochs);
    let (c, t) = (epoch / cycle, epoch % cycle);
    let half = cycle / 2;
    if c == 0 {
        0.0
    } else if t < half {
        KL_MAX * t as f64 / half as f64
    } else {
        KL_MAX
    }
}

/// The epochs of the first annealing cycle, where the KL term is off: the model there is an
/// autoencoder, whose draws from the prior need not decode to anything like a segment.
pub fn warm_up_epochs(epochs: usize) -> usize {
    (epochs / 20).max(2)
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct VaeConfig {
    /// Passes over the training segments.
    pub epochs: usize,
    /// Batch size.
    pub batch: usize,
    /// Learning rate.
    pub learning_rate: f64,
    /// Seed.
    pub seed: u64,
    /// Stop after this many epochs without a new lowest validation loss (0: never stop
    /// early). The weights kept are always those of the lowest validation loss.
    pub patience: usize,
    /// Every [`TRACE_EVERY`] epochs, draw this many blends from the prior and report their
    /// E-distance to the training segments (0: never). A diagnostic: it chooses nothing.
    pub trace: usize,
    /// The FC-VAE's hidden widths ([`HIDDEN`], or the paper's [`PAPER_HIDDEN`]).
    pub fc_hidden: Vec<usize>,
    /// Keep no epoch of the warm-up ([`warm_up_epochs`]): the weights kept are the lowest
    /// validation loss's after it, and the patience counts from the first epoch kept.
    pub after_warm_up: bool,
}

impl VaeConfig {
    /// Defaults for two CPU cores.
    pub fn new(seed: u64) -> Self {
        Self {
            epochs: 400,
            batch: 64,
            learning_rate: 1e-3,
            seed,
            patience: 0,
            trace: 0,
            fc_hidden: HIDDEN.to_vec(),
            after_warm_up: false,
        }
    }
}

/// Epochs between two traced E-distances (see [`VaeConfig::trace`]).
pub const TRACE_EVERY: usize = 10;

/// What a blend VAE's sidecar records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlendSidecar {
    /// [`ARCHITECTURE`] or [`LEARNED_ARCHITECTURE`].
    pub architecture: String,
    /// Latent dimensions.
    pub latent: usize,
    /// Loss per epoch of the learned tile representation (empty for the unified model).
    #[serde(default)]
    pub embedding_curve: Vec<f64>,
    /// How the learned representation's contexts describe a tile's neighbours (`None`: the
    /// unified model, or a learned one from before the choice, which is `tiles`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbours: Option<super::embed::Neighbours>,
    /// The FC-VAE's hidden widths when not the shipped [`HIDDEN`] (`None`: those, or a
    /// CNN-VAE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fc_hidden: Option<Vec<usize>>,
    /// How the decode table was drawn when not from distinct contexts (`Some("occurrences")`,
    /// `train --table occurrences`; `None`: distinct).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// True when no epoch of the warm-up could be kept (`train --after-warm-up`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub after_warm_up: bool,
    /// Training segments.
    pub segments: usize,
    /// FNV-1a of the training segments' rows.
    pub data_hash: String,
    /// Seed.
    pub seed: u64,
    /// Epochs trained.
    pub epochs: usize,
    /// Seconds.
    pub train_seconds: f64,
    /// Mean reconstruction loss per epoch (per segment, weighted).
    pub curve: Vec<f64>,
    /// Validation loss per epoch: the validation segments' weighted reconstruction from their
    /// means plus their whole KL (weight 1), per segment.
    #[serde(default)]
    pub validation_curve: Vec<f64>,
    /// The epoch whose weights were kept (the lowest validation loss); `None` for a model
    /// trained without validation segments (its last epoch).
    #[serde(default)]
    pub kept_epoch: Option<usize>,
    /// Share of training cells the model reconstructs (argmax of the decoded mean).
    pub reconstruction_accuracy: f64,
    /// The command that reproduces the weights.
    pub command: String,
    /// Length and hash of the weights file.
    #[serde(default)]
    pub weights: Option<WeightsStamp>,
}

impl BlendSidecar {
    /// Checks that every figure is a number a training could have produced: finite loss
    /// curves and seconds, and a reconstruction accuracy that is a share.
    ///
    /// # Errors
    /// The first figure that is not, named by its field (and its place in a curve).
    pub fn check(&self) -> Result<(), ml::WeightsError> {
        for (name, curve) in [
            ("embedding_curve", &self.embedding_curve),
            ("curve", &self.curve),
            ("validation_curve", &self.validation_curve),
        ] {
            if let Some((i, v)) = curve.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(format!(
                    "{name} holds {v} at position {}, not a finite number",
                    i + 1
                )
                .into());
            }
        }
        if !(self.train_seconds.is_finite() && self.train_seconds >= 0.0) {
            return Err(format!(
                "train_seconds {} is not a finite number of seconds",
                self.train_seconds
            )
            .into());
        }
        if !(0.0..=1.0).contains(&self.reconstruction_accuracy) {
            return Err(format!(
                "reconstruction_accuracy {} is not a share from 0 to 1",
                self.reconstruction_accuracy
            )
            .into());
        }
        Ok(())
    }
}

impl Stamped for BlendSidecar {
    fn stamp(&self) -> Option<&WeightsStamp> {
        self.weights.as_ref()
    }

    fn set_stamp(&mut self, stamp: WeightsStamp) {
        self.weights = Some(stamp);
    }
}

/// A hash of segments' rows (the sidecar's record of its data).
pub fn data_hash(segments: &[Segment]) -> String {
    let text: String = segments
        .iter()
        .flat_map(|s| s.rows.iter())
        .cloned()
        .collect();
    studio_core::io::fnv1a_hex(text.as_bytes())
}

/// Progress while training.
#[derive(Clone, Copy, Debug)]
pub struct VaeProgress {
    /// Epochs done.
    pub epoch: usize,
    /// Epochs in the run.
    pub epochs: usize,
    /// Mean weighted reconstruction loss of the epoch.
    pub reconstruction: f64,
    /// Mean KL of the epoch.
    pub kl: f64,
    /// The KL weight of the epoch.
    pub kl_weight: f64,
    /// The validation loss after the epoch (with validation segments).
    pub validation: Option<f64>,
    /// The epoch of the lowest validation loss so far.
    pub kept_epoch: Option<usize>,
    /// The traced E-distance of prior blends after the epoch (see [`VaeConfig::trace`]).
    pub e_distance: Option<f64>,
}

/// A trained model.
pub struct TrainedVae {
    /// Its weights.
    pub varmap: VarMap,
    /// The network.
    pub model: Net,
    /// Mean reconstruction loss per epoch.
    pub curve: Vec<f64>,
    /// Validation loss per epoch (empty without validation segments).
    pub validation_curve: Vec<f64>,
    /// The epoch whose weights these are (the lowest validation loss), if validated.
    pub kept_epoch: Option<usize>,
    /// Seconds.
    pub seconds: f64,
}

/// Each segment's weighted reconstruction loss and its KL, `[b]` each, for inputs `x`, the
/// decoder's outputs `out` and the encoder's `(mu, logvar)`.
fn loss_terms(
    repr: &Repr<'_>,
    x: &Tensor,
    w: &Tensor,
    out: Tensor,
    mu: &Tensor,
    logvar: &Tensor,
) -> candle_core::Result<(Tensor, Tensor)> {
    let b = x.dim(0)?;
    let target = x.reshape((b, CELLS, repr.width()))?;
    let ce = match repr {
        Repr::Unified => {
            let log_p = candle_nn::ops::log_softmax(&out, D::Minus1)?;
            (log_p * target)?.sum(D::Minus1)?.sum(D::Minus1)?.neg()?
        }
        Repr::Learned(_) => (out - target)?.sqr()?.sum(D::Minus1)?.sum(D::Minus1)?,
    };
    let kl_terms = ((logvar.affine(1.0, 1.0)? - mu.sqr()?)? - logvar.exp()?)?;
    let kl = kl_terms.sum(D::Minus1)?.affine(-0.5, 0.0)?;
    Ok(((ce * w)?, kl))
}

/// Segments as model inputs `[N, 256·w]` and their reconstruction weights `[N]`.
pub(super) fn batch_of(
    segments: &[Segment],
    repr: &Repr<'_>,
    device: &Device,
) -> candle_core::Result<(Tensor, Tensor)> {
    let mut inputs = Vec::with_capacity(segments.len() * CELLS * repr.width());
    for s in segments {
        repr.encode(&s.rows, Some(s.source), &mut inputs)?;
    }
    let weights: Vec<f32> = segments.iter().map(game_weight).collect();
    Ok((
        Tensor::from_vec(inputs, (segments.len(), CELLS * repr.width()), device)?,
        Tensor::from_vec(weights, segments.len(), device)?,
    ))
}

fn game_weight(s: &Segment) -> f32 {
    let w = match s.source {
        Source::LodeRunner => GAME_WEIGHTS.0,
        Source::Zelda => GAME_WEIGHTS.1,
    };
    (w * GAME_WEIGHTS.2) as f32
}

/// The validation loss: each segment decoded from its mean, its weighted reconstruction
/// loss plus its whole KL (weight 1, the evidence bound's), averaged.
pub(super) fn validation_loss(
    model: &Net,
    repr: &Repr<'_>,
    x: &Tensor,
    w: &Tensor,
) -> candle_core::Result<f64> {
    let (mu, logvar) = model.encode(x)?;
    let out = model.decode(&mu)?;
    let (rec, kl) = loss_terms(repr, x, w, out, &mu, &logvar)?;
    Ok(f64::from((rec + kl)?.mean_all()?.to_scalar::<f32>()?))
}

/// A copy of every weight, by name.
type Weights = Vec<(String, Tensor)>;

/// A copy of every weight (the kept epoch's).
fn snapshot(varmap: &VarMap) -> candle_core::Result<Weights> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("the weights' lock is poisoned".into()))?;
    data.iter()
        .map(|(k, v)| Ok((k.clone(), v.as_tensor().copy()?)))
        .collect()
}

/// Puts a [`snapshot`] back.
fn restore(varmap: &VarMap, kept: &Weights) -> candle_core::Result<()> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("the weights' lock is poisoned".into()))?;
    for (k, t) in kept {
        if let Some(v) = data.get(k) {
            v.set(t)?;
        }
    }
    Ok(())
}

/// Trains a blend VAE on `segments`; `report` hears every epoch and may stop the run. With
/// `validation` segments the weights of the epoch with the lowest validation loss are kept
/// (and [`VaeConfig::patience`] may end the run early); without, the last epoch's.
///
/// # Errors
/// A candle error.
pub fn train(
    config: &VaeConfig,
    family: Family,
    segments: &[Segment],
    validation: &[Segment],
    repr: &Repr<'_>,
    report: &mut dyn FnMut(&VaeProgress) -> bool,
) -> candle_core::Result<TrainedVae> {
    let started = Instant::now();
    let device = studio_ml::device();
    let varmap = VarMap::new();
    let width = repr.width();
    let model = Net::new(
        family,
        width,
        &config.fc_hidden,
        VarBuilder::from_varmap(&varmap, DType::F32, &device),
    )?;
    studio_ml::seeded_init(&varmap, config.seed)
        .map_err(|e| candle_core::Error::Msg(e.to_string()))?;
    let mut opt = studio_ml::adam(varmap.all_vars(), config.learning_rate)?;
    let n_in = CELLS * width;
    let mut inputs = Vec::with_capacity(segments.len() * n_in);
    for s in segments {
        repr.encode(&s.rows, Some(s.source), &mut inputs)?;
    }
    let weights: Vec<f32> = segments.iter().map(game_weight).collect();
    let held_out = if validation.is_empty() {
        None
    } else {
        Some(batch_of(validation, repr, &device)?)
    };
    let training_vectors = if config.trace > 0 {
        let rows: Vec<Vec<String>> = segments.iter().map(|s| s.rows.clone()).collect();
        super::eval::vectors(&rows)
    } else {
        Vec::new()
    };
    let mut rng = Rng::derive(config.seed, 0xb7e);
    let mut curve = Vec::with_capacity(config.epochs);
    let mut validation_curve = Vec::new();
    // The kept epoch, its validation loss and its weights.
    let mut kept: Option<(usize, f64, Weights)> = None;
    for epoch in 0..config.epochs {
        let beta = kl_weight(epoch, config.epochs);
        let mut order: Vec<usize> = (0..segments.len()).collect();
        rng.shuffle(&mut order);
        let (mut rec_sum, mut kl_sum, mut batches) = (0.0, 0.0, 0usize);
        for idx in order.chunks(config.batch) {
            let b = idx.len();
            let x: Vec<f32> = idx
                .iter()
                .flat_map(|&i| inputs[i * n_in..(i + 1) * n_in].iter().copied())
                .collect();
            let x = Tensor::from_vec(x, (b, n_in), &device)?;
            let w = Tensor::from_vec(
                idx.iter().map(|&i| weights[i]).collect::<Vec<_>>(),
                b,
                &device,
            )?;
            let (mu, logvar) = model.encode(&x)?;
            let eps: Vec<f32> = (0..b * LATENT).map(|_| rng.normal() as f32).collect();
            let eps = Tensor::from_vec(eps, (b, LATENT), &device)?;
            let z = (&mu + (logvar.affine(0.5, 0.0)?.exp()? * eps)?)?;
            let out = model.decode(&z)?;
            let (rec, kl) = loss_terms(repr, &x, &w, out, &mu, &logvar)?;
            let (rec, kl) = (rec.mean_all()?, kl.mean_all()?);
            let loss = (&rec + kl.affine(beta, 0.0)?)?;
            opt.backward_step(&loss)?;
            rec_sum += f64::from(rec.to_scalar::<f32>()?);
            kl_sum += f64::from(kl.to_scalar::<f32>()?);
            batches += 1;
        }
        let validation = match &held_out {
            Some((x, w)) => {
                let v = validation_loss(&model, repr, x, w)?;
                validation_curve.push(v);
                let may_keep = !config.after_warm_up || epoch >= warm_up_epochs(config.epochs);
                if may_keep && kept.as_ref().is_none_or(|k| v < k.1) {
                    kept = Some((epoch + 1, v, snapshot(&varmap)?));
                }
                Some(v)
            }
            None => None,
        };
        let e_distance = if config.trace > 0 && (epoch + 1) % TRACE_EVERY == 0 {
            let mut dice = Rng::derive(config.seed, 0x7ace);
            let z: Vec<f32> = (0..config.trace * LATENT)
                .map(|_| dice.normal() as f32)
                .collect();
            let out = model.decode(&Tensor::from_vec(z, (config.trace, LATENT), &device)?)?;
            let blends = repr.decode(&out)?;
            Some(super::eval::energy_distance(
                &super::eval::vectors(&blends),
                &training_vectors,
            ))
        } else {
            None
        };
        let p = VaeProgress {
            epoch: epoch + 1,
            epochs: config.epochs,
            reconstruction: rec_sum / batches.max(1) as f64,
            kl: kl_sum / batches.max(1) as f64,
            kl_weight: beta,
            validation,
            kept_epoch: kept.as_ref().map(|k| k.0),
            e_distance,
        };
        curve.push(p.reconstruction);
        let stale = kept
            .as_ref()
            .is_some_and(|k| config.patience > 0 && epoch + 1 >= k.0 + config.patience);
        if !report(&p) || stale {
            break;
        }
    }
    if let Some((_, _, weights)) = &kept {
        restore(&varmap, weights)?;
    }
    Ok(TrainedVae {
        varmap,
        model,
        curve,
        validation_curve,
        kept_epoch: kept.map(|k| k.0),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The share of cells of `segments` the model gives back (decoding the mean).
///
/// # Errors
/// A candle error.
pub fn reconstruction_accuracy(
    model: &Net,
    repr: &Repr<'_>,
    segments: &[Segment],
) -> candle_core::Result<f64> {
    let mut x = Vec::new();
    for s in segments {
        repr.encode(&s.rows, Some(s.source), &mut x)?;
    }
    let x = Tensor::from_vec(x, (segments.len(), CELLS * repr.width()), &model.device())?;
    let (mu, _) = model.encode(&x)?;
    let back = repr.decode(&model.decode(&mu)?)?;
    let (mut same, mut all) = (0usize, 0usize);
    for (s, b) in segments.iter().zip(back) {
        for (r, q) in s.rows.iter().zip(b) {
            same += r.chars().zip(q.chars()).filter(|(a, c)| a == c).count();
            all += SIDE;
        }
    }
    Ok(same as f64 / all.max(1) as f64)
}

/// `n` random blends: latent points from the standard normal (seeded), decoded.
///
/// # Errors
/// A candle error.
pub fn random_blends(
    model: &BlendModel,
    n: usize,
    seed: u64,
) -> candle_core::Result<Vec<Vec<String>>> {
    let mut rng = Rng::derive(seed, 0xb1d);
    let z: Vec<f32> = (0..n * LATENT).map(|_| rng.normal() as f32).collect();
    let out = model
        .model
        .decode(&Tensor::from_vec(z, (n, LATENT), &model.model.device())?)?;
    model.repr().decode(&out)
}

/// A loaded model and its sidecar.
pub struct BlendModel {
    /// The network.
    pub model: Net,
    /// The learned tile representation (the `cte` models).
    pub embedding: Option<super::embed::Embedding>,
    /// Its sidecar.
    pub sidecar: BlendSidecar,
}

const TABLE_KEY: &str = "embed_table";
const LETTERS_KEY: &str = "embed_tiles";
const SPRITES_KEY: &str = "embed_sprites";

impl BlendModel {
    /// Loads weights and sidecar, checking the sidecar's figures, the architecture and the
    /// stamp.
    ///
    /// # Errors
    /// A missing, damaged or mismatched file, or a sidecar figure that is not a finite number
    /// (see [`BlendSidecar::check`]), in words naming the file.
    pub fn load(path: &Path) -> Result<Self, ml::WeightsError> {
        let (side, sidecar): (_, BlendSidecar) = ml::read_sidecar(path)?;
        sidecar.check().map_err(|e| e.in_file(&side))?;
        let known = parse_architecture(&sidecar.architecture);
        let Some((family, learned)) = known.filter(|_| sidecar.latent == LATENT) else {
            return Err(format!(
                "{}: architecture {:?} with {} latent dimensions, this build reads \
                 {ARCHITECTURE:?}, {LEARNED_ARCHITECTURE:?}, {CNN_ARCHITECTURE:?}, \
                 {CNN_LEARNED_ARCHITECTURE:?}, {PIXELS_ARCHITECTURE:?} or \
                 {CNN_PIXELS_ARCHITECTURE:?} with {LATENT}",
                side.display(),
                sidecar.architecture,
                sidecar.latent
            )
            .into());
        };
        let bytes = ml::read_stamped(path, &side, sidecar.stamp()).map_err(|e| e.in_file(path))?;
        let device = ml::device();
        let tensors = ml::tensors_from(&bytes, &device).map_err(|e| e.in_file(path))?;
        let damaged = |e: candle_core::Error| format!("{}: {e}", path.display());
        let embedding = if learned {
            let missing = |k: &str| format!("{}: no tensor {k:?}", path.display());
            let table = tensors
                .get(TABLE_KEY)
                .ok_or_else(|| missing(TABLE_KEY))?
                .clone();
            let letters = tensors
                .get(LETTERS_KEY)
                .ok_or_else(|| missing(LETTERS_KEY))?
                .clone();
            let vb = VarBuilder::from_tensors(tensors.clone(), DType::F32, &device);
            let neighbours = sidecar.neighbours.unwrap_or_default();
            if sidecar.architecture == pixel_architecture(family) {
                let sprites = tensors
                    .get(SPRITES_KEY)
                    .ok_or_else(|| missing(SPRITES_KEY))?;
                let pixels = super::pixels::PixelTiles::from_tensor(sprites).map_err(damaged)?;
                let encoder = super::embed::TileEncoder::with_width(
                    vb.pp(EMBED_PREFIX),
                    super::pixel_embed::WIDTH,
                    neighbours,
                )
                .map_err(damaged)?;
                let mut e = super::embed::Embedding::from_parts(encoder, &table, &letters)
                    .map_err(damaged)?;
                e.pixels = Some(pixels);
                Some(e)
            } else {
                let encoder = super::embed::TileEncoder::new(vb.pp(EMBED_PREFIX), neighbours)
                    .map_err(damaged)?;
                Some(
                    super::embed::Embedding::from_parts(encoder, &table, &letters)
                        .map_err(damaged)?,
                )
            }
        } else {
            None
        };
        let width = if learned { super::embed::EMBED } else { TILES };
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &device);
        let hidden = sidecar.fc_hidden.as_deref().unwrap_or(HIDDEN);
        let model = Net::new(family, width, hidden, vb).map_err(damaged)?;
        Ok(Self {
            model,
            embedding,
            sidecar,
        })
    }

    /// How this model writes segments.
    pub fn repr(&self) -> Repr<'_> {
        self.embedding.as_ref().map_or(Repr::Unified, Repr::Learned)
    }
}

/// Saves a trained model and its sidecar; a sidecar with a figure that is not a finite number
/// (a diverged training) is refused before anything is written.
///
/// # Errors
/// Why a file could not be written, or what [`BlendSidecar::check`] refused.
pub fn save(
    varmap: &VarMap,
    embedding: Option<(&VarMap, &super::embed::Embedding)>,
    sidecar: &BlendSidecar,
    path: &Path,
) -> Result<(), ml::WeightsError> {
    sidecar.check().map_err(|e| {
        format!(
            "{}: the training produced a figure that is not a number ({e}); nothing was written",
            path.display()
        )
    })?;
    let mut tensors = ml::tensors_of(varmap)?;
    if let Some((map, e)) = embedding {
        tensors.extend(ml::tensors_of(map)?);
        let (table, letters) = e.table_tensors().map_err(|e| e.to_string())?;
        tensors.insert(TABLE_KEY.into(), table);
        tensors.insert(LETTERS_KEY.into(), letters);
        if let Some(p) = &e.pixels {
            let sprites = p.typical_tensor().map_err(|e| e.to_string())?;
            tensors.insert(SPRITES_KEY.into(), sprites);
        }
    }
    Ok(ml::save_model(&tensors, sidecar, path)?)
}
