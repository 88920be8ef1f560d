//! The pattern-based FI2Pop GA on any VGDL game (pattern-based-ga-generator), the agents'
//! analysis of a level, and the relative performance profiles of the paper's eight
//! controllers.
//!
//! A level is judged as GVGAI's sample genetic generator judges one, with its seven
//! constraints and three fitness terms, the way `crates/games/dungeon`'s GA does for its
//! rooms; here every figure comes from the VGDL engine and GVGAI-like agents on its forward
//! model. The strong agent is the OLETS-like open-loop search (GVGAI's generator uses OLETS),
//! the naive one the one-step lookahead. The GA's own games end at [`GA_TICK_LIMIT`] ticks
//! (GVGAI plays 2,000) to keep judging a level cheap; in a game won by surviving (a winning
//! `Timeout`, as Survive Zombies and Angels and Demons), an agent still alive at that limit
//! counts as a winner with a solution as long as the limit.
//!
//! The sprite categories (solid, collectible, harmful, goal, other) come from the game's
//! interaction set ([`crate::roles`]); the GA creates every level character but the avatar's
//! and the empty cell, and keeps the border of the level it started from.

use crate::agents::{self, Agent};
use crate::level::VgdlGame;
use studio_core::evolve::generator::Breeder;
use studio_core::evolve::pattern::{self, Category, Fitness, Group};
use studio_core::evolve::{Constraint, Evaluation, Evolvable, Term};
use studio_core::game::{ConditionError, ConditionKind, ConditionSpec, ConditionValue, GenRequest};
use studio_core::grid::Grid;
use studio_core::level::Level;
use studio_core::rng::Rng;
use vgdl::{Action, State, Winner};

/// The tick limit of the GA's own games (GVGAI's 2,000 ÷ 10).
pub const GA_TICK_LIMIT: i32 = 200;
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

/// The mean group size of levels (the paper's α/β contrast).
pub fn mean_group_size(game: &VgdlGame, levels: &[Grid<u8>]) -> f64 {
    let sizes: Vec<f64> = levels
        .iter()
        .map(|l| pattern::mean_group_size(&groups(game, l)))
        .collect();
    sizes.iter().sum::<f64>() / sizes.len().max(1) as f64
}

/// A level's rows as tiles of `game`.
///
/// # Errors
/// A character the game does not map, or ragged rows.
pub fn tiles_of(game: &VgdlGame, rows: &[String]) -> Result<Grid<u8>, String> {
    let tiles = studio_core::game::tile_indices(game, rows).map_err(|e| e.to_string())?;
    let (h, w) = (tiles.len(), tiles.first().map_or(0, Vec::len));
    if w == 0 || tiles.iter().any(|r| r.len() != w) {
        return Err("the level's rows are not all as long as the first".into());
    }
    let mut g = Grid::filled(w, h, game.empty_tile());
    for (y, row) in tiles.iter().enumerate() {
        for (x, &t) in row.iter().enumerate() {
            g.set(x, y, t);
        }
    }
    Ok(g)
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

/// True when the game is won by surviving (a winning `Timeout`).
fn won_by_surviving(game: &VgdlGame) -> bool {
    game.game
        .rules
        .terminations
        .iter()
        .any(|t| matches!(t, vgdl::rules::Term::Timeout { win: true, .. }))
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

/// Plays `state` with `agent` until it ends or `limit` ticks pass.
fn play_until(
    mut state: State,
    agent: &mut dyn Agent,
    limit: i32,
    survive_wins: bool,
) -> (GaGame, State) {
    while !state.is_over() && state.tick + 1 < limit {
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

/// The GA's view of one game's levels of one size.
#[derive(Clone)]
pub struct VgdlEvolution {
    /// The game.
    pub game: &'static VgdlGame,
    /// The level whose size and border the GA keeps (its inside is ignored).
    pub template: Grid<u8>,
    /// α or β.
    pub fitness: Fitness,
    /// Games per agent when judging a level.
    pub games: u32,
    sprites: Vec<u8>,
}

impl VgdlEvolution {
    /// Levels of `game` the size of `template`, with its border, under `fitness`.
    pub fn new(game: &'static VgdlGame, template: Grid<u8>, fitness: Fitness) -> Self {
        let sprites = (0..studio_core::game::Game::tiles(game).len() as u8)
            .filter(|&t| t != game.empty_tile() && Some(t) != game.avatar_tile())
            .collect();
        Self {
            game,
            template,
            fitness,
            games: GA_GAMES,
            sprites,
        }
    }

    fn inside(&self, grid: &Grid<u8>) -> Vec<(usize, usize)> {
        grid.iter()
            .filter(|&(x, y, _)| !self.fixed(grid, x, y))
            .map(|(x, y, _)| (x, y))
            .collect()
    }
}

impl Evolvable for VgdlEvolution {
    type Cell = u8;

    /// GVGAI's random level generator's rule: the border of the template, each sprite once
    /// at a random inside cell (the draws depend on the seed and on α or β), then more at random up to a cover drawn between
    /// [`MIN_COVER`] and [`MAX_COVER`] (the paper starts from the constructive generator).
    fn initial(&self, seed: u64) -> Grid<u8> {
        // α and β start from different levels even with one seed, so their runs do not end
        // near each other.
        let mut rng = Rng::derive(seed, 0xA1FA + self.fitness as u64);
        let mut g = self.template.clone();
        let inside = self.inside(&g);
        for &(x, y) in &inside {
            g.set(x, y, self.game.empty_tile());
        }
        if inside.is_empty() || self.sprites.is_empty() {
            return g;
        }
        let mut free = inside.clone();
        for &t in &self.sprites {
            if free.is_empty() {
                break;
            }
            let (x, y) = free.swap_remove(rng.index(free.len()));
            g.set(x, y, t);
        }
        let cover = MIN_COVER + rng.unit() * (MAX_COVER - MIN_COVER);
        let target = (cover * inside.len() as f64).round() as usize;
        let mut placed = inside.len() - free.len();
        while placed < target && !free.is_empty() {
            let (x, y) = free.swap_remove(rng.index(free.len()));
            g.set(x, y, self.sprites[rng.index(self.sprites.len())]);
            placed += 1;
        }
        g
    }

    fn empty(&self) -> u8 {
        self.game.empty_tile()
    }

    fn sprites(&self) -> &[u8] {
        &self.sprites
    }

    fn fixed(&self, grid: &Grid<u8>, x: usize, y: usize) -> bool {
        x == 0 || y == 0 || x + 1 == grid.width() || y + 1 == grid.height()
    }

    /// Exactly one avatar: extras become empty (the survivor picked at random), a missing one
    /// is put on a random empty inside cell (any inside cell when none is empty).
    fn repair(&self, grid: &mut Grid<u8>, rng: &mut Rng) {
        let Some(avatar) = self.game.avatar_tile() else {
            return;
        };
        let at: Vec<(usize, usize)> = grid
            .iter()
            .filter(|&(x, y, c)| c == avatar && !self.fixed(grid, x, y))
            .map(|(x, y, _)| (x, y))
            .collect();
        if at.len() > 1 {
            let keep = rng.index(at.len());
            for (i, &(x, y)) in at.iter().enumerate() {
                if i != keep {
                    grid.set(x, y, self.game.empty_tile());
                }
            }
        } else if at.is_empty() {
            let inside = self.inside(grid);
            let empty: Vec<(usize, usize)> = inside
                .iter()
                .copied()
                .filter(|&(x, y)| grid.get(x, y) == self.game.empty_tile())
                .collect();
            let pool = if empty.is_empty() { &inside } else { &empty };
            if !pool.is_empty() {
                let (x, y) = pool[rng.index(pool.len())];
                grid.set(x, y, avatar);
            }
        }
    }

    fn evaluate(&self, grid: &Grid<u8>, seed: u64) -> Evaluation {
        judge(self.game, grid, self.fitness, seed, self.games)
    }
}

/// Judges a level as the GA does: its seven constraints and three fitness terms, with `games`
/// seeded games per agent.
pub fn judge(
    game: &VgdlGame,
    tiles: &Grid<u8>,
    fitness: Fitness,
    seed: u64,
    games: u32,
) -> Evaluation {
    let rows = rows_of(game, tiles);
    let make_up = MakeUp::of(game, tiles);
    let survive_wins = won_by_surviving(game);
    let start = game.state(&rows, seed as i64);
    let play = |name: &str| play_games(game, start.as_ref().ok(), name, seed, games, survive_wins);
    let strong = play(STRONG);
    let naive = play(NAIVE);
    let idle = play("donothing");
    let constraints = judge_constraints(&make_up, &start, &strong, &idle, survive_wins);
    let terms = judge_terms(game, &make_up.groups, fitness, &strong, &naive);
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

/// `games` seeded games of the agent `name` from `start` (none when the level does not start).
fn play_games(
    game: &VgdlGame,
    start: Option<&State>,
    name: &str,
    seed: u64,
    games: u32,
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
            Some(play_until(
                state,
                agent.as_mut(),
                GA_TICK_LIMIT,
                survive_wins,
            ))
        })
        .collect()
}

/// The GA's seven constraints, from the level's make-up and the strong and idle agents' games.
fn judge_constraints<E: std::fmt::Display>(
    make_up: &MakeUp,
    start: &Result<State, E>,
    strong: &[(GaGame, State)],
    idle: &[(GaGame, State)],
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
    let survived = idle
        .iter()
        .map(|(g, _)| {
            if g.lost {
                f64::from(g.ticks)
            } else {
                f64::from(GA_TICK_LIMIT)
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
                "{} groups, mean size {:.2} ({})",
                level_groups.len(),
                pattern::mean_group_size(level_groups),
                fitness.letter()
            ),
        },
    ]
}

/// "Evolve (α)" / "Evolve (β)" of a GVGAI game in the window's sidebar.
#[derive(Clone, Copy, Debug)]
pub struct VgdlBreeder(pub &'static VgdlGame);

impl Breeder for VgdlBreeder {
    type Ga = VgdlEvolution;

    fn descriptions(&self) -> [&'static str; 2] {
        [
            "the pattern GA (FI2Pop) favouring sprites in groups: the OLETS-like agent and \
             one-step judge each level",
            "the pattern GA (FI2Pop) favouring isolated sprites (the paper's inverse fitness)",
        ]
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        let side = |key, label, default, help| ConditionSpec {
            key,
            label,
            kind: ConditionKind::Int {
                min: 4,
                max: crate::level::MAX_SIDE as i64,
            },
            default: ConditionValue::Int(default),
            required: false,
            help,
        };
        vec![
            side("width", "Width", 13, "level width, border included"),
            side("height", "Height", 9, "level height, border included"),
        ]
    }

    fn validated_help(&self) -> &'static str {
        "feasible levels only: every constraint met (the strong agent wins, do-nothing survives, …)"
    }

    fn ga(&self, request: &GenRequest, fitness: Fitness) -> Result<VgdlEvolution, ConditionError> {
        let int = |key: &str, default: i64| match request.conditions.get(key) {
            Some(ConditionValue::Int(v)) => v,
            _ => default,
        };
        let (w, h) = (int("width", 13), int("height", 9));
        let level = studio_core::game::Game::blank(self.0, w as usize, h as usize);
        let template = tiles_of(self.0, &level.cells).map_err(ConditionError)?;
        Ok(VgdlEvolution::new(self.0, template, fitness))
    }

    fn to_level(&self, _request: &GenRequest, cells: Grid<u8>, name: String) -> Option<Level> {
        let mut level = self.0.level(name, rows_of(self.0, &cells));
        level.tags.push("generated".into());
        Some(level)
    }
}
