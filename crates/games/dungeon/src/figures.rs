//! What a dungeon room keeps of its last analysis: the skeleton graph and the agents' games.

use serde::{Deserialize, Serialize};
use studio_core::level::GameFigures;

/// One agent's games on a dungeon room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentFigures {
    /// The agent (`planner`, `human-like`, …).
    pub agent: String,
    /// Share of games won.
    pub win_rate: f64,
    /// Mean ticks per game.
    pub mean_ticks: f64,
    /// Mean final score.
    pub mean_score: f64,
}

/// The skeleton graph and the agent ladder's games of a dungeon room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DungeonFigures {
    /// A win is reachable with the monsters frozen (false also when the skeleton passed its
    /// budget and nobody knows: see `graph_budget`).
    pub solvable: bool,
    /// Moves of the skeleton's shortest solution.
    pub shortest_solution: Option<u32>,
    /// Positions of the skeleton graph (0 when it passed its budget).
    pub states: usize,
    /// The budget the skeleton graph passed, when it did: the room was judged by the agents'
    /// games alone, and `solvable`, `shortest_solution` and `states` are unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_budget: Option<usize>,
    /// The difficulty: the human-like agent's mean virtual damage.
    pub virtual_damage: f64,
    /// Games per agent.
    pub games: u32,
    /// Base seed of the games.
    pub seed: u64,
    /// Each agent's figures, naive first.
    pub agents: Vec<AgentFigures>,
}

impl GameFigures for DungeonFigures {
    fn tag(&self) -> &'static str {
        "Dungeon"
    }

    fn numbers(&self) -> Vec<(&'static str, f64)> {
        let mut v = vec![("virtual_damage", self.virtual_damage)];
        for a in &self.agents {
            v.extend([
                ("win_rate", a.win_rate),
                ("mean_ticks", a.mean_ticks),
                ("mean_score", a.mean_score),
            ]);
        }
        v
    }
}
