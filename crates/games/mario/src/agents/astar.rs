//! A* search over cloned worlds, after Robin Baumgarten's agent for the Mario AI Framework:
//! each node holds one action for a few ticks, the cost is ticks elapsed plus the ticks
//! still needed at top running speed to reach the goal, damage costs a fortune, deaths are
//! dropped, near-identical positions are penalised, and every decision gets a fixed
//! budget of simulated nodes (not a wall-clock budget, so play stays deterministic).
//!
//! Departures from Baumgarten's: a node whose Mario has dropped below the bottom row is
//! dropped at once (he cannot come back), which lets the search see doomed jumps early; a
//! search stops early only when its best node stands on the ground past the horizon (see
//! [`AStarAgent::with_land_first`]); the search restarts from the current world at each
//! replan instead of from a predicted one, since the model here is exact.

use super::Agent;
use crate::engine::{Action, Status, World, INERTIA, MAX_RUN_SPEED, RUN_ACCELERATION, TILE};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// The largest jump reward [`AStarAgent::with_jump_reward`] accepts (ticks per tile).
pub const MAX_JUMP_REWARD: f32 = 10.0;

/// Tiles a jump node is optimistically expected to rise (see `with_path_jump_reward`).
const JUMP_LIFT_TILES: f32 = 2.0;
/// Cost added to a node found near an already expanded one (Baumgarten: 1500).
const VISITED_PENALTY: f32 = 1500.0;
/// Cost of taking damage (Baumgarten: 1 000 000, less 100 per node of depth).
const DAMAGE_PENALTY: f32 = 1_000_000.0;
/// Weight of elapsed ticks in the priority; below 1 leans towards far nodes (Baumgarten).
const ELAPSED_WEIGHT: f32 = 0.9;
/// Speed running converges to before the move of a tick adds its acceleration.
const TERMINAL_SPEED: f32 = MAX_RUN_SPEED - RUN_ACCELERATION;

/// The actions searched, Baumgarten's set: jumps only where a jump can start or go higher.
const ACTIONS: [(Action, bool); 10] = [
    (Action::JUMP, true),
    (Action::RUN_JUMP, true),
    (Action::RUN_RIGHT, false),
    (Action::RUN_JUMP_RIGHT, true),
    (Action::RIGHT, false),
    (Action::JUMP_RIGHT, true),
    (Action::LEFT, false),
    (Action::JUMP_LEFT, true),
    (Action::RUN_LEFT, false),
    (Action::RUN_JUMP_LEFT, true),
];

const NO_PARENT: usize = usize::MAX;

struct Node {
    world: Option<World>,
    parent: usize,
    action: Action,
    elapsed: u32,
    depth: u32,
    estimated: f32,
    remaining: Option<f32>,
    hurt: bool,
    in_visited: bool,
    /// Path height reward banked by this node and its ancestors (see `with_path_jump_reward`).
    banked: f32,
}

impl Node {
    fn remaining(&self) -> f32 {
        self.remaining.unwrap_or(self.estimated)
    }

    fn priority(&self) -> f32 {
        self.remaining() + self.elapsed as f32 * ELAPSED_WEIGHT
    }

    fn x(&self) -> f32 {
        self.world.as_ref().map_or(f32::MIN, |w| w.mario().x())
    }
}

/// An open-list entry: lowest priority first, then oldest node first.
struct Open {
    priority: f32,
    node: usize,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .priority
            .total_cmp(&self.priority)
            .then_with(|| other.node.cmp(&self.node))
    }
}

/// An expanded position: x and y in whole pixels, ticks elapsed since the search began.
type Position = (i32, i32, u32);

/// Positions already expanded, bucketed in 2-pixel cells. The table is only looked up, never
/// iterated, so its hasher (foldhash's fixed one: a tenth of a search's time went to SipHash)
/// cannot change a search.
#[derive(Default)]
struct Visited {
    cells: HashMap<(i32, i32), Vec<Position>, foldhash::fast::FixedState>,
}

impl Visited {
    fn add(&mut self, x: i32, y: i32, t: u32) {
        self.cells
            .entry((x.div_euclid(2), y.div_euclid(2)))
            .or_default()
            .push((x, y, t));
    }

    /// True when a position within 1 px each way was expanded 0–4 ticks earlier.
    fn contains(&self, x: i32, y: i32, t: u32) -> bool {
        let (cx, cy) = (x.div_euclid(2), y.div_euclid(2));
        for gx in cx - 1..=cx + 1 {
            for gy in cy - 1..=cy + 1 {
                let Some(list) = self.cells.get(&(gx, gy)) else {
                    continue;
                };
                if list.iter().any(|&(vx, vy, vt)| {
                    (vx - x).abs() < 2 && (vy - y).abs() < 2 && t >= vt && t - vt < 5
                }) {
                    return true;
                }
            }
        }
        false
    }
}

/// Baumgarten-style A* agent. Searches from the current world every few ticks and follows
/// its plan in between.
#[derive(Clone, Debug)]
pub struct AStarAgent {
    repetitions: u32,
    replan_every: u32,
    budget: usize,
    horizon: f32,
    jump_reward: f32,
    path_reward: f32,
    land_first: bool,
    plan: Vec<Action>,
    plan_pos: usize,
    since_replan: u32,
    replan_now: bool,
    simulated: u64,
    searches: u64,
}

impl Default for AStarAgent {
    fn default() -> Self {
        Self::new()
    }
}

impl AStarAgent {
    /// An agent with the defaults: 4 ticks per node, a new search every 4 ticks,
    /// 6 000 simulated nodes per search at most, a 176-pixel horizon, no jump reward.
    pub fn new() -> AStarAgent {
        AStarAgent {
            repetitions: 4,
            replan_every: 4,
            budget: 6000,
            horizon: 176.0,
            jump_reward: 0.0,
            path_reward: 0.0,
            land_first: true,
            plan: Vec::new(),
            plan_pos: 0,
            since_replan: 0,
            replan_now: false,
            simulated: 0,
            searches: 0,
        }
    }

    /// Rewards height: every node's cost drops by `reward` ticks per tile Mario stands above
    /// the level's bottom edge (clamped to `0..=MAX_JUMP_REWARD`; 0 plays for speed alone).
    pub fn with_jump_reward(mut self, reward: f32) -> AStarAgent {
        self.jump_reward = reward.clamp(0.0, MAX_JUMP_REWARD);
        self
    }

    /// Rewards time spent high: every node's cost drops by `reward` ticks per tile Mario
    /// stands above the level's bottom edge at that node *and at each of its ancestors*
    /// (clamped to `0..=MAX_JUMP_REWARD`), so plans that jump on the way are preferred even
    /// when they end on the ground; jump children are expected to rise 2 tiles until
    /// simulated. 0 (the default) turns it off.
    pub fn with_path_jump_reward(mut self, reward: f32) -> AStarAgent {
        self.path_reward = reward.clamp(0.0, MAX_JUMP_REWARD);
        self
    }

    /// Ticks each search node holds its action (at least 1).
    pub fn with_repetitions(mut self, ticks: u32) -> AStarAgent {
        self.repetitions = ticks.max(1);
        self
    }

    /// Ticks between searches (at least 1); the plan is followed in between.
    pub fn with_replan_every(mut self, ticks: u32) -> AStarAgent {
        self.replan_every = ticks.max(1);
        self
    }

    /// Nodes simulated per search at most (at least 1).
    pub fn with_budget(mut self, nodes: usize) -> AStarAgent {
        self.budget = nodes.max(1);
        self
    }

    /// How far right of Mario (pixels) a search is content to plan.
    pub fn with_horizon(mut self, pixels: f32) -> AStarAgent {
        self.horizon = pixels.max(16.0);
        self
    }

    /// When true (the default), a search only stops early once its best node stands on
    /// the ground past the horizon, so a long jump is planned through to its landing;
    /// false stops at the horizon even in mid-air, as Baumgarten's agent does.
    pub fn with_land_first(mut self, land_first: bool) -> AStarAgent {
        self.land_first = land_first;
        self
    }

    /// Makes the next [`Agent::act`] search afresh instead of following the plan (for a
    /// caller that overrode the planned action, so the plan no longer fits the world).
    pub fn replan_next(&mut self) {
        self.replan_now = true;
    }

    /// The path jump reward in use (see [`AStarAgent::with_path_jump_reward`]).
    pub fn path_jump_reward(&self) -> f32 {
        self.path_reward
    }

    /// The actions the agent means to take next, one per tick (the current plan's rest).
    pub fn plan(&self) -> &[Action] {
        self.plan.get(self.plan_pos..).unwrap_or(&[])
    }

    /// Nodes simulated so far, over all searches.
    pub fn nodes_simulated(&self) -> u64 {
        self.simulated
    }

    /// Searches run so far.
    pub fn searches(&self) -> u64 {
        self.searches
    }

    /// Ticks still needed at top running speed to reach the goal from `world`.
    fn remaining_ticks(world: &World, x: f32, vx: f32) -> f32 {
        if world.status() == Status::Won {
            return 0.0;
        }
        let carried = (vx - TERMINAL_SPEED) / (1.0 - INERTIA);
        (world.goal_x() - x - carried).max(0.0) / MAX_RUN_SPEED
    }

    /// A child's optimistic estimate: its action's best horizontal progress, no walls.
    fn estimate_child(&self, parent: &World, action: Action, banked: f32) -> f32 {
        let m = parent.mario();
        let acceleration = if action.speed() { 1.2 } else { 0.6 };
        let direction = f32::from(u8::from(action.right())) - f32::from(u8::from(action.left()));
        let (mut v, mut distance) = (m.vx(), 0.0);
        for _ in 0..self.repetitions {
            v += acceleration * direction;
            distance += v;
            v *= INERTIA;
        }
        let mut estimate = Self::remaining_ticks(parent, m.x() + distance, v);
        if self.path_reward > 0.0 {
            // The height reward banked so far, plus this child's, optimistically: the
            // parent's height and a lift for a jump that can start or go on (corrected once
            // the child is simulated).
            let lift = if action.jump() && (m.may_jump() || m.can_jump_higher()) {
                JUMP_LIFT_TILES
            } else {
                0.0
            };
            let height = (parent.map().pixel_height() - m.y()) / TILE;
            estimate -= banked + self.path_reward * (height + lift);
        }
        estimate
    }

    fn add_children(&self, nodes: &mut Vec<Node>, open: &mut BinaryHeap<Open>, parent: usize) {
        let Some(world) = nodes[parent].world.as_ref() else {
            return;
        };
        if world.status() != Status::Running {
            return;
        }
        let can_jump = |w: &World| w.mario().may_jump() || w.mario().can_jump_higher();
        let grand_parent = nodes[parent].parent;
        let jumpable = can_jump(world)
            || (grand_parent != NO_PARENT
                && nodes[grand_parent].world.as_ref().is_some_and(can_jump));
        let (elapsed, depth) = (nodes[parent].elapsed, nodes[parent].depth);
        let banked = nodes[parent].banked;
        let mut children = [(Action::NONE, 0.0f32); ACTIONS.len()];
        let mut count = 0;
        for &(action, jumps) in &ACTIONS {
            if jumps && !jumpable {
                continue;
            }
            children[count] = (action, self.estimate_child(world, action, banked));
            count += 1;
        }
        for &(action, estimated) in &children[..count] {
            let node = Node {
                world: None,
                parent,
                action,
                elapsed: elapsed + self.repetitions,
                depth: depth + 1,
                estimated,
                remaining: None,
                hurt: false,
                in_visited: false,
                banked,
            };
            open.push(Open {
                priority: node.priority(),
                node: nodes.len(),
            });
            nodes.push(node);
        }
    }

    /// Simulates node `i` from its parent; false when Mario dies there (node dropped).
    fn simulate(&self, nodes: &mut [Node], i: usize) -> bool {
        let parent = nodes[i].parent;
        let Some(mut world) = nodes[parent].world.clone() else {
            return false;
        };
        let action = nodes[i].action;
        let mut hurt = false;
        for _ in 0..self.repetitions {
            world.step(action);
            hurt |= world.events().damage.is_some();
            if !world.is_running() {
                break;
            }
        }
        // Below the bottom row nothing can hold Mario up any more: as good as dead.
        if matches!(world.status(), Status::Lost(_))
            || world.mario().y() > world.map().pixel_height()
        {
            return false;
        }
        let m = world.mario();
        let mut remaining = Self::remaining_ticks(&world, m.x(), m.vx());
        if hurt {
            remaining += DAMAGE_PENALTY - 100.0 * nodes[i].depth as f32;
        }
        let height_tiles = (world.map().pixel_height() - m.y()) / 16.0;
        remaining -= self.jump_reward * height_tiles;
        let banked = nodes[parent].banked + self.path_reward * height_tiles;
        remaining -= banked;
        if nodes[i].in_visited {
            remaining += VISITED_PENALTY;
        }
        let node = &mut nodes[i];
        node.remaining = Some(remaining);
        node.hurt = hurt;
        node.banked = banked;
        node.world = Some(world);
        true
    }

    /// One search from `world`; returns the plan to the best node found.
    fn search(&mut self, world: &World) -> Vec<Action> {
        self.searches += 1;
        let m = world.mario();
        let root_estimate = Self::remaining_ticks(world, m.x(), m.vx())
            - self.jump_reward * (world.map().pixel_height() - m.y()) / 16.0;
        let mut nodes = vec![Node {
            world: Some(world.clone()),
            parent: NO_PARENT,
            action: Action::NONE,
            elapsed: 0,
            depth: 0,
            estimated: root_estimate,
            remaining: None,
            hurt: false,
            in_visited: false,
            banked: 0.0,
        }];
        let mut open = BinaryHeap::new();
        let mut visited = Visited::default();
        self.add_children(&mut nodes, &mut open, 0);
        let start_x = m.x();
        let (mut best, mut furthest) = (0usize, 0usize);
        let mut current_good = false;
        let mut simulated = 0usize;
        while let Some(entry) = open.pop() {
            let far_enough = nodes[best].world.as_ref().is_some_and(|w| {
                w.status() == Status::Won
                    || (w.mario().x() - start_x >= self.horizon
                        && (w.mario().on_ground() || !self.land_first))
            });
            if (far_enough && current_good) || simulated >= self.budget {
                break;
            }
            let current = entry.node;
            current_good = false;
            if nodes[current].remaining.is_none() {
                simulated += 1;
                if !self.simulate(&mut nodes, current) {
                    continue;
                }
            }
            let Some(w) = nodes[current].world.as_ref() else {
                continue;
            };
            let (x, y) = (w.mario().x() as i32, w.mario().y() as i32);
            let elapsed = nodes[current].elapsed;
            let real = nodes[current].remaining();
            if !nodes[current].in_visited && visited.contains(x, y, elapsed) {
                let node = &mut nodes[current];
                node.in_visited = true;
                node.remaining = Some(real + VISITED_PENALTY);
                node.estimated = real + VISITED_PENALTY;
                open.push(Open {
                    priority: node.priority(),
                    node: current,
                });
            } else if real - nodes[current].estimated > 0.1 {
                nodes[current].estimated = real;
                open.push(Open {
                    priority: nodes[current].priority(),
                    node: current,
                });
            } else {
                current_good = true;
                visited.add(x, y, elapsed);
                self.add_children(&mut nodes, &mut open, current);
            }
            if current_good {
                if nodes[best].remaining() > nodes[current].remaining() {
                    best = current;
                }
                if nodes[current].x() > nodes[furthest].x() {
                    furthest = current;
                }
            }
        }
        self.simulated += simulated as u64;
        if nodes[best].x() - start_x < self.horizon && nodes[furthest].x() > nodes[best].x() + 20.0
        {
            best = furthest;
        }
        let mut plan = Vec::new();
        let mut node = best;
        self.replan_now = false;
        while node != 0 && node != NO_PARENT {
            for _ in 0..self.repetitions {
                plan.push(nodes[node].action);
            }
            self.replan_now |= nodes[node].hurt;
            node = nodes[node].parent;
        }
        plan.reverse();
        if plan.is_empty() {
            plan.extend(std::iter::repeat_n(
                Action::RUN_RIGHT,
                self.repetitions as usize,
            ));
        }
        plan
    }
}

impl Agent for AStarAgent {
    fn act(&mut self, world: &World) -> Action {
        if self.plan_pos >= self.plan.len()
            || self.since_replan >= self.replan_every
            || self.replan_now
        {
            self.plan = self.search(world);
            self.plan_pos = 0;
            self.since_replan = 0;
        }
        let action = self
            .plan
            .get(self.plan_pos)
            .copied()
            .unwrap_or(Action::RUN_RIGHT);
        self.plan_pos += 1;
        self.since_replan += 1;
        action
    }
}
