//! What a match-3 level keeps of its last validation: the bots' median, spread and histogram.

use serde::{Deserialize, Serialize};
use studio_core::level::GameFigures;

/// The match-3 figures kept with a level: a validation without the per-game list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match3Figures {
    /// Median of the moves the bot games recorded.
    pub median_moves: f64,
    /// Population standard deviation of the recorded moves.
    pub std_moves: f64,
    /// True when the median is within the move limit.
    pub valid: bool,
    /// Games played.
    pub games: u32,
    /// The designers' move limit the games were played against.
    pub limit: u32,
    /// Base seed of the games.
    pub seed: u64,
    /// `histogram[i]` = games that recorded `i + 1` moves.
    pub histogram: Vec<u32>,
}

impl From<&super::Validation> for Match3Figures {
    fn from(v: &super::Validation) -> Self {
        Self {
            median_moves: v.median_moves,
            std_moves: v.std_moves,
            valid: v.valid,
            games: v.games,
            limit: v.limit,
            seed: v.seed,
            histogram: v.histogram.clone(),
        }
    }
}

impl GameFigures for Match3Figures {
    fn tag(&self) -> &'static str {
        "Match3"
    }

    fn numbers(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("median_moves", self.median_moves),
            ("std_moves", self.std_moves),
        ]
    }
}
