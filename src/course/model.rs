//! A trained course actor on disk: safetensors plus a RON sidecar (architecture, structure,
//! training settings and curve, the command that reproduces it, and the weights' stamp that
//! loading checks).

use super::ddpg::{complete, random_start, value_of, Actor, Trained, HIDDEN};
use super::matrix::Structure;
use crate::ml::{self, Stamped, WeightsStamp};
use crate::rng::Rng;
use candle_core::{DType, Device};
use candle_nn::VarBuilder;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The architecture name sidecars carry.
pub const ARCHITECTURE: &str = "course-actor-mlp-v1";

/// The shipped weights file of a generator (`ddpg`, `vs-ddpg`) and event count.
pub fn weights_file(generator: &str, events: usize) -> String {
    format!("course-{generator}-{events}.safetensors")
}

/// What a course actor's sidecar records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourseSidecar {
    /// Always [`ARCHITECTURE`].
    pub architecture: String,
    /// Events per course (9 or 12).
    pub events: usize,
    /// Hidden width of the actor.
    pub hidden: usize,
    /// Virtual completions per step in training (0: DDPG, 5: VS-DDPG).
    pub virtual_completions: usize,
    /// Training seed.
    pub seed: u64,
    /// Episodes trained.
    pub episodes: usize,
    /// Seconds of training.
    pub train_seconds: f64,
    /// Mean evaluation per 50 training episodes (with exploration).
    pub curve: Vec<f64>,
    /// Mean evaluation of 200 greedy courses from one random column (seed 0) at the end.
    pub greedy_mean_evaluation: f64,
    /// The command that reproduces the weights.
    pub command: String,
    /// Length and hash of the weights file.
    #[serde(default)]
    pub weights: Option<WeightsStamp>,
}

impl Stamped for CourseSidecar {
    fn stamp(&self) -> Option<&WeightsStamp> {
        self.weights.as_ref()
    }

    fn set_stamp(&mut self, stamp: WeightsStamp) {
        self.weights = Some(stamp);
    }
}

/// A loaded actor and its sidecar.
pub struct CourseModel {
    /// The actor.
    pub actor: Actor,
    /// Its sidecar.
    pub sidecar: CourseSidecar,
}

/// The mean evaluation of `n` greedy courses completed from `c` random columns.
///
/// # Errors
/// A candle error.
pub fn greedy_mean(
    actor: &Actor,
    structure: Structure,
    n: usize,
    c: usize,
    seed: u64,
) -> candle_core::Result<f64> {
    let mut rng = Rng::new(seed);
    let starts = (0..n)
        .map(|_| random_start(structure, c, &mut rng))
        .collect();
    let done = complete(actor, starts, c, &Device::Cpu)?;
    Ok(done.iter().map(|c| value_of(c)).sum::<f64>() / n.max(1) as f64)
}

/// Saves a trained actor and its sidecar.
///
/// # Errors
/// Why a file could not be written.
pub fn save(trained: &Trained, sidecar: &CourseSidecar, path: &Path) -> Result<(), String> {
    let tensors = ml::tensors_of(&trained.varmap)?;
    ml::save_model(&tensors, sidecar, path).map_err(|e| e.to_string())
}

impl CourseModel {
    /// Loads weights and their sidecar, checking the architecture and the stamp.
    ///
    /// # Errors
    /// A missing, damaged or mismatched file, in words naming it.
    pub fn load(path: &Path) -> Result<Self, String> {
        let side = ml::sidecar_path(path);
        let text = crate::files::read_text(&side).map_err(|e| {
            format!(
                "{}: {e} (the sidecar of {})",
                side.display(),
                path.display()
            )
        })?;
        let sidecar: CourseSidecar =
            crate::files::from_ron(&side, &text).map_err(|e| e.to_string())?;
        if sidecar.architecture != ARCHITECTURE {
            return Err(format!(
                "{}: architecture {:?}, not {ARCHITECTURE:?}",
                side.display(),
                sidecar.architecture
            ));
        }
        let structure = Structure::of_events(sidecar.events)?;
        if sidecar.hidden != HIDDEN {
            return Err(format!(
                "{}: hidden width {}, this build has {HIDDEN}",
                side.display(),
                sidecar.hidden
            ));
        }
        let bytes = ml::read_stamped(path, &side, sidecar.stamp())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let tensors = ml::tensors_from(&bytes, &Device::Cpu)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &Device::Cpu);
        let actor = Actor::new(structure, vb).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Self { actor, sidecar })
    }
}
