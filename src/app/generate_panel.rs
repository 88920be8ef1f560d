//! The generator section of the sidebar: per game the available generators, their conditions
//! (size, symmetry, target moves, count, seed, validated only), Generate with a progress bar
//! and Cancel, and the candidates that stream in from the worker (drawn by
//! [`candidates`](super::candidates)).

use super::gen_jobs::{
    run_generation, run_near, Candidate, GenRequest, GenSummary, GeneratorChoice, ModelCache,
    Streamed,
};
use super::jobs::{JobMode, Worker};
use super::panel::{AppCommand, PanelCtx, ToolPanel};
use crate::level::Game;
use crate::model::Feasibility;
use crate::symmetry::Symmetry;
use crossbeam_channel::{unbounded, Receiver, Sender};
use egui::RichText;
use std::path::Path;

/// The sidebar's generators and the candidates they made.
pub struct GeneratorPanel {
    /// The request being edited, per game (match-3, Longcat).
    pub requests: [GenRequest; 2],
    /// The loaded models (shared with workers and the interpolation window).
    pub models: ModelCache,
    /// Candidates of the last run, in arrival order.
    pub candidates: Vec<Candidate>,
    /// The running generation (or "more like this").
    pub(super) worker: Worker<GenSummary>,
    loader: Worker<()>,
    tx: Sender<Streamed>,
    rx: Receiver<Streamed>,
    run: u64,
    /// What the last run said (done, cancelled, failed), for the designer.
    pub note: Option<String>,
    /// The last error (a model that did not load, a refused condition).
    pub error: Option<String>,
    /// Where each shown candidate's thumbnail was drawn last frame (index, rect; tests drag
    /// them).
    pub card_rects: Vec<(usize, egui::Rect)>,
}

fn request_for(game: Game) -> GenRequest {
    match game {
        Game::Match3 => GenRequest {
            generator: GeneratorChoice::Avalon,
            width: 7,
            height: 9,
            symmetry: Symmetry::Vertical,
            moves: 18.0,
            count: 8,
            seed: 1,
            validated_only: false,
        },
        Game::Longcat => GenRequest {
            generator: GeneratorChoice::SolutionDown,
            width: 6,
            height: 6,
            symmetry: Symmetry::None,
            moves: 0.0,
            count: 8,
            seed: 1,
            validated_only: false,
        },
    }
}

impl GeneratorPanel {
    /// A panel reading models from `models_dir`, running jobs in `mode`.
    pub fn new(models_dir: &Path, mode: JobMode) -> Self {
        let (tx, rx) = unbounded();
        Self {
            requests: [request_for(Game::Match3), request_for(Game::Longcat)],
            models: ModelCache::new(models_dir),
            candidates: Vec::new(),
            worker: Worker::new("generation", mode),
            loader: Worker::new("model loading", mode),
            tx,
            rx,
            run: 0,
            note: None,
            error: None,
            card_rects: Vec::new(),
        }
    }

    /// The request of a game.
    pub fn request(&self, game: Game) -> &GenRequest {
        &self.requests[usize::from(game == Game::Longcat)]
    }

    /// The request of a game, to edit.
    pub fn request_mut(&mut self, game: Game) -> &mut GenRequest {
        &mut self.requests[usize::from(game == Game::Longcat)]
    }

    /// Changes whenever the candidates do (a new run, an arrival, a clear).
    pub fn revision(&self) -> (u64, usize) {
        (self.run, self.candidates.len())
    }

    /// True while a generation runs.
    pub fn busy(&self) -> bool {
        self.worker.busy()
    }

    /// Progress of the running job.
    pub fn progress(&self) -> Option<&(f32, String)> {
        self.worker.progress.as_ref()
    }

    /// Starts generating for `game` (the previous run is cancelled, its candidates cleared).
    pub fn generate(&mut self, game: Game, ctx: &egui::Context) {
        let request = self.request_mut(game).clone();
        self.candidates.retain(|c| c.level.game != game);
        self.error = None;
        self.note = None;
        self.run += 1;
        let (run, tx, models) = (self.run, self.tx.clone(), self.models.clone());
        self.worker.set_repaint(ctx);
        self.worker.start(run, move |cancel, report| {
            run_generation(&request, &models, run, &tx, cancel, report)
        });
    }

    /// "More like this": levels near candidate `index` in its model's latent space.
    pub fn more_like(&mut self, index: usize, ctx: &egui::Context) {
        let Some(candidate) = self.candidates.get(index).cloned() else {
            return;
        };
        if !candidate.generator.is_cvae() {
            return;
        }
        let mut request = self.request_mut(Game::Match3).clone();
        request.generator = candidate.generator;
        request.seed = request.seed.wrapping_add(index as u64 + 1);
        self.candidates.retain(|c| c.level.game != Game::Match3);
        self.candidates.push(candidate.clone());
        self.error = None;
        self.note = None;
        self.run += 1;
        let (run, tx, models) = (self.run, self.tx.clone(), self.models.clone());
        self.worker.set_repaint(ctx);
        self.worker.start(run, move |cancel, _| {
            let model = models.cvae(candidate.generator)?;
            run_near(&model, &candidate.level, &request, run, &tx, cancel)
        });
    }

    /// Stops the running job; the candidates that arrived stay (each is whole).
    pub fn cancel(&mut self) {
        if self.worker.busy() {
            self.worker.cancel();
            self.run += 1;
            self.note = Some(format!(
                "Cancelled ({} candidates kept)",
                self.candidates.len()
            ));
        }
    }

    /// Collects streamed candidates and the end of the run; loads the chosen model early so
    /// its feasibility warning shows before generating.
    pub fn poll(&mut self, game: Game, ctx: &egui::Context) {
        while let Ok(s) = self.rx.try_recv() {
            if s.run == self.run {
                self.candidates.push(s.candidate);
            }
        }
        if let Some((_, outcome)) = self.worker.poll() {
            // Anything sent before the end has arrived on the channel by now.
            while let Ok(s) = self.rx.try_recv() {
                if s.run == self.run {
                    self.candidates.push(s.candidate);
                }
            }
            match outcome {
                Ok(summary) => {
                    self.note = Some(match summary.note {
                        Some(n) => format!("Done: {n}"),
                        None => format!("Done: {} candidates", summary.sent),
                    })
                }
                Err(e) if e == "cancelled" => {}
                Err(e) => self.error = Some(e),
            }
        }
        self.loader.poll();
        let choice = self.request(game).generator;
        if choice.is_cvae()
            && !self.loader.busy()
            && self.models.load_error(choice).is_none()
            && self
                .models
                .feasibility(choice, &self.request(game).condition())
                .is_none()
        {
            let models = self.models.clone();
            self.loader.set_repaint(ctx);
            self.loader.start(choice as u64, move |_, _| {
                let _ = models.cvae(choice);
                Ok(())
            });
        }
    }

    /// Tests: block until the running generation ends (or `timeout`), then collect.
    pub fn wait(&mut self, timeout: std::time::Duration, game: Game, ctx: &egui::Context) {
        let deadline = std::time::Instant::now() + timeout;
        while self.worker.busy() && std::time::Instant::now() < deadline {
            self.poll(game, ctx);
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        self.poll(game, ctx);
    }

    fn conditions_ui(&mut self, ui: &mut egui::Ui, game: Game) {
        let models = self.models.clone();
        let r = self.request_mut(game);
        ui.horizontal_wrapped(|ui| {
            for &choice in GeneratorChoice::of(game) {
                let failed = models.load_error(choice);
                let label = if failed.is_some() {
                    RichText::new(choice.label()).strikethrough()
                } else {
                    RichText::new(choice.label())
                };
                let resp = ui.selectable_value(&mut r.generator, choice, label);
                if let Some(e) = failed {
                    resp.on_hover_text(format!("Unavailable: {e}"));
                }
            }
        });
        if let Some(e) = models.load_error(r.generator) {
            ui.colored_label(super::palette::BAD, format!("Unavailable: {e}"));
        }
        let (wr, hr) = match game {
            Game::Match3 => (4..=9, 4..=11),
            Game::Longcat => (3..=10, 3..=10),
        };
        egui::Grid::new("gen-conditions")
            .num_columns(2)
            .spacing([8.0, 3.0])
            .show(ui, |ui| {
                let l = ui.label("Width");
                ui.add(egui::DragValue::new(&mut r.width).range(wr))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Height");
                ui.add(egui::DragValue::new(&mut r.height).range(hr))
                    .labelled_by(l.id);
                ui.end_row();
                if game == Game::Match3 {
                    let l = ui.label("Symmetry");
                    egui::ComboBox::from_id_salt("gen-symmetry")
                        .selected_text(r.symmetry.name())
                        .show_ui(ui, |ui| {
                            for s in Symmetry::ALL {
                                ui.selectable_value(&mut r.symmetry, s, s.name());
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    ui.end_row();
                }
                if r.generator.uses_moves() {
                    let l = ui.label("Target moves");
                    ui.add(
                        egui::DragValue::new(&mut r.moves)
                            .range(1.0..=40.0)
                            .speed(0.2),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                }
                let l = ui.label("Count");
                ui.add(egui::DragValue::new(&mut r.count).range(1..=64))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut r.seed)).labelled_by(l.id);
                ui.end_row();
            });
        ui.checkbox(&mut r.validated_only, "Validated only")
            .on_hover_text(match game {
                Game::Match3 => {
                    "Keep only levels the bots find valid (and near the target moves for Avalon)"
                }
                Game::Longcat => "Keep only solvable, non-trivial levels",
            });
        if r.generator == GeneratorChoice::LongcatDqn && (r.width, r.height) != (8, 8) {
            ui.colored_label(super::palette::BAD, "The shipped DQN makes 8×8 levels only");
            if ui.small_button("Use 8×8").clicked() {
                r.width = 8;
                r.height = 8;
            }
        }
        if r.generator.is_cvae() {
            let condition = r.condition();
            if let Some(Feasibility::Infeasible {
                reason,
                nearest_same_size,
                nearest_same_moves,
            }) = models.feasibility(r.generator, &condition)
            {
                ui.colored_label(super::palette::ACCENT, format!("Warning: {reason}"));
                for nearest in [nearest_same_size, nearest_same_moves]
                    .into_iter()
                    .flatten()
                {
                    let moves = nearest
                        .moves
                        .map(|m| format!(", {m:.0} moves"))
                        .unwrap_or_default();
                    let text = format!("Nearest: {}×{}{moves}", nearest.width, nearest.height);
                    if ui
                        .small_button(text)
                        .on_hover_text("Use this condition")
                        .clicked()
                    {
                        r.width = nearest.width;
                        r.height = nearest.height;
                        if let Some(m) = nearest.moves {
                            r.moves = m;
                        }
                    }
                }
            }
        }
    }
}

impl ToolPanel for GeneratorPanel {
    fn name(&self) -> &'static str {
        "Generate"
    }

    fn ui(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        ui.label(RichText::new("Generators").strong());
        self.conditions_ui(ui, ctx.game);
        ui.horizontal(|ui| {
            let busy = self.worker.busy();
            if ui
                .add_enabled(!busy, egui::Button::new("Generate"))
                .clicked()
            {
                ctx.commands.push(AppCommand::Generate);
            }
            if ui.add_enabled(busy, egui::Button::new("Cancel")).clicked() {
                ctx.commands.push(AppCommand::CancelGeneration);
            }
        });
        if self.worker.busy() {
            let (fraction, note) = self
                .progress()
                .cloned()
                .unwrap_or((0.0, "starting…".into()));
            ui.add(egui::ProgressBar::new(fraction).text(note).animate(true));
        }
        if let Some(n) = &self.note {
            ui.weak(n);
        }
        if let Some(e) = &self.error {
            ui.colored_label(super::palette::BAD, e);
        }
    }
}
