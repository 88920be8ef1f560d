//! TD3 (Fujimoto et al.; rl-quality-diversity Table 6.3) for the Mario generator: twin critics
//! whose smaller target value is learnt, target policy smoothing, and actor and target updates
//! every [`Td3Config::policy_delay`] critic updates. Exploration is ε-greedy (a random z with
//! probability ε, decaying 0.5 → 0.1 over the first 30 % of the episodes, as the thesis) and
//! otherwise Gaussian noise on the actor's z (the thesis's OU noise has no use here: the steps
//! of an episode are different patterns, not a continuous control signal). VS-TD3 judges
//! every step before the last by [`super::VIRTUAL_COMPLETIONS`] completions by the actor with
//! the same noise ([`super::vs`]: the actor frozen for the episode, the judgements on rayon,
//! and what they become, [`VsReward`]).
//!
//! The defaults are the thesis's recipe ([`Td3Config::new`]); the faster one that trained the
//! actors before issue 66 is [`Td3Config::two_core`]. Every [`Td3Config::test_every`]
//! episodes a test phase makes [`Td3Config::test_levels`] levels greedily from fixed starts;
//! the actor with the best test mean is the one kept (and checkpointed as soon as it is found).

use super::model::{state_tensor, Actor, Critic};
pub use super::vs::VsReward;
use super::vs::{frozen_episode, Fresh, Judging};
use super::{reward_of, Build, MarioRl, RANDOM_START};
use crate::cgan::Generator;
use crate::patterns::PatLegal;
use candle_core::{DType, Tensor};
use candle_nn::{AdamW, Optimizer, VarBuilder, VarMap};
use std::time::Instant;
use studio_core::rng::Rng;
use studio_ml::actor_critic::{
    play_episode, ActorCriticMaps, Batch, Exploration, Schedule, StepHooks, Transition,
};
use studio_ml::rl::{randomize, virtual_completions};
use studio_ml::soft_update;
use studio_ml::ReplayMemory;

/// Training settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Td3Config {
    /// Episodes (one level each).
    pub episodes: usize,
    /// Virtual completions per step (0: TD3; VS-TD3: 5).
    pub virtual_completions: usize,
    /// The Gaussian noise on the virtual completions' z (`None`: the exploration noise of the
    /// episode, as the thesis).
    pub completion_noise: Option<f64>,
    /// Replay batch size (Table 6.3: 32).
    pub batch: usize,
    /// Transitions kept (Table 6.3: 40,000).
    pub replay: usize,
    /// Actor learning rate.
    pub actor_lr: f64,
    /// Critic learning rate.
    pub critic_lr: f64,
    /// Soft target update rate.
    pub tau: f64,
    /// Discount (Table 6.3: 0.99).
    pub gamma: f64,
    /// Gaussian exploration noise on z at the start and the end of its decay.
    pub noise: (f64, f64),
    /// ε at the start and the end of its decay (Table 6.3: 0.5 → 0.1).
    pub epsilon: (f64, f64),
    /// Share of the episodes over which exploration decays (Table 6.3: 30 %).
    pub decay: f64,
    /// Critic updates per actor update.
    pub policy_delay: usize,
    /// Steps (patterns placed) per training round.
    pub train_every: usize,
    /// Gradient updates per training round (1: one update every `train_every` steps).
    pub updates: usize,
    /// Target policy smoothing: noise on the target actor's z, and its clip.
    pub target_noise: (f64, f64),
    /// Episodes between test phases.
    pub test_every: usize,
    /// Levels per test phase.
    pub test_levels: usize,
    /// Also test the target actor (the live actor's soft-updated average, Polyak's) at each
    /// test phase, and keep it when it tests best.
    pub test_average: bool,
    /// Stop after this episode (with its test phase), the schedule still that of `episodes`:
    /// a run cut short the same way every time.
    pub stop_after: Option<usize>,
    /// How VS-TD3 judges its steps and what it remembers of the judgements.
    pub vs_reward: VsReward,
    /// Seed.
    pub seed: u64,
}

impl Td3Config {
    /// The thesis's recipe for TD3 (`virtual_completions` 0) or VS-TD3 (5): Table 6.3's
    /// learning rates (actor 5e-6, critics 5e-5), soft update 5e-5, batch 32, memory 40,000,
    /// discount 0.99 and ε 0.5 → 0.1 over 30 % of the episodes; one update per pattern placed
    /// (TD3's, Fujimoto et al. 2018, whom §6.3.2 adopts; Table 6.3 does not say); 30,000
    /// episodes for TD3 and 1,000 for VS-TD3, tested every 250 and 25 episodes (§6.6.1).
    pub fn new(virtual_completions: usize, seed: u64) -> Self {
        let vs = virtual_completions > 0;
        Self {
            episodes: if vs { 1_000 } else { 30_000 },
            virtual_completions,
            completion_noise: None,
            batch: 32,
            replay: 40_000,
            actor_lr: 5e-6,
            critic_lr: 5e-5,
            tau: 5e-5,
            gamma: 0.99,
            noise: (0.2, 0.05),
            epsilon: (0.5, 0.1),
            decay: 0.3,
            policy_delay: 2,
            train_every: 1,
            updates: 1,
            target_noise: (0.1, 0.25),
            test_every: if vs { 25 } else { 250 },
            test_levels: 25,
            test_average: false,
            stop_after: None,
            vs_reward: VsReward::Value,
            seed,
        }
    }

    /// The recipe scaled to two cores that trained the actors before issue 66: learning rates
    /// 1e-4 and 1e-3, soft update 0.005, one update every second pattern, 10,000 TD3 episodes,
    /// VS-TD3 tested every 75 and judged live (`VsReward::Live`). On the command line:
    /// `--actor-lr 0.0001 --critic-lr 0.001 --tau 0.005 --train-every 2` (TD3 `--epochs
    /// 10000`; VS-TD3 `--test-every 75 --vs-reward live`).
    pub fn two_core(virtual_completions: usize, seed: u64) -> Self {
        let vs = virtual_completions > 0;
        Self {
            episodes: if vs { 1_000 } else { 10_000 },
            actor_lr: 1e-4,
            critic_lr: 1e-3,
            tau: 0.005,
            train_every: 2,
            test_every: if vs { 75 } else { 250 },
            vs_reward: VsReward::Live,
            ..Self::new(virtual_completions, seed)
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

/// Progress while training.
#[derive(Clone, Copy, Debug)]
pub struct Td3Progress {
    /// Episodes done.
    pub episode: usize,
    /// Episodes in the run.
    pub episodes: usize,
    /// Mean evaluation of the last 50 levels made (with exploration).
    pub mean_evaluation: f64,
    /// Mean evaluation of the last test phase.
    pub test_evaluation: f64,
    /// Mean evaluation of the target actor's levels in the last test phase (with
    /// [`Td3Config::test_average`]).
    pub average_evaluation: Option<f64>,
    /// The best test mean so far, of either actor tested.
    pub best_test: f64,
    /// Whether the best so far is the target actor's.
    pub best_is_average: bool,
    /// Seconds so far.
    pub seconds: f64,
}

/// A trained actor and its first critic.
pub struct Trained {
    /// The kept actor's weights (under `actor`).
    pub actor_map: VarMap,
    /// The kept first critic's weights (under `critic`).
    pub critic_map: VarMap,
    /// Mean evaluation of every 50 training levels.
    pub curve: Vec<f64>,
    /// (episode, mean evaluation) of every test phase.
    pub test_curve: Vec<(usize, f64)>,
    /// The episode whose actor was kept and its test mean.
    pub best: (usize, f64),
    /// Whether the kept actor is the target actor (see [`Td3Config::test_average`]).
    pub kept_average: bool,
    /// (episode, mean evaluation) of the target actor at every test phase (with
    /// [`Td3Config::test_average`]; else empty).
    pub average_curve: Vec<(usize, f64)>,
    /// Seconds of training.
    pub seconds: f64,
}

/// r_mono of the patterns built so far (0 before the first).
fn mono_so_far(build: &Build) -> f64 {
    build.level().map_or(0.0, |l| crate::reward::r_mono(&l))
}

/// The rewards of finished levels, on the current rayon pool (each evaluation is seeded by its
/// level, so the result does not depend on the number of threads).
pub fn rewards(builds: &[Build]) -> Vec<f64> {
    use rayon::prelude::*;
    builds.par_iter().map(reward_of).collect()
}

/// The networks being trained and their targets.
struct Nets {
    maps: ActorCriticMaps,
    actor: Actor,
    q1: Critic,
    q2: Critic,
    actor_t: Actor,
    q1_t: Critic,
    q2_t: Critic,
}

impl Nets {
    fn new(seed: u64) -> candle_core::Result<Self> {
        let maps = ActorCriticMaps::new();
        let [a, c, a_t, c_t] = maps.builders(&studio_ml::device());
        let actor = Actor::new(a.pp("actor"))?;
        let q1 = Critic::new(c.pp("critic"))?;
        let q2 = Critic::new(c.pp("critic2"))?;
        let actor_t = Actor::new(a_t.pp("actor"))?;
        let q1_t = Critic::new(c_t.pp("critic"))?;
        let q2_t = Critic::new(c_t.pp("critic2"))?;
        maps.start(seed)?;
        Ok(Self {
            maps,
            actor,
            q1,
            q2,
            actor_t,
            q1_t,
            q2_t,
        })
    }
}

/// A copy of the actor's and the first critic's weights (the kept model).
/// A copy of the live actor and first critic, or (`average`) of their targets.
fn snapshot(nets: &Nets, average: bool) -> candle_core::Result<(VarMap, VarMap)> {
    let actor = VarMap::new();
    let critic = VarMap::new();
    let device = nets.actor.device();
    let vb = |m: &VarMap| VarBuilder::from_varmap(m, DType::F32, &device);
    Actor::new(vb(&actor).pp("actor"))?;
    Critic::new(vb(&critic).pp("critic"))?;
    let m = &nets.maps;
    let (a, c) = if average {
        (&m.actor_target, &m.critic_target)
    } else {
        (&m.actor, &m.critic)
    };
    soft_update(a, &actor, 1.0)?;
    soft_update(c, &critic, 1.0)?;
    Ok((actor, critic))
}

/// Mean evaluation of `count` levels made greedily by `actor` from the fixed test starts.
///
/// # Errors
/// A network failure, in words.
pub fn test_phase(
    cgan: &Generator,
    pat: &PatLegal,
    actor: &Actor,
    count: usize,
    seed: u64,
) -> Result<f64, studio_ml::rl::RlError> {
    let gen = MarioRl {
        cgan,
        pat,
        actor: Some(actor),
        critic: None,
        length: crate::patterns::LEVEL_PATTERNS,
    };
    let builds = super::make_levels(&gen, count, seed, super::Making::default())?;
    let r = rewards(&builds);
    Ok(r.iter().sum::<f64>() / r.len().max(1) as f64)
}

/// The reward of one step. The last step earns the level's evaluation: for TD3 less the
/// r_mono already paid, so an episode's rewards add up to the evaluation (0 when A* cannot
/// finish it). Before it, VS-TD3 pays the mean evaluation of its virtual completions, TD3 the
/// rise of r_mono with the new pattern (§4.2).
fn step_reward(
    gen: &MarioRl<'_>,
    config: &Td3Config,
    before: &Build,
    after: &Build,
    done: bool,
    sigma: f64,
    rng: &mut Rng,
) -> candle_core::Result<f64> {
    let vs = config.virtual_completions > 0;
    Ok(if done {
        reward_of(after) - if vs { 0.0 } else { mono_so_far(before) }
    } else if vs {
        let virt = virtual_completions(
            gen,
            after,
            config.virtual_completions,
            config.completion_noise.unwrap_or(sigma),
            rng,
        )
        .map_err(candle_core::Error::wrap)?;
        let r = rewards(&virt);
        r.iter().sum::<f64>() / r.len().max(1) as f64
    } else {
        mono_so_far(after) - mono_so_far(before)
    })
}

/// The seed stream of the test starts (never used for training episodes).
pub const TEST_STREAM: u64 = 0x7e57;

/// Trains an actor and twin critics from scratch. `report` hears progress after every test
/// phase and may stop the run by returning false; `checkpoint` gets the actor and critic
/// weights each time the test mean improves.
///
/// # Errors
/// A network failure, in words.
pub fn train(
    cgan: &Generator,
    pat: &PatLegal,
    config: &Td3Config,
    report: &mut dyn FnMut(&Td3Progress) -> bool,
    checkpoint: &mut dyn FnMut(
        &VarMap,
        &VarMap,
        &Td3Progress,
    ) -> Result<(), studio_ml::WeightsError>,
) -> Result<Trained, super::Td3Error> {
    let started = Instant::now();
    let nets = Nets::new(config.seed)?;
    let (mut actor_opt, mut critic_opt) =
        nets.maps.optimisers(config.actor_lr, config.critic_lr)?;
    let schedule = Schedule {
        warm_up: config.batch * 4,
        every: config.train_every,
        updates: config.updates,
    };
    let length = crate::patterns::LEVEL_PATTERNS;
    let mut rng = Rng::derive(config.seed, 0x7d3);
    let mut memory = ReplayMemory::new(config.replay);
    let mut updates = 0usize;
    let mut recent: std::collections::VecDeque<f64> = std::collections::VecDeque::new();
    let mut curve = Vec::new();
    let mut test_curve = Vec::new();
    let mut kept = snapshot(&nets, false)?;
    let mut best = (0usize, f64::NEG_INFINITY);
    let mut kept_average = false;
    let mut average_curve = Vec::new();
    let test_seed = config.seed ^ TEST_STREAM;
    let end = config
        .stop_after
        .map_or(config.episodes, |n| n.min(config.episodes));
    for episode in 0..end {
        let (sigma, epsilon) = config.explore(episode);
        let gen = MarioRl {
            cgan,
            pat,
            actor: Some(&nets.actor),
            critic: None,
            length,
        };
        let mut build = Build::start(pat, &mut rng);
        randomize(&gen, &mut build, RANDOM_START, &mut rng);
        let mut learn =
            |memory: &ReplayMemory<Transition<Build>>, rng: &mut Rng, fresh: Option<&Fresh>| {
                updates += 1;
                update(
                    &nets,
                    (memory, fresh),
                    config,
                    updates,
                    rng,
                    (&mut actor_opt, &mut critic_opt),
                )
            };
        let frozen = config.virtual_completions > 0 && config.vs_reward != VsReward::Live;
        let last = if frozen {
            let episode_at = (episode, sigma, epsilon);
            Some(frozen_episode(
                &gen,
                &mut build,
                &Judging {
                    virtual_completions: config.virtual_completions,
                    completion_noise: config.completion_noise,
                    gamma: config.gamma,
                    vs_reward: config.vs_reward,
                    seed: config.seed,
                },
                episode_at,
                (&mut rng, &mut memory),
                schedule,
                &mut learn,
            )?)
        } else {
            play_episode(
                &gen,
                &mut build,
                (sigma, epsilon),
                &mut rng,
                &mut memory,
                schedule,
                StepHooks {
                    store: &Build::clone,
                    reward: &mut |before, after, done, sigma, rng| {
                        step_reward(&gen, config, before, after, done, sigma, rng)
                    },
                    update: &mut |memory, rng| learn(memory, rng, None),
                },
            )?
        };
        if let Some(reward) = last {
            recent.push_back(reward);
            if recent.len() > 50 {
                recent.pop_front();
            }
        }
        if (episode + 1).is_multiple_of(50) {
            curve.push(recent.iter().sum::<f64>() / recent.len().max(1) as f64);
        }
        let last = episode + 1 == end;
        if (episode + 1).is_multiple_of(config.test_every.max(1)) || last {
            let test = test_phase(cgan, pat, &nets.actor, config.test_levels, test_seed)?;
            test_curve.push((episode + 1, test));
            let average = if config.test_average {
                let a = test_phase(cgan, pat, &nets.actor_t, config.test_levels, test_seed)?;
                average_curve.push((episode + 1, a));
                Some(a)
            } else {
                None
            };
            // The better of the two actors tested; the live one on a tie.
            let (score, is_average) = match average {
                Some(a) if a > test => (a, true),
                _ => (test, false),
            };
            let improved = score > best.1;
            if improved {
                best = (episode + 1, score);
                kept_average = is_average;
                kept = snapshot(&nets, is_average)?;
            }
            let progress = Td3Progress {
                episode: episode + 1,
                episodes: config.episodes,
                mean_evaluation: recent.iter().sum::<f64>() / recent.len().max(1) as f64,
                test_evaluation: test,
                average_evaluation: average,
                best_test: best.1,
                best_is_average: kept_average,
                seconds: started.elapsed().as_secs_f64(),
            };
            if improved {
                checkpoint(&kept.0, &kept.1, &progress)?;
            }
            if !report(&progress) {
                break;
            }
        }
    }
    Ok(Trained {
        actor_map: kept.0,
        critic_map: kept.1,
        curve,
        test_curve,
        best,
        kept_average,
        average_curve,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// One TD3 update from a replay batch: both critics towards the smaller target value (and
/// towards `fresh`'s values of the episode just judged, when given), and every
/// `policy_delay` updates the actor and the targets.
fn update(
    nets: &Nets,
    (memory, fresh): (&ReplayMemory<Transition<Build>>, Option<&Fresh>),
    config: &Td3Config,
    step: usize,
    rng: &mut Rng,
    (actor_opt, critic_opt): (&mut AdamW, &mut AdamW),
) -> candle_core::Result<()> {
    let device = nets.actor.device();
    let stack = |builds: &[&Build], device: &candle_core::Device| {
        state_tensor(
            &builds.iter().map(|b| (*b).clone()).collect::<Vec<_>>(),
            device,
        )
    };
    let batch = Batch::sample(memory, config.batch, rng, &device, stack)?;
    let b = batch.size;
    let (sd, clip) = config.target_noise;
    let noise: Vec<f32> = (0..b * 3)
        .map(|_| (sd * rng.normal()).clamp(-clip, clip) as f32)
        .collect();
    let next_a = (nets.actor_t.forward(&batch.nexts)? + Tensor::from_vec(noise, (b, 3), &device)?)?
        .clamp(0f32, 1f32)?;
    let target = nets
        .q1_t
        .forward(&batch.nexts, &next_a)?
        .minimum(&nets.q2_t.forward(&batch.nexts, &next_a)?)?
        .detach();
    let y = batch.targets(&target, config.gamma)?;
    let states = &batch.states;
    let l1 = (nets.q1.forward(states, &batch.actions)? - &y)?
        .sqr()?
        .mean_all()?;
    let l2 = (nets.q2.forward(states, &batch.actions)? - &y)?
        .sqr()?
        .mean_all()?;
    let mut loss = (l1 + l2)?;
    if let Some(f) = fresh {
        for q in [&nets.q1, &nets.q2] {
            let l = (q.forward(&f.states, &f.actions)? - &f.values)?
                .sqr()?
                .mean_all()?;
            loss = (loss + l)?;
        }
    }
    critic_opt.backward_step(&loss)?;
    if step.is_multiple_of(config.policy_delay.max(1)) {
        // dQ/dz at the actor's z, inverted near the cube's bounds, then pushed through the
        // actor: the actor's loss is −Σ z · g with g held fixed.
        let z = nets.actor.raw(states)?;
        let at = candle_core::Var::from_tensor(&z.detach().clamp(0f32, 1f32)?)?;
        let q = nets.q1.forward(states, at.as_tensor())?.sum_all()?;
        let gradient = q
            .backward()?
            .get(at.as_tensor())
            .cloned()
            .ok_or_else(|| candle_core::Error::Msg("no gradient on z".into()))?;
        let g = super::model::inverted_gradient(&gradient, &z.detach())?;
        let actor_loss = ((z * g)?.sum_all()? / b as f64)?.neg()?;
        actor_opt.backward_step(&actor_loss)?;
        nets.maps.update_targets(config.tau)?;
    }
    Ok(())
}
