//! A trained solution-down DQN on disk: safetensors weights and a RON sidecar with the board
//! size, training settings and the figures at the end of training.

use super::qnet::{QNet, QNetShape};
use crate::level::MAX_SIDE;
use candle_core::{DType, Device};
use candle_nn::{VarBuilder, VarMap};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use studio_core::io;

/// The shipped model, relative to the repository root.
pub const SHIPPED_WEIGHTS: &str = "models/longcat-dqn-8x8.safetensors";
/// Architecture name written in sidecars.
pub const ARCHITECTURE: &str = "longcat-dqn-v1";

/// Why a DQN model cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DqnError {
    /// The weights file is not there.
    #[error("{path}: DQN weights not found; the longcat-dqn generator is disabled (train one with `level-studio train --model longcat-dqn --size 8x8 --out {path}`)")]
    MissingWeights {
        /// Where the weights were looked for.
        path: PathBuf,
    },
    /// The sidecar is missing, unreadable or not for a Longcat board.
    #[error("{path}: DQN sidecar unreadable: {reason}")]
    Sidecar {
        /// The sidecar (when saving, the folder or file that could not be written).
        path: PathBuf,
        /// What went wrong, in words.
        reason: String,
    },
    /// The sidecar names another architecture.
    #[error("{path}: sidecar is for architecture {found:?}, expected {ARCHITECTURE:?}")]
    WrongArchitecture {
        /// The sidecar file.
        path: PathBuf,
        /// The architecture it names.
        found: String,
    },
    /// The weights do not fit the network.
    #[error("{path}: DQN weights are refused: {reason}")]
    CorruptWeights {
        /// The weights file.
        path: PathBuf,
        /// What loading them reported.
        reason: String,
    },
    /// The request is for a board the model was not trained on.
    #[error("the DQN was trained for {trained}, not {requested}; supported sizes: {trained}")]
    UnsupportedSize {
        /// The board the model was trained on, as `WxH`.
        trained: String,
        /// The board asked for, as `WxH`.
        requested: String,
    },
    /// Bad generation parameters.
    #[error("{0}")]
    BadParameter(String),
    /// Training produced a figure that is not a finite number (a diverged run); nothing was
    /// written.
    #[error("{path}: the training produced a figure that is not a number ({reason}); nothing was written")]
    NotFinite {
        /// The weights that were not written.
        path: PathBuf,
        /// The figure, in words.
        reason: String,
    },
    /// A tensor operation failed.
    #[error("tensor error: {0}")]
    Tensor(#[from] candle_core::Error),
    /// Writing failed.
    #[error(transparent)]
    File(#[from] io::FileError),
}

/// What is saved next to the weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DqnSidecar {
    /// Always [`ARCHITECTURE`].
    pub architecture: String,
    /// Board size.
    pub shape: QNetShape,
    /// Training seed.
    pub seed: u64,
    /// Environment steps trained.
    pub steps: usize,
    /// Seconds of training.
    pub train_seconds: f64,
    /// Mean difficulty of the last training episodes (ε-greedy).
    pub final_mean_difficulty: f64,
    /// Mean difficulty of random solution-down levels of the same size, for comparison.
    pub random_mean_difficulty: f64,
    /// Virtual completions per step in training (0: plain rewards; see
    /// `DqnTrainConfig::virtual_completions`).
    #[serde(default)]
    pub virtual_completions: usize,
    /// The command that reproduces the weights.
    pub command: String,
    /// Length and hash of the weights file, written when the weights are saved.
    #[serde(default)]
    pub weights: Option<studio_ml::WeightsStamp>,
}

impl DqnSidecar {
    /// Parses and checks a sidecar's text (`path` names it in errors): the architecture, a
    /// Longcat board size and finite figures ([`DqnSidecar::check`]).
    ///
    /// # Errors
    /// [`DqnError::Sidecar`], [`DqnError::WrongArchitecture`].
    pub fn parse(path: &Path, text: &str) -> Result<Self, DqnError> {
        let sidecar: DqnSidecar = io::from_ron(path, text).map_err(|e| DqnError::Sidecar {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        if sidecar.architecture != ARCHITECTURE {
            return Err(DqnError::WrongArchitecture {
                path: path.to_path_buf(),
                found: sidecar.architecture,
            });
        }
        let QNetShape { width, height } = sidecar.shape;
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(DqnError::Sidecar {
                path: path.to_path_buf(),
                reason: format!("board {width}x{height} is not a Longcat board (1x1 to 10x10)"),
            });
        }
        sidecar.check().map_err(|reason| DqnError::Sidecar {
            path: path.to_path_buf(),
            reason,
        })?;
        Ok(sidecar)
    }

    /// Checks that every figure is a finite number: the seconds and both mean difficulties.
    ///
    /// # Errors
    /// The first figure that is not, named by its field.
    pub fn check(&self) -> Result<(), String> {
        let figures = [
            ("train_seconds", self.train_seconds),
            ("final_mean_difficulty", self.final_mean_difficulty),
            ("random_mean_difficulty", self.random_mean_difficulty),
        ];
        for (name, v) in figures {
            if !v.is_finite() || (name == "train_seconds" && v < 0.0) {
                return Err(format!("{name} {v} is not a finite number"));
            }
        }
        Ok(())
    }
}

impl studio_ml::Stamped for DqnSidecar {
    fn stamp(&self) -> Option<&studio_ml::WeightsStamp> {
        self.weights.as_ref()
    }

    fn set_stamp(&mut self, stamp: studio_ml::WeightsStamp) {
        self.weights = Some(stamp);
    }
}

/// A loaded Q-network with its sidecar.
#[derive(Debug)]
pub struct DqnModel {
    /// The network.
    pub net: QNet,
    /// Its sidecar.
    pub sidecar: DqnSidecar,
    /// Where it runs.
    pub device: Device,
}

pub use studio_ml::sidecar_path;

impl DqnModel {
    /// Loads weights and sidecar with the buffered (non-mapped) loader.
    ///
    /// # Errors
    /// [`DqnError`] naming the file and the problem.
    pub fn load(weights: &Path) -> Result<Self, DqnError> {
        if !studio_ml::weights_present(weights) {
            return Err(DqnError::MissingWeights {
                path: weights.to_path_buf(),
            });
        }
        let side_path = sidecar_path(weights);
        let text = io::read_text(&side_path).map_err(|e| DqnError::Sidecar {
            path: side_path.clone(),
            reason: e.to_string(),
        })?;
        let sidecar = DqnSidecar::parse(&side_path, &text)?;
        let device = studio_ml::device();
        let corrupt = |reason: String| DqnError::CorruptWeights {
            path: weights.to_path_buf(),
            reason,
        };
        let bytes = studio_ml::read_stamped(weights, &side_path, sidecar.weights.as_ref())
            .map_err(|e| corrupt(e.to_string()))?;
        let tensors =
            studio_ml::tensors_from(&bytes, &device).map_err(|e| corrupt(e.to_string()))?;
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &device);
        let net = QNet::new(sidecar.shape, vb).map_err(|e| corrupt(e.to_string()))?;
        Ok(Self {
            net,
            sidecar,
            device,
        })
    }

    /// Refuses a board size the model was not trained for.
    ///
    /// # Errors
    /// [`DqnError::UnsupportedSize`].
    pub fn check_size(&self, width: usize, height: usize) -> Result<(), DqnError> {
        let s = self.sidecar.shape;
        if (s.width, s.height) != (width, height) {
            return Err(DqnError::UnsupportedSize {
                trained: format!("{}x{}", s.width, s.height),
                requested: format!("{width}x{height}"),
            });
        }
        Ok(())
    }
}

/// Saves a variable map and its sidecar atomically (weights first, then the sidecar); a
/// sidecar with a figure that is not a finite number is refused before anything is written.
///
/// # Errors
/// [`DqnError`] when writing fails or [`DqnSidecar::check`] refuses the sidecar.
pub fn save(varmap: &VarMap, sidecar: &DqnSidecar, weights: &Path) -> Result<(), DqnError> {
    sidecar.check().map_err(|reason| DqnError::NotFinite {
        path: weights.to_path_buf(),
        reason,
    })?;
    let tensors = studio_ml::tensors_of(varmap).map_err(|e| DqnError::Sidecar {
        path: weights.to_path_buf(),
        reason: e.to_string(),
    })?;
    studio_ml::save_model(&tensors, sidecar, weights).map_err(|e| DqnError::Sidecar {
        path: e.path,
        reason: e.reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sidecar_figure_that_is_not_a_number_is_refused_naming_the_file() {
        let path = Path::new("models/longcat-dqn-8x8.ron");
        let text = std::fs::read_to_string(path).unwrap();
        DqnSidecar::parse(path, &text).unwrap();
        for field in ["final_mean_difficulty: ", "train_seconds: "] {
            let at = text.find(field).unwrap() + field.len();
            let end = at + text[at..].find(',').unwrap();
            let bad = format!("{}NaN{}", &text[..at], &text[end..]);
            let err = DqnSidecar::parse(path, &bad).unwrap_err().to_string();
            assert!(
                err.contains("longcat-dqn-8x8.ron") && err.contains(field.trim_end_matches(": ")),
                "{err}"
            );
        }
        // Saving refuses such a sidecar and writes nothing.
        let mut sidecar = DqnSidecar::parse(path, &text).unwrap();
        sidecar.random_mean_difficulty = f64::INFINITY;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("m.safetensors");
        let err = save(&VarMap::new(), &sidecar, &out)
            .unwrap_err()
            .to_string();
        assert!(err.contains("random_mean_difficulty inf"), "{err}");
        assert!(!out.exists());
    }
}
