//! The Mario generators of the sidebar and `generate --game mario`: for now the thesis's first
//! baseline, random patterns (every pattern drawn uniformly from Pat_legal, then the goal
//! column). The CGAN and the TD3 actors join it (issue 33).

use super::game::to_level;
use super::level::MarioLevel;
use super::patterns::{assemble, PatLegal, LEVEL_PATTERNS};
use crate::game::{
    ConditionKind, ConditionSpec, ConditionValue, GenRequest, GenerationContext, LevelGenerator,
    LevelSink,
};
use crate::jobs::JobError;
use crate::rng::Rng;

/// Most patterns a generated level may have (the level then is 4 × this + 1 columns).
pub const MAX_PATTERNS: i64 = 99;

/// The length condition: patterns before the goal column.
pub fn length_condition() -> ConditionSpec {
    ConditionSpec {
        key: "length",
        label: "Length (patterns)",
        kind: ConditionKind::Int {
            min: 4,
            max: MAX_PATTERNS,
        },
        default: ConditionValue::Int(LEVEL_PATTERNS as i64),
        required: false,
        help: "4-column patterns before the goal column (10: the thesis's 41-column levels)",
    }
}

/// A level of `length` patterns drawn uniformly from `pat` with `rng`.
pub fn random_patterns(pat: &PatLegal, length: usize, rng: &mut Rng) -> Option<MarioLevel> {
    if pat.is_empty() {
        return None;
    }
    let patterns: Vec<_> = (0..length)
        .filter_map(|_| pat.get(rng.index(pat.len())).copied())
        .collect();
    MarioLevel::new(assemble(&patterns)).ok()
}

/// Random patterns from Pat_legal: the thesis's naive baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPatterns;

impl LevelGenerator for RandomPatterns {
    fn id(&self) -> &'static str {
        "random-patterns"
    }

    fn label(&self) -> &'static str {
        "Random patterns"
    }

    fn description(&self) -> &'static str {
        "every 4-column pattern drawn at random from the VGLC's legal patterns ($VGLC_DIR or \
         ../shared/data/vglc): the thesis's baseline"
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        vec![length_condition()]
    }

    fn validated_help(&self) -> &'static str {
        "Keep only levels the A* agent finishes"
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let pat = PatLegal::default_set().map_err(JobError::Failed)?;
        let length = request
            .conditions
            .int("length")
            .unwrap_or(LEVEL_PATTERNS as i64)
            .clamp(4, MAX_PATTERNS) as usize;
        for attempt in 0u64.. {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let mut rng = Rng::derive(request.seed, attempt);
            let Some(level) = random_patterns(&pat, length, &mut rng) else {
                if !sink.tried(1) {
                    return Ok(());
                }
                continue;
            };
            if !sink.offer(to_level(&level, "random patterns")) {
                return Ok(());
            }
        }
        Ok(())
    }
}
