//! The typed errors of the match-3 models: bad weight files, sidecars and conditions.

use std::path::PathBuf;

/// Why a model could not be loaded, trained or asked for levels.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The weights file does not exist.
    #[error(
        "model weights {path} not found (train one with `level-studio train`, or pass --weights)"
    )]
    MissingWeights { path: PathBuf },
    /// The sidecar (`.ron` next to the weights) does not exist.
    #[error(
        "model sidecar {path} not found: the weights need their .ron description next to them"
    )]
    MissingSidecar { path: PathBuf },
    /// The weights file is not a readable safetensors file (truncated, corrupt, not safetensors).
    #[error("model weights {path} are unreadable (truncated or not safetensors): {reason}")]
    CorruptWeights { path: PathBuf, reason: String },
    /// The sidecar does not parse.
    #[error("model sidecar {path} does not parse: {reason}")]
    CorruptSidecar { path: PathBuf, reason: String },
    /// A tensor the architecture needs is missing from the weights.
    #[error("model weights {path} lack the tensor {name:?}: they belong to another model")]
    MissingTensor { path: PathBuf, name: String },
    /// A tensor has the wrong shape for the architecture.
    #[error("model weights {path}: tensor {name:?} has shape {found:?}, the architecture needs {expected:?}")]
    ShapeMismatch {
        path: PathBuf,
        name: String,
        expected: Vec<usize>,
        found: Vec<usize>,
    },
    /// The sidecar describes an architecture this build does not run.
    #[error("model sidecar {path} describes {found}, not a {expected} of this build")]
    WrongArchitecture {
        path: PathBuf,
        expected: String,
        found: String,
    },
    /// A requested size is outside 4..=9 × 4..=11.
    #[error("size {width}x{height} is out of range: widths 4..=9, heights 4..=11")]
    SizeOutOfRange { width: usize, height: usize },
    /// A requested move count is outside what the bots can record.
    #[error("{moves} moves is out of range: the bots record 1 to {max} moves")]
    MovesOutOfRange { moves: f64, max: f64 },
    /// The model is conditioned on moves but none were given.
    #[error("the {model} model needs a target number of moves")]
    MovesRequired { model: String },
    /// A level given to the encoder is not a usable match-3 layout.
    #[error("level {name:?} cannot be encoded: {reason}")]
    BadLevel { name: String, reason: String },
    /// A dataset could not be read or is empty.
    #[error("dataset {path}: {reason}")]
    Dataset { path: PathBuf, reason: String },
    /// Writing weights or a sidecar failed.
    #[error("cannot write {path}: {reason}")]
    Write { path: PathBuf, reason: String },
    /// The tensor library failed.
    #[error("tensor computation failed: {0}")]
    Tensor(#[from] candle_core::Error),
}

/// The models' result type.
pub type Result<T, E = ModelError> = std::result::Result<T, E>;
