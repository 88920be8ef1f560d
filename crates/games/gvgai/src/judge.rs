//! How the pattern GA judges a VGDL level (GVGAI's sample genetic generator's seven
//! constraints and three fitness terms), with every figure from the engine and the agents'
//! games on its forward model, and the sprite groups FPattern reads ([`groups`]).
//!
//! The strong agent is the OLETS-like open-loop search (GVGAI's generator uses OLETS), the
//! naive one the one-step lookahead. The GA's games are as long as the profiles' ([`Judging`]'s
//! `length`): by default to the game's own end (GVGAI's 2,000 ticks or a `Timeout`), the
//! paper's reading; capped, an agent alive at the cap of a game won by surviving (a winning
//! `Timeout`, as Survive Zombies and Angels and Demons) counts as a winner with a solution as
//! long as the cap, in the GA's games and in the profiles alike.

use crate::agents::{self, Agent, Length};
use crate::level::VgdlGame;
use studio_core::evolve::pattern::{self, Category, Fitness, Group};
use studio_core::evolve::{Constraint, Evaluation, Term};
use studio_core::grid::Grid;
use vgdl::{Action, State, Winner};

/// Games each agent plays when the GA judges a level.
pub const GA_GAMES: u32 = 3;
/// The strong agent's mean winning game a feasible level needs, in ticks (as the dungeon's
/// GA: GVGAI's own Zelda levels' shortest wins are 24–43 ticks).
pub const MIN_SOLUTION_TICKS: f64 = 40.0;
/// How long the do-nothing agent must survive, in ticks (GVGAI's 40).
pub const MIN_SURVIVAL_TICKS: f64 = 40.0;
/// The least share of the inside covered by sprites.
pub const MIN_COVER: f64 = 0.05;
/// The largest share of the inside covered by sprites.
pub const MAX_COVER: f64 = 0.30;
/// The strong agent.
pub const STRONG: &str = "olets";
/// The strong agent's iterations a tick in the GA's games (half its own 200: judging a level
/// is the GA's whole cost, and GVGAI's generator too gives its agent a short budget).
pub const GA_BUDGET: usize = 100;
/// The naive agent.
pub const NAIVE: &str = "onestep";

/// The pattern category of each tile of `game` inside the border; the empty cell and the
/// avatar are in none.
fn category(game: &VgdlGame, tile: u8) -> Option<Category> {
    if tile == game.empty_tile() || Some(tile) == game.avatar_tile() {
        return None;
    }
    game.tile_roles().get(usize::from(tile)).copied()
}

/// The sprite groups of a level's tiles inside its border.
pub fn groups(game: &VgdlGame, tiles: &Grid<u8>) -> Vec<Group> {
    let (w, h) = (tiles.width(), tiles.height());
    let mut categories = Grid::filled(w, h, None);
    for (x, y, t) in tiles.iter() {
        if x > 0 && y > 0 && x + 1 < w && y + 1 < h {
            categories.set(x, y, category(game, t));
        }
    }
    pattern::groups(&categories)
}

/// Tiles back to rows.
pub fn rows_of(game: &VgdlGame, tiles: &Grid<u8>) -> Vec<String> {
    let palette = studio_core::game::Game::tiles(game);
    (0..tiles.height())
        .map(|y| {
            (0..tiles.width())
                .map(|x| palette[usize::from(tiles.get(x, y))].ascii)
                .collect()
        })
        .collect()
}

/// Which sprites FPattern, the pattern term, counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PatternTerm {
    /// Every category, as the paper.
    #[default]
    Every,
    /// The ablation: harmful sprites left out, so they earn nothing for grouping (nor for
    /// standing alone); walls, collectibles and the rest count as before.
    WithoutHarmful,
}

impl PatternTerm {
    /// The groups FPattern counts.
    pub fn counted(self, groups: &[Group]) -> Vec<Group> {
        groups
            .iter()
            .filter(|g| self == PatternTerm::Every || g.category != Category::Harmful)
            .cloned()
            .collect()
    }
}

/// How the GA judges a level: each agent's games, how long they last, and what the pattern
/// term counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judging {
    /// Games per agent.
    pub games: u32,
    /// How long each game lasts (the profiles' games should last as long).
    pub length: Length,
    /// What FPattern counts.
    pub pattern: PatternTerm,
}

impl Default for Judging {
    fn default() -> Self {
        Judging {
            games: GA_GAMES,
            length: Length::Full,
            pattern: PatternTerm::Every,
        }
    }
}

/// How one of the GA's games went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaGame {
    /// Won (or, in a game won by surviving, alive at the limit).
    pub won: bool,
    /// Lost before the limit.
    pub lost: bool,
    /// The score.
    pub score: f64,
    /// The ticks played.
    pub ticks: i32,
}

/// Plays `state` with `agent` until it ends or reaches `length`'s cap.
fn play_until(
    mut state: State,
    agent: &mut dyn Agent,
    length: Length,
    survive_wins: bool,
) -> (GaGame, State) {
    while !state.is_over() && !length.reached(&state) {
        let action = agent.act(&state);
        state.step(action);
    }
    let alive = !state.is_over();
    let game = GaGame {
        won: state.winner == Winner::Wins || (survive_wins && alive),
        lost: state.winner == Winner::Loses,
        score: state.score,
        ticks: state.tick + 1,
    };
    (game, state)
}

/// The interaction rules the avatar or what it makes takes part in, by their place in the
/// interaction set: what "unique rules" counts (GVGAI's generator counts the events of the
/// avatar and its shots).
fn avatar_rules(game: &VgdlGame) -> Vec<usize> {
    let rules = &game.game.rules;
    let mut side = vec![false; rules.types.len()];
    for (k, t) in rules.types.iter().enumerate() {
        if t.class.is_some_and(|c| c.is_avatar()) {
            side[k] = true;
            if let Some(s) = t.proto.stype {
                for &sub in &rules.subtypes[s] {
                    side[sub] = true;
                }
            }
        }
    }
    let involved = |k: usize| rules.subtypes[k].iter().any(|&s| side[s]);
    let mut out: Vec<usize> = rules
        .pairs
        .iter()
        .filter(|(a, b, _)| involved(*a) || involved(*b))
        .flat_map(|(_, _, list)| list.iter().map(|r| r.index))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Judges a level as the GA does: its seven constraints and three fitness terms, with the
/// games and pattern term of `judging`.
pub fn judge(
    game: &VgdlGame,
    tiles: &Grid<u8>,
    fitness: Fitness,
    seed: u64,
    judging: &Judging,
) -> Evaluation {
    let rows = rows_of(game, tiles);
    let make_up = MakeUp::of(game, tiles);
    let survive_wins = agents::won_by_surviving(&game.game.rules);
    let start = game.state(&rows, seed as i64);
    let play = |name: &str| {
        let games = (judging.games, judging.length);
        play_games(game, start.as_ref().ok(), name, seed, games, survive_wins)
    };
    let strong = play(STRONG);
    let naive = play(NAIVE);
    let idle = play("donothing");
    let constraints = judge_constraints(
        &make_up,
        &start,
        (&strong, &idle),
        judging.length,
        survive_wins,
    );
    let pattern_groups = judging.pattern.counted(&make_up.groups);
    let terms = judge_terms(game, &pattern_groups, fitness, &strong, &naive);
    Evaluation { constraints, terms }
}

/// What a level holds, before any game is played: its avatars, how much of its inside is
/// covered, its sprite groups and how many of the game's kinds are present.
struct MakeUp {
    avatars: usize,
    cover: f64,
    groups: Vec<Group>,
    /// The kinds present (the avatar and each sprite category)…
    present: usize,
    /// … of the kinds the game has.
    kinds: usize,
}

impl MakeUp {
    fn of(game: &VgdlGame, tiles: &Grid<u8>) -> Self {
        let (w, h) = (tiles.width(), tiles.height());
        let avatars = tiles
            .cells()
            .iter()
            .filter(|&&t| Some(t) == game.avatar_tile())
            .count();
        let inside = w.saturating_sub(2) * h.saturating_sub(2);
        let covered = tiles
            .iter()
            .filter(|&(x, y, t)| {
                x > 0 && y > 0 && x + 1 < w && y + 1 < h && category(game, t).is_some()
            })
            .count();
        let cover = covered as f64 / inside.max(1) as f64;
        let groups = groups(game, tiles);
        // The categories the game's characters have (the avatar counts as one kind).
        let mut wanted: Vec<Category> = (0..studio_core::game::Game::tiles(game).len() as u8)
            .filter_map(|t| category(game, t))
            .collect();
        wanted.sort_by_key(|c| *c as u8);
        wanted.dedup();
        let present: usize = wanted
            .iter()
            .filter(|&&c| groups.iter().any(|g| g.category == c))
            .count()
            + usize::from(avatars > 0);
        let kinds = wanted.len() + 1;
        MakeUp {
            avatars,
            cover,
            groups,
            present,
            kinds,
        }
    }
}

/// `games` seeded games of the agent `name` from `start`, each of `length` (none when the
/// level does not start).
fn play_games(
    game: &VgdlGame,
    start: Option<&State>,
    name: &str,
    seed: u64,
    (games, length): (u32, Length),
    survive_wins: bool,
) -> Vec<(GaGame, State)> {
    let Some(state) = start else {
        return Vec::new();
    };
    (0..u64::from(games))
        .filter_map(|g| {
            let s = seed.wrapping_add(g) as i64;
            let mut state = state.clone();
            state.rng = vgdl::rng::JavaRandom::new(s);
            let budget = (name == STRONG).then_some(GA_BUDGET);
            // The GA's agents are known names: an unknown one plays no game.
            let mut agent = agents::with_budget(name, s, &game.game, budget).ok()?;
            Some(play_until(state, agent.as_mut(), length, survive_wins))
        })
        .collect()
}

/// One agent's games as the GA played them, with their last states.
type Played<'a> = &'a [(GaGame, State)];

/// The GA's seven constraints, from the level's make-up and the strong and idle agents' games.
fn judge_constraints<E: std::fmt::Display>(
    make_up: &MakeUp,
    start: &Result<State, E>,
    (strong, idle): (Played, Played),
    length: Length,
    survive_wins: bool,
) -> Vec<Constraint> {
    let MakeUp {
        avatars,
        cover,
        present,
        kinds,
        ..
    } = *make_up;
    let wins: Vec<&GaGame> = strong.iter().map(|(g, _)| g).filter(|g| g.won).collect();
    let solution = if wins.is_empty() {
        0.0
    } else {
        wins.iter().map(|g| f64::from(g.ticks)).sum::<f64>() / wins.len() as f64
    };
    // A game lost at GVGAI's 2,000-tick end was survived to the end, not died in.
    let survived = idle
        .iter()
        .map(|(g, _)| {
            if g.lost {
                f64::from(g.ticks.min(length.ticks()))
            } else {
                f64::from(length.ticks())
            }
        })
        .fold(f64::INFINITY, f64::min);
    let survived = if survived.is_finite() { survived } else { 0.0 };
    let won_at_start = start.as_ref().ok().is_some_and(|s| {
        let mut s = s.clone();
        s.step(Action::Nil);
        s.winner == Winner::Wins && !survive_wins
    });
    let strong_win_rate = wins.len() as f64 / strong.len().max(1) as f64;
    // Games the engine stopped (sprites that multiply, a time budget) count as not won; the
    // constraint says so, so a failed Evolve names the cause (issue 70).
    let stopped: Vec<vgdl::Limit> = strong
        .iter()
        .filter_map(|(_, s)| match s.winner {
            Winner::Stopped(limit) => Some(limit),
            _ => None,
        })
        .collect();
    let stopped_note = stopped.first().map_or(String::new(), |limit| {
        format!(
            "; {} of {} of its games stopped ({limit})",
            stopped.len(),
            strong.len()
        )
    });
    vec![
        Constraint {
            name: "solution length",
            value: (solution / MIN_SOLUTION_TICKS).min(1.0),
            text: if wins.is_empty() {
                format!("the strong agent ({STRONG}) never wins{stopped_note}")
            } else {
                format!("solution {solution:.0} ticks (needs {MIN_SOLUTION_TICKS:.0})")
            },
        },
        Constraint::at_least(
            "do-nothing survives",
            survived,
            MIN_SURVIVAL_TICKS,
            format!("survives {survived:.0} ticks (needs {MIN_SURVIVAL_TICKS:.0})"),
        ),
        Constraint::cover(cover, MIN_COVER, MAX_COVER),
        Constraint {
            name: "sprites present",
            value: present as f64 / kinds as f64,
            text: format!("{present} of {kinds} kinds (the avatar and each sprite category)"),
        },
        Constraint {
            name: "goal not met at start",
            value: if start.is_ok() && !won_at_start {
                1.0
            } else {
                0.0
            },
            text: match &start {
                Err(e) => format!("not a level: {e}"),
                Ok(_) if won_at_start => "the game is won on its first tick".into(),
                Ok(_) => "the game starts unfinished".into(),
            },
        },
        Constraint {
            name: "one avatar",
            value: if avatars == 1 { 1.0 } else { 0.0 },
            text: format!("{avatars} avatars"),
        },
        Constraint {
            name: "strong agent wins",
            value: strong_win_rate,
            text: format!("{STRONG} wins {} of {} games", wins.len(), strong.len()),
        },
    ]
}

/// The GA's three fitness terms: the strong agent's lead over the naive one, the avatar's
/// rules the strong agent fired, and the level's patterns.
fn judge_terms(
    game: &VgdlGame,
    level_groups: &[Group],
    fitness: Fitness,
    strong: &[(GaGame, State)],
    naive: &[(GaGame, State)],
) -> Vec<Term> {
    let strong_mean = strong.iter().map(|(g, _)| g.score).sum::<f64>() / strong.len().max(1) as f64;
    let best_naive = naive
        .iter()
        .map(|(g, _)| g.score)
        .fold(f64::NEG_INFINITY, f64::max);
    let best_naive = if best_naive.is_finite() {
        best_naive
    } else {
        0.0
    };
    let difference = strong_mean - best_naive;
    let counted = avatar_rules(game);
    let fired = counted
        .iter()
        .filter(|&&r| strong.iter().any(|(_, s)| s.fired(r)))
        .count();
    vec![
        Term {
            name: "score difference",
            value: 1.0 / (1.0 + (-difference).exp()),
            text: format!(
                "{STRONG} {strong_mean:.1} vs {NAIVE}'s best {best_naive:.1} (sigmoid of {difference:+.1})"
            ),
        },
        Term {
            name: "unique rules",
            value: fired as f64 / counted.len().max(1) as f64,
            text: format!("{fired} of the avatar's {} rules fired", counted.len()),
        },
        Term {
            name: "FPattern",
            value: pattern::f_pattern(level_groups, fitness),
            text: format!(
                "{} groups counted, mean size {:.2} ({})",
                level_groups.len(),
                pattern::mean_group_size(level_groups),
                fitness.letter()
            ),
        },
    ]
}
