//! A trained course generator on disk: safetensors plus a RON sidecar (architecture, structure,
//! training settings and curve, the command that reproduces it, and the weights' stamp that
//! loading checks). An actor file (DDPG, VS-DDPG, the supervised baseline) holds the actor at
//! the root and, when trained with one, its critic under `critic.`; a DQN file holds the
//! Q-network under `q.`.

use super::ddpg::{complete, Actor, ActorRl, Critic, CRITIC_PREFIX};
use super::dqn::{CourseQ, QRl, Q_PREFIX};
use super::matrix::Structure;
use super::network::{random_start, value_of, Filling, HIDDEN};
use candle_core::DType;
use candle_nn::{VarBuilder, VarMap};
use serde::{Deserialize, Serialize};
use std::path::Path;
use studio_core::rng::Rng;
use studio_ml::rl::{self, Dagp, Sequential};
use studio_ml::{self as ml, Stamped, WeightsStamp};

/// The architecture name of actor files.
pub const ARCHITECTURE: &str = "course-actor-mlp-v1";
/// The architecture name of DQN files.
pub const Q_ARCHITECTURE: &str = "course-q-mlp-v1";

/// The shipped weights file of a generator (`ddpg`, `vs-ddpg`) and event count.
pub fn weights_file(generator: &str, events: usize) -> String {
    format!("course-{generator}-{events}.safetensors")
}

/// What a course actor's sidecar records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourseSidecar {
    /// Always [`ARCHITECTURE`].
    pub architecture: String,
    /// Events per course (9 or 12).
    pub events: usize,
    /// Hidden width of the actor.
    pub hidden: usize,
    /// Virtual completions per step in training (0: DDPG, 5: VS-DDPG).
    pub virtual_completions: usize,
    /// Training seed.
    pub seed: u64,
    /// Episodes trained.
    pub episodes: usize,
    /// Seconds of training.
    pub train_seconds: f64,
    /// Mean evaluation per 50 training episodes (with exploration).
    pub curve: Vec<f64>,
    /// Mean evaluation of 200 greedy courses from one random column (seed 0) at the end.
    pub greedy_mean_evaluation: f64,
    /// The command that reproduces the weights.
    pub command: String,
    /// True when the file holds a critic (DDPG's, or the supervised evaluator) for DAGP.
    #[serde(default)]
    pub critic: bool,
    /// Length and hash of the weights file.
    #[serde(default)]
    pub weights: Option<WeightsStamp>,
}

impl CourseSidecar {
    /// Checks that every figure is a finite number: the training curve, the seconds and the
    /// greedy mean evaluation.
    ///
    /// # Errors
    /// The first figure that is not, named by its field (and its place in the curve).
    pub fn check(&self) -> Result<(), ml::WeightsError> {
        if let Some((i, v)) = self.curve.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(
                format!("curve holds {v} at position {}, not a finite number", i + 1).into(),
            );
        }
        if !(self.train_seconds.is_finite() && self.train_seconds >= 0.0) {
            return Err(format!(
                "train_seconds {} is not a finite number of seconds",
                self.train_seconds
            )
            .into());
        }
        if !self.greedy_mean_evaluation.is_finite() {
            return Err(format!(
                "greedy_mean_evaluation {} is not a finite number",
                self.greedy_mean_evaluation
            )
            .into());
        }
        Ok(())
    }
}

impl Stamped for CourseSidecar {
    fn stamp(&self) -> Option<&WeightsStamp> {
        self.weights.as_ref()
    }

    fn set_stamp(&mut self, stamp: WeightsStamp) {
        self.weights = Some(stamp);
    }
}

/// The network that fills courses.
pub enum CoursePolicy {
    /// An actor, a column per step, and its critic when the file has one.
    Actor {
        /// The actor.
        actor: Actor,
        /// The critic (DAGP's values).
        critic: Option<Critic>,
    },
    /// The DQN, a parameter per step.
    Q(CourseQ),
}

/// A loaded course generator and its sidecar.
pub struct CourseModel {
    /// The network.
    pub policy: CoursePolicy,
    /// Its sidecar.
    pub sidecar: CourseSidecar,
}

/// The mean evaluation of `n` greedy courses completed from `c` random columns.
///
/// # Errors
/// A candle error.
pub fn greedy_mean(
    actor: &Actor,
    structure: Structure,
    n: usize,
    c: usize,
    seed: u64,
) -> candle_core::Result<f64> {
    let mut rng = Rng::new(seed);
    let starts = (0..n)
        .map(|_| random_start(structure, c, &mut rng))
        .collect();
    let done = complete(actor, starts, c, &actor.device())?;
    Ok(done.iter().map(|c| value_of(c)).sum::<f64>() / n.max(1) as f64)
}

/// Saves the weights of `maps` (an actor and its critic, or a Q-network) and their sidecar; a
/// sidecar with a figure that is not a finite number (a diverged training) is refused before
/// anything is written.
///
/// # Errors
/// Why a file could not be written, or what [`CourseSidecar::check`] refused.
pub fn save(
    maps: &[&VarMap],
    sidecar: &CourseSidecar,
    path: &Path,
) -> Result<(), ml::WeightsError> {
    sidecar.check().map_err(|e| {
        format!(
            "{}: the training produced a figure that is not a number ({e}); nothing was written",
            path.display()
        )
    })?;
    let mut tensors = std::collections::HashMap::new();
    for m in maps {
        tensors.extend(ml::tensors_of(m)?);
    }
    Ok(ml::save_model(&tensors, sidecar, path)?)
}

fn finish<G: Sequential<State = Filling>>(
    gen: &G,
    states: &mut [Filling],
    dagp: Option<(Dagp, &mut [Rng])>,
) -> Result<(), rl::RlError> {
    match dagp {
        Some((d, rngs)) => rl::complete_dagp(gen, states, d, rngs),
        None => rl::complete(gen, states),
    }
}

impl CourseModel {
    /// Loads weights and their sidecar, checking the architecture and the stamp.
    ///
    /// # Errors
    /// A missing, damaged or mismatched file, in words naming it.
    pub fn load(path: &Path) -> Result<Self, ml::WeightsError> {
        let (side, sidecar): (_, CourseSidecar) = ml::read_sidecar(path)?;
        sidecar.check().map_err(|e| e.in_file(&side))?;
        if sidecar.architecture != ARCHITECTURE && sidecar.architecture != Q_ARCHITECTURE {
            return Err(format!(
                "{}: architecture {:?}, not {ARCHITECTURE:?} or {Q_ARCHITECTURE:?}",
                side.display(),
                sidecar.architecture
            )
            .into());
        }
        let structure = Structure::of_events(sidecar.events)
            .map_err(|e| ml::WeightsError::Model(e.to_string()))?;
        if sidecar.hidden != HIDDEN {
            return Err(format!(
                "{}: hidden width {}, this build has {HIDDEN}",
                side.display(),
                sidecar.hidden
            )
            .into());
        }
        let bytes = ml::read_stamped(path, &side, sidecar.stamp()).map_err(|e| e.in_file(path))?;
        let device = ml::device();
        let tensors = ml::tensors_from(&bytes, &device).map_err(|e| e.in_file(path))?;
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &device);
        let damaged = |e: candle_core::Error| format!("{}: {e}", path.display());
        let policy = if sidecar.architecture == Q_ARCHITECTURE {
            CoursePolicy::Q(CourseQ::new(structure, vb.pp(Q_PREFIX)).map_err(damaged)?)
        } else {
            let actor = Actor::new(structure, vb.clone()).map_err(damaged)?;
            let critic = if sidecar.critic {
                Some(Critic::new(structure, vb.pp(CRITIC_PREFIX)).map_err(damaged)?)
            } else {
                None
            };
            CoursePolicy::Actor { actor, critic }
        };
        Ok(Self { policy, sidecar })
    }

    /// The structure the model fills.
    pub fn structure(&self) -> Structure {
        match &self.policy {
            CoursePolicy::Actor { actor, .. } => actor.structure(),
            CoursePolicy::Q(q) => q.structure(),
        }
    }

    /// True when DAGP can run on it (it has a critic or Q-values).
    pub fn has_values(&self) -> bool {
        match &self.policy {
            CoursePolicy::Actor { critic, .. } => critic.is_some(),
            CoursePolicy::Q(_) => true,
        }
    }

    /// Completes `starts` (their first `c` columns set) greedily, or with DAGP (start `i`
    /// drawing from `rngs[i]`).
    ///
    /// # Errors
    /// A network failure or a model without a critic for DAGP, in words.
    pub fn complete(
        &self,
        starts: Vec<Vec<[f64; 3]>>,
        c: usize,
        dagp: Option<(Dagp, &mut [Rng])>,
    ) -> Result<Vec<Vec<[f64; 3]>>, rl::RlError> {
        let mut states: Vec<Filling> = starts.into_iter().map(|s| Filling::at(s, c)).collect();
        match &self.policy {
            CoursePolicy::Actor { actor, critic } => {
                finish(&ActorRl::new(actor, critic.as_ref()), &mut states, dagp)?;
            }
            CoursePolicy::Q(q) => finish(&QRl::new(q), &mut states, dagp)?,
        }
        Ok(states.into_iter().map(|s| s.columns).collect())
    }
}
