//! TD3 and VS-TD3 level generators (rl-quality-diversity §6.3, §6.6.1, Table 6.3): an actor
//! reads the level built so far and outputs a vector z ∈ [0, 1]³; the CGAN turns z into the
//! next 4-column pattern after the three before it, and Matching replaces that with the
//! nearest legal pattern. A level is 10 patterns and the goal column: the first two come from
//! the CGAN with random vectors (after three real patterns that are not shown), the other
//! eight from the actor. The reward is the evaluation `r_diff + r_mono` of the finished level
//! (0 when A* cannot finish it); VS-TD3 also judges every earlier step by
//! [`VIRTUAL_COMPLETIONS`] noisy completions by the actor, frozen for the episode (`vs`).
//!
//! The generator is a [`Sequential`], so randomized initialization, DAGP and virtual
//! simulation come from `studio_ml::rl`.
//!
//! - `model`: the actor and the twin critics;
//! - `train`: the TD3 loop (twin critics, delayed actor updates, target smoothing);
//! - `file`: the weights and their sidecar;
//! - `run`: a training run from start to file (the checkpoints, the kept actor);
//! - `vs`: VS-TD3's episode with the actor frozen, its levels judged at once on rayon.

pub mod file;
pub mod model;
pub mod run;
pub mod train;
pub mod vs;

use super::cgan::{generate_batch, Generator, Z_DIM};
use super::evaluate::{evaluate, DEFAULT_TRIALS};
use super::level::{MarioLevel, PATTERN_COLUMNS};
use super::patterns::{assemble, kl_pattern, PatLegal, Pattern, LEVEL_PATTERNS, ROWS};
pub use model::{Actor, Critic};
use studio_core::jobs::Cancel;
use studio_core::rng::Rng;
use studio_ml::rl::{Dagp, RlError, Sequential};

/// Why TD3's training or its level making stopped.
#[derive(Debug, thiserror::Error)]
pub enum Td3Error {
    /// A network failed.
    #[error(transparent)]
    Network(#[from] candle_core::Error),
    /// The step-by-step generation failed.
    #[error(transparent)]
    Rl(#[from] RlError),
    /// A checkpoint could not be written.
    #[error(transparent)]
    Weights(#[from] studio_ml::WeightsError),
    /// A level that cannot be continued, in words.
    #[error("{0}")]
    Refused(String),
}

/// Virtual completions per step in VS-TD3 (the thesis's 5).
pub const VIRTUAL_COMPLETIONS: usize = 5;
/// Patterns made by the CGAN with random vectors before the actor takes over (the thesis's 2).
pub const RANDOM_START: usize = 2;
/// Columns of the state: the 10 patterns (the goal column is left out, as in the thesis).
pub const STATE_COLUMNS: usize = LEVEL_PATTERNS * PATTERN_COLUMNS;
/// Channels of the state: walls, enemies, holes.
pub const CHANNELS: usize = 3;
/// Input width of the actor: three binary channels of 14 × 40.
pub const STATE_WIDTH: usize = CHANNELS * ROWS * STATE_COLUMNS;
/// The patterns (0-based) DAGP decides: the thesis's 4th, 5th and 6th.
pub const DAGP_PATTERNS: std::ops::Range<usize> = 3..6;

/// A level being built: the three patterns the CGAN conditions the next one on, the patterns
/// so far, and the seed its evaluation uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Build {
    /// The three patterns before the next one (real ones from Pat_legal at the start).
    pub context: [Pattern; 3],
    /// The patterns made so far.
    pub patterns: Vec<Pattern>,
    /// Seed of the human-like trials that score the finished level.
    pub eval_seed: u64,
}

impl Build {
    /// An empty level after a random real 3-pattern context of `pat`.
    pub fn start(pat: &PatLegal, rng: &mut Rng) -> Self {
        let context = if pat.contexts.is_empty() {
            [[0; super::patterns::CELLS]; 3]
        } else {
            pat.contexts[rng.index(pat.contexts.len())]
        };
        Self {
            context,
            patterns: Vec::with_capacity(LEVEL_PATTERNS),
            eval_seed: rng.next_u64(),
        }
    }

    /// The finished level (the patterns and the goal column).
    ///
    /// # Errors
    /// [`LevelError`](crate::LevelError): why the patterns do not make a level.
    pub fn level(&self) -> Result<MarioLevel, crate::LevelError> {
        MarioLevel::new(assemble(&self.patterns))
    }

    /// Appends `pattern` and moves the context on.
    pub fn push(&mut self, pattern: Pattern) {
        self.patterns.push(pattern);
        self.context = [self.context[1], self.context[2], pattern];
    }
}

/// The state the networks read (§6.3.1): walls, enemies and holes as three binary 14 × 40
/// channels (a hole is a bottom-row cell without ground under an empty column), every cell of
/// a column not yet built −1.
pub fn features(build: &Build, out: &mut Vec<f32>) {
    let start = out.len();
    out.resize(start + STATE_WIDTH, -1.0);
    let plane = ROWS * STATE_COLUMNS;
    for (i, p) in build.patterns.iter().take(LEVEL_PATTERNS).enumerate() {
        for c in 0..PATTERN_COLUMNS {
            let x = i * PATTERN_COLUMNS + c;
            let column = &p[c * ROWS..(c + 1) * ROWS];
            let tile = |r: usize| super::Tile::from_index(column[r]).unwrap_or(super::Tile::Empty);
            let hole = !tile(ROWS - 1).is_solid();
            for r in 0..ROWS {
                let at = r * STATE_COLUMNS + x;
                let t = tile(r);
                out[start + at] = f32::from(u8::from(t.is_solid()));
                out[start + plane + at] = f32::from(u8::from(t.is_enemy()));
                out[start + 2 * plane + at] = f32::from(u8::from(hole && r == ROWS - 1));
            }
        }
    }
}

/// The evaluation of a finished level as the reward: `r_diff + r_mono`, 0 when A* cannot
/// finish it or the patterns do not make a level.
pub fn reward_of(build: &Build) -> f64 {
    build
        .level()
        .ok()
        .and_then(|l| evaluate(&l, build.eval_seed, DEFAULT_TRIALS, &Cancel::default()).ok())
        .map_or(0.0, |e| e.evaluation())
}

/// The Mario generator as a [`Sequential`]: a z is an action, the CGAN and Matching make the
/// pattern. Without an actor every action is random (the CGAN-with-random-vectors baseline).
pub struct MarioRl<'a> {
    /// The CGAN.
    pub cgan: &'a Generator,
    /// The legal patterns Matching picks from.
    pub pat: &'a PatLegal,
    /// The actor.
    pub actor: Option<&'a Actor>,
    /// The first critic (DAGP's values).
    pub critic: Option<&'a Critic>,
    /// Patterns per level.
    pub length: usize,
}

impl MarioRl<'_> {
    /// The matched patterns that `zs` make after each context.
    ///
    /// # Errors
    /// A network failure, in words.
    pub fn patterns_for(
        &self,
        contexts: &[[Pattern; 3]],
        zs: &[[f32; Z_DIM]],
    ) -> Result<Vec<Pattern>, candle_core::Error> {
        let raw = generate_batch(self.cgan, contexts, zs)?;
        Ok(raw
            .iter()
            .map(|r| {
                self.pat
                    .get(self.pat.nearest(r))
                    .copied()
                    .unwrap_or([0; super::patterns::CELLS])
            })
            .collect())
    }

    fn pattern_for(&self, state: &Build, z: &[f64; 3]) -> Option<Pattern> {
        self.patterns_for(&[state.context], &[z.map(|v| v as f32)])
            .ok()
            .and_then(|mut v| v.pop())
    }
}

impl Sequential for MarioRl<'_> {
    type State = Build;
    type Action = [f64; 3];

    fn done(&self, state: &Build) -> bool {
        state.patterns.len() >= self.length
    }

    fn random_action(&self, _: &Build, rng: &mut Rng) -> [f64; 3] {
        [rng.unit(), rng.unit(), rng.unit()]
    }

    fn apply(&self, state: &mut Build, action: &[f64; 3]) {
        if let Some(p) = self.pattern_for(state, action) {
            state.push(p);
        } else if let Some(&p) = self.pat.get(0) {
            state.push(p);
        }
    }

    fn greedy(&self, states: &[Build]) -> Result<Vec<[f64; 3]>, RlError> {
        let actor = self
            .actor
            .ok_or_else(|| RlError::Refused("no actor: the CGAN alone has no policy".into()))?;
        Ok(actor.act(states)?)
    }

    fn values(&self, state: &Build, actions: &[[f64; 3]]) -> Result<Vec<f64>, RlError> {
        let critic = self.critic.ok_or_else(|| {
            RlError::Refused(
                "this model has no critic, and DAGP chooses by the critic's values: retrain it"
                    .into(),
            )
        })?;
        Ok(critic.values(state, actions)?)
    }

    /// KL_pattern between the two patterns the actions make (§6.6.2's distance for DAGP).
    fn distance(&self, state: &Build, a: &[f64; 3], b: &[f64; 3]) -> f64 {
        match (self.pattern_for(state, a), self.pattern_for(state, b)) {
            (Some(x), Some(y)) => kl_pattern(&x, &y),
            _ => 0.0,
        }
    }

    fn noisy(&self, _: &Build, action: [f64; 3], noise: f64, rng: &mut Rng) -> [f64; 3] {
        action.map(|v| (v + noise * rng.normal()).clamp(0.0, 1.0))
    }

    fn score(&self, state: &Build) -> f64 {
        reward_of(state)
    }
}

/// How a batch of levels is made: the random patterns at the start (randomized
/// initialization, at least the thesis's 2) and DAGP on the 4th–6th patterns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Making {
    /// Patterns made from random vectors first (RI's c).
    pub random: usize,
    /// DAGP's settings, when on.
    pub dagp: Option<Dagp>,
}

impl Default for Making {
    fn default() -> Self {
        Self {
            random: RANDOM_START,
            dagp: None,
        }
    }
}

/// `count` levels by `gen`, the i-th from `Rng::derive(seed, i)`: a real context, `making.random`
/// patterns from random vectors, then the actor (DAGP on [`DAGP_PATTERNS`] when on).
///
/// # Errors
/// A network failure, in words.
pub fn make_levels(
    gen: &MarioRl<'_>,
    count: usize,
    seed: u64,
    making: Making,
) -> Result<Vec<Build>, RlError> {
    let mut rngs: Vec<Rng> = (0..count as u64).map(|i| Rng::derive(seed, i)).collect();
    let mut builds: Vec<Build> = rngs.iter_mut().map(|r| Build::start(gen.pat, r)).collect();
    for (b, r) in builds.iter_mut().zip(rngs.iter_mut()) {
        studio_ml::rl::randomize(gen, b, making.random, r);
    }
    complete(gen, &mut builds, &mut rngs, making.dagp, DAGP_PATTERNS)?;
    Ok(builds)
}

/// Finishes every build with the actor in lock-step batches; build `i` draws DAGP's candidates
/// from `rngs[i]` for the patterns (0-based) in `on` when `dagp` is on.
///
/// # Errors
/// A network failure, in words.
pub fn complete(
    gen: &MarioRl<'_>,
    builds: &mut [Build],
    rngs: &mut [Rng],
    dagp: Option<Dagp>,
    on: std::ops::Range<usize>,
) -> Result<(), RlError> {
    while builds.iter().any(|b| !gen.done(b)) {
        let active: Vec<usize> = (0..builds.len())
            .filter(|&i| !gen.done(&builds[i]))
            .collect();
        let batch: Vec<Build> = active.iter().map(|&i| builds[i].clone()).collect();
        let greedy = gen.greedy(&batch)?;
        for (&i, a) in active.iter().zip(greedy) {
            let a = match (dagp, rngs.get_mut(i)) {
                (Some(d), Some(rng)) if on.contains(&builds[i].patterns.len()) => {
                    studio_ml::rl::dagp_choice(gen, &builds[i], a, d, rng)?
                }
                _ => a,
            };
            gen.apply(&mut builds[i], &a);
        }
    }
    Ok(())
}

/// A build that starts with the first `keep` patterns of `level` (its bottom 14 rows), the CGAN's
/// context being the three patterns before the next one (real ones from `pat` where the level
/// has fewer).
///
/// # Errors
/// A level lower than 14 rows or shorter than `keep` patterns, in words.
pub fn continue_from(
    level: &MarioLevel,
    keep: usize,
    pat: &PatLegal,
    rng: &mut Rng,
) -> Result<Build, Td3Error> {
    if level.height() < ROWS {
        return Err(Td3Error::Refused(format!(
            "a level is continued pattern by pattern from its bottom {ROWS} rows (this one has \
             {})",
            level.height()
        )));
    }
    let mut build = Build::start(pat, rng);
    for i in 0..keep {
        let p =
            super::patterns::pattern_at_bottom(level, i * PATTERN_COLUMNS).ok_or_else(|| {
                Td3Error::Refused(format!(
                    "the level has {} columns, fewer than the {keep} patterns to keep",
                    level.width()
                ))
            })?;
        build.push(p);
    }
    Ok(build)
}

#[cfg(test)]
mod tests;
