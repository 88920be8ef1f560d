//! DDPG and VS-DDPG course generators (rl-quality-diversity §5.1–5.2): the actor fills one
//! column (enemy HP, ATK, recovery rate) at a time; the critic values a column for a partly
//! filled course. Plain DDPG is rewarded only when the course is complete (its evaluation);
//! VS-DDPG rewards every step with the mean evaluation of [`VIRTUAL_COMPLETIONS`] virtual
//! completions of the course by the current actor (with its exploration noise).
//!
//! The thesis's networks (Table 5.2: convolutions of 256 filters, FC 128 × 3, replay 300,000,
//! 17,500 episodes on a GPU) are scaled to two CPU cores: two fully connected layers of
//! [`HIDDEN`] for each network, replay [`DdpgConfig::replay`], one gradient step every
//! [`DdpgConfig::train_every`] actions.
//!
//! [`ActorRl`] is an actor (DDPG, VS-DDPG, the supervised baseline) as a
//! [`Sequential`] generator deciding a whole column per step, so randomized initialization,
//! DAGP and virtual simulation (`studio_ml::rl`) apply to it. What every course network
//! shares lives in `network`.

use super::matrix::Structure;
use super::network::{Curve, Filling};
use candle_core::{Device, Tensor, D};
use candle_nn::{Optimizer, VarBuilder, VarMap};
use std::time::Instant;
use studio_core::rng::Rng;
use studio_ml::actor_critic::{
    play_episode, ActorCriticMaps, Batch, Exploration, Schedule, StepHooks,
};
use studio_ml::rl::{RlError, Sequential};
use studio_ml::Mlp;
use studio_ml::ReplayMemory;

pub use super::network::{
    features, input_len, mlp, place, random_start, value_of, DdpgProgress, HIDDEN,
};

/// Virtual completions per step in VS-DDPG (the thesis's 5).
pub const VIRTUAL_COMPLETIONS: usize = 5;

/// The actor: a course being filled → the next column's three values in [0, 1].
pub struct Actor {
    net: Mlp,
    structure: Structure,
}

impl Actor {
    /// Builds the actor; names under `vb` become the safetensors keys.
    ///
    /// # Errors
    /// A candle error when a weight is missing or has the wrong shape.
    pub fn new(structure: Structure, vb: VarBuilder) -> candle_core::Result<Self> {
        Ok(Self {
            net: mlp(input_len(structure), 3, vb)?,
            structure,
        })
    }

    pub(crate) fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        candle_nn::ops::sigmoid(&self.net.forward(x)?)
    }

    /// The structure the actor fills.
    pub fn structure(&self) -> Structure {
        self.structure
    }

    /// The device its weights are on.
    pub fn device(&self) -> Device {
        self.net.device()
    }

    /// The actor's column for each course being filled, each at its own next column.
    ///
    /// # Errors
    /// A candle error.
    pub fn act_each(
        &self,
        courses: &[(&[[f64; 3]], usize)],
        device: &Device,
    ) -> candle_core::Result<Vec<[f64; 3]>> {
        let mut x = Vec::with_capacity(courses.len() * input_len(self.structure));
        for (c, next) in courses {
            features(c, *next, &mut x);
        }
        let x = Tensor::from_vec(x, (courses.len(), input_len(self.structure)), device)?;
        let y = self.forward(&x)?.to_vec2::<f32>()?;
        Ok(y.into_iter()
            .map(|r| [f64::from(r[0]), f64::from(r[1]), f64::from(r[2])])
            .collect())
    }

    /// The actor's column for each of `courses` at column `next`.
    ///
    /// # Errors
    /// A candle error.
    pub fn act(
        &self,
        courses: &[Vec<[f64; 3]>],
        next: usize,
        device: &Device,
    ) -> candle_core::Result<Vec<[f64; 3]>> {
        let mut x = Vec::with_capacity(courses.len() * input_len(self.structure));
        for c in courses {
            features(c, next, &mut x);
        }
        let x = Tensor::from_vec(x, (courses.len(), input_len(self.structure)), device)?;
        let y = self.forward(&x)?.to_vec2::<f32>()?;
        Ok(y.into_iter()
            .map(|r| [f64::from(r[0]), f64::from(r[1]), f64::from(r[2])])
            .collect())
    }
}

/// The critic: a course being filled and a candidate column → its value. DDPG's critic
/// estimates the return; the supervised baseline's evaluator, the final evaluation.
pub struct Critic {
    net: Mlp,
    structure: Structure,
}

/// The var-builder prefix of a critic inside a model file.
pub const CRITIC_PREFIX: &str = "critic";

impl Critic {
    /// Builds the critic; names under `vb` become the safetensors keys.
    ///
    /// # Errors
    /// A candle error when a weight is missing or has the wrong shape.
    pub fn new(structure: Structure, vb: VarBuilder) -> candle_core::Result<Self> {
        Ok(Self {
            net: mlp(input_len(structure) + 3, 1, vb)?,
            structure,
        })
    }

    /// The device its weights are on.
    pub fn device(&self) -> Device {
        self.net.device()
    }

    pub(crate) fn forward(&self, state: &Tensor, action: &Tensor) -> candle_core::Result<Tensor> {
        self.net
            .forward(&Tensor::cat(&[state, action], D::Minus1)?)?
            .squeeze(D::Minus1)
    }

    /// The critic's value of each candidate column for `course` at column `next`.
    ///
    /// # Errors
    /// A candle error.
    pub fn values(
        &self,
        course: &[[f64; 3]],
        next: usize,
        actions: &[[f64; 3]],
        device: &Device,
    ) -> candle_core::Result<Vec<f64>> {
        let n_in = input_len(self.structure);
        let mut state = Vec::with_capacity(n_in);
        features(course, next, &mut state);
        let states: Vec<f32> = actions.iter().flat_map(|_| state.iter().copied()).collect();
        let acts: Vec<f32> = actions.iter().flat_map(|a| a.map(|v| v as f32)).collect();
        let states = Tensor::from_vec(states, (actions.len(), n_in), device)?;
        let acts = Tensor::from_vec(acts, (actions.len(), 3), device)?;
        Ok(self
            .forward(&states, &acts)?
            .to_vec1::<f32>()?
            .into_iter()
            .map(f64::from)
            .collect())
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct DdpgConfig {
    /// The course structure (9 or 12 events).
    pub structure: Structure,
    /// Episodes (one course each).
    pub episodes: usize,
    /// Virtual completions per step (0: plain DDPG; the thesis's VS-DDPG: 5).
    pub virtual_completions: usize,
    /// The virtual completions' Gaussian noise (`None`: the exploration noise of the
    /// episode, as the thesis's "current policy with an exploration policy").
    pub completion_noise: Option<f64>,
    /// Replay batch size.
    pub batch: usize,
    /// Transitions kept.
    pub replay: usize,
    /// Actor learning rate.
    pub actor_lr: f64,
    /// Critic learning rate.
    pub critic_lr: f64,
    /// Soft target update rate.
    pub tau: f64,
    /// Discount.
    pub gamma: f64,
    /// Gaussian exploration noise at the start and the end of its linear decay.
    pub noise: (f64, f64),
    /// The chance of a uniformly random column at the start and the end of its decay.
    pub epsilon: (f64, f64),
    /// Share of the episodes over which exploration decays.
    pub decay: f64,
    /// Actions per gradient step.
    pub train_every: usize,
    /// Random columns at the start of a training episode: uniform in this range (the
    /// thesis's 1–2).
    pub random_columns: (usize, usize),
    /// Seed.
    pub seed: u64,
}

impl DdpgConfig {
    /// Defaults scaled to two CPU cores.
    pub fn new(structure: Structure, virtual_completions: usize, seed: u64) -> Self {
        Self {
            structure,
            episodes: 6_000,
            virtual_completions,
            completion_noise: None,
            batch: 64,
            replay: 50_000,
            actor_lr: 1e-4,
            critic_lr: 1e-3,
            tau: 0.005,
            gamma: 0.9,
            noise: (0.3, 0.05),
            epsilon: (1.0, 0.1),
            decay: 0.5,
            train_every: 1,
            random_columns: (1, 2),
            seed,
        }
    }

    fn explore(&self, episode: usize) -> (f64, f64) {
        Exploration {
            noise: self.noise,
            epsilon: self.epsilon,
            decay: self.decay,
        }
        .at(episode, self.episodes)
    }
}

/// A trained actor and critic with their var maps.
pub struct Trained {
    /// The actor's weights.
    pub varmap: VarMap,
    /// The critic's weights (names under [`CRITIC_PREFIX`]).
    pub critic_varmap: VarMap,
    /// The actor.
    pub actor: Actor,
    /// The critic.
    pub critic: Critic,
    /// Mean evaluation per 50 episodes (the training curve).
    pub curve: Vec<f64>,
    /// Seconds of training.
    pub seconds: f64,
}

pub(crate) fn noisy(a: [f64; 3], sigma: f64, rng: &mut Rng) -> [f64; 3] {
    a.map(|v| (v + sigma * rng.normal()).clamp(0.0, 1.0))
}

/// Trains an actor (and its critic) from scratch on the shared actor-critic loop
/// ([`studio_ml::actor_critic`]); `report` hears progress every 50 episodes and may stop the
/// run by returning false.
///
/// # Errors
/// A candle error.
pub fn train(
    config: &DdpgConfig,
    report: &mut dyn FnMut(&DdpgProgress) -> bool,
) -> candle_core::Result<Trained> {
    let started = Instant::now();
    let device = studio_ml::device();
    let s = config.structure;
    let n_in = input_len(s);
    let maps = ActorCriticMaps::new();
    let [actor_vb, critic_vb, actor_target_vb, critic_target_vb] = maps.builders(&device);
    let actor = Actor::new(s, actor_vb)?;
    let critic = Critic::new(s, critic_vb.pp(CRITIC_PREFIX))?;
    let actor_target = Actor::new(s, actor_target_vb)?;
    let critic_target = Critic::new(s, critic_target_vb.pp(CRITIC_PREFIX))?;
    maps.start(config.seed)?;
    let (mut actor_opt, mut critic_opt) = maps.optimisers(config.actor_lr, config.critic_lr)?;
    let mut rng = Rng::derive(config.seed, 0xdd96);
    let mut memory = ReplayMemory::new(config.replay);
    let mut curve = Curve::new();
    let columns = s.columns();
    let schedule = Schedule {
        warm_up: config.batch * 4,
        every: config.train_every,
        updates: 1,
    };
    // A transition keeps the network's input: the matrix and the column to fill next.
    let store = |f: &Filling| {
        let mut x = Vec::with_capacity(n_in);
        features(&f.columns, f.next.min(columns - 1), &mut x);
        x
    };
    let stack = |states: &[&Vec<f32>], device: &Device| {
        let rows = states.len();
        Tensor::from_vec(
            states
                .iter()
                .flat_map(|x| x.iter().copied())
                .collect::<Vec<f32>>(),
            (rows, n_in),
            device,
        )
    };
    let gen = ActorRl::new(&actor, None);
    for episode in 0..config.episodes {
        let (sigma, epsilon) = config.explore(episode);
        let (lo, hi) = config.random_columns;
        let c = lo + rng.index(hi.saturating_sub(lo) + 1);
        let mut filling = Filling::at(random_start(s, c, &mut rng), c);
        play_episode(
            &gen,
            &mut filling,
            (sigma, epsilon),
            &mut rng,
            &mut memory,
            schedule,
            StepHooks {
                store: &store,
                reward: &mut |_, after, done, sigma, rng| {
                    if done {
                        Ok(value_of(&after.columns))
                    } else if config.virtual_completions > 0 {
                        let virt = studio_ml::rl::virtual_completions(
                            &gen,
                            after,
                            config.virtual_completions,
                            config.completion_noise.unwrap_or(sigma),
                            rng,
                        )
                        .map_err(candle_core::Error::wrap)?;
                        Ok(studio_ml::rl::virtual_reward(&gen, &virt))
                    } else {
                        Ok(0.0)
                    }
                },
                update: &mut |memory, rng| {
                    let batch = Batch::sample(memory, config.batch, rng, &device, stack)?;
                    let target_q = critic_target
                        .forward(&batch.nexts, &actor_target.forward(&batch.nexts)?)?
                        .detach();
                    let y = batch.targets(&target_q, config.gamma)?;
                    let q = critic.forward(&batch.states, &batch.actions)?;
                    critic_opt.backward_step(&(q - y)?.sqr()?.mean_all()?)?;
                    let actor_loss = critic
                        .forward(&batch.states, &actor.forward(&batch.states)?)?
                        .mean_all()?
                        .neg()?;
                    actor_opt.backward_step(&actor_loss)?;
                    maps.update_targets(config.tau)
                },
            },
        )?;
        if !curve.record(value_of(&filling.columns), episode, config.episodes, report) {
            break;
        }
    }
    Ok(Trained {
        varmap: maps.actor,
        critic_varmap: maps.critic,
        actor,
        critic,
        curve: curve.points,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Courses completed by `actor` from `starts` (their first `c` columns set), greedily.
///
/// # Errors
/// A candle error.
pub fn complete(
    actor: &Actor,
    starts: Vec<Vec<[f64; 3]>>,
    c: usize,
    device: &Device,
) -> candle_core::Result<Vec<Vec<[f64; 3]>>> {
    let mut courses = starts;
    let s = actor.structure;
    for k in c..s.columns() {
        let acts = actor.act(&courses, k, device)?;
        for (course, a) in courses.iter_mut().zip(acts) {
            place(s, course, k, a);
        }
    }
    Ok(courses)
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
