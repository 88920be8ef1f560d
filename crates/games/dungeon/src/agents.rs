//! The agent ladder that plays dungeon rooms (SPEC §2.3), from naive to strong, each seeded and
//! with a fixed budget of work per tick (never wall-clock), so results are the same on every
//! machine:
//!
//! - **do-nothing** waits every tick;
//! - **random** picks any action;
//! - **one-step** tries each action on a copy of the game (monsters moved by its own dice) and
//!   keeps the one whose result scores best: a win, then no death, then the game's score, then
//!   the walking distance to the key (or, holding it, the exit), with half a cell for facing
//!   a step that gets closer (a new direction only turns the avatar);
//! - **planner** replans every tick: it swings at a monster it faces; otherwise it walks the
//!   shortest way to the key (then the exit) that avoids the monsters and the cells next to
//!   the monsters that may move next tick; when monsters stand in the only way, it walks to
//!   the cell before the first of them, turns to face it and strikes;
//! - **mcts** runs a fixed number of Monte Carlo search iterations each tick (UCB1 over the
//!   six actions, uniformly random rollouts of a fixed depth, scored like one-step);
//! - **human-like** is the planner with timing slips (rl-quality-diversity §6.5): with
//!   probability 0.3, at most once per 4 ticks, its action is checked one tick late or early,
//!   and a tick where that slip would have let a monster touch the avatar counts one *virtual
//!   damage*; play goes on unchanged.
//!
//! Beside the ladder, two GVGAI-like generic agents ([`super::gvgai_agents`]) value only the
//! game's score and end, as GVGAI's sample controllers do: **gvgai-one-step** and
//! **gvgai-mcts**. They are what the pattern GA's profiles play ([`AgentKind::GVGAI`]).
//!
//! A game's monsters roll their own seeded dice (`Rng::derive(seed, 2 * game)`), the agent its
//! own (`Rng::derive(seed, 2 * game + 1)`). The searching agents run on
//! [`studio_core::search`] over the room's forward model ([`super::forward`]).

use super::forward::RoomModel;
use super::gvgai_agents::{gvgai_mcts, gvgai_one_step};
use super::room::{Cell, Room};
use super::rules::{Action, Dir, Outcome, Play, TickEvents};
use studio_core::grid::{breadth_first, breadth_first_to, Grid};
use studio_core::rng::Rng;
use studio_core::search::{
    self, flat_mcts, Bounds, Counts, Expansion, MctsConfig, Noise, Recommend, Ties,
};

/// MCTS iterations per tick.
pub const MCTS_ITERATIONS: usize = 24;
/// MCTS rollout depth, in ticks.
pub const MCTS_DEPTH: usize = 6;
/// The human-like agent's chance of a timing slip on a tick that may slip.
pub const SLIP_CHANCE: f64 = 0.3;
/// Ticks between two slips of the human-like agent, at least.
pub const SLIP_GAP: u32 = 4;

/// The agents, naive first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AgentKind {
    /// Waits every tick.
    DoNothing,
    /// Any action, uniformly.
    Random,
    /// The best action one tick ahead.
    OneStep,
    /// Replanning shortest paths around the monsters.
    Planner,
    /// Monte Carlo tree search.
    Mcts,
    /// The planner with timing slips, counting virtual damage.
    HumanLike,
    /// GVGAI's sampleonesteplookahead: score and the nearest portal, no key.
    GvgaiOneStep,
    /// GVGAI's sampleMCTS: UCT valuing the score, 160 iterations of rollouts 10 deep.
    GvgaiMcts,
}

impl AgentKind {
    /// The ladder, naive first.
    pub const ALL: [AgentKind; 6] = [
        AgentKind::DoNothing,
        AgentKind::Random,
        AgentKind::OneStep,
        AgentKind::Planner,
        AgentKind::Mcts,
        AgentKind::HumanLike,
    ];

    /// The GVGAI-like profile agents, naive first: do-nothing, random and the two generic
    /// agents that value only the game's score (the pattern GA paper's kind of controllers).
    pub const GVGAI: [AgentKind; 4] = [
        AgentKind::DoNothing,
        AgentKind::Random,
        AgentKind::GvgaiOneStep,
        AgentKind::GvgaiMcts,
    ];

    /// Every agent: the ladder, then the two GVGAI-like generic agents.
    pub const EVERY: [AgentKind; 8] = [
        AgentKind::DoNothing,
        AgentKind::Random,
        AgentKind::OneStep,
        AgentKind::Planner,
        AgentKind::Mcts,
        AgentKind::HumanLike,
        AgentKind::GvgaiOneStep,
        AgentKind::GvgaiMcts,
    ];

    /// The agent of a name ([`AgentKind::name`]).
    pub fn from_name(name: &str) -> Option<AgentKind> {
        Self::EVERY.into_iter().find(|a| a.name() == name)
    }

    /// The name in JSON and on the gauge.
    pub fn name(self) -> &'static str {
        match self {
            AgentKind::DoNothing => "do-nothing",
            AgentKind::Random => "random",
            AgentKind::OneStep => "one-step",
            AgentKind::Planner => "planner",
            AgentKind::Mcts => "mcts",
            AgentKind::HumanLike => "human-like",
            AgentKind::GvgaiOneStep => "gvgai-one-step",
            AgentKind::GvgaiMcts => "gvgai-mcts",
        }
    }
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The final outcome.
    pub outcome: Outcome,
    /// Ticks played.
    pub ticks: u32,
    /// The final score.
    pub score: i32,
    /// Virtual damage (human-like agent; 0 for the others).
    pub virtual_damage: u32,
    /// The rules the game fired, one bit each in the order of [`RULES`].
    pub rules: u8,
}

/// The interactions a game can fire (GVGAI calls them the game's rules; the GA's
/// unique-rules term counts how many of them a strong agent's games use).
pub const RULES: [&str; 6] = [
    "takes the key",
    "kills a monster",
    "leaves by the exit",
    "meets a monster",
    "bumps into a solid",
    "finds the exit locked",
];

/// The bits of [`RULES`] a tick fired, given the game after it.
fn rules_fired(events: TickEvents, play: &Play) -> u8 {
    let mut bits = 0;
    for (i, fired) in [
        events.took_key,
        events.killed,
        play.outcome == Outcome::Won,
        play.outcome == Outcome::Died,
        events.bumped && !events.locked,
        events.locked,
    ]
    .into_iter()
    .enumerate()
    {
        if fired {
            bits |= 1 << i;
        }
    }
    bits
}

/// One agent's figures over several games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentStats {
    /// The agent.
    pub agent: AgentKind,
    /// Games played.
    pub games: u32,
    /// Share of games won.
    pub win_rate: f64,
    /// Mean ticks per game.
    pub mean_ticks: f64,
    /// Mean final score.
    pub mean_score: f64,
    /// Mean virtual damage (the human-like agent only).
    pub mean_virtual_damage: Option<f64>,
}

/// Walking distances (ignoring monsters) to the key and to the exit, worked out once a room.
#[derive(Clone)]
pub struct Distances {
    to_key: Grid<u32>,
    to_exit: Grid<u32>,
}

impl Distances {
    /// The distance maps of a room (`u32::MAX` where the target cannot be reached).
    pub fn of(room: &Room) -> Self {
        let exit = room.exit();
        let floor = |p: (usize, usize)| {
            let c = room.cells().get(p.0, p.1);
            !c.is_solid() && c != Cell::Exit
        };
        Self {
            to_key: bfs(room, room.key(), &floor),
            to_exit: bfs(room, exit, &floor),
        }
    }

    /// Walking distance from `(x, y)`, which may be outside the room, to what the avatar
    /// needs next (`u32::MAX` outside).
    fn to_goal_checked(&self, x: i64, y: i64, has_key: bool) -> f64 {
        let map = if has_key { &self.to_exit } else { &self.to_key };
        match map.get_checked(x, y) {
            Some(d) if d != u32::MAX => f64::from(d),
            _ => f64::INFINITY,
        }
    }

    /// Walking distance from `at` to what the avatar needs next.
    pub fn to_goal(&self, at: (usize, usize), has_key: bool) -> u32 {
        if has_key {
            self.to_exit.get(at.0, at.1)
        } else {
            self.to_key.get(at.0, at.1)
        }
    }
}

fn bfs(room: &Room, from: (usize, usize), open: &dyn Fn((usize, usize)) -> bool) -> Grid<u32> {
    breadth_first(room.width(), room.height(), from, |at| {
        steps(room, at).filter(|&cell| open(cell))
    })
    .distances_or_max()
}

/// The cells of the room one step from `at`, in [`Dir::ALL`]'s order.
fn steps(room: &Room, at: (usize, usize)) -> impl Iterator<Item = (usize, usize)> + '_ {
    Dir::ALL
        .into_iter()
        .map(move |dir| dir.from(at))
        .filter(|&(x, y)| room.get(x, y).is_some())
        .map(|(x, y)| (x as usize, y as usize))
}

/// How good a position is for the one-step agent and MCTS rollouts (higher is better).
fn value(play: &Play, distances: &Distances) -> f64 {
    match play.outcome {
        Outcome::Won => 1000.0,
        Outcome::Died => -1000.0,
        Outcome::TimedOut => -500.0,
        Outcome::Playing => {
            let d = distances.to_goal(play.avatar, play.key);
            let d = if d == u32::MAX { 100.0 } else { f64::from(d) };
            // A new direction only turns the avatar, so facing a step that gets closer is
            // worth a little: half a cell.
            let (x, y) = play.facing.from(play.avatar);
            let ahead = distances.to_goal_checked(x, y, play.key);
            let facing = if ahead < d { 0.5 } else { 0.0 };
            10.0 * f64::from(play.score) + if play.key { 50.0 } else { 0.0 } - d + facing
        }
    }
}

/// The planner's action in `play`.
pub fn plan(room: &Room, play: &Play) -> Action {
    if let Some(ahead) = cell_ahead(room, play.avatar, play.facing) {
        if play.monster_at(ahead).is_some() {
            return Action::Sword;
        }
    }
    let target = if play.key { room.exit() } else { room.key() };
    let monster = |p: (usize, usize)| play.monster_at(p).is_some();
    let threatened = |p: (usize, usize)| {
        play.monsters
            .iter()
            .any(|m| m.moves_next_tick() && m.pos.0.abs_diff(p.0) + m.pos.1.abs_diff(p.1) == 1)
    };
    let passable = |p: (usize, usize)| {
        let c = room.cells().get(p.0, p.1);
        !c.is_solid() && (c != Cell::Exit || play.key)
    };
    // Safe first, then past threatened cells; monsters are never walked into.
    for avoid_threats in [true, false] {
        let open = |p: (usize, usize)| {
            passable(p) && !monster(p) && !(avoid_threats && threatened(p) && p != target)
        };
        if let Some(dir) = first_step(room, play.avatar, target, &open) {
            return Action::Move(dir);
        }
    }
    // Monsters block the way: line up with the first one on the way and strike.
    let through = |p: (usize, usize)| passable(p);
    if let Some(path) = path(room, play.avatar, target, &through) {
        if let Some(i) = path.iter().position(|&p| monster(p)) {
            let before = if i == 0 { play.avatar } else { path[i - 1] };
            let towards = direction(before, path[i]);
            // A new direction only turns the avatar: on the cell before the monster, turning
            // to face it is one tick.
            if play.avatar == before {
                return Action::Move(towards);
            }
            let open = |p: (usize, usize)| passable(p) && !monster(p);
            if let Some(dir) = first_step(room, play.avatar, before, &open) {
                return Action::Move(dir);
            }
        }
    }
    Action::Wait
}

fn direction(from: (usize, usize), to: (usize, usize)) -> Dir {
    if to.0 > from.0 {
        Dir::Right
    } else if to.0 < from.0 {
        Dir::Left
    } else if to.1 > from.1 {
        Dir::Down
    } else {
        Dir::Up
    }
}

fn cell_ahead(room: &Room, at: (usize, usize), facing: Dir) -> Option<(usize, usize)> {
    let (x, y) = facing.from(at);
    room.get(x, y).map(|_| (x as usize, y as usize))
}

/// The cells of a shortest walk from `from` (excluded) to `to` (included) through `open`
/// cells (`to` need not be open).
fn path(
    room: &Room,
    from: (usize, usize),
    to: (usize, usize),
    open: &dyn Fn((usize, usize)) -> bool,
) -> Option<Vec<(usize, usize)>> {
    if from == to {
        return Some(vec![to]);
    }
    breadth_first_to(room.width(), room.height(), from, to, |at| {
        steps(room, at).filter(move |&cell| cell == to || open(cell))
    })
    .path_to(to)
}

fn first_step(
    room: &Room,
    from: (usize, usize),
    to: (usize, usize),
    open: &dyn Fn((usize, usize)) -> bool,
) -> Option<Dir> {
    if from == to {
        return None;
    }
    path(room, from, to, open).map(|p| direction(from, p[0]))
}

/// One-step lookahead: each action, in a shuffled order, on a copy of the game; the first
/// best result kept.
fn one_step(room: &Room, play: &Play, distances: &Distances, rng: &mut Rng) -> Action {
    let mut order = Action::ALL;
    rng.shuffle(&mut order);
    let model = RoomModel::new(room, |play: &Play| value(play, distances));
    search::one_step(&model, play, &order, Noise::None, rng).unwrap_or(Action::Wait)
}

/// Monte Carlo search over the next action (a two-level tree: the first action, then a
/// rollout; enough for a per-tick decision at a fixed cost), [`MCTS_ITERATIONS`] iterations
/// of UCB1 with random rollouts [`MCTS_DEPTH`] ticks deep after the first.
fn mcts(room: &Room, play: &Play, distances: &Distances, rng: &mut Rng) -> Action {
    let model = RoomModel::new(room, |play: &Play| value(play, distances));
    flat_mcts(&model, play, &Action::ALL, &MCTS, rng).unwrap_or(Action::ALL[0])
}

/// The studio's MCTS: UCB1 (`mean + 300 √(2 ln t / n)`) on the raw values, no noise, the
/// last of equal values, the best mean played.
const MCTS: MctsConfig = MctsConfig {
    iterations: MCTS_ITERATIONS,
    depth: MCTS_DEPTH + 1,
    exploration: 300.0,
    log_scale: 2.0,
    counts: Counts::Plain,
    bounds: Bounds::None,
    noise: Noise::None,
    ties: Ties::Last,
    expansion: Expansion::Uniform,
    recommend: Recommend::BestMean,
};

/// Whether doing `action` one tick off would have put a monster on the avatar: late, the
/// monsters of this tick move first; early, the avatar then waits out a tick (the monsters of
/// this tick and the next move before it acts again). Late or early is a coin flip.
fn slip_hurts(room: &Room, play: &Play, action: Action, rng: &mut Rng) -> bool {
    let mut copy = play.clone();
    let mut dice = Rng::new(rng.next_u64());
    copy.tick += 1;
    if rng.chance(0.5) {
        copy.monsters_act(room, &mut dice);
        copy.avatar_acts(room, action);
    } else {
        copy.avatar_acts(room, action);
        copy.monsters_act(room, &mut dice);
        copy.tick += 1;
        copy.monsters_act(room, &mut dice);
    }
    copy.outcome == Outcome::Died
}

/// Plays one game of `room` with `agent`; the game's dice come from `seed` and `game`.
pub fn play_game(room: &Room, agent: AgentKind, seed: u64, game: u64, limit: u32) -> GameResult {
    play(room, agent, seed, game, limit, false)
}

/// As [`play_game`], but a game whose outcome can no longer change ends at once as a time-out
/// at `limit`, with the same outcome, ticks, score and virtual damage the full game would
/// have: no living monster shares the avatar's walkable region (so none can reach it, be
/// struck or be met), and the avatar can neither reach the key it lacks nor, holding it, the
/// exit. Only [`GameResult::rules`] may miss bumps that the rest of the game would have
/// fired. The analysis uses it: under GVGAI's 2,000-tick limit an agent shut away from the
/// key would otherwise search every one of those ticks.
pub fn play_game_settled(
    room: &Room,
    agent: AgentKind,
    seed: u64,
    game: u64,
    limit: u32,
) -> GameResult {
    play(room, agent, seed, game, limit, true)
}

/// The 4-connected regions of the cells that are not solid (the exit counts as open, a
/// conservative reading: monsters may cross it), one label a cell, row by row.
fn regions(room: &Room) -> Vec<Vec<Option<usize>>> {
    let (w, h) = (room.width(), room.height());
    let mut label = vec![vec![None; w]; h];
    let mut next = 0;
    for y0 in 0..h {
        for x0 in 0..w {
            let open =
                |x: usize, y: usize| room.get(x as i64, y as i64).is_some_and(|c| !c.is_solid());
            if label[y0][x0].is_some() || !open(x0, y0) {
                continue;
            }
            let mut stack = vec![(x0, y0)];
            label[y0][x0] = Some(next);
            while let Some((x, y)) = stack.pop() {
                let around = [
                    (x.wrapping_sub(1), y),
                    (x + 1, y),
                    (x, y.wrapping_sub(1)),
                    (x, y + 1),
                ];
                for (nx, ny) in around {
                    if nx < w && ny < h && label[ny][nx].is_none() && open(nx, ny) {
                        label[ny][nx] = Some(next);
                        stack.push((nx, ny));
                    }
                }
            }
            next += 1;
        }
    }
    label
}

/// True when nothing the avatar or the monsters do can change the game's outcome or score.
fn settled(room: &Room, play: &Play, regions: &[Vec<Option<usize>>]) -> bool {
    let region = |(x, y): (usize, usize)| regions.get(y).and_then(|r| r.get(x)).copied().flatten();
    let Some(own) = region(play.avatar) else {
        return false;
    };
    let goal = if play.key { room.exit() } else { room.key() };
    region(goal) != Some(own)
        && play
            .monsters
            .iter()
            .all(|m| !m.alive || region(m.pos) != Some(own))
}

fn play(
    room: &Room,
    agent: AgentKind,
    seed: u64,
    game: u64,
    limit: u32,
    settle: bool,
) -> GameResult {
    let distances = Distances::of(room);
    let regions = if settle { regions(room) } else { Vec::new() };
    let mut monsters = Rng::derive(seed, 2 * game);
    let mut own = Rng::derive(seed, 2 * game + 1);
    let mut play = Play::start(room);
    let mut virtual_damage = 0;
    let mut last_slip: Option<u32> = None;
    let mut rules = 0;
    while play.outcome == Outcome::Playing {
        let action = match agent {
            AgentKind::DoNothing => Action::Wait,
            AgentKind::Random => Action::ALL[own.index(Action::ALL.len())],
            AgentKind::OneStep => one_step(room, &play, &distances, &mut own),
            AgentKind::Planner => plan(room, &play),
            AgentKind::Mcts => mcts(room, &play, &distances, &mut own),
            AgentKind::GvgaiOneStep => gvgai_one_step(room, &play, &mut own),
            AgentKind::GvgaiMcts => gvgai_mcts(room, &play, &mut own),
            AgentKind::HumanLike => {
                let action = plan(room, &play);
                let may_slip = last_slip.is_none_or(|t| play.tick >= t + SLIP_GAP);
                if may_slip && own.chance(SLIP_CHANCE) {
                    last_slip = Some(play.tick);
                    if slip_hurts(room, &play, action, &mut own) {
                        virtual_damage += 1;
                    }
                }
                action
            }
        };
        let events = play.tick(room, action, &mut monsters, limit);
        rules |= rules_fired(events, &play);
        if settle && play.outcome == Outcome::Playing && settled(room, &play, &regions) {
            play.tick = play.tick.max(limit);
            play.outcome = Outcome::TimedOut;
        }
    }
    GameResult {
        outcome: play.outcome,
        ticks: play.tick,
        score: play.score,
        virtual_damage,
        rules,
    }
}

/// `games` seeded games of `room` by `agent`.
pub fn evaluate(room: &Room, agent: AgentKind, games: u32, seed: u64, limit: u32) -> AgentStats {
    let results: Vec<GameResult> = (0..u64::from(games))
        .map(|g| play_game(room, agent, seed, g, limit))
        .collect();
    stats(agent, &results)
}

/// The figures of games already played by `agent`.
pub fn stats(agent: AgentKind, results: &[GameResult]) -> AgentStats {
    let games = results.len() as u32;
    let n = f64::from(games.max(1));
    let mean = |f: &dyn Fn(&GameResult) -> f64| results.iter().map(f).sum::<f64>() / n;
    AgentStats {
        agent,
        games,
        win_rate: mean(&|r| f64::from(u8::from(r.outcome == Outcome::Won))),
        mean_ticks: mean(&|r| f64::from(r.ticks)),
        mean_score: mean(&|r| f64::from(r.score)),
        mean_virtual_damage: (agent == AgentKind::HumanLike)
            .then(|| mean(&|r| f64::from(r.virtual_damage))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::TICK_LIMIT;

    fn room(text: &str) -> Room {
        Room::parse_ascii(text).unwrap()
    }

    const OPEN: &str =
        "wwwwwwwww\nwA......w\nw.......w\nw...3...w\nw......+w\nwg......w\nwwwwwwwww\n";

    #[test]
    fn a_settled_game_ends_early_with_the_figures_of_the_full_one() {
        // The avatar is walled off from the key; the monster is on the other side.
        let shut = room("wwwwwwwww\nwA.w....w\nw..w..3.w\nw..w...+w\nw..w..g.w\nwwwwwwwww\n");
        for text in [
            OPEN,
            "wwwwwwwww\nwA.w....w\nw..w..3.w\nw..w...+w\nw..w..g.w\nwwwwwwwww\n",
        ] {
            let r = room(text);
            for agent in AgentKind::ALL {
                for g in 0..3 {
                    let full = play_game(&r, agent, 4, g, TICK_LIMIT);
                    let fast = play_game_settled(&r, agent, 4, g, TICK_LIMIT);
                    assert_eq!(
                        (full.outcome, full.ticks, full.score, full.virtual_damage),
                        (fast.outcome, fast.ticks, fast.score, fast.virtual_damage),
                        "{agent:?} game {g}"
                    );
                }
            }
        }
        let play = Play::start(&shut);
        assert!(settled(&shut, &play, &regions(&shut)));
        let open = room(OPEN);
        assert!(!settled(&open, &Play::start(&open), &regions(&open)));
    }

    #[test]
    fn do_nothing_never_wins_and_the_planner_solves_a_frozen_room() {
        // No monsters: the planner walks key then exit in the fewest ticks.
        let r = room("wwwwwww\nwA....w\nw.ww..w\nw..+.gw\nwwwwwww\n");
        let s = evaluate(&r, AgentKind::DoNothing, 10, 0, TICK_LIMIT);
        assert_eq!(s.win_rate, 0.0);
        assert_eq!(s.mean_ticks, f64::from(TICK_LIMIT));
        let s = evaluate(&r, AgentKind::Planner, 10, 0, TICK_LIMIT);
        assert_eq!(s.win_rate, 1.0);
        // As few ticks as the skeleton's shortest solution (a turn down, 2 steps, a turn right,
        // 2 steps to the key, 2 to the exit).
        let shortest = crate::skeleton::skeleton(&r, 10_000)
            .unwrap()
            .shortest_solution()
            .unwrap()
            .len();
        assert_eq!(shortest, 8);
        assert_eq!(s.mean_ticks, 8.0);
    }

    #[test]
    fn the_planner_strikes_a_monster_in_the_only_way() {
        let r = room("wwwwwwwww\nwA.3...+w\nwwwwwwwgw\nwwwwwwwww\n");
        let result = play_game(&r, AgentKind::Planner, 0, 0, TICK_LIMIT);
        assert_eq!(result.outcome, Outcome::Won, "{result:?}");
        assert_eq!(result.score, 4, "key, kill and win");
    }

    #[test]
    fn seeds_reproduce_games_and_the_ladder_is_ordered() {
        let r = room(OPEN);
        for agent in AgentKind::EVERY {
            assert_eq!(
                play_game(&r, agent, 5, 3, TICK_LIMIT),
                play_game(&r, agent, 5, 3, TICK_LIMIT),
                "{}",
                agent.name()
            );
        }
        let rate = |a| evaluate(&r, a, 20, 1, TICK_LIMIT).win_rate;
        assert_eq!(rate(AgentKind::DoNothing), 0.0);
        assert!(rate(AgentKind::Planner) >= 0.9);
        assert!(rate(AgentKind::Random) < rate(AgentKind::Planner));
        let human = evaluate(&r, AgentKind::HumanLike, 20, 1, TICK_LIMIT);
        assert!(human.mean_virtual_damage.is_some());
    }
}
