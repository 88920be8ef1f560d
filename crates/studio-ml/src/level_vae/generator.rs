//! A trained level VAE as one of its game's generators: it joins the game's list when a
//! model file is opened or trained ([`register`]), takes the sizes its training levels had
//! (and its figure, when conditioned on one), walks its latent space, makes "more like this",
//! and never offers a copy of a training level.

use super::model::{read_sidecar, LevelVae, LevelVaeError};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use studio_core::game::{
    registry, ConditionKind, ConditionSpec, ConditionValue, GenRequest, GenerationContext,
    LatentWalk, LevelGenerator, LevelSink, ModelCache,
};
use studio_core::jobs::JobError;
use studio_core::level::Level;
use studio_core::rng::Rng;

/// Latent draws tried per wanted level before a run gives up (copies and broken levels are
/// skipped).
const ATTEMPTS_PER_LEVEL: usize = 400;
/// Draws compared when a side-scroller's next window is chosen.
const WINDOW_TRIES: usize = 8;

/// A level VAE file as a generator.
pub struct LevelVaeGenerator {
    id: &'static str,
    label: &'static str,
    path: PathBuf,
    sidecar: super::LevelVaeSidecar,
    figure_label: Option<&'static str>,
}

/// Text kept for the life of the program (a generator's id and label are `&'static str`;
/// a designer opens a handful of models in a session).
fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// The generator id of a model file: `vae-` and the file's name without its extension.
pub fn id_of(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "model".into());
    let clean: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("vae-{clean}")
}

/// Reads the model at `path` (sidecar, game, weights) and adds it to its game's generators,
/// in place of an earlier one of the same id; answers it.
///
/// # Errors
/// [`LevelVaeError`]: the model does not load.
pub fn register(path: &Path) -> Result<Arc<LevelVaeGenerator>, LevelVaeError> {
    let model = LevelVae::load(path)?;
    let game = model.game()?;
    let id = id_of(path);
    let generator = Arc::new(LevelVaeGenerator {
        id: leak(id.clone()),
        label: leak(format!("Level VAE: {}", &id[4..])),
        path: path.to_path_buf(),
        figure_label: model
            .sidecar
            .condition
            .as_ref()
            .map(|c| leak(format!("Target {}", c.name))),
        sidecar: model.sidecar,
    });
    registry::add_learned(game.id(), generator.clone());
    Ok(generator)
}

impl LevelVaeGenerator {
    /// The weights file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What its sidecar says.
    pub fn sidecar(&self) -> &super::LevelVaeSidecar {
        &self.sidecar
    }

    fn model(&self, models: &ModelCache) -> Result<Arc<LevelVae>, JobError> {
        models
            .get_or_load(&self.path, |p| LevelVae::load(p).map_err(|e| e.to_string()))
            .map_err(JobError::failed)
    }

    /// The size a request asks for (the first training size by default).
    fn size(&self, request: &GenRequest) -> (usize, usize) {
        let fallback = self.sidecar.sizes.first().copied().unwrap_or((1, 1));
        match self.sidecar.window {
            Some(w) => (
                request.conditions.usize("width").unwrap_or(w.width * 4),
                w.height,
            ),
            None => request.conditions.size().unwrap_or(fallback),
        }
    }

    fn level(&self, game: studio_core::game::GameId, rows: Vec<String>) -> Level {
        // The generation service tags it with this generator's id.
        Level::bare(game, "generated", rows)
    }

    /// Offers `rows` unless the game refuses them or they copy a training level; false when
    /// the sink says stop.
    fn offer(
        &self,
        game: &dyn studio_core::game::Game,
        rows: Vec<String>,
        sink: &mut dyn LevelSink,
    ) -> bool {
        if game.check(&rows).is_err() || self.sidecar.is_training_copy(&rows) {
            return sink.tried(1);
        }
        sink.offer(self.level(game.id(), rows))
    }
}

impl LevelGenerator for LevelVaeGenerator {
    fn id(&self) -> &'static str {
        self.id
    }
    fn label(&self) -> &'static str {
        self.label
    }
    fn description(&self) -> &'static str {
        "A level VAE trained on a pack of this game: levels drawn from its latent space, \
         never a copy of a training level."
    }
    fn conditions(&self) -> Vec<ConditionSpec> {
        let mut specs = Vec::new();
        let sizes = &self.sidecar.sizes;
        match self.sidecar.window {
            Some(w) => specs.push(ConditionSpec {
                key: "width",
                label: "Columns",
                kind: ConditionKind::Int {
                    min: w.width as i64,
                    max: 1_000,
                },
                default: ConditionValue::Int((w.width * 4) as i64),
                required: false,
                help: "Columns of the level, made window by window.",
            }),
            None => {
                let lo = |f: fn(&(usize, usize)) -> usize| sizes.iter().map(f).min().unwrap_or(1);
                let hi = |f: fn(&(usize, usize)) -> usize| sizes.iter().map(f).max().unwrap_or(1);
                let first = sizes.first().copied().unwrap_or((1, 1));
                for (key, label, min, max, default) in [
                    ("width", "Width", lo(|s| s.0), hi(|s| s.0), first.0),
                    ("height", "Height", lo(|s| s.1), hi(|s| s.1), first.1),
                ] {
                    specs.push(ConditionSpec {
                        key,
                        label,
                        kind: ConditionKind::Int {
                            min: min as i64,
                            max: max as i64,
                        },
                        default: ConditionValue::Int(default as i64),
                        required: false,
                        help: "Sizes the training levels had.",
                    });
                }
            }
        }
        if let (Some(c), Some(label)) = (&self.sidecar.condition, self.figure_label) {
            specs.push(ConditionSpec {
                key: "figure",
                label,
                kind: ConditionKind::Float {
                    min: c.min,
                    max: c.max.max(c.min),
                    step: ((c.max - c.min) / 50.0).max(0.01),
                },
                default: ConditionValue::Float(c.median),
                required: false,
                help: "The figure of the game's analysis the model was conditioned on, within \
                       the training levels' range.",
            });
        }
        specs.push(ConditionSpec {
            key: "temperature",
            label: "Temperature",
            kind: ConditionKind::Float {
                min: 0.0,
                max: 3.0,
                step: 0.05,
            },
            // A side-scroller's argmax is mostly flat ground (its sparse tiles lose to the
            // empty one), copying training windows; every other argmax falls into the basins
            // of repeated training levels: drawn unless told (docs/level-vae.md).
            default: ConditionValue::Float(self.sidecar.default_temperature()),
            required: false,
            help: "0: each cell its most likely tile; above 0: tiles drawn, more freely the \
                   higher.",
        });
        specs
    }
    fn validated_help(&self) -> &'static str {
        "Keep only levels the game's own analysis passes."
    }
    fn attempts_per_level(&self) -> usize {
        ATTEMPTS_PER_LEVEL
    }
    fn model_file(&self) -> Option<&Path> {
        Some(&self.path)
    }
    fn preload(&self, models: &ModelCache, _weights: Option<&Path>) -> Result<(), JobError> {
        self.model(models).map(|_| ())
    }
    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let model = self.model(ctx.models)?;
        let game = model.game().map_err(|e| e.to_string())?;
        let size = self.size(request);
        let figure = request.conditions.float("figure");
        let temperature = request
            .conditions
            .float("temperature")
            .unwrap_or(self.sidecar.default_temperature());
        let mut rng = Rng::derive(request.seed, 0x7ae1);
        loop {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let rows = if self.sidecar.window.is_some() {
                model
                    .generate_long(
                        size.0,
                        temperature,
                        game.unique_tile().map(usize::from),
                        &mut rng,
                        WINDOW_TRIES,
                    )
                    .map_err(|e| e.to_string())?
            } else {
                let z = model.prior(&mut rng, 1.0);
                let logits = model
                    .logits(&[z], size, figure)
                    .map_err(|e| e.to_string())?;
                model.rows_from_logits(&logits[0], size, temperature, Some(&mut rng))
            };
            if !self.offer(game, rows, sink) {
                return Ok(());
            }
        }
    }
    fn has_latent(&self) -> bool {
        self.sidecar.window.is_none()
    }
    fn interpolate(
        &self,
        a: &Level,
        b: &Level,
        steps: usize,
        models: &ModelCache,
    ) -> Result<LatentWalk, JobError> {
        let model = self.model(models)?;
        model.check_game(a).map_err(|e| e.to_string())?;
        model.check_game(b).map_err(|e| e.to_string())?;
        let mut walk = model
            .interpolate(&a.cells, &b.cells, steps)
            .map_err(|e| e.to_string())?;
        let end = walk.pop().unwrap_or_default();
        let start = walk.remove(0);
        let between = walk;
        let name = |rows: Vec<String>, n: String| {
            let mut l = self.level(a.game, rows);
            l.name = n;
            l
        };
        Ok(LatentWalk {
            start: name(start, format!("{} (model)", a.name)),
            between: between
                .into_iter()
                .enumerate()
                .map(|(i, r)| name(r, format!("step-{:02}", i + 1)))
                .collect(),
            end: name(end, format!("{} (model)", b.name)),
        })
    }
    fn near(
        &self,
        level: &Level,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let model = self.model(ctx.models)?;
        model.check_game(level).map_err(|e| e.to_string())?;
        let game = model.game().map_err(|e| e.to_string())?;
        let size = super::data::size_of(&level.cells).ok_or("the level has ragged rows")?;
        let (mu, logvar) = model
            .encode(&level.cells, None)
            .map_err(|e| e.to_string())?;
        let mut rng = Rng::derive(request.seed, 0x9ea7);
        for round in 0.. {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            // Each round a little wider than the last.
            let spread = 0.5 + 0.1 * (round / 8) as f32;
            let z: Vec<f32> = mu
                .iter()
                .zip(&logvar)
                .map(|(m, lv)| m + spread * (0.5 * lv).exp().max(0.2) * rng.normal() as f32)
                .collect();
            let rows = model.decode(&[z], size, None).map_err(|e| e.to_string())?;
            let rows = rows.into_iter().next().unwrap_or_default();
            if rows == level.cells {
                if !sink.tried(1) {
                    return Ok(());
                }
                continue;
            }
            if !self.offer(game, rows, sink) {
                return Ok(());
            }
        }
        Ok(())
    }
}

/// Whether `path`'s sidecar is a level VAE's (without loading the weights).
pub fn is_level_vae(path: &Path) -> bool {
    read_sidecar(path).is_ok()
}
