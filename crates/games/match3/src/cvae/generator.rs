//! A loaded model ready to make levels: weights + sidecar on a device. Generation in batches,
//! encoding a level to its latent point, and interpolation between two levels.

use super::arch::{device, Cvae, ModelKind, DTYPE, LATENT};
use super::encoding::{
    condition_vector, encoder_batch, layout_of_classes, layouts_from_logits,
    novel_layout_from_logits, pushed_layout_from_logits, sampled_classes_from_logits,
    sampled_layout_from_logits, Condition, Sample,
};
use super::error::{ModelError, Result};
use super::fast::FastDecoder;
use super::sidecar::{layout_fingerprint, Architecture, Feasibility, Sidecar, SIDECAR_FORMAT};
use crate::layout::Layout;
use candle_core::{Device, Tensor};
use candle_nn::{VarBuilder, VarMap};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::OnceLock;
use studio_core::level::Level;
use studio_core::rng::Rng;
use studio_core::symmetry::Symmetry;

/// Levels decoded per forward pass.
pub const BATCH: usize = 256;

/// A trained Avalon or Vanilla model with its sidecar.
#[derive(Debug)]
pub struct CvaeModel {
    model: Cvae,
    /// The decoder copied for fast CPU inference (`None` on a CUDA device).
    fast: Option<FastDecoder>,
    /// The sidecar's training fingerprints, as a set.
    known: HashSet<u64>,
    /// The training layouts by size, for [`Decoding::Fresh`]: given, or read on first use.
    training: OnceLock<std::result::Result<TrainingBySize, String>>,
    sidecar: Sidecar,
    device: Device,
}

/// The result of [`CvaeModel::interpolate`].
#[derive(Clone, Debug)]
pub struct Interpolation {
    /// The decoder's reconstruction of the first level (t = 0).
    pub start: Layout,
    /// The decoder's reconstruction of the second level (t = 1).
    pub end: Layout,
    /// The in-between levels, t = 1/(steps+1) … steps/(steps+1).
    pub between: Vec<Layout>,
    /// The conditions the in-between levels were decoded with.
    pub conditions: Vec<Condition>,
    /// The first level's latent point (μ of the encoder).
    pub z_start: Vec<f32>,
    /// The second level's latent point (μ of the encoder).
    pub z_end: Vec<f32>,
}

pub use studio_ml::sidecar_path;

/// Training layouts by play-area size.
type TrainingBySize = HashMap<(usize, usize), Vec<Layout>>;

/// How decoder outputs become layouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decoding {
    /// The argmax per cell, as the decoder gives it (copies of training levels kept).
    Raw,
    /// The argmax, with copies of training levels replaced by the most likely novel layout.
    Novel,
    /// Each cell drawn from the decoder's softmax at this temperature (symmetry kept), copies
    /// drawn again.
    Sampled {
        /// The softmax temperature (1: the decoder's own probabilities).
        temperature: f32,
    },
    /// Cells drawn as [`Decoding::Sampled`] until the level lies at least `min_distance`
    /// canvas cells from every training layout of its size; the temperature rises by the
    /// steps of [`FRESH_STEPS`] while no draw gets there. When none does, the farthest draw
    /// is pushed there by the cheapest cell changes; a level that cannot be is that draw
    /// (levels of [`CvaeModel::generate_distinct_decoded`] and validated generation that
    /// fall short are dropped instead). [`Decoding::DEFAULT`] is what Generate gives.
    Fresh {
        /// The fewest cells in which a level must differ from every training layout.
        min_distance: usize,
        /// The first draws' temperature (0 means [`FRESH_TEMPERATURE`]).
        temperature: f32,
    },
}

/// Cells in which a level differs from every training layout of its size by default (the
/// `fresh` condition's default, `generate --fresh`'s and validated generation's).
pub const DEFAULT_FRESH: usize = 3;

/// The first temperature of fresh draws when none is asked for (1.1: among 16 levels of one
/// condition ~61 % distinct at a fresh distance of 3, against ~60 % at 1; docs/match3-cvae.md).
pub const FRESH_TEMPERATURE: f32 = 1.1;

impl Decoding {
    /// The default decoding: fresh levels, at least [`DEFAULT_FRESH`] cells from every
    /// training layout of their size, drawn from [`FRESH_TEMPERATURE`].
    pub const DEFAULT: Decoding = Decoding::Fresh {
        min_distance: DEFAULT_FRESH,
        temperature: FRESH_TEMPERATURE,
    };

    /// The decoding the window's conditions and the command line's flags ask for: `fresh`
    /// cells at least (`None`: [`DEFAULT_FRESH`]; 0: no promise, a copy of a training level
    /// gets the cheapest one- or two-cell edit) and a cell `temperature` (`None` or 0: the
    /// argmax, or [`FRESH_TEMPERATURE`] for fresh draws).
    pub fn chosen(fresh: Option<usize>, temperature: Option<f64>) -> Decoding {
        let temperature = temperature.filter(|&t| t > 0.0).map(|t| t as f32);
        match (fresh.unwrap_or(DEFAULT_FRESH), temperature) {
            (0, Some(temperature)) => Decoding::Sampled { temperature },
            (0, None) => Decoding::Novel,
            (min_distance, t) => Decoding::Fresh {
                min_distance,
                temperature: t.unwrap_or(FRESH_TEMPERATURE),
            },
        }
    }
}

/// Fresh decoding's draws: (multiple of the starting temperature, draws at it).
pub const FRESH_STEPS: [(f32, usize); 4] = [(1.0, 8), (1.5, 8), (2.0, 8), (3.0, 8)];

/// Cell changes beyond `min_distance` that [`Decoding::Fresh`] may make to push its farthest
/// draw far enough from the training layouts when no draw got there.
pub const PUSH_SLACK: usize = 3;

/// Salt of the per-cell draws' seeds (apart from the latent points').
pub const SAMPLE_SALT: u64 = 0x5a3c_1e0d_77f1_b2a9;
/// Draws of a level before a copy of a training level is made novel by edits.
pub const REDRAWS: usize = 16;

/// Tensor names and shapes the architecture of `kind` has, sorted by name.
pub fn expected_tensors(kind: ModelKind) -> Result<Vec<(String, Vec<usize>)>> {
    let varmap = VarMap::new();
    Cvae::new(kind, VarBuilder::from_varmap(&varmap, DTYPE, &Device::Cpu))?;
    let data = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("poisoned var map".into()))?;
    let mut out: Vec<(String, Vec<usize>)> = data
        .iter()
        .map(|(k, v)| (k.clone(), v.dims().to_vec()))
        .collect();
    out.sort();
    Ok(out)
}

impl CvaeModel {
    /// Loads weights and their sidecar (same name, `.ron`), checking the architecture.
    ///
    /// # Errors
    /// [`ModelError::MissingWeights`], [`ModelError::MissingSidecar`],
    /// [`ModelError::CorruptSidecar`], [`ModelError::WrongArchitecture`],
    /// [`ModelError::CorruptWeights`], [`ModelError::MissingTensor`],
    /// [`ModelError::ShapeMismatch`].
    pub fn load(weights: &Path) -> Result<Self> {
        if !studio_ml::weights_present(weights) {
            return Err(ModelError::MissingWeights {
                path: weights.to_path_buf(),
            });
        }
        let side = sidecar_path(weights);
        let sidecar = read_sidecar(&side)?;
        let device = device();
        let corrupt = |error: studio_ml::WeightsError| ModelError::CorruptWeights {
            path: weights.to_path_buf(),
            reason: error.to_string(),
        };
        // Read into memory (no memory map), checked against the sidecar's stamp.
        let bytes =
            studio_ml::read_stamped(weights, &side, sidecar.weights.as_ref()).map_err(corrupt)?;
        let tensors = studio_ml::tensors_from(&bytes, &device).map_err(corrupt)?;
        check_tensors(weights, sidecar.architecture.kind, &tensors)?;
        let vb = VarBuilder::from_tensors(tensors, DTYPE, &device);
        let model = Cvae::new(sidecar.architecture.kind, vb)?;
        Self::assemble(model, sidecar, device)
    }

    /// A generator over live training variables (checkpoint sweeps, tests).
    ///
    /// # Errors
    /// A var map that lacks the architecture's tensors.
    pub fn from_varmap(varmap: &VarMap, sidecar: Sidecar, device: &Device) -> Result<Self> {
        let model = Cvae::new(
            sidecar.architecture.kind,
            VarBuilder::from_varmap(varmap, DTYPE, device),
        )?;
        Self::assemble(model, sidecar, device.clone())
    }

    fn assemble(model: Cvae, sidecar: Sidecar, device: Device) -> Result<Self> {
        let fast = if device.is_cpu() {
            Some(FastDecoder::new(model.decoder())?)
        } else {
            None
        };
        let known = sidecar.training_fingerprints.iter().copied().collect();
        Ok(Self {
            model,
            fast,
            known,
            training: OnceLock::new(),
            sidecar,
            device,
        })
    }

    /// Decoder logits (`[N, 3, 11, 9]` flattened) through candle, bypassing the fast CPU
    /// copy (tests compare the two).
    ///
    /// # Errors
    /// A tensor failure.
    pub fn logits_candle(&self, z_hat: &[f32], n: usize) -> Result<Vec<f32>> {
        let t = Tensor::from_slice(z_hat, (n, z_hat.len() / n.max(1)), &self.device)?;
        Ok(self.model.decode(&t)?.flatten_all()?.to_vec1::<f32>()?)
    }

    /// Avalon or Vanilla.
    pub fn kind(&self) -> ModelKind {
        self.model.kind()
    }

    /// The sidecar (normalisation, coverage, metrics at selection).
    pub fn sidecar(&self) -> &Sidecar {
        &self.sidecar
    }

    /// Checks a condition: ranges, and moves present for Avalon.
    ///
    /// # Errors
    /// [`ModelError::SizeOutOfRange`], [`ModelError::MovesOutOfRange`],
    /// [`ModelError::MovesRequired`].
    pub fn check(&self, condition: &Condition) -> Result<()> {
        condition.check()?;
        if self.kind().uses_moves() && condition.moves.is_none() {
            return Err(ModelError::MovesRequired {
                model: self.kind().to_string(),
            });
        }
        Ok(())
    }

    /// Whether the training set covers `condition` (and, if not, the nearest that it does).
    pub fn feasibility(&self, condition: &Condition) -> Feasibility {
        self.sidecar.feasibility(condition)
    }

    /// `count` levels for one condition; level `i` decodes the latent point drawn from
    /// `Rng::derive(seed, i)`, so a batch's levels do not depend on the batch size.
    ///
    /// # Errors
    /// As [`CvaeModel::check`].
    pub fn generate(&self, condition: &Condition, count: usize, seed: u64) -> Result<Vec<Layout>> {
        self.check(condition)?;
        self.generate_each(&vec![*condition; count], seed)
    }

    /// Up to `count` *distinct* levels for one condition, trying at most `budget` decodes.
    /// A model often decodes the same layout for nearby latent points; after the first round
    /// (exactly [`CvaeModel::generate`]`(condition, count, seed)`) more rounds with derived
    /// seeds are drawn until `count` distinct levels are found. Returns the levels and the
    /// decodes tried; fewer than `count` levels means the budget ran out.
    ///
    /// # Errors
    /// As [`CvaeModel::check`].
    pub fn generate_distinct(
        &self,
        condition: &Condition,
        count: usize,
        seed: u64,
        budget: usize,
    ) -> Result<(Vec<Layout>, usize)> {
        self.generate_distinct_decoded(condition, count, seed, budget, Decoding::Novel)
    }

    /// As [`CvaeModel::generate_distinct`], decoding as `decoding` says.
    ///
    /// # Errors
    /// As [`CvaeModel::check`].
    pub fn generate_distinct_decoded(
        &self,
        condition: &Condition,
        count: usize,
        seed: u64,
        budget: usize,
        decoding: Decoding,
    ) -> Result<(Vec<Layout>, usize)> {
        self.check(condition)?;
        let mut seen: HashSet<Layout> = HashSet::new();
        let mut out = Vec::with_capacity(count);
        let (mut attempts, mut round) = (0usize, 0u64);
        while out.len() < count && attempts < budget {
            let n = if round == 0 {
                count
            } else {
                (2 * (count - out.len())).clamp(16, BATCH)
            }
            .min(budget - attempts);
            let round_seed = seed.wrapping_add(round.wrapping_mul(0x9E37_79B9));
            round += 1;
            attempts += n;
            for layout in self.generate_each_decoded(&vec![*condition; n], round_seed, decoding)? {
                if out.len() < count
                    && self.is_new(&layout, decoding)?
                    && seen.insert(layout.clone())
                {
                    out.push(layout);
                }
            }
        }
        Ok((out, attempts))
    }

    /// One level for each condition (level `i` from `Rng::derive(seed, i)`), in batches.
    /// A level that decodes to an exact copy of a training level is replaced by the decoder's
    /// most likely novel layout of the same size: the argmax with the one or two kept cells
    /// changed whose change costs the least logit margin (see
    /// [`novel_layout_from_logits`]). The designer asked for new levels, and this keeps as
    /// much of what the decoder wanted as possible.
    ///
    /// # Errors
    /// As [`CvaeModel::check`] for any condition.
    pub fn generate_each(&self, conditions: &[Condition], seed: u64) -> Result<Vec<Layout>> {
        self.generate_each_with(conditions, seed, true)
    }

    /// As [`CvaeModel::generate_each`], with the novelty step on or off (off: the raw
    /// decoder output, for measuring the model alone).
    ///
    /// # Errors
    /// As [`CvaeModel::check`] for any condition.
    pub fn generate_each_with(
        &self,
        conditions: &[Condition],
        seed: u64,
        novel: bool,
    ) -> Result<Vec<Layout>> {
        let decoding = if novel {
            Decoding::Novel
        } else {
            Decoding::Raw
        };
        self.generate_each_decoded(conditions, seed, decoding)
    }

    /// As [`CvaeModel::generate_each`], decoding as `decoding` says. With
    /// [`Decoding::Sampled`], level `i`'s cells are drawn from `Rng::derive(seed ^
    /// SAMPLE_SALT, i)`; a draw that copies a training level is drawn again (up to
    /// [`REDRAWS`] times), then made novel as the argmax is.
    ///
    /// # Errors
    /// As [`CvaeModel::check`] for any condition.
    pub fn generate_each_decoded(
        &self,
        conditions: &[Condition],
        seed: u64,
        decoding: Decoding,
    ) -> Result<Vec<Layout>> {
        for c in conditions {
            self.check(c)?;
        }
        match decoding {
            Decoding::Sampled { temperature } => {
                return self.generate_sampled(conditions, seed, temperature, None);
            }
            Decoding::Fresh {
                min_distance,
                temperature,
            } => {
                let t = if temperature > 0.0 {
                    temperature
                } else {
                    FRESH_TEMPERATURE
                };
                return self.generate_sampled(conditions, seed, t, Some(min_distance));
            }
            Decoding::Raw | Decoding::Novel => {}
        }
        let novel = decoding == Decoding::Novel;
        let mut out = Vec::with_capacity(conditions.len());
        for (b, chunk) in conditions.chunks(BATCH).enumerate() {
            let z: Vec<f32> = (0..chunk.len())
                .flat_map(|i| {
                    let mut rng = Rng::derive(seed, (b * BATCH + i) as u64);
                    (0..LATENT).map(move |_| rng.normal() as f32)
                })
                .collect();
            out.extend(if novel {
                self.decode_novel(&z, chunk)?
            } else {
                self.decode(&z, chunk)?
            });
        }
        Ok(out)
    }

    /// Per-cell draws: copies drawn again ([`Decoding::Sampled`]), or with `min_distance`
    /// the draws of [`Decoding::Fresh`].
    fn generate_sampled(
        &self,
        conditions: &[Condition],
        seed: u64,
        temperature: f32,
        min_distance: Option<usize>,
    ) -> Result<Vec<Layout>> {
        let training = match min_distance {
            Some(_) => Some(self.training_by_size()?),
            None => None,
        };
        let mut out = Vec::with_capacity(conditions.len());
        for (b, chunk) in conditions.chunks(BATCH).enumerate() {
            let z: Vec<f32> = (0..chunk.len())
                .flat_map(|i| {
                    let mut rng = Rng::derive(seed, (b * BATCH + i) as u64);
                    (0..LATENT).map(move |_| rng.normal() as f32)
                })
                .collect();
            let logits = self.logits(&z, chunk)?;
            for (i, condition) in chunk.iter().enumerate() {
                let mut rng = Rng::derive(seed ^ SAMPLE_SALT, (b * BATCH + i) as u64);
                if let (Some(d), Some(training)) = (min_distance, training) {
                    let draw = |t: f32, rng: &mut Rng| {
                        let classes = sampled_classes_from_logits(&logits, i, condition, t, rng);
                        let layout = layout_of_classes(&logits, i, condition, &classes)?;
                        Ok((classes, layout))
                    };
                    let push = |classes: &[usize]| {
                        pushed_layout_from_logits(
                            &logits,
                            i,
                            condition,
                            classes,
                            d,
                            d + PUSH_SLACK,
                            |l| distance_to(training, l),
                        )
                    };
                    if let Some(layout) =
                        self.fresh_draw(condition, temperature, d, training, draw, push, &mut rng)?
                    {
                        out.push(layout);
                        continue;
                    }
                }
                let mut layout =
                    sampled_layout_from_logits(&logits, i, condition, temperature, &mut rng)?;
                for _ in 0..REDRAWS {
                    if !self.is_training_level(&layout) {
                        break;
                    }
                    layout =
                        sampled_layout_from_logits(&logits, i, condition, temperature, &mut rng)?;
                }
                if self.is_training_level(&layout) {
                    if let Some(novel) = novel_layout_from_logits(&logits, i, condition, |l| {
                        self.is_training_level(l)
                    }) {
                        layout = novel;
                    }
                }
                out.push(layout);
            }
        }
        Ok(out)
    }

    /// One level of [`Decoding::Fresh`]: the first draw at least `min_distance` cells from
    /// the training layouts of its size, else the farthest draw of the requested size pushed
    /// there by the cheapest cell changes (`push`), else that draw as it is; `None` when
    /// every draw copied a training level or missed the size.
    #[allow(clippy::too_many_arguments)]
    fn fresh_draw(
        &self,
        condition: &Condition,
        temperature: f32,
        min_distance: usize,
        training: &TrainingBySize,
        draw: impl Fn(f32, &mut Rng) -> Result<(Vec<usize>, Layout)>,
        push: impl Fn(&[usize]) -> Option<Layout>,
        rng: &mut Rng,
    ) -> Result<Option<Layout>> {
        let size = (condition.width, condition.height);
        let mut farthest: Option<(usize, Vec<usize>, Layout)> = None;
        for (scale, draws) in FRESH_STEPS {
            for _ in 0..draws {
                let (classes, layout) = draw(temperature * scale, rng)?;
                if layout.size() != size {
                    continue;
                }
                let d = distance_to(training, &layout).unwrap_or(usize::MAX);
                if d >= min_distance {
                    return Ok(Some(layout));
                }
                if farthest.as_ref().is_none_or(|(best, ..)| d > *best) {
                    farthest = Some((d, classes, layout));
                }
            }
        }
        Ok(farthest
            .and_then(|(d, classes, layout)| push(&classes).or_else(|| (d > 0).then_some(layout))))
    }

    /// True when `layout` is one of the training levels (by fingerprint).
    pub fn is_training_level(&self, layout: &Layout) -> bool {
        self.known.contains(&layout_fingerprint(layout))
    }

    /// Whether `layout` counts as new under `decoding`: at least `min_distance` cells from
    /// every training layout of its size for [`Decoding::Fresh`], otherwise not a copy of a
    /// training level.
    ///
    /// # Errors
    /// [`ModelError::TrainingLayouts`] when fresh decoding cannot have the training layouts.
    pub fn is_new(&self, layout: &Layout, decoding: Decoding) -> Result<bool> {
        if let Decoding::Fresh { min_distance, .. } = decoding {
            let training = self.training_by_size()?;
            return Ok(distance_to(training, layout).is_none_or(|d| d >= min_distance));
        }
        Ok(!self.is_training_level(layout))
    }

    /// Cells of the 9 × 11 canvas in which `layout` differs from the nearest training layout
    /// of its size; `None` when no training layout has that size.
    ///
    /// # Errors
    /// As [`CvaeModel::is_new`].
    pub fn training_distance(&self, layout: &Layout) -> Result<Option<usize>> {
        Ok(distance_to(self.training_by_size()?, layout))
    }

    /// Checks that `decoding` can run: [`Decoding::Fresh`] needs the training layouts.
    ///
    /// # Errors
    /// As [`CvaeModel::is_new`].
    pub fn check_decoding(&self, decoding: Decoding) -> Result<()> {
        if let Decoding::Fresh { .. } = decoding {
            self.training_by_size()?;
        }
        Ok(())
    }

    /// Gives the model the layouts it was trained on, for [`Decoding::Fresh`] (without
    /// this they are read from the sidecar's data folder on first use, and refused when
    /// that file has changed since training). False when the model already has them.
    pub fn set_training(&self, samples: &[Sample]) -> bool {
        self.training
            .set(Ok(by_size(samples.iter().map(|s| &s.layout))))
            .is_ok()
    }

    fn training_by_size(&self) -> Result<&TrainingBySize> {
        let data = &self.sidecar.training.data;
        let loaded = self.training.get_or_init(|| {
            let set = super::training_set::TrainingSet::load(Path::new(data))
                .map_err(|e| e.to_string())?;
            if set.hash != self.sidecar.training.data_hash {
                return Err(format!(
                    "{}/train.ron has changed since the model was trained (hash {}, the sidecar \
                     says {}); fresh levels are measured against the layouts the model saw",
                    data, set.hash, self.sidecar.training.data_hash
                ));
            }
            Ok(by_size(set.samples.iter().map(|s| &s.layout)))
        });
        loaded
            .as_ref()
            .map_err(|reason| ModelError::TrainingLayouts {
                data: data.clone(),
                reason: reason.clone(),
            })
    }

    /// Replaces every layout that copies a training level by the most likely novel one
    /// (kept when no novel layout of its size lies within two cell changes).
    fn make_novel(&self, logits: &[f32], conditions: &[Condition], layouts: &mut [Layout]) {
        for (i, (layout, condition)) in layouts.iter_mut().zip(conditions).enumerate() {
            if self.is_training_level(layout) {
                if let Some(novel) =
                    novel_layout_from_logits(logits, i, condition, |l| self.is_training_level(l))
                {
                    *layout = novel;
                }
            }
        }
    }

    /// Decodes latent points (`LATENT` floats each, one per condition) into layouts.
    ///
    /// # Errors
    /// A `z` of the wrong length, [`ModelError::SizeOutOfRange`] for a condition whose play
    /// area does not fit the canvas, or a tensor failure.
    pub fn decode(&self, z: &[f32], conditions: &[Condition]) -> Result<Vec<Layout>> {
        layouts_from_logits(&self.logits(z, conditions)?, conditions)
    }

    /// As [`CvaeModel::decode`], with copies of training levels replaced by the most likely
    /// novel layout, as in [`CvaeModel::generate_each`].
    ///
    /// # Errors
    /// As [`CvaeModel::decode`].
    pub fn decode_novel(&self, z: &[f32], conditions: &[Condition]) -> Result<Vec<Layout>> {
        let logits = self.logits(z, conditions)?;
        let mut layouts = layouts_from_logits(&logits, conditions)?;
        self.make_novel(&logits, conditions, &mut layouts);
        Ok(layouts)
    }

    /// Decoder logits (`[N, 3, 11, 9]` flattened) for latent points (`LATENT` floats each,
    /// one per condition).
    ///
    /// # Errors
    /// A `z` of the wrong length, or a tensor failure.
    pub fn logits(&self, z: &[f32], conditions: &[Condition]) -> Result<Vec<f32>> {
        let n = conditions.len();
        if z.len() != n * LATENT {
            return Err(candle_core::Error::Msg(format!(
                "{} latent values for {n} levels",
                z.len()
            ))
            .into());
        }
        let mut z_hat = Vec::with_capacity(n * self.kind().decoder_inputs());
        for (zi, c) in z.chunks_exact(LATENT).zip(conditions) {
            z_hat.extend_from_slice(zi);
            z_hat.extend(condition_vector(
                self.kind(),
                c.width,
                c.height,
                c.moves,
                &self.sidecar.moves,
            ));
        }
        Ok(match &self.fast {
            Some(fast) => fast.decode(&z_hat, n),
            None => self.logits_candle(&z_hat, n)?,
        })
    }

    /// The latent point (encoder mean) of a level, conditioned on its size, detected
    /// symmetry and stored validated moves (40 when it has none).
    ///
    /// # Errors
    /// [`ModelError::BadLevel`] when the level is not a usable layout.
    pub fn encode(&self, level: &Level) -> Result<Vec<f32>> {
        let sample = Sample::from_level(level, None)?;
        self.encode_sample(&sample)
    }

    /// The latent point of a prepared sample.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn encode_sample(&self, sample: &Sample) -> Result<Vec<f32>> {
        let (x, _, _) = encoder_batch(self.kind(), &[sample], &self.sidecar.moves, &self.device)?;
        let (mu, _) = self.model.encode(&x)?;
        Ok(mu.flatten_all()?.to_vec1::<f32>()?)
    }

    /// Walks the latent line from level `a` to level `b`: the reconstructions of both and
    /// `steps` levels in between. Size and moves are interpolated (sizes rounded); the
    /// symmetry is `a`'s for the first half and `b`'s for the second.
    ///
    /// # Errors
    /// [`ModelError::BadLevel`] for a level that cannot be encoded.
    pub fn interpolate(&self, a: &Level, b: &Level, steps: usize) -> Result<Interpolation> {
        let (sa, sb) = (Sample::from_level(a, None)?, Sample::from_level(b, None)?);
        let (za, zb) = (self.encode_sample(&sa)?, self.encode_sample(&sb)?);
        let lerp = |x: f64, y: f64, t: f64| x + (y - x) * t;
        let mut conditions = vec![sa.condition(), sb.condition()];
        let mut z: Vec<f32> = za.iter().chain(&zb).copied().collect();
        for k in 1..=steps {
            let t = k as f64 / (steps + 1) as f64;
            let symmetry: Symmetry = if t < 0.5 { sa.symmetry } else { sb.symmetry };
            conditions.push(Condition {
                width: lerp(sa.width as f64, sb.width as f64, t).round() as usize,
                height: lerp(sa.height as f64, sb.height as f64, t).round() as usize,
                symmetry,
                moves: Some(lerp(sa.moves, sb.moves, t)),
            });
            z.extend(
                za.iter()
                    .zip(&zb)
                    .map(|(&x, &y)| lerp(x as f64, y as f64, t) as f32),
            );
        }
        // `decode` gives one layout per condition, and the endpoints' come first.
        let mut layouts = self.decode(&z, &conditions)?.into_iter();
        let (Some(start), Some(end)) = (layouts.next(), layouts.next()) else {
            return Err(candle_core::Error::Msg("the decoder returned no endpoints".into()).into());
        };
        Ok(Interpolation {
            start,
            end,
            between: layouts.collect(),
            conditions: conditions.split_off(2),
            z_start: za,
            z_end: zb,
        })
    }
}

/// Reads and checks a sidecar.
///
/// # Errors
/// [`ModelError::MissingSidecar`], [`ModelError::CorruptSidecar`],
/// [`ModelError::WrongArchitecture`].
pub fn read_sidecar(path: &Path) -> Result<Sidecar> {
    if !path.exists() {
        return Err(ModelError::MissingSidecar {
            path: path.to_path_buf(),
        });
    }
    let text = studio_core::io::read_text(path).map_err(|e| ModelError::CorruptSidecar {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    parse_sidecar(path, &text)
}

/// Parses and checks a sidecar's text (`path` names it in errors).
///
/// # Errors
/// [`ModelError::CorruptSidecar`], [`ModelError::WrongArchitecture`].
pub fn parse_sidecar(path: &Path, text: &str) -> Result<Sidecar> {
    let sidecar: Sidecar = ron::from_str(text).map_err(|e| ModelError::CorruptSidecar {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    if let Err(reason) = sidecar.check_numbers() {
        return Err(ModelError::CorruptSidecar {
            path: path.to_path_buf(),
            reason,
        });
    }
    let expected = Architecture::of(sidecar.architecture.kind);
    if sidecar.format != SIDECAR_FORMAT || sidecar.architecture != expected {
        return Err(ModelError::WrongArchitecture {
            path: path.to_path_buf(),
            expected: format!("{:?}", expected),
            found: format!("format {} {:?}", sidecar.format, sidecar.architecture),
        });
    }
    Ok(sidecar)
}

fn check_tensors(path: &Path, kind: ModelKind, tensors: &HashMap<String, Tensor>) -> Result<()> {
    for (name, expected) in expected_tensors(kind)? {
        let Some(t) = tensors.get(&name) else {
            return Err(ModelError::MissingTensor {
                path: path.to_path_buf(),
                name,
            });
        };
        if t.dims() != expected.as_slice() {
            return Err(ModelError::ShapeMismatch {
                path: path.to_path_buf(),
                name,
                expected,
                found: t.dims().to_vec(),
            });
        }
    }
    Ok(())
}

/// Saves weights (safetensors) and the sidecar (RON) atomically: each goes to a temporary
/// file that is then renamed.
///
/// # Errors
/// [`ModelError::Write`].
pub fn save(tensors: &HashMap<String, Tensor>, sidecar: &Sidecar, weights: &Path) -> Result<()> {
    studio_ml::save_model(tensors, sidecar, weights).map_err(|e| ModelError::Write {
        path: e.path,
        reason: e.reason,
    })
}

/// A snapshot of a var map's tensors (copied, so later training steps do not change it).
///
/// # Errors
/// A tensor failure.
pub fn snapshot(varmap: &VarMap) -> Result<HashMap<String, Tensor>> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("poisoned var map".into()))?;
    let mut out = HashMap::new();
    for (k, v) in data.iter() {
        out.insert(k.clone(), v.as_tensor().copy()?);
    }
    Ok(out)
}

fn by_size<'a>(layouts: impl Iterator<Item = &'a Layout>) -> TrainingBySize {
    let mut out = TrainingBySize::new();
    for l in layouts {
        out.entry(l.size()).or_default().push(l.clone());
    }
    out
}

fn distance_to(training: &TrainingBySize, layout: &Layout) -> Option<usize> {
    training
        .get(&layout.size())?
        .iter()
        .map(|t| super::metrics::canvas_distance(layout, t))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generate_is_fresh_unless_asked_otherwise() {
        assert_eq!(Decoding::chosen(None, None), Decoding::DEFAULT);
        assert_eq!(
            Decoding::chosen(None, Some(0.0)),
            Decoding::Fresh {
                min_distance: 3,
                temperature: FRESH_TEMPERATURE
            }
        );
        assert_eq!(
            Decoding::chosen(Some(4), Some(2.0)),
            Decoding::Fresh {
                min_distance: 4,
                temperature: 2.0
            }
        );
        // Fresh 0 asks for near copies: the argmax edited, or cells drawn.
        assert_eq!(Decoding::chosen(Some(0), None), Decoding::Novel);
        assert_eq!(
            Decoding::chosen(Some(0), Some(1.0)),
            Decoding::Sampled { temperature: 1.0 }
        );
    }
}
