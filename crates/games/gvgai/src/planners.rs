//! GVGAI's sample planning controllers on the engine's forward model, after their sources
//! (`tracks/singlePlayer`): the one-step lookahead with GVGAI's simple state heuristic, and
//! sample MCTS (UCT over the available actions, rollouts ten moves deep, the score with a huge
//! bonus for a win and malus for a loss). GVGAI gives each move 40 ms; here each move has a
//! fixed budget of iterations, so a game plays the same on any machine.
//!
//! A simulation never sees the game's own future random numbers: every copy the agents
//! advance draws from a generator seeded by the agent (GVGAI's forward model has its own
//! generator too).

use crate::agents::Agent;
use crate::load::Game;
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
    game.rules
        .types
        .iter()
        .map(|t| {
            let portal_flag = game
                .desc
                .sprite(&t.name)
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
                    | Class::BomberRandomMissile,
                ) => Category::Npc,
                _ if t.proto.is_static => Category::Static,
                _ => Category::Movable,
            }
        })
        .collect()
}

/// GVGAI's `Utils.noise`: a tiny random nudge that breaks ties.
fn noise(value: f64, epsilon: f64, random: f64) -> f64 {
    (value + epsilon) * (1.0 + epsilon * (random - 0.5))
}

/// A copy of `state` to simulate on, drawing its random numbers from `rng` instead of the
/// game's own future.
fn simulation(state: &State, rng: &mut JavaRandom) -> State {
    let mut copy = state.clone();
    let seed = (i64::from(rng.next_int(i32::MAX)) << 31) ^ i64::from(rng.next_int(i32::MAX));
    copy.rng = JavaRandom::new(seed);
    copy
}

/// GVGAI's `SimpleStateHeuristic`: a win is worth a great deal and a loss is the worst;
/// otherwise the score, less the number of NPCs (and a little for the nearest one), or — when
/// the game has portals — the score less the distance to the nearest portal.
pub fn simple_heuristic(state: &State, categories: &[Category]) -> f64 {
    let won = match state.winner {
        Winner::Wins => 1_000_000_000.0,
        Winner::Loses => return -999_999_999.0,
        Winner::None => 0.0,
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
    rng: JavaRandom,
    categories: Vec<Category>,
}

impl OneStep {
    /// The agent for `game`, drawing from `new Random(seed)`.
    pub fn new(game: &Game, seed: i64) -> OneStep {
        OneStep {
            rng: JavaRandom::new(seed),
            categories: categories(game),
        }
    }
}

impl Agent for OneStep {
    fn act(&mut self, state: &State) -> Action {
        let mut best = (f64::NEG_INFINITY, Action::Nil);
        for &action in state.actions() {
            let mut copy = simulation(state, &mut self.rng);
            copy.step(action);
            let q = noise(
                simple_heuristic(&copy, &self.categories),
                1e-6,
                self.rng.next_double(),
            );
            if q > best.0 {
                best = (q, action);
            }
        }
        best.1
    }
}

/// The sample MCTS's iterations a move (GVGAI's 40 ms bought 94–243 on the three seed games).
pub const MCTS_ITERATIONS: usize = 200;
/// How deep the tree and its rollouts go.
const ROLLOUT_DEPTH: usize = 10;
const HUGE: f64 = 10_000_000.0;

struct Node {
    parent: Option<usize>,
    children: Vec<Option<usize>>,
    total: f64,
    visits: f64,
    depth: usize,
    bounds: (f64, f64),
    index: usize,
}

/// GVGAI's `sampleMCTS`: UCT (K = √2) over the available actions with rollouts ten deep, the
/// value the score plus or minus ten million for a win or a loss; the most visited action.
pub struct Mcts {
    rng: JavaRandom,
    iterations: usize,
}

impl Mcts {
    /// The agent drawing from `new Random(seed)`, `iterations` a move.
    pub fn new(seed: i64, iterations: usize) -> Mcts {
        Mcts {
            rng: JavaRandom::new(seed),
            iterations: iterations.max(1),
        }
    }

    fn value(state: &State) -> f64 {
        match state.winner {
            Winner::Wins => state.score + HUGE,
            Winner::Loses => state.score - HUGE,
            Winner::None => state.score,
        }
    }
}

impl Agent for Mcts {
    fn act(&mut self, root_state: &State) -> Action {
        let actions: Vec<Action> = root_state.actions().to_vec();
        if actions.is_empty() {
            return Action::Nil;
        }
        let n = actions.len();
        let eps = 1e-6;
        let mut tree: Vec<Node> = vec![Node {
            parent: None,
            children: vec![None; n],
            total: 0.0,
            visits: 0.0,
            depth: 0,
            bounds: (f64::MAX, -f64::MAX),
            index: 0,
        }];
        for _ in 0..self.iterations {
            let mut state = simulation(root_state, &mut self.rng);
            // Tree policy: expand the first node not fully expanded, else follow UCT.
            let mut cur = 0;
            while !state.is_over() && tree[cur].depth < ROLLOUT_DEPTH {
                if tree[cur].children.iter().any(Option::is_none) {
                    let mut pick = 0;
                    let mut best = -1.0;
                    for i in 0..n {
                        let x = self.rng.next_double();
                        if x > best && tree[cur].children[i].is_none() {
                            pick = i;
                            best = x;
                        }
                    }
                    state.step(actions[pick]);
                    tree.push(Node {
                        parent: Some(cur),
                        children: vec![None; n],
                        total: 0.0,
                        visits: 0.0,
                        depth: tree[cur].depth + 1,
                        bounds: (f64::MAX, -f64::MAX),
                        index: pick,
                    });
                    let id = tree.len() - 1;
                    tree[cur].children[pick] = Some(id);
                    cur = id;
                    break;
                }
                let parent_visits = tree[cur].visits;
                let (lo, hi) = tree[cur].bounds;
                let mut selected = None;
                let mut best = -f64::MAX;
                for &child in tree[cur].children.iter().flatten() {
                    let c = &tree[child];
                    let mut v = c.total / (c.visits + eps);
                    if lo < hi {
                        v = (v - lo) / (hi - lo);
                    }
                    let u =
                        v + 2f64.sqrt() * ((parent_visits + 1.0).ln() / (c.visits + eps)).sqrt();
                    let u = noise(u, eps, self.rng.next_double());
                    if u > best {
                        best = u;
                        selected = Some(child);
                    }
                }
                let Some(next) = selected else { break };
                state.step(actions[tree[next].index]);
                cur = next;
            }
            // Rollout from the selected node.
            let mut depth = tree[cur].depth;
            while depth < ROLLOUT_DEPTH && !state.is_over() {
                let a = actions[self.rng.next_int(n as i32) as usize];
                state.step(a);
                depth += 1;
            }
            let delta = Self::value(&state);
            let b = &mut tree[cur].bounds;
            b.0 = b.0.min(delta);
            b.1 = b.1.max(delta);
            // Back up.
            let mut at = Some(cur);
            while let Some(i) = at {
                let node = &mut tree[i];
                node.visits += 1.0;
                node.total += delta;
                node.bounds.0 = node.bounds.0.min(delta);
                node.bounds.1 = node.bounds.1.max(delta);
                at = node.parent;
            }
        }
        // The most visited action (the best mean when all are equal), ties at random.
        let root = &tree[0];
        let children: Vec<(usize, usize)> = root
            .children
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (i, c)))
            .collect();
        if children.is_empty() {
            return actions[0];
        }
        let all_equal = children
            .windows(2)
            .all(|w| tree[w[0].1].visits == tree[w[1].1].visits);
        let mut best = (-f64::MAX, children[0].0);
        for &(i, c) in &children {
            let raw = if all_equal {
                tree[c].total / (tree[c].visits + eps)
            } else {
                tree[c].visits
            };
            let v = noise(raw, eps, self.rng.next_double());
            if v > best.0 {
                best = (v, i);
            }
        }
        actions[best.1]
    }
}

/// GVGAI's `WinScoreHeuristic`: the score, or ±1,000 when the game is over.
pub fn win_score(state: &State) -> f64 {
    match state.winner {
        Winner::Wins => 1000.0,
        Winner::Loses => -1000.0,
        Winner::None => state.score,
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
