//! The actor-critic training that every continuous-action generator shares (the course's DDPG
//! and VS-DDPG, Mario's TD3 and VS-TD3): the live and target networks' var maps and their
//! seeded start, the exploration schedule, replay transitions and batches, the temporal
//! difference target, and the episode loop over a [`Sequential`] generator. What differs
//! between the algorithms stays with the caller: the networks, the update, the rewards and
//! what a transition keeps of a state.

use crate::rl::Sequential;
use crate::ReplayMemory;
use candle_core::{DType, Device, Result, Tensor};
use candle_nn::{AdamW, VarBuilder, VarMap};
use studio_core::rng::Rng;

/// The live and target networks' weights: the actor's and the critics' (every critic of an
/// algorithm lives in the one critic map, under names of its own).
pub struct ActorCriticMaps {
    /// The actor being trained.
    pub actor: VarMap,
    /// The critic (or critics) being trained.
    pub critic: VarMap,
    /// The actor's slowly following copy.
    pub actor_target: VarMap,
    /// The critics' slowly following copy.
    pub critic_target: VarMap,
}

impl Default for ActorCriticMaps {
    fn default() -> Self {
        Self::new()
    }
}

impl ActorCriticMaps {
    /// Four empty var maps; build the networks on [`Self::builders`], then [`Self::start`].
    pub fn new() -> Self {
        Self {
            actor: VarMap::new(),
            critic: VarMap::new(),
            actor_target: VarMap::new(),
            critic_target: VarMap::new(),
        }
    }

    /// Builders over the actor, the critic, the actor's target and the critic's target, in
    /// that order.
    pub fn builders(&self, device: &Device) -> [VarBuilder<'static>; 4] {
        let vb = |m: &VarMap| VarBuilder::from_varmap(m, DType::F32, device);
        [
            vb(&self.actor),
            vb(&self.critic),
            vb(&self.actor_target),
            vb(&self.critic_target),
        ]
    }

    /// Seeds the live networks (the actor from `seed`, the critics from `seed ^ 0xc1`) and
    /// copies them into the targets.
    ///
    /// # Errors
    /// A poisoned var map or a tensor failure.
    pub fn start(&self, seed: u64) -> Result<()> {
        crate::seeded_init(&self.actor, seed)?;
        crate::seeded_init(&self.critic, seed ^ 0xc1)?;
        crate::soft_update(&self.actor, &self.actor_target, 1.0)?;
        crate::soft_update(&self.critic, &self.critic_target, 1.0)
    }

    /// Adam over the actor's and over the critics' weights.
    ///
    /// # Errors
    /// A poisoned var map or a bad learning rate.
    pub fn optimisers(&self, actor_lr: f64, critic_lr: f64) -> Result<(AdamW, AdamW)> {
        Ok((
            crate::adam(self.actor.all_vars(), actor_lr)?,
            crate::adam(self.critic.all_vars(), critic_lr)?,
        ))
    }

    /// Moves both targets a share `tau` towards the live networks.
    ///
    /// # Errors
    /// A poisoned var map or a tensor failure.
    pub fn update_targets(&self, tau: f64) -> Result<()> {
        crate::soft_update(&self.actor, &self.actor_target, tau)?;
        crate::soft_update(&self.critic, &self.critic_target, tau)
    }
}

/// Exploration that decays linearly over the first share of a run: Gaussian noise on the
/// actor's action, and the chance of a uniformly random action instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploration {
    /// The noise's standard deviation at the start and at the end of the decay.
    pub noise: (f64, f64),
    /// The chance of a random action at the start and at the end of the decay.
    pub epsilon: (f64, f64),
    /// The share of the episodes over which both decay.
    pub decay: f64,
}

impl Exploration {
    /// The noise and the chance of a random action in `episode` of a run of `episodes`.
    pub fn at(&self, episode: usize, episodes: usize) -> (f64, f64) {
        let t = (episode as f64 / (self.decay * episodes as f64).max(1.0)).min(1.0);
        (
            self.noise.0 + (self.noise.1 - self.noise.0) * t,
            self.epsilon.0 + (self.epsilon.1 - self.epsilon.0) * t,
        )
    }
}

/// One step remembered: what the caller keeps of the state before and after it, the action,
/// the reward and whether the level was finished.
#[derive(Clone, Debug)]
pub struct Transition<T> {
    /// The state the action was taken in.
    pub state: T,
    /// The action.
    pub action: [f32; 3],
    /// The reward.
    pub reward: f32,
    /// The state after the action.
    pub next: T,
    /// Whether the action finished the level.
    pub done: bool,
}

/// A replay batch as tensors.
pub struct Batch {
    /// The states, one row each.
    pub states: Tensor,
    /// The actions, `(size, 3)`.
    pub actions: Tensor,
    /// The rewards, `(size,)`.
    pub rewards: Tensor,
    /// The states after the actions.
    pub nexts: Tensor,
    /// 0 where the action finished the level, else 1.
    pub not_done: Tensor,
    /// Transitions in the batch.
    pub size: usize,
}

impl Batch {
    /// `size` transitions drawn uniformly from `memory` (one `rng.index` each, in order),
    /// their states stacked by `stack`.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn sample<T>(
        memory: &ReplayMemory<Transition<T>>,
        size: usize,
        rng: &mut Rng,
        device: &Device,
        stack: impl Fn(&[&T], &Device) -> Result<Tensor>,
    ) -> Result<Self> {
        let batch = memory.sample(size, rng);
        let size = batch.len();
        let states: Vec<&T> = batch.iter().map(|t| &t.state).collect();
        let nexts: Vec<&T> = batch.iter().map(|t| &t.next).collect();
        Ok(Self {
            states: stack(&states, device)?,
            actions: Tensor::from_vec(
                batch.iter().flat_map(|t| t.action).collect::<Vec<f32>>(),
                (size, 3),
                device,
            )?,
            rewards: Tensor::from_vec(
                batch.iter().map(|t| t.reward).collect::<Vec<f32>>(),
                size,
                device,
            )?,
            nexts: stack(&nexts, device)?,
            not_done: Tensor::from_vec(
                batch
                    .iter()
                    .map(|t| if t.done { 0.0f32 } else { 1.0 })
                    .collect::<Vec<f32>>(),
                size,
                device,
            )?,
            size,
        })
    }

    /// The temporal-difference target: the reward, plus `gamma` times `next_values` where the
    /// level goes on (`next_values` detached by the caller).
    ///
    /// # Errors
    /// A tensor failure.
    pub fn targets(&self, next_values: &Tensor, gamma: f64) -> Result<Tensor> {
        &self.rewards + (&self.not_done * next_values)?.affine(gamma, 0.0)?
    }
}

/// How often the networks learn: once `warm_up` transitions are remembered, `updates` updates
/// after every `every`-th transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Transitions remembered before the first update.
    pub warm_up: usize,
    /// Transitions between rounds of updates.
    pub every: usize,
    /// Updates per round.
    pub updates: usize,
}

/// A step's reward from the state before it, the state after it, whether it finished the
/// level and the episode's exploration noise.
pub type RewardHook<'a, S> = dyn FnMut(&S, &S, bool, f64, &mut Rng) -> Result<f64> + 'a;

/// One update of the networks from the memory.
pub type UpdateHook<'a, T> = dyn FnMut(&ReplayMemory<Transition<T>>, &mut Rng) -> Result<()> + 'a;

/// What an algorithm brings to [`play_episode`].
pub struct StepHooks<'a, S, T> {
    /// What a transition keeps of a state.
    pub store: &'a dyn Fn(&S) -> T,
    /// The reward of a step ([`RewardHook`]).
    pub reward: &'a mut RewardHook<'a, S>,
    /// One update of the networks ([`UpdateHook`]).
    pub update: &'a mut UpdateHook<'a, T>,
}

/// Plays one training episode from `state` to the end of the level: each step takes a random
/// action with chance `epsilon`, else the policy's own action with Gaussian noise `sigma`;
/// remembers the transition with its reward; and learns on `schedule`. Returns the last
/// step's reward (`None` when `state` was already finished).
///
/// # Errors
/// A network failure, or the hooks' own.
pub fn play_episode<G, T>(
    gen: &G,
    state: &mut G::State,
    (sigma, epsilon): (f64, f64),
    rng: &mut Rng,
    memory: &mut ReplayMemory<Transition<T>>,
    schedule: Schedule,
    hooks: StepHooks<'_, G::State, T>,
) -> Result<Option<f64>>
where
    G: Sequential<Action = [f64; 3]>,
{
    let mut last = None;
    while !gen.done(state) {
        let before = state.clone();
        let action = if rng.chance(epsilon) {
            gen.random_action(state, rng)
        } else {
            let greedy = gen
                .greedy(std::slice::from_ref(state))
                .map_err(candle_core::Error::wrap)?;
            let a = greedy.first().copied().unwrap_or([0.5; 3]);
            gen.noisy(state, a, sigma, rng)
        };
        gen.apply(state, &action);
        let done = gen.done(state);
        let reward = (hooks.reward)(&before, state, done, sigma, rng)?;
        memory.push(Transition {
            state: (hooks.store)(&before),
            action: action.map(|v| v as f32),
            reward: reward as f32,
            next: (hooks.store)(state),
            done,
        });
        last = Some(reward);
        if memory.len() >= schedule.warm_up
            && memory.written().is_multiple_of(schedule.every.max(1))
        {
            for _ in 0..schedule.updates.max(1) {
                (hooks.update)(memory, rng)?;
            }
        }
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rl::RlError;

    /// A level of three numbers in [0, 1]; the policy always says 0.5.
    struct Three;

    impl Sequential for Three {
        type State = Vec<f64>;
        type Action = [f64; 3];
        fn done(&self, s: &Vec<f64>) -> bool {
            s.len() == 3
        }
        fn random_action(&self, _: &Vec<f64>, rng: &mut Rng) -> [f64; 3] {
            [rng.unit(), 0.0, 0.0]
        }
        fn apply(&self, s: &mut Vec<f64>, a: &[f64; 3]) {
            s.push(a[0]);
        }
        fn greedy(&self, states: &[Vec<f64>]) -> std::result::Result<Vec<[f64; 3]>, RlError> {
            Ok(vec![[0.5, 0.0, 0.0]; states.len()])
        }
        fn values(
            &self,
            _: &Vec<f64>,
            actions: &[[f64; 3]],
        ) -> std::result::Result<Vec<f64>, RlError> {
            Ok(vec![0.0; actions.len()])
        }
        fn distance(&self, _: &Vec<f64>, a: &[f64; 3], b: &[f64; 3]) -> f64 {
            (a[0] - b[0]).abs()
        }
        fn noisy(&self, _: &Vec<f64>, a: [f64; 3], noise: f64, rng: &mut Rng) -> [f64; 3] {
            [(a[0] + noise * rng.normal()).clamp(0.0, 1.0), 0.0, 0.0]
        }
        fn score(&self, s: &Vec<f64>) -> f64 {
            s.iter().sum()
        }
    }

    #[test]
    fn exploration_decays_linearly_then_holds() {
        let e = Exploration {
            noise: (0.4, 0.0),
            epsilon: (1.0, 0.0),
            decay: 0.5,
        };
        assert_eq!(e.at(0, 100), (0.4, 1.0));
        let (sigma, epsilon) = e.at(25, 100);
        assert!((sigma - 0.2).abs() < 1e-12 && (epsilon - 0.5).abs() < 1e-12);
        assert_eq!(e.at(50, 100), (0.0, 0.0));
        assert_eq!(e.at(99, 100), (0.0, 0.0));
    }

    #[test]
    fn an_episode_remembers_every_step_and_learns_on_schedule() {
        let mut memory = ReplayMemory::new(100);
        let mut rng = Rng::new(3);
        let mut updates = Vec::new();
        let mut rewards = Vec::new();
        let schedule = Schedule {
            warm_up: 2,
            every: 2,
            updates: 3,
        };
        for _ in 0..2 {
            let mut state = Vec::new();
            let last = play_episode(
                &Three,
                &mut state,
                (0.1, 0.5),
                &mut rng,
                &mut memory,
                schedule,
                StepHooks {
                    store: &|s: &Vec<f64>| s.len(),
                    reward: &mut |_, after, done, _, _| {
                        let r = if done { Three.score(after) } else { 0.0 };
                        rewards.push(r);
                        Ok(r)
                    },
                    update: &mut |m, _| {
                        updates.push(m.written());
                        Ok(())
                    },
                },
            )
            .unwrap();
            assert_eq!(state.len(), 3);
            assert_eq!(last, Some(Three.score(&state)));
            assert!(state.iter().all(|v| (0.0..=1.0).contains(v)));
        }
        assert_eq!(memory.written(), 6);
        // Three updates after transitions 2, 4 and 6.
        assert_eq!(updates, [2, 2, 2, 4, 4, 4, 6, 6, 6]);
        assert_eq!(rewards.iter().filter(|&&r| r != 0.0).count(), 2);
        let t = memory.sample(1, &mut Rng::new(0))[0];
        assert_eq!(t.next, t.state + 1);
        assert_eq!(t.done, t.next == 3);
    }

    #[test]
    fn a_batch_stacks_states_and_targets_stop_at_the_end() {
        let mut memory = ReplayMemory::new(10);
        for (i, done) in [(0, false), (1, true)] {
            memory.push(Transition {
                state: i as f32,
                action: [0.1, 0.2, 0.3],
                reward: 1.0,
                next: i as f32 + 1.0,
                done,
            });
        }
        let stack = |s: &[&f32], d: &Device| {
            Tensor::from_vec(s.iter().map(|v| **v).collect::<Vec<f32>>(), (s.len(), 1), d)
        };
        let batch = Batch::sample(&memory, 8, &mut Rng::new(1), &Device::Cpu, stack).unwrap();
        assert_eq!(batch.size, 8);
        assert_eq!(batch.actions.dims(), [8, 3]);
        let states = batch
            .states
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        let nexts = batch.nexts.flatten_all().unwrap().to_vec1::<f32>().unwrap();
        let next_values = Tensor::full(10f32, 8, &Device::Cpu).unwrap();
        let y = batch
            .targets(&next_values, 0.5)
            .unwrap()
            .to_vec1::<f32>()
            .unwrap();
        for ((s, n), y) in states.iter().zip(&nexts).zip(&y) {
            assert_eq!(*n, s + 1.0);
            // 1 + 0.5 · 10 where the level goes on, the reward alone where it ended.
            assert_eq!(*y, if *s == 0.0 { 6.0 } else { 1.0 });
        }
    }
}
