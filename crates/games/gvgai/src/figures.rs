//! What a level of a GVGAI game keeps of its last analysis: each agent's games (win rate,
//! mean score, mean length), so a saved pack shows its difficulty curve and verdicts when it
//! is opened, without the agents playing every level again.

use serde::{Deserialize, Serialize};
use studio_core::level::{FiguresReader, GameFigures, Level};

/// One agent's games on a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentFigures {
    /// The agent's command-line name (`olets`).
    pub agent: String,
    /// The share of its games it won, 0 to 1.
    pub win_rate: f64,
    /// Its mean score.
    pub mean_score: f64,
    /// Its games' mean length, in ticks.
    pub mean_ticks: f64,
}

/// The figures kept with a level of a GVGAI game: the agents' games of its analysis.
///
/// Every GVGAI game stores this one type; `game` tells them apart (files write the figures
/// under the game's file tag, `Vgdl_zelda_1a2b3c4d((…))`, and reading sets it back).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VgdlFigures {
    /// The file tag of the game the figures were measured on (not written: the tag around
    /// the figures says it).
    #[serde(skip)]
    pub game: &'static str,
    /// Games each agent played.
    pub games: u32,
    /// The seed of each agent's first game (game i is seeded `seed + i`).
    pub seed: u64,
    /// The agents' games, naive to advanced.
    pub agents: Vec<AgentFigures>,
}

impl VgdlFigures {
    /// The best agent's win rate (0 when no agent played).
    pub fn best_win_rate(&self) -> f64 {
        self.agents.iter().map(|a| a.win_rate).fold(0.0, f64::max)
    }

    /// The game's difficulty: the share of games the best agent loses.
    pub fn difficulty(&self) -> f64 {
        1.0 - self.best_win_rate()
    }

    /// The verdict: some agent wins.
    pub fn winnable(&self) -> bool {
        self.best_win_rate() > 0.0
    }

    /// The figures of `level` when they are figures of the game of file tag `game`.
    pub fn of<'a>(level: &'a Level, game: &str) -> Option<&'a VgdlFigures> {
        level.figures_of::<VgdlFigures>().filter(|f| f.game == game)
    }
}

impl GameFigures for VgdlFigures {
    fn tag(&self) -> &'static str {
        self.game
    }

    fn numbers(&self) -> Vec<(&'static str, f64)> {
        self.agents
            .iter()
            .flat_map(|a| {
                [
                    ("win_rate", a.win_rate),
                    ("mean_score", a.mean_score),
                    ("mean_ticks", a.mean_ticks),
                ]
            })
            .collect()
    }
}

/// Reads a GVGAI game's figures, keeping the file tag they were read under.
pub fn reader() -> FiguresReader {
    |de, tag| {
        let mut figures: VgdlFigures = erased_serde::deserialize(de)?;
        figures.game = tag;
        Ok(Box::new(figures))
    }
}
