//! The generators the sidebar offers and the work behind them, free of egui: which generator,
//! the conditions, the shared cache of loaded models, and the generation job that streams
//! each finished candidate (level + validated figures) to the window as it is made.

use super::jobs::{Cancel, Reporter};
use crate::level::{Figures, Game, Level};
use crate::longcat::{self, LongcatLevel};
use crate::match3::{validate, Layout, ValidationConfig};
use crate::model::{
    generate_validated, Condition, Feasibility, Generator, ModelKind, ValidatedRequest,
};
use crate::rl::{DqnModel, Policy};
use crate::rng::Rng;
use crate::symmetry::Symmetry;
use crossbeam_channel::Sender;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Temperature of the DQN policy in the sidebar (some variety, mostly greedy).
pub const DQN_TEMPERATURE: f64 = 0.2;
/// How far "more like this" moves from a candidate's latent point (standard deviation).
pub const NEAR_SPREAD: f32 = 0.35;
/// Attempts per wanted level before a validated-only run gives up.
const ATTEMPTS_PER_LEVEL: usize = 40;

/// A generator in the sidebar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GeneratorChoice {
    /// Avalon cVAE (size + moves), main data set.
    Avalon,
    /// Vanilla cVAE (size only), main data set.
    Vanilla,
    /// Avalon trained on the stylized data set.
    AvalonStylized,
    /// Vanilla trained on the stylized data set.
    VanillaStylized,
    /// The rule-based match-3 synthesiser.
    Synthesiser,
    /// Longcat solution-down (always solvable).
    SolutionDown,
    /// Longcat puzzle-up.
    PuzzleUp,
    /// The Longcat DQN (8×8 only).
    LongcatDqn,
}

impl GeneratorChoice {
    /// The generators of a game, in sidebar order.
    pub fn of(game: Game) -> &'static [GeneratorChoice] {
        use GeneratorChoice::*;
        match game {
            Game::Match3 => &[
                Avalon,
                Vanilla,
                AvalonStylized,
                VanillaStylized,
                Synthesiser,
            ],
            Game::Longcat => &[SolutionDown, PuzzleUp, LongcatDqn],
        }
    }

    /// The name in the sidebar.
    pub fn label(self) -> &'static str {
        match self {
            GeneratorChoice::Avalon => "Avalon",
            GeneratorChoice::Vanilla => "Vanilla",
            GeneratorChoice::AvalonStylized => "Avalon (stylized)",
            GeneratorChoice::VanillaStylized => "Vanilla (stylized)",
            GeneratorChoice::Synthesiser => "Rule-based",
            GeneratorChoice::SolutionDown => "Solution-down",
            GeneratorChoice::PuzzleUp => "Puzzle-up",
            GeneratorChoice::LongcatDqn => "Longcat DQN",
        }
    }

    /// The tag generated levels carry.
    pub fn tag(self) -> &'static str {
        match self {
            GeneratorChoice::Avalon => "avalon",
            GeneratorChoice::Vanilla => "vanilla",
            GeneratorChoice::AvalonStylized => "avalon-stylized",
            GeneratorChoice::VanillaStylized => "vanilla-stylized",
            GeneratorChoice::Synthesiser => "synth",
            GeneratorChoice::SolutionDown => "solution-down",
            GeneratorChoice::PuzzleUp => "puzzle-up",
            GeneratorChoice::LongcatDqn => "longcat-dqn",
        }
    }

    /// The game it makes levels for.
    pub fn game(self) -> Game {
        match self {
            GeneratorChoice::SolutionDown
            | GeneratorChoice::PuzzleUp
            | GeneratorChoice::LongcatDqn => Game::Longcat,
            _ => Game::Match3,
        }
    }

    /// The weights file under the models folder, for the learned generators.
    pub fn weights(self) -> Option<&'static str> {
        match self {
            GeneratorChoice::Avalon => Some("avalon-main.safetensors"),
            GeneratorChoice::Vanilla => Some("vanilla-main.safetensors"),
            GeneratorChoice::AvalonStylized => Some("avalon-stylized.safetensors"),
            GeneratorChoice::VanillaStylized => Some("vanilla-stylized.safetensors"),
            GeneratorChoice::LongcatDqn => Some("longcat-dqn-8x8.safetensors"),
            _ => None,
        }
    }

    /// True for the match-3 cVAEs (latent space: "more like this", interpolation).
    pub fn is_cvae(self) -> bool {
        matches!(
            self,
            GeneratorChoice::Avalon
                | GeneratorChoice::Vanilla
                | GeneratorChoice::AvalonStylized
                | GeneratorChoice::VanillaStylized
        )
    }

    /// True when the target moves condition applies.
    pub fn uses_moves(self) -> bool {
        matches!(
            self,
            GeneratorChoice::Avalon | GeneratorChoice::AvalonStylized
        )
    }
}

/// What the designer asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct GenRequest {
    /// Which generator.
    pub generator: GeneratorChoice,
    /// Play-area (match-3) or grid (Longcat) width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Symmetry (match-3).
    pub symmetry: Symmetry,
    /// Target median moves (Avalon).
    pub moves: f64,
    /// Candidates wanted.
    pub count: usize,
    /// Seed; the same request gives the same candidates.
    pub seed: u64,
    /// Keep only levels the bots find valid (match-3) or that are solvable and non-trivial
    /// (Longcat).
    pub validated_only: bool,
}

impl GenRequest {
    /// The model condition of a match-3 request.
    pub fn condition(&self) -> Condition {
        let moves = self.generator.uses_moves().then_some(self.moves);
        Condition::new(self.width, self.height, self.symmetry, moves)
    }
}

/// One generated level with its figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The level (named, tagged, with figures).
    pub level: Level,
    /// Median moves (match-3) or player-model difficulty (Longcat); `None` when unknown or
    /// unsolvable.
    pub figure: Option<f64>,
    /// Valid (match-3 bots) or solvable and non-trivial (Longcat).
    pub valid: bool,
    /// The generator that made it.
    pub generator: GeneratorChoice,
}

/// A model as loaded: shared, or why it could not be loaded.
type Loaded<T> = Result<Arc<T>, String>;

/// The loaded models, shared by the window and its workers. A model loads once, on the
/// first job that needs it; a failure is kept (with its message) so the sidebar can say why.
#[derive(Clone, Debug, Default)]
pub struct ModelCache {
    dir: PathBuf,
    cvaes: Arc<Mutex<HashMap<GeneratorChoice, Loaded<Generator>>>>,
    dqn: Arc<Mutex<Option<Loaded<DqnModel>>>>,
}

impl ModelCache {
    /// A cache reading weights from `dir`.
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
            ..Default::default()
        }
    }

    /// The cVAE of `choice`, loading it on first use.
    ///
    /// # Errors
    /// Why the model cannot be loaded, in words.
    pub fn cvae(&self, choice: GeneratorChoice) -> Result<Arc<Generator>, String> {
        let file = choice
            .weights()
            .filter(|_| choice.is_cvae())
            .ok_or_else(|| format!("{} is not a learned match-3 model", choice.label()))?;
        let mut map = self.cvaes.lock().map_err(|_| "model cache poisoned")?;
        map.entry(choice)
            .or_insert_with(|| {
                Generator::load(&self.dir.join(file))
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
    }

    /// The Longcat DQN, loading it on first use.
    ///
    /// # Errors
    /// Why the model cannot be loaded (a missing file says the generator is disabled).
    pub fn dqn(&self) -> Result<Arc<DqnModel>, String> {
        let file = GeneratorChoice::LongcatDqn.weights().unwrap_or_default();
        let mut slot = self.dqn.lock().map_err(|_| "model cache poisoned")?;
        slot.get_or_insert_with(|| {
            DqnModel::load(&self.dir.join(file))
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .clone()
    }

    /// The load error of a generator, if it was tried and failed (never blocks the UI).
    pub fn load_error(&self, choice: GeneratorChoice) -> Option<String> {
        if choice == GeneratorChoice::LongcatDqn {
            let slot = self.dqn.try_lock().ok()?;
            return slot.as_ref().and_then(|r| r.as_ref().err().cloned());
        }
        let map = self.cvaes.try_lock().ok()?;
        map.get(&choice).and_then(|r| r.as_ref().err().cloned())
    }

    /// Feasibility of a condition for a model already loaded (`None` when it is not loaded
    /// yet, or for a generator without a training set).
    pub fn feasibility(
        &self,
        choice: GeneratorChoice,
        condition: &Condition,
    ) -> Option<Feasibility> {
        let map = self.cvaes.try_lock().ok()?;
        let generator = map.get(&choice)?.as_ref().ok()?;
        Some(generator.feasibility(condition))
    }
}

/// What a generation job streams to the window.
#[derive(Clone, Debug)]
pub struct Streamed {
    /// The run it belongs to (stale runs are dropped).
    pub run: u64,
    /// The candidate.
    pub candidate: Candidate,
}

/// How a generation run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GenSummary {
    /// Candidates sent.
    pub sent: usize,
    /// Levels made and checked.
    pub attempts: usize,
    /// A note for the designer (an exhausted budget, …).
    pub note: Option<String>,
}

/// Match-3 figures of a layout: (median, valid, stored figures).
fn match3_figures(layout: &Layout) -> (Option<f64>, bool, Option<Figures>) {
    match validate(layout, &ValidationConfig::default()) {
        Ok(v) => (
            Some(v.median_moves),
            v.valid,
            Some(Figures::Match3((&v).into())),
        ),
        Err(_) => (None, false, None),
    }
}

/// A match-3 candidate of a layout, validated now. The level as stored (its rows read back)
/// is what gets validated, so the figures match what the editor and the pack show.
pub fn match3_candidate(layout: &Layout, name: String, generator: GeneratorChoice) -> Candidate {
    let mut level = Level::from_layout(name, layout);
    let stored = level.layout().unwrap_or_else(|_| layout.clone());
    let (figure, valid, figures) = match3_figures(&stored);
    level.figures = figures;
    level.tags = vec!["generated".into(), generator.tag().into()];
    Candidate {
        level,
        figure,
        valid,
        generator,
    }
}

/// Longcat difficulty and figures of a level (graph within the default budget).
pub fn longcat_figures(level: &LongcatLevel) -> (Option<f64>, Option<Figures>) {
    match longcat::Analysis::of(level, longcat::DEFAULT_BUDGET) {
        Ok(a) => {
            let figures =
                super::longcat_analysis::shipped_model().map(|m| Figures::Longcat(a.figures(m)));
            (a.difficulty, figures)
        }
        Err(_) => (None, None),
    }
}

fn longcat_candidate(level: &LongcatLevel, name: String, generator: GeneratorChoice) -> Candidate {
    let (figure, figures) = longcat_figures(level);
    let mut stored = level.to_level(name);
    stored.figures = figures;
    stored.tags = vec!["generated".into(), generator.tag().into()];
    Candidate {
        level: stored,
        figure,
        valid: longcat::difficulty::is_non_trivial(figure),
        generator,
    }
}

/// Runs one generation request, sending each candidate on `out` as soon as it is ready.
///
/// # Errors
/// A model that cannot be loaded, a condition a generator refuses, in words.
pub fn run_generation(
    request: &GenRequest,
    models: &ModelCache,
    run: u64,
    out: &Sender<Streamed>,
    cancel: &Cancel,
    report: &Reporter<GenSummary>,
) -> Result<GenSummary, String> {
    let mut summary = GenSummary {
        sent: 0,
        attempts: 0,
        note: None,
    };
    let mut seen: HashSet<Vec<String>> = HashSet::new();
    let wanted = request.count.max(1);
    let budget = (wanted * ATTEMPTS_PER_LEVEL).max(256);
    let label = request.generator.label();
    let mut send = |candidate: Candidate, summary: &mut GenSummary| -> bool {
        if request.validated_only && !candidate.valid {
            return false;
        }
        if !seen.insert(candidate.level.cells.clone()) {
            return false;
        }
        summary.sent += 1;
        let _ = out.send(Streamed { run, candidate });
        report.progress(
            summary.sent as f32 / wanted as f32,
            format!("{label}: {} of {wanted}", summary.sent),
        );
        true
    };
    let name = |i: usize| format!("{} {}", request.generator.tag(), i + 1);
    report.progress(0.0, format!("{label}: starting"));
    match request.generator {
        g if g.is_cvae() => {
            let model = models.cvae(g)?;
            let condition = request.condition();
            model.check(&condition).map_err(|e| e.to_string())?;
            if request.validated_only {
                // One accepted level per call, each from its own seed, so they stream.
                let mut round = 0u64;
                while summary.sent < wanted && summary.attempts < budget {
                    if cancel.is_cancelled() {
                        return Err("cancelled".into());
                    }
                    let seed = request.seed.wrapping_add(round.wrapping_mul(0x9E37_79B9));
                    round += 1;
                    let mut r = ValidatedRequest::new(condition, 1, seed);
                    r.budget = 64;
                    let got = generate_validated(&model, &r, Some(cancel.flag()))
                        .map_err(|e| e.to_string())?;
                    summary.attempts += got.attempts;
                    for a in got.accepted {
                        let c = match3_candidate(&a.layout, name(summary.sent), g);
                        send(c, &mut summary);
                    }
                }
            } else {
                let (layouts, attempts) = model
                    .generate_distinct(&condition, wanted, request.seed, budget)
                    .map_err(|e| e.to_string())?;
                summary.attempts = attempts;
                for layout in layouts {
                    if cancel.is_cancelled() {
                        return Err("cancelled".into());
                    }
                    let c = match3_candidate(&layout, name(summary.sent), g);
                    send(c, &mut summary);
                }
            }
        }
        GeneratorChoice::Synthesiser => {
            let mut rng = Rng::new(request.seed);
            while summary.sent < wanted && summary.attempts < budget {
                if cancel.is_cancelled() {
                    return Err("cancelled".into());
                }
                summary.attempts += 1;
                let features = 1 + rng.index(5);
                let Some(layout) = crate::match3::synth::synthesise(
                    request.width,
                    request.height,
                    request.symmetry,
                    features,
                    &mut rng,
                ) else {
                    continue;
                };
                let c = match3_candidate(&layout, name(summary.sent), GeneratorChoice::Synthesiser);
                send(c, &mut summary);
            }
        }
        GeneratorChoice::LongcatDqn => {
            let model = models.dqn()?;
            model
                .check_size(request.width, request.height)
                .map_err(|e| e.to_string())?;
            let mut round = 0u64;
            while summary.sent < wanted && summary.attempts < budget {
                if cancel.is_cancelled() {
                    return Err("cancelled".into());
                }
                let seed = request.seed.wrapping_add(round);
                round += 1;
                let batch = (wanted - summary.sent).max(4);
                let levels = crate::rl::policy::generate(
                    &model,
                    Policy::Temperature(DQN_TEMPERATURE),
                    batch,
                    seed,
                )
                .map_err(|e| e.to_string())?;
                for level in levels {
                    if cancel.is_cancelled() || summary.sent >= wanted {
                        break;
                    }
                    summary.attempts += 1;
                    let c =
                        longcat_candidate(&level, name(summary.sent), GeneratorChoice::LongcatDqn);
                    send(c, &mut summary);
                }
            }
        }
        g @ (GeneratorChoice::SolutionDown | GeneratorChoice::PuzzleUp) => {
            let mut rng = Rng::new(request.seed);
            while summary.sent < wanted && summary.attempts < budget {
                if cancel.is_cancelled() {
                    return Err("cancelled".into());
                }
                summary.attempts += 1;
                let level = if g == GeneratorChoice::SolutionDown {
                    longcat::generators::solution_down(request.width, request.height, &mut rng)
                        .map_err(|e| e.to_string())?
                } else {
                    let mut made =
                        longcat::generators::puzzle_up(request.width, request.height, &mut rng)
                            .map_err(|e| e.to_string())?;
                    match made.pop() {
                        Some(l) => l,
                        None => continue,
                    }
                };
                let c = longcat_candidate(&level, name(summary.sent), g);
                send(c, &mut summary);
            }
        }
        _ => return Err(format!("{label} cannot generate")),
    }
    if summary.sent < wanted {
        summary.note = Some(format!(
            "found {} of {wanted} after {} attempts",
            summary.sent, summary.attempts
        ));
    }
    Ok(summary)
}

/// "More like this": `count` levels decoded from small seeded steps around a candidate's
/// latent point, with the candidate's size and symmetry (and its moves for Avalon).
///
/// # Errors
/// The model or the level cannot be used, in words.
pub fn run_near(
    model: &Generator,
    level: &Level,
    request: &GenRequest,
    run: u64,
    out: &Sender<Streamed>,
    cancel: &Cancel,
) -> Result<GenSummary, String> {
    let z = model.encode(level).map_err(|e| e.to_string())?;
    let sample = crate::model::Sample::from_level(level, None).map_err(|e| e.to_string())?;
    let mut condition = sample.condition();
    condition.moves = (model.kind() == ModelKind::Avalon).then_some(request.moves);
    let mut rng = Rng::new(request.seed ^ 0x5eed_1111);
    let count = request.count.max(1);
    let mut zs = Vec::with_capacity(count * z.len());
    for _ in 0..count {
        zs.extend(z.iter().map(|v| v + NEAR_SPREAD * rng.normal() as f32));
    }
    let layouts = model
        .decode_novel(&zs, &vec![condition; count])
        .map_err(|e| e.to_string())?;
    let mut sent = 0;
    let mut seen = HashSet::new();
    for (i, layout) in layouts.iter().enumerate() {
        if cancel.is_cancelled() {
            return Err("cancelled".into());
        }
        if !seen.insert(layout.clone()) {
            continue;
        }
        let c = match3_candidate(
            layout,
            format!("{} near {}", level.name, i + 1),
            request.generator,
        );
        if request.validated_only && !c.valid {
            continue;
        }
        sent += 1;
        let _ = out.send(Streamed { run, candidate: c });
    }
    Ok(GenSummary {
        sent,
        attempts: count,
        note: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidate_has_the_figures_of_its_stored_level() {
        let mut rng = Rng::new(3);
        let layout =
            crate::match3::synth::synthesise(7, 9, Symmetry::Vertical, 3, &mut rng).unwrap();
        let c = match3_candidate(&layout, "c".into(), GeneratorChoice::Synthesiser);
        let again = validate(&c.level.layout().unwrap(), &ValidationConfig::default()).unwrap();
        assert_eq!(c.figure, Some(again.median_moves));
        assert_eq!(c.valid, again.valid);
    }
}
