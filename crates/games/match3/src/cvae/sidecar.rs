//! The RON sidecar that travels with a model's weights: architecture, move normalisation,
//! training data hash, seed, epochs, metrics at selection and the dataset's coverage (per
//! size, the moves it holds), which answers whether a condition can be met.

use super::arch::{ModelKind, FILTERS, KERNEL, LATENT};
use super::encoding::{Condition, MoveRange, Sample};
use super::metrics::SweepMetrics;
use crate::layout::{HEIGHTS, WIDTHS};
use serde::{Deserialize, Serialize};

/// The sidecar format this build writes and reads.
pub const SIDECAR_FORMAT: u32 = 1;

/// What the network is, so a loader can refuse weights of another shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Architecture {
    /// Avalon or Vanilla.
    pub kind: ModelKind,
    /// Always "cvae" for this family.
    pub family: String,
    /// Latent dimensions.
    pub latent: usize,
    /// Encoder filters (the decoder mirrors them).
    pub filters: Vec<usize>,
    /// Kernel size.
    pub kernel: usize,
    /// Canvas (width, height).
    pub canvas: (usize, usize),
}

impl Architecture {
    /// The architecture this build implements for `kind`.
    pub fn of(kind: ModelKind) -> Self {
        Self {
            kind,
            family: "cvae".into(),
            latent: LATENT,
            filters: FILTERS.to_vec(),
            kernel: KERNEL,
            canvas: (crate::layout::CANVAS_WIDTH, crate::layout::CANVAS_HEIGHT),
        }
    }
}

/// The training set's moves at one size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SizeCoverage {
    /// Play-area width, in cells.
    pub width: usize,
    /// Play-area height, in cells.
    pub height: usize,
    /// Training levels of this size.
    pub levels: usize,
    /// Fewest validated median moves at this size.
    pub min_moves: f64,
    /// Most validated median moves at this size.
    pub max_moves: f64,
}

/// How the model was trained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Training {
    /// The dataset folder.
    pub data: String,
    /// FNV-1a 64 of the training file's bytes, hex.
    pub data_hash: String,
    /// Training levels.
    pub levels: usize,
    /// The seed of the initial weights and the batch order.
    pub seed: u64,
    /// Epochs run.
    pub epochs: usize,
    /// The epoch whose checkpoint was selected.
    pub selected_epoch: usize,
    /// Levels per optimiser step.
    pub batch_size: usize,
    /// The optimiser's learning rate.
    pub learning_rate: f64,
    /// The optimiser and its weight decay, e.g. `AdamW(weight_decay 0.0001)`.
    pub optimizer: String,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// How many times an epoch showed each valid level (older sidecars: 1).
    #[serde(default = "one")]
    pub valid_repeats: usize,
    /// Weight of the KL term (older sidecars: 1).
    #[serde(default = "one_f64")]
    pub kl_weight: f64,
    /// Free bits per latent dimension (older sidecars: 0, none).
    #[serde(default)]
    pub free_bits: f64,
    /// Reconstruction weight of BLOCK and GAP cells against PLAYFIELD's 1 (older sidecars: 1).
    #[serde(default = "one_f64")]
    pub blocked_weight: f64,
    /// Checkpoints scored during the run (older sidecars: 8).
    #[serde(default = "eight")]
    pub checkpoints: usize,
    /// Sweeps averaged to score a checkpoint (older sidecars: 2).
    #[serde(default = "two")]
    pub selection_sweeps: usize,
    /// The most raw copies a selectable checkpoint's sweeps could make (older sidecars and
    /// runs without `--max-copies`: none, any checkpoint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_copies: Option<f64>,
}

fn eight() -> usize {
    8
}

fn two() -> usize {
    2
}

fn one_f64() -> f64 {
    1.0
}

fn one() -> usize {
    1
}

/// Everything saved next to the weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sidecar {
    /// The sidecar format it was written in ([`SIDECAR_FORMAT`]).
    pub format: u32,
    /// The network the weights belong to.
    pub architecture: Architecture,
    /// Move normalisation: the training set's range.
    pub moves: MoveRange,
    /// How the model was trained.
    pub training: Training,
    /// The selection sweep's figures for the selected checkpoint.
    pub metrics: SweepMetrics,
    /// Per size, the moves the training set covers.
    pub coverage: Vec<SizeCoverage>,
    /// [`layout_fingerprint`] of every training level, so generation can refuse to hand
    /// back a copy of one.
    #[serde(default)]
    pub training_fingerprints: Vec<u64>,
    /// Length and hash of the weights file, written when the weights are saved.
    #[serde(default)]
    pub weights: Option<studio_ml::WeightsStamp>,
}

impl studio_ml::Stamped for Sidecar {
    fn stamp(&self) -> Option<&studio_ml::WeightsStamp> {
        self.weights.as_ref()
    }

    fn set_stamp(&mut self, stamp: studio_ml::WeightsStamp) {
        self.weights = Some(stamp);
    }
}

/// A stable 64-bit fingerprint of a layout's canvas (FNV-1a over the cell classes).
pub fn layout_fingerprint(layout: &crate::layout::Layout) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &c in layout.canvas().cells() {
        h ^= c as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Whether a condition lies inside what the training set covers.
#[derive(Clone, Debug, PartialEq)]
pub enum Feasibility {
    /// The training set has levels of this size around these moves.
    Feasible,
    /// No training level of this size needs that few (or that many) moves.
    Infeasible {
        /// Why, in words.
        reason: String,
        /// The same size with the nearest covered moves.
        nearest_same_size: Option<Condition>,
        /// The size (same symmetry) whose training levels come closest to the requested
        /// moves (exactly them when any size covers them), with those moves.
        nearest_same_moves: Option<Condition>,
    },
}

/// Per size, the range of validated moves among `samples`.
pub fn coverage(samples: &[Sample]) -> Vec<SizeCoverage> {
    let mut out = Vec::new();
    for height in HEIGHTS {
        for width in WIDTHS {
            let moves: Vec<f64> = samples
                .iter()
                .filter(|s| s.width == width && s.height == height)
                .map(|s| s.moves)
                .collect();
            if moves.is_empty() {
                continue;
            }
            let min_moves = moves.iter().copied().fold(f64::INFINITY, f64::min);
            let max_moves = moves.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            out.push(SizeCoverage {
                width,
                height,
                levels: moves.len(),
                min_moves,
                max_moves,
            });
        }
    }
    out
}

/// FNV-1a 64 of `bytes` as 16 hex digits: a cheap fingerprint of the training data.
pub use studio_core::io::fnv1a_hex as data_hash;

impl Sidecar {
    /// Checks the numbers generation relies on: the move range and every coverage entry are
    /// finite and ordered, and each size is one the game has.
    ///
    /// # Errors
    /// What is wrong, naming the entry.
    pub fn check_numbers(&self) -> Result<(), String> {
        let ordered = |what: &str, lo: f64, hi: f64| {
            if !lo.is_finite() || !hi.is_finite() {
                Err(format!("{what}: {lo} to {hi} is not a finite range"))
            } else if lo > hi || lo < 0.0 {
                Err(format!(
                    "{what}: {lo} to {hi} is not an ordered range of moves"
                ))
            } else {
                Ok(())
            }
        };
        ordered("moves", self.moves.min, self.moves.max)?;
        for c in &self.coverage {
            let what = format!("coverage of {}x{}", c.width, c.height);
            if !WIDTHS.contains(&c.width) || !HEIGHTS.contains(&c.height) {
                return Err(format!(
                    "{what}: not a match-3 size (widths {}..={}, heights {}..={})",
                    WIDTHS.start(),
                    WIDTHS.end(),
                    HEIGHTS.start(),
                    HEIGHTS.end()
                ));
            }
            ordered(&what, c.min_moves, c.max_moves)?;
        }
        Ok(())
    }

    /// Checks `condition` against the training coverage. Moves are only checked for models
    /// that take them; a size absent from the training set is infeasible. What is suggested
    /// instead is always a size and moves at which training levels are *valid* (median
    /// moves within the validation limit, 20): a size whose training levels all take more
    /// is said plainly never to give a valid level.
    pub fn feasibility(&self, condition: &Condition) -> Feasibility {
        let limit = f64::from(crate::ValidationConfig::default().limit);
        // The moves at which a size's training levels are valid (its fewest moves up to the
        // limit), `None` when none is.
        let valid = |c: &SizeCoverage| {
            (c.min_moves <= limit).then(|| (c.min_moves, c.max_moves.min(limit)))
        };
        let uses_moves = self.architecture.kind.uses_moves();
        let moves = condition.moves.filter(|_| uses_moves);
        let size_gap = |c: &SizeCoverage| {
            c.width.abs_diff(condition.width) + c.height.abs_diff(condition.height)
        };
        let into = |m: f64, (lo, hi): (f64, f64)| m.clamp(lo, hi);
        // Another size that gives valid levels, with the valid moves nearest the request:
        // the one whose moves come closest (then the nearest size), or, when the size asked
        // for is the problem (`size_first`), the nearest size (then the closest moves).
        let nearest_same_moves = |skip: Option<(usize, usize)>, size_first: bool| {
            self.coverage
                .iter()
                .filter(|c| Some((c.width, c.height)) != skip)
                .filter_map(|c| valid(c).map(|r| (c, r)))
                .min_by(|(a, ra), (b, rb)| {
                    let gap = |r: (f64, f64)| moves.map_or(0.0, |m| (into(m, r) - m).abs());
                    let by_moves = gap(*ra).total_cmp(&gap(*rb));
                    let by_size = size_gap(a).cmp(&size_gap(b));
                    if size_first {
                        by_size.then(by_moves)
                    } else {
                        by_moves.then(by_size)
                    }
                })
                .map(|(c, r)| Condition {
                    width: c.width,
                    height: c.height,
                    moves: moves.map(|m| into(m, r)).or(condition.moves),
                    ..*condition
                })
        };
        let (w, h) = (condition.width, condition.height);
        let Some(cov) = self.coverage.iter().find(|c| c.width == w && c.height == h) else {
            return Feasibility::Infeasible {
                reason: format!("the training set has no {w}x{h} level"),
                nearest_same_size: None,
                nearest_same_moves: nearest_same_moves(None, true),
            };
        };
        let Some(moves) = moves else {
            return Feasibility::Feasible;
        };
        let Some(range) = valid(cov) else {
            return Feasibility::Infeasible {
                reason: format!(
                    "{w}x{h} never gives a valid level: all {} training levels of that size \
                     take {} moves or more, and a valid level takes at most {limit}",
                    cov.levels,
                    moves_text(cov.min_moves)
                ),
                nearest_same_size: None,
                nearest_same_moves: nearest_same_moves(Some((w, h)), true),
            };
        };
        if (range.0..=range.1).contains(&moves) {
            return Feasibility::Feasible;
        }
        let why = if moves > limit {
            format!(
                "a level that takes {} moves is not valid (at most {limit})",
                moves_text(moves)
            )
        } else {
            let they = if range.0 == range.1 {
                format!("they all take {}", moves_text(range.0))
            } else {
                format!(
                    "they take {} to {}",
                    moves_text(range.0),
                    moves_text(range.1)
                )
            };
            format!(
                "no valid {w}x{h} training level takes {} moves ({they})",
                moves_text(moves)
            )
        };
        Feasibility::Infeasible {
            reason: why,
            nearest_same_size: Some(Condition {
                moves: Some(into(moves, range)),
                ..*condition
            }),
            nearest_same_moves: nearest_same_moves(Some((w, h)), false),
        }
    }
}

/// Moves in words: whole numbers without a decimal point.
fn moves_text(m: f64) -> String {
    if m.fract() == 0.0 {
        format!("{m:.0}")
    } else {
        format!("{m:.1}")
    }
}
