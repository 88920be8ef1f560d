//! One analysis of a level, whatever the game: a difficulty number, a verdict with its
//! reason, the figures stored in the level file, what the gauge shows, and the fields the
//! command line prints.

use super::StateGraphView;
use crate::level::Figures;
use std::any::Any;
use std::sync::Arc;

/// How hard to look: seeds and budgets of the bots, solver or evaluator.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct AnalyseOptions {
    /// Base seed of seeded playthroughs.
    pub seed: u64,
    /// Playthroughs per level (per agent); `None` for the game's default.
    pub games: Option<u32>,
    /// The designers' move limit; `None` for the game's default.
    pub limit: Option<u32>,
    /// Largest state graph explored; `None` for the game's default.
    pub budget: Option<usize>,
    /// Play with the naive baseline agent instead of the game's validation agent.
    pub baseline: bool,
    /// A difficulty predictor file to use instead of the shipped one (games that predict
    /// difficulty from their analysis).
    pub predictor: Option<std::path::PathBuf>,
}

/// Pass or fail, with the word the badge shows and the reason in full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// True when the level passes (valid, non-trivial).
    pub pass: bool,
    /// A soft failure: the level works but is not worth keeping (solvable yet trivial).
    pub weak: bool,
    /// The badge: `VALID`, `INVALID`, `TRIVIAL`, `UNSOLVABLE`.
    pub label: String,
    /// Why, in words ("median 18 moves ≤ limit 20").
    pub reason: String,
}

/// A band drawn on the gauge's scale (the ±1 std of the bot games).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaugeBand {
    /// Low end.
    pub low: f64,
    /// High end.
    pub high: f64,
}

/// Bars of playthroughs under the gauge (moves per bot game).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GaugeHistogram {
    /// What the bars count ("Moves to reach the goal in 30 bot games").
    pub caption: String,
    /// `(x, count)` per bar; bars at or below the gauge's threshold count as good.
    pub bars: Vec<(f64, u32)>,
    /// The bars stand on an axis of their own (4-column patterns), not on the
    /// gauge's scale: the value and threshold lines are not drawn over them, and every bar
    /// is a warning colour.
    pub own_axis: bool,
}

/// A curve the gauge draws with the level's place on it (Mario: the r_diff curve of the
/// thesis's Fig. 6.4, and the level's total damage on it).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GaugeCurve {
    /// What it shows, one line above it.
    pub caption: String,
    /// The axes' names (x, y).
    pub axes: (String, String),
    /// The curve, left to right.
    pub points: Vec<[f64; 2]>,
    /// The level's place on it, when it has one.
    pub marker: Option<[f64; 2]>,
}

/// What the difficulty gauge shows.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Gauge {
    /// What the number is ("Median moves", "Difficulty").
    pub title: String,
    /// The big line ("Median 18.0 moves", "Difficulty 5.12", "Unsolvable").
    pub headline: String,
    /// The number on the scale; `None` when there is none (unsolvable).
    pub value: Option<f64>,
    /// The scale's ends.
    pub scale: (f64, f64),
    /// The pass/fail threshold and its label ("limit").
    pub threshold: Option<(f64, String)>,
    /// True when values at or below the threshold are good (moves), false when values above
    /// it are (difficulty).
    pub good_below: bool,
    /// A band around the value.
    pub band: Option<GaugeBand>,
    /// Lines under the headline ("limit 20 · ±1 std 2.1 · solved 30/30 games").
    pub notes: Vec<String>,
    /// Playthroughs, when the analysis played games.
    pub histogram: Option<GaugeHistogram>,
    /// A curve with the level's place on it.
    pub curve: Option<GaugeCurve>,
    /// Shares drawn as bars from 0 to 100 %, under a heading ("Agents' win rates").
    pub rates: Option<(String, Vec<(String, f64)>)>,
    /// Further figures as name/value rows, each table under a heading ("Graph variables").
    pub tables: Vec<(String, Vec<(String, String)>)>,
}

/// Everything the studio knows about one level after analysing it.
#[derive(Clone)]
pub struct Analysis {
    /// The game's difficulty number (median moves, player-model difficulty); `None` when
    /// there is none.
    pub difficulty: Option<f64>,
    /// Pass or fail, and why.
    pub verdict: Verdict,
    /// What is stored in the level file.
    pub figures: Option<Figures>,
    /// What the gauge shows.
    pub gauge: Gauge,
    /// The fields `validate --json` prints (beside `file`, `level` and `game`).
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// The human line `validate` prints after the level's label.
    pub summary: String,
    /// The state graph, for games that have one (the viewer draws it).
    pub graph: Option<Arc<dyn StateGraphView>>,
    /// Why a game with state graphs has none for this level though the rest of the analysis
    /// stands ("graph too large (200,001+ states, budget 200,000)"): the viewer shows it in
    /// the graph's place and `graph` reports it.
    pub graph_note: Option<String>,
    /// The game's own result, for its bespoke widgets (a bot validation, a
    /// graph); downcast with [`Analysis::detail`].
    pub detail: Option<Arc<dyn Any + Send + Sync>>,
}

impl Analysis {
    /// The game's own result, if it is a `T`.
    pub fn detail<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.detail.as_deref().and_then(|d| d.downcast_ref::<T>())
    }
}

impl std::fmt::Debug for Analysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analysis")
            .field("difficulty", &self.difficulty)
            .field("verdict", &self.verdict)
            .field("summary", &self.summary)
            .finish_non_exhaustive()
    }
}

/// One agent's relative performance over a set of levels (pattern-based-ga-generator's
/// relative performance profiles).
#[derive(Clone, Debug, PartialEq)]
pub struct AgentProfile {
    /// The agent's name.
    pub agent: String,
    /// Its share of games won, over every level.
    pub win_rate: f64,
    /// Its mean score in each level, min–max normalised over the agents in that level (0.5
    /// where every agent scores alike), averaged over the levels.
    pub normalised_score: f64,
}
