//! The Mario generators of the sidebar and `generate --game mario`: the thesis's two
//! baselines — random patterns (every pattern drawn uniformly from Pat_legal) and the CGAN
//! with random vectors (each pattern from the three before it and a random z, repaired by
//! Matching) — then the goal column. The TD3 actors are still to come (issue 33).

use super::cgan::file::{load as load_cgan, CganSidecar, WEIGHTS_FILE};
use super::cgan::{generate_raw, Generator};
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

/// A loaded CGAN and its sidecar.
pub struct CganModel {
    /// The generator network.
    pub generator: Generator,
    /// Its sidecar.
    pub sidecar: CganSidecar,
}

/// Loads the CGAN at `path`.
///
/// # Errors
/// A missing, damaged or mismatched file, in words.
pub fn load_cgan_model(path: &std::path::Path) -> Result<CganModel, String> {
    load_cgan(path).map(|(generator, sidecar)| CganModel { generator, sidecar })
}

/// A level of `length` CGAN patterns after a random real 3-pattern context of `pat`, each
/// pattern from a random z in [0, 1]^3 and repaired by Matching.
///
/// # Errors
/// A network failure, in words.
pub fn cgan_level(
    generator: &Generator,
    pat: &PatLegal,
    length: usize,
    rng: &mut Rng,
) -> Result<Option<MarioLevel>, String> {
    if pat.contexts.is_empty() || pat.is_empty() {
        return Ok(None);
    }
    let mut context = pat.contexts[rng.index(pat.contexts.len())];
    let mut patterns = Vec::with_capacity(length);
    for _ in 0..length {
        let z = [rng.unit() as f32, rng.unit() as f32, rng.unit() as f32];
        let raw = generate_raw(generator, &context, z).map_err(|e| e.to_string())?;
        let Some(&next) = pat.get(pat.nearest(&raw)) else {
            return Ok(None);
        };
        patterns.push(next);
        context = [context[1], context[2], next];
    }
    Ok(MarioLevel::new(assemble(&patterns)).ok())
}

/// The CGAN with random vectors: the thesis's second baseline (Fig. 6.10).
#[derive(Clone, Copy, Debug, Default)]
pub struct CganRandom;

impl CganRandom {
    fn model(
        models: &crate::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<std::sync::Arc<CganModel>, String> {
        let path = weights.map_or_else(
            || models.dir().join(WEIGHTS_FILE),
            std::path::Path::to_path_buf,
        );
        models.get_or_load(&path, load_cgan_model)
    }
}

impl LevelGenerator for CganRandom {
    fn id(&self) -> &'static str {
        "cgan"
    }

    fn label(&self) -> &'static str {
        "CGAN (random z)"
    }

    fn description(&self) -> &'static str {
        "each pattern made by the CGAN from the three before it and a random vector, then \
         replaced by the nearest legal pattern (Matching); starts after three real patterns"
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        vec![length_condition()]
    }

    fn validated_help(&self) -> &'static str {
        "Keep only levels the A* agent finishes"
    }

    fn weights_file(&self) -> Option<&'static str> {
        Some(WEIGHTS_FILE)
    }

    fn preload(
        &self,
        models: &crate::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<(), String> {
        Self::model(models, weights).map(|_| ())
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let model =
            Self::model(ctx.models, request.weights.as_deref()).map_err(JobError::Failed)?;
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
            match cgan_level(&model.generator, &pat, length, &mut rng).map_err(JobError::Failed)? {
                Some(level) => {
                    if !sink.offer(to_level(&level, "cgan")) {
                        return Ok(());
                    }
                }
                None => {
                    if !sink.tried(1) {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }
}
