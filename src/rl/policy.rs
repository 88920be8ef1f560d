//! Generation with a trained DQN: from each start cell in turn, with a temperature (the chance
//! of a random free action instead of the greedy one) or the diversity-aware greedy policy
//! (DAGP): draw `n` candidate actions, keep those whose outcome is at least `d` cells away
//! from the greedy action's outcome, and take the best of them by Q-value (greedy when none
//! is left). Environments run in lock-step batches so the network sees many at once.

use super::env::SolutionDownEnv;
use super::model::{DqnError, DqnModel};
use super::train::greedy;
use crate::longcat::{Direction, LongcatLevel};
use crate::rng::Rng;
use std::collections::HashMap;

/// How actions are chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// A random free action with probability `t`, else the greedy one.
    Temperature(f64),
    /// The diversity-aware greedy policy: at a noise step (probability `p`), draw `n` random
    /// candidate actions, keep those whose outcome is at least `d` cells from the greedy
    /// action's outcome (cells of the level-if-finished-now that differ, head included) and take
    /// the best of them by Q-value; greedy otherwise.
    Diverse { n: usize, d: u32, p: f64 },
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

fn choose_with_q(policy: Policy, q: &[f32; 4], env: &SolutionDownEnv, rng: &mut Rng) -> Direction {
    let best = greedy(q, env).expect("an episode in progress has a free action");
    let Policy::Diverse { n, d, p } = policy else {
        return best;
    };
    if !rng.chance(p) {
        return best;
    }
    let free = env.free_actions();
    let mut greedy_outcome = env.clone();
    greedy_outcome.advance(best);
    let mut pick: Option<Direction> = None;
    for _ in 0..n {
        let c = free[rng.index(free.len())];
        if c == best {
            continue;
        }
        let mut outcome = env.clone();
        outcome.advance(c);
        if outcome.distance(&greedy_outcome) >= d
            && pick.is_none_or(|p| q[c.index()] > q[p.index()])
        {
            pick = Some(c);
        }
    }
    pick.unwrap_or(best)
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
            for &k in &waiting {
                let q = cache[&envs[k]];
                let a = choose_with_q(policy, &q, &envs[k], &mut rngs[k]);
                envs[k].advance(a);
            }
        }
        out.extend(envs.iter().map(|e| e.finished_level()));
    }
    Ok(out)
}
