//! One level as the studio stores it: which game, a name, the cells as rows of ASCII, the
//! symmetry, tags, the last validation figures and the designer's playtests.

use crate::match3::{Layout, LayoutError, Validation};
use crate::symmetry::Symmetry;
use serde::{Deserialize, Serialize};

pub use crate::game::GameId as Game;

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

impl From<&Validation> for Match3Figures {
    fn from(v: &Validation) -> Self {
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

/// The Longcat figures kept with a level: its graph variables and difficulty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LongcatFigures {
    /// Nodes of the state graph, the start included.
    pub states: usize,
    /// Width × height of the level, in cells.
    pub size: usize,
    /// Branches (wrong choices) summed over all nodes.
    pub branches: usize,
    /// Success nodes.
    pub solutions: usize,
    /// Fail nodes.
    pub fails: usize,
    /// Fewest moves to a success; `None` when unsolvable.
    pub shortest_solution: Option<u32>,
    /// Branches summed over solution-class nodes.
    pub solution_branches: usize,
    /// Nodes not of class dead.
    pub non_dead: usize,
    /// Dead nodes.
    pub dead: usize,
    /// Indeterminate nodes.
    pub indeterminate: usize,
    /// Branches summed over indeterminate nodes.
    pub indeterminate_branches: usize,
    /// True when a success is reachable from the start.
    pub solvable: bool,
    /// The player-model difficulty; `None` when unsolvable.
    pub difficulty: Option<f64>,
    /// The ridge predictor's estimate.
    pub predicted_difficulty: f64,
}

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

/// What the blend analysis found in a segment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlendFigures {
    /// More Lode Runner-only tiles than Zelda-only ones.
    pub lode_runner_like: bool,
    /// The Lode Runner agent's verdict (half the gold on a Lode Runner-like segment, 2 of 4
    /// corner paths on a Zelda-like one).
    pub lr_playable: bool,
    /// Gold in the segment.
    pub lr_gold: usize,
    /// The most gold one run of the Lode Runner agent collects, from its better start.
    pub lr_gold_reached: usize,
    /// Corner-to-corner paths the Lode Runner agent finds (0–4; its test on Zelda-like
    /// segments).
    pub lr_corner_paths: usize,
    /// The Zelda agent's verdict.
    pub loz_playable: bool,
    /// Corner-to-corner paths the Zelda agent finds (0–4).
    pub loz_paths: usize,
    /// Cells with a tile only Lode Runner has.
    pub lr_tiles: usize,
    /// Cells with a tile only Zelda has.
    pub zelda_tiles: usize,
    /// The five tile metrics.
    pub metrics: crate::blend::metrics::TileMetrics,
}

/// The non-empty lines of a level's text, without trailing spaces (its rows).
pub fn text_rows(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// The last validation result stored with a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Figures {
    /// Bot validation of a match-3 layout.
    Match3(Match3Figures),
    /// State-graph figures of a Longcat level.
    Longcat(LongcatFigures),
    /// Skeleton graph and agent games of a dungeon room.
    Dungeon(DungeonFigures),
    /// The exact evaluation of a course.
    Course(CourseFigures),
    /// The blend analysis of a segment.
    Blend(BlendFigures),
    /// A* playability and the human-like agent's evaluation of a Mario level.
    Mario(MarioFigures),
}

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

/// One attempt by the designer at playing a level inside the studio.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Playtest {
    /// Moves made.
    pub moves: u32,
    /// Seconds spent.
    pub seconds: f64,
    /// True when the goal was reached.
    pub solved: bool,
}

/// One level as stored in files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Which game the cells belong to.
    pub game: Game,
    /// A short human name.
    pub name: String,
    /// The cells, one string a row, in the game's ASCII alphabet.
    pub cells: Vec<String>,
    /// The symmetry (detected, or requested when generated).
    #[serde(default)]
    pub symmetry: Symmetry,
    /// Free tags (`"generated"`, `"avalon"`, a split name, …).
    #[serde(default)]
    pub tags: Vec<String>,
    /// The last validation result, if the level has been validated.
    #[serde(default)]
    pub figures: Option<Figures>,
    /// The designer's own attempts.
    #[serde(default)]
    pub playtests: Vec<Playtest>,
}

impl Level {
    /// A level of `game` with only its name and cells: no symmetry, tags, figures or
    /// playtests yet.
    pub fn bare(game: Game, name: impl Into<String>, cells: Vec<String>) -> Self {
        Self {
            game,
            name: name.into(),
            cells,
            symmetry: Default::default(),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        }
    }

    /// A match-3 level from a layout, with its detected symmetry.
    pub fn from_layout(name: impl Into<String>, layout: &Layout) -> Self {
        Self {
            game: crate::match3::ID,
            name: name.into(),
            cells: layout.to_rows(),
            symmetry: layout.symmetry(),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        }
    }

    /// The first stored number that is not finite (NaN or infinite), named: such a figure
    /// cannot be written as JSON and means nothing to a designer.
    pub fn non_finite_number(&self) -> Option<String> {
        let mut numbers: Vec<(&str, f64)> = match &self.figures {
            Some(Figures::Match3(f)) => {
                vec![("median_moves", f.median_moves), ("std_moves", f.std_moves)]
            }
            Some(Figures::Longcat(f)) => {
                let mut v = vec![("predicted_difficulty", f.predicted_difficulty)];
                v.extend(f.difficulty.map(|d| ("difficulty", d)));
                v
            }
            Some(Figures::Dungeon(f)) => {
                let mut v = vec![("virtual_damage", f.virtual_damage)];
                for a in &f.agents {
                    v.extend([
                        ("win_rate", a.win_rate),
                        ("mean_ticks", a.mean_ticks),
                        ("mean_score", a.mean_score),
                    ]);
                }
                v
            }
            Some(Figures::Course(f)) => {
                let mut v = vec![("evaluation", f.evaluation), ("win_rate", f.win_rate)];
                v.extend(f.f.iter().map(|&x| ("f", x)));
                v
            }
            Some(Figures::Blend(f)) => crate::blend::metrics::TileMetrics::NAMES
                .iter()
                .copied()
                .zip(f.metrics.vector())
                .collect(),
            Some(Figures::Mario(f)) => vec![
                ("jumps", f.jumps),
                ("enemy_damage", f.enemy_damage),
                ("hole_damage", f.hole_damage),
                ("long_presses", f.long_presses),
                ("total_damage", f.total_damage),
                ("r_diff", f.r_diff),
                ("r_mono", f.r_mono),
                ("evaluation", f.evaluation),
            ],
            None => Vec::new(),
        };
        numbers.extend(
            self.playtests
                .iter()
                .map(|p| ("playtest seconds", p.seconds)),
        );
        numbers
            .into_iter()
            .find(|(_, v)| !v.is_finite())
            .map(|(name, v)| format!("its figure {name} is {v}, not a finite number"))
    }

    /// The match-3 layout of this level.
    ///
    /// # Errors
    /// [`LayoutError`] if the cells are not a valid layout.
    pub fn layout(&self) -> Result<Layout, LayoutError> {
        Layout::from_rows(&self.cells)
    }

    /// The stored match-3 figures, if any.
    pub fn match3_figures(&self) -> Option<&Match3Figures> {
        match &self.figures {
            Some(Figures::Match3(f)) => Some(f),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The stored Longcat figures, if any.
    pub fn longcat_figures(&self) -> Option<&LongcatFigures> {
        match &self.figures {
            Some(Figures::Longcat(f)) => Some(f),
            _ => None,
        }
    }

    /// The dungeon figures, if stored.
    pub fn dungeon_figures(&self) -> Option<&DungeonFigures> {
        match &self.figures {
            Some(Figures::Dungeon(f)) => Some(f),
            _ => None,
        }
    }

    /// The course figures, if stored.
    pub fn course_figures(&self) -> Option<&CourseFigures> {
        match &self.figures {
            Some(Figures::Course(f)) => Some(f),
            _ => None,
        }
    }

    /// The blend figures, when the level has them.
    pub fn blend_figures(&self) -> Option<&BlendFigures> {
        match &self.figures {
            Some(Figures::Blend(f)) => Some(f),
            _ => None,
        }
    }

    /// The Mario figures, when the level has them.
    pub fn mario_figures(&self) -> Option<&MarioFigures> {
        match &self.figures {
            Some(Figures::Mario(f)) => Some(f),
            _ => None,
        }
    }

    /// The level's cells as ASCII art.
    pub fn ascii(&self) -> String {
        let mut s = self.cells.join("\n");
        s.push('\n');
        s
    }
}

/// A level pack: ordered levels with metadata.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    /// File format version.
    #[serde(default = "Pack::format_version")]
    pub format: u32,
    /// The pack's name.
    pub name: String,
    /// What the pack is for.
    #[serde(default)]
    pub description: String,
    /// The levels, in play order.
    pub levels: Vec<Level>,
}

impl Pack {
    /// The format version this build writes.
    pub fn format_version() -> u32 {
        1
    }

    /// An empty pack.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            format: Self::format_version(),
            name: name.into(),
            description: String::new(),
            levels: Vec::new(),
        }
    }
}
