//! Virtual simulation with the actor frozen for the episode (rl-quality-diversity §4.2,
//! §6.6.1): the episode is played to its end first, then its 36 levels (five completions of
//! each of the seven steps before the last, and the level itself) are judged at once on
//! rayon's threads. Every completion draws its noise and its human-like trials from its own
//! stream, derived from (episode, step, completion), so the values are the same bit for bit
//! whatever the number of threads.
//!
//! What the judgements become ([`VsReward`]): by default (`Value`) a remembered step keeps
//! TD3's own reward (the rise of r_mono, the rest of the evaluation at the last step), which
//! depends on the levels alone, and the completions' mean discounted return is the value of
//! the step, Q(s, a), that the updates right after the episode learn beside the replay batch
//! and then forget. So no remembered reward depends on an actor that no longer exists. The
//! thesis's reward, the completions' mean kept in the replay memory, stays as `Mean`.

use super::model::state_tensor;
use super::{reward_of, Build, MarioRl};
use candle_core::{Device, Tensor};
use rayon::prelude::*;
use studio_core::rng::Rng;
use studio_ml::actor_critic::{Schedule, Transition};
use studio_ml::rl::{RlError, Sequential};
use studio_ml::ReplayMemory;

/// How VS-TD3 judges an episode's steps, and what a remembered step's reward is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VsReward {
    /// The actor frozen, its levels judged at once; a remembered step's reward is TD3's (the
    /// levels' alone), and the completions' mean return is the step's value, learnt by the
    /// updates after the episode and not remembered (a stationary memory).
    Value,
    /// The actor frozen, its levels judged at once; a step's reward is its completions' mean
    /// evaluation, kept in the memory (the thesis's reward; stale once the actor moves on).
    Mean,
    /// The earlier loop: each step judged as it is taken, by the actor of that moment (which
    /// learns between the steps of an episode); a step's reward is its completions' mean.
    /// Reproduces the actors trained before the frozen episode.
    Live,
}

impl VsReward {
    /// The names the command line takes, in order.
    pub const NAMES: [&'static str; 3] = ["value", "mean", "live"];

    /// The setting a name stands for.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "value" => Some(Self::Value),
            "mean" => Some(Self::Mean),
            "live" => Some(Self::Live),
            _ => None,
        }
    }
}

/// The stream the judgements' seeds come from (no other draw of a run uses it).
pub const JUDGE_STREAM: u64 = 0x75_d6e5;

/// One step of an episode: the level before it, the action and the level after it.
#[derive(Clone, Debug)]
pub struct Step {
    /// The level before the step.
    pub before: Build,
    /// The z the step took.
    pub action: [f64; 3],
    /// The level after the step.
    pub after: Build,
}

impl Step {
    /// Whether the step finished the level.
    pub fn done(&self, gen: &MarioRl<'_>) -> bool {
        gen.done(&self.after)
    }
}

/// Plays `build` to its end with the actor as it is: each step a random z with chance
/// `epsilon`, else the actor's z with Gaussian noise `sigma` (the draws of
/// `studio_ml::actor_critic::play_episode`, in its order).
///
/// # Errors
/// A network failure, in words.
pub fn play_frozen(
    gen: &MarioRl<'_>,
    build: &mut Build,
    (sigma, epsilon): (f64, f64),
    rng: &mut Rng,
) -> Result<Vec<Step>, RlError> {
    let mut steps = Vec::with_capacity(gen.length);
    while !gen.done(build) {
        let before = build.clone();
        let action = if rng.chance(epsilon) {
            gen.random_action(build, rng)
        } else {
            let greedy = gen.greedy(std::slice::from_ref(build))?;
            gen.noisy(
                build,
                greedy.first().copied().unwrap_or([0.5; 3]),
                sigma,
                rng,
            )
        };
        gen.apply(build, &action);
        steps.push(Step {
            before,
            action,
            after: build.clone(),
        });
    }
    Ok(steps)
}

/// The stream of completion `completion` of step `step` in `episode` of the run seeded `seed`.
pub fn judgement_rng(seed: u64, episode: usize, step: usize, completion: usize) -> Rng {
    let mut run = Rng::derive(seed ^ JUDGE_STREAM, episode as u64);
    let mut at_step = Rng::derive(run.next_u64(), step as u64);
    Rng::derive(at_step.next_u64(), completion as u64)
}

/// A judged completion: the finished level and its evaluation.
#[derive(Clone, Debug)]
pub struct Completion {
    /// The level as the completion finished it.
    pub build: Build,
    /// Its evaluation (`r_diff + r_mono`, 0 when A* cannot finish it).
    pub evaluation: f64,
}

/// A judged episode: for each step before the last, its completions; and the evaluation of
/// the level the episode made.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The completions of each step before the last, in step order.
    pub completions: Vec<Vec<Completion>>,
    /// The evaluation of the level the episode made.
    pub evaluation: f64,
}

/// r_mono of the first `n` patterns of `build` (as TD3's rewards read a level being built).
pub fn mono_of_first(build: &Build, n: usize) -> f64 {
    let mut first = build.clone();
    first.patterns.truncate(n);
    first.level().map_or(0.0, |l| crate::reward::r_mono(&l))
}

/// TD3's reward for the step that placed pattern `k` (0-based) of the finished `build` whose
/// evaluation is `evaluation`: the rise of r_mono, or at the last pattern the rest of the
/// evaluation, so the rewards add up to the evaluation less the r_mono of the start.
fn td3_reward(build: &Build, k: usize, evaluation: f64) -> f64 {
    let before = mono_of_first(build, k);
    if k + 1 >= build.patterns.len() {
        evaluation - before
    } else {
        mono_of_first(build, k + 1) - before
    }
}

impl Completion {
    /// The discounted return of TD3's rewards from the step that placed pattern `from`
    /// (0-based) to the end of the level: Q of that step under the completing policy.
    pub fn td3_return(&self, from: usize, gamma: f64) -> f64 {
        let mut total = 0.0;
        let mut weight = 1.0;
        for k in from..self.build.patterns.len() {
            total += weight * td3_reward(&self.build, k, self.evaluation);
            weight *= gamma;
        }
        total
    }
}

impl Judged {
    /// What the memory keeps as each step's reward: TD3's (`Value`) or the completions' mean
    /// (`Mean`, `Live`), and the evaluation at the last step (less the r_mono already paid,
    /// for `Value`).
    pub fn remembered_rewards(&self, steps: &[Step], mode: VsReward) -> Vec<f64> {
        let Some(last) = steps.last() else {
            return Vec::new();
        };
        steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let k = step.before.patterns.len();
                match (mode, i + 1 == steps.len()) {
                    (VsReward::Value, _) => td3_reward(&last.after, k, self.evaluation),
                    (_, true) => self.evaluation,
                    (_, false) => self.mean(i),
                }
            })
            .collect()
    }

    /// The value of each step before the last: its completions' mean discounted return of
    /// TD3's rewards (the value of the step, Q(s, a), under the frozen actor).
    pub fn values(&self, steps: &[Step], gamma: f64) -> Vec<f64> {
        self.completions
            .iter()
            .zip(steps)
            .map(|(completions, step)| {
                let from = step.before.patterns.len();
                completions
                    .iter()
                    .map(|c| c.td3_return(from, gamma))
                    .sum::<f64>()
                    / completions.len().max(1) as f64
            })
            .collect()
    }

    /// The completions' mean evaluation after step `step` (the thesis's virtual reward).
    pub fn mean(&self, step: usize) -> f64 {
        self.completions.get(step).map_or(0.0, |c| {
            c.iter().map(|c| c.evaluation).sum::<f64>() / c.len().max(1) as f64
        })
    }
}

/// Completes `after` with the actor and Gaussian noise `noise`, drawing from `rng` alone; the
/// finished level's trials are seeded from `rng` too.
fn complete_one(
    gen: &MarioRl<'_>,
    after: &Build,
    noise: f64,
    mut rng: Rng,
) -> Result<Build, RlError> {
    let mut build = after.clone();
    build.eval_seed = rng.next_u64();
    while !gen.done(&build) {
        let greedy = gen.greedy(std::slice::from_ref(&build))?;
        let a = gen.noisy(
            &build,
            greedy.first().copied().unwrap_or([0.5; 3]),
            noise,
            &mut rng,
        );
        gen.apply(&mut build, &a);
    }
    Ok(build)
}

/// Judges an episode played by [`play_frozen`] on the current rayon pool: `k` completions of
/// every step before the last (noise `noise`, streams from [`judgement_rng`]) and the level
/// itself (its own trials seed). The result does not depend on the number of threads.
///
/// # Errors
/// A network failure, in words.
pub fn judge(
    gen: &MarioRl<'_>,
    steps: &[Step],
    k: usize,
    noise: f64,
    (seed, episode): (u64, usize),
) -> Result<Judged, RlError> {
    let open = steps.iter().take_while(|s| !s.done(gen)).count();
    // One job per judgement: (step, completion), and the level itself as `None`.
    let jobs: Vec<Option<(usize, usize)>> = (0..open)
        .flat_map(|s| (0..k).map(move |c| Some((s, c))))
        .chain(std::iter::once(None))
        .collect();
    let judged: Vec<(Option<Build>, f64)> = jobs
        .par_iter()
        .map(|job| match job {
            Some((s, c)) => {
                let rng = judgement_rng(seed, episode, *s, *c);
                let build = complete_one(gen, &steps[*s].after, noise, rng)?;
                let evaluation = reward_of(&build);
                Ok((Some(build), evaluation))
            }
            None => Ok((None, steps.last().map_or(0.0, |s| reward_of(&s.after)))),
        })
        .collect::<Result<_, RlError>>()?;
    let mut completions = vec![Vec::with_capacity(k); open];
    let mut evaluation = 0.0;
    for (job, (build, e)) in jobs.iter().zip(judged) {
        match (job, build) {
            (Some((s, _)), Some(build)) => completions[*s].push(Completion {
                build,
                evaluation: e,
            }),
            _ => evaluation = e,
        }
    }
    Ok(Judged {
        completions,
        evaluation,
    })
}

/// The values of a frozen episode's steps before the last (`VsReward::Value`): the
/// completions' mean return as the target of Q(s, a), learnt beside the replay batch by the
/// updates right after the episode, never remembered.
pub(super) struct Fresh {
    pub(super) states: Tensor,
    pub(super) actions: Tensor,
    pub(super) values: Tensor,
}

impl Fresh {
    fn new(steps: &[Step], values: &[f64], device: &Device) -> candle_core::Result<Self> {
        let n = values.len();
        let states: Vec<Build> = steps.iter().take(n).map(|s| s.before.clone()).collect();
        let actions: Vec<f32> = steps
            .iter()
            .take(n)
            .flat_map(|s| s.action.map(|v| v as f32))
            .collect();
        Ok(Self {
            states: state_tensor(&states, device)?,
            actions: Tensor::from_vec(actions, (n, 3), device)?,
            values: Tensor::from_vec(
                values.iter().map(|&v| v as f32).collect::<Vec<f32>>(),
                n,
                device,
            )?,
        })
    }
}

/// One update, with the values of the episode just judged when there are any.
pub(super) type Learn<'a> =
    dyn FnMut(&Memory, &mut Rng, Option<&Fresh>) -> candle_core::Result<()> + 'a;

/// The replay memory of built levels.
type Memory = ReplayMemory<Transition<Build>>;

/// What judging an episode takes from the training settings (`Td3Config`'s fields of the
/// same names), handed down so that this module does not import the training loop's.
#[derive(Clone, Copy, Debug)]
pub(super) struct Judging {
    /// Virtual completions per step.
    pub virtual_completions: usize,
    /// The completions' action noise (`None`: the episode's exploration noise).
    pub completion_noise: Option<f64>,
    /// The discount of the completions' returns.
    pub gamma: f64,
    /// How a step's reward and value come from its completions.
    pub vs_reward: VsReward,
    /// The run's seed, from which each judgement's stream is derived.
    pub seed: u64,
}

/// One VS-TD3 episode with the actor frozen: played to its end, its levels judged at once on
/// the current rayon pool ([`judge`]), then each step remembered with its reward
/// ([`Judged::remembered_rewards`]) and the networks taught on `schedule`, as
/// `play_episode` would (with `VsReward::Value`, each update also learns the steps' values).
/// Returns the level's evaluation.
pub(super) fn frozen_episode(
    gen: &MarioRl<'_>,
    build: &mut Build,
    config: &Judging,
    (episode, sigma, epsilon): (usize, f64, f64),
    (rng, memory): (&mut Rng, &mut ReplayMemory<Transition<Build>>),
    schedule: Schedule,
    learn: &mut Learn<'_>,
) -> Result<f64, super::Td3Error> {
    let steps = play_frozen(gen, build, (sigma, epsilon), rng)?;
    let noise = config.completion_noise.unwrap_or(sigma);
    let judged = judge(
        gen,
        &steps,
        config.virtual_completions,
        noise,
        (config.seed, episode),
    )?;
    let fresh = match config.vs_reward {
        VsReward::Value => Some(Fresh::new(
            &steps,
            &judged.values(&steps, config.gamma),
            &studio_ml::device(),
        )?),
        VsReward::Mean | VsReward::Live => None,
    };
    let rewards = judged.remembered_rewards(&steps, config.vs_reward);
    for (step, reward) in steps.iter().zip(rewards) {
        let done = step.done(gen);
        memory.push(Transition {
            state: step.before.clone(),
            action: step.action.map(|v| v as f32),
            reward: reward as f32,
            next: step.after.clone(),
            done,
        });
        if memory.len() >= schedule.warm_up
            && memory.written().is_multiple_of(schedule.every.max(1))
        {
            for _ in 0..schedule.updates.max(1) {
                learn(memory, rng, fresh.as_ref())?;
            }
        }
    }
    Ok(judged.evaluation)
}
