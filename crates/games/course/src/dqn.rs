//! The course DQN (rl-quality-diversity §5.1's DQN baseline): one parameter per step, 101
//! actions (the value in hundredths, 0.00–1.00). The episode's only reward is the finished
//! course's evaluation (γ = 1). Double-DQN targets, a target network synced every
//! [`DqnConfig::target_sync`] steps, ε-greedy with linear decay. Seeded. [`QRl`] is the
//! Q-network as a [`Sequential`] generator deciding one parameter per step.

use super::matrix::Structure;
use super::network::{
    copy, features, input_len, mlp, random_start, value_of, Curve, DdpgProgress, Filling,
};
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{AdamW, Optimizer, VarBuilder, VarMap};
use std::time::Instant;
use studio_core::rng::Rng;
use studio_ml::rl::{RlError, Sequential};
use studio_ml::ReplayMemory;

/// Actions: a parameter's value in hundredths.
pub const ACTIONS: usize = 101;
/// The var-builder prefix of the Q-network inside a model file.
pub const Q_PREFIX: &str = "q";

/// Input width: the course's features and a one-hot of the parameter being decided.
pub fn q_input_len(structure: Structure) -> usize {
    input_len(structure) + 3
}

fn q_features(f: &Filling, out: &mut Vec<f32>) {
    features(&f.columns, f.next, out);
    out.extend((0..3).map(|p| if p == f.param { 1.0f32 } else { 0.0 }));
}

/// The index of the largest value (the first on ties).
pub fn argmax(row: &[f32]) -> usize {
    let mut best = 0;
    for (i, v) in row.iter().enumerate() {
        if *v > row[best] {
            best = i;
        }
    }
    best
}

/// The Q-network: a course being filled → the value of each of the 101 actions.
pub struct CourseQ {
    net: studio_ml::Mlp,
    structure: Structure,
}

impl CourseQ {
    /// Builds the network; names under `vb` become the safetensors keys.
    ///
    /// # Errors
    /// A candle error when a weight is missing or has the wrong shape.
    pub fn new(structure: Structure, vb: VarBuilder) -> candle_core::Result<Self> {
        Ok(Self {
            net: mlp(q_input_len(structure), ACTIONS, vb)?,
            structure,
        })
    }

    /// The structure it fills.
    pub fn structure(&self) -> Structure {
        self.structure
    }

    /// The device its weights are on.
    pub fn device(&self) -> Device {
        self.net.device()
    }

    fn forward_states(&self, states: &[Filling], device: &Device) -> candle_core::Result<Tensor> {
        let n_in = q_input_len(self.structure);
        let mut x = Vec::with_capacity(states.len() * n_in);
        for s in states {
            q_features(s, &mut x);
        }
        self.net
            .forward(&Tensor::from_vec(x, (states.len(), n_in), device)?)
    }

    /// Q-values of every action for each state.
    ///
    /// # Errors
    /// A candle error.
    pub fn q_values(
        &self,
        states: &[Filling],
        device: &Device,
    ) -> candle_core::Result<Vec<Vec<f32>>> {
        self.forward_states(states, device)?.to_vec2::<f32>()
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct DqnConfig {
    /// The course structure.
    pub structure: Structure,
    /// Episodes (one course each).
    pub episodes: usize,
    /// Replay batch size.
    pub batch: usize,
    /// Transitions kept.
    pub replay: usize,
    /// AdamW learning rate.
    pub learning_rate: f64,
    /// ε at the start and the end of its linear decay.
    pub epsilon: (f64, f64),
    /// Share of the episodes over which ε decays.
    pub decay: f64,
    /// Steps between target-network syncs.
    pub target_sync: usize,
    /// Steps per gradient step.
    pub train_every: usize,
    /// Random columns at the start of an episode: uniform in this range (as DDPG).
    pub random_columns: (usize, usize),
    /// Seed.
    pub seed: u64,
}

impl DqnConfig {
    /// Defaults scaled to two CPU cores.
    pub fn new(structure: Structure, seed: u64) -> Self {
        Self {
            structure,
            episodes: 6_000,
            batch: 64,
            replay: 50_000,
            learning_rate: 5e-4,
            epsilon: (1.0, 0.05),
            decay: 0.6,
            target_sync: 500,
            train_every: 2,
            random_columns: (1, 2),
            seed,
        }
    }
}

struct Transition {
    state: Filling,
    action: u32,
    reward: f32,
    next: Filling,
    done: bool,
}

/// A trained Q-network.
pub struct TrainedQ {
    /// Its weights (names under [`Q_PREFIX`]).
    pub varmap: VarMap,
    /// The network.
    pub q: CourseQ,
    /// Mean evaluation per 50 episodes (with exploration).
    pub curve: Vec<f64>,
    /// Seconds of training.
    pub seconds: f64,
}

/// Trains a course DQN; `report` hears progress every 50 episodes and may stop the run.
///
/// # Errors
/// A candle error.
pub fn train(
    config: &DqnConfig,
    report: &mut dyn FnMut(&DdpgProgress) -> bool,
) -> candle_core::Result<TrainedQ> {
    let started = Instant::now();
    let device = studio_ml::device();
    let s = config.structure;
    let varmap = VarMap::new();
    let target_map = VarMap::new();
    let q = CourseQ::new(
        s,
        VarBuilder::from_varmap(&varmap, DType::F32, &device).pp(Q_PREFIX),
    )?;
    let target = CourseQ::new(
        s,
        VarBuilder::from_varmap(&target_map, DType::F32, &device).pp(Q_PREFIX),
    )?;
    studio_ml::seeded_init(&varmap, config.seed)
        .map_err(|e| candle_core::Error::Msg(e.to_string()))?;
    copy(&varmap, &target_map)?;
    let mut opt = studio_ml::adam(varmap.all_vars(), config.learning_rate)?;
    let mut rng = Rng::derive(config.seed, 0xd0c);
    let mut memory = ReplayMemory::new(config.replay);
    let mut steps = 0usize;
    let mut curve = Curve::new();
    let gen = QRl::new(&q);
    for episode in 0..config.episodes {
        let t = (episode as f64 / (config.decay * config.episodes as f64).max(1.0)).min(1.0);
        let epsilon = config.epsilon.0 + (config.epsilon.1 - config.epsilon.0) * t;
        let (lo, hi) = config.random_columns;
        let c = lo + rng.index(hi.saturating_sub(lo) + 1);
        let mut filling = Filling::at(random_start(s, c, &mut rng), c);
        while !gen.done(&filling) {
            let action = if rng.chance(epsilon) {
                gen.random_action(&filling, &mut rng)
            } else {
                gen.greedy(std::slice::from_ref(&filling))
                    .map_err(candle_core::Error::wrap)?[0]
            };
            let state = filling.clone();
            gen.apply(&mut filling, &action);
            let done = gen.done(&filling);
            let t = Transition {
                state,
                action: action as u32,
                reward: if done {
                    value_of(&filling.columns) as f32
                } else {
                    0.0
                },
                next: filling.clone(),
                done,
            };
            memory.push(t);
            steps += 1;
            if memory.len() >= config.batch * 4 && steps.is_multiple_of(config.train_every.max(1)) {
                learn(&q, &target, &mut opt, &memory, config, &mut rng, &device)?;
            }
            if steps.is_multiple_of(config.target_sync.max(1)) {
                copy(&varmap, &target_map)?;
            }
        }
        if !curve.record(value_of(&filling.columns), episode, config.episodes, report) {
            break;
        }
    }
    Ok(TrainedQ {
        varmap,
        q,
        curve: curve.points,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// One gradient step with Double-DQN targets and a Huber loss.
fn learn(
    q: &CourseQ,
    target: &CourseQ,
    opt: &mut AdamW,
    memory: &ReplayMemory<Transition>,
    config: &DqnConfig,
    rng: &mut Rng,
    device: &Device,
) -> candle_core::Result<()> {
    let batch: Vec<&Transition> = memory.sample(config.batch, rng);
    let b = batch.len();
    let states: Vec<Filling> = batch.iter().map(|t| t.state.clone()).collect();
    let nexts: Vec<Filling> = batch
        .iter()
        .map(|t| {
            // A finished course has no next decision: any state will do, `done` masks it.
            if t.done {
                t.state.clone()
            } else {
                t.next.clone()
            }
        })
        .collect();
    let best = q
        .forward_states(&nexts, device)?
        .detach()
        .argmax_keepdim(D::Minus1)?;
    let next_q = target
        .forward_states(&nexts, device)?
        .detach()
        .gather(&best, D::Minus1)?
        .squeeze(D::Minus1)?;
    let rewards = Tensor::from_vec(
        batch.iter().map(|t| t.reward).collect::<Vec<_>>(),
        b,
        device,
    )?;
    let not_done = Tensor::from_vec(
        batch
            .iter()
            .map(|t| if t.done { 0.0f32 } else { 1.0 })
            .collect::<Vec<_>>(),
        b,
        device,
    )?;
    let y = (rewards + (not_done * next_q)?)?;
    let actions = Tensor::from_vec(
        batch.iter().map(|t| t.action).collect::<Vec<u32>>(),
        (b, 1),
        device,
    )?;
    let taken = q
        .forward_states(&states, device)?
        .gather(&actions, D::Minus1)?
        .squeeze(D::Minus1)?;
    let diff = (taken - y)?;
    let abs = diff.abs()?;
    // Huber with δ = 1: ½x² inside, |x| − ½ outside.
    let quadratic = abs.clamp(0.0f32, 1.0f32)?;
    let linear = (&abs - &quadratic)?;
    let loss = ((quadratic.sqr()? * 0.5)? + linear)?.mean_all()?;
    opt.backward_step(&loss)
}

/// Courses completed greedily by `q` from `starts` (their first `c` columns set).
///
/// # Errors
/// A network failure, in words.
pub fn complete(
    q: &CourseQ,
    starts: Vec<Vec<[f64; 3]>>,
    c: usize,
) -> Result<Vec<Vec<[f64; 3]>>, studio_ml::rl::RlError> {
    let gen = QRl::new(q);
    let mut states: Vec<Filling> = starts.into_iter().map(|s| Filling::at(s, c)).collect();
    studio_ml::rl::complete(&gen, &mut states)?;
    Ok(states.into_iter().map(|s| s.columns).collect())
}

/// How many decisions the DQN takes on a course of `structure` from column `c`.
pub fn decisions(structure: Structure, c: usize) -> usize {
    (c..structure.columns())
        .map(|i| parameters(structure, i))
        .sum()
}

/// The parameters column `next` has: HP and ATK, and the recovery rate at a recovery event.
pub fn parameters(structure: Structure, next: usize) -> usize {
    if structure.recovers(next) {
        3
    } else {
        2
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
        Ok(q.iter().map(|row| argmax(row)).collect())
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
