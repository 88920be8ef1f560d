//! The typed errors of the match-3 models: bad weight files, sidecars and conditions.

use std::path::PathBuf;

/// Why a model could not be loaded, trained or asked for levels.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The weights file does not exist.
    #[error(
        "model weights {path} not found (train one with `level-studio train`, or pass --weights)"
    )]
    MissingWeights {
        /// Where the weights were looked for.
        path: PathBuf,
    },
    /// The sidecar (`.ron` next to the weights) does not exist.
    #[error(
        "model sidecar {path} not found: the weights need their .ron description next to them"
    )]
    MissingSidecar {
        /// Where the sidecar was looked for.
        path: PathBuf,
    },
    /// The weights file is unreadable, damaged, holds NaN, or is not the one its sidecar describes.
    #[error("model weights {path} are refused: {reason}")]
    CorruptWeights {
        /// The weights file.
        path: PathBuf,
        /// What is wrong: unreadable, damaged, NaN values, or not the sidecar's weights.
        reason: String,
    },
    /// The sidecar does not parse.
    #[error("model sidecar {path} does not parse: {reason}")]
    CorruptSidecar {
        /// The sidecar file.
        path: PathBuf,
        /// What the RON parser reported.
        reason: String,
    },
    /// A tensor the architecture needs is missing from the weights.
    #[error("model weights {path} lack the tensor {name:?}: they belong to another model")]
    MissingTensor {
        /// The weights file.
        path: PathBuf,
        /// The safetensors key that is missing.
        name: String,
    },
    /// A tensor has the wrong shape for the architecture.
    #[error("model weights {path}: tensor {name:?} has shape {found:?}, the architecture needs {expected:?}")]
    ShapeMismatch {
        /// The weights file.
        path: PathBuf,
        /// The safetensors key of the tensor.
        name: String,
        /// The shape the architecture needs.
        expected: Vec<usize>,
        /// The shape stored in the file.
        found: Vec<usize>,
    },
    /// The sidecar describes an architecture this build does not run.
    #[error("model sidecar {path} describes {found}, not a {expected} of this build")]
    WrongArchitecture {
        /// The sidecar file.
        path: PathBuf,
        /// The architecture this build runs.
        expected: String,
        /// The format and architecture the sidecar describes.
        found: String,
    },
    /// A requested size is outside 4..=9 × 4..=11.
    #[error("size {width}x{height} is out of range: widths 4..=9, heights 4..=11")]
    SizeOutOfRange {
        /// The requested width, in cells.
        width: usize,
        /// The requested height, in cells.
        height: usize,
    },
    /// A requested move count is outside what the bots can record.
    #[error("{moves} moves is out of range: the bots record 1 to {max} moves")]
    MovesOutOfRange {
        /// The requested number of moves.
        moves: f64,
        /// The most moves the bots record.
        max: f64,
    },
    /// The model is conditioned on moves but none were given.
    #[error("the {model} model needs a target number of moves")]
    MovesRequired {
        /// The kind of model that was asked.
        model: String,
    },
    /// Validated generation cannot promise a level this near the move limit.
    #[error("no level can be promised at {moves} moves: the bots' noise needs a margin of {margin} moves inside the ±{tolerance} tolerance and {limit_margin} below the limit of {limit}; ask for at most {most} moves")]
    BeyondMargin {
        /// The requested moves.
        moves: f64,
        /// The accepted distance from them.
        tolerance: f64,
        /// The safety margin for the bots' noise inside the tolerance.
        margin: f64,
        /// The safety margin below the limit.
        limit_margin: f64,
        /// The designers' move limit.
        limit: u32,
        /// The most moves that can be promised.
        most: f64,
    },
    /// Validated generation cannot promise a level of this size at these moves: the size's
    /// easiest known layout ([`crate::easiest`]) takes more than a promised median
    /// may.
    #[error("no {width}x{height} level can be promised {asked}: the easiest {width}x{height} layout known takes {easiest} moves (median of 120 bot games), and a promised level's median must be at most {top}; {hint}", hint = least.map_or_else(|| format!("no level of this size can be promised, so pick a larger board{}", nearest.map_or_else(String::new, |(w, h)| format!(" ({w}x{h} can be)"))), |m| format!("ask for at least {m} moves")))]
    BelowEasiest {
        /// Play-area width.
        width: usize,
        /// Play-area height.
        height: usize,
        /// What was asked, in words ("at 12 moves", "as valid").
        asked: String,
        /// The fewest moves a layout of this size is known to take.
        easiest: f64,
        /// The most a promised level's median may be for this request.
        top: f64,
        /// The fewest moves that can be asked for at this size; `None` when none can.
        least: Option<f64>,
        /// When none can, the nearest size at which this request can be promised.
        nearest: Option<(usize, usize)>,
    },
    /// A level given to the encoder is not a usable match-3 layout.
    #[error("level {name:?} cannot be encoded: {reason}")]
    BadLevel {
        /// The level's name.
        name: String,
        /// What makes the layout unusable.
        reason: String,
    },
    /// A dataset could not be read or is empty.
    #[error("dataset {path}: {reason}")]
    Dataset {
        /// The dataset file.
        path: PathBuf,
        /// Why it could not be used.
        reason: String,
    },
    /// Fresh decoding needs the model's training layouts and could not have them.
    #[error("levels measured against the training set (\"new cells\") need the model's training layouts in {data}: {reason}")]
    TrainingLayouts {
        /// The training folder the sidecar names.
        data: String,
        /// Why the layouts could not be used.
        reason: String,
    },
    /// Writing weights or a sidecar failed.
    #[error("cannot write {path}: {reason}")]
    Write {
        /// The file that could not be written.
        path: PathBuf,
        /// Why the write failed.
        reason: String,
    },
    /// The tensor library failed.
    #[error("tensor computation failed: {0}")]
    Tensor(#[from] candle_core::Error),
}

/// The models' result type.
pub type Result<T, E = ModelError> = std::result::Result<T, E>;
