//! DQN training on the solution-down environment: experience replay, a target network synced
//! periodically, ε-greedy with linear decay, Double-DQN targets and a Huber loss. Seeded:
//! same seed, same weights.

pub use super::env::greedy;
use super::env::{level_difficulty, random_episode, SolutionDownEnv, REWARD_SCALE};
use super::model::{self, DqnError, DqnSidecar, ARCHITECTURE};
use super::qnet::{batch_inputs, QNet, QNetShape};
use super::sequential::LongcatRl;
use crate::level::MAX_SIDE;
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{AdamW, Optimizer, VarBuilder, VarMap};
use std::path::PathBuf;
use std::time::Instant;
use studio_core::rng::Rng;
use studio_ml::ReplayMemory;

/// Training settings.
#[derive(Clone, Debug)]
pub struct DqnTrainConfig {
    /// Board width, in cells.
    pub width: usize,
    /// Board height, in cells.
    pub height: usize,
    /// Environment steps (one gradient step each once learning starts).
    pub steps: usize,
    /// Replay batch size.
    pub batch: usize,
    /// Transitions kept in the replay memory.
    pub replay: usize,
    /// AdamW learning rate.
    pub learning_rate: f64,
    /// ε (the chance of a random action) at the start of its linear decay.
    pub epsilon_start: f64,
    /// ε at the end of its decay and for the rest of the run.
    pub epsilon_end: f64,
    /// Share of the steps over which ε decays.
    pub epsilon_decay: f64,
    /// Steps between target-network syncs.
    pub target_sync: usize,
    /// Steps of pure exploration before learning.
    pub learn_start: usize,
    /// Environment steps per gradient step.
    pub train_every: usize,
    /// Virtual completions per step (0: the shipped training). With k > 0 a step's reward is
    /// the change in the mean difficulty of k completions of the level by the current network
    /// with its ε (virtual simulation), instead of the change in the difficulty of the level as
    /// if finished now; either way an episode's return is its finished level's difficulty.
    pub virtual_completions: usize,
    /// Seed.
    pub seed: u64,
    /// Name of the run: checkpoints go to `checkpoints/<stem>-step<N>.safetensors` every
    /// `checkpoint_every` steps.
    pub checkpoint: Option<PathBuf>,
    /// Environment steps between checkpoints.
    pub checkpoint_every: usize,
}

impl DqnTrainConfig {
    /// Defaults that train an 8×8 model in minutes on two cores.
    pub fn new(width: usize, height: usize, seed: u64) -> Self {
        Self {
            width,
            height,
            steps: 30_000,
            batch: 64,
            replay: 30_000,
            learning_rate: 5e-4,
            epsilon_start: 1.0,
            epsilon_end: 0.05,
            epsilon_decay: 0.6,
            target_sync: 500,
            learn_start: 1_000,
            train_every: 4,
            virtual_completions: 0,
            seed,
            checkpoint: None,
            checkpoint_every: 5_000,
        }
    }

    fn epsilon(&self, step: usize) -> f64 {
        let t = (step as f64 / (self.epsilon_decay * self.steps as f64).max(1.0)).min(1.0);
        self.epsilon_start + (self.epsilon_end - self.epsilon_start) * t
    }
}

/// Progress reported while training.
#[derive(Clone, Copy, Debug)]
pub struct DqnProgress {
    /// Environment steps done.
    pub step: usize,
    /// Environment steps in the run.
    pub steps: usize,
    /// Episodes finished so far.
    pub episodes: usize,
    /// The current ε.
    pub epsilon: f64,
    /// Mean final difficulty of the last 200 episodes.
    pub mean_difficulty: f64,
    /// Huber loss of the latest gradient step (0 before learning starts).
    pub loss: f64,
}

struct Transition {
    state: SolutionDownEnv,
    action: usize,
    reward: f32,
    next: SolutionDownEnv,
    done: bool,
}

/// Mask of free actions: 0 where free, −1e9 where blocked.
fn action_mask(env: &SolutionDownEnv) -> [f32; 4] {
    let mut m = [-1e9f32; 4];
    for d in env.free_actions() {
        m[d.index()] = 0.0;
    }
    m
}

/// Mean difficulty of `n` random solution-down levels.
pub fn random_mean_difficulty(width: usize, height: usize, n: usize, seed: u64) -> f64 {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| level_difficulty(&random_episode(width, height, &mut rng)))
        .sum::<f64>()
        / n.max(1) as f64
}

/// Trains a Q-network. `report` is called every few hundred steps and should return false to
/// cancel (the weights so far are returned).
///
/// # Errors
/// [`DqnError::BadParameter`] for a board that is not a Longcat board with room to move;
/// [`DqnError`] on tensor or file failures.
pub fn train(
    config: &DqnTrainConfig,
    report: &mut dyn FnMut(&DqnProgress) -> bool,
) -> Result<(VarMap, DqnSidecar), DqnError> {
    let (width, height) = (config.width, config.height);
    let bad_board = || {
        DqnError::BadParameter(format!(
            "{width}x{height} is not a Longcat board the cat can move on (sides 1 to 10, two cells or more)"
        ))
    };
    if width > MAX_SIDE || height > MAX_SIDE || width * height < 2 {
        return Err(bad_board());
    }
    let started = Instant::now();
    let device = studio_ml::device();
    let shape = QNetShape {
        width: config.width,
        height: config.height,
    };
    let varmap = VarMap::new();
    let net = QNet::new(shape, VarBuilder::from_varmap(&varmap, DType::F32, &device))?;
    studio_ml::seeded_init(&varmap, config.seed)
        .map_err(|e| DqnError::BadParameter(e.to_string()))?;
    let target_map = VarMap::new();
    let target = QNet::new(
        shape,
        VarBuilder::from_varmap(&target_map, DType::F32, &device),
    )?;
    let sync = |from: &VarMap, to: &VarMap| -> Result<(), DqnError> {
        let src = from
            .data()
            .lock()
            .map_err(|_| DqnError::BadParameter("poisoned var map".into()))?;
        let dst = to
            .data()
            .lock()
            .map_err(|_| DqnError::BadParameter("poisoned var map".into()))?;
        for (name, var) in src.iter() {
            if let Some(t) = dst.get(name) {
                t.set(var.as_tensor())?;
            }
        }
        Ok(())
    };
    sync(&varmap, &target_map)?;
    let mut opt = studio_ml::adam(varmap.all_vars(), config.learning_rate)?;

    let mut rng = Rng::derive(config.seed, 0xd9);
    let mut memory = ReplayMemory::new(config.replay);
    let mut env = SolutionDownEnv::random_start(config.width, config.height, &mut rng);
    // The potential whose change is a step's reward: the difficulty as if finished now, or
    // with virtual simulation the mean difficulty of the virtual completions.
    let potential = |env: &SolutionDownEnv, epsilon: f64, rng: &mut Rng| -> Result<f64, DqnError> {
        if config.virtual_completions == 0 || env.is_done() {
            return Ok(env.difficulty_now());
        }
        let gen = LongcatRl::new(&net, &device);
        let virt =
            studio_ml::rl::virtual_completions(&gen, env, config.virtual_completions, epsilon, rng)
                .map_err(|e| DqnError::BadParameter(e.to_string()))?;
        Ok(studio_ml::rl::virtual_reward(&gen, &virt))
    };
    let mut difficulty = potential(&env, config.epsilon(0), &mut rng)?;
    let mut recent: std::collections::VecDeque<f64> = std::collections::VecDeque::new();
    let (mut episodes, mut last_loss) = (0usize, 0.0f64);
    for step in 0..config.steps {
        let epsilon = config.epsilon(step);
        // A finished episode is replaced at once, and a fresh one on a board of two cells or
        // more has a move: `free` is never empty.
        let free = env.free_actions();
        let action = if rng.chance(epsilon) {
            free[rng.index(free.len())]
        } else {
            let q = net.q_values(&[&env], &device)?[0];
            greedy(&q, &env).ok_or_else(bad_board)?
        };
        let state = env.clone();
        env.advance(action);
        let after = potential(&env, epsilon, &mut rng)?;
        let reward = ((after - difficulty) / REWARD_SCALE) as f32;
        difficulty = after;
        let done = env.is_done();
        let transition = Transition {
            state,
            action: action.index(),
            reward,
            next: env.clone(),
            done,
        };
        memory.push(transition);
        if done {
            episodes += 1;
            recent.push_back(difficulty);
            if recent.len() > 200 {
                recent.pop_front();
            }
            env = SolutionDownEnv::random_start(config.width, config.height, &mut rng);
            difficulty = potential(&env, epsilon, &mut rng)?;
        }
        if step >= config.learn_start
            && memory.len() >= config.batch
            && step % config.train_every == 0
        {
            last_loss = learn(&net, &target, &mut opt, &memory, config, &mut rng, &device)?;
        }
        if step % config.target_sync == 0 {
            sync(&varmap, &target_map)?;
        }
        if let Some(path) = &config.checkpoint {
            if step > 0 && step % config.checkpoint_every == 0 {
                let side = sidecar(config, step, started, &recent, f64::NAN);
                let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("dqn");
                model::save(
                    &varmap,
                    &side,
                    &PathBuf::from("checkpoints").join(format!("{stem}-step{step}.safetensors")),
                )?;
            }
        }
        if step % 250 == 0 || step + 1 == config.steps {
            let p = DqnProgress {
                step: step + 1,
                steps: config.steps,
                episodes,
                epsilon,
                mean_difficulty: mean(&recent),
                loss: last_loss,
            };
            if !report(&p) {
                break;
            }
        }
    }
    let random = random_mean_difficulty(config.width, config.height, 2_000, config.seed ^ 0x5eed);
    Ok((
        varmap,
        sidecar(config, config.steps, started, &recent, random),
    ))
}

fn mean(v: &std::collections::VecDeque<f64>) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn sidecar(
    config: &DqnTrainConfig,
    steps: usize,
    started: Instant,
    recent: &std::collections::VecDeque<f64>,
    random: f64,
) -> DqnSidecar {
    DqnSidecar {
        architecture: ARCHITECTURE.into(),
        shape: QNetShape {
            width: config.width,
            height: config.height,
        },
        seed: config.seed,
        steps,
        train_seconds: started.elapsed().as_secs_f64(),
        final_mean_difficulty: mean(recent),
        random_mean_difficulty: random,
        virtual_completions: config.virtual_completions,
        command: if config.virtual_completions > 0 {
            format!(
                "level-studio train --model longcat-dqn --size {}x{} --seed {} --epochs {} --virtual-completions {} --out models/longcat-dqn-vs-{}x{}.safetensors",
                config.width, config.height, config.seed, config.steps, config.virtual_completions, config.width, config.height
            )
        } else {
            format!(
                "level-studio train --model longcat-dqn --size {}x{} --seed {} --epochs {} --out models/longcat-dqn-{}x{}.safetensors",
                config.width, config.height, config.seed, config.steps, config.width, config.height
            )
        },
        weights: None,
    }
}

/// One gradient step on a replay batch with Double-DQN targets (γ = 1: the return is the
/// final difficulty).
fn learn(
    net: &QNet,
    target: &QNet,
    opt: &mut AdamW,
    memory: &ReplayMemory<Transition>,
    config: &DqnTrainConfig,
    rng: &mut Rng,
    device: &Device,
) -> Result<f64, DqnError> {
    let picks: Vec<&Transition> = memory.sample(config.batch, rng);
    let states: Vec<&SolutionDownEnv> = picks.iter().map(|t| &t.state).collect();
    let nexts: Vec<&SolutionDownEnv> = picks.iter().map(|t| &t.next).collect();
    let shape = net.shape();
    let (sv, sh) = batch_inputs(&states, shape, device)?;
    let (nv, nh) = batch_inputs(&nexts, shape, device)?;
    let masks: Vec<f32> = nexts.iter().flat_map(|e| action_mask(e)).collect();
    let masks = Tensor::from_vec(masks, (config.batch, 4), device)?;
    let online_next = (net.forward(&nv, &nh)?.detach() + &masks)?;
    let best = online_next.argmax_keepdim(D::Minus1)?;
    let target_next = target
        .forward(&nv, &nh)?
        .detach()
        .gather(&best, 1)?
        .squeeze(1)?;
    let not_done: Vec<f32> = picks
        .iter()
        .map(|t| if t.done { 0.0 } else { 1.0 })
        .collect();
    let rewards: Vec<f32> = picks.iter().map(|t| t.reward).collect();
    let y = (Tensor::from_vec(rewards, config.batch, device)?
        + (target_next * Tensor::from_vec(not_done, config.batch, device)?)?)?;
    let actions: Vec<u32> = picks.iter().map(|t| t.action as u32).collect();
    let actions = Tensor::from_vec(actions, (config.batch, 1), device)?;
    let q = net.forward(&sv, &sh)?.gather(&actions, 1)?.squeeze(1)?;
    let diff = (q - y)?;
    let abs = diff.abs()?;
    // Huber loss with δ = 1.
    let quadratic = abs.clamp(0.0, 1.0)?;
    let linear = (&abs - &quadratic)?;
    let loss = ((quadratic.sqr()? * 0.5)? + linear)?.mean_all()?;
    opt.backward_step(&loss)?;
    Ok(loss.to_scalar::<f32>()? as f64)
}
