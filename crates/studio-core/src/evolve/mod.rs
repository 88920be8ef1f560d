//! The FI2Pop genetic generator (pattern-based-ga-generator, after GVGAI's sample genetic
//! generator), written once over [`Evolvable`]: a game gives its cells, what mutation may
//! create, how to keep a level whole (one avatar), and how to judge one (constraints and
//! fitness terms from its agents or validator).
//!
//! Two populations evolve side by side: *feasible* levels (every constraint met), ranked by
//! their fitness, and *infeasible* ones, ranked by how nearly they meet the constraints.
//! Each child picks one population (0.5 each, or the one that is not empty), two parents by
//! roulette wheel, one-point crossover (0.7) over the cells in reading order, and mutation
//! (0.1: create 0.3, else destroy 0.6, else swap) of cells off the border. The best of each
//! population survives (elitism 1). Children are judged in parallel (rayon); every draw
//! comes from the run's seed, so a seed gives the same run on any number of threads.

pub mod generator;
pub mod pattern;

use crate::grid::Grid;
use crate::jobs::Cancel;
use crate::rng::Rng;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::Hash;

/// The GA's settings; the defaults are the paper's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Levels per generation (both populations together).
    pub population: usize,
    /// Generations after the initial one.
    pub generations: usize,
    /// Chance that two parents cross over (else the children copy them).
    pub crossover: f64,
    /// Chance that a child mutates.
    pub mutation: f64,
    /// Of a mutation, the chance it creates a sprite.
    pub create: f64,
    /// Of a mutation that does not create, the chance it destroys one (else it swaps two
    /// cells).
    pub destroy: f64,
    /// The best of each population carried over unchanged.
    pub elitism: usize,
    /// The chance a child's parents come from the feasible population.
    pub feasible_pick: f64,
    /// The run's seed.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            population: 50,
            generations: 20,
            crossover: 0.7,
            mutation: 0.1,
            create: 0.3,
            destroy: 0.6,
            elitism: 1,
            feasible_pick: 0.5,
            seed: 0,
        }
    }
}

/// One constraint of a level, met (1) or how nearly (below 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    /// Its name (`solution length`).
    pub name: &'static str,
    /// 0..=1; 1 when met.
    pub value: f64,
    /// The figure behind it in words ("solution 12 ticks of 20").
    pub text: String,
}

impl Constraint {
    /// A figure that must reach `needed` (a solution's length, ticks survived): met at or
    /// above it, else the share of it reached.
    pub fn at_least(name: &'static str, value: f64, needed: f64, text: String) -> Self {
        Self {
            name,
            value: if needed > 0.0 {
                (value / needed).clamp(0.0, 1.0)
            } else {
                1.0
            },
            text,
        }
    }

    /// GVGAI's cover constraint: the share of the inside covered by sprites must lie in
    /// `min..=max`; below, the share of `min` reached; above, how far short of full cover.
    pub fn cover(cover: f64, min: f64, max: f64) -> Self {
        Self {
            name: "cover",
            value: if cover < min {
                cover / min
            } else if cover > max {
                (1.0 - (cover - max) / (1.0 - max)).max(0.0)
            } else {
                1.0
            },
            text: format!(
                "cover {:.0} % (want {:.0}–{:.0} %)",
                cover * 100.0,
                min * 100.0,
                max * 100.0
            ),
        }
    }
}

/// One term of the feasible fitness.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    /// Its name (`score difference`).
    pub name: &'static str,
    /// 0..=1.
    pub value: f64,
    /// The figure behind it in words.
    pub text: String,
}

/// How a level was judged: every constraint and fitness term.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Evaluation {
    /// The constraints; the level is feasible when all are met.
    pub constraints: Vec<Constraint>,
    /// The fitness terms (their mean is the feasible fitness).
    pub terms: Vec<Term>,
}

impl Evaluation {
    /// The mean of the constraints (1 when all are met).
    pub fn constraint_fitness(&self) -> f64 {
        mean(self.constraints.iter().map(|c| c.value))
    }

    /// True when every constraint is met.
    pub fn feasible(&self) -> bool {
        self.constraints.iter().all(|c| c.value >= 1.0)
    }

    /// The mean of the fitness terms.
    pub fn fitness(&self) -> f64 {
        mean(self.terms.iter().map(|t| t.value))
    }

    /// The constraints not met, each naming itself ("solution length: 12 ticks of 20").
    pub fn failed(&self) -> Vec<String> {
        self.constraints
            .iter()
            .filter(|c| c.value < 1.0)
            .map(|c| format!("{}: {}", c.name, c.text))
            .collect()
    }
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// What a game gives the GA.
pub trait Evolvable: Sync {
    /// One cell of a level.
    type Cell: Copy + PartialEq + Eq + Hash + Send + Sync;
    /// An initial level (the paper: the constructive generator's).
    fn initial(&self, seed: u64) -> Grid<Self::Cell>;
    /// What destroying a sprite leaves (floor).
    fn empty(&self) -> Self::Cell;
    /// What creating a sprite may place.
    fn sprites(&self) -> &[Self::Cell];
    /// True for cells no operator may change (the border).
    fn fixed(&self, grid: &Grid<Self::Cell>, x: usize, y: usize) -> bool;
    /// Makes a level whole after an operator (exactly one avatar, …).
    fn repair(&self, grid: &mut Grid<Self::Cell>, rng: &mut Rng);
    /// Judges a level; the same level and seed give the same evaluation.
    fn evaluate(&self, grid: &Grid<Self::Cell>, seed: u64) -> Evaluation;
}

/// A level and its evaluation.
#[derive(Clone, PartialEq)]
pub struct Individual<C> {
    /// The level's cells.
    pub cells: Grid<C>,
    /// How it was judged.
    pub evaluation: Evaluation,
}

impl<C> Individual<C> {
    /// What the roulette wheel weighs: the fitness of a feasible level, the constraint
    /// fitness of an infeasible one.
    fn weight(&self) -> f64 {
        if self.evaluation.feasible() {
            self.evaluation.fitness()
        } else {
            self.evaluation.constraint_fitness()
        }
    }
}

/// One generation's figures (the window plots them live).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenerationStats {
    /// 0 for the initial population.
    pub generation: usize,
    /// The best feasible fitness so far in the run; `None` until a level is feasible.
    pub best_feasible: Option<f64>,
    /// The best constraint fitness in the infeasible population (1 when it is empty).
    pub best_constraint: f64,
    /// Feasible levels in the population.
    pub feasible: usize,
    /// Infeasible levels in the population.
    pub infeasible: usize,
    /// Levels judged so far (repeats are judged once).
    pub evaluations: usize,
}

/// How a run ended.
#[derive(Clone)]
pub struct Run<C> {
    /// Every distinct feasible level met during the run, best first.
    pub feasible: Vec<Individual<C>>,
    /// The last infeasible population, nearest first.
    pub infeasible: Vec<Individual<C>>,
    /// One line per generation.
    pub history: Vec<GenerationStats>,
    /// True when the run was cancelled (what it found so far is kept).
    pub cancelled: bool,
    /// True when the run was asked to stop early ([`Cancel::stop`]): it ended after the
    /// generation it was judging, and what it found is whole.
    pub stopped: bool,
}

/// Runs the GA. `on_generation` hears each generation's figures as it ends.
pub fn evolve<G: Evolvable>(
    game: &G,
    settings: &Settings,
    cancel: &Cancel,
    on_generation: &mut dyn FnMut(&GenerationStats),
) -> Run<G::Cell> {
    evolve_reporting(game, settings, cancel, on_generation, &mut |_, _| {})
}

/// As [`evolve`], and `on_judged(done, of)` hears, a few levels at a time, how many of a
/// generation's new levels are judged (a slow judge, such as GVGAI's agents, takes a minute
/// over a generation: the bar moves within it). A cancel is heard between those few levels.
pub fn evolve_reporting<G: Evolvable>(
    game: &G,
    settings: &Settings,
    cancel: &Cancel,
    on_generation: &mut dyn FnMut(&GenerationStats),
    on_judged: &mut dyn FnMut(usize, usize),
) -> Run<G::Cell> {
    run_ga(
        game,
        settings,
        cancel,
        on_generation,
        on_judged,
        &mut |_, _| {},
    )
}

/// As [`evolve`], and `on_best(generation, best)` hears the best feasible level found so far
/// each time a generation finds a better one, before that generation's figures. A command
/// writes it out, so a run stopped at its time limit, or killed, keeps the best it had.
pub fn evolve_keeping_best<G: Evolvable>(
    game: &G,
    settings: &Settings,
    cancel: &Cancel,
    on_generation: &mut dyn FnMut(&GenerationStats),
    on_best: &mut dyn FnMut(usize, &Individual<G::Cell>),
) -> Run<G::Cell> {
    run_ga(
        game,
        settings,
        cancel,
        on_generation,
        &mut |_, _| {},
        on_best,
    )
}

/// The GA, with every report it makes.
fn run_ga<G: Evolvable>(
    game: &G,
    settings: &Settings,
    cancel: &Cancel,
    on_generation: &mut dyn FnMut(&GenerationStats),
    on_judged: &mut dyn FnMut(usize, usize),
    on_best: &mut dyn FnMut(usize, &Individual<G::Cell>),
) -> Run<G::Cell> {
    let population = settings.population.max(2);
    let mut rng = Rng::derive(settings.seed, 0x4649_3250);
    let mut judged: HashMap<Grid<G::Cell>, Evaluation> = HashMap::new();
    let mut archive: Vec<Individual<G::Cell>> = Vec::new();
    let initial: Vec<Grid<G::Cell>> = (0..population)
        .map(|i| {
            let mut g = game.initial(Rng::derive(settings.seed, i as u64).next_u64());
            game.repair(&mut g, &mut rng);
            g
        })
        .collect();
    let mut judge_ctx = Judging { cancel, on_judged };
    let mut current = judge(game, initial, settings.seed, &mut judged, &mut judge_ctx);
    let mut history = Vec::new();
    let (mut cancelled, mut stopped) = (false, false);
    let mut best_told: Option<Grid<G::Cell>> = None;
    for generation in 0..=settings.generations {
        if generation == 0 && cancel.is_cancelled() {
            cancelled = true;
            break;
        }
        if generation > 0 {
            if cancel.is_cancelled() {
                cancelled = true;
                break;
            }
            if cancel.is_stopping() {
                stopped = true;
                break;
            }
            current = next_generation(
                game,
                settings,
                &current,
                &mut rng,
                &mut judged,
                &mut judge_ctx,
            );
        }
        remember(&mut archive, &current);
        if let Some(best) = archive.first() {
            if best_told.as_ref() != Some(&best.cells) {
                on_best(generation, best);
                best_told = Some(best.cells.clone());
            }
        }
        let stats = GenerationStats {
            generation,
            best_feasible: archive.first().map(|b| b.evaluation.fitness()),
            best_constraint: current
                .iter()
                .filter(|i| !i.evaluation.feasible())
                .map(|i| i.evaluation.constraint_fitness())
                .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
                .unwrap_or(1.0),
            feasible: current.iter().filter(|i| i.evaluation.feasible()).count(),
            infeasible: current.iter().filter(|i| !i.evaluation.feasible()).count(),
            evaluations: judged.len(),
        };
        on_generation(&stats);
        history.push(stats);
    }
    let mut infeasible: Vec<Individual<G::Cell>> = current
        .into_iter()
        .filter(|i| !i.evaluation.feasible())
        .collect();
    infeasible.sort_by(|a, b| b.weight().total_cmp(&a.weight()));
    Run {
        feasible: archive,
        infeasible,
        history,
        cancelled,
        stopped,
    }
}

/// What judging hears and tells while it runs.
struct Judging<'a> {
    cancel: &'a Cancel,
    on_judged: &'a mut dyn FnMut(usize, usize),
}

/// Judges levels in parallel, each distinct level once, a few at a time so progress and a
/// cancel are heard within a generation. Once cancelled, the levels not judged are left out.
fn judge<G: Evolvable>(
    game: &G,
    levels: Vec<Grid<G::Cell>>,
    seed: u64,
    judged: &mut HashMap<Grid<G::Cell>, Evaluation>,
    ctx: &mut Judging<'_>,
) -> Vec<Individual<G::Cell>> {
    let mut fresh: Vec<&Grid<G::Cell>> = Vec::new();
    for level in &levels {
        if !judged.contains_key(level) && !fresh.contains(&level) {
            fresh.push(level);
        }
    }
    let chunk = (2 * rayon::current_num_threads()).max(4);
    let total = fresh.len();
    let mut done = 0;
    for part in fresh.chunks(chunk) {
        if ctx.cancel.is_cancelled() {
            break;
        }
        let evaluations: Vec<Evaluation> =
            part.par_iter().map(|l| game.evaluate(l, seed)).collect();
        for (level, evaluation) in part.iter().zip(evaluations) {
            judged.insert((*level).clone(), evaluation);
        }
        done += part.len();
        (ctx.on_judged)(done, total);
    }
    levels
        .into_iter()
        .filter_map(|cells| {
            let evaluation = judged.get(&cells)?.clone();
            Some(Individual { evaluation, cells })
        })
        .collect()
}

/// Adds the feasible levels of a population to the archive (distinct, best first).
fn remember<C: Clone + PartialEq>(archive: &mut Vec<Individual<C>>, population: &[Individual<C>]) {
    for i in population.iter().filter(|i| i.evaluation.feasible()) {
        if !archive.iter().any(|a| a.cells == i.cells) {
            archive.push(i.clone());
        }
    }
    archive.sort_by(|a, b| b.evaluation.fitness().total_cmp(&a.evaluation.fitness()));
}

/// The elites of both populations and children bred from them, judged.
fn next_generation<G: Evolvable>(
    game: &G,
    settings: &Settings,
    current: &[Individual<G::Cell>],
    rng: &mut Rng,
    judged: &mut HashMap<Grid<G::Cell>, Evaluation>,
    ctx: &mut Judging<'_>,
) -> Vec<Individual<G::Cell>> {
    let population = settings.population.max(2);
    let (mut feasible, mut infeasible): (Vec<&Individual<G::Cell>>, Vec<_>) =
        current.iter().partition(|i| i.evaluation.feasible());
    let by_weight =
        |a: &&Individual<G::Cell>, b: &&Individual<G::Cell>| b.weight().total_cmp(&a.weight());
    feasible.sort_by(by_weight);
    infeasible.sort_by(by_weight);
    let mut next: Vec<Grid<G::Cell>> = feasible
        .iter()
        .take(settings.elitism)
        .chain(infeasible.iter().take(settings.elitism))
        .map(|i| i.cells.clone())
        .collect();
    while next.len() < population {
        let pool = if infeasible.is_empty()
            || (!feasible.is_empty() && rng.chance(settings.feasible_pick))
        {
            &feasible
        } else {
            &infeasible
        };
        let a = roulette(pool, rng);
        let b = roulette(pool, rng);
        let (mut c, mut d) = if rng.chance(settings.crossover) {
            crossover(&a.cells, &b.cells, game, rng)
        } else {
            (a.cells.clone(), b.cells.clone())
        };
        for child in [&mut c, &mut d] {
            if rng.chance(settings.mutation) {
                mutate(child, game, settings, rng);
            }
            game.repair(child, rng);
        }
        next.push(c);
        if next.len() < population {
            next.push(d);
        }
    }
    judge(game, next, settings.seed, judged, ctx)
}

/// A parent drawn with chance proportional to its weight (uniform when all weigh 0).
fn roulette<'a, C>(pool: &[&'a Individual<C>], rng: &mut Rng) -> &'a Individual<C> {
    let total: f64 = pool.iter().map(|i| i.weight().max(0.0)).sum();
    if total <= 0.0 {
        return pool[rng.index(pool.len())];
    }
    let mut left = rng.unit() * total;
    for i in pool {
        left -= i.weight().max(0.0);
        if left < 0.0 {
            return i;
        }
    }
    pool[pool.len() - 1]
}

/// The cells operators may change, in reading order.
fn free_cells<G: Evolvable>(game: &G, grid: &Grid<G::Cell>) -> Vec<(usize, usize)> {
    grid.iter()
        .filter(|&(x, y, _)| !game.fixed(grid, x, y))
        .map(|(x, y, _)| (x, y))
        .collect()
}

/// One-point crossover: the children swap every cell from a random free cell on (in
/// reading order). Parents of different sizes are copied.
pub fn crossover<G: Evolvable>(
    a: &Grid<G::Cell>,
    b: &Grid<G::Cell>,
    game: &G,
    rng: &mut Rng,
) -> (Grid<G::Cell>, Grid<G::Cell>) {
    let (mut c, mut d) = (a.clone(), b.clone());
    if (a.width(), a.height()) != (b.width(), b.height()) {
        return (c, d);
    }
    let free = free_cells(game, a);
    if free.is_empty() {
        return (c, d);
    }
    let (px, py) = free[rng.index(free.len())];
    let point = py * a.width() + px;
    for (x, y) in free {
        if y * a.width() + x >= point {
            c.set(x, y, b.get(x, y));
            d.set(x, y, a.get(x, y));
        }
    }
    (c, d)
}

/// Which mutation operator ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// A random sprite on a random free cell.
    Create,
    /// A random free cell emptied.
    Destroy,
    /// Two random free cells swapped.
    Swap,
}

/// Mutates one level by one operator; returns which.
pub fn mutate<G: Evolvable>(
    grid: &mut Grid<G::Cell>,
    game: &G,
    settings: &Settings,
    rng: &mut Rng,
) -> Mutation {
    let free = free_cells(game, grid);
    let op = if rng.chance(settings.create) {
        Mutation::Create
    } else if rng.chance(settings.destroy) {
        Mutation::Destroy
    } else {
        Mutation::Swap
    };
    if free.is_empty() {
        return op;
    }
    let (x, y) = free[rng.index(free.len())];
    match op {
        Mutation::Create => {
            let sprites = game.sprites();
            if !sprites.is_empty() {
                grid.set(x, y, sprites[rng.index(sprites.len())]);
            }
        }
        Mutation::Destroy => grid.set(x, y, game.empty()),
        Mutation::Swap => {
            let (u, v) = free[rng.index(free.len())];
            let here = grid.get(x, y);
            grid.set(x, y, grid.get(u, v));
            grid.set(u, v, here);
        }
    }
    op
}
