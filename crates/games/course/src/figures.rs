//! What a course keeps of its last analysis: the exact evaluation over every strategy.

use serde::{Deserialize, Serialize};
use studio_core::level::GameFigures;

/// The exact evaluation of a dungeon course.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourseFigures {
    /// f = Σ wᵢ fᵢ, 0..=1.
    pub evaluation: f64,
    /// The share of attack / retreat strategies that beat the boss.
    pub win_rate: f64,
    /// f1…f7.
    pub f: [f64; 7],
    /// Strategies (2^enemies).
    pub strategies: usize,
    /// Winning strategies.
    pub wins: usize,
}

impl GameFigures for CourseFigures {
    fn tag(&self) -> &'static str {
        "Course"
    }

    fn numbers(&self) -> Vec<(&'static str, f64)> {
        let mut v = vec![("evaluation", self.evaluation), ("win_rate", self.win_rate)];
        v.extend(self.f.iter().map(|&x| ("f", x)));
        v
    }
}
