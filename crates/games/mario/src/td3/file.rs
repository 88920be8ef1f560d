//! A trained TD3 / VS-TD3 generator on disk: safetensors (the actor under `actor.`, the first
//! critic under `critic.` for DAGP) and a RON sidecar (architecture, settings, the CGAN it was
//! trained with, the training and test curves, the command that reproduces it, and the
//! weights' stamp that loading checks).

use super::model::{Actor, Critic, HIDDEN};
use super::STATE_WIDTH;
use candle_core::DType;
use candle_nn::{VarBuilder, VarMap};
use serde::{Deserialize, Serialize};
use std::path::Path;
use studio_ml::{self as ml, Stamped, WeightsStamp};

/// The architecture name the sidecar records.
pub const ARCHITECTURE: &str = "mario-td3-mlp-v2";

/// The shipped weights file of a generator (`td3` or `vs-td3`) in `models/`.
pub fn weights_file(id: &str) -> &'static str {
    if id == "vs-td3" {
        "mario-vs-td3.safetensors"
    } else {
        "mario-td3.safetensors"
    }
}

/// What the sidecar records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Td3Sidecar {
    /// Always [`ARCHITECTURE`].
    pub architecture: String,
    /// Input width and hidden widths.
    pub widths: [usize; 4],
    /// `td3` or `vs-td3`.
    pub kind: String,
    /// Virtual completions per step (0 for TD3).
    pub virtual_completions: usize,
    /// Training seed.
    pub seed: u64,
    /// Episodes trained.
    pub episodes: usize,
    /// The CGAN's weights stamp (length and hash) the actor learnt to steer.
    pub cgan: Option<WeightsStamp>,
    /// Seconds of training.
    pub train_seconds: f64,
    /// Mean evaluation of every 50 training levels.
    pub curve: Vec<f64>,
    /// (episode, mean evaluation of the test phase's levels).
    pub test_curve: Vec<(usize, f64)>,
    /// The episode whose actor was kept and its test mean.
    pub kept: (usize, f64),
    /// Whether the kept actor is the target actor (the live actor's soft-updated average),
    /// tested beside the live one by `train --test-average`.
    #[serde(default)]
    pub kept_average: bool,
    /// (episode, mean evaluation of the target actor's test levels), with `--test-average`.
    #[serde(default)]
    pub average_curve: Vec<(usize, f64)>,
    /// The command that reproduces the weights.
    pub command: String,
    /// Length and hash of the weights file.
    #[serde(default)]
    pub weights: Option<WeightsStamp>,
}

impl Stamped for Td3Sidecar {
    fn stamp(&self) -> Option<&WeightsStamp> {
        self.weights.as_ref()
    }

    fn set_stamp(&mut self, stamp: WeightsStamp) {
        self.weights = Some(stamp);
    }
}

/// The mean of the last 20 % (at least one) of a curve of (episode, test mean), with the first
/// and last episode it covers; `None` for an empty curve.
fn last_fifth_mean(curve: &[(usize, f64)]) -> Option<(f64, usize, usize)> {
    let n = curve.len();
    let tail = &curve[n - n.div_ceil(5).min(n)..];
    let (first, last) = (tail.first()?.0, tail.last()?.0);
    let mean = tail.iter().map(|(_, v)| v).sum::<f64>() / tail.len() as f64;
    Some((mean, first, last))
}

impl Td3Sidecar {
    /// The thesis's reported figure: the mean of the last 20 % of the test phases (at least
    /// one), with the first and last episode it covers; `None` without test phases.
    pub fn last_fifth_test_mean(&self) -> Option<(f64, usize, usize)> {
        last_fifth_mean(&self.test_curve)
    }

    /// The same figure for the target actor's test phases (`train --test-average`).
    pub fn last_fifth_average_mean(&self) -> Option<(f64, usize, usize)> {
        last_fifth_mean(&self.average_curve)
    }

    /// The widths this build's networks have.
    pub fn expected_widths() -> [usize; 4] {
        [STATE_WIDTH, HIDDEN[0], HIDDEN[1], HIDDEN[2]]
    }

    /// Checks that every figure is a finite number.
    ///
    /// # Errors
    /// The first figure that is not, named.
    pub fn check(&self) -> Result<(), ml::WeightsError> {
        if let Some(v) = self.curve.iter().find(|v| !v.is_finite()) {
            return Err(format!("the training curve holds {v}, not a finite number").into());
        }
        if let Some((e, v)) = self
            .test_curve
            .iter()
            .chain(&self.average_curve)
            .find(|(_, v)| !v.is_finite())
        {
            return Err(format!("the test curve at episode {e} holds {v}").into());
        }
        if !self.train_seconds.is_finite() || !self.kept.1.is_finite() {
            return Err("train_seconds or the kept test mean is not a finite number".into());
        }
        Ok(())
    }
}

/// A loaded generator.
pub struct Td3Model {
    /// The actor.
    pub actor: Actor,
    /// The first critic (DAGP's values).
    pub critic: Critic,
    /// Its sidecar.
    pub sidecar: Td3Sidecar,
}

/// Saves the actor and critic and their sidecar; a figure that is not a number is refused
/// before anything is written.
///
/// # Errors
/// Why a file could not be written, or what [`Td3Sidecar::check`] refused.
pub fn save(
    actor: &VarMap,
    critic: &VarMap,
    sidecar: &Td3Sidecar,
    path: &Path,
) -> Result<(), ml::WeightsError> {
    sidecar.check().map_err(|e| {
        format!(
            "{}: the training produced a figure that is not a number ({e}); nothing was written",
            path.display()
        )
    })?;
    let mut tensors = ml::tensors_of(actor)?;
    tensors.extend(ml::tensors_of(critic)?);
    Ok(ml::save_model(&tensors, sidecar, path)?)
}

/// Loads a generator, checking the architecture, the widths and the stamp.
///
/// # Errors
/// A missing, damaged or mismatched file, in words naming it.
pub fn load(path: &Path) -> Result<Td3Model, ml::WeightsError> {
    let (side, sidecar): (_, Td3Sidecar) = ml::read_sidecar(path)?;
    sidecar.check().map_err(|e| e.in_file(&side))?;
    if sidecar.architecture != ARCHITECTURE || sidecar.widths != Td3Sidecar::expected_widths() {
        return Err(format!(
            "{}: architecture {:?} with widths {:?}; this build has {ARCHITECTURE:?} with {:?}",
            side.display(),
            sidecar.architecture,
            sidecar.widths,
            Td3Sidecar::expected_widths()
        )
        .into());
    }
    let bytes = ml::read_stamped(path, &side, sidecar.stamp()).map_err(|e| e.in_file(path))?;
    let device = ml::device();
    let tensors = ml::tensors_from(&bytes, &device).map_err(|e| e.in_file(path))?;
    let vb = VarBuilder::from_tensors(tensors, DType::F32, &device);
    let misfit = |e: candle_core::Error| {
        format!(
            "{}: the weights do not fit the networks ({e})",
            path.display()
        )
    };
    let actor = Actor::new(vb.pp("actor")).map_err(misfit)?;
    let critic = Critic::new(vb.pp("critic")).map_err(misfit)?;
    Ok(Td3Model {
        actor,
        critic,
        sidecar,
    })
}
