//! GVGAI-like generic agents (dungeon-vs-gvgai §5): what GVGAI's sample controllers know of a
//! game, and no more. They value a position by the game's score and its end (win or loss), as
//! GVGAI's heuristics do, never by the walking distance to the key or the exit that the
//! studio's one-step and MCTS use. The pattern GA's relative performance profiles
//! (pattern-based-ga-generator, Table 1) were measured with such agents.
//!
//! - **gvgai-one-step** (sampleonesteplookahead): each of the five actions on a copy of the
//!   game, scored by `SimpleStateHeuristic`: ±[`HUGE`] for a win or a loss, otherwise the score
//!   less 10 × the squared straight-line distance to the nearest portal (the exit, locked or
//!   not). It knows nothing of the key, so it heads for the locked exit, as GVGAI's does.
//! - **gvgai-mcts** (sampleMCTS): UCT with K = √2 over the five actions, one node expanded per
//!   iteration, random rollouts to [`GVGAI_MCTS_DEPTH`] ticks from the root, value = score ±
//!   [`HUGE`] for a win or a loss, normalised by the bounds seen so far; the most visited first
//!   action is played. [`GVGAI_MCTS_ITERATIONS`] iterations a tick (GVGAI gets ~160 in its
//!   40 ms). Open loop: each iteration replays the actions from the current game with fresh
//!   monster dice, where GVGAI keeps the first state it saw in each node.
//!
//! Both act from GVGAI's five actions (the four moves and the sword; GVGAI's Zelda offers no
//! wait), take every random draw from the agent's seeded dice, and search through
//! [`studio_core::search`] on the room's forward model ([`super::forward`]).

use super::forward::RoomModel;
use super::room::Room;
use super::rules::{Action, Dir, Outcome, Play};
use studio_core::rng::Rng;
use studio_core::search::{
    mcts, one_step, Bounds, Counts, Expansion, MctsConfig, Noise, Recommend, Ties,
};

/// sampleMCTS's iterations per tick (what GVGAI's 40 ms buy on the report's machine).
pub const GVGAI_MCTS_ITERATIONS: usize = 160;
/// sampleMCTS's rollout depth: ticks from the root, tree and rollout together.
pub const GVGAI_MCTS_DEPTH: usize = 10;
/// GVGAI's value of a win (its negative: a loss).
pub const HUGE: f64 = 1.0e7;

/// GVGAI's five actions: the four moves and the sword.
pub const GVGAI_ACTIONS: [Action; 5] = [
    Action::Move(Dir::Up),
    Action::Move(Dir::Down),
    Action::Move(Dir::Left),
    Action::Move(Dir::Right),
    Action::Sword,
];

/// The end of a game as GVGAI scores it: a win, a loss (death or time out), or neither.
fn end_value(play: &Play) -> Option<f64> {
    match play.outcome {
        Outcome::Won => Some(HUGE),
        Outcome::Died | Outcome::TimedOut => Some(-HUGE),
        Outcome::Playing => None,
    }
}

/// `SimpleStateHeuristic`: the score less 10 × the squared distance to the nearest portal
/// (the exit), ±[`HUGE`] at the end of a game.
pub fn simple_state_heuristic(room: &Room, play: &Play) -> f64 {
    if let Some(end) = end_value(play) {
        return end;
    }
    let (ex, ey) = room.exit();
    let dx = ex as f64 - play.avatar.0 as f64;
    let dy = ey as f64 - play.avatar.1 as f64;
    f64::from(play.score) - 10.0 * (dx * dx + dy * dy)
}

/// sampleMCTS's value of a state: the score, ±[`HUGE`] at the end of a game.
pub fn score_value(play: &Play) -> f64 {
    end_value(play).unwrap_or_else(|| f64::from(play.score))
}

/// sampleonesteplookahead: the action whose next state [`simple_state_heuristic`] rates
/// best (ties to a small random noise, as GVGAI's `Utils.noise`).
pub fn gvgai_one_step(room: &Room, play: &Play, rng: &mut Rng) -> Action {
    let model = RoomModel::new(room, |play: &Play| simple_state_heuristic(room, play));
    one_step(&model, play, &GVGAI_ACTIONS, NOISE, rng).unwrap_or(Action::Sword)
}

/// A tie-breaking noise in [0, 1e-6), as GVGAI adds to every value it compares.
const NOISE: Noise = Noise::Added(1e-6);

/// sampleMCTS: [`GVGAI_MCTS_ITERATIONS`] iterations of UCT with rollouts to
/// [`GVGAI_MCTS_DEPTH`] ticks; the most visited first action.
pub fn gvgai_mcts(room: &Room, play: &Play, rng: &mut Rng) -> Action {
    gvgai_mcts_with(room, play, rng, GVGAI_MCTS_ITERATIONS, GVGAI_MCTS_DEPTH)
}

/// [`gvgai_mcts`] with another budget: `iterations` a tick, rollouts to `depth` ticks.
pub fn gvgai_mcts_with(
    room: &Room,
    play: &Play,
    rng: &mut Rng,
    iterations: usize,
    depth: usize,
) -> Action {
    let config = MctsConfig {
        iterations,
        depth,
        ..MCTS
    };
    mcts(
        &RoomModel::new(room, score_value),
        play,
        &GVGAI_ACTIONS,
        &config,
        rng,
    )
    .unwrap_or(Action::Sword)
}

/// sampleMCTS as ported here: UCT with K = √2 over plain counts, the mean normalised by the
/// bounds of every value seen, an untried action drawn uniformly, [`NOISE`] on every value
/// compared, the most visited first action.
const MCTS: MctsConfig = MctsConfig {
    iterations: GVGAI_MCTS_ITERATIONS,
    depth: GVGAI_MCTS_DEPTH,
    exploration: std::f64::consts::SQRT_2,
    log_scale: 1.0,
    counts: Counts::Plain,
    bounds: Bounds::Global,
    noise: NOISE,
    ties: Ties::First,
    expansion: Expansion::Uniform,
    recommend: Recommend::MostVisited,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn room(text: &str) -> Room {
        Room::parse_ascii(text).unwrap()
    }

    #[test]
    fn the_heuristic_values_score_and_the_portal_never_the_key() {
        // The key is next to the avatar, the exit far: one-step walks away from the key.
        let r = room("wwwwwwwwwww\nw+A......gw\nwwwwwwwwwww\n");
        let mut play = Play::start(&r);
        let mut rng = Rng::new(1);
        // Facing right already: one-step keeps walking right, towards the exit.
        assert_eq!(
            gvgai_one_step(&r, &play, &mut rng),
            Action::Move(Dir::Right)
        );
        let before = simple_state_heuristic(&r, &play);
        play.score += 1;
        assert_eq!(simple_state_heuristic(&r, &play), before + 1.0);
        play.outcome = Outcome::Won;
        assert_eq!(score_value(&play), HUGE);
        play.outcome = Outcome::Died;
        assert_eq!(simple_state_heuristic(&r, &play), -HUGE);
    }

    #[test]
    fn mcts_takes_a_score_in_reach_but_has_no_pull_towards_a_far_key() {
        // A key one tick ahead is +1: MCTS steps onto it.
        let near = room("wwwwwww\nwA+...w\nw....gw\nwwwwwww\n");
        let play = Play::start(&near);
        let mut rng = Rng::new(4);
        assert_eq!(gvgai_mcts(&near, &play, &mut rng), Action::Move(Dir::Right));
        // A key beyond its rollouts: no value anywhere, so its choices spread over the
        // actions (the studio's MCTS would walk to the key every time).
        let far = room("wwwwwwwwwwwwwwww\nwA............+w\nw.............gw\nwwwwwwwwwwwwwwww\n");
        let play = Play::start(&far);
        let mut picks = std::collections::HashSet::new();
        for seed in 0..20 {
            picks.insert(gvgai_mcts(&far, &play, &mut Rng::new(seed)).letter());
        }
        assert!(picks.len() >= 3, "{picks:?}");
    }

    #[test]
    fn a_seed_repeats_the_choice() {
        let r = room("wwwwwwwww\nwA......w\nw...3...w\nw......+w\nwg......w\nwwwwwwwww\n");
        let play = Play::start(&r);
        for seed in 0..5 {
            assert_eq!(
                gvgai_mcts(&r, &play, &mut Rng::new(seed)),
                gvgai_mcts(&r, &play, &mut Rng::new(seed))
            );
            assert_eq!(
                gvgai_one_step(&r, &play, &mut Rng::new(seed)),
                gvgai_one_step(&r, &play, &mut Rng::new(seed))
            );
        }
    }
}
