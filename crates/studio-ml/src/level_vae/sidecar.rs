//! What a level VAE's sidecar records: the game it was trained for (a VGDL game by its
//! description's hash, with the description, so the model opens where the game was never
//! opened), the palette and grid, the split, the command, and what training measured.

use super::net::{Arch, NetShape};
use crate::{Stamped, WeightsStamp};
use serde::{Deserialize, Serialize};
use studio_core::game::GameSource;

/// The kind every level VAE sidecar names, so another model's sidecar is told apart.
pub const KIND: &str = "level-vae";

/// The figure a model is conditioned on, and the range its training levels spanned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FigureCondition {
    /// The figure's name, as the gauge's figures name it (`shortest_win`).
    pub name: String,
    /// Smallest value among the training levels.
    pub min: f64,
    /// Largest value among the training levels.
    pub max: f64,
    /// The median: what generation asks for unless told.
    pub median: f64,
}

/// A side-scroller's windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// Columns a window.
    pub width: usize,
    /// Rows a window.
    pub height: usize,
    /// Columns between two training windows.
    pub stride: usize,
}

/// What training measured on the held-out part at the kept epoch.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct TrainMetrics {
    /// Epochs run (early stopping may end before the budget).
    pub epochs_run: usize,
    /// The epoch whose weights were kept (lowest held-out loss), from 1.
    pub best_epoch: usize,
    /// Held-out loss per level (cross-entropy over its cells, with z = μ).
    pub holdout_loss: f64,
    /// Share of held-out cells decoded back exactly.
    pub holdout_cells: f64,
    /// Training loss per level at the kept epoch (cross-entropy + KL).
    pub train_loss: f64,
    /// Seconds training took.
    pub seconds: f64,
}

/// A level VAE's sidecar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelVaeSidecar {
    /// Always [`KIND`].
    pub kind: String,
    /// The game's id (`dungeon`).
    pub game: String,
    /// The game's description when it was made at run time (a GVGAI game).
    #[serde(default)]
    pub source: Option<GameSource>,
    /// FNV-1a of that description's text: a changed description is refused.
    #[serde(default)]
    pub source_hash: Option<String>,
    /// The palette's characters, in the game's order.
    pub palette: String,
    /// The network.
    pub arch: Arch,
    /// Its sizes.
    pub shape: NetShape,
    /// The windows of a side-scroller model; `None`: whole levels.
    #[serde(default)]
    pub window: Option<Window>,
    /// The figure it is conditioned on, if any.
    #[serde(default)]
    pub condition: Option<FigureCondition>,
    /// The sizes of the training levels (width, height), each once, sorted.
    pub sizes: Vec<(usize, usize)>,
    /// Tiles every training level holds exactly once (the avatar, the exit): decoding puts
    /// each in exactly one cell.
    pub singletons: String,
    /// The pack trained on, as given.
    pub pack: String,
    /// FNV-1a of the training examples' rows.
    pub data_hash: String,
    /// Levels in the pack.
    pub levels: usize,
    /// Examples trained on (levels, or windows).
    pub trained_on: usize,
    /// The held-out levels (or windows), as rows: `eval` reports on them.
    pub holdout: Vec<Vec<String>>,
    /// FNV-1a of each training example's rows, sorted: a generated copy is told by these.
    pub train_hashes: Vec<String>,
    /// Seed.
    pub seed: u64,
    /// The command that trained it.
    pub command: String,
    /// What training measured.
    pub metrics: TrainMetrics,
    /// The weights' stamp (length and hash), checked on load.
    #[serde(default)]
    pub weights: Option<WeightsStamp>,
    /// The cell temperature its levels are drawn at unless told, chosen when it was
    /// trained ([`super::train`]: the lowest at which few prior draws copy a training
    /// level); `None` in a file written before it was recorded.
    #[serde(default)]
    pub temperature: Option<f64>,
}

impl Stamped for LevelVaeSidecar {
    fn stamp(&self) -> Option<&WeightsStamp> {
        self.weights.as_ref()
    }
    fn set_stamp(&mut self, stamp: WeightsStamp) {
        self.weights = Some(stamp);
    }
}

/// A side-scroller's default cell temperature: its windows' sparse tiles drawn a little
/// tighter than the decoder says (docs/level-vae.md, "Mario").
pub const WINDOW_TEMPERATURE: f64 = 0.8;
/// Each cell drawn from the decoder's own distribution (for a game that builds levels under
/// its rules, the scores perturbed by Gumbel noise of that scale): the highest temperature
/// training chooses for a model, and where a game that decodes under its rules starts
/// (Longcat's walks branch more: non-trivial levels three times as often as at 0).
pub const SAMPLE_TEMPERATURE: f64 = 1.0;

impl LevelVaeSidecar {
    /// The palette as characters.
    pub fn palette(&self) -> Vec<char> {
        self.palette.chars().collect()
    }

    /// The cell temperature a model's levels are drawn at unless told: a side-scroller's
    /// [`WINDOW_TEMPERATURE`], every other model's chosen at training (the decoder's own
    /// distribution, [`SAMPLE_TEMPERATURE`], for a file that does not say).
    pub fn default_temperature(&self) -> f64 {
        match (self.window, self.temperature) {
            (Some(_), _) => WINDOW_TEMPERATURE,
            (None, Some(t)) => t,
            (None, None) => SAMPLE_TEMPERATURE,
        }
    }

    /// The model's grid (width, height).
    pub fn grid(&self) -> (usize, usize) {
        (self.shape.width, self.shape.height)
    }

    /// The figure's range, when conditioned on one.
    pub fn figure_range(&self) -> Option<(f64, f64)> {
        self.condition.as_ref().map(|c| (c.min, c.max))
    }

    /// Whether `rows` are one of the training examples (for a side-scroller's model: a
    /// window of a training level, at any column).
    pub fn is_training_copy(&self, rows: &[String]) -> bool {
        self.train_hashes
            .binary_search(&super::data::rows_hash(rows))
            .is_ok()
    }

    /// The share of a level's parts that copy training examples: the level itself, or for a
    /// side-scroller's model, each window-wide part of the level (every half window, as
    /// generation adds them).
    pub fn copied_share(&self, rows: &[String]) -> f64 {
        let Some(w) = self.window else {
            return f64::from(u8::from(self.is_training_copy(rows)));
        };
        let parts = super::data::windows(rows, w.width, (w.width - w.width / 2).max(1));
        let copies = parts.iter().filter(|p| self.is_training_copy(p)).count();
        copies as f64 / parts.len().max(1) as f64
    }
}
