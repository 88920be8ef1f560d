//! Course generators: random (every parameter uniform in [0, 1] on the chosen structure).

use super::matrix::{Course, Structure};
use crate::game::{
    ConditionKind, ConditionSpec, ConditionValue, Conditions, GenRequest, GenerationContext,
    LevelGenerator, LevelSink,
};
use crate::jobs::JobError;
use crate::level::Level;
use crate::rng::Rng;
use std::sync::Arc;

/// The generators of courses, in sidebar order.
pub fn all() -> Vec<Arc<dyn LevelGenerator>> {
    vec![Arc::new(RandomCourse)]
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
/// An event count other than 9 or 12, in words.
pub fn structure_of(conditions: &Conditions) -> Result<Structure, String> {
    Structure::of_events(conditions.usize("events").unwrap_or(9))
}

/// A course as a studio level.
pub fn course_level(course: &Course, name: impl Into<String>) -> Level {
    Level {
        game: super::game::ID,
        name: name.into(),
        cells: course.to_rows(),
        symmetry: Default::default(),
        tags: Vec::new(),
        figures: None,
        playtests: Vec::new(),
    }
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
        let structure = structure_of(&request.conditions).map_err(JobError::Failed)?;
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
