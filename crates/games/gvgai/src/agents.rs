//! Agents that play a VGDL game: what `play --vgdl … --agent` runs. The agents by name (GVGAI's
//! do-nothing and random controllers here, the planners from [`crate::planners`]), and a game
//! played out by one. The [`Agent`] trait itself lives in [`crate::agent`].

pub use crate::agent::Agent;
use crate::load::Game;
use std::time::{Duration, Instant};
use studio_core::jobs::Cancel;
use vgdl::rng::JavaRandom;
use vgdl::{Action, Limit, State};

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
    /// Whether the player won (a stopped game is not won).
    pub won: bool,
    /// The score as GVGAI reports it (a won game scores at least 1).
    pub score: f64,
    /// GVGAI's game tick at the end (the last cycle's index).
    pub ticks: i32,
    /// Why the game was stopped before its end (the engine's work bound, the time budget, a
    /// cancel); `None` for a game that ended by its own rules.
    pub stopped: Option<Limit>,
}

/// The seconds an agent's game may take, its agent's thinking included, before it is stopped
/// with [`Limit::Time`] (the engine's own work bound stops a game of multiplying sprites
/// sooner, [`vgdl::engine::GAME_WORK`]).
pub const GAME_SECONDS: u64 = 30;

/// What bounds an agent's game besides the engine's work bound: a time budget and a cancel
/// flag, both checked every tick.
#[derive(Clone, Copy, Debug)]
pub struct Bounds<'a> {
    /// The game's time budget.
    pub time: Duration,
    /// The job's cancel flag (the window's Stop), when there is one.
    pub cancel: Option<&'a Cancel>,
}

impl Default for Bounds<'_> {
    fn default() -> Self {
        Bounds {
            time: Duration::from_secs(GAME_SECONDS),
            cancel: None,
        }
    }
}

impl<'a> Bounds<'a> {
    /// The default time budget with `cancel`'s flag.
    pub fn cancelled_by(cancel: &'a Cancel) -> Bounds<'a> {
        Bounds {
            cancel: Some(cancel),
            ..Bounds::default()
        }
    }

    /// Stops `state` when the game has run past its time budget (counted from `started`) or
    /// was cancelled; true when it did.
    pub fn check(&self, state: &mut State, started: Instant) -> bool {
        if self.cancel.is_some_and(Cancel::is_cancelled) {
            state.stop(Limit::Cancelled);
        } else if started.elapsed() > self.time {
            state.stop(Limit::Time);
        }
        state.stopped().is_some()
    }
}

/// Plays `state` to its end with `agent` (the engine ends every game by tick 2,000), within
/// the default [`Bounds`].
pub fn play_out(state: State, agent: &mut dyn Agent) -> Outcome {
    play_out_within(state, agent, &Bounds::default())
}

/// Plays `state` to its end with `agent`, or until `bounds` stop it (checked every tick, so a
/// cancel acts within one tick).
pub fn play_out_within(mut state: State, agent: &mut dyn Agent, bounds: &Bounds) -> Outcome {
    let started = Instant::now();
    while !state.is_over() {
        let action = agent.act(&state);
        state.step(action);
        bounds.check(&mut state, started);
    }
    Outcome {
        won: state.winner == vgdl::Winner::Wins,
        score: state.final_score(),
        ticks: state.tick,
        stopped: state.stopped(),
    }
}

/// Says in words how many of `outcomes` were stopped and why (`None` when none was): "2 of
/// 12 games stopped (limit reached: …)".
pub fn stopped_note(outcomes: &[Outcome]) -> Option<String> {
    let mut reasons: Vec<Limit> = outcomes.iter().filter_map(|o| o.stopped).collect();
    if reasons.is_empty() {
        return None;
    }
    let n = reasons.len();
    reasons.sort_by_key(|l| *l as u8);
    reasons.dedup();
    let words: Vec<String> = reasons.iter().map(ToString::to_string).collect();
    Some(format!(
        "{n} of {} games stopped before their end, counted as not won ({})",
        outcomes.len(),
        words.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stopped(limit: Option<Limit>) -> Outcome {
        Outcome {
            won: false,
            score: 0.0,
            ticks: 3,
            stopped: limit,
        }
    }

    /// A spawn point stacking blobs that clone themselves: 10,000 sprites on a cell by tick 5.
    const STACK: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    hole > SpawnPoint stype=blob prob=1 cooldown=1
    blob > Immovable
    avatar > MovingAvatar
  LevelMapping
    . > floor
    h > floor hole
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    blob blob > cloneSprite
  TerminationSet
    SpriteCounter stype=avatar win=False
";

    fn stack_game(level: &str) -> (Game, State) {
        let desc = vgdl::parse(STACK, "stack.txt").unwrap_or_else(|e| panic!("{e}"));
        let rules = std::sync::Arc::new(
            vgdl::compile(&desc, "stack.txt").unwrap_or_else(|e| panic!("{e}")),
        );
        let level = vgdl::read_level(&desc, level, "l.txt").unwrap_or_else(|e| panic!("{e}"));
        let state = State::new(rules.clone(), &level, 0).unwrap_or_else(|e| panic!("{e}"));
        (Game { desc, rules }, state)
    }

    #[test]
    fn a_game_of_multiplying_sprites_ends_stopped_and_not_won() {
        let (game, state) = stack_game("wwwww\nwAh.w\nwwwww\n");
        let t = Instant::now();
        for name in ["donothing", "random", "onestep"] {
            let mut agent = named(name, 1, &game).unwrap_or_else(|e| panic!("{e}"));
            let outcome = play_out(state.clone(), agent.as_mut());
            assert_eq!(outcome.stopped, Some(Limit::Work), "{name}");
            assert!(!outcome.won && outcome.ticks < 20, "{name}: {outcome:?}");
        }
        assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    }

    #[test]
    fn a_cancel_or_the_time_budget_stops_a_game_within_a_tick() {
        let (_, state) = stack_game("wwwww\nwA..w\nwwwww\n");
        let cancel = Cancel::default();
        cancel.cancel();
        let outcome = play_out_within(
            state.clone(),
            &mut DoNothing,
            &Bounds::cancelled_by(&cancel),
        );
        assert_eq!(
            (outcome.stopped, outcome.ticks),
            (Some(Limit::Cancelled), 0)
        );
        let no_time = Bounds {
            time: Duration::ZERO,
            cancel: None,
        };
        let outcome = play_out_within(state.clone(), &mut DoNothing, &no_time);
        assert_eq!((outcome.stopped, outcome.won), (Some(Limit::Time), false));
        // Unbounded, the game runs to GVGAI's 2,000 ticks.
        let outcome = play_out(state, &mut DoNothing);
        assert_eq!(
            (outcome.stopped, outcome.ticks),
            (None, vgdl::engine::MAX_TICKS)
        );
    }

    #[test]
    fn stopped_games_are_said_in_words() {
        assert_eq!(stopped_note(&[stopped(None)]), None);
        let note = stopped_note(&[stopped(Some(Limit::Work)), stopped(None)]).unwrap_or_default();
        assert!(note.starts_with("1 of 2 games stopped"), "{note}");
        assert!(note.contains("limit reached"), "{note}");
    }
}
