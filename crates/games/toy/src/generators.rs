//! The toy's generator: random rows of crates.

use crate::level::{toy_level, TOY};
use studio_core::game::{
    ConditionKind, ConditionSpec, ConditionValue, Conditions, GenRequest, GenerationContext,
    LevelGenerator, LevelSink,
};
use studio_core::jobs::JobError;
use studio_core::rng::Rng;

/// Random rows of crates.
pub(crate) struct Stripes;

impl LevelGenerator for Stripes {
    fn id(&self) -> &'static str {
        "stripes"
    }
    fn label(&self) -> &'static str {
        "Stripes"
    }
    fn description(&self) -> &'static str {
        "random crates"
    }
    fn conditions(&self) -> Vec<ConditionSpec> {
        vec![ConditionSpec {
            key: "width",
            label: "Width",
            kind: ConditionKind::Int { min: 1, max: 6 },
            default: ConditionValue::Int(4),
            required: false,
            help: "row length",
        }]
    }
    fn validated_help(&self) -> &'static str {
        "keep levels with crates"
    }
    fn generate(
        &self,
        request: &GenRequest,
        _ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let width = request.conditions.usize("width").unwrap_or(4);
        let mut rng = Rng::new(request.seed);
        loop {
            let rows = (0..2)
                .map(|_| {
                    (0..width)
                        .map(|_| if rng.chance(0.3) { 'x' } else { 'o' })
                        .collect()
                })
                .collect();
            if !sink.offer(toy_level("made", rows)) {
                return Ok(());
            }
        }
    }
}

/// A request for `count` validated levels from the toy's generator.
pub fn toy_request(count: usize, seed: u64) -> GenRequest {
    GenRequest {
        game: TOY,
        generator: "stripes",
        conditions: Conditions::default(),
        count,
        seed,
        validated_only: true,
        weights: None,
    }
}
