//! Forward-model search written once for every game: one-step lookahead ([`one_step`]), Monte
//! Carlo tree search ([`mcts`]) and flat Monte Carlo ([`flat_mcts`]) over a game's
//! [`ForwardModel`]. GVGAI's sample controllers and the studio's own variants differ in small
//! ways (tie-breaking noise, counts, normalisation, expansion, the action played); each is a
//! field of [`MctsConfig`], so one search runs them all with the same random draws and the
//! same arithmetic as the agents it replaces.

use crate::rng::Rng;

/// The random draws a search makes, so that a game's own generator (the studio's [`Rng`],
/// GVGAI's `java.util.Random`) keeps its sequence.
pub trait Draws {
    /// A uniform number in `[0, 1)`.
    fn next_double(&mut self) -> f64;
    /// A uniform index below `n` (`n > 0`).
    fn next_index(&mut self, n: usize) -> usize;
}

impl Draws for Rng {
    fn next_double(&mut self) -> f64 {
        self.unit()
    }

    fn next_index(&mut self, n: usize) -> usize {
        self.index(n)
    }
}

/// What a search needs of a game: copies of the state it may advance, their end and value.
pub trait ForwardModel {
    /// The game as the agent sees it.
    type State;
    /// A copy of the game that a search advances (with its own chance, drawn from the
    /// agent's generator, so a simulation never sees the game's own future draws).
    type Simulation;
    /// An action of the agent.
    type Action: Copy;
    /// The agent's generator.
    type Rng: Draws;

    /// A copy of `state` to advance, its chance drawn from `rng`.
    fn simulate(&self, state: &Self::State, rng: &mut Self::Rng) -> Self::Simulation;

    /// As [`ForwardModel::simulate`], into a simulation done with (to reuse its memory); the
    /// same draws.
    fn simulate_into(
        &self,
        simulation: &mut Self::Simulation,
        state: &Self::State,
        rng: &mut Self::Rng,
    ) {
        *simulation = self.simulate(state, rng);
    }

    /// Advances a simulation by one of the agent's actions.
    fn advance(&self, simulation: &mut Self::Simulation, action: Self::Action);

    /// Whether the simulated game has ended.
    fn is_over(&self, simulation: &Self::Simulation) -> bool;

    /// How good the simulated game is for the agent (higher is better).
    fn value(&self, simulation: &Self::Simulation) -> f64;
}

/// A fresh simulation of `state` in `slot`, reusing the one there.
fn fresh<'a, M: ForwardModel>(
    model: &M,
    slot: &'a mut Option<M::Simulation>,
    state: &M::State,
    rng: &mut M::Rng,
) -> &'a mut M::Simulation {
    match slot {
        Some(simulation) => {
            model.simulate_into(simulation, state, rng);
            simulation
        }
        None => slot.insert(model.simulate(state, rng)),
    }
}

/// The tie-breaking noise added to the values a search compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Noise {
    /// None: values are compared as they are, no draw.
    None,
    /// `value + u · scale` for a fresh `u` in `[0, 1)` (the dungeon's GVGAI-like agents).
    Added(f64),
    /// GVGAI's `Utils.noise(value, ε, u)`: `(value + ε)(1 + ε(u − ½))`.
    Gvgai(f64),
}

impl Noise {
    /// `value` with the noise, drawing from `rng` unless [`Noise::None`].
    pub fn apply<R: Draws>(self, value: f64, rng: &mut R) -> f64 {
        match self {
            Noise::None => value,
            Noise::Added(scale) => value + rng.next_double() * scale,
            Noise::Gvgai(epsilon) => {
                (value + epsilon) * (1.0 + epsilon * (rng.next_double() - 0.5))
            }
        }
    }
}

/// How the mean and the exploration term read the visit counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Counts {
    /// `total / n` and `√(s · ln N / n)`, a count of 0 read as 1.
    Plain,
    /// GVGAI's sample MCTS: `total / (n + ε)` and `√(s · ln(N + 1) / (n + ε))`.
    Smoothed(f64),
}

impl Counts {
    fn mean(self, total: f64, visits: f64) -> f64 {
        match self {
            Counts::Plain => total / visits.max(1.0),
            Counts::Smoothed(epsilon) => total / (visits + epsilon),
        }
    }

    /// `√(scale · ln parent / visits)`, as the counts read.
    fn exploration(self, scale: f64, parent: f64, visits: f64) -> f64 {
        match self {
            Counts::Plain => (scale * parent.max(1.0).ln() / visits.max(1.0)).sqrt(),
            Counts::Smoothed(epsilon) => (scale * (parent + 1.0).ln() / (visits + epsilon)).sqrt(),
        }
    }
}

/// Which bounds of the values seen normalise a mean to `[0, 1]` (when they differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bounds {
    /// No normalisation.
    None,
    /// The bounds of every value seen in this search.
    Global,
    /// The bounds of the values backed up through the node (GVGAI's sample MCTS); in a flat
    /// search the root's, which are the global ones.
    PerNode,
}

/// Which of equal values wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The first (`>`, as GVGAI's loops).
    First,
    /// The last, by `f64::total_cmp` (as `Iterator::max_by`).
    Last,
}

/// How a node that has actions left untried picks one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// One uniform draw among the untried actions.
    Uniform,
    /// GVGAI's: one draw for every action, the untried one with the highest draw.
    Gvgai,
}

/// Which root action a search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recommend {
    /// The most visited.
    MostVisited,
    /// The most visited; when all are visited equally, the best mean (GVGAI's sample MCTS).
    MostVisitedElseMean,
    /// The best mean.
    BestMean,
}

/// A Monte Carlo search's budget and its variant: GVGAI's sample controllers
/// ([`MctsConfig::gvgai`], [`MctsConfig::gvgai_flat`]) or a game's own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations (simulations) a decision.
    pub iterations: usize,
    /// Actions a simulation plays from the root, tree and rollout together.
    pub depth: usize,
    /// The exploration constant `K` of UCB: `mean + K √(s · ln N / n)`.
    pub exploration: f64,
    /// The factor `s` of `ln N` under the root: 1 in GVGAI, 2 in Auer's UCB1.
    pub log_scale: f64,
    /// How the counts are read.
    pub counts: Counts,
    /// Which bounds normalise a mean.
    pub bounds: Bounds,
    /// The noise on every value compared.
    pub noise: Noise,
    /// Which of equal values wins.
    pub ties: Ties,
    /// How an untried action is picked.
    pub expansion: Expansion,
    /// Which root action is played.
    pub recommend: Recommend,
}

impl MctsConfig {
    /// GVGAI's `sampleMCTS`, `iterations` a move: UCT with K = √2 ten actions deep, smoothed
    /// counts, each node's bounds, GVGAI's noise and expansion, the most visited action.
    pub fn gvgai(iterations: usize) -> Self {
        MctsConfig {
            iterations,
            depth: 10,
            exploration: std::f64::consts::SQRT_2,
            log_scale: 1.0,
            counts: Counts::Smoothed(1e-6),
            bounds: Bounds::PerNode,
            noise: Noise::Gvgai(1e-6),
            ties: Ties::First,
            expansion: Expansion::Gvgai,
            recommend: Recommend::MostVisitedElseMean,
        }
    }

    /// Flat Monte Carlo after GVGAI's sample MCTS (the paper's "flat MCTS"), `iterations` a
    /// move: UCB1 with K = √2 over the first action, rollouts ten actions deep, plain counts,
    /// the bounds seen, GVGAI's noise, the most pulled action.
    pub fn gvgai_flat(iterations: usize) -> Self {
        MctsConfig {
            counts: Counts::Plain,
            bounds: Bounds::Global,
            recommend: Recommend::MostVisited,
            ..Self::gvgai(iterations)
        }
    }

    /// The UCB value of a child: its mean (normalised by `bounds` when they differ) plus
    /// the exploration term, with noise.
    fn ucb<R: Draws>(
        &self,
        total: f64,
        visits: f64,
        parent: f64,
        (low, high): (f64, f64),
        rng: &mut R,
    ) -> f64 {
        let mean = self.counts.mean(total, visits);
        let mean = if self.bounds != Bounds::None && low < high {
            (mean - low) / (high - low)
        } else {
            mean
        };
        let u = mean + self.exploration * self.counts.exploration(self.log_scale, parent, visits);
        self.noise.apply(u, rng)
    }

    /// The root action played, among `arms` (action, visits, total), in order.
    fn recommend<R: Draws>(&self, arms: &[(usize, f64, f64)], rng: &mut R) -> Option<usize> {
        let even = arms.windows(2).all(|w| w[0].1 == w[1].1);
        let mut best = Best::new(self.ties);
        for &(arm, visits, total) in arms {
            let raw = match self.recommend {
                Recommend::MostVisited => visits,
                Recommend::MostVisitedElseMean if !even => visits,
                Recommend::MostVisitedElseMean | Recommend::BestMean => {
                    self.counts.mean(total, visits)
                }
            };
            best.offer(self.noise.apply(raw, rng), arm);
        }
        best.index
    }
}

/// The best value offered so far and its index, ties as asked.
struct Best {
    ties: Ties,
    value: f64,
    index: Option<usize>,
}

impl Best {
    fn new(ties: Ties) -> Self {
        Best {
            ties,
            value: f64::NEG_INFINITY,
            index: None,
        }
    }

    fn offer(&mut self, value: f64, index: usize) {
        let better = match self.ties {
            Ties::First => value > self.value,
            Ties::Last => self.index.is_none() || value.total_cmp(&self.value).is_ge(),
        };
        if better {
            self.value = value;
            self.index = Some(index);
        }
    }
}

/// One-step lookahead: each of `actions`, in order, on a fresh simulation of `state`, valued
/// with `noise`; the first best (`None` when there are no actions).
pub fn one_step<M: ForwardModel>(
    model: &M,
    state: &M::State,
    actions: &[M::Action],
    noise: Noise,
    rng: &mut M::Rng,
) -> Option<M::Action> {
    let mut best = Best::new(Ties::First);
    let mut slot = None;
    for (i, &action) in actions.iter().enumerate() {
        let simulation = fresh(model, &mut slot, state, rng);
        model.advance(simulation, action);
        let value = noise.apply(model.value(simulation), rng);
        best.offer(value, i);
    }
    best.index.map(|i| actions[i])
}

/// A node of the search tree.
struct Node {
    parent: Option<usize>,
    children: Vec<Option<usize>>,
    /// The action (an index into the actions) that leads here.
    arm: usize,
    depth: usize,
    visits: f64,
    total: f64,
    bounds: (f64, f64),
}

impl Node {
    fn new(parent: Option<usize>, arm: usize, depth: usize, actions: usize) -> Self {
        Node {
            parent,
            children: vec![None; actions],
            arm,
            depth,
            visits: 0.0,
            total: 0.0,
            bounds: (f64::INFINITY, f64::NEG_INFINITY),
        }
    }
}

/// Widens `bounds` to hold `value`.
fn widen(bounds: &mut (f64, f64), value: f64) {
    bounds.0 = bounds.0.min(value);
    bounds.1 = bounds.1.max(value);
}

/// Monte Carlo tree search, open loop: each iteration replays the tree's actions on a fresh
/// simulation of `state`, expands one node, rolls out random actions to the config's depth
/// and backs the value up. The root action the config recommends (`None` when there are no
/// actions or no iteration).
pub fn mcts<M: ForwardModel>(
    model: &M,
    state: &M::State,
    actions: &[M::Action],
    config: &MctsConfig,
    rng: &mut M::Rng,
) -> Option<M::Action> {
    let n = actions.len();
    if n == 0 {
        return None;
    }
    let mut tree = vec![Node::new(None, 0, 0, n)];
    let mut global = (f64::INFINITY, f64::NEG_INFINITY);
    let mut slot = None;
    for _ in 0..config.iterations {
        let simulation = fresh(model, &mut slot, state, rng);
        // Selection and expansion: down the tree while it is fully expanded.
        let mut current = 0;
        while !model.is_over(simulation) && tree[current].depth < config.depth {
            if tree[current].children.iter().any(Option::is_none) {
                let arm = expand(&tree[current].children, config.expansion, rng);
                model.advance(simulation, actions[arm]);
                let depth = tree[current].depth + 1;
                tree.push(Node::new(Some(current), arm, depth, n));
                let child = tree.len() - 1;
                tree[current].children[arm] = Some(child);
                current = child;
                break;
            }
            let node = &tree[current];
            let bounds = if config.bounds == Bounds::PerNode {
                node.bounds
            } else {
                global
            };
            let mut best = Best::new(config.ties);
            for &child in node.children.iter().flatten() {
                let c = &tree[child];
                best.offer(
                    config.ucb(c.total, c.visits, node.visits, bounds, rng),
                    child,
                );
            }
            let Some(next) = best.index else { break };
            model.advance(simulation, actions[tree[next].arm]);
            current = next;
        }
        // Rollout: random actions to the depth.
        let mut depth = tree[current].depth;
        while depth < config.depth && !model.is_over(simulation) {
            model.advance(simulation, actions[rng.next_index(n)]);
            depth += 1;
        }
        let value = model.value(simulation);
        widen(&mut global, value);
        let mut at = Some(current);
        while let Some(i) = at {
            let node = &mut tree[i];
            node.visits += 1.0;
            node.total += value;
            widen(&mut node.bounds, value);
            at = node.parent;
        }
    }
    let arms: Vec<(usize, f64, f64)> = tree[0]
        .children
        .iter()
        .enumerate()
        .filter_map(|(arm, c)| c.map(|c| (arm, tree[c].visits, tree[c].total)))
        .collect();
    config.recommend(&arms, rng).map(|arm| actions[arm])
}

/// The untried action a node expands.
fn expand<R: Draws>(children: &[Option<usize>], expansion: Expansion, rng: &mut R) -> usize {
    match expansion {
        Expansion::Uniform => {
            let untried: Vec<usize> = (0..children.len())
                .filter(|&a| children[a].is_none())
                .collect();
            untried[rng.next_index(untried.len())]
        }
        Expansion::Gvgai => {
            let (mut pick, mut best) = (0, -1.0);
            for (arm, child) in children.iter().enumerate() {
                let x = rng.next_double();
                if x > best && child.is_none() {
                    pick = arm;
                    best = x;
                }
            }
            pick
        }
    }
}

/// Flat Monte Carlo: UCB over the first action only (each action once, in order, first),
/// each pull a simulation that plays it then random actions to the config's depth; the root
/// action the config recommends (`None` when there are no actions). The config's expansion
/// is unused; [`Bounds::PerNode`] reads as [`Bounds::Global`].
pub fn flat_mcts<M: ForwardModel>(
    model: &M,
    state: &M::State,
    actions: &[M::Action],
    config: &MctsConfig,
    rng: &mut M::Rng,
) -> Option<M::Action> {
    let n = actions.len();
    if n == 0 {
        return None;
    }
    let (mut visits, mut totals) = (vec![0.0f64; n], vec![0.0f64; n]);
    let mut bounds = (f64::INFINITY, f64::NEG_INFINITY);
    let mut slot = None;
    for t in 0..config.iterations {
        let arm = if t < n {
            t
        } else {
            let mut best = Best::new(config.ties);
            for i in 0..n {
                best.offer(config.ucb(totals[i], visits[i], t as f64, bounds, rng), i);
            }
            best.index.unwrap_or(0)
        };
        let simulation = fresh(model, &mut slot, state, rng);
        model.advance(simulation, actions[arm]);
        for _ in 1..config.depth {
            if model.is_over(simulation) {
                break;
            }
            model.advance(simulation, actions[rng.next_index(n)]);
        }
        let value = model.value(simulation);
        widen(&mut bounds, value);
        visits[arm] += 1.0;
        totals[arm] += value;
    }
    let arms: Vec<(usize, f64, f64)> = (0..n).map(|i| (i, visits[i], totals[i])).collect();
    config.recommend(&arms, rng).map(|arm| actions[arm])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walk on a line of cells 0..=10 from cell `start`: the actions step −1, 0 or +1, the
    /// game ends at either end, and the value is the cell (10 wins). A simulation carries a
    /// draw of the agent's generator, standing for its own chance.
    struct Line;

    impl ForwardModel for Line {
        type State = i32;
        type Simulation = (i32, u64);
        type Action = i32;
        type Rng = Rng;

        fn simulate(&self, state: &i32, rng: &mut Rng) -> (i32, u64) {
            (*state, rng.next_u64())
        }

        fn advance(&self, simulation: &mut (i32, u64), action: i32) {
            simulation.0 = (simulation.0 + action).clamp(0, 10);
        }

        fn is_over(&self, simulation: &(i32, u64)) -> bool {
            simulation.0 == 0 || simulation.0 == 10
        }

        fn value(&self, simulation: &(i32, u64)) -> f64 {
            f64::from(simulation.0)
        }
    }

    const STEPS: [i32; 3] = [-1, 0, 1];

    fn studio(iterations: usize) -> MctsConfig {
        MctsConfig {
            iterations,
            depth: 4,
            exploration: 2.0,
            log_scale: 2.0,
            counts: Counts::Plain,
            bounds: Bounds::None,
            noise: Noise::None,
            ties: Ties::Last,
            expansion: Expansion::Uniform,
            recommend: Recommend::BestMean,
        }
    }

    #[test]
    fn one_step_takes_the_first_best_and_draws_once_an_action_and_noise() {
        let mut rng = Rng::new(1);
        assert_eq!(one_step(&Line, &5, &STEPS, Noise::None, &mut rng), Some(1));
        // Equal values: the first.
        assert_eq!(
            one_step(&Line, &10, &[1, 0], Noise::None, &mut rng),
            Some(1)
        );
        assert_eq!(one_step(&Line, &5, &[], Noise::None, &mut rng), None);
        // Three simulations and three noises: six draws.
        let (mut a, mut b) = (Rng::new(2), Rng::new(2));
        one_step(&Line, &5, &STEPS, Noise::Added(1e-6), &mut a);
        for _ in 0..6 {
            b.next_u64();
        }
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn gvgai_noise_is_utils_noise() {
        struct Half;
        impl Draws for Half {
            fn next_double(&mut self) -> f64 {
                0.75
            }
            fn next_index(&mut self, _: usize) -> usize {
                0
            }
        }
        let v = Noise::Gvgai(0.5).apply(1.5, &mut Half);
        assert_eq!(v, (1.5 + 0.5) * (1.0 + 0.5 * 0.25));
        assert_eq!(Noise::Added(2.0).apply(1.0, &mut Half), 2.5);
        assert_eq!(Noise::None.apply(1.0, &mut Half), 1.0);
    }

    #[test]
    fn every_variant_walks_towards_the_win() {
        for config in [
            MctsConfig::gvgai(200),
            MctsConfig {
                bounds: Bounds::Global,
                counts: Counts::Plain,
                noise: Noise::Added(1e-6),
                expansion: Expansion::Uniform,
                recommend: Recommend::MostVisited,
                ..MctsConfig::gvgai(200)
            },
            studio(200),
        ] {
            for seed in 0..5 {
                let mut rng = Rng::new(seed);
                assert_eq!(
                    mcts(&Line, &8, &STEPS, &config, &mut rng),
                    Some(1),
                    "{config:?}"
                );
            }
        }
        for config in [MctsConfig::gvgai_flat(60), studio(60)] {
            for seed in 0..5 {
                let mut rng = Rng::new(seed);
                assert_eq!(
                    flat_mcts(&Line, &8, &STEPS, &config, &mut rng),
                    Some(1),
                    "{config:?}"
                );
            }
        }
    }

    #[test]
    fn a_seed_repeats_the_search_and_no_actions_is_none() {
        let config = MctsConfig::gvgai(50);
        let run = |seed| {
            let mut rng = Rng::new(seed);
            let action = mcts(&Line, &3, &STEPS, &config, &mut rng);
            (action, rng.next_u64())
        };
        assert_eq!(run(9), run(9));
        assert_eq!(mcts(&Line, &3, &[], &config, &mut Rng::new(0)), None);
        assert_eq!(flat_mcts(&Line, &3, &[], &config, &mut Rng::new(0)), None);
    }

    #[test]
    fn the_flat_search_pulls_each_action_once_in_order_first() {
        // Three iterations one action deep: each action once, in order, and no draw but the
        // simulations' three; the +1 step has the best mean.
        let config = MctsConfig {
            depth: 1,
            ..studio(3)
        };
        let (mut a, mut b) = (Rng::new(0), Rng::new(0));
        assert_eq!(flat_mcts(&Line, &5, &STEPS, &config, &mut a), Some(1));
        for _ in 0..3 {
            b.next_u64();
        }
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn ties_go_to_the_first_or_the_last() {
        for (ties, winner) in [(Ties::First, 1), (Ties::Last, 3)] {
            let mut best = Best::new(ties);
            for (i, v) in [0.5, 2.0, 1.0, 2.0].into_iter().enumerate() {
                best.offer(v, i);
            }
            assert_eq!(best.index, Some(winner));
        }
    }
}
