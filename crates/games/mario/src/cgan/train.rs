//! The adversarial training loop of Appendix A: every window of four connected patterns is
//! cut in each of its four ways (Fig. A.1), so an epoch visits each window four times, once
//! per position of the cut pattern. The discriminator learns to tell the real window from the
//! window with the generator's pattern in the cut place; the generator learns to fool it
//! (non-saturating loss). Adam (AdamW with no weight decay), the batch size, z dimension and
//! dropout of Table 6.1.
//!
//! Optionally a mode-seeking term (Mao et al., CVPR 2019; not in the thesis) asks two z for
//! the same window to give different patterns: the generator's loss adds
//! `λ · mean|z₁ − z₂| / (mean|G(z₁) − G(z₂)| + ε)`.
//!
//! Everything random comes from [`studio_core::rng::Rng`] (initialisation through `seeded_init`,
//! batch order, z, dropout masks), so one seed gives the same weights bit for bit on one
//! machine. Both networks live in ONE `VarMap`, under `gen.` and `disc.`; each optimiser only
//! steps its own prefix.

use super::data::CganData;
use super::model::{cut_mask, insert, one_hot, Discriminator, Generator, POSITIONS, SAMPLE_WIDTH};
use super::{normalise, Z_DIM};
use candle_core::{DType, Result, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use std::time::Instant;
use studio_core::rng::Rng;
use studio_ml::seeded_init;

/// Training settings; the default is the shipped model's.
#[derive(Clone, Debug, PartialEq)]
pub struct CganConfig {
    /// Seed for initialisation, batches, z and dropout.
    pub seed: u64,
    /// Passes over the training samples (at most).
    pub epochs: usize,
    /// Samples per step (Table 6.1: 16).
    pub batch_size: usize,
    /// Adam's learning rate for both networks (Table 6.1: 5e-5; ours 2e-4, the same losses in
    /// a quarter of the steps).
    pub learning_rate: f64,
    /// Adam's first-moment decay.
    pub beta1: f64,
    /// Adam's second-moment decay.
    pub beta2: f64,
    /// Dropout probability in the discriminator (Table 6.1: 0.4).
    pub dropout: f64,
    /// Weight λ of the mode-seeking term (0: none, the thesis's set-up; ours 3: without it the
    /// generator learns to ignore z, 8 distinct raw patterns of 10,201 in Fig. 6.9's sweep).
    pub mode_seeking: f64,
    /// Stop after the first epoch that ends past this many seconds, if set. Makes the result
    /// depend on the machine's speed; leave `None` for reproducible runs.
    pub max_seconds: Option<f64>,
}

impl Default for CganConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            epochs: 100,
            batch_size: 16,
            learning_rate: 2e-4,
            beta1: 0.5,
            beta2: 0.999,
            dropout: 0.4,
            mode_seeking: 3.0,
            max_seconds: None,
        }
    }
}

/// Where training stands, reported after every epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct CganProgress {
    /// Epochs finished (1-based).
    pub epoch: usize,
    /// Optimiser steps taken so far (each steps both networks once).
    pub step: usize,
    /// Mean discriminator loss over the epoch (BCE on real + BCE on fake).
    pub d_loss: f64,
    /// Mean generator loss over the epoch (BCE of fakes against the "real" label).
    pub g_loss: f64,
    /// Mean discriminator probability on real windows over the epoch.
    pub d_real: f64,
    /// Mean discriminator probability on generated windows over the epoch.
    pub d_fake: f64,
    /// Seconds since training began.
    pub seconds: f64,
}

/// Mean binary cross-entropy of `logits` against a constant `target`, computed stably as
/// `max(x, 0) - x·t + ln(1 + e^-|x|)`.
///
/// # Errors
/// A tensor failure.
pub fn bce_with_logits(logits: &Tensor, target: f64) -> Result<Tensor> {
    let soft = logits.abs()?.neg()?.exp()?.affine(1.0, 1.0)?.log()?;
    (logits.relu()? - logits.affine(target, 0.0)? + soft)?.mean_all()
}

fn vars_under(varmap: &VarMap, prefix: &str) -> Result<Vec<Var>> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("poisoned var map".into()))?;
    let mut named: Vec<(&String, &Var)> =
        data.iter().filter(|(n, _)| n.starts_with(prefix)).collect();
    named.sort_by(|a, b| a.0.cmp(b.0));
    Ok(named.into_iter().map(|(_, v)| v.clone()).collect())
}

/// Trains a generator and a discriminator on `data.train` and returns their variables
/// (`gen.*`, `disc.*`). `report` is called after every epoch; returning false stops training
/// (the weights so far are returned).
///
/// # Errors
/// A tensor failure, or no training samples.
pub fn train(
    data: &CganData,
    config: &CganConfig,
    report: &mut dyn FnMut(&CganProgress) -> bool,
) -> Result<VarMap> {
    let n = data.train.len();
    if n == 0 || config.batch_size == 0 {
        return Err(candle_core::Error::Msg("no training samples".into()));
    }
    let dev = studio_ml::device();
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &dev);
    let gen = Generator::new(vb.pp("gen"))?;
    let disc = Discriminator::new(vb.pp("disc"))?;
    seeded_init(&varmap, config.seed).map_err(|e| candle_core::Error::Msg(e.to_string()))?;
    let params = ParamsAdamW {
        lr: config.learning_rate,
        beta1: config.beta1,
        beta2: config.beta2,
        eps: 1e-8,
        weight_decay: 0.0,
    };
    let mut g_opt = AdamW::new(vars_under(&varmap, "gen.")?, params.clone())?;
    let mut d_opt = AdamW::new(vars_under(&varmap, "disc.")?, params)?;

    let flat: Vec<f32> = data
        .train
        .iter()
        .flat_map(|s| s.iter().flat_map(normalise))
        .collect();
    let mut rng = Rng::derive(config.seed, 0xC6A7);
    // Every (window, position) pair: the four-way duplication of Appendix A.
    let mut order: Vec<usize> = (0..n * POSITIONS).collect();
    let start = Instant::now();
    let mut step = 0;
    for epoch in 1..=config.epochs {
        rng.shuffle(&mut order);
        let (mut d_sum, mut g_sum, mut real_sum, mut fake_sum, mut batches) =
            (0.0, 0.0, 0.0, 0.0, 0usize);
        for chunk in order.chunks(config.batch_size) {
            let b = chunk.len();
            let mut batch = Vec::with_capacity(b * SAMPLE_WIDTH);
            let mut positions = Vec::with_capacity(b);
            for &k in chunk {
                let i = k / POSITIONS;
                batch.extend_from_slice(&flat[i * SAMPLE_WIDTH..(i + 1) * SAMPLE_WIDTH]);
                positions.push(k % POSITIONS);
            }
            let real = Tensor::from_vec(batch, (b, SAMPLE_WIDTH), &dev)?;
            let hot = one_hot(&positions, &dev)?;
            let mask = cut_mask(&hot)?;
            let draw_z = |rng: &mut Rng| -> Result<Tensor> {
                let z: Vec<f32> = (0..b * Z_DIM).map(|_| rng.unit() as f32).collect();
                Tensor::from_vec(z, (b, Z_DIM), &dev)
            };
            let z = draw_z(&mut rng)?;
            let out = gen.forward_at(&real, &hot, &z)?;
            let fake = insert(&real, &mask, &out)?;

            let d_real = disc.forward(&real, &hot, Some((config.dropout, &mut rng)))?;
            let d_fake = disc.forward(&fake.detach(), &hot, Some((config.dropout, &mut rng)))?;
            let d_loss = (bce_with_logits(&d_real, 1.0)? + bce_with_logits(&d_fake, 0.0)?)?;
            d_opt.backward_step(&d_loss)?;

            let g_fake = disc.forward(&fake, &hot, Some((config.dropout, &mut rng)))?;
            let mut g_loss = bce_with_logits(&g_fake, 1.0)?;
            if config.mode_seeking > 0.0 {
                let z2 = draw_z(&mut rng)?;
                let out2 = gen.forward_at(&real, &hot, &z2)?;
                let dz = (&z - &z2)?.abs()?.mean_all()?;
                let dout = (&out - &out2)?.abs()?.mean_all()?.affine(1.0, 1e-5)?;
                g_loss = (g_loss + (dz / dout)?.affine(config.mode_seeking, 0.0)?)?;
            }
            g_opt.backward_step(&g_loss)?;

            d_sum += f64::from(d_loss.to_scalar::<f32>()?);
            g_sum += f64::from(g_loss.to_scalar::<f32>()?);
            let prob = |t: &Tensor| -> Result<f64> {
                Ok(f64::from(
                    candle_nn::ops::sigmoid(t)?.mean_all()?.to_scalar::<f32>()?,
                ))
            };
            real_sum += prob(&d_real)?;
            fake_sum += prob(&d_fake)?;
            batches += 1;
            step += 1;
        }
        let m = batches.max(1) as f64;
        let seconds = start.elapsed().as_secs_f64();
        let progress = CganProgress {
            epoch,
            step,
            d_loss: d_sum / m,
            g_loss: g_sum / m,
            d_real: real_sum / m,
            d_fake: fake_sum / m,
            seconds,
        };
        if !report(&progress) || config.max_seconds.is_some_and(|s| seconds >= s) {
            break;
        }
    }
    Ok(varmap)
}
