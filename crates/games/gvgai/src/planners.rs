//! GVGAI's sample planning controllers on the engine's forward model, after their sources
//! (`tracks/singlePlayer`): the one-step lookahead with GVGAI's simple state heuristic, and
//! sample MCTS (UCT over the available actions, rollouts ten moves deep, the score with a huge
//! bonus for a win and malus for a loss), flat MCTS, random search, RHEA and OLETS. GVGAI gives
//! each move 40 ms; here each move has a fixed budget of iterations, so a game plays the same
//! on any machine. The one-step lookahead, sample MCTS and flat MCTS are
//! [`studio_core::search`]'s, on the engine as a forward model.
//!
//! A simulation never sees the game's own future random numbers: every copy the agents
//! advance draws from a generator seeded by the agent (GVGAI's forward model has its own
//! generator too).

use crate::agent::Agent;
use crate::load::Game;
use studio_core::search::{flat_mcts, mcts, one_step, Draws, ForwardModel, MctsConfig, Noise};
use vgdl::rng::JavaRandom;
use vgdl::rules::Class;
use vgdl::{Action, State, Winner};

/// What GVGAI's observation calls a sprite: the categories the simple heuristic looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// The player.
    Avatar,
    /// A collectible resource.
    Resource,
    /// A door, a portal, or a sprite marked `portal=True`.
    Portal,
    /// A sprite that moves by choice (random movers, chasers, bombers).
    Npc,
    /// A static sprite.
    Static,
    /// Anything else.
    Movable,
}

/// Each sprite type's category, as GVGAI's `getSpriteCategory` decides it.
pub fn categories(game: &Game) -> Vec<Category> {
    // Each sprite by name, looked up once a type (a walk over the sprite set for each type
    // would be quadratic in a large description, F33).
    let defs: std::collections::HashMap<&str, &vgdl::SpriteDef> = game
        .desc
        .sprites
        .iter()
        .rev()
        .map(|d| (d.name.as_str(), d))
        .collect();
    game.rules
        .types
        .iter()
        .map(|t| {
            let portal_flag = defs
                .get(t.name.as_str())
                .and_then(|d| d.params.get("portal"))
                .is_some_and(|v| v.eq_ignore_ascii_case("true"));
            match t.class {
                Some(c) if c.is_avatar() => Category::Avatar,
                Some(Class::Resource) => Category::Resource,
                Some(Class::Door | Class::Portal) => Category::Portal,
                _ if portal_flag => Category::Portal,
                Some(
                    Class::RandomNPC
                    | Class::Chaser
                    | Class::Fleeing
                    | Class::Bomber
                    | Class::RandomBomber
                    | Class::BomberRandomMissile
                    | Class::LOSChaser
                    | Class::SpawnPointMultiSprite,
                ) => Category::Npc,
                _ if t.proto.is_static => Category::Static,
                _ => Category::Movable,
            }
        })
        .collect()
}

/// A copy of `state` to simulate on, drawing its random numbers from `rng` instead of the
/// game's own future.
fn simulation(state: &State, rng: &mut JavaRandom) -> State {
    let mut copy = state.clone();
    let seed = (i64::from(rng.next_int(i32::MAX)) << 31) ^ i64::from(rng.next_int(i32::MAX));
    copy.rng = JavaRandom::new(seed);
    copy
}

/// An agent's `java.util.Random` as the draws of [`studio_core::search`].
pub struct AgentRandom(JavaRandom);

impl Draws for AgentRandom {
    fn next_double(&mut self) -> f64 {
        self.0.next_double()
    }

    fn next_index(&mut self, n: usize) -> usize {
        self.0.next_int(n as i32) as usize
    }
}

/// The engine as a forward model: each simulation a [`simulation`] of the state, drawing
/// from the agent's generator, valued by the function it holds.
struct Engine<V>(V);

impl<V: Fn(&State) -> f64> ForwardModel for Engine<V> {
    type State = State;
    type Simulation = State;
    type Action = Action;
    type Rng = AgentRandom;

    fn simulate(&self, state: &State, rng: &mut AgentRandom) -> State {
        simulation(state, &mut rng.0)
    }

    fn advance(&self, simulation: &mut State, action: Action) {
        simulation.step(action);
    }

    fn is_over(&self, simulation: &State) -> bool {
        simulation.is_over()
    }

    fn value(&self, simulation: &State) -> f64 {
        (self.0)(simulation)
    }
}

/// GVGAI's `Utils.noise` with its ε, on every value its sample controllers compare.
const NOISE: Noise = Noise::Gvgai(1e-6);

/// GVGAI's `SimpleStateHeuristic`: a win is worth a great deal and a loss is the worst;
/// otherwise the score, less the number of NPCs (and a little for the nearest one), or — when
/// the game has portals — the score less the distance to the nearest portal.
pub fn simple_heuristic(state: &State, categories: &[Category]) -> f64 {
    let won = match state.winner {
        Winner::Wins => 1_000_000_000.0,
        Winner::Loses => return -999_999_999.0,
        Winner::None | Winner::Stopped(_) => 0.0,
    };
    let score = state.score;
    let Some(me) = state.avatar() else {
        return score + won * 100_000_000.0;
    };
    let (ax, ay) = (f64::from(me.rect.x), f64::from(me.rect.y));
    let sq = |x: i32, y: i32| (f64::from(x) - ax).powi(2) + (f64::from(y) - ay).powi(2);
    // Per type, the sprite nearest the avatar (the first in the type's order among equals, as
    // GVGAI's stable sort leaves it); GVGAI keeps the last type's (its loop overwrites). The
    // distance it then reads is that sprite's from the screen's corner (-1, -1): GVGAI's
    // heuristic asks for the NPCs a second time without a reference, which recomputes the
    // same cached observations' distances from GVGAI's "no position" (-1, -1). Portals are
    // not asked twice and keep their distance from the avatar.
    let nearest_of = |category: Category, from_corner: bool| -> (Option<f64>, usize, bool) {
        let mut last = None;
        let mut count = 0;
        let mut any_type = false;
        for (k, group) in state.groups.iter().enumerate() {
            if categories[k] != category {
                continue;
            }
            let mut best: Option<(f64, (i32, i32))> = None;
            let mut n = 0;
            for s in group.iter().filter(|s| !s.dead && !s.disabled) {
                n += 1;
                let d = sq(s.rect.x, s.rect.y);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, (s.rect.x, s.rect.y)));
                }
            }
            let Some((d, (x, y))) = best else {
                continue;
            };
            any_type = true;
            count += n;
            last = Some(if from_corner {
                (f64::from(x) + 1.0).powi(2) + (f64::from(y) + 1.0).powi(2)
            } else {
                d
            });
        }
        (last, count, any_type)
    };
    let (npc_nearest, npcs, _) = nearest_of(Category::Npc, true);
    let (portal_nearest, _, any_portal) = nearest_of(Category::Portal, false);
    if !any_portal {
        return if npcs == 0 {
            score + won * 100_000_000.0
        } else {
            -npc_nearest.unwrap_or(0.0) / 100.0 - npcs as f64 * 100.0 + score + won * 100_000_000.0
        };
    }
    match portal_nearest {
        None => score + won * 100_000_000.0,
        Some(d) => score + won * 1_000_000.0 - d * 10.0,
    }
}

/// GVGAI's `sampleonesteplookahead`: each available action one tick ahead, judged by the
/// simple heuristic, ties broken at random.
pub struct OneStep {
    rng: AgentRandom,
    categories: Vec<Category>,
}

impl OneStep {
    /// The agent for `game`, drawing from `new Random(seed)`.
    pub fn new(game: &Game, seed: i64) -> OneStep {
        OneStep {
            rng: AgentRandom(JavaRandom::new(seed)),
            categories: categories(game),
        }
    }
}

impl Agent for OneStep {
    fn act(&mut self, state: &State) -> Action {
        let model = Engine(|state: &State| simple_heuristic(state, &self.categories));
        one_step(&model, state, state.actions(), NOISE, &mut self.rng).unwrap_or(Action::Nil)
    }
}

/// The sample MCTS's iterations a move (GVGAI's 40 ms bought 94–243 on the three seed games).
pub const MCTS_ITERATIONS: usize = 200;
const HUGE: f64 = 10_000_000.0;

/// The sample MCTS's value of a state: the score plus or minus [`HUGE`] for a win or a loss.
fn sample_value(state: &State) -> f64 {
    match state.winner {
        Winner::Wins => state.score + HUGE,
        Winner::Loses => state.score - HUGE,
        Winner::None | Winner::Stopped(_) => state.score,
    }
}

/// GVGAI's `sampleMCTS`: UCT (K = √2) over the available actions with rollouts ten deep, the
/// value the score plus or minus ten million for a win or a loss; the most visited action
/// ([`MctsConfig::gvgai`]).
pub struct Mcts {
    rng: AgentRandom,
    iterations: usize,
}

impl Mcts {
    /// The agent drawing from `new Random(seed)`, `iterations` a move.
    pub fn new(seed: i64, iterations: usize) -> Mcts {
        Mcts {
            rng: AgentRandom(JavaRandom::new(seed)),
            iterations: iterations.max(1),
        }
    }
}

impl Agent for Mcts {
    fn act(&mut self, root: &State) -> Action {
        let actions = root.actions();
        let config = MctsConfig::gvgai(self.iterations);
        mcts(&Engine(sample_value), root, actions, &config, &mut self.rng)
            .unwrap_or_else(|| actions.first().copied().unwrap_or(Action::Nil))
    }
}

/// GVGAI's `WinScoreHeuristic`: the score, or ±1,000 when the game is over.
pub fn win_score(state: &State) -> f64 {
    match state.winner {
        Winner::Wins => 1000.0,
        Winner::Loses => -1000.0,
        Winner::None | Winner::Stopped(_) => state.score,
    }
}

/// Evaluations (plans of ten moves played on a copy) a move for the evolutionary planners
/// (GVGAI's 40 ms bought about as many as its MCTS iterations).
pub const PLAN_EVALUATIONS: usize = 200;
/// How many moves a plan holds.
const PLAN_LENGTH: usize = 10;

/// A plan: action indices (the avatar's actions, then NIL) and its value.
#[derive(Clone, Debug)]
struct Plan {
    actions: Vec<usize>,
    value: f64,
}

impl Plan {
    /// A random plan (GVGAI draws one even for a copy it then overwrites).
    fn random(n: usize, rng: &mut JavaRandom) -> Plan {
        Plan {
            actions: (0..PLAN_LENGTH)
                .map(|_| rng.next_int(n as i32) as usize)
                .collect(),
            value: 0.0,
        }
    }

    /// Plays the plan on a copy of `state` (up to the game's end) and keeps the value.
    fn evaluate(&mut self, state: &State, moves: &[Action], rng: &mut JavaRandom) -> f64 {
        let mut copy = simulation(state, rng);
        for &a in &self.actions {
            if copy.is_over() {
                break;
            }
            copy.step(moves[a]);
        }
        self.value = win_score(&copy);
        self.value
    }
}

/// The avatar's actions and NIL, as GVGAI's evolutionary planners index them.
fn plan_moves(state: &State) -> Vec<Action> {
    let mut moves = state.actions().to_vec();
    moves.push(Action::Nil);
    moves
}

/// Sorts best first, equal values keeping their order (Java's stable sort).
fn sort_best_first(plans: &mut [Plan]) {
    plans.sort_by(|a, b| b.value.total_cmp(&a.value));
}

/// GVGAI's `sampleRS`: random plans of ten moves, each played on a copy and judged by the
/// win-or-score heuristic; the first move of the best.
pub struct RandomSearch {
    rng: JavaRandom,
    evaluations: usize,
}

impl RandomSearch {
    /// The agent drawing from `new Random(seed)`, `evaluations` plans a move.
    pub fn new(seed: i64, evaluations: usize) -> RandomSearch {
        RandomSearch {
            rng: JavaRandom::new(seed),
            evaluations: evaluations.max(1),
        }
    }
}

impl Agent for RandomSearch {
    fn act(&mut self, state: &State) -> Action {
        let moves = plan_moves(state);
        let mut plans: Vec<Plan> = (0..self.evaluations)
            .map(|_| {
                let mut p = Plan::random(moves.len(), &mut self.rng);
                p.evaluate(state, &moves, &mut self.rng);
                p
            })
            .collect();
        sort_best_first(&mut plans);
        moves[plans[0].actions[0]]
    }
}

/// GVGAI's `sampleRHEA`: a rolling-horizon evolution of ten plans of ten moves (elitism 1,
/// tournaments of two, uniform crossover, one mutation), judged by the win-or-score
/// heuristic; the first move of the best.
pub struct Rhea {
    rng: JavaRandom,
    evaluations: usize,
}

/// The evolved population's size.
const RHEA_POPULATION: usize = 10;

impl Rhea {
    /// The agent drawing from `new Random(seed)`, `evaluations` plans a move.
    pub fn new(seed: i64, evaluations: usize) -> Rhea {
        Rhea {
            rng: JavaRandom::new(seed),
            evaluations: evaluations.max(RHEA_POPULATION),
        }
    }
}

impl Agent for Rhea {
    fn act(&mut self, state: &State) -> Action {
        let moves = plan_moves(state);
        let n = moves.len();
        let rng = &mut self.rng;
        let mut used = 0;
        let mut population: Vec<Plan> = (0..RHEA_POPULATION)
            .map(|_| {
                let mut p = Plan::random(n, rng);
                p.evaluate(state, &moves, rng);
                p
            })
            .collect();
        used += RHEA_POPULATION;
        sort_best_first(&mut population);
        while used + (RHEA_POPULATION - 1) <= self.evaluations {
            let mut next = population.clone();
            for slot in next.iter_mut().skip(1) {
                // Tournament of two, without replacement; the better parent first.
                let mut pool: Vec<usize> = (0..population.len()).collect();
                let a = pool.remove(rng.next_int(pool.len() as i32) as usize);
                let b = pool.remove(rng.next_int(pool.len() as i32) as usize);
                let (first, second) = if population[b].value > population[a].value {
                    (b, a)
                } else {
                    (a, b)
                };
                let mut child = Plan::random(n, rng);
                for i in 0..PLAN_LENGTH {
                    child.actions[i] = if rng.next_float() >= 0.5 {
                        population[first].actions[i]
                    } else {
                        population[second].actions[i]
                    };
                }
                // Mutation (GVGAI's copy draws a fresh random plan it then overwrites).
                let _ = Plan::random(n, rng);
                if n > 1 {
                    let at = rng.next_int(PLAN_LENGTH as i32) as usize;
                    child.actions[at] = rng.next_int(n as i32) as usize;
                }
                child.evaluate(state, &moves, rng);
                *slot = child;
            }
            used += RHEA_POPULATION - 1;
            sort_best_first(&mut next);
            population = next;
        }
        moves[population[0].actions[0]]
    }
}

/// One node of the OLETS tree.
#[derive(Clone, Debug)]
struct OleNode {
    parent: Option<usize>,
    children: Vec<Option<usize>>,
    depth: usize,
    action: usize,
    visits: f64,
    generated: u32,
    total: f64,
    expectimax: f64,
    adj_emax: f64,
    exit_total: f64,
    exits: f64,
    children_max_adj: f64,
    taboo: f64,
}

impl OleNode {
    fn new(parent: Option<usize>, depth: usize, action: usize, taboo: f64, n: usize) -> OleNode {
        OleNode {
            parent,
            children: vec![None; n],
            depth,
            action,
            visits: 0.0,
            generated: 0,
            total: 0.0,
            expectimax: 0.0,
            adj_emax: 0.0,
            exit_total: 0.0,
            exits: 0.0,
            children_max_adj: 0.0,
            taboo,
        }
    }
}

/// How many past avatar positions OLETS avoids.
const OLETS_MEMORY: usize = 15;

/// GVGAI's `olets` (Open Loop Expectimax Tree Search, the 2014 competition winner): an open-
/// loop tree searched without rollouts, each node valued by its "adjusted expectimax" (how
/// often a simulation ended there times its value there, plus the rest times its best
/// child's), chosen ε-greedily with a UCB term, less a taboo bias for the avatar's recent
/// positions; the chosen branch is kept for the next move.
pub struct Olets {
    rng: JavaRandom,
    iterations: usize,
    tree: Vec<OleNode>,
    past: Vec<Option<(i32, i32)>>,
    memory_at: usize,
    salvaged: bool,
}

impl Olets {
    /// The agent drawing from `new Random(seed)`, `iterations` a move.
    pub fn new(seed: i64, iterations: usize) -> Olets {
        Olets {
            rng: JavaRandom::new(seed),
            iterations: iterations.max(1),
            tree: Vec::new(),
            past: vec![None; OLETS_MEMORY],
            memory_at: 0,
            salvaged: false,
        }
    }

    fn taboo(&self, state: &State) -> f64 {
        let at = state.avatar().map(|a| (a.rect.x, a.rect.y));
        let seen = self
            .past
            .iter()
            .take_while(|p| p.is_some())
            .any(|p| *p == at && at.is_some());
        if seen {
            0.5
        } else {
            0.0
        }
    }

    fn value(state: &State, depth: usize) -> f64 {
        let raw = state.score;
        match state.winner {
            Winner::Loses => raw - (2000.0 / (1.0 + depth as f64).powi(2)) * (1.0 + raw.abs()),
            Winner::Wins => raw + 100.0 * (1.0 + raw.abs()),
            Winner::None | Winner::Stopped(_) => raw,
        }
    }

    fn back_up(&mut self, from: usize, result: f64) {
        let mut at = Some(from);
        let mut up = 0;
        while let Some(i) = at {
            let n = &mut self.tree[i];
            n.visits += 1.0;
            n.generated += 1;
            n.total += result;
            if up > 0 {
                let (mut best_e, mut best_adj) = (-10_000_000.0f64, -10_000_000.0f64);
                for &c in self.tree[i].children.clone().iter().flatten() {
                    best_e = best_e.max(self.tree[c].expectimax);
                    best_adj = best_adj.max(self.tree[c].adj_emax);
                }
                let n = &mut self.tree[i];
                n.expectimax = best_e;
                n.children_max_adj = best_adj;
            } else {
                n.exits += 1.0;
                n.exit_total += result;
                n.expectimax = n.total / n.visits;
            }
            let n = &mut self.tree[i];
            let share = n.exits / n.visits;
            let on_exit = if n.exits > 0.0 {
                n.exit_total / n.exits
            } else {
                0.0
            };
            n.adj_emax = share * on_exit + (1.0 - share) * n.children_max_adj;
            at = n.parent;
            up += 1;
        }
    }

    /// Keeps the subtree under the root's child `action` as the next root, its values
    /// scaled to one visit (GVGAI's `refreshTree`).
    fn salvage(&mut self, action: usize) {
        let Some(child) = self.tree[0].children[action] else {
            self.tree.clear();
            self.salvaged = false;
            return;
        };
        let mut kept: Vec<OleNode> = Vec::new();
        let mut queue = std::collections::VecDeque::from([(child, None::<usize>)]);
        while let Some((old, parent)) = queue.pop_front() {
            let mut node = self.tree[old].clone();
            node.parent = parent;
            node.depth = parent.map_or(0, |p| kept[p].depth + 1);
            if parent.is_some() {
                node.total /= node.visits.max(1.0);
                node.visits = 1.0;
                node.expectimax = node.total;
                node.adj_emax = node.total;
                node.exits = 1.0;
                node.generated = 0;
            }
            let me = kept.len();
            let children = std::mem::take(&mut node.children);
            node.children = vec![None; children.len()];
            kept.push(node);
            if let Some(p) = parent {
                let slot = kept[me].action;
                kept[p].children[slot] = Some(me);
            }
            for c in children.into_iter().flatten() {
                queue.push_back((c, Some(me)));
            }
        }
        self.tree = kept;
        self.salvaged = true;
    }
}

impl Agent for Olets {
    fn act(&mut self, root: &State) -> Action {
        let actions: Vec<Action> = root.actions().to_vec();
        if actions.is_empty() {
            return Action::Nil;
        }
        let n = actions.len();
        if !self.salvaged || self.tree.is_empty() || self.tree[0].children.len() != n {
            self.tree = vec![OleNode::new(None, 0, 0, 0.0, n)];
        } else {
            self.past[self.memory_at] = root.avatar().map(|a| (a.rect.x, a.rect.y));
            self.memory_at = (self.memory_at + 1) % OLETS_MEMORY;
        }
        let k = 2f64.sqrt();
        for _ in 0..self.iterations {
            let mut state = simulation(root, &mut self.rng);
            let mut cur = 0;
            let mut local = 0;
            while !state.is_over() {
                if self.tree[cur].children.iter().any(Option::is_none) {
                    let mut pick = 0;
                    let mut best = -1.0;
                    for i in 0..n {
                        let x = self.rng.next_double();
                        if x > best && self.tree[cur].children[i].is_none() {
                            pick = i;
                            best = x;
                        }
                    }
                    state.step(actions[pick]);
                    let taboo = self.taboo(&state);
                    let depth = self.tree[cur].depth + 1;
                    self.tree
                        .push(OleNode::new(Some(cur), depth, pick, taboo, n));
                    let id = self.tree.len() - 1;
                    self.tree[cur].children[pick] = Some(id);
                    cur = id;
                    break;
                }
                let next = if self.rng.next_double() < 0.05 {
                    self.tree[cur].children[self.rng.next_int(n as i32) as usize]
                } else {
                    let parent_visits = self.tree[cur].visits;
                    let mut best = (-f64::MAX, None);
                    for &c in self.tree[cur].children.iter().flatten() {
                        let node = &self.tree[c];
                        let score = node.adj_emax
                            + k * ((parent_visits + 1.0).ln() / (node.visits + 1e-4)).sqrt()
                            - node.taboo;
                        if score > best.0 {
                            best = (score, Some(c));
                        }
                    }
                    best.1
                };
                let Some(next) = next else { break };
                state.step(actions[self.tree[next].action]);
                cur = next;
                if self.tree[cur].generated == 0 {
                    let taboo = self.taboo(&state);
                    self.tree[cur].taboo = taboo;
                    if local == 0 {
                        break;
                    }
                }
                local += 1;
            }
            let delta = Self::value(&state, self.tree[cur].depth);
            self.back_up(cur, delta);
        }
        // The most visited action; when all are equal, the best total.
        let root_children: Vec<(usize, usize)> = self.tree[0]
            .children
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (i, c)))
            .collect();
        let mut pick = root_children.first().map_or(0, |&(i, _)| i);
        let all_equal = root_children
            .windows(2)
            .all(|w| self.tree[w[0].1].visits == self.tree[w[1].1].visits);
        let mut best = -f64::MAX;
        for &(i, c) in &root_children {
            let v = if all_equal {
                self.tree[c].total
            } else {
                self.tree[c].visits
            } + self.rng.next_double() * 1e-4;
            if v > best {
                best = v;
                pick = i;
            }
        }
        self.salvage(pick);
        actions[pick]
    }
}

/// Flat Monte Carlo: UCB1 (K = √2) over the first action only, each pull a random rollout ten
/// moves deep valued as sample MCTS values it; the most pulled action. The paper's "flat
/// MCTS", a tree of depth one.
pub struct FlatMcts {
    rng: AgentRandom,
    iterations: usize,
}

impl FlatMcts {
    /// The agent drawing from `new Random(seed)`, `iterations` rollouts a move.
    pub fn new(seed: i64, iterations: usize) -> FlatMcts {
        FlatMcts {
            rng: AgentRandom(JavaRandom::new(seed)),
            iterations: iterations.max(1),
        }
    }
}

impl Agent for FlatMcts {
    fn act(&mut self, root: &State) -> Action {
        let config = MctsConfig::gvgai_flat(self.iterations);
        flat_mcts(
            &Engine(sample_value),
            root,
            root.actions(),
            &config,
            &mut self.rng,
        )
        .unwrap_or(Action::Nil)
    }
}
