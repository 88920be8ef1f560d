//! The Longcat DQN as a [`Sequential`] generator, so randomized initialization and virtual
//! simulation (`studio_ml::rl`) apply to it: a state is a solution-down episode, an action a
//! direction. DAGP keeps its own batched form in [`super::policy`], which measures a
//! candidate by the level it finishes as (cells apart) rather than by the action.

use super::env::{greedy, level_difficulty, SolutionDownEnv};
use super::qnet::QNet;
use crate::Direction;
use candle_core::Device;
use studio_core::rng::Rng;
use studio_ml::rl::{RlError, Sequential};

/// A Q-network walking solutions.
pub struct LongcatRl<'a> {
    net: &'a QNet,
    device: &'a Device,
}

impl<'a> LongcatRl<'a> {
    /// The generator of `net` on `device`.
    pub fn new(net: &'a QNet, device: &'a Device) -> Self {
        Self { net, device }
    }
}

fn random_free(env: &SolutionDownEnv, rng: &mut Rng) -> Direction {
    let free = env.free_actions();
    // A state that is not done has a free action; a done one is never asked.
    free.get(rng.index(free.len().max(1)))
        .copied()
        .unwrap_or(Direction::Up)
}

impl Sequential for LongcatRl<'_> {
    type State = SolutionDownEnv;
    type Action = Direction;

    fn done(&self, state: &SolutionDownEnv) -> bool {
        state.is_done()
    }

    fn random_action(&self, state: &SolutionDownEnv, rng: &mut Rng) -> Direction {
        random_free(state, rng)
    }

    fn apply(&self, state: &mut SolutionDownEnv, action: &Direction) {
        state.advance(*action);
    }

    fn greedy(&self, states: &[SolutionDownEnv]) -> Result<Vec<Direction>, RlError> {
        let refs: Vec<&SolutionDownEnv> = states.iter().collect();
        let q = self
            .net
            .q_values(&refs, self.device)
            .map_err(RlError::from)?;
        Ok(states
            .iter()
            .zip(q)
            .map(|(s, q)| greedy(&q, s).unwrap_or(Direction::Up))
            .collect())
    }

    fn values(&self, state: &SolutionDownEnv, actions: &[Direction]) -> Result<Vec<f64>, RlError> {
        let q = self
            .net
            .q_values(&[state], self.device)
            .map_err(RlError::from)?;
        Ok(actions.iter().map(|a| f64::from(q[0][a.index()])).collect())
    }

    fn distance(&self, _: &SolutionDownEnv, a: &Direction, b: &Direction) -> f64 {
        f64::from(u8::from(a != b))
    }

    /// ε-greedy: a random free direction with probability `noise`.
    fn noisy(
        &self,
        state: &SolutionDownEnv,
        action: Direction,
        noise: f64,
        rng: &mut Rng,
    ) -> Direction {
        if rng.chance(noise) {
            random_free(state, rng)
        } else {
            action
        }
    }

    fn score(&self, state: &SolutionDownEnv) -> f64 {
        level_difficulty(&state.finished_level())
    }
}
