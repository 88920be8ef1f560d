//! Agents that play a VGDL game: what `play --vgdl … --agent` runs.

use crate::load::Game;
use vgdl::rng::JavaRandom;
use vgdl::{Action, State};

/// The agents by name, as `--agent` takes them.
pub const AGENTS: [&str; 8] = [
    "donothing",
    "random",
    "onestep",
    "rs",
    "flatmcts",
    "mcts",
    "rhea",
    "olets",
];

/// An agent: picks the avatar's action each tick.
pub trait Agent {
    /// The action for this tick.
    fn act(&mut self, state: &State) -> Action;
}

/// GVGAI's do-nothing controller: NIL every tick.
#[derive(Clone, Copy, Debug, Default)]
pub struct DoNothing;

impl Agent for DoNothing {
    fn act(&mut self, _: &State) -> Action {
        Action::Nil
    }
}

/// GVGAI's sample random controller: a uniformly random available action each tick (the
/// avatar's actions without NIL, in GVGAI's order), from `java.util.Random` seeded per game.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: JavaRandom,
}

impl RandomAgent {
    /// An agent drawing from `new Random(seed)`.
    pub fn new(seed: i64) -> RandomAgent {
        RandomAgent {
            rng: JavaRandom::new(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn act(&mut self, state: &State) -> Action {
        let actions = state.actions();
        if actions.is_empty() {
            return Action::Nil;
        }
        actions[self.rng.next_int(actions.len() as i32) as usize]
    }
}

/// The agent named `name` for `game`, drawing its random numbers from `new Random(seed)`.
///
/// # Errors
/// A name that is none of [`AGENTS`].
pub fn named(name: &str, seed: i64, game: &Game) -> Result<Box<dyn Agent>, String> {
    with_budget(name, seed, game, None)
}

/// As [`named`], the searching agents with `budget` iterations or evaluations a tick instead
/// of their default ([`crate::planners::MCTS_ITERATIONS`], [`crate::planners::PLAN_EVALUATIONS`]).
///
/// # Errors
/// As [`named`].
pub fn with_budget(
    name: &str,
    seed: i64,
    game: &Game,
    budget: Option<usize>,
) -> Result<Box<dyn Agent>, String> {
    let evaluations = budget.unwrap_or(crate::planners::PLAN_EVALUATIONS).max(1);
    let iterations = budget.unwrap_or(crate::planners::MCTS_ITERATIONS).max(1);
    match name.to_ascii_lowercase().as_str() {
        "donothing" | "do-nothing" | "nothing" => Ok(Box::new(DoNothing)),
        "random" | "seededrandom" => Ok(Box::new(RandomAgent::new(seed))),
        "onestep" | "one-step" | "sampleonesteplookahead" => {
            Ok(Box::new(crate::planners::OneStep::new(game, seed)))
        }
        "rs" | "randomsearch" | "samplers" => Ok(Box::new(crate::planners::RandomSearch::new(
            seed,
            evaluations,
        ))),
        "rhea" | "samplerhea" => Ok(Box::new(crate::planners::Rhea::new(seed, evaluations))),
        "flatmcts" | "flat-mcts" => Ok(Box::new(crate::planners::FlatMcts::new(seed, iterations))),
        "olets" => Ok(Box::new(crate::planners::Olets::new(seed, iterations))),
        "mcts" | "samplemcts" => Ok(Box::new(crate::planners::Mcts::new(seed, iterations))),
        _ => Err(format!(
            "“{name}” is not an agent (agents: {})",
            AGENTS.join(", ")
        )),
    }
}

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Whether the player won.
    pub won: bool,
    /// The score as GVGAI reports it (a won game scores at least 1).
    pub score: f64,
    /// GVGAI's game tick at the end (the last cycle's index).
    pub ticks: i32,
}

/// Plays `state` to its end with `agent` (the engine ends every game by tick 2,000).
pub fn play_out(mut state: State, agent: &mut dyn Agent) -> Outcome {
    while !state.is_over() {
        let action = agent.act(&state);
        state.step(action);
    }
    Outcome {
        won: state.winner == vgdl::Winner::Wins,
        score: state.final_score(),
        ticks: state.tick,
    }
}
