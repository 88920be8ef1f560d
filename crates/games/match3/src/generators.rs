//! The match-3 generators as the registry lists them: the four cVAEs (Avalon and Vanilla,
//! on the main and stylized data sets) and the rule-based synthesiser.

use super::evolve::LayoutBreeder;
use super::synth;
use crate::cvae::{self, Condition, CvaeModel, ModelKind, Sample, ValidatedRequest};
use crate::layout::{layout_level, size_conditions, size_of};
use crate::Match3Level;
use std::path::Path;
use std::sync::Arc;
use studio_core::evolve::generator::Fi2PopGenerator;
use studio_core::evolve::pattern::Fitness;
use studio_core::game::{
    ConditionKind, ConditionSpec, ConditionValue, Conditions, Feasibility, GenRequest,
    GenerationContext, LatentWalk, LevelGenerator, LevelSink, ModelCache, Suggestion,
};
use studio_core::jobs::JobError;
use studio_core::level::Level;
use studio_core::rng::Rng;

/// How far "more like this" moves from a level's latent point (standard deviation).
pub const NEAR_SPREAD: f32 = 0.35;
/// Rounds of draws "more like this" makes at most, each wider than the last, to find its count
/// of distinct levels.
const NEAR_ROUNDS: usize = 8;

/// The highest target median moves the cVAE takes (the `moves` condition).
pub const MAX_TARGET_MOVES: f64 = 40.0;
/// The highest cell temperature (the `temperature` condition; 0 is the argmax).
pub const MAX_CELL_TEMPERATURE: f64 = 3.0;
/// The most cells a fresh level must differ in (the `fresh` condition; 0 is off).
pub const MAX_FRESH: i64 = 12;

/// Generated-and-validated attempts per accepted level in one validated round.
const VALIDATED_ROUND_BUDGET: usize = 64;

/// The generators of match-3, in sidebar order.
pub fn all() -> Vec<Arc<dyn LevelGenerator>> {
    vec![
        Arc::new(Cvae::AVALON),
        Arc::new(Cvae::VANILLA),
        Arc::new(Cvae::AVALON_STYLIZED),
        Arc::new(Cvae::VANILLA_STYLIZED),
        Arc::new(Cvae::AVALON_MAIN),
        Arc::new(Cvae::VANILLA_MAIN),
        Arc::new(Synthesiser),
        Arc::new(Fi2PopGenerator::new(Fitness::Alpha, LayoutBreeder)),
        Arc::new(Fi2PopGenerator::new(Fitness::Beta, LayoutBreeder)),
    ]
}

/// How the conditions ask for cells to be decoded: fresh by default (at least
/// [`cvae::generator::DEFAULT_FRESH`] cells from every training layout), `fresh` 0 for the
/// argmax made novel or cells drawn at the cell temperature.
fn decoding_of(conditions: &Conditions) -> cvae::Decoding {
    cvae::Decoding::chosen(conditions.usize("fresh"), conditions.float("temperature"))
}

/// A conditional VAE of SPEC §3 (Avalon: size + moves; Vanilla: size only).
#[derive(Clone, Copy, Debug)]
pub struct Cvae {
    id: &'static str,
    aliases: &'static [&'static str],
    label: &'static str,
    file: &'static str,
    kind: ModelKind,
}

impl Cvae {
    /// Avalon on the paper-like data set (issue 67).
    pub const AVALON: Cvae = Cvae {
        id: "avalon",
        aliases: &["avalon-paperlike"],
        label: "Avalon",
        file: "avalon-paperlike.safetensors",
        kind: ModelKind::Avalon,
    };
    /// Vanilla on the paper-like data set (issue 67).
    pub const VANILLA: Cvae = Cvae {
        id: "vanilla",
        aliases: &["vanilla-paperlike"],
        label: "Vanilla",
        file: "vanilla-paperlike.safetensors",
        kind: ModelKind::Vanilla,
    };
    /// Avalon on the synthesised main data set (the default before issue 67).
    pub const AVALON_MAIN: Cvae = Cvae {
        id: "avalon-main",
        aliases: &[],
        label: "Avalon (synthesised set)",
        file: "avalon-main.safetensors",
        kind: ModelKind::Avalon,
    };
    /// Vanilla on the synthesised main data set (the default before issue 67).
    pub const VANILLA_MAIN: Cvae = Cvae {
        id: "vanilla-main",
        aliases: &[],
        label: "Vanilla (synthesised set)",
        file: "vanilla-main.safetensors",
        kind: ModelKind::Vanilla,
    };
    /// Avalon on the stylized data set.
    pub const AVALON_STYLIZED: Cvae = Cvae {
        id: "avalon-stylized",
        aliases: &[],
        label: "Avalon (stylized)",
        file: "avalon-stylized.safetensors",
        kind: ModelKind::Avalon,
    };
    /// Vanilla on the stylized data set.
    pub const VANILLA_STYLIZED: Cvae = Cvae {
        id: "vanilla-stylized",
        aliases: &[],
        label: "Vanilla (stylized)",
        file: "vanilla-stylized.safetensors",
        kind: ModelKind::Vanilla,
    };

    /// The loaded model of a request (its `weights` override, or the shipped file).
    ///
    /// # Errors
    /// [`studio_core::game::ModelError`]: why the weights cannot be loaded (the cVAE's own
    /// [`ModelError`](crate::cvae::ModelError) inside: missing weights, a damaged file).
    pub fn model(
        &self,
        models: &ModelCache,
        weights: Option<&Path>,
    ) -> Result<Arc<CvaeModel>, studio_core::game::ModelError> {
        let path = weights.map_or_else(|| models.dir().join(self.file), Path::to_path_buf);
        models.get_or_load(&path, CvaeModel::load)
    }

    fn condition(&self, model: &CvaeModel, conditions: &Conditions) -> Condition {
        let (w, h, symmetry) = size_of(conditions);
        let moves = (model.kind() == ModelKind::Avalon)
            .then(|| conditions.float("moves"))
            .flatten();
        Condition::new(w, h, symmetry, moves)
    }
}

fn moves_text(m: f64) -> String {
    if m.fract() == 0.0 {
        format!("{m:.0}")
    } else {
        format!("{m:.1}")
    }
}

impl LevelGenerator for Cvae {
    fn id(&self) -> &'static str {
        self.id
    }

    fn aliases(&self) -> &'static [&'static str] {
        self.aliases
    }

    fn label(&self) -> &'static str {
        self.label
    }

    fn description(&self) -> &'static str {
        match self.kind {
            ModelKind::Avalon => "conditional VAE: size, symmetry and target median moves",
            ModelKind::Vanilla => "conditional VAE: size and symmetry",
        }
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        let mut specs = size_conditions();
        if self.kind == ModelKind::Avalon {
            specs.push(ConditionSpec {
                key: "moves",
                label: "Target moves",
                kind: ConditionKind::Float {
                    min: 1.0,
                    max: MAX_TARGET_MOVES,
                    step: 0.5,
                },
                default: ConditionValue::Float(18.0),
                required: true,
                help: "the median moves the bots should take",
            });
        }
        specs.push(ConditionSpec {
            key: "temperature",
            label: "Cell temperature",
            kind: ConditionKind::Float {
                min: 0.0,
                max: MAX_CELL_TEMPERATURE,
                step: 0.1,
            },
            default: ConditionValue::Float(0.0),
            required: false,
            help: "0: fresh levels start at 1.1, other levels take each cell's likeliest \
                   tile; above 0: cells drawn from the decoder's probabilities (1 as it \
                   gives them; higher: more varied, less faithful to the conditions)",
        });
        specs.push(ConditionSpec {
            key: "fresh",
            label: "New cells (at least)",
            kind: ConditionKind::Int {
                min: 0,
                max: MAX_FRESH,
            },
            default: ConditionValue::Int(cvae::generator::DEFAULT_FRESH as i64),
            required: false,
            help: "N (3 by default): every level differs from each training level of its \
                   size in at least N cells (cells drawn, hotter when needed); 0: near \
                   copies allowed (a copy of a training level gets the cheapest one- or \
                   two-cell edit; more levels are valid)",
        });
        specs
    }

    fn validated_help(&self) -> &'static str {
        match self.kind {
            ModelKind::Avalon => "Keep only levels the bots find valid (and near the target moves)",
            ModelKind::Vanilla => "Keep only levels the bots find valid",
        }
    }

    fn weights_file(&self) -> Option<&'static str> {
        Some(self.file)
    }

    fn preload(&self, models: &ModelCache, weights: Option<&Path>) -> Result<(), JobError> {
        let model = self.model(models, weights)?;
        // The training layouts "New cells" measures against are read here, off the UI
        // thread; a failure is kept and shown by `check` when the condition asks for them.
        let fresh = cvae::Decoding::Fresh {
            min_distance: 1,
            temperature: 1.0,
        };
        let _ = model.check_decoding(fresh);
        Ok(())
    }

    fn feasibility(&self, models: &ModelCache, conditions: &Conditions) -> Option<Feasibility> {
        let model = models
            .peek::<CvaeModel>(&models.dir().join(self.file))?
            .ok()?;
        let condition = self.condition(&model, conditions);
        match model.feasibility(&condition) {
            cvae::Feasibility::Feasible => None,
            cvae::Feasibility::Infeasible {
                reason,
                nearest_same_size,
                nearest_same_moves,
            } => {
                let suggestions = [
                    ("nearest feasible at this size", nearest_same_size),
                    ("nearest feasible at another size", nearest_same_moves),
                ]
                .into_iter()
                .filter_map(|(what, c)| {
                    let c = c?;
                    // The button sets exactly what its label says (one decimal).
                    let rounded = c.moves.map(|m| (m * 10.0).round() / 10.0);
                    let moves = rounded.map(|m| format!(" {} moves", moves_text(m)));
                    let mut set = vec![
                        ("width", ConditionValue::Int(c.width as i64)),
                        ("height", ConditionValue::Int(c.height as i64)),
                    ];
                    if let Some(m) = rounded {
                        set.push(("moves", ConditionValue::Float(m)));
                    }
                    Some(Suggestion {
                        label: format!(
                            "{what}: {}x{}{}",
                            c.width,
                            c.height,
                            moves.unwrap_or_default()
                        ),
                        set,
                    })
                })
                .collect();
                Some(Feasibility {
                    warning: reason,
                    suggestions,
                })
            }
        }
    }

    fn check(&self, request: &GenRequest, ctx: &GenerationContext<'_>) -> Result<(), JobError> {
        let model = self.model(ctx.models, request.weights.as_deref())?;
        let condition = self.condition(&model, &request.conditions);
        model.check(&condition).map_err(|e| e.to_string())?;
        model
            .check_decoding(decoding_of(&request.conditions))
            .map_err(|e| e.to_string())?;
        if request.validated_only {
            ValidatedRequest::new(condition, 1, request.seed)
                .check_promise(model.kind().uses_moves())
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let model = self.model(ctx.models, request.weights.as_deref())?;
        let condition = self.condition(&model, &request.conditions);
        model.check(&condition).map_err(|e| e.to_string())?;
        let wanted = request.count.max(1);
        let decoding = decoding_of(&request.conditions);
        if request.validated_only {
            // One accepted level per round, each from its own seed, so they stream.
            // One pool for the whole job: spares and learned offsets carry across rounds.
            let mut pool = cvae::validated::CandidatePool::default();
            let mut round = 0u64;
            loop {
                if ctx.cancel.is_cancelled() {
                    return Err(JobError::Cancelled);
                }
                let seed = request.seed.wrapping_add(round.wrapping_mul(0x9E37_79B9));
                round += 1;
                let mut r = ValidatedRequest::new(condition, 1, seed);
                r.budget = VALIDATED_ROUND_BUDGET;
                r.decoding = decoding;
                let got = cvae::validated::generate_validated_pooled(
                    &model,
                    &r,
                    &mut pool,
                    Some(ctx.cancel.flag()),
                )
                .map_err(|e| e.to_string())?;
                let accepted = got.accepted.len();
                if !sink.tried(got.attempts.saturating_sub(accepted)) {
                    return Ok(());
                }
                for a in got.accepted {
                    if !sink.offer(layout_level(&a.layout, condition.symmetry)) {
                        return Ok(());
                    }
                }
            }
        }
        let budget = (wanted * studio_core::generation::ATTEMPTS_PER_LEVEL)
            .max(studio_core::generation::MIN_BUDGET);
        let (layouts, attempts) = model
            .generate_distinct_decoded(&condition, wanted, request.seed, budget, decoding)
            .map_err(|e| e.to_string())?;
        if !sink.tried(attempts.saturating_sub(layouts.len())) {
            return Ok(());
        }
        for layout in layouts {
            if !sink.offer(layout_level(&layout, condition.symmetry)) {
                break;
            }
        }
        Ok(())
    }

    fn has_latent(&self) -> bool {
        true
    }

    fn interpolate(
        &self,
        a: &Level,
        b: &Level,
        steps: usize,
        models: &ModelCache,
    ) -> Result<LatentWalk, JobError> {
        let model = self.model(models, None)?;
        let walk = model.interpolate(a, b, steps).map_err(|e| e.to_string())?;
        let level = |l: &super::Layout| Level::from_layout("generated", l);
        Ok(LatentWalk {
            start: level(&walk.start),
            between: walk.between.iter().map(level).collect(),
            end: level(&walk.end),
        })
    }

    fn near(
        &self,
        level: &Level,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let model = self.model(ctx.models, request.weights.as_deref())?;
        let z = model.encode(level).map_err(|e| e.to_string())?;
        let sample = Sample::from_level(level, None).map_err(|e| e.to_string())?;
        let mut condition = sample.condition();
        condition.moves = (model.kind() == ModelKind::Avalon)
            .then(|| request.conditions.float("moves"))
            .flatten();
        let mut rng = Rng::new(request.seed ^ 0x5eed_1111);
        let count = request.count.max(1);
        // Rounds of draws, each a little wider than the last, until the sink has its count
        // of distinct levels (the service drops repeats of the source and of each other).
        for round in 0..NEAR_ROUNDS {
            let spread = NEAR_SPREAD * (1.0 + 0.5 * round as f32);
            let mut zs = Vec::with_capacity(count * z.len());
            for _ in 0..count {
                zs.extend(z.iter().map(|v| v + spread * rng.normal() as f32));
            }
            let layouts = model
                .decode_novel(&zs, &vec![condition; count])
                .map_err(|e| e.to_string())?;
            for layout in layouts {
                if !sink.offer(layout_level(&layout, condition.symmetry)) {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}

/// The rule-based synthesiser that made the data sets.
#[derive(Clone, Copy, Debug, Default)]
pub struct Synthesiser;

impl LevelGenerator for Synthesiser {
    fn id(&self) -> &'static str {
        "synth"
    }

    fn label(&self) -> &'static str {
        "Rule-based"
    }

    fn description(&self) -> &'static str {
        "the synthesiser that made the data sets: mirrored notches, holes and GAP runs"
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        size_conditions()
    }

    fn validated_help(&self) -> &'static str {
        "Keep only levels the bots find valid"
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let (w, h, symmetry) = size_of(&request.conditions);
        let mut rng = Rng::new(request.seed);
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let features = rng.index(2 + w * h / 16);
            let more = match synth::synthesise(w, h, symmetry, features, &mut rng) {
                Some(layout) => sink.offer(layout_level(&layout, symmetry)),
                None => sink.tried(1),
            };
            if !more {
                return Ok(());
            }
        }
    }
}
