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

/// How long a game lasts: to its own end (its terminations, or GVGAI's 2,000 ticks), or
/// capped at fewer ticks — the GA's judging and the profiles take the same one, so a level is
/// judged on the games it is later profiled on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Length {
    /// To the game's own end (the paper's reading: GVGAI plays every game so).
    #[default]
    Full,
    /// At most this many ticks; in a game won by surviving (a winning `Timeout`) an avatar
    /// alive at the cap counts as a winner.
    Capped(i32),
}

impl Length {
    /// The most ticks a game of this length plays.
    pub fn ticks(self) -> i32 {
        match self {
            Length::Full => vgdl::engine::MAX_TICKS,
            Length::Capped(t) => t.min(vgdl::engine::MAX_TICKS),
        }
    }

    /// True when a game at `state` has reached the cap (never for [`Length::Full`], whose
    /// games the engine ends).
    pub fn reached(self, state: &State) -> bool {
        matches!(self, Length::Capped(t) if state.tick + 1 >= t)
    }

    /// `full` or the cap's ticks, for tables and JSON.
    pub fn label(self) -> String {
        match self {
            Length::Full => "full".into(),
            Length::Capped(t) => t.to_string(),
        }
    }
}

/// True when the game is won by surviving (a winning `Timeout`, as Survive Zombies and Angels
/// and Demons): an avatar alive at a [`Length::Capped`] game's cap counts as a winner.
pub fn won_by_surviving(rules: &vgdl::rules::Rules) -> bool {
    rules
        .terminations
        .iter()
        .any(|t| matches!(t, vgdl::rules::Term::Timeout { win: true, .. }))
}

/// What bounds an agent's game besides the engine's work bound: a time budget and a cancel
/// flag, both checked every tick, and the game's length.
#[derive(Clone, Copy, Debug)]
pub struct Bounds<'a> {
    /// The game's time budget.
    pub time: Duration,
    /// The job's cancel flag (the window's Stop), when there is one.
    pub cancel: Option<&'a Cancel>,
    /// How long the game lasts.
    pub length: Length,
}

impl Default for Bounds<'_> {
    fn default() -> Self {
        Bounds {
            time: Duration::from_secs(GAME_SECONDS),
            cancel: None,
            length: Length::Full,
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
/// cancel acts within one tick) or its length's cap is reached.
pub fn play_out_within(mut state: State, agent: &mut dyn Agent, bounds: &Bounds) -> Outcome {
    let started = Instant::now();
    while !state.is_over() && !bounds.length.reached(&state) {
        let action = agent.act(&state);
        state.step(action);
        bounds.check(&mut state, started);
    }
    // A capped game still running: won only in a game won by surviving.
    let alive_at_cap = !state.is_over() && won_by_surviving(state.rules());
    let won = state.winner == vgdl::Winner::Wins || alive_at_cap;
    Outcome {
        won,
        score: if alive_at_cap {
            state.score.max(1.0)
        } else {
            state.final_score()
        },
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
            ..Bounds::default()
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

    /// A room to wait in until a `Timeout` at tick 100 ends the game, won or lost.
    fn waiting_game(win: bool) -> State {
        let text = format!(
            "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    avatar > MovingAvatar
  LevelMapping
    . > floor
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
  TerminationSet
    Timeout limit=100 win={}
",
            if win { "True" } else { "False" }
        );
        let desc = vgdl::parse(&text, "wait.txt").unwrap_or_else(|e| panic!("{e}"));
        let rules =
            std::sync::Arc::new(vgdl::compile(&desc, "wait.txt").unwrap_or_else(|e| panic!("{e}")));
        let level = vgdl::read_level(&desc, "wwwww\nwA..w\nwwwww\n", "l.txt")
            .unwrap_or_else(|e| panic!("{e}"));
        State::new(rules, &level, 0).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_capped_game_ends_at_its_cap_and_is_won_there_only_by_surviving() {
        let play = |state: State, length| {
            let bounds = Bounds {
                length,
                ..Bounds::default()
            };
            play_out_within(state, &mut DoNothing, &bounds)
        };
        let (survive, lose) = (waiting_game(true), waiting_game(false));
        assert!(won_by_surviving(survive.rules()) && !won_by_surviving(lose.rules()));
        // To its own end: the Timeout decides at tick 100.
        let full = play(survive.clone(), Length::Full);
        assert_eq!((full.won, full.ticks), (true, 100));
        let full = play(lose.clone(), Length::Full);
        assert_eq!((full.won, full.ticks), (false, 100));
        // Capped at 50 ticks: the game stops at the 50th (tick index 49); alive there wins
        // only where the game is won by surviving, and a won game scores at least 1.
        let capped = play(survive, Length::Capped(50));
        assert_eq!((capped.won, capped.ticks, capped.score), (true, 49, 1.0));
        let capped = play(lose, Length::Capped(50));
        assert_eq!(
            (capped.won, capped.ticks, capped.stopped),
            (false, 49, None)
        );
        assert_eq!(Length::Capped(50).ticks(), 50);
        assert_eq!(Length::Capped(5000).ticks(), vgdl::engine::MAX_TICKS);
        assert_eq!(
            (Length::Full.label(), Length::Capped(50).label()),
            ("full".into(), "50".into())
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
