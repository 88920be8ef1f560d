//! Blend generators: segments drawn from the VGLC data, and random blends decoded from a VAE's
//! prior.

pub use super::data::segment_level;
use super::data::{self, Segment, Source};
use std::sync::Arc;
use studio_core::game::{
    ConditionKind, ConditionSpec, ConditionValue, GenRequest, GenerationContext, LatentWalk,
    LevelGenerator, LevelSink,
};
use studio_core::jobs::JobError;
use studio_core::level::Level;
use studio_core::rng::Rng;

/// The generators of blend segments, in sidebar order.
pub fn all() -> Vec<Arc<dyn LevelGenerator>> {
    vec![
        Arc::new(DatasetSegments),
        Arc::new(VaeBlends { id: "cte-fc" }),
        Arc::new(VaeBlends { id: "vglc-fc" }),
        Arc::new(VaeBlends { id: "cte-cnn" }),
        Arc::new(VaeBlends { id: "vglc-cnn" }),
        Arc::new(VaeBlends { id: "pix-fc" }),
        Arc::new(VaeBlends { id: "pix-cnn" }),
    ]
}

/// Segments of the training data, drawn at random (the two games' originals to blend from).
#[derive(Clone, Copy, Debug, Default)]
pub struct DatasetSegments;

impl LevelGenerator for DatasetSegments {
    fn id(&self) -> &'static str {
        "dataset"
    }

    fn label(&self) -> &'static str {
        "VGLC segments"
    }

    fn description(&self) -> &'static str {
        "Lode Runner quadrants and padded Zelda rooms from the VGLC folder ($VGLC_DIR or ../shared/data/vglc)"
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        vec![
            ConditionSpec {
                key: "lode_runner",
                label: "Lode Runner",
                kind: ConditionKind::Flag,
                default: ConditionValue::Flag(true),
                required: false,
                help: "draw Lode Runner segments",
            },
            ConditionSpec {
                key: "zelda",
                label: "Zelda",
                kind: ConditionKind::Flag,
                default: ConditionValue::Flag(true),
                required: false,
                help: "draw Zelda rooms",
            },
        ]
    }

    fn validated_help(&self) -> &'static str {
        "Keep only segments their own game's agent gets through"
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let want = |key| request.conditions.flag(key).unwrap_or(true);
        let (lr, zelda) = (want("lode_runner"), want("zelda"));
        if !lr && !zelda {
            return Err(JobError::failed(
                "choose Lode Runner, Zelda or both to draw segments from",
            ));
        }
        let dir = studio_core::datasets::vglc_dir();
        let all = data::load(&dir).map_err(|e| {
            JobError::failed(format!(
                "{e} (the VGLC text levels; set VGLC_DIR to their folder)"
            ))
        })?;
        let pool: Vec<Segment> = data::split(all, 0)
            .train
            .into_iter()
            .filter(|s| match s.source {
                Source::LodeRunner => lr,
                Source::Zelda => zelda,
            })
            .collect();
        let mut rng = Rng::new(request.seed);
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let s = &pool[rng.index(pool.len())];
            if !sink.offer(segment_level(s)) {
                return Ok(());
            }
        }
    }
}

/// Random blends: latent points from the VAE's prior, decoded (argmax per cell).
#[derive(Clone, Copy, Debug)]
pub struct VaeBlends {
    /// The model: `cte-fc` / `cte-cnn` (the FC- or CNN-VAE on the learned tile
    /// representation), `vglc-fc` / `vglc-cnn` (on the unified tiles) or `pix-fc` (the FC-VAE
    /// on the representation learned from pixels).
    pub id: &'static str,
}

/// A blend level (tagged `blend` and its model) of decoded rows.
pub fn blend_level(rows: Vec<String>, name: &str, model: &str) -> Level {
    let mut level = Level::bare(super::ID, name, rows);
    level.tags = vec!["blend".into(), model.into()];
    level
}

impl VaeBlends {
    /// The model, loaded once into `models` (from `weights` when given).
    ///
    /// # Errors
    /// [`ModelError`](studio_core::game::ModelError): a missing or damaged model file (a
    /// [`WeightsError`](studio_ml::WeightsError) inside).
    pub fn model(
        &self,
        models: &studio_core::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<Arc<super::vae::BlendModel>, studio_core::game::ModelError> {
        let path = weights.map_or_else(
            || models.dir().join(format!("blend-{}.safetensors", self.id)),
            std::path::Path::to_path_buf,
        );
        models.get_or_load(&path, super::vae::BlendModel::load)
    }
}

impl LevelGenerator for VaeBlends {
    fn id(&self) -> &'static str {
        self.id
    }

    fn label(&self) -> &'static str {
        match self.id {
            "cte-fc" => "FC-VAE (learned)",
            "vglc-fc" => "FC-VAE (unified)",
            "cte-cnn" => "CNN-VAE (learned)",
            "pix-fc" => "FC-VAE (from pixels)",
            "pix-cnn" => "CNN-VAE (from pixels)",
            _ => "CNN-VAE (unified)",
        }
    }

    fn description(&self) -> &'static str {
        "random blends: points of the latent space drawn from the prior, decoded"
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        Vec::new()
    }

    fn validated_help(&self) -> &'static str {
        "Keep only blends the agent of the game they are like gets through"
    }

    fn weights_file(&self) -> Option<&'static str> {
        Some(match self.id {
            "cte-fc" => "blend-cte-fc.safetensors",
            "vglc-fc" => "blend-vglc-fc.safetensors",
            "cte-cnn" => "blend-cte-cnn.safetensors",
            "pix-fc" => "blend-pix-fc.safetensors",
            "pix-cnn" => "blend-pix-cnn.safetensors",
            _ => "blend-vglc-cnn.safetensors",
        })
    }

    fn preload(
        &self,
        models: &studio_core::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<(), studio_core::jobs::JobError> {
        self.model(models, weights)?;
        Ok(())
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let model = self
            .model(ctx.models, request.weights.as_deref())
            .map_err(JobError::failed)?;
        let mut round = 0u64;
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let blends = super::vae::random_blends(&model, 16, request.seed.wrapping_add(round))
                .map_err(|e| JobError::failed(e.to_string()))?;
            round += 1;
            for rows in blends {
                if !sink.offer(blend_level(rows, "blend", self.id)) {
                    return Ok(());
                }
            }
        }
    }

    fn has_latent(&self) -> bool {
        true
    }

    fn interpolate(
        &self,
        a: &Level,
        b: &Level,
        steps: usize,
        models: &studio_core::game::ModelCache,
    ) -> Result<LatentWalk, JobError> {
        for level in [a, b] {
            super::level::check_rows(&level.cells)
                .map_err(|e| JobError::failed(format!("{}: {e}", level.name)))?;
        }
        let model = self.model(models, None).map_err(JobError::failed)?;
        let mut walk = super::lab::interpolate(&model, &a.cells, &b.cells, steps)
            .map_err(|e| JobError::failed(e.to_string()))?;
        let end = walk.pop().unwrap_or_default();
        let start = walk.remove(0);
        let name = |i: usize| format!("{} to {} {i}", a.name, b.name);
        Ok(LatentWalk {
            start: blend_level(start, &format!("{} ({})", a.name, self.id), self.id),
            between: walk
                .into_iter()
                .enumerate()
                .map(|(i, rows)| blend_level(rows, &name(i + 1), self.id))
                .collect(),
            end: blend_level(end, &format!("{} ({})", b.name, self.id), self.id),
        })
    }

    fn near(
        &self,
        level: &Level,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        super::level::check_rows(&level.cells)
            .map_err(|e| JobError::failed(format!("{}: {e}", level.name)))?;
        let model = self
            .model(ctx.models, request.weights.as_deref())
            .map_err(JobError::failed)?;
        let failed = |e: candle_core::Error| JobError::failed(e.to_string());
        let centre = super::lab::latent(&model, std::slice::from_ref(&level.cells))
            .map_err(failed)?
            .remove(0);
        let mut rng = Rng::new(request.seed);
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            // Sixteen neighbours a round, within half a prior standard deviation.
            let points: Vec<Vec<f32>> = (0..16)
                .map(|_| {
                    centre
                        .iter()
                        .map(|&c| c + NEAR_RADIUS * rng.normal() as f32)
                        .collect()
                })
                .collect();
            for rows in super::lab::decode(&model, &points).map_err(failed)? {
                if !sink.offer(blend_level(rows, &format!("near {}", level.name), self.id)) {
                    return Ok(());
                }
            }
        }
    }
}

/// How far "more like this" strays from a segment's latent mean (standard deviations).
pub const NEAR_RADIUS: f32 = 0.5;
