//! The Mario generators of the sidebar and `generate --game mario`: the thesis's two
//! baselines — random patterns (every pattern drawn uniformly from Pat_legal) and the CGAN
//! with random vectors (each pattern from the three before it and a random z, repaired by
//! Matching) — then the goal column. The TD3 actors are still to come (issue 33).

use super::cgan::file::{load as load_cgan, CganSidecar, WEIGHTS_FILE};
use super::cgan::{generate_raw, Generator};
use super::level::to_level;
use super::level::MarioLevel;
use super::patterns::{assemble, PatLegal, LEVEL_PATTERNS};
use studio_core::game::{
    ConditionKind, ConditionSpec, ConditionValue, GenRequest, GenerationContext, LevelGenerator,
    LevelSink,
};
use studio_core::jobs::JobError;
use studio_core::rng::Rng;

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

/// The length condition's value, in 4..=[`MAX_PATTERNS`] (10 when unset).
fn length_of(conditions: &studio_core::game::Conditions) -> usize {
    conditions
        .int("length")
        .unwrap_or(LEVEL_PATTERNS as i64)
        .clamp(4, MAX_PATTERNS) as usize
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
        let pat = PatLegal::default_set().map_err(JobError::failed)?;
        let length = length_of(&request.conditions);
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
pub fn load_cgan_model(path: &std::path::Path) -> Result<CganModel, studio_ml::WeightsError> {
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
) -> Result<Option<MarioLevel>, candle_core::Error> {
    if pat.contexts.is_empty() || pat.is_empty() {
        return Ok(None);
    }
    let mut context = pat.contexts[rng.index(pat.contexts.len())];
    let mut patterns = Vec::with_capacity(length);
    for _ in 0..length {
        let z = [rng.unit() as f32, rng.unit() as f32, rng.unit() as f32];
        let raw = generate_raw(generator, &context, z)?;
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
        models: &studio_core::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<std::sync::Arc<CganModel>, studio_core::game::ModelError> {
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
        models: &studio_core::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<(), studio_core::jobs::JobError> {
        Self::model(models, weights)?;
        Ok(())
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let model =
            Self::model(ctx.models, request.weights.as_deref()).map_err(JobError::failed)?;
        let pat = PatLegal::default_set().map_err(JobError::failed)?;
        let length = length_of(&request.conditions);
        for attempt in 0u64.. {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let mut rng = Rng::derive(request.seed, attempt);
            match cgan_level(&model.generator, &pat, length, &mut rng).map_err(JobError::failed)? {
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

/// Patterns of a level that "More like this" keeps before the actor continues it.
pub const NEAR_KEEP: usize = 3;
/// DAGP "More like this" uses on the continued patterns: of 10 random vectors, those whose
/// pattern differs from the actor's at all (KL_pattern above 0), the one the critic values
/// most. (The actor alone would continue a level it made exactly as it did.)
pub const NEAR_DAGP: studio_ml::rl::Dagp = studio_ml::rl::Dagp {
    n: 10,
    d: 0.0,
    p: 1.0,
};
/// Levels a TD3 generator makes at most for one it keeps (the rest are unplayable).
const TD3_ATTEMPTS: usize = 64;

/// The TD3 and VS-TD3 generators (§6.3, §6.6): after three real patterns, two from the CGAN
/// with random vectors (or `ri` of them), then the actor's; DAGP on the 4th–6th patterns when
/// asked. A level A* cannot finish is made again with the next seed (the thesis's 2–3 of 50
/// unplayable, regenerated here).
#[derive(Clone, Copy, Debug)]
pub struct Td3Generator {
    /// `td3` or `vs-td3`.
    pub id: &'static str,
}

/// A loaded TD3 generator with the CGAN it steers.
pub struct Td3Bundle {
    /// The actor and critic.
    pub model: super::td3::file::Td3Model,
    /// The CGAN.
    pub cgan: CganModel,
}

impl Td3Bundle {
    /// The generator of this actor and critic over `pat`, 10 patterns a level.
    pub fn rl<'a>(&'a self, pat: &'a PatLegal) -> super::td3::MarioRl<'a> {
        super::td3::MarioRl {
            cgan: &self.cgan.generator,
            pat,
            actor: Some(&self.model.actor),
            critic: Some(&self.model.critic),
            length: LEVEL_PATTERNS,
        }
    }
}

/// Loads the actor at `path` and the CGAN beside it (`mario-cgan.safetensors` in the same
/// folder), and checks that the CGAN is the one the actor was trained with.
///
/// # Errors
/// A missing, damaged or mismatched file, in words.
pub fn load_td3_bundle(path: &std::path::Path) -> Result<Td3Bundle, studio_ml::WeightsError> {
    let model = super::td3::file::load(path)?;
    let cgan_path = studio_core::io::folder_of(path).join(WEIGHTS_FILE);
    let cgan = load_cgan_model(&cgan_path)?;
    // The pairing is checked whatever the sidecars say: an actor steers the one CGAN it was
    // trained with, and a sidecar that names none cannot show it.
    let Some(want) = &model.sidecar.cgan else {
        return Err(format!(
            "{}: its sidecar does not name the CGAN it was trained to steer (cgan: None), so \
             the pairing with {} cannot be checked; retrain it ({})",
            path.display(),
            cgan_path.display(),
            model.sidecar.command
        )
        .into());
    };
    let Some(have) = &cgan.sidecar.weights else {
        return Err(format!(
            "{}: its sidecar carries no stamp of its weights, so it cannot be matched with the \
             actor {}; restamp it (`level-studio train --model mario-cgan --restamp --out {}`) \
             if you trust it",
            cgan_path.display(),
            path.display(),
            cgan_path.display()
        )
        .into());
    };
    if !want.same_bytes(have) {
        return Err(format!(
            "{} was trained to steer another CGAN than {}: retrain it ({})",
            path.display(),
            cgan_path.display(),
            model.sidecar.command
        )
        .into());
    }
    Ok(Td3Bundle { model, cgan })
}

/// The window's DAGP distance, the smallest the thesis tried (Fig. 6.19: 0.05, 0.1, 0.2). On
/// KL_pattern's scale (docs/mario.md, "KL_level") two legal patterns are 1.5 apart at the
/// median and 0.05 apart only when nearly the same, so each of the thesis's distances keeps
/// out the near-copies of the actor's pattern and lets the others compete.
pub const DAGP_DISTANCE: f64 = 0.05;

/// What makes DAGP inert with these conditions, in words (none when it is off or works).
/// Every distance the window offers (up to 1) has an effect: 84 % of pairs of legal patterns
/// are farther apart than 1.
pub fn dagp_notes(conditions: &studio_core::game::Conditions) -> Vec<String> {
    let n = conditions.usize("diverse_n").unwrap_or(0);
    if n == 0 {
        return Vec::new();
    }
    let mut notes = Vec::new();
    let ri = conditions.usize("ri").unwrap_or(super::td3::RANDOM_START);
    let last = super::td3::DAGP_PATTERNS.end;
    if ri >= last {
        notes.push(format!(
            "DAGP has no effect with Randomize first {ri}: it acts on patterns {}–{last}, \
             which are already random",
            super::td3::DAGP_PATTERNS.start + 1
        ));
    }
    notes
}

/// The RL conditions of the Mario actors: randomized initialization and DAGP.
pub fn td3_conditions() -> Vec<ConditionSpec> {
    vec![
        ConditionSpec {
            key: "ri",
            label: "Randomize first",
            kind: ConditionKind::Int {
                min: 1,
                max: LEVEL_PATTERNS as i64,
            },
            default: ConditionValue::Int(super::td3::RANDOM_START as i64),
            required: false,
            help: "patterns made from random vectors before the actor takes over (the thesis: 2; more: more varied, lower evaluation)",
        },
        ConditionSpec {
            key: "diverse_n",
            label: "DAGP candidates",
            kind: ConditionKind::Int { min: 0, max: 50 },
            default: ConditionValue::Int(0),
            required: false,
            help: "DAGP on the 4th-6th patterns: draw this many random vectors and take the one the critic values most among those whose pattern is far from the actor's (0: off)",
        },
        ConditionSpec {
            key: "diverse_d",
            label: "DAGP distance",
            kind: ConditionKind::Float {
                min: 0.0,
                max: 1.0,
                step: 0.05,
            },
            default: ConditionValue::Float(DAGP_DISTANCE),
            required: false,
            help: "DAGP: a candidate counts only when its pattern is farther than this from the actor's (KL_pattern, on which two legal patterns are 1.5 apart at the median; the thesis tried 0.05, 0.1, 0.2)",
        },
    ]
}

impl Td3Generator {
    fn bundle(
        &self,
        models: &studio_core::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<std::sync::Arc<Td3Bundle>, studio_core::game::ModelError> {
        let path = weights.map_or_else(
            || models.dir().join(super::td3::file::weights_file(self.id)),
            std::path::Path::to_path_buf,
        );
        models.get_or_load(&path, load_td3_bundle)
    }

    fn making(
        conditions: &studio_core::game::Conditions,
    ) -> Result<super::td3::Making, studio_ml::rl::RlError> {
        let random = conditions
            .usize("ri")
            .unwrap_or(super::td3::RANDOM_START)
            .clamp(1, LEVEL_PATTERNS);
        let n = conditions.usize("diverse_n").unwrap_or(0);
        let dagp = if n == 0 {
            None
        } else {
            let d = studio_ml::rl::Dagp {
                n,
                d: conditions.float("diverse_d").unwrap_or(DAGP_DISTANCE),
                p: 1.0,
            };
            d.check()?;
            Some(d)
        };
        Ok(super::td3::Making { random, dagp })
    }

    /// Makes levels with `make`, attempt `k` drawing from `Rng::derive(request.seed, k)`,
    /// and offers the playable ones until the sink wants no more or the job is cancelled.
    fn each_attempt(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
        mut make: impl FnMut(&mut Rng) -> Result<Vec<super::td3::Build>, super::td3::Td3Error>,
    ) -> Result<(), JobError> {
        for attempt in 0u64.. {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let builds = make(&mut Rng::derive(request.seed, attempt)).map_err(JobError::failed)?;
            if !self.offer(&builds, sink) {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Offers the playable ones of `builds` to `sink`; false when the sink wants no more.
    fn offer(&self, builds: &[super::td3::Build], sink: &mut dyn LevelSink) -> bool {
        for b in builds {
            let playable = b.level().ok().filter(|l| {
                let map = std::sync::Arc::new(super::engine::LevelMap::from_level(l));
                super::evaluate::astar_run(&map).won()
            });
            let more = match playable {
                Some(level) => sink.offer(to_level(&level, self.id)),
                None => sink.tried(1),
            };
            if !more {
                return false;
            }
        }
        true
    }
}

impl LevelGenerator for Td3Generator {
    fn id(&self) -> &'static str {
        self.id
    }

    fn label(&self) -> &'static str {
        if self.id == "vs-td3" {
            "VS-TD3"
        } else {
            "TD3"
        }
    }

    fn description(&self) -> &'static str {
        if self.id == "vs-td3" {
            "an actor trained with virtual simulation steers the CGAN pattern by pattern; \
             levels A* cannot finish are made again"
        } else {
            "an actor trained with TD3 steers the CGAN pattern by pattern; levels A* cannot \
             finish are made again"
        }
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        td3_conditions()
    }

    fn notes(&self, conditions: &studio_core::game::Conditions) -> Vec<String> {
        dagp_notes(conditions)
    }

    fn validated_help(&self) -> &'static str {
        "Every level is already checked by A*"
    }

    fn attempts_per_level(&self) -> usize {
        TD3_ATTEMPTS
    }

    fn weights_file(&self) -> Option<&'static str> {
        Some(super::td3::file::weights_file(self.id))
    }

    fn preload(
        &self,
        models: &studio_core::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<(), studio_core::jobs::JobError> {
        self.bundle(models, weights)?;
        Ok(())
    }

    fn has_near(&self) -> bool {
        true
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let bundle = self
            .bundle(ctx.models, request.weights.as_deref())
            .map_err(JobError::failed)?;
        let pat = PatLegal::default_set().map_err(JobError::failed)?;
        let making = Self::making(&request.conditions).map_err(JobError::failed)?;
        let gen = bundle.rl(&pat);
        self.each_attempt(request, ctx, sink, |rng| {
            let seed = rng.next_u64();
            Ok(super::td3::make_levels(&gen, 1, seed, making)?)
        })
    }

    /// "More like this": the level's first [`NEAR_KEEP`] patterns kept (its bottom 14 rows),
    /// the rest continued by the actor with DAGP ([`NEAR_DAGP`]) on every pattern, so that
    /// the continuations differ from each other while the critic keeps them good.
    fn near(
        &self,
        level: &studio_core::level::Level,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let bundle = self
            .bundle(ctx.models, request.weights.as_deref())
            .map_err(JobError::failed)?;
        let pat = PatLegal::default_set().map_err(JobError::failed)?;
        let mario =
            MarioLevel::from_rows(&level.cells).map_err(|e| JobError::failed(e.to_string()))?;
        let gen = bundle.rl(&pat);
        self.each_attempt(request, ctx, sink, |rng| {
            let mut builds = vec![super::td3::continue_from(&mario, NEAR_KEEP, &pat, rng)?];
            super::td3::complete(
                &gen,
                &mut builds,
                std::slice::from_mut(rng),
                Some(NEAR_DAGP),
                NEAR_KEEP..LEVEL_PATTERNS,
            )?;
            Ok(builds)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_core::game::{ConditionValue, Conditions};

    /// Issue 47, E11: the window's DAGP distance is one where DAGP works, and a setting that
    /// makes DAGP inert is said.
    #[test]
    fn dagp_defaults_to_a_distance_that_works_and_inert_settings_are_noted() {
        let mut c = Conditions::defaults(&td3_conditions());
        assert_eq!(c.float("diverse_d"), Some(DAGP_DISTANCE));
        assert!(dagp_notes(&c).is_empty(), "DAGP off: nothing to say");
        c.set("diverse_n", ConditionValue::Int(10));
        assert!(dagp_notes(&c).is_empty(), "the default distance works");
        // Issue 44, item 5: on KL_pattern's scale every distance the thesis tried works.
        for d in [0.1, 0.2, 1.0] {
            c.set("diverse_d", ConditionValue::Float(d));
            assert!(dagp_notes(&c).is_empty(), "distance {d}");
        }
        c.set("diverse_d", ConditionValue::Float(0.05));
        c.set("ri", ConditionValue::Int(8));
        let notes = dagp_notes(&c);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("Randomize first 8"), "{notes:?}");
        c.set("ri", ConditionValue::Int(5));
        assert!(dagp_notes(&c).is_empty());
    }
}
