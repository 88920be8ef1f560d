//! What a Mario level keeps of its last analysis: A* playability and the human-like agent's evaluation.

use serde::{Deserialize, Serialize};
use studio_core::level::GameFigures;

/// A Mario level's evaluation (rl-quality-diversity §6.3.4): A* playability, then the means
/// of the human-like agent's seeded trials and the rewards they give.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarioFigures {
    /// The A* agent finishes the level.
    pub playable: bool,
    /// Ticks A* took to finish (or played before it failed).
    pub astar_ticks: u32,
    /// Where and how A* failed, when it did ("fell into a hole at column 37").
    #[serde(default)]
    pub failure: Option<String>,
    /// Human-like trials played.
    pub trials: u32,
    /// Base seed of the trials.
    pub seed: u64,
    /// Mean jumps per trial.
    pub jumps: f64,
    /// Mean virtual enemy damage per trial.
    pub enemy_damage: f64,
    /// Mean virtual hole damage per trial.
    pub hole_damage: f64,
    /// Mean long presses per trial.
    pub long_presses: f64,
    /// Mean total damage, enemy + 1.1 × hole (Eq. 6.1).
    pub total_damage: f64,
    /// The difficulty reward (Fig. 6.4).
    pub r_diff: f64,
    /// The monotony reward, 0.01 × Σ over the patterns (Eq. 6.2).
    pub r_mono: f64,
    /// r_diff + r_mono; 0 when unplayable.
    pub evaluation: f64,
}

impl GameFigures for MarioFigures {
    fn tag(&self) -> &'static str {
        "Mario"
    }

    fn numbers(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("jumps", self.jumps),
            ("enemy_damage", self.enemy_damage),
            ("hole_damage", self.hole_damage),
            ("long_presses", self.long_presses),
            ("total_damage", self.total_damage),
            ("r_diff", self.r_diff),
            ("r_mono", self.r_mono),
            ("evaluation", self.evaluation),
        ]
    }
}
