//! The trained CGAN on disk: safetensors (the generator under `gen.`, the discriminator under
//! `disc.`) and a RON sidecar (architecture, data split, training settings and curve, the
//! command that reproduces the weights, and the weights' stamp that loading checks).

use super::model::{Generator, WIDTHS};
use candle_core::DType;
use candle_nn::{VarBuilder, VarMap};
use serde::{Deserialize, Serialize};
use std::path::Path;
use studio_ml::{self as ml, Stamped, WeightsStamp};

/// The architecture name the sidecar records.
pub const ARCHITECTURE: &str = "mario-cgan-cnn-appendix-a-v1";
/// The shipped weights file in `models/`.
pub const WEIGHTS_FILE: &str = "mario-cgan.safetensors";

/// What the CGAN's sidecar records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CganSidecar {
    /// Always [`ARCHITECTURE`].
    pub architecture: String,
    /// Layer widths: both convolutions, the generator's and the discriminator's dense layer.
    pub widths: Vec<usize>,
    /// Training seed (also the level split's).
    pub seed: u64,
    /// Epochs trained.
    pub epochs: usize,
    /// Learning rate (Table 6.1: 5e-5).
    pub learning_rate: f64,
    /// Batch size (Table 6.1: 16).
    pub batch_size: usize,
    /// Weight of the mode-seeking term (0: the thesis's losses alone).
    pub mode_seeking: f64,
    /// The VGLC levels trained on.
    pub train_levels: Vec<String>,
    /// The VGLC levels held out.
    pub test_levels: Vec<String>,
    /// Seconds of training.
    pub train_seconds: f64,
    /// Discriminator and generator loss, one pair per reported epoch.
    pub curve: Vec<(usize, f64, f64)>,
    /// The command that reproduces the weights.
    pub command: String,
    /// Length and hash of the weights file.
    #[serde(default)]
    pub weights: Option<WeightsStamp>,
}

impl Stamped for CganSidecar {
    fn stamp(&self) -> Option<&WeightsStamp> {
        self.weights.as_ref()
    }

    fn set_stamp(&mut self, stamp: WeightsStamp) {
        self.weights = Some(stamp);
    }
}

impl CganSidecar {
    /// Checks that every figure is a finite number.
    ///
    /// # Errors
    /// The first figure that is not, named.
    pub fn check(&self) -> Result<(), ml::WeightsError> {
        if let Some((e, d, g)) = self
            .curve
            .iter()
            .find(|(_, d, g)| !d.is_finite() || !g.is_finite())
        {
            return Err(
                format!("the curve at epoch {e} holds {d} / {g}, not finite numbers").into(),
            );
        }
        if !self.train_seconds.is_finite() {
            return Err(format!(
                "train_seconds {} is not a finite number",
                self.train_seconds
            )
            .into());
        }
        Ok(())
    }
}

/// Saves the networks and their sidecar; a diverged training (a loss that is not a number)
/// is refused before anything is written.
///
/// # Errors
/// Why a file could not be written, or what [`CganSidecar::check`] refused.
pub fn save(varmap: &VarMap, sidecar: &CganSidecar, path: &Path) -> Result<(), ml::WeightsError> {
    sidecar.check().map_err(|e| {
        format!(
            "{}: the training produced a figure that is not a number ({e}); nothing was written",
            path.display()
        )
    })?;
    let tensors = ml::tensors_of(varmap)?;
    Ok(ml::save_model(&tensors, sidecar, path)?)
}

/// Loads the generator and its sidecar, checking the architecture and the stamp.
///
/// # Errors
/// A missing, damaged or mismatched file, in words naming it.
pub fn load(path: &Path) -> Result<(Generator, CganSidecar), ml::WeightsError> {
    let (side, sidecar): (_, CganSidecar) = ml::read_sidecar(path)?;
    sidecar.check().map_err(|e| e.in_file(&side))?;
    if sidecar.architecture != ARCHITECTURE || sidecar.widths != WIDTHS {
        return Err(format!(
            "{}: architecture {:?} with widths {:?}; this build has {ARCHITECTURE:?} with \
             {WIDTHS:?} (retrain with `level-studio train --model mario-cgan`)",
            side.display(),
            sidecar.architecture,
            sidecar.widths,
        )
        .into());
    }
    let bytes = ml::read_stamped(path, &side, sidecar.stamp()).map_err(|e| e.in_file(path))?;
    let device = ml::device();
    let tensors = ml::tensors_from(&bytes, &device).map_err(|e| e.in_file(path))?;
    let vb = VarBuilder::from_tensors(tensors, DType::F32, &device);
    let generator = Generator::new(vb.pp("gen")).map_err(|e| {
        format!(
            "{}: the weights do not fit the generator ({e})",
            path.display()
        )
    })?;
    Ok((generator, sidecar))
}
