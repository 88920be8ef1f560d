//! The solution-down process of Longcat as a step function for reinforcement learning.
//!
//! The agent walks a cat's solution one cell at a time; where the walk turns, the cell straight
//! ahead becomes a wall so that the cat stops there; when the head has no free neighbour the
//! episode ends and every cell the walk did not visit becomes a wall. The reward of a step is
//! the change in difficulty of the level as it would be if finished now, so an episode's
//! return is the finished level's difficulty (scaled by [`REWARD_SCALE`]). [`greedy`] reads
//! an episode's best free action off a network's Q-values.

use crate::level::MAX_SIDE;
use crate::LongcatGraph;
use crate::{Direction, LongcatLevel, PlayerModel, StateGraph};
use studio_core::rng::Rng;

/// Difficulty units per unit of reward (keeps Q-values near 1).
pub const REWARD_SCALE: f64 = 10.0;
/// States a reward's graph may have (a finished solution-down level has few).
const GRAPH_BUDGET: usize = 200_000;

/// One episode of the solution-down process on a `width × height` board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SolutionDownEnv {
    width: usize,
    height: usize,
    start: usize,
    head: usize,
    body: u128,
    walls: u128,
    heading: Option<Direction>,
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// Change in (scaled) difficulty of the level if finished now.
    pub reward: f64,
    /// True when the head has no free neighbour left.
    pub done: bool,
    /// False when the action pointed into a non-empty cell (nothing happened).
    pub moved: bool,
}

impl SolutionDownEnv {
    /// An episode starting at cell `start` (`y * width + x`).
    ///
    /// # Panics
    /// When the board is larger than Longcat's 10×10 or `start` is not on it.
    pub fn new(width: usize, height: usize, start: usize) -> Self {
        assert!(
            width <= MAX_SIDE && height <= MAX_SIDE && start < width * height,
            "cell {start} of a {width}x{height} board is not a Longcat start"
        );
        Self {
            width,
            height,
            start,
            head: start,
            body: 1u128 << start,
            walls: 0,
            heading: None,
        }
    }

    /// An episode whose start is drawn the way the random solution-down generator draws it.
    pub fn random_start(width: usize, height: usize, rng: &mut Rng) -> Self {
        Self::new(width, height, rng.index(width * height))
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The head's cell index.
    pub fn head(&self) -> usize {
        self.head
    }

    /// The direction of the last step, if any.
    pub fn heading(&self) -> Option<Direction> {
        self.heading
    }

    fn neighbour(&self, i: usize, d: Direction) -> Option<usize> {
        let (dx, dy) = d.delta();
        let x = (i % self.width) as i64 + dx as i64;
        let y = (i / self.width) as i64 + dy as i64;
        (x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height)
            .then(|| y as usize * self.width + x as usize)
    }

    fn is_free(&self, i: usize) -> bool {
        (self.body | self.walls) & (1u128 << i) == 0
    }

    /// The cell the head would enter with `d`, when that cell is free.
    pub fn target(&self, d: Direction) -> Option<usize> {
        self.neighbour(self.head, d).filter(|&n| self.is_free(n))
    }

    /// The actions that move the head, in [`Direction::ALL`] order.
    pub fn free_actions(&self) -> Vec<Direction> {
        Direction::ALL
            .into_iter()
            .filter(|&d| self.target(d).is_some())
            .collect()
    }

    /// True when the head has no free neighbour: the episode is over.
    pub fn is_done(&self) -> bool {
        Direction::ALL.iter().all(|&d| self.target(d).is_none())
    }

    /// Moves the head one cell without computing a reward; false (and no change) when the cell
    /// is not free.
    pub fn advance(&mut self, d: Direction) -> bool {
        let Some(next) = self.target(d) else {
            return false;
        };
        if let Some(previous) = self.heading.filter(|&p| p != d) {
            if let Some(ahead) = self.neighbour(self.head, previous) {
                if self.body & (1u128 << ahead) == 0 {
                    self.walls |= 1u128 << ahead;
                }
            }
        }
        self.head = next;
        self.body |= 1u128 << next;
        self.heading = Some(d);
        true
    }

    /// Takes an action and returns its reward: the change in scaled difficulty of the level
    /// as if finished now. An action into a non-empty cell does nothing (reward 0).
    pub fn step(&mut self, d: Direction) -> Step {
        let before = self.difficulty_now();
        let moved = self.advance(d);
        let reward = if moved {
            (self.difficulty_now() - before) / REWARD_SCALE
        } else {
            0.0
        };
        Step {
            reward,
            done: self.is_done(),
            moved,
        }
    }

    /// Walls of the level as if finished now: the turn walls plus every unvisited cell.
    pub fn finished_walls(&self) -> u128 {
        let full = if self.width * self.height == 128 {
            u128::MAX
        } else {
            (1u128 << (self.width * self.height)) - 1
        };
        self.walls | (full & !self.body)
    }

    /// The level as it would be if the episode ended now.
    // `new` keeps the board within 10×10 and the start on it, and the head goes over any wall
    // bit at its cell, so the level is always valid.
    #[allow(clippy::expect_used)]
    pub fn finished_level(&self) -> LongcatLevel {
        LongcatLevel::from_walls(self.width, self.height, self.finished_walls(), self.start)
            .expect("a solution-down board is a Longcat board")
    }

    /// Player-model difficulty of the level if finished now (0 for an unsolvable or too
    /// large graph, which the walk never produces).
    pub fn difficulty_now(&self) -> f64 {
        level_difficulty(&self.finished_level())
    }

    /// The observation: 3 planes (wall or outside, body, empty) of a `(2h−1) × (2w−1)` view
    /// centred on the head, written row-major into `out` (length [`Self::observation_len`]).
    pub fn observe(&self, out: &mut [f32]) {
        let (vw, vh) = (2 * self.width - 1, 2 * self.height - 1);
        let plane = vw * vh;
        out[..3 * plane].fill(0.0);
        let (hx, hy) = (
            (self.head % self.width) as i64,
            (self.head / self.width) as i64,
        );
        for vy in 0..vh {
            for vx in 0..vw {
                let x = hx + vx as i64 - (self.width as i64 - 1);
                let y = hy + vy as i64 - (self.height as i64 - 1);
                let k = vy * vw + vx;
                if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
                    out[k] = 1.0;
                    continue;
                }
                let bit = 1u128 << (y as usize * self.width + x as usize);
                if self.walls & bit != 0 {
                    out[k] = 1.0;
                } else if self.body & bit != 0 {
                    out[plane + k] = 1.0;
                } else {
                    out[2 * plane + k] = 1.0;
                }
            }
        }
    }

    /// Length of an observation.
    pub fn observation_len(width: usize, height: usize) -> usize {
        3 * (2 * width - 1) * (2 * height - 1)
    }

    /// The heading as 5 numbers (none, up, down, left, right), one of them 1.
    pub fn heading_features(&self) -> [f32; 5] {
        let mut f = [0.0; 5];
        f[self.heading.map_or(0, |d| d.index() + 1)] = 1.0;
        f
    }

    /// Number of cells in which the levels two episodes would finish as now differ (walls,
    /// and the cat's start cell): the diversity-aware policy's distance between levels.
    pub fn distance(&self, other: &Self) -> u32 {
        (self.finished_walls() ^ other.finished_walls()).count_ones()
            + u32::from(self.start != other.start)
    }
}

/// Player-model difficulty of a level; 0 when unsolvable or past the graph budget.
pub fn level_difficulty(level: &LongcatLevel) -> f64 {
    StateGraph::build(level, GRAPH_BUDGET)
        .ok()
        .and_then(|g| PlayerModel::of(&g).difficulty())
        .filter(|d| d.is_finite())
        .unwrap_or(0.0)
}

/// The best free action by Q-value.
pub fn greedy(q: &[f32; 4], env: &SolutionDownEnv) -> Option<Direction> {
    env.free_actions()
        .into_iter()
        .max_by(|a, b| q[a.index()].total_cmp(&q[b.index()]))
}

/// Plays an episode with uniformly random free actions, drawn exactly as the random
/// solution-down generator draws them, and returns the finished level.
pub fn random_episode(width: usize, height: usize, rng: &mut Rng) -> LongcatLevel {
    let mut env = SolutionDownEnv::random_start(width, height, rng);
    loop {
        let actions = env.free_actions();
        if actions.is_empty() {
            return env.finished_level();
        }
        env.advance(actions[rng.index(actions.len())]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators;

    #[test]
    fn random_actions_reproduce_the_random_solution_down_generator() {
        for seed in 0..300 {
            let a = random_episode(6, 5, &mut Rng::new(seed));
            let b = generators::solution_down(6, 5, &mut Rng::new(seed)).unwrap();
            assert_eq!(a, b, "seed {seed}");
        }
    }

    #[test]
    fn the_return_is_the_final_difficulty() {
        let mut rng = Rng::new(3);
        let mut env = SolutionDownEnv::random_start(5, 5, &mut rng);
        let mut total = 0.0;
        while !env.is_done() {
            let a = env.free_actions();
            total += env.step(a[rng.index(a.len())]).reward;
        }
        let final_difficulty = level_difficulty(&env.finished_level());
        assert!((total * REWARD_SCALE - final_difficulty).abs() < 1e-9);
    }

    #[test]
    fn an_action_into_a_filled_cell_does_nothing() {
        let mut env = SolutionDownEnv::new(3, 3, 0);
        let before = env.clone();
        let s = env.step(Direction::Up);
        assert!(!s.moved && s.reward == 0.0);
        assert_eq!(env, before);
        env.step(Direction::Right);
        let s = env.step(Direction::Left);
        assert!(!s.moved);
    }

    #[test]
    fn observation_is_centred_on_the_head() {
        let env = SolutionDownEnv::new(3, 3, 0);
        let mut obs = vec![0.0; SolutionDownEnv::observation_len(3, 3)];
        env.observe(&mut obs);
        // View 5x5 with the head at its centre (2,2): body plane there.
        assert_eq!(obs[25 + 2 * 5 + 2], 1.0);
        // Left of the head is outside the board: the wall plane.
        assert_eq!(obs[2 * 5 + 1], 1.0);
        // Right of the head is empty.
        assert_eq!(obs[50 + 2 * 5 + 3], 1.0);
    }
}
