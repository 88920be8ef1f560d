//! Blend generators: segments drawn from the VGLC data, and random blends decoded from a VAE's
//! prior.

use super::data::{self, Segment, Source};
use crate::game::{
    ConditionKind, ConditionSpec, ConditionValue, GenRequest, GenerationContext, LevelGenerator,
    LevelSink,
};
use crate::jobs::JobError;
use crate::level::Level;
use crate::rng::Rng;
use std::path::PathBuf;
use std::sync::Arc;

/// The generators of blend segments, in sidebar order.
pub fn all() -> Vec<Arc<dyn LevelGenerator>> {
    vec![
        Arc::new(DatasetSegments),
        Arc::new(VaeBlends { id: "cte-fc" }),
        Arc::new(VaeBlends { id: "vglc-fc" }),
    ]
}

/// The VGLC folder: `$VGLC_DIR`, else [`data::DEFAULT_DIR`] (beside the repository).
pub fn vglc_dir() -> PathBuf {
    std::env::var_os("VGLC_DIR").map_or_else(|| PathBuf::from(data::DEFAULT_DIR), PathBuf::from)
}

/// A segment as a studio level, tagged with its source game.
pub fn segment_level(segment: &Segment) -> Level {
    Level {
        game: super::ID,
        name: segment.name.clone(),
        cells: segment.rows.clone(),
        symmetry: Default::default(),
        tags: vec![match segment.source {
            Source::LodeRunner => "lode-runner".into(),
            Source::Zelda => "zelda".into(),
        }],
        figures: None,
        playtests: Vec::new(),
    }
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
            return Err(JobError::Failed(
                "choose Lode Runner, Zelda or both to draw segments from".into(),
            ));
        }
        let dir = vglc_dir();
        let all = data::load(&dir).map_err(|e| {
            JobError::Failed(format!(
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
    /// The model: `cte-fc` (the FC-VAE on the learned tile representation) or `vglc-fc` (on
    /// the unified tiles).
    pub id: &'static str,
}

impl VaeBlends {
    fn model(
        &self,
        models: &crate::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<Arc<super::vae::BlendModel>, String> {
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
        if self.id == "cte-fc" {
            "FC-VAE (learned)"
        } else {
            "FC-VAE (unified)"
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
        Some(if self.id == "cte-fc" {
            "blend-cte-fc.safetensors"
        } else {
            "blend-vglc-fc.safetensors"
        })
    }

    fn preload(
        &self,
        models: &crate::game::ModelCache,
        weights: Option<&std::path::Path>,
    ) -> Result<(), String> {
        self.model(models, weights).map(|_| ())
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let model = self
            .model(ctx.models, request.weights.as_deref())
            .map_err(JobError::Failed)?;
        let mut round = 0u64;
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let blends = super::vae::random_blends(&model, 16, request.seed.wrapping_add(round))
                .map_err(|e| JobError::Failed(e.to_string()))?;
            round += 1;
            for rows in blends {
                let level = Level {
                    game: super::ID,
                    name: "blend".into(),
                    cells: rows,
                    symmetry: Default::default(),
                    tags: vec!["blend".into(), self.id.into()],
                    figures: None,
                    playtests: Vec::new(),
                };
                if !sink.offer(level) {
                    return Ok(());
                }
            }
        }
    }
}
