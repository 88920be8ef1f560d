//! The course generators as [`Sequential`] generators, so randomized initialization, DAGP and
//! virtual simulation (`studio_ml::rl`) apply to them: an actor (DDPG, VS-DDPG, the supervised
//! baseline) decides a whole column per step, the DQN one parameter per step.

use super::ddpg::{noisy, place, value_of, Actor, Critic};
use super::dqn::{CourseQ, ACTIONS};
use super::matrix::Structure;
use studio_core::rng::Rng;
use studio_ml::rl::{RlError, Sequential};

/// A course being filled: its columns, the column being decided and, for the DQN, the
/// parameter of that column (0 HP, 1 ATK, 2 recovery).
#[derive(Clone, Debug, PartialEq)]
pub struct Filling {
    /// The matrix; columns from `next` on are still zero.
    pub columns: Vec<[f64; 3]>,
    /// The column being decided.
    pub next: usize,
    /// The parameter being decided (the DQN only; actors decide a column at once).
    pub param: usize,
}

impl Filling {
    /// A course whose columns before `next` are decided.
    pub fn at(columns: Vec<[f64; 3]>, next: usize) -> Self {
        Self {
            columns,
            next,
            param: 0,
        }
    }

    fn done(&self) -> bool {
        self.next >= self.columns.len()
    }
}

/// An actor (with its critic, when the model has one) as a sequential generator.
pub struct ActorRl<'a> {
    actor: &'a Actor,
    critic: Option<&'a Critic>,
}

impl<'a> ActorRl<'a> {
    /// The generator of `actor`; DAGP needs `critic`.
    pub fn new(actor: &'a Actor, critic: Option<&'a Critic>) -> Self {
        Self { actor, critic }
    }

    fn structure(&self) -> Structure {
        self.actor.structure()
    }
}

impl Sequential for ActorRl<'_> {
    type State = Filling;
    type Action = [f64; 3];

    fn done(&self, state: &Filling) -> bool {
        state.done()
    }

    fn random_action(&self, _: &Filling, rng: &mut Rng) -> [f64; 3] {
        [rng.unit(), rng.unit(), rng.unit()]
    }

    fn apply(&self, state: &mut Filling, action: &[f64; 3]) {
        place(self.structure(), &mut state.columns, state.next, *action);
        state.next += 1;
    }

    fn greedy(&self, states: &[Filling]) -> Result<Vec<[f64; 3]>, RlError> {
        let batch: Vec<(&[[f64; 3]], usize)> = states
            .iter()
            .map(|s| (s.columns.as_slice(), s.next))
            .collect();
        self.actor
            .act_each(&batch, &self.actor.device())
            .map_err(RlError::from)
    }

    fn values(&self, state: &Filling, actions: &[[f64; 3]]) -> Result<Vec<f64>, RlError> {
        let critic = self.critic.ok_or_else(|| {
            RlError::Refused(
                "this model has no critic, and DAGP chooses by the critic's values: retrain it"
                    .into(),
            )
        })?;
        critic
            .values(&state.columns, state.next, actions, &critic.device())
            .map_err(RlError::from)
    }

    /// Euclidean distance over the parameters the column has (recovery only at a recovery
    /// event).
    fn distance(&self, state: &Filling, a: &[f64; 3], b: &[f64; 3]) -> f64 {
        let n = if self.structure().recovers(state.next) {
            3
        } else {
            2
        };
        (0..n).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
    }

    fn noisy(&self, _: &Filling, action: [f64; 3], noise: f64, rng: &mut Rng) -> [f64; 3] {
        noisy(action, noise, rng)
    }

    fn score(&self, state: &Filling) -> f64 {
        value_of(&state.columns)
    }
}

/// The course DQN as a sequential generator: an action is a parameter's value in hundredths.
pub struct QRl<'a> {
    q: &'a CourseQ,
}

impl<'a> QRl<'a> {
    /// The generator of `q`.
    pub fn new(q: &'a CourseQ) -> Self {
        Self { q }
    }
}

/// The parameters column `next` has: HP and ATK, and the recovery rate at a recovery event.
pub fn parameters(structure: Structure, next: usize) -> usize {
    if structure.recovers(next) {
        3
    } else {
        2
    }
}

impl Sequential for QRl<'_> {
    type State = Filling;
    type Action = usize;

    fn done(&self, state: &Filling) -> bool {
        state.done()
    }

    fn random_action(&self, _: &Filling, rng: &mut Rng) -> usize {
        rng.index(ACTIONS)
    }

    fn apply(&self, state: &mut Filling, action: &usize) {
        let structure = self.q.structure();
        state.columns[state.next][state.param] = (*action).min(ACTIONS - 1) as f64 / 100.0;
        state.param += 1;
        if state.param >= parameters(structure, state.next) {
            state.param = 0;
            state.next += 1;
        }
    }

    fn greedy(&self, states: &[Filling]) -> Result<Vec<usize>, RlError> {
        let q = self
            .q
            .q_values(states, &self.q.device())
            .map_err(RlError::from)?;
        Ok(q.iter().map(|row| super::dqn::argmax(row)).collect())
    }

    fn values(&self, state: &Filling, actions: &[usize]) -> Result<Vec<f64>, RlError> {
        let q = self
            .q
            .q_values(std::slice::from_ref(state), &self.q.device())
            .map_err(RlError::from)?;
        Ok(actions
            .iter()
            .map(|&a| f64::from(q[0][a.min(ACTIONS - 1)]))
            .collect())
    }

    fn distance(&self, _: &Filling, a: &usize, b: &usize) -> f64 {
        a.abs_diff(*b) as f64 / 100.0
    }

    /// ε-greedy: a random value with probability `noise`.
    fn noisy(&self, _: &Filling, action: usize, noise: f64, rng: &mut Rng) -> usize {
        if rng.chance(noise) {
            rng.index(ACTIONS)
        } else {
            action
        }
    }

    fn score(&self, state: &Filling) -> f64 {
        value_of(&state.columns)
    }
}
