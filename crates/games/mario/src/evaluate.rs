//! One level's evaluation (rl-quality-diversity §6.3.4): A* decides playability; the
//! human-like agent's seeded trials give the virtual damage, jumps and long presses; the
//! rewards follow from them. Shared by the gauge, `validate`, `eval` and the generators.

use super::agents::human::{self, Trial};
use super::agents::{play_world, AStarAgent, Outcome};
use super::engine::{Cause, LevelMap, Status, World};
use super::level::{MarioLevel, PATTERN_COLUMNS};
use super::reward;
use super::MarioFigures;
use serde_json::json;
use std::sync::Arc;
use studio_core::jobs::{Cancel, JobError};
use studio_core::rng::Rng;

/// Human-like trials per level (the thesis's 10).
pub const DEFAULT_TRIALS: u32 = 10;

/// A new game of `map` with the level's time limit ([`human::time_limit`]: the framework's
/// 20 s, or 4 ticks a column on long levels).
pub fn new_world(map: &Arc<LevelMap>) -> World {
    World::new(Arc::clone(map)).with_time_limit(human::time_limit(map))
}

/// The A* agent's run: the playability test.
#[derive(Clone, Debug, PartialEq)]
pub struct AStarRun {
    /// How the game ended.
    pub status: Status,
    /// Ticks played.
    pub ticks: u32,
    /// Jumps started.
    pub jumps: u32,
    /// Mario's (x, y) in pixels, tick by tick (the path the overlay draws).
    pub path: Vec<(f32, f32)>,
}

impl AStarRun {
    /// True when A* reached the goal.
    pub fn won(&self) -> bool {
        self.status == Status::Won
    }

    /// Where and how A* failed, in words; `None` when it won.
    pub fn failure(&self) -> Option<String> {
        let &(x, _) = self.path.last()?;
        let column = (x / 16.0).max(0.0) as usize;
        match self.status {
            Status::Won => None,
            Status::Lost(Cause::Hole) => Some(format!(
                "fell into a hole at column {column} after {} ticks",
                self.ticks
            )),
            Status::Lost(Cause::Enemy) => Some(format!(
                "was killed by an enemy at column {column} after {} ticks",
                self.ticks
            )),
            Status::Lost(Cause::Time) | Status::Running => Some(format!(
                "ran out of time at column {column} ({} ticks)",
                self.ticks
            )),
        }
    }
}

impl From<Outcome> for AStarRun {
    fn from(o: Outcome) -> Self {
        Self {
            status: o.status,
            ticks: o.ticks,
            jumps: o.jumps,
            path: o.mario_path,
        }
    }
}

/// Plays the A* agent on `map` once (it is deterministic).
pub fn astar_run(map: &Arc<LevelMap>) -> AStarRun {
    play_world(
        new_world(map),
        &mut AStarAgent::new(),
        human::max_ticks(map),
    )
    .into()
}

/// One place where a trial took virtual damage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DamagePlace {
    /// The trial (0-based).
    pub trial: u32,
    /// Mario's column when the slip hurt him.
    pub column: usize,
    /// His row then (0 at the top; a fall is put on the bottom row, at the hole).
    pub row: usize,
    /// Enemy or hole.
    pub cause: Cause,
}

/// A level's A* run, human-like trials and rewards.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelEvaluation {
    /// The A* run.
    pub astar: AStarRun,
    /// Base seed of the trials.
    pub seed: u64,
    /// Per trial: jumps.
    pub jumps: Vec<f64>,
    /// Per trial: virtual enemy damage.
    pub enemy_damage: Vec<f64>,
    /// Per trial: virtual hole damage.
    pub hole_damage: Vec<f64>,
    /// Per trial: long presses.
    pub long_presses: Vec<f64>,
    /// Every virtual damage place of every trial.
    pub places: Vec<DamagePlace>,
    /// The monotony reward (already weighted by 0.01).
    pub r_mono: f64,
}

/// Mean and (population) standard deviation; 0 and 0 for no values.
pub fn mean_sd(values: &[f64]) -> (f64, f64) {
    let m = human::mean_sd(values);
    (m.mean, m.sd)
}

fn mean(values: &[f64]) -> f64 {
    human::mean_sd(values).mean
}

/// Evaluates a level: A*, then (when it is playable) `trials` human-like trials, the i-th
/// seeded with `Rng::derive(seed, i)` as [`human::evaluate`] does.
///
/// # Errors
/// [`JobError::Cancelled`] when `cancel` is raised between trials.
pub fn evaluate(
    level: &MarioLevel,
    seed: u64,
    trials: u32,
    cancel: &Cancel,
) -> Result<LevelEvaluation, JobError> {
    let map = Arc::new(LevelMap::from_level(level));
    let astar = astar_run(&map);
    let mut eval = LevelEvaluation {
        astar,
        seed,
        jumps: Vec::new(),
        enemy_damage: Vec::new(),
        hole_damage: Vec::new(),
        long_presses: Vec::new(),
        places: Vec::new(),
        r_mono: reward::r_mono(level),
    };
    if !eval.astar.won() {
        return Ok(eval);
    }
    for t in 0..trials {
        if cancel.is_cancelled() {
            return Err(JobError::Cancelled);
        }
        let trial_seed = Rng::derive(seed, u64::from(t)).next_u64();
        let trial: Trial = human::trial(&map, trial_seed, human::max_ticks(&map));
        eval.add_trial(t, &trial, level.height());
    }
    Ok(eval)
}

impl LevelEvaluation {
    /// Adds a trial's figures; a damage place below the level (a fall) is put on the level's
    /// bottom row, at the hole.
    fn add_trial(&mut self, index: u32, trial: &Trial, rows: usize) {
        self.jumps.push(f64::from(trial.jumps));
        self.enemy_damage.push(f64::from(trial.enemy_damage));
        self.hole_damage.push(f64::from(trial.hole_damage));
        self.long_presses.push(f64::from(trial.long_presses));
        self.places
            .extend(trial.virtual_damage.iter().map(|v| DamagePlace {
                trial: index,
                column: v.column,
                row: ((v.y_px / 16.0).max(0.0) as usize).min(rows - 1),
                cause: v.cause,
            }));
    }

    /// True when A* finished the level.
    pub fn playable(&self) -> bool {
        self.astar.won()
    }

    /// Trials played.
    pub fn trials(&self) -> u32 {
        self.jumps.len() as u32
    }

    /// Mean total damage over the trials (Eq. 6.1).
    pub fn total_damage(&self) -> f64 {
        reward::total_damage(mean(&self.enemy_damage), mean(&self.hole_damage))
    }

    /// The difficulty reward.
    pub fn r_diff(&self) -> f64 {
        if self.playable() {
            reward::r_diff(self.total_damage())
        } else {
            0.0
        }
    }

    /// r_diff + r_mono, 0 when unplayable.
    pub fn evaluation(&self) -> f64 {
        reward::evaluation(self.playable(), self.r_diff(), self.r_mono)
    }

    /// Virtual damage of all trials per 4-column pattern of `level`.
    pub fn damage_per_pattern(&self, level: &MarioLevel) -> Vec<u32> {
        let mut bars = vec![0u32; level.width().div_ceil(PATTERN_COLUMNS)];
        for p in &self.places {
            if let Some(b) = bars.get_mut(p.column / PATTERN_COLUMNS) {
                *b += 1;
            }
        }
        bars
    }

    /// The figures stored with the level.
    pub fn figures(&self) -> MarioFigures {
        MarioFigures {
            playable: self.playable(),
            astar_ticks: self.astar.ticks,
            failure: self.astar.failure(),
            trials: self.trials(),
            seed: self.seed,
            jumps: mean(&self.jumps),
            enemy_damage: mean(&self.enemy_damage),
            hole_damage: mean(&self.hole_damage),
            long_presses: mean(&self.long_presses),
            total_damage: self.total_damage(),
            r_diff: self.r_diff(),
            r_mono: if self.playable() { self.r_mono } else { 0.0 },
            evaluation: self.evaluation(),
        }
    }

    /// The fields `validate --json` prints.
    pub fn json_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let f = self.figures();
        let places: Vec<serde_json::Value> = self
            .places
            .iter()
            .map(|p| {
                json!({
                    "trial": p.trial,
                    "column": p.column,
                    "row": p.row,
                    "cause": match p.cause {
                        Cause::Enemy => "enemy",
                        Cause::Hole => "hole",
                        Cause::Time => "time",
                    },
                })
            })
            .collect();
        let value = json!({
            "playable": f.playable,
            "astar_ticks": f.astar_ticks,
            "astar_failure": f.failure,
            "trials": f.trials,
            "seed": f.seed,
            "jumps": f.jumps,
            "enemy_damage": f.enemy_damage,
            "hole_damage": f.hole_damage,
            "long_presses": f.long_presses,
            "total_damage": f.total_damage,
            "r_diff": f.r_diff,
            "r_mono": f.r_mono,
            "evaluation": f.evaluation,
            "virtual_damage_places": places,
        });
        match value {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        }
    }
}
