//! The latent interpolation window: pick levels A and B of a game with a latent model (the editor, the active pack
//! or the candidates) and a number of steps; a worker encodes both with a cVAE, decodes the
//! line between them and validates every level. The strip shows A (its input and the model's
//! reconstruction: a VAE does not reproduce its input exactly), the in-between levels and B,
//! each with its validated figures; click one to open it in the editor.

use crate::generation::candidates::figure_text;
use crate::jobs::{JobMode, Worker};
use crate::pack::thumbnail::paint_thumbnail;
use crate::studio::panel::AppCommand;
use crate::RepaintOnReport;
use egui::{Color32, RichText, Sense, Stroke, StrokeKind, Vec2};
use studio_core::game::{self, GameId, ModelCache};
use studio_core::generation::{candidate, Candidate};
use studio_core::jobs::JobError;
use studio_core::level::Level;
use studio_ui::palette;

const THUMB: Vec2 = Vec2::new(96.0, 104.0);

/// What an interpolation found.
#[derive(Clone, Debug)]
pub struct Strip {
    /// A as given and validated.
    pub a_input: Candidate,
    /// The model's reconstruction of A.
    pub a_recon: Candidate,
    /// The in-between levels, A to B.
    pub between: Vec<Candidate>,
    /// The model's reconstruction of B.
    pub b_recon: Candidate,
    /// B as given and validated.
    pub b_input: Candidate,
}

/// The interpolation window's state.
pub struct InterpolationWindow {
    /// Shown.
    pub open: bool,
    /// Level A (label, level).
    pub a: Option<(String, Level)>,
    /// Level B.
    pub b: Option<(String, Level)>,
    /// In-between levels wanted.
    pub steps: usize,
    /// The game and generator (with a latent space) walked.
    pub model: (GameId, &'static str),
    /// The last strip.
    pub strip: Option<Strip>,
    /// The last problem, in words.
    pub error: Option<String>,
    worker: Worker<Strip>,
    next_key: u64,
}

/// The first generator with a latent space of `game` (its id), if it has one.
pub fn latent_model_of(game: GameId) -> Option<&'static str> {
    let g = game.game().ok()?;
    studio_core::game::generators_of(g)
        .into_iter()
        .find(|m| m.has_latent())
        .map(|m| m.id())
}

/// The first registered generator with a latent space to walk (game, generator id).
fn first_latent_model() -> (GameId, &'static str) {
    studio_core::game::games()
        .iter()
        .flat_map(|g| {
            studio_core::game::generators_of(*g)
                .into_iter()
                .map(move |m| (g.id(), m))
        })
        .find(|(_, m)| m.has_latent())
        .map_or((studio_core::game::registry::first().id(), ""), |(g, m)| {
            (g, m.id())
        })
}

impl InterpolationWindow {
    /// A closed window running jobs in `mode`.
    pub fn new(mode: JobMode) -> Self {
        Self {
            open: false,
            a: None,
            b: None,
            steps: 5,
            model: first_latent_model(),
            strip: None,
            error: None,
            worker: Worker::new("interpolation", mode),
            next_key: 1,
        }
    }

    /// True while the worker runs.
    pub fn busy(&self) -> bool {
        self.worker.busy()
    }

    /// Levels shown in the strip (inputs and reconstructions count once per endpoint).
    pub fn shown_levels(&self) -> usize {
        self.strip.as_ref().map_or(0, |s| s.between.len() + 2)
    }

    /// Starts the walk from A to B.
    pub fn run(&mut self, models: &ModelCache, ctx: &egui::Context) {
        let (Some((_, a)), Some((_, b))) = (self.a.clone(), self.b.clone()) else {
            self.error = Some("Choose level A and level B first".into());
            return;
        };
        self.error = None;
        let (models, (game, choice), steps) = (models.clone(), self.model, self.steps);
        self.worker.set_repaint(ctx);
        let key = self.next_key;
        self.next_key += 1;
        self.worker.start(key, move |cancel, report| {
            report.progress(0.1, "loading the model");
            let generator = game
                .game()
                .map_err(|e| e.to_string())
                .and_then(|g| game::generator_of(g, choice).map_err(|e| e.to_string()))?;
            report.progress(0.3, "encoding and decoding");
            let walk = generator.interpolate(&a, &b, steps, &models)?;
            if cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            report.progress(0.5, "validating");
            let validated = |l: &studio_core::level::Level, name: String| {
                candidate(game, choice, l.clone(), name, cancel)
            };
            let between = walk
                .between
                .iter()
                .enumerate()
                .map(|(i, l)| validated(l, format!("{} to {} {}", a.name, b.name, i + 1)))
                .collect::<Result<_, _>>()?;
            Ok(Strip {
                a_input: validated(&a, a.name.clone())?,
                a_recon: validated(&walk.start, format!("{} (model)", a.name))?,
                between,
                b_recon: validated(&walk.end, format!("{} (model)", b.name))?,
                b_input: validated(&b, b.name.clone())?,
            })
        });
    }

    /// Collects the worker's answer.
    pub fn poll(&mut self) {
        if let Some((_, outcome)) = self.worker.poll() {
            match outcome {
                Ok(strip) => self.strip = Some(strip),
                Err(e) => self.error = Some(e.to_string()),
            }
        }
    }

    /// Tests: block until the walk is done.
    pub fn wait(&mut self, timeout: std::time::Duration) {
        if let Some((_, outcome)) = self.worker.wait(timeout) {
            match outcome {
                Ok(strip) => self.strip = Some(strip),
                Err(e) => self.error = Some(e.to_string()),
            }
        }
    }

    /// Draws the window; `sources` are the levels A and B can be chosen from.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        sources: &[(String, Level)],
        models: &ModelCache,
        commands: &mut Vec<AppCommand>,
    ) {
        if !self.open {
            return;
        }
        // A level of another game than the model's cannot be walked: it is let go.
        let game = self.model.0;
        for slot in [&mut self.a, &mut self.b] {
            if slot.as_ref().is_some_and(|(_, l)| l.game != game) {
                *slot = None;
            }
        }
        // Start from the editor level and the next source; the designer changes either.
        if self.a.is_none() {
            self.a = sources.first().cloned();
        }
        // B is another level than A (the editor level is often a pack level or a candidate
        // too: E14).
        if self.b.is_none() {
            let a_cells = self.a.as_ref().map(|(_, l)| l.cells.clone());
            self.b = sources
                .iter()
                .find(|(_, l)| Some(&l.cells) != a_cells.as_ref())
                .cloned();
        }
        let mut open = true;
        egui::Window::new("Latent interpolation")
            .open(&mut open)
            .default_size([1000.0, 300.0])
            .default_pos([240.0, 360.0])
            .show(ctx, |ui| {
                self.controls(ui, sources, models);
                ui.separator();
                self.strip_ui(ui, commands);
            });
        if !open {
            self.open = false;
        }
    }

    fn controls(&mut self, ui: &mut egui::Ui, sources: &[(String, Level)], models: &ModelCache) {
        ui.horizontal(|ui| {
            for (slot, name) in [(&mut self.a, "A"), (&mut self.b, "B")] {
                let l = ui.label(format!("Level {name}"));
                let shown = slot
                    .as_ref()
                    .map(|(l, _)| l.clone())
                    .unwrap_or_else(|| "choose…".into());
                egui::ComboBox::from_id_salt(("interp-pick", name))
                    .selected_text(shown)
                    .width(200.0)
                    .show_ui(ui, |ui| {
                        for (label, level) in sources {
                            let chosen = slot.as_ref().is_some_and(|(l, _)| l == label);
                            if ui.selectable_label(chosen, label).clicked() {
                                *slot = Some((label.clone(), level.clone()));
                            }
                        }
                    })
                    .response
                    .labelled_by(l.id);
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Steps");
            ui.add(egui::DragValue::new(&mut self.steps).range(1..=12))
                .labelled_by(l.id);
            let l = ui.label("Model");
            let latent: Vec<(GameId, &'static str, &'static str)> = game::games()
                .iter()
                .flat_map(|g| {
                    studio_core::game::generators_of(*g)
                        .into_iter()
                        .filter(|gen| gen.has_latent())
                        .map(|gen| (g.id(), gen.id(), gen.label()))
                        .collect::<Vec<_>>()
                })
                .collect();
            let current = latent
                .iter()
                .find(|(g, id, _)| (*g, *id) == self.model)
                .map_or(self.model.1, |l| l.2);
            egui::ComboBox::from_id_salt("interp-model")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (g, id, label) in latent {
                        ui.selectable_value(&mut self.model, (g, id), label);
                    }
                })
                .response
                .labelled_by(l.id);
            let busy = self.busy();
            if ui
                .add_enabled(
                    !busy && self.a.is_some() && self.b.is_some(),
                    egui::Button::new("Interpolate"),
                )
                .clicked()
            {
                self.run(models, ui.ctx());
            }
            if busy {
                ui.spinner();
                if self.worker.progress.is_some() {
                    let (f, note) = self.worker.progress_text();
                    ui.add(egui::ProgressBar::new(f).text(note).desired_width(160.0));
                }
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(palette::BAD, e);
        }
    }

    fn strip_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<AppCommand>) {
        let Some(strip) = &self.strip else {
            ui.weak("Choose A and B (levels of a game with a latent model, from the editor, the pack or the candidates) and press Interpolate.");
            return;
        };
        let n = strip.between.len();
        egui::ScrollArea::horizontal()
            .id_salt("interp-strip")
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    endpoint(ui, "A", &strip.a_input, &strip.a_recon, commands);
                    ui.separator();
                    for (i, c) in strip.between.iter().enumerate() {
                        let t = (i + 1) as f64 / (n + 1) as f64;
                        tile(ui, &format!("t = {t:.2}"), c, commands);
                    }
                    ui.separator();
                    endpoint(ui, "B", &strip.b_input, &strip.b_recon, commands);
                });
            });
    }
}

fn endpoint(
    ui: &mut egui::Ui,
    name: &str,
    input: &Candidate,
    recon: &Candidate,
    commands: &mut Vec<AppCommand>,
) {
    ui.vertical(|ui| {
        ui.strong(name);
        ui.horizontal_top(|ui| {
            tile(ui, "input", input, commands);
            tile(ui, "model", recon, commands);
        });
    });
}

fn tile(ui: &mut egui::Ui, caption: &str, c: &Candidate, commands: &mut Vec<AppCommand>) {
    ui.vertical(|ui| {
        ui.set_width(THUMB.x);
        ui.label(RichText::new(caption).small());
        let (rect, response) = ui.allocate_exact_size(THUMB, Sense::click());
        let (figure, badge, colour) = figure_text(c);
        let fill = if response.hovered() {
            Color32::from_gray(58)
        } else {
            Color32::from_gray(40)
        };
        ui.painter().rect_filled(rect, 4.0, fill);
        paint_thumbnail(ui.painter(), rect.shrink(5.0), &c.level);
        ui.painter()
            .rect_stroke(rect, 4.0, Stroke::new(1.5, colour), StrokeKind::Inside);
        ui.label(
            RichText::new(format!("{figure} · {badge}"))
                .small()
                .color(colour),
        );
        if response
            .on_hover_text(format!("{} · click: open in the editor", c.level.name))
            .clicked()
        {
            commands.push(AppCommand::LoadLevel(c.level.clone()));
        }
    });
}
