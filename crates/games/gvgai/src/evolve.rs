//! The pattern-based FI2Pop GA on any VGDL game (pattern-based-ga-generator): the levels it
//! breeds and their sprite groups.
//!
//! A level is judged as GVGAI's sample genetic generator judges one ([`crate::judge`]), with
//! its seven constraints and three fitness terms, the way `crates/games/dungeon`'s GA does for
//! its rooms, in games as long as the profiles' ([`Judging`]).
//!
//! The sprite categories (solid, collectible, harmful, goal, other) come from the game's
//! interaction set ([`crate::roles`]); the GA creates every level character but the avatar's
//! and the empty cell, and keeps the border of the level it started from.

pub use crate::judge::{
    groups, judge, rows_of, Judging, PatternTerm, GA_BUDGET, GA_GAMES, MAX_COVER, MIN_COVER,
    MIN_SOLUTION_TICKS, MIN_SURVIVAL_TICKS, NAIVE, STRONG,
};
use crate::level::VgdlGame;
use studio_core::evolve::generator::Breeder;
use studio_core::evolve::pattern::{self, Fitness};
use studio_core::evolve::{Evaluation, Evolvable};
use studio_core::game::{ConditionError, ConditionKind, ConditionSpec, ConditionValue, GenRequest};
use studio_core::grid::Grid;
use studio_core::level::Level;
use studio_core::rng::Rng;

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

/// The GA's view of one game's levels of one size.
#[derive(Clone)]
pub struct VgdlEvolution {
    /// The game.
    pub game: &'static VgdlGame,
    /// The level whose size and border the GA keeps (its inside is ignored).
    pub template: Grid<u8>,
    /// α or β.
    pub fitness: Fitness,
    /// How a level is judged: games per agent, their length, what FPattern counts.
    pub judging: Judging,
    sprites: Vec<u8>,
}

impl VgdlEvolution {
    /// Levels of `game` the size of `template`, with its border, under `fitness`, judged as
    /// [`Judging::default`] says (full-length games, every sprite in FPattern).
    pub fn new(game: &'static VgdlGame, template: Grid<u8>, fitness: Fitness) -> Self {
        let sprites = (0..studio_core::game::Game::tiles(game).len() as u8)
            .filter(|&t| t != game.empty_tile() && Some(t) != game.avatar_tile())
            .collect();
        Self {
            game,
            template,
            fitness,
            judging: Judging::default(),
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
        judge(self.game, grid, self.fitness, seed, &self.judging)
    }
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
