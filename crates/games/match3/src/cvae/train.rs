//! Training a cVAE on a match-3 dataset: seeded initialisation and batches, AdamW, periodic
//! checkpoints, and selection of the checkpoint with the best metric sweep.

use super::arch::{device, loss, Cvae, ModelKind, DTYPE, LATENT};
use super::encoding::{condition_batch, encoder_batch, MoveRange, Sample};
use super::error::Result;
use super::generator::{save, snapshot, CvaeModel};
use super::metrics::SweepMetrics;
use super::sidecar::{
    coverage, layout_fingerprint, Architecture, Sidecar, Training, SIDECAR_FORMAT,
};
use super::sweep::run_sweep_with;
pub use super::training_set::TrainingSet;
use crate::layout::Cell;
use crate::ValidationConfig;
use candle_core::{Device, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use studio_core::rng::Rng;

/// How a model is trained. The defaults converge in about a minute on two CPU cores.
#[derive(Clone, Debug)]
pub struct CvaeTrainConfig {
    /// Which model to train.
    pub kind: ModelKind,
    /// Passes over the training set.
    pub epochs: usize,
    /// Levels per optimiser step.
    pub batch_size: usize,
    /// AdamW's learning rate.
    pub learning_rate: f64,
    /// AdamW's weight decay.
    pub weight_decay: f64,
    /// Seeds the initial weights, the batch order and the selection sweeps.
    pub seed: u64,
    /// Run the selection sweep (and write a checkpoint) every this many epochs.
    pub checkpoint_every: usize,
    /// Where checkpoints go (`None`: not written).
    pub checkpoint_dir: Option<PathBuf>,
    /// Run the metric sweep at checkpoints and keep the best; otherwise keep the last.
    pub select: bool,
    /// Each epoch shows the levels the bots find valid (median ≤ 20 moves, the range the
    /// designers ask for) this many times, the others once. 1 treats all levels alike.
    pub valid_repeats: usize,
    /// Weight of the KL term in the loss (1: the plain ELBO of SPEC §3).
    pub kl_weight: f64,
    /// Free bits: nats per latent dimension (batch mean) the KL term does not charge for
    /// (0: the plain KL).
    pub free_bits: f64,
    /// Weight of a BLOCK or GAP cell's cross-entropy against a PLAYFIELD cell's 1 (1: the
    /// plain reconstruction term). Above 1 the decoder's most likely cell is BLOCK or GAP
    /// wherever those are likely enough, not only where they are the majority.
    pub blocked_weight: f64,
    /// Seeded 144-level sweeps averaged at each checkpoint to score it.
    pub selection_sweeps: usize,
    /// Only checkpoints whose selection sweeps' raw levels copy a training layout at most
    /// this often may be selected (the best-scoring one of all when none qualifies); `None`:
    /// any checkpoint.
    pub max_copies: Option<f64>,
}

impl CvaeTrainConfig {
    /// The shipped defaults for `kind`: AdamW, lr 2e-3, batch 64, 80 epochs, sweep every 10.
    pub fn new(kind: ModelKind, seed: u64) -> Self {
        Self {
            kind,
            epochs: 80,
            batch_size: 64,
            learning_rate: 2e-3,
            weight_decay: 1e-4,
            seed,
            checkpoint_every: 10,
            checkpoint_dir: None,
            select: true,
            valid_repeats: 1,
            kl_weight: 1.0,
            free_bits: 0.0,
            blocked_weight: 1.0,
            selection_sweeps: 2,
            max_copies: None,
        }
    }

    /// The defaults scaled to a training set of `levels`: about 3,000 optimiser steps
    /// (120 epochs on the 1,632 main levels, 600 on the 170 stylized ones), eight sweeps.
    pub fn for_set(kind: ModelKind, seed: u64, levels: usize) -> Self {
        let epochs = (192_000 / levels.max(1)).clamp(120, 600);
        Self {
            epochs,
            checkpoint_every: (epochs / 8).max(1),
            ..Self::new(kind, seed)
        }
    }
}

/// What training reports as it goes.
#[derive(Clone, Debug)]
pub enum CvaeProgress {
    /// An epoch finished with these mean losses.
    Epoch {
        /// The epoch, counted from 1.
        epoch: usize,
        /// Epochs in the run.
        epochs: usize,
        /// Mean total loss (reconstruction + KL, unweighted) over the epoch's batches.
        loss: f64,
        /// Mean reconstruction loss.
        reconstruction: f64,
        /// Mean KL divergence.
        kl: f64,
    },
    /// A checkpoint was swept.
    Checkpoint {
        /// The epoch the checkpoint was taken after.
        epoch: usize,
        /// The selection sweep's figures.
        metrics: Box<SweepMetrics>,
        /// [`SweepMetrics::selection_score`] of those figures.
        score: f64,
        /// True when it is the best checkpoint so far (and is kept).
        best: bool,
    },
}

/// The result of a training run: the selected weights and their sidecar.
pub struct Trained {
    /// The selected checkpoint's weights, by safetensors key.
    pub tensors: HashMap<String, Tensor>,
    /// Their sidecar, with the selected epoch and its metrics.
    pub sidecar: Sidecar,
}

impl Trained {
    /// Writes the weights and the sidecar (`.ron` beside them).
    ///
    /// # Errors
    /// [`ModelError::Write`](super::ModelError::Write).
    pub fn save(&self, weights: &Path) -> Result<()> {
        save(&self.tensors, &self.sidecar, weights)
    }
}

/// A blank sidecar for a model about to be trained on `set`.
pub fn initial_sidecar(config: &CvaeTrainConfig, set: &TrainingSet) -> Sidecar {
    Sidecar {
        format: SIDECAR_FORMAT,
        architecture: Architecture::of(config.kind),
        moves: set.move_range(),
        training: Training {
            data: set.dir.display().to_string(),
            data_hash: set.hash.clone(),
            levels: set.samples.len(),
            seed: config.seed,
            epochs: 0,
            selected_epoch: 0,
            batch_size: config.batch_size,
            learning_rate: config.learning_rate,
            optimizer: format!("AdamW(weight_decay {})", config.weight_decay),
            seconds: 0.0,
            valid_repeats: config.valid_repeats,
            kl_weight: config.kl_weight,
            free_bits: config.free_bits,
            blocked_weight: config.blocked_weight,
            checkpoints: config.epochs / config.checkpoint_every.max(1),
            selection_sweeps: config.selection_sweeps,
            max_copies: config.max_copies,
        },
        metrics: SweepMetrics::default(),
        coverage: coverage(&set.samples),
        training_fingerprints: {
            let mut f: Vec<u64> = set
                .samples
                .iter()
                .map(|s| layout_fingerprint(&s.layout))
                .collect();
            f.sort_unstable();
            f.dedup();
            f
        },
        weights: None,
    }
}

/// The whole training set as tensors, once: encoder inputs, targets, masks, conditions.
struct Tensors {
    x: Tensor,
    target: Tensor,
    mask: Tensor,
    conditions: Tensor,
}

impl Tensors {
    fn new(
        kind: ModelKind,
        samples: &[Sample],
        range: &MoveRange,
        blocked_weight: f64,
        device: &Device,
    ) -> Result<Self> {
        let refs: Vec<&Sample> = samples.iter().collect();
        let (x, target, mask) = encoder_batch(kind, &refs, range, device)?;
        // The reconstruction term weighs each kept cell by its mask: BLOCK and GAP targets
        // weigh `blocked_weight`, PLAYFIELD 1.
        let mask = if blocked_weight == 1.0 {
            mask
        } else {
            let playfield = target.narrow(1, Cell::Playfield as usize, 1)?.squeeze(1)?;
            let weight = playfield.affine(1.0 - blocked_weight, blocked_weight)?;
            (mask * weight)?
        };
        let conds: Vec<_> = samples.iter().map(Sample::condition).collect();
        Ok(Self {
            x,
            target,
            mask,
            conditions: condition_batch(kind, &conds, range, device)?,
        })
    }
}

/// One optimiser step on the samples at `indices`; returns (total, reconstruction, kl).
fn step(
    model: &Cvae,
    opt: &mut AdamW,
    data: &Tensors,
    indices: &[u32],
    kl_weight: f64,
    free_bits: f64,
    rng: &mut Rng,
) -> Result<(f64, f64, f64)> {
    let device = data.x.device();
    let idx = Tensor::from_slice(indices, indices.len(), device)?;
    let eps: Vec<f32> = (0..indices.len() * LATENT)
        .map(|_| rng.normal() as f32)
        .collect();
    let eps = Tensor::from_vec(eps, (indices.len(), LATENT), device)?;
    let x = data.x.index_select(&idx, 0)?;
    let (logits, mu, logvar) = model.forward(&x, &data.conditions.index_select(&idx, 0)?, &eps)?;
    let l = loss(
        &logits,
        &data.target.index_select(&idx, 0)?,
        &data.mask.index_select(&idx, 0)?,
        &mu,
        &logvar,
    )?;
    let total = if free_bits > 0.0 {
        // Each dimension's batch-mean KL, charged only above `free_bits` nats.
        let n = indices.len() as f64;
        let terms = ((logvar.affine(1.0, 1.0)? - mu.sqr()?)? - logvar.exp()?)?;
        let per_dim = terms.sum(0)?.affine(-0.5 / n, 0.0)?;
        let charged = per_dim.maximum(free_bits)?.sum_all()?;
        (&l.reconstruction + charged.affine(kl_weight, 0.0)?)?
    } else if kl_weight == 1.0 {
        l.total.clone()
    } else {
        (&l.reconstruction + l.kl.affine(kl_weight, 0.0)?)?
    };
    opt.backward_step(&total)?;
    Ok((
        l.total.to_scalar::<f32>()? as f64,
        l.reconstruction.to_scalar::<f32>()? as f64,
        l.kl.to_scalar::<f32>()? as f64,
    ))
}

/// Trains a model on `set`, reporting progress; at every checkpoint (and the end) the
/// metric sweep runs and the best checkpoint is kept.
///
/// # Errors
/// Tensor failures, or [`ModelError::Write`](super::ModelError::Write) for a checkpoint.
pub fn train(
    config: &CvaeTrainConfig,
    set: &TrainingSet,
    mut progress: impl FnMut(CvaeProgress),
) -> Result<Trained> {
    let started = Instant::now();
    let device = device();
    let varmap = VarMap::new();
    let model = Cvae::new(
        config.kind,
        VarBuilder::from_varmap(&varmap, DTYPE, &device),
    )?;
    studio_ml::seeded_init(&varmap, config.seed)?;
    let mut sidecar = initial_sidecar(config, set);
    let data = Tensors::new(
        config.kind,
        &set.samples,
        &sidecar.moves,
        config.blocked_weight,
        &device,
    )?;
    let params = ParamsAdamW {
        lr: config.learning_rate,
        weight_decay: config.weight_decay,
        ..Default::default()
    };
    let mut opt = AdamW::new(varmap.all_vars(), params)?;
    let mut rng = Rng::derive(config.seed, 0x7a1);
    let mut order: Vec<u32> = epoch_order(&set.samples, config.valid_repeats);
    let mut best: Option<(f64, usize, HashMap<String, Tensor>, SweepMetrics)> = None;
    // The best of the checkpoints `max_copies` rules out, kept in case none qualifies.
    let mut fallback: Option<(f64, usize, HashMap<String, Tensor>, SweepMetrics)> = None;
    for epoch in 1..=config.epochs {
        rng.shuffle(&mut order);
        let (mut sums, mut batches) = ((0.0, 0.0, 0.0), 0.0);
        for chunk in order.chunks(config.batch_size) {
            let (t, r, k) = step(
                &model,
                &mut opt,
                &data,
                chunk,
                config.kl_weight,
                config.free_bits,
                &mut rng,
            )?;
            sums = (sums.0 + t, sums.1 + r, sums.2 + k);
            batches += 1.0;
        }
        progress(CvaeProgress::Epoch {
            epoch,
            epochs: config.epochs,
            loss: sums.0 / batches,
            reconstruction: sums.1 / batches,
            kl: sums.2 / batches,
        });
        let at_checkpoint = epoch % config.checkpoint_every.max(1) == 0 || epoch == config.epochs;
        if !at_checkpoint {
            continue;
        }
        let tensors = snapshot(&varmap)?;
        if let Some(dir) = &config.checkpoint_dir {
            let mut side = sidecar.clone();
            side.training.epochs = epoch;
            save(
                &tensors,
                &side,
                &dir.join(format!("epoch-{epoch:05}.safetensors")),
            )?;
        }
        if !config.select {
            best = Some((0.0, epoch, tensors, SweepMetrics::default()));
            continue;
        }
        let metrics = selection_sweep(
            &varmap,
            &sidecar,
            &device,
            &set.samples,
            config.seed,
            config.selection_sweeps,
        )?;
        let score = metrics.selection_score();
        let copies = metrics.plagiarism_raw.unwrap_or(metrics.plagiarism);
        let selectable = config.max_copies.is_none_or(|most| copies <= most);
        let is_best = selectable && best.as_ref().is_none_or(|b| score >= b.0);
        if !selectable && fallback.as_ref().is_none_or(|b| score >= b.0) {
            fallback = Some((score, epoch, tensors.clone(), metrics.clone()));
        }
        progress(CvaeProgress::Checkpoint {
            epoch,
            metrics: Box::new(metrics.clone()),
            score,
            best: is_best,
        });
        if is_best {
            best = Some((score, epoch, tensors, metrics));
        }
    }
    let (_, selected_epoch, tensors, metrics) = match best.or(fallback) {
        Some(b) => b,
        None => (0.0, 0, snapshot(&varmap)?, SweepMetrics::default()),
    };
    sidecar.training.epochs = config.epochs;
    sidecar.training.selected_epoch = selected_epoch;
    sidecar.training.seconds = started.elapsed().as_secs_f64();
    sidecar.metrics = metrics;
    Ok(Trained { tensors, sidecar })
}

/// The sample indices of one epoch: every level once, the valid ones (median ≤ 20)
/// `valid_repeats` times.
fn epoch_order(samples: &[Sample], valid_repeats: usize) -> Vec<u32> {
    let limit = f64::from(ValidationConfig::default().limit);
    samples
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            let times = if s.moves <= limit {
                valid_repeats.max(1)
            } else {
                1
            };
            std::iter::repeat_n(i as u32, times)
        })
        .collect()
}

/// The selection sweep: `sweeps` seeded sweeps of the raw decoder (their own seeds,
/// `k × 1,000,000 + 3 + seed`, not the evaluation's) validated by the bots with a validation
/// seed of 1, averaged.
fn selection_sweep(
    varmap: &VarMap,
    sidecar: &Sidecar,
    device: &Device,
    training: &[Sample],
    seed: u64,
    sweeps: usize,
) -> Result<SweepMetrics> {
    let generator = CvaeModel::from_varmap(varmap, sidecar.clone(), device)?;
    let config = ValidationConfig {
        seed: 1,
        ..Default::default()
    };
    let runs = (1..=sweeps.max(1) as u64)
        .map(|k| {
            run_sweep_with(
                &generator,
                training,
                k * 1_000_000 + 3 + seed,
                &config,
                super::generator::Decoding::Raw,
            )
            .map(|r| r.metrics)
        })
        .collect::<Result<Vec<_>>>()?;
    let n = runs.len() as f64;
    let mean = |f: &dyn Fn(&SweepMetrics) -> f64| runs.iter().map(f).sum::<f64>() / n;
    let mean_opt = |f: &dyn Fn(&SweepMetrics) -> Option<f64>| {
        runs.iter()
            .map(f)
            .sum::<Option<f64>>()
            .map(|total| total / n)
    };
    Ok(SweepMetrics {
        levels: runs.iter().map(|m| m.levels).sum(),
        size_accuracy: mean(&|m| m.size_accuracy),
        diversity: mean(&|m| m.diversity),
        plagiarism: mean(&|m| m.plagiarism),
        plagiarism_raw: mean_opt(&|m| m.plagiarism_raw),
        difficulty_accuracy: mean_opt(&|m| m.difficulty_accuracy),
        difficulty_mean_distance: mean_opt(&|m| m.difficulty_mean_distance),
        difficulty_std_distance: mean_opt(&|m| m.difficulty_std_distance),
        valid: mean(&|m| m.valid),
        tile_distribution_accuracy: mean(&|m| m.tile_distribution_accuracy),
        ms_per_level: mean(&|m| m.ms_per_level),
        variety: mean_opt(&|m| m.variety),
        variety_raw: mean_opt(&|m| m.variety_raw),
        nearest_training_distance_median: mean_opt(&|m| m.nearest_training_distance_median),
        nearest_training_distance_histogram: runs
            .iter()
            .map(|m| m.nearest_training_distance_histogram.clone())
            .collect::<Option<Vec<Vec<usize>>>>()
            .map(|all| {
                (0..11)
                    .map(|k| all.iter().map(|h| h.get(k).copied().unwrap_or(0)).sum())
                    .collect()
            }),
        nearest_training_distance_median_raw: mean_opt(&|m| m.nearest_training_distance_median_raw),
        blocked_share_median: mean_opt(&|m| m.blocked_share_median),
        blocked_share_median_training: mean_opt(&|m| m.blocked_share_median_training),
        nearly_open_share: mean_opt(&|m| m.nearly_open_share),
        nearly_open_share_training: mean_opt(&|m| m.nearly_open_share_training),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
    use studio_core::symmetry::Symmetry;

    fn sample(moves: f64) -> Sample {
        let layout = Layout::open(5, 5).unwrap();
        Sample {
            layout,
            width: 5,
            height: 5,
            symmetry: Symmetry::Quadrant,
            moves,
        }
    }

    #[test]
    fn an_epoch_repeats_the_valid_levels() {
        let samples = [sample(40.0), sample(18.0), sample(20.0), sample(20.5)];
        assert_eq!(epoch_order(&samples, 1), vec![0, 1, 2, 3]);
        assert_eq!(epoch_order(&samples, 3), vec![0, 1, 1, 1, 2, 2, 2, 3]);
        assert_eq!(epoch_order(&samples, 0), vec![0, 1, 2, 3], "0 means once");
    }
}
