//! The Longcat generators as the registry lists them: solution-down and puzzle-up (the
//! thesis's random generators) and the solution-down DQN with its temperature and
//! diversity-aware (DAGP) policies.

use super::evolve::BoardBreeder;
use super::generators::RandomGenerator;
use super::level::{size_conditions, size_of};
use crate::dqn::{DqnModel, Policy};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;
use studio_core::evolve::generator::Fi2PopGenerator;
use studio_core::evolve::pattern::Fitness;
use studio_core::game::{
    ConditionKind, ConditionSpec, ConditionValue, Conditions, GenRequest, GenerationContext,
    LevelGenerator, LevelSink, ModelCache,
};
use studio_core::jobs::JobError;
use studio_core::rng::Rng;

/// Attempts made in parallel before their levels are offered in order.
const CHUNK: usize = 64;

/// The generators of Longcat, in sidebar order.
pub fn all() -> Vec<Arc<dyn LevelGenerator>> {
    vec![
        Arc::new(Random(RandomGenerator::SolutionDown)),
        Arc::new(Random(RandomGenerator::PuzzleUp)),
        Arc::new(Dqn),
        Arc::new(Fi2PopGenerator::new(Fitness::Alpha, BoardBreeder)),
        Arc::new(Fi2PopGenerator::new(Fitness::Beta, BoardBreeder)),
    ]
}

/// One of the thesis's random generators.
#[derive(Clone, Copy, Debug)]
pub struct Random(pub RandomGenerator);

impl LevelGenerator for Random {
    fn id(&self) -> &'static str {
        self.0.name()
    }

    fn label(&self) -> &'static str {
        match self.0 {
            RandomGenerator::SolutionDown => "Solution-down",
            RandomGenerator::PuzzleUp => "Puzzle-up",
        }
    }

    fn description(&self) -> &'static str {
        match self.0 {
            RandomGenerator::SolutionDown => {
                "walk a random solution and wall in its turns: always solvable"
            }
            RandomGenerator::PuzzleUp => {
                "place the head, add walls one by one, keep solvable boards"
            }
        }
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        size_conditions(8)
    }

    fn validated_help(&self) -> &'static str {
        "Keep only solvable, non-trivial levels"
    }

    /// Tiny boards hold few distinct levels and almost no non-trivial one: said before the
    /// run, so "Validated only" finding none is not a surprise (walkthrough D19).
    fn feasibility(
        &self,
        _models: &studio_core::game::ModelCache,
        conditions: &studio_core::game::Conditions,
    ) -> Option<studio_core::game::Feasibility> {
        let (w, h) = size_of(conditions);
        (w * h < 16).then(|| studio_core::game::Feasibility {
            warning: format!(
                "A {w}×{h} board holds few distinct levels and almost none is non-trivial: \
                 Validated only may find none."
            ),
            suggestions: vec![studio_core::game::Suggestion {
                label: "5×5".into(),
                set: vec![
                    ("width", studio_core::game::ConditionValue::Int(5)),
                    ("height", studio_core::game::ConditionValue::Int(5)),
                ],
            }],
        })
    }

    fn attempts_per_level(&self) -> usize {
        match self.0 {
            // One attempt in twenty is solvable (the thesis's 5.5 %) and most repeat.
            RandomGenerator::PuzzleUp => 2_000,
            RandomGenerator::SolutionDown => studio_core::generation::ATTEMPTS_PER_LEVEL,
        }
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let (w, h) = size_of(&request.conditions);
        let mut first = 0u64;
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            // Attempt i always draws from its own stream, so chunking changes nothing.
            let chunk: Vec<Vec<super::LongcatLevel>> = (first..first + CHUNK as u64)
                .into_par_iter()
                .map(|i| self.0.attempt(w, h, &mut Rng::derive(request.seed, i)))
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?;
            first += CHUNK as u64;
            for made in chunk {
                let more = if made.is_empty() {
                    sink.tried(1)
                } else {
                    made.into_iter()
                        .all(|level| sink.offer(level.to_level("generated")))
                };
                if !more {
                    return Ok(());
                }
            }
        }
    }
}

/// The solution-down DQN (the shipped model makes 8×8 levels).
#[derive(Clone, Copy, Debug, Default)]
pub struct Dqn;

/// The DQN's weights in the models folder.
pub const DQN_WEIGHTS: &str = "longcat-dqn-8x8.safetensors";

impl Dqn {
    /// The loaded model of a request.
    ///
    /// # Errors
    /// [`studio_core::game::ModelError`]: why the weights cannot be loaded (a [`DqnError`]
    /// inside).
    pub fn model(
        &self,
        models: &ModelCache,
        weights: Option<&Path>,
    ) -> Result<Arc<DqnModel>, studio_core::game::ModelError> {
        let path = weights.map_or_else(|| models.dir().join(DQN_WEIGHTS), Path::to_path_buf);
        models.get_or_load(&path, DqnModel::load)
    }

    /// The policy the conditions ask for: DAGP when `dagp_n` > 0, else the temperature.
    ///
    /// # Errors
    /// Parameters out of range, in words.
    pub fn policy(conditions: &Conditions) -> Result<Policy, String> {
        let n = conditions.usize("dagp_n").unwrap_or(0);
        let policy = if n > 0 {
            Policy::Diverse {
                n,
                d: conditions.usize("dagp_d").unwrap_or(4) as u32,
                p: conditions
                    .float("dagp_p")
                    .unwrap_or(crate::dqn::policy::DEFAULT_NOISE),
            }
        } else {
            Policy::Temperature(conditions.float("temperature").unwrap_or(0.3))
        };
        policy.check().map_err(|e| e.to_string())?;
        Ok(policy)
    }
}

impl LevelGenerator for Dqn {
    fn id(&self) -> &'static str {
        "longcat-dqn"
    }

    fn aliases(&self) -> &'static [&'static str] {
        &["dqn"]
    }

    fn label(&self) -> &'static str {
        "Longcat DQN"
    }

    fn description(&self) -> &'static str {
        "a DQN that walks solutions: temperature or diversity-aware (DAGP) policy"
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        let mut specs = size_conditions(8);
        specs.extend([
            ConditionSpec {
                key: "temperature",
                label: "Temperature",
                kind: ConditionKind::Float {
                    min: 0.0,
                    max: 1.0,
                    step: 0.05,
                },
                default: ConditionValue::Float(0.3),
                required: false,
                help: "chance of a random action instead of the greedy one",
            },
            ConditionSpec {
                key: "dagp_n",
                label: "DAGP candidates",
                kind: ConditionKind::Int { min: 0, max: 16 },
                default: ConditionValue::Int(0),
                required: false,
                help: "diversity-aware policy: candidate actions per noise step (0 = off)",
            },
            ConditionSpec {
                key: "dagp_d",
                label: "DAGP distance",
                kind: ConditionKind::Int { min: 0, max: 100 },
                default: ConditionValue::Int(4),
                required: false,
                help: "diversity-aware policy: cells a candidate's level must differ by",
            },
            ConditionSpec {
                key: "dagp_p",
                label: "DAGP noise rate",
                kind: ConditionKind::Float {
                    min: 0.0,
                    max: 1.0,
                    step: 0.05,
                },
                default: ConditionValue::Float(crate::dqn::policy::DEFAULT_NOISE),
                required: false,
                help: "diversity-aware policy: chance of a noise step",
            },
            ConditionSpec {
                key: "ri",
                label: "Randomize first",
                kind: ConditionKind::Int { min: 0, max: 30 },
                default: ConditionValue::Int(0),
                required: false,
                help: "random moves at the start of each walk before the network takes over (more: more varied)",
            },
            ConditionSpec {
                key: "filter",
                label: "Discard below",
                kind: ConditionKind::Float {
                    min: 0.0,
                    max: 100.0,
                    step: 1.0,
                },
                default: ConditionValue::Float(0.0),
                required: false,
                help: "levels whose difficulty is below this are dropped",
            },
        ]);
        specs
    }

    fn validated_help(&self) -> &'static str {
        "Keep only solvable, non-trivial levels"
    }

    fn weights_file(&self) -> Option<&'static str> {
        Some(DQN_WEIGHTS)
    }

    fn preload(&self, models: &ModelCache, weights: Option<&Path>) -> Result<(), JobError> {
        self.model(models, weights)?;
        Ok(())
    }

    fn check(&self, request: &GenRequest, ctx: &GenerationContext<'_>) -> Result<(), JobError> {
        let model = self.model(ctx.models, request.weights.as_deref())?;
        let (w, h) = size_of(&request.conditions);
        model.check_size(w, h).map_err(|e| e.to_string())?;
        Self::policy(&request.conditions)?;
        Ok(())
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        self.check(request, ctx)?;
        let model = self.model(ctx.models, request.weights.as_deref())?;
        let policy = Self::policy(&request.conditions)?;
        let batch = request.count.max(4);
        let ri = request.conditions.usize("ri").unwrap_or(0);
        let filter = request.conditions.float("filter").unwrap_or(0.0);
        let mut round = 0u64;
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let levels = crate::dqn::policy::generate_randomized(
                &model,
                policy,
                batch,
                request.seed.wrapping_add(round),
                ri,
            )
            .map_err(|e| e.to_string())?;
            round += 1;
            if levels.is_empty() && !sink.tried(batch) {
                return Ok(());
            }
            for level in levels {
                let more = if filter > 0.0 && crate::dqn::env::level_difficulty(&level) < filter {
                    sink.tried(1)
                } else {
                    sink.offer(level.to_level("generated"))
                };
                if !more {
                    return Ok(());
                }
            }
        }
    }
}
