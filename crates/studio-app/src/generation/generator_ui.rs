//! The generator sidebar's widgets: the generator choice, one control per condition the
//! chosen generator takes (from its [`ConditionSpec`](studio_core::game::ConditionSpec)s), count,
//! seed and "validated only", and Generate with its progress bar and Cancel.

use super::generate_panel::{generator_of, GeneratorPanel};
use crate::studio::panel::{AppCommand, PanelCtx, ToolPanel};
use egui::{Color32, RichText};
use studio_core::game::{Chart, ConditionKind, ConditionValue, GameId, LevelGenerator, ModelCache};
use studio_core::symmetry::Symmetry;
use studio_ui::widgets::bounded_number;

impl GeneratorPanel {
    fn generator_choice_ui(&mut self, ui: &mut egui::Ui, game: GameId) {
        let Ok(g) = game.game() else {
            return;
        };
        let current = self.request_mut(game).generator;
        let mut chosen = None;
        ui.horizontal_wrapped(|ui| {
            for generator in studio_core::game::generators_of(g) {
                let failed = generator
                    .weights_file()
                    .and_then(|f| self.models.load_error(&self.models.dir().join(f)));
                let label = if failed.is_some() {
                    RichText::new(generator.label()).strikethrough()
                } else {
                    RichText::new(generator.label())
                };
                let resp = ui.selectable_label(current == generator.id(), label);
                if resp.clicked() {
                    chosen = Some(generator.id());
                }
                let hover = match failed {
                    Some(e) => format!("Unavailable: {e}"),
                    None => generator.description().to_string(),
                };
                resp.on_hover_text(hover);
            }
        });
        if let Some(id) = chosen {
            self.choose(game, id);
        }
    }

    fn conditions_ui(&mut self, ui: &mut egui::Ui, game: GameId) {
        self.generator_choice_ui(ui, game);
        let models = self.models.clone();
        // A range note belongs to the game it was typed in.
        let mut note = self
            .range_note
            .take()
            .filter(|(g, _)| *g == game)
            .map(|(_, n)| n);
        let r = self.request_mut(game);
        let Some(generator) = generator_of(r) else {
            self.range_note = note.map(|n| (game, n));
            return;
        };
        if let Some(e) = generator
            .weights_file()
            .and_then(|f| models.load_error(&models.dir().join(f)))
        {
            ui.colored_label(studio_ui::palette::BAD, format!("Unavailable: {e}"));
        }
        let specs = generator.conditions();
        egui::Grid::new("gen-conditions")
            .num_columns(2)
            .spacing([8.0, 3.0])
            .show(ui, |ui| {
                for spec in &specs {
                    let label = ui.label(spec.label).on_hover_text(spec.help);
                    let value = r.conditions.get_mut(spec.key);
                    let Some(value) = value else {
                        ui.end_row();
                        continue;
                    };
                    let response = match (&spec.kind, value) {
                        (ConditionKind::Int { min, max }, ConditionValue::Int(v)) => {
                            bounded_number(ui, v, *min..=*max, spec.label, &mut note, 1.0)
                        }
                        (ConditionKind::Float { min, max, step }, ConditionValue::Float(v)) => {
                            bounded_number(ui, v, *min..=*max, spec.label, &mut note, *step)
                        }
                        (ConditionKind::Symmetry, ConditionValue::Symmetry(s)) => {
                            egui::ComboBox::from_id_salt(("gen-condition", spec.key))
                                .selected_text(s.name())
                                .show_ui(ui, |ui| {
                                    for option in Symmetry::ALL {
                                        ui.selectable_value(s, option, option.name());
                                    }
                                })
                                .response
                        }
                        (ConditionKind::Flag, ConditionValue::Flag(b)) => ui.checkbox(b, ""),
                        _ => ui.label("?"),
                    };
                    response.labelled_by(label.id);
                    ui.end_row();
                }
                let l = ui.label("Count");
                bounded_number(ui, &mut r.count, 1..=64, "Count", &mut note, 1.0)
                    .labelled_by(l.id)
                    .on_hover_text("How many candidates one run makes (1–64)");
                ui.end_row();
                let l = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut r.seed))
                    .labelled_by(l.id)
                    .on_hover_text("The same seed and conditions give the same candidates");
                ui.end_row();
            });
        ui.checkbox(&mut r.validated_only, "Validated only")
            .on_hover_text(generator.validated_help());
        self.range_note = note.map(|n| (game, n));
    }

    /// Why the generator would refuse the current request (once its model has loaded), in
    /// words; `None` when it would run.
    fn refusal(&mut self, game: GameId) -> Option<String> {
        let models = self.models.clone();
        let r = self.request(game);
        let generator = generator_of(r)?;
        let loaded = model_loaded(&models, generator.as_ref());
        let ctx = studio_core::game::GenerationContext {
            models: &models,
            cancel: &studio_core::jobs::Cancel::default(),
        };
        loaded
            .then(|| generator.check(r, &ctx).err().map(|e| e.to_string()))
            .flatten()
    }

    /// What the designer should know about the conditions: a typed value that was out of
    /// range, why the generator refuses the request (`refusal`, from [`Self::refusal`]), and
    /// infeasible conditions with the nearest feasible ones. Drawn below Generate, so a line
    /// appearing never moves the buttons.
    fn advice_ui(&mut self, ui: &mut egui::Ui, game: GameId, refusal: Option<String>) {
        let models = self.models.clone();
        let note = self
            .range_note
            .as_ref()
            .filter(|(g, _)| *g == game)
            .map(|(_, n)| n.clone());
        let r = self.request_mut(game);
        let Some(generator) = generator_of(r) else {
            return;
        };
        if let Some(n) = &note {
            ui.colored_label(studio_ui::palette::ACCENT, n);
        }
        let ctx = studio_core::game::GenerationContext {
            models: &models,
            cancel: &studio_core::jobs::Cancel::default(),
        };
        let loaded = model_loaded(&models, generator.as_ref());
        if let Some(e) = refusal {
            ui.colored_label(studio_ui::palette::BAD, e);
        }
        for n in generator.notes(&r.conditions) {
            ui.colored_label(studio_ui::palette::ACCENT, format!("Note: {n}"));
        }
        if let Some(f) = generator.feasibility(&models, &r.conditions) {
            ui.colored_label(
                studio_ui::palette::ACCENT,
                format!("Warning: {}", f.warning),
            );
            for s in f.suggestions {
                // A condition the generator would refuse (moves "Validated only" cannot
                // promise) is not offered.
                let mut tried = r.clone();
                for (key, value) in &s.set {
                    tried.conditions.set(key, *value);
                }
                if loaded && generator.check(&tried, &ctx).is_err() {
                    continue;
                }
                if ui
                    .small_button(capitalised(&s.label))
                    .on_hover_text("Use this condition")
                    .clicked()
                {
                    for (key, value) in s.set {
                        r.conditions.set(key, value);
                    }
                }
            }
        }
    }
}

/// Whether `generator`'s model (if it has one) has loaded without error, so that its check
/// can be asked.
fn model_loaded(models: &ModelCache, generator: &dyn LevelGenerator) -> bool {
    generator.weights_file().is_none_or(|f| {
        let path = models.dir().join(f);
        models.tried(&path) && models.load_error(&path).is_none()
    })
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl ToolPanel for GeneratorPanel {
    fn name(&self) -> &'static str {
        "Generate"
    }

    fn ui(&mut self, ui: &mut egui::Ui, ctx: &mut PanelCtx<'_>) {
        ui.label(RichText::new("Generators").strong());
        // The conditions scroll when tall; Generate, Stop and Cancel stay in view below them.
        let room = (ui.available_height() - 260.0).max(160.0);
        egui::ScrollArea::vertical()
            .id_salt(("generate-conditions", ctx.game))
            .max_height(room)
            .show(ui, |ui| self.conditions_ui(ui, ctx.game));
        let has_generator = generator_of(self.request(ctx.game)).is_some();
        if !has_generator {
            ui.weak("This game has no generator yet.");
        }
        // A request the generator refuses cannot be started; the reason shows below.
        let refusal = self.refusal(ctx.game);
        ui.horizontal(|ui| {
            let busy = self.worker.busy();
            if ui
                .add_enabled(
                    !busy && has_generator && refusal.is_none(),
                    egui::Button::new("Generate"),
                )
                .on_hover_text("Make Count levels with these conditions and seed (the candidates of the last run are replaced)")
                .on_disabled_hover_text(refusal.clone().unwrap_or_else(|| {
                    "Wait for the running job, or cancel it".to_string()
                }))
                .clicked()
            {
                ctx.commands.push(AppCommand::Generate);
            }
            // A searching generator always has its Stop button in the same place, so nothing
            // slides under the pointer when it is clicked; while it stops, Cancel is off.
            let searching = self.can_stop()
                || self.stopping()
                || generator_of(self.request(ctx.game)).is_some_and(|g| g.stops_early());
            if searching {
                let label = if self.stopping() {
                    "Stopping…"
                } else {
                    "Stop (keep best)"
                };
                if ui
                    .add_enabled(self.can_stop(), egui::Button::new(label))
                    .on_hover_text("End the search after this generation and keep the best levels it found")
                    .clicked()
                {
                    ctx.commands.push(AppCommand::StopGeneration);
                }
            }
            if ui
                .add_enabled(busy && !self.stopping(), egui::Button::new("Cancel"))
                .on_hover_text("Stop now; the candidates already shown stay")
                .clicked()
            {
                ctx.commands.push(AppCommand::CancelGeneration);
            }
        });
        self.advice_ui(ui, ctx.game, refusal);
        if self.worker.busy() {
            match self.running.filter(|g| *g != ctx.game) {
                // Another game's run: say whose, so the disabled Generate is explained.
                Some(other) => {
                    let name = other.game().map_or("another game", |g| g.name());
                    ui.weak(format!("A {name} generation is running; Cancel stops it."));
                }
                None => {
                    let (fraction, note) = self.progress_text();
                    // The words go under the bar, wrapped: a long note ("…: 92 feasible")
                    // is never cut by the bar's width.
                    ui.add(
                        egui::ProgressBar::new(fraction)
                            .show_percentage()
                            .animate(true),
                    );
                    ui.add(egui::Label::new(RichText::new(note).small()).wrap());
                }
            }
        }
        // Only this game's run, charts and words: another game's never show here.
        let mine = self.status_game == Some(ctx.game);
        if self.running == Some(ctx.game) {
            for (i, chart) in self.charts().iter().enumerate() {
                chart_ui(ui, i, chart);
            }
        }
        if let Some(n) = self.note.as_ref().filter(|_| mine) {
            ui.weak(n);
        }
        if let Some(e) = self.error.as_ref().filter(|_| mine) {
            ui.colored_label(studio_ui::palette::BAD, e);
        }
    }
}

/// Line colours of a chart's series, in order.
const SERIES: [Color32; 4] = [
    Color32::from_rgb(76, 187, 94),
    Color32::from_rgb(229, 83, 75),
    Color32::from_rgb(120, 190, 255),
    Color32::from_rgb(255, 196, 61),
];

/// A searching generator's chart: its title and series names in their line colours, then one
/// line per series against the generations.
fn chart_ui(ui: &mut egui::Ui, index: usize, chart: &Chart) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(&chart.title).small().strong());
        for (i, (name, points)) in chart.series.iter().enumerate() {
            let last = points
                .last()
                .map_or(String::new(), |p| format!(" {:.3}", p[1]));
            let last = last.trim_end_matches('0').trim_end_matches('.').to_string();
            ui.label(
                RichText::new(format!("— {name}{last}"))
                    .small()
                    .color(SERIES[i % SERIES.len()]),
            );
        }
    });
    egui_plot::Plot::new(("generator-chart", index))
        .height(80.0)
        .x_axis_label(chart.x.as_str())
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, (name, points)) in chart.series.iter().enumerate() {
                plot.line(
                    egui_plot::Line::new(name.as_str(), points.clone())
                        .color(SERIES[i % SERIES.len()])
                        .width(1.5),
                );
            }
        });
}
