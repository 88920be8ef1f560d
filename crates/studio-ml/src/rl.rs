//! Quality and diversity for any step-by-step RL generator (rl-quality-diversity §4.2–4.3),
//! written once over [`Sequential`]: randomized initialization (the first c decisions random),
//! the diversity-aware greedy policy (DAGP: at a noise step, draw n random actions, keep those
//! farther than d from the greedy one, take the one the critic values most, greedy when none
//! is left) and virtual simulation (a step's reward is the mean score of k noisy completions).
//!
//! The column actors (DDPG, VS-DDPG, the supervised baseline), the column DQN and the walk
//! DQN implement it.

use studio_core::rng::Rng;

/// Why a step-by-step generator could not go on.
#[derive(Debug, thiserror::Error)]
pub enum RlError {
    /// A network failed.
    #[error(transparent)]
    Network(#[from] candle_core::Error),
    /// DAGP's settings are unreadable or out of range, in words (a bad request).
    #[error("{0}")]
    Settings(String),
    /// The policy cannot answer what it was asked (a values query to a policy without a
    /// critic), in words.
    #[error("{0}")]
    Refused(String),
}

/// A generator that builds a level one decision at a time.
pub trait Sequential {
    /// A level being built.
    type State: Clone;
    /// One decision.
    type Action: Clone;

    /// True when nothing is left to decide.
    fn done(&self, state: &Self::State) -> bool;
    /// A uniformly random action for a state that is not done.
    fn random_action(&self, state: &Self::State, rng: &mut Rng) -> Self::Action;
    /// Takes an action.
    fn apply(&self, state: &mut Self::State, action: &Self::Action);
    /// The policy's own action for each state (none of them done), in one batch.
    ///
    /// # Errors
    /// [`RlError::Network`] when the network fails.
    fn greedy(&self, states: &[Self::State]) -> Result<Vec<Self::Action>, RlError>;
    /// The critic's value of each action in `state` (DAGP's choice among far actions).
    ///
    /// # Errors
    /// [`RlError::Network`] when the network fails, [`RlError::Refused`] for a policy
    /// without a critic.
    fn values(&self, state: &Self::State, actions: &[Self::Action]) -> Result<Vec<f64>, RlError>;
    /// How far apart two actions in `state` are (DAGP's distance).
    fn distance(&self, state: &Self::State, a: &Self::Action, b: &Self::Action) -> f64;
    /// The greedy action disturbed by exploration noise of strength `noise` (virtual
    /// completions play this way).
    fn noisy(
        &self,
        state: &Self::State,
        action: Self::Action,
        noise: f64,
        rng: &mut Rng,
    ) -> Self::Action;
    /// The quality of a finished level (an evaluation, a board's difficulty).
    fn score(&self, state: &Self::State) -> f64;
}

/// Takes up to `c` random decisions in `state` (randomized initialization).
pub fn randomize<G: Sequential>(gen: &G, state: &mut G::State, c: usize, rng: &mut Rng) {
    for _ in 0..c {
        if gen.done(state) {
            return;
        }
        let a = gen.random_action(state, rng);
        gen.apply(state, &a);
    }
}

/// Finishes every state with the policy, in lock-step batches.
///
/// # Errors
/// [`RlError::Network`] when the network fails.
pub fn complete<G: Sequential>(gen: &G, states: &mut [G::State]) -> Result<(), RlError> {
    complete_with(gen, states, |_, _, a| a)
}

/// Finishes every state, asking the policy for a batch of actions each round and passing each
/// through `choose(index, state, greedy action)`.
fn complete_with<G: Sequential>(
    gen: &G,
    states: &mut [G::State],
    mut choose: impl FnMut(usize, &G::State, G::Action) -> G::Action,
) -> Result<(), RlError> {
    loop {
        let active: Vec<usize> = (0..states.len())
            .filter(|&i| !gen.done(&states[i]))
            .collect();
        if active.is_empty() {
            return Ok(());
        }
        let batch: Vec<G::State> = active.iter().map(|&i| states[i].clone()).collect();
        let actions = gen.greedy(&batch)?;
        for (&i, a) in active.iter().zip(actions) {
            let a = choose(i, &states[i], a);
            gen.apply(&mut states[i], &a);
        }
    }
}

/// DAGP's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dagp {
    /// Random candidate actions drawn at a noise step.
    pub n: usize,
    /// A candidate counts only when it is farther than this from the greedy action.
    pub d: f64,
    /// The chance that a step is a noise step (the thesis sets every step after the
    /// randomized ones to noise: 1).
    pub p: f64,
}

impl Dagp {
    /// Parses `n,d` or `n,d,p` (noise rate `p`, default 1: every step).
    ///
    /// # Errors
    /// [`RlError::Settings`]: the text and what it should look like.
    pub fn parse(text: &str) -> Result<Self, RlError> {
        let bad = || {
            RlError::Settings(format!(
                "{text:?} is not \"n,d\" or \"n,d,p\" (e.g. 10,0.4)"
            ))
        };
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if !(2..=3).contains(&parts.len()) {
            return Err(bad());
        }
        let n: usize = parts[0].parse().map_err(|_| bad())?;
        let d: f64 = parts[1].parse().map_err(|_| bad())?;
        let p: f64 = match parts.get(2) {
            Some(p) => p.parse().map_err(|_| bad())?,
            None => 1.0,
        };
        let dagp = Self { n, d, p };
        dagp.check()?;
        Ok(dagp)
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// [`RlError::Settings`]: the setting out of range, in words.
    pub fn check(&self) -> Result<(), RlError> {
        let out = |message: String| Err(RlError::Settings(message));
        if self.n == 0 || self.n > 1_000 {
            return out(format!("DAGP draws 1 to 1000 candidates, not {}", self.n));
        }
        if !self.d.is_finite() || self.d < 0.0 {
            return out(format!("DAGP's distance must be 0 or more, not {}", self.d));
        }
        if !(0.0..=1.0).contains(&self.p) {
            return out(format!(
                "DAGP's noise rate is a chance in 0..1, not {}",
                self.p
            ));
        }
        Ok(())
    }
}

/// DAGP's choice in `state` given the greedy action: among `n` random actions farther than
/// `d` from it, the one the critic values most; the greedy action when none is far enough.
///
/// # Errors
/// [`RlError::Network`] when the critic fails.
pub fn dagp_choice<G: Sequential>(
    gen: &G,
    state: &G::State,
    greedy: G::Action,
    dagp: Dagp,
    rng: &mut Rng,
) -> Result<G::Action, RlError> {
    let far: Vec<G::Action> = (0..dagp.n)
        .map(|_| gen.random_action(state, rng))
        .filter(|a| gen.distance(state, a, &greedy) > dagp.d)
        .collect();
    if far.is_empty() {
        return Ok(greedy);
    }
    let values = gen.values(state, &far)?;
    let best = values
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i);
    Ok(far[best].clone())
}

/// Finishes every state with DAGP; state `i` draws from `rngs[i]`.
///
/// # Errors
/// [`RlError::Network`] when the network fails.
pub fn complete_dagp<G: Sequential>(
    gen: &G,
    states: &mut [G::State],
    dagp: Dagp,
    rngs: &mut [Rng],
) -> Result<(), RlError> {
    let mut failure = None;
    complete_with(gen, states, |i, s, greedy| {
        if !rngs[i].chance(dagp.p) {
            return greedy;
        }
        match dagp_choice(gen, s, greedy.clone(), dagp, &mut rngs[i]) {
            Ok(a) => a,
            Err(e) => {
                failure = Some(e);
                greedy
            }
        }
    })?;
    failure.map_or(Ok(()), Err)
}

/// `k` virtual completions of `state` by the policy with exploration noise `noise`.
///
/// # Errors
/// [`RlError::Network`] when the network fails.
pub fn virtual_completions<G: Sequential>(
    gen: &G,
    state: &G::State,
    k: usize,
    noise: f64,
    rng: &mut Rng,
) -> Result<Vec<G::State>, RlError> {
    let mut virt = vec![state.clone(); k];
    complete_with(gen, &mut virt, |_, s, a| gen.noisy(s, a, noise, rng))?;
    Ok(virt)
}

/// Virtual simulation's reward for a state: the mean score of its completions.
pub fn virtual_reward<G: Sequential>(gen: &G, completions: &[G::State]) -> f64 {
    completions.iter().map(|s| gen.score(s)).sum::<f64>() / completions.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counting to 5: a state is a list of digits; the policy always says 1, the critic likes
    /// big digits, the score is the sum.
    struct Count;

    impl Sequential for Count {
        type State = Vec<u32>;
        type Action = u32;
        fn done(&self, s: &Vec<u32>) -> bool {
            s.len() == 5
        }
        fn random_action(&self, _: &Vec<u32>, rng: &mut Rng) -> u32 {
            rng.below(10)
        }
        fn apply(&self, s: &mut Vec<u32>, a: &u32) {
            s.push(*a);
        }
        fn greedy(&self, states: &[Vec<u32>]) -> Result<Vec<u32>, RlError> {
            Ok(vec![1; states.len()])
        }
        fn values(&self, _: &Vec<u32>, actions: &[u32]) -> Result<Vec<f64>, RlError> {
            Ok(actions.iter().map(|&a| f64::from(a)).collect())
        }
        fn distance(&self, _: &Vec<u32>, a: &u32, b: &u32) -> f64 {
            f64::from(a.abs_diff(*b))
        }
        fn noisy(&self, _: &Vec<u32>, a: u32, noise: f64, rng: &mut Rng) -> u32 {
            if rng.chance(noise) {
                a + 1
            } else {
                a
            }
        }
        fn score(&self, s: &Vec<u32>) -> f64 {
            s.iter().map(|&d| f64::from(d)).sum()
        }
    }

    #[test]
    fn randomized_initialization_is_seeded_and_the_policy_does_the_rest() {
        let run = |seed| {
            let mut s = Vec::new();
            randomize(&Count, &mut s, 2, &mut Rng::new(seed));
            complete(&Count, std::slice::from_mut(&mut s)).map(|()| s)
        };
        let a = run(3).unwrap_or_default();
        assert_eq!(a, run(3).unwrap_or_default());
        assert_eq!(&a[2..], &[1, 1, 1]);
        let firsts: std::collections::HashSet<Vec<u32>> = (0..20)
            .map(|s| run(s).unwrap_or_default()[..2].to_vec())
            .collect();
        assert!(firsts.len() > 10, "random first steps: {firsts:?}");
    }

    #[test]
    fn dagp_takes_the_best_far_candidate_or_the_greedy_action() {
        let mut rng = Rng::new(1);
        let pick =
            |d, rng: &mut Rng| dagp_choice(&Count, &vec![], 1, Dagp { n: 50, d, p: 1.0 }, rng);
        // Fifty draws of 0..9 include a 9, the critic's favourite.
        assert_eq!(pick(2.0, &mut rng).ok(), Some(9));
        // Nothing is farther than 9 from 1: greedy.
        assert_eq!(pick(9.0, &mut rng).ok(), Some(1));
    }

    #[test]
    fn a_virtual_reward_is_the_mean_score_of_the_completions() {
        let mut rng = Rng::new(5);
        let virt = virtual_completions(&Count, &vec![4], 6, 0.5, &mut rng).unwrap_or_default();
        assert_eq!(virt.len(), 6);
        let scores: Vec<f64> = virt.iter().map(|s| Count.score(s)).collect();
        let mean = scores.iter().sum::<f64>() / 6.0;
        assert!((virtual_reward(&Count, &virt) - mean).abs() < 1e-12);
        assert!(scores.iter().all(|&s| (8.0..=12.0).contains(&s)));
    }

    #[test]
    fn bad_dagp_settings_are_refused_in_words() {
        assert_eq!(
            Dagp::parse("10,0.4").ok(),
            Some(Dagp {
                n: 10,
                d: 0.4,
                p: 1.0
            })
        );
        for bad in ["10", "x,1", "0,0.2", "5,-1", "5,0.2,2"] {
            assert!(Dagp::parse(bad).is_err(), "{bad}");
        }
    }
}
