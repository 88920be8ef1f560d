//! Generation with a trained DQN: from each start cell in turn, with a temperature (the chance
//! of a random free action instead of the greedy one) or the diversity-aware greedy policy
//! (DAGP): at noise steps, draw `n` candidate actions, keep those whose greedily finished level
//! is at least `d` cells away from the greedy action's, and take the best of them by value
//! (greedy when none is left). Environments run in lock-step batches so the network sees many
//! at once, and Q-values of states already seen are remembered.

use super::env::SolutionDownEnv;
use super::env::{greedy, level_difficulty};
use super::model::{DqnError, DqnModel};
use super::sequential::LongcatRl;
use crate::{Direction, LongcatLevel};
use rayon::prelude::*;
use std::collections::HashMap;
use studio_core::rng::Rng;

/// How actions are chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// A random free action with probability `t`, else the greedy one.
    Temperature(f64),
    /// The diversity-aware greedy policy: at a noise step (probability `p`), draw `n` random
    /// candidate actions; finish each candidate's outcome and the greedy action's outcome with
    /// the greedy policy; keep the candidates whose finished level is at least `d` cells from
    /// the greedy one's and take the best of them by their value under the greedy policy (the
    /// finished level's difficulty: the exact Q-value in this deterministic process); greedy
    /// when none is left or at other steps.
    Diverse {
        /// Candidate actions drawn at a noise step.
        n: usize,
        /// Fewest cells in which a candidate's finished level must differ from the greedy one's.
        d: u32,
        /// Probability that a step is a noise step.
        p: f64,
    },
}

impl Policy {
    /// A short label for tables.
    pub fn label(&self) -> String {
        match self {
            Policy::Temperature(t) => format!("T={t:.1}"),
            Policy::Diverse { n, d, p } => format!("DAGP n={n} d={d} p={p:.1}"),
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`DqnError::BadParameter`].
    pub fn check(&self) -> Result<(), DqnError> {
        match *self {
            Policy::Temperature(t) if !(0.0..=1.0).contains(&t) => Err(DqnError::BadParameter(
                format!("temperature {t} is outside 0..=1"),
            )),
            Policy::Diverse { n, .. } if n == 0 || n > 16 => Err(DqnError::BadParameter(format!(
                "DAGP needs 1..=16 candidates, not {n}"
            ))),
            Policy::Diverse { p, .. } if !(0.0..=1.0).contains(&p) => Err(DqnError::BadParameter(
                format!("DAGP noise rate {p} is outside 0..=1"),
            )),
            _ => Ok(()),
        }
    }

    /// Parses `n,d` or `n,d,p` (noise rate `p`, default [`DEFAULT_NOISE`]).
    ///
    /// # Errors
    /// [`DqnError::BadParameter`].
    pub fn parse_diverse(text: &str) -> Result<Self, DqnError> {
        let bad = || {
            DqnError::BadParameter(format!(
                "--diverse {text:?} is not \"n,d\" or \"n,d,p\" (e.g. 3,2,0.5)"
            ))
        };
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() < 2 || parts.len() > 3 {
            return Err(bad());
        }
        let noise = match parts.get(2) {
            Some(p) => p.parse().map_err(|_| bad())?,
            None => DEFAULT_NOISE,
        };
        let p = Policy::Diverse {
            n: parts[0].parse().map_err(|_| bad())?,
            d: parts[1].parse().map_err(|_| bad())?,
            p: noise,
        };
        p.check()?;
        Ok(p)
    }
}

/// Noise rate of the diversity-aware policy when none is given.
pub const DEFAULT_NOISE: f64 = 0.5;

/// Levels per lock-step batch.
pub const BATCH: usize = 1024;

/// The action of `policy`, or `None` when the greedy value is needed first.
fn choose_without_q(policy: Policy, env: &SolutionDownEnv, rng: &mut Rng) -> Option<Direction> {
    match policy {
        Policy::Temperature(t) if t > 0.0 && rng.chance(t) => {
            let free = env.free_actions();
            Some(free[rng.index(free.len())])
        }
        _ => None,
    }
}

/// The DAGP candidates of one noise step: up to `n` random free actions other than the greedy
/// one (drawn with replacement, repeats dropped), each with its outcome.
fn dagp_candidates(
    env: &SolutionDownEnv,
    best: Direction,
    n: usize,
    rng: &mut Rng,
) -> Vec<(Direction, SolutionDownEnv)> {
    let free = env.free_actions();
    let mut out: Vec<(Direction, SolutionDownEnv)> = Vec::new();
    for _ in 0..n {
        let c = free[rng.index(free.len())];
        if c == best || out.iter().any(|(o, _)| *o == c) {
            continue;
        }
        let mut outcome = env.clone();
        outcome.advance(c);
        out.push((c, outcome));
    }
    out
}

/// A DAGP noise step of episode `k`: its greedy action and the candidates to compare with it.
struct Noisy {
    k: usize,
    best: Direction,
    candidates: Vec<(Direction, SolutionDownEnv)>,
}

/// Runs every episode in `envs` to its end with the greedy policy, in lock-step batches,
/// asking the network only for states not in `cache`.
///
/// # Errors
/// A tensor failure.
fn complete_greedy(
    model: &DqnModel,
    cache: &mut HashMap<SolutionDownEnv, [f32; 4]>,
    envs: &mut [SolutionDownEnv],
) -> Result<(), DqnError> {
    loop {
        let active: Vec<usize> = (0..envs.len()).filter(|&k| !envs[k].is_done()).collect();
        if active.is_empty() {
            return Ok(());
        }
        let mut unknown: Vec<SolutionDownEnv> = Vec::new();
        for &k in &active {
            if !cache.contains_key(&envs[k]) && !unknown.contains(&envs[k]) {
                unknown.push(envs[k].clone());
            }
        }
        let refs: Vec<&SolutionDownEnv> = unknown.iter().collect();
        for (o, q) in unknown
            .iter()
            .zip(model.net.q_values(&refs, &model.device)?)
        {
            cache.insert(o.clone(), q);
        }
        // An active episode is not done, so it has a free action.
        for &k in &active {
            if let Some(a) = greedy(&cache[&envs[k]], &envs[k]) {
                envs[k].advance(a);
            }
        }
    }
}

/// Generates `count` levels; level `i` starts at cell `i mod (w·h)` and draws its random
/// choices from its own stream of `seed`, so results do not depend on batching.
///
/// # Errors
/// [`DqnError`] on bad parameters or tensor failures.
pub fn generate(
    model: &DqnModel,
    policy: Policy,
    count: usize,
    seed: u64,
) -> Result<Vec<LongcatLevel>, DqnError> {
    generate_randomized(model, policy, count, seed, 0)
}

/// [`generate`] with randomized initialization: each level's first `ri` steps are uniformly
/// random free moves (from its own stream), the policy takes the rest.
///
/// # Errors
/// [`DqnError`] on bad parameters or tensor failures.
pub fn generate_randomized(
    model: &DqnModel,
    policy: Policy,
    count: usize,
    seed: u64,
    ri: usize,
) -> Result<Vec<LongcatLevel>, DqnError> {
    policy.check()?;
    let shape = model.sidecar.shape;
    let cells = shape.width * shape.height;
    // Episodes from the same start share long prefixes at low temperature: remember the
    // Q-values of states already seen instead of asking the network again.
    let mut cache: HashMap<SolutionDownEnv, [f32; 4]> = HashMap::new();
    let mut out = Vec::with_capacity(count);
    for chunk_start in (0..count).step_by(BATCH) {
        let n = BATCH.min(count - chunk_start);
        let mut envs: Vec<SolutionDownEnv> = (0..n)
            .map(|k| SolutionDownEnv::new(shape.width, shape.height, (chunk_start + k) % cells))
            .collect();
        let mut rngs: Vec<Rng> = (0..n)
            .map(|k| Rng::derive(seed, (chunk_start + k) as u64))
            .collect();
        if ri > 0 {
            let gen = LongcatRl::new(&model.net, &model.device);
            for (env, rng) in envs.iter_mut().zip(&mut rngs) {
                studio_ml::rl::randomize(&gen, env, ri, rng);
            }
        }
        loop {
            let mut waiting = Vec::new();
            for k in 0..n {
                if envs[k].is_done() {
                    continue;
                }
                match choose_without_q(policy, &envs[k], &mut rngs[k]) {
                    Some(a) => {
                        envs[k].advance(a);
                    }
                    None => waiting.push(k),
                }
            }
            if waiting.is_empty() {
                if envs.iter().all(SolutionDownEnv::is_done) {
                    break;
                }
                continue;
            }
            let unknown: Vec<usize> = waiting
                .iter()
                .copied()
                .filter(|&k| !cache.contains_key(&envs[k]))
                .collect();
            let refs: Vec<&SolutionDownEnv> = unknown.iter().map(|&k| &envs[k]).collect();
            for (&k, q) in unknown
                .iter()
                .zip(model.net.q_values(&refs, &model.device)?)
            {
                cache.insert(envs[k].clone(), q);
            }
            // Greedy actions, and for DAGP noise steps the candidates to compare. A waiting
            // episode is not done, so it has a greedy action.
            let mut noisy: Vec<Noisy> = Vec::new();
            for &k in &waiting {
                let Some(best) = greedy(&cache[&envs[k]], &envs[k]) else {
                    continue;
                };
                match policy {
                    Policy::Diverse { n, p, .. } if rngs[k].chance(p) => {
                        let candidates = dagp_candidates(&envs[k], best, n, &mut rngs[k]);
                        if candidates.is_empty() {
                            envs[k].advance(best);
                        } else {
                            noisy.push(Noisy {
                                k,
                                best,
                                candidates,
                            });
                        }
                    }
                    _ => {
                        envs[k].advance(best);
                    }
                }
            }
            if !noisy.is_empty() {
                // Finish the greedy action's outcome and every candidate's outcome greedily:
                // a candidate counts when its finished level is at least `d` cells from the
                // greedy one's, and its value is that finished level's difficulty (the exact
                // value of the action under the greedy policy in this deterministic process).
                let mut finals: Vec<SolutionDownEnv> = Vec::new();
                for Noisy {
                    k,
                    best,
                    candidates,
                } in &noisy
                {
                    let mut g = envs[*k].clone();
                    g.advance(*best);
                    finals.push(g);
                    finals.extend(candidates.iter().map(|(_, o)| o.clone()));
                }
                complete_greedy(model, &mut cache, &mut finals)?;
                let values: Vec<f64> = finals
                    .par_iter()
                    .map(|e| level_difficulty(&e.finished_level()))
                    .collect();
                let d = match policy {
                    Policy::Diverse { d, .. } => d,
                    Policy::Temperature(_) => 0,
                };
                let mut at = 0;
                for Noisy {
                    k,
                    best,
                    candidates,
                } in noisy
                {
                    let greedy_final = &finals[at];
                    let mut pick = (best, f64::NEG_INFINITY);
                    for (j, (c, _)) in candidates.iter().enumerate() {
                        let idx = at + 1 + j;
                        let far = finals[idx].distance(greedy_final) >= d;
                        if far && values[idx] > pick.1 {
                            pick = (*c, values[idx]);
                        }
                    }
                    at += 1 + candidates.len();
                    envs[k].advance(pick.0);
                }
            }
        }
        out.extend(envs.iter().map(|e| e.finished_level()));
    }
    Ok(out)
}
