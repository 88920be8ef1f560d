//! Course generators: random (every parameter uniform in [0, 1] on the chosen structure).

use super::matrix::{Course, Structure};
use super::model::CourseModel;
use std::sync::Arc;
use studio_core::game::{
    ConditionKind, ConditionSpec, ConditionValue, Conditions, GenRequest, GenerationContext,
    LevelGenerator, LevelSink,
};
use studio_core::jobs::JobError;
use studio_core::level::Level;
use studio_core::rng::Rng;
use studio_ml::rl::{Dagp, RlError};

/// Filters above this keep few courses of any learned generator (their best are about 0.95).
const RARE_FILTER: f64 = 0.9;

/// The generators of courses, in sidebar order.
pub fn all() -> Vec<Arc<dyn LevelGenerator>> {
    vec![
        Arc::new(RandomCourse),
        Arc::new(RlCourse { id: "ddpg" }),
        Arc::new(RlCourse { id: "vs-ddpg" }),
        Arc::new(RlCourse { id: "dqn" }),
        Arc::new(RlCourse { id: "sl" }),
    ]
}

/// The events condition (9 or 12, the thesis's two structures).
pub fn events_condition() -> ConditionSpec {
    ConditionSpec {
        key: "events",
        label: "Events",
        kind: ConditionKind::Int { min: 9, max: 12 },
        default: ConditionValue::Int(9),
        required: false,
        help: "9 (6 enemies, 2 recoveries, the boss) or 12 (8 enemies, 3 recoveries, the boss)",
    }
}

/// The structure a request asks for.
///
/// # Errors
/// [`CourseError::Events`](crate::CourseError::Events): an event count other than 9 or 12.
pub fn structure_of(conditions: &Conditions) -> Result<Structure, crate::CourseError> {
    Structure::of_events(conditions.usize("events").unwrap_or(9))
}

/// A course as a studio level.
pub fn course_level(course: &Course, name: impl Into<String>) -> Level {
    Level::bare(super::matrix::ID, name.into(), course.to_rows())
}

/// A random course on `structure`: every parameter uniform in [0, 1]; columns without a
/// recovery event keep 0.
pub fn random_course(structure: Structure, rng: &mut Rng) -> Course {
    let columns = (0..structure.columns())
        .map(|i| {
            let rate = if structure.recovers(i) {
                rng.unit()
            } else {
                0.0
            };
            [rng.unit(), rng.unit(), rate]
        })
        .collect();
    Course::new(columns)
        .map(|c| c.stored())
        .unwrap_or_else(|_| unreachable_course())
}

fn unreachable_course() -> Course {
    // Two columns of valid values always make a course.
    Course::from_rows(&["5050".into(), "5050".into(), "5000".into()])
        .unwrap_or_else(|_| panic!("a fixed course parses"))
}

/// Random courses (the thesis's baseline).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomCourse;

impl LevelGenerator for RandomCourse {
    fn id(&self) -> &'static str {
        "random"
    }

    fn label(&self) -> &'static str {
        "Random"
    }

    fn description(&self) -> &'static str {
        "every enemy, boss and recovery parameter uniform in [0, 1]"
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        vec![events_condition()]
    }

    fn validated_help(&self) -> &'static str {
        "Keep only GOOD courses (evaluation at least 0.8)"
    }

    fn attempts_per_level(&self) -> usize {
        5_000
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let structure = structure_of(&request.conditions).map_err(JobError::failed)?;
        let mut rng = Rng::new(request.seed);
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let course = random_course(structure, &mut rng);
            if !sink.offer(course_level(&course, "random")) {
                return Ok(());
            }
        }
    }
}

/// The learned generators: a network (an actor trained with DDPG, VS-DDPG or supervision, or
/// a DQN) fills the course after `ri` random first columns, greedily or with DAGP (`diverse_n`
/// candidates farther than `diverse_d`); courses below `filter` are discarded.
#[derive(Clone, Copy, Debug)]
pub struct RlCourse {
    /// `ddpg`, `vs-ddpg`, `dqn` or `sl`.
    pub id: &'static str,
}

/// The DQN's default DAGP distance between two values (hundredths / 100).
pub const DQN_DIVERSE_D: f64 = 0.1;

/// The learned course generators' ids.
pub const RL_IDS: [&str; 4] = ["ddpg", "vs-ddpg", "dqn", "sl"];

/// The randomized-initialization, DAGP and filter conditions every RL generator offers.
pub fn quality_diversity_conditions() -> Vec<ConditionSpec> {
    vec![
        ConditionSpec {
            key: "ri",
            label: "Randomize first",
            kind: ConditionKind::Int { min: 1, max: 12 },
            default: ConditionValue::Int(1),
            required: false,
            help: "columns set at random before the network fills the rest (more: more varied, lower evaluation)",
        },
        ConditionSpec {
            key: "diverse_n",
            label: "DAGP candidates",
            kind: ConditionKind::Int { min: 0, max: 50 },
            default: ConditionValue::Int(0),
            required: false,
            help: "DAGP: at each later column draw this many random columns and take the one the critic values most among those far from the network's own (0: off, the network's own column)",
        },
        ConditionSpec {
            key: "diverse_d",
            label: "DAGP distance",
            kind: ConditionKind::Float {
                min: 0.0,
                max: 1.5,
                step: 0.05,
            },
            default: ConditionValue::Float(0.4),
            required: false,
            help: "DAGP: a candidate counts only when it is farther than this from the network's column (Euclidean, parameters in 0..1)",
        },
        ConditionSpec {
            key: "filter",
            label: "Discard below",
            kind: ConditionKind::Float {
                min: 0.0,
                max: 1.0,
                step: 0.05,
            },
            default: ConditionValue::Float(0.0),
            required: false,
            help: "courses evaluated below this are dropped",
        },
    ]
}

/// The DAGP setting a request asks for (`diverse_n` 0: none).
///
/// # Errors
/// [`RlError::Settings`]: an out-of-range setting, in words.
pub fn dagp_of(conditions: &Conditions) -> Result<Option<Dagp>, RlError> {
    let n = conditions.usize("diverse_n").unwrap_or(0);
    if n == 0 {
        return Ok(None);
    }
    let dagp = Dagp {
        n,
        d: conditions.float("diverse_d").unwrap_or(0.4),
        p: 1.0,
    };
    dagp.check()?;
    Ok(Some(dagp))
}

impl RlCourse {
    /// The loaded actor for `events` (the request's weights, or the shipped file).
    ///
    /// # Errors
    /// [`ModelError`](studio_core::game::ModelError): why the weights cannot be loaded (a
    /// [`WeightsError`](studio_ml::WeightsError) inside).
    pub fn model(
        &self,
        models: &studio_core::game::ModelCache,
        weights: Option<&std::path::Path>,
        events: usize,
    ) -> Result<Arc<CourseModel>, studio_core::game::ModelError> {
        let path = weights.map_or_else(
            || {
                models
                    .dir()
                    .join(super::model::weights_file(self.id, events))
            },
            std::path::Path::to_path_buf,
        );
        models.get_or_load(&path, CourseModel::load)
    }
}

/// Courses completed by `model` from `count` starts with `c` random columns, greedily or with
/// DAGP, as stored.
///
/// # Errors
/// A network failure or DAGP without a critic, in words.
pub fn rl_courses(
    model: &CourseModel,
    c: usize,
    count: usize,
    dagp: Option<Dagp>,
    rng: &mut Rng,
) -> Result<Vec<Course>, RlError> {
    let starts = (0..count)
        .map(|_| super::network::random_start(model.structure(), c, rng))
        .collect();
    complete_starts(model, starts, c, dagp, rng)
}

/// Courses completed by `model` from `starts` (first `c` columns set), as stored; with DAGP
/// each start draws from its own stream of `rng`.
///
/// # Errors
/// A network failure or DAGP without a critic, in words.
pub fn complete_starts(
    model: &CourseModel,
    starts: Vec<Vec<[f64; 3]>>,
    c: usize,
    dagp: Option<Dagp>,
    rng: &mut Rng,
) -> Result<Vec<Course>, RlError> {
    let done = match dagp {
        Some(d) => {
            let seed = rng.next_u64();
            let mut rngs: Vec<Rng> = (0..starts.len())
                .map(|i| Rng::derive(seed, i as u64))
                .collect();
            model.complete(starts, c, Some((d, &mut rngs)))?
        }
        None => model.complete(starts, c, None)?,
    };
    Ok(done
        .into_iter()
        .filter_map(|m| Course::new(m).ok().map(|c| c.stored()))
        .collect())
}

impl LevelGenerator for RlCourse {
    fn id(&self) -> &'static str {
        self.id
    }

    fn label(&self) -> &'static str {
        match self.id {
            "vs-ddpg" => "VS-DDPG",
            "dqn" => "DQN",
            "sl" => "Supervised",
            _ => "DDPG",
        }
    }

    fn description(&self) -> &'static str {
        match self.id {
            "vs-ddpg" => "actor trained with virtual simulation: fills the course column by column",
            "dqn" => "Q-network: sets one parameter at a time to one of 101 values",
            "sl" => "actor trained by regression on random courses evaluated above 0.7",
            _ => "actor trained with DDPG: fills the course column by column",
        }
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        let mut c = vec![events_condition()];
        c.extend(quality_diversity_conditions());
        if self.id == "dqn" {
            // The DQN sets one value per step: its DAGP distance is between two values
            // (|a - b| / 100), not between whole columns, so it is a condition of its own
            // (the actors' 0.4 would ask for values 40 hundredths apart).
            for spec in c.iter_mut().filter(|s| s.key == "diverse_d") {
                spec.label = "DAGP distance (one value)";
                spec.kind = ConditionKind::Float {
                    min: 0.0,
                    max: 1.0,
                    step: 0.01,
                };
                spec.default = ConditionValue::Float(DQN_DIVERSE_D);
                spec.help = "DAGP: a candidate value counts only when it is farther than this from the network's value (|a - b| / 100: hundredths of the parameter's range)";
            }
        }
        c
    }

    fn validated_help(&self) -> &'static str {
        "Keep only GOOD courses (evaluation at least 0.8)"
    }

    /// A filter near the evaluation's top discards nearly everything: said before the run.
    fn feasibility(
        &self,
        _models: &studio_core::game::ModelCache,
        conditions: &studio_core::game::Conditions,
    ) -> Option<studio_core::game::Feasibility> {
        let filter = conditions.float("filter").unwrap_or(0.0);
        (filter > RARE_FILTER).then(|| studio_core::game::Feasibility {
            warning: format!(
                "Courses evaluated {filter:.2} or more are rare: the run may spend its 2,000 \
                 attempts a course and keep few or none."
            ),
            suggestions: vec![studio_core::game::Suggestion {
                label: format!("Discard below {RARE_FILTER}"),
                set: vec![(
                    "filter",
                    studio_core::game::ConditionValue::Float(RARE_FILTER),
                )],
            }],
        })
    }

    fn attempts_per_level(&self) -> usize {
        2_000
    }

    fn weights_file(&self) -> Option<&'static str> {
        Some(match self.id {
            "vs-ddpg" => "course-vs-ddpg-9.safetensors",
            "dqn" => "course-dqn-9.safetensors",
            "sl" => "course-sl-9.safetensors",
            _ => "course-ddpg-9.safetensors",
        })
    }

    fn preload(
        &self,
        models: &studio_core::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<(), studio_core::jobs::JobError> {
        self.model(models, weights, 9)?;
        Ok(())
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let structure = structure_of(&request.conditions).map_err(JobError::failed)?;
        let model = self
            .model(ctx.models, request.weights.as_deref(), structure.events())
            .map_err(JobError::failed)?;
        let c = request.conditions.usize("ri").unwrap_or(1);
        if c >= structure.columns() {
            return Err(JobError::failed(format!(
                "randomizing {c} columns leaves nothing for the actor: a {}-event course has {} \
                 columns",
                structure.events(),
                structure.columns()
            )));
        }
        let filter = request.conditions.float("filter").unwrap_or(0.0);
        let dagp = dagp_of(&request.conditions).map_err(JobError::failed)?;
        if dagp.is_some() && !model.has_values() {
            return Err(JobError::failed(format!(
                "the {} weights have no critic, and DAGP chooses by the critic: set Diverse: \
                 candidates to 0 or retrain them",
                self.label()
            )));
        }
        let mut rng = Rng::new(request.seed);
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            for course in rl_courses(&model, c, 16, dagp, &mut rng).map_err(JobError::failed)? {
                let more = if super::rules::evaluate(&course).value >= filter {
                    sink.offer(course_level(&course, self.id))
                } else {
                    sink.tried(1)
                };
                if !more {
                    return Ok(());
                }
            }
        }
    }
}
