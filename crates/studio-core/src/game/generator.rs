//! A game's generators: each has an id, a label, the conditions it takes, and `generate`,
//! which offers levels one at a time to a sink that says when to stop. The generation
//! service ([`crate::generation`]) analyses, filters, names and streams what they make.

use super::conditions::{ConditionSpec, ConditionValue, Conditions};
use super::models::ModelCache;
use super::GameId;
use crate::jobs::{Cancel, JobError};
use crate::level::Level;
use std::path::{Path, PathBuf};

/// What the designer asked a generator for.
#[derive(Clone, Debug, PartialEq)]
pub struct GenRequest {
    /// The game.
    pub game: GameId,
    /// The generator's id within its game.
    pub generator: &'static str,
    /// The conditions, by key.
    pub conditions: Conditions,
    /// Levels wanted.
    pub count: usize,
    /// Seed: the same request gives the same levels, in the window and on the command line.
    pub seed: u64,
    /// Keep only levels the game's analysis passes (valid / non-trivial).
    pub validated_only: bool,
    /// Model weights to use instead of the shipped ones.
    pub weights: Option<PathBuf>,
}

/// Where a generator offers what it makes. Both calls return false when it should stop
/// (enough levels, the attempt budget is spent, or the job was cancelled).
pub trait LevelSink {
    /// Offers one made level (counts as one attempt).
    fn offer(&mut self, level: Level) -> bool;
    /// Counts attempts that made no level to offer.
    fn tried(&mut self, attempts: usize) -> bool;
    /// Reports how far a long search is before it offers anything (a GA's generations).
    fn progress(&mut self, _fraction: f32, _note: String) {}
    /// Shows the search's figures so far as line charts (a GA's fitness per generation);
    /// each call replaces the last.
    fn charts(&mut self, _charts: &[Chart]) {}
    /// Says what the search looked at when it ends with fewer levels than asked (a GA:
    /// the levels judged, and which constraint the nearest ones failed).
    fn explain(&mut self, _why: String) {}
}

/// A line chart a generator draws while it searches.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Chart {
    /// Its title ("Best feasible fitness").
    pub title: String,
    /// What the x axis counts ("generation").
    pub x: String,
    /// The lines: a name and its points `[x, y]`.
    pub series: Vec<(String, Vec<[f64; 2]>)>,
}

/// What a generator may use while it runs.
pub struct GenerationContext<'a> {
    /// The loaded models.
    pub models: &'a ModelCache,
    /// Raised when the job is cancelled; its stop flag when a search should end early and
    /// offer what it found.
    pub cancel: &'a Cancel,
}

impl GenerationContext<'_> {
    /// The weights file of a request: its override, or `file` in the models folder.
    pub fn weights_path(&self, request: &GenRequest, file: &str) -> PathBuf {
        request
            .weights
            .clone()
            .unwrap_or_else(|| self.models.dir().join(file))
    }
}

/// A condition the model's training data never met, with nearer ones to try.
#[derive(Clone, Debug, PartialEq)]
pub struct Feasibility {
    /// The warning in words.
    pub warning: String,
    /// Conditions that the data does cover.
    pub suggestions: Vec<Suggestion>,
}

/// One suggested change of conditions ("Nearest: 7×9, 16 moves").
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    /// The button's text.
    pub label: String,
    /// The conditions it sets.
    pub set: Vec<(&'static str, ConditionValue)>,
}

/// A walk through a latent space from level A to level B: the model's reconstructions of
/// both ends and the levels between them.
#[derive(Clone, Debug, PartialEq)]
pub struct LatentWalk {
    /// The model's reconstruction of A.
    pub start: Level,
    /// The levels between, A to B.
    pub between: Vec<Level>,
    /// The model's reconstruction of B.
    pub end: Level,
}

/// A generator of one game.
pub trait LevelGenerator: Send + Sync {
    /// The id used by `--model` and requests (`avalon`).
    fn id(&self) -> &'static str;
    /// Other names `--model` accepts (`avalon-main`).
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }
    /// The name in the sidebar ("Avalon").
    fn label(&self) -> &'static str;
    /// One line on what it does.
    fn description(&self) -> &'static str;
    /// The conditions it takes, in the order the sidebar shows them.
    fn conditions(&self) -> Vec<ConditionSpec>;
    /// What "validated only" keeps, in words.
    fn validated_help(&self) -> &'static str;
    /// True for a search that can end early on [`crate::jobs::Cancel::stop`] and still offer
    /// the best it found (the GA); the window then shows "Stop (keep best)".
    fn stops_early(&self) -> bool {
        false
    }
    /// Attempts per wanted level before a run gives up.
    fn attempts_per_level(&self) -> usize {
        crate::generation::ATTEMPTS_PER_LEVEL
    }
    /// The weights file in the models folder, for learned generators.
    fn weights_file(&self) -> Option<&'static str> {
        None
    }
    /// The model file a generator made at run time reads (a level VAE a designer trained or
    /// opened); `None` for the game's own generators.
    fn model_file(&self) -> Option<&Path> {
        None
    }
    /// Loads the model (if any) into the cache, so later calls do not wait.
    ///
    /// # Errors
    /// [`JobError::Failed`]: why the model cannot be loaded, in words.
    fn preload(&self, _models: &ModelCache, _weights: Option<&Path>) -> Result<(), JobError> {
        Ok(())
    }
    /// Whether the conditions lie outside what the model's data covers (only once the model
    /// is loaded; never blocks).
    fn feasibility(&self, _models: &ModelCache, _conditions: &Conditions) -> Option<Feasibility> {
        None
    }
    /// Settings that run but do nothing with these conditions ("DAGP has no effect at
    /// distance 0.10 or more"), in words: the sidebar shows them under the conditions.
    fn notes(&self, _conditions: &Conditions) -> Vec<String> {
        Vec::new()
    }
    /// Warnings about a request that runs anyway (printed by the command line).
    ///
    /// # Errors
    /// [`JobError::Failed`]: the warning, in words.
    fn check(&self, _request: &GenRequest, _ctx: &GenerationContext<'_>) -> Result<(), JobError> {
        Ok(())
    }
    /// Makes levels for `request`, offering each to `sink` until it says stop.
    ///
    /// # Errors
    /// A model that cannot be loaded or a condition it refuses, in words.
    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError>;
    /// True when the generator has a latent space ("more like this", interpolation).
    fn has_latent(&self) -> bool {
        false
    }
    /// True when the generator can make "more like this" from a level ([`Self::near`]): every
    /// generator with a latent space, and those that continue a level's first part.
    fn has_near(&self) -> bool {
        self.has_latent()
    }
    /// Walks the latent space from `a` to `b` in `steps` levels.
    ///
    /// # Errors
    /// The generator has no latent space, or a level cannot be encoded.
    fn interpolate(
        &self,
        _a: &Level,
        _b: &Level,
        _steps: usize,
        _models: &ModelCache,
    ) -> Result<LatentWalk, JobError> {
        Err(JobError::failed(format!(
            "{} has no latent space",
            self.label()
        )))
    }
    /// "More like this": levels near `level` in the latent space, offered to `sink`.
    ///
    /// # Errors
    /// The generator has no latent space, or the level cannot be encoded.
    fn near(
        &self,
        _level: &Level,
        _request: &GenRequest,
        _ctx: &GenerationContext<'_>,
        _sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        Err(JobError::failed(format!(
            "{} has no latent space",
            self.label()
        )))
    }
}
