//! What every course network shares: the course being filled ([`Filling`]), the network
//! input ([`features`]), the network shape ([`mlp`] of [`HIDDEN`]), a column's placement and
//! the randomized starts, the evaluation of a filled matrix, the weight copy, and the training
//! curve with its progress. DDPG, the DQN and the supervised baseline build on it.

use super::matrix::{Course, Structure};
use super::rules::evaluate;
use candle_nn::{VarBuilder, VarMap};
use std::collections::VecDeque;
use std::time::Instant;
use studio_core::rng::Rng;
use studio_ml::Mlp;

/// Width of the hidden layers of the actor and the critic.
pub const HIDDEN: usize = 128;

/// A course being filled: its columns, the column being decided and, for the DQN, the
/// parameter of that column (0 HP, 1 ATK, 2 recovery).
#[derive(Clone, Debug, PartialEq)]
pub struct Filling {
    /// The matrix; columns from `next` on are still zero.
    pub columns: Vec<[f64; 3]>,
    /// The column being decided.
    pub next: usize,
    /// The parameter being decided (the DQN only; actors decide a column at once).
    pub param: usize,
}

impl Filling {
    /// A course whose columns before `next` are decided.
    pub fn at(columns: Vec<[f64; 3]>, next: usize) -> Self {
        Self {
            columns,
            next,
            param: 0,
        }
    }

    pub(crate) fn done(&self) -> bool {
        self.next >= self.columns.len()
    }
}

/// The network input of a course being filled: its matrix (filled columns, zeros after)
/// and a one-hot of the column to fill.
pub fn features(columns: &[[f64; 3]], next: usize, out: &mut Vec<f32>) {
    for c in columns {
        out.extend(c.iter().map(|&v| v as f32));
    }
    out.extend((0..columns.len()).map(|i| if i == next { 1.0f32 } else { 0.0 }));
}

/// Input width for a structure.
pub fn input_len(structure: Structure) -> usize {
    4 * structure.columns()
}

/// Builds the shape of every course network (actor, critic, evaluator, Q-network): two
/// hidden layers of width [`HIDDEN`] with ReLU, under `vb` (`l1`, `l2`, `l3`).
///
/// # Errors
/// A candle error when a weight is missing or has the wrong shape.
pub fn mlp(input: usize, output: usize, vb: VarBuilder) -> candle_core::Result<Mlp> {
    Mlp::new(&[input, HIDDEN, HIDDEN, output], vb)
}

/// Puts an action into column `i` of a course: recovery only where the structure has a
/// recovery event.
pub fn place(structure: Structure, columns: &mut [[f64; 3]], i: usize, action: [f64; 3]) {
    let rate = if structure.recovers(i) {
        action[2].clamp(0.0, 1.0)
    } else {
        0.0
    };
    columns[i] = [action[0].clamp(0.0, 1.0), action[1].clamp(0.0, 1.0), rate];
}

/// A course with its first `c` columns random (the thesis's randomized initialization) and
/// the rest empty.
pub fn random_start(structure: Structure, c: usize, rng: &mut Rng) -> Vec<[f64; 3]> {
    let mut columns = vec![[0.0; 3]; structure.columns()];
    for i in 0..c.min(structure.columns()) {
        place(
            structure,
            &mut columns,
            i,
            [rng.unit(), rng.unit(), rng.unit()],
        );
    }
    columns
}

/// The evaluation of a filled matrix, as stored (hundredths).
pub fn value_of(columns: &[[f64; 3]]) -> f64 {
    Course::new(columns.to_vec())
        .map(|c| evaluate(&c.stored()).value)
        .unwrap_or(0.0)
}

/// Progress while training.
#[derive(Clone, Copy, Debug)]
pub struct DdpgProgress {
    /// Episodes done.
    pub episode: usize,
    /// Episodes in the run.
    pub episodes: usize,
    /// Mean evaluation of the last 50 courses made (with exploration).
    pub mean_evaluation: f64,
    /// Seconds so far.
    pub seconds: f64,
}

/// A training curve: every 50 episodes, the mean evaluation of the last 50 courses.
pub(crate) struct Curve {
    recent: VecDeque<f64>,
    /// The points so far.
    pub points: Vec<f64>,
    started: Instant,
}

impl Curve {
    pub(crate) fn new() -> Self {
        Self {
            recent: VecDeque::new(),
            points: Vec::new(),
            started: Instant::now(),
        }
    }

    /// Records the course of episode `episode` (of `episodes`); every 50 episodes and at the
    /// end adds a point and tells `report`. False when `report` stops the run.
    pub(crate) fn record(
        &mut self,
        value: f64,
        episode: usize,
        episodes: usize,
        report: &mut dyn FnMut(&DdpgProgress) -> bool,
    ) -> bool {
        self.recent.push_back(value);
        if self.recent.len() > 50 {
            self.recent.pop_front();
        }
        if !(episode + 1).is_multiple_of(50) && episode + 1 != episodes {
            return true;
        }
        let mean = self.recent.iter().sum::<f64>() / self.recent.len().max(1) as f64;
        self.points.push(mean);
        report(&DdpgProgress {
            episode: episode + 1,
            episodes,
            mean_evaluation: mean,
            seconds: self.started.elapsed().as_secs_f64(),
        })
    }
}

/// Copies every weight of `from` into the var of the same name in `to`.
///
/// # Errors
/// A candle error.
pub(crate) fn copy(from: &VarMap, to: &VarMap) -> candle_core::Result<()> {
    studio_ml::soft_update(from, to, 1.0)
}
