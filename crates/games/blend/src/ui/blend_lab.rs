//! The Blend lab: mix a Lode Runner segment and a Zelda room through a blend VAE.
//!
//! - Pick A and B (VGLC segments, the editor's blend level, the pack's, the candidates'), a
//!   model (FC or CNN, learned or unified representation) and the steps; the strip shows A,
//!   the model's reconstruction, the in-betweens and B, each cell tinted by the game its tile
//!   comes from, with both agents' verdicts as badges. Click one to open it in the editor.
//! - "Random blends" decodes count points of the prior (seeded), scores them like `eval
//!   --game blend` (E-distance against the training segments, both agents) and draws two tile
//!   metrics of theirs over the training set's (expressive range); "To candidates" sends them
//!   to the candidate list.
//! - The learned models' tile embeddings, projected on their first two principal axes and
//!   coloured by game.
//!
//! All model work runs on a worker; the window only draws.

use crate::data::{self, Segment, Source};
use crate::embed::OWN;
use crate::eval::{energy_distance, metric_names, vectors};
use crate::generators::{blend_level, segment_level, VaeBlends};
use crate::lab;
use crate::tiles::{props, Origin, COLOURS, LETTERS};
use crate::BlendFigures;
use egui::{Color32, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use egui_plot::{Legend, Plot, PlotPoints, Points};
use std::sync::Arc;
use studio_core::datasets::vglc_dir;
use studio_core::game::ModelCache;
use studio_core::generation::Candidate;
use studio_core::jobs::JobError;
use studio_core::jobs::{JobMode, Worker};
use studio_core::level::{Figures, Level};
use studio_ui::palette;
use studio_ui::{RepaintOnReport, ToolAction as AppCommand, ToolContext, ToolWindow};

/// The blend models, in the lab's order: (id, label).
pub const MODELS: [(&str, &str); 6] = [
    ("cte-fc", "FC-VAE, learned tiles"),
    ("vglc-fc", "FC-VAE, unified tiles"),
    ("cte-cnn", "CNN-VAE, learned tiles"),
    ("vglc-cnn", "CNN-VAE, unified tiles"),
    ("pix-fc", "FC-VAE, tiles from pixels"),
    ("pix-cnn", "CNN-VAE, tiles from pixels"),
];

/// The tint of Lode Runner tiles.
pub const LR_TINT: Color32 = Color32::from_rgb(240, 140, 40);
/// The tint of Zelda tiles.
pub const ZELDA_TINT: Color32 = Color32::from_rgb(60, 190, 110);

const THUMB: f32 = 96.0;

/// A segment of the lab, analysed.
#[derive(Clone, Debug)]
pub struct LabSegment {
    /// Its caption ("A", "t = 0.25", "B (model)").
    pub caption: String,
    /// The level (blend game, figures filled in).
    pub level: Level,
    /// What the analysis found.
    pub figures: BlendFigures,
}

impl LabSegment {
    fn of(caption: String, level: Level) -> Self {
        let figures = crate::analysis::figures(&level.cells);
        let mut level = level;
        level.figures = Some(Figures::new(figures.clone()));
        Self {
            caption,
            level,
            figures,
        }
    }
}

/// The training data the lab compares with.
pub struct LabData {
    /// The training segments.
    pub train: Vec<Segment>,
    /// Their metric vectors.
    pub vectors: Vec<[f64; 5]>,
    /// Each as a labelled blend level, in the same order (built once, on the worker: the
    /// pickers list them every frame).
    pub sources: Vec<(String, Level)>,
}

/// A training segment as a picker entry: "Lode Runner: Level 3 top-left" and its level.
fn labelled(s: &Segment) -> (String, Level) {
    let game = match s.source {
        Source::LodeRunner => "Lode Runner",
        Source::Zelda => "Zelda",
    };
    (format!("{game}: {}", s.name), segment_level(s))
}

/// Random blends and how they score.
#[derive(Clone, Debug)]
pub struct RandomSet {
    /// The model.
    pub model: &'static str,
    /// The blends.
    pub blends: Vec<LabSegment>,
    /// Their metric vectors.
    pub vectors: Vec<[f64; 5]>,
    /// E-distance against the training segments.
    pub e_distance: f64,
}

/// A learned model's tile embeddings on two axes.
#[derive(Clone, Debug)]
pub struct Projection {
    /// The model.
    pub model: &'static str,
    /// (point, own tile) per decode-table embedding.
    pub points: Vec<([f64; 2], usize)>,
    /// Shares of the variance on the two axes.
    pub shares: [f64; 2],
}

/// What a job of the lab brings back.
pub enum LabResult {
    /// The VGLC training data.
    Data(Arc<LabData>),
    /// A walk from A to B.
    Strip(Vec<LabSegment>),
    /// Random blends.
    Random(RandomSet),
    /// An embedding projection (`None` for a unified model).
    Projection(Option<Projection>),
}

/// The Blend lab window's state.
pub struct BlendLab {
    /// Shown.
    pub open: bool,
    /// Segment A (label, level).
    pub a: Option<(String, Level)>,
    /// Segment B.
    pub b: Option<(String, Level)>,
    /// The model id ([`MODELS`]).
    pub model: &'static str,
    /// In-betweens wanted.
    pub steps: usize,
    /// Tint cells by the game of their tile.
    pub tint: bool,
    /// Random blends wanted.
    pub count: usize,
    /// Their seed.
    pub seed: u64,
    /// The metrics on the scatter's axes ([`metric_names`] indices).
    pub axes: (usize, usize),
    /// The training data, once loaded.
    pub data: Option<Arc<LabData>>,
    /// The last walk.
    pub strip: Vec<LabSegment>,
    /// The last random blends.
    pub random: Option<RandomSet>,
    /// The last projection.
    pub projection: Option<Projection>,
    /// The last problem, in words.
    pub error: Option<String>,
    worker: Worker<LabResult>,
    next_key: u64,
    asked_data: bool,
    projected: Option<&'static str>,
}

impl BlendLab {
    /// A closed lab running jobs in `mode`.
    pub fn new(mode: JobMode) -> Self {
        Self {
            open: false,
            a: None,
            b: None,
            model: MODELS[1].0,
            steps: 6,
            tint: true,
            count: 200,
            seed: 0,
            axes: (0, 3),
            data: None,
            strip: Vec::new(),
            random: None,
            projection: None,
            error: None,
            worker: Worker::new("blend lab", mode),
            next_key: 1,
            asked_data: false,
            projected: None,
        }
    }

    /// True while the worker runs.
    pub fn busy(&self) -> bool {
        self.worker.busy()
    }

    fn start(
        &mut self,
        ctx: Option<&egui::Context>,
        work: impl FnOnce(&studio_core::jobs::Cancel) -> Result<LabResult, JobError> + Send + 'static,
    ) {
        if let Some(ctx) = ctx {
            self.worker.set_repaint(ctx);
        }
        self.error = None;
        let key = self.next_key;
        self.next_key += 1;
        self.worker.start(key, move |cancel, _| work(cancel));
    }

    /// Loads the VGLC training segments (once).
    pub fn load_data(&mut self, ctx: Option<&egui::Context>) {
        self.asked_data = true;
        self.start(ctx, |_| {
            let dir = vglc_dir();
            let all = data::load(&dir).map_err(|e| {
                JobError::failed(format!(
                    "{e} (the VGLC text levels; set VGLC_DIR to their folder)"
                ))
            })?;
            let train = data::split(all, 0).train;
            let rows: Vec<Vec<String>> = train.iter().map(|s| s.rows.clone()).collect();
            Ok(LabResult::Data(Arc::new(LabData {
                vectors: vectors(&rows),
                sources: train.iter().map(labelled).collect(),
                train,
            })))
        });
    }

    /// Walks from A to B with the chosen model.
    pub fn blend(&mut self, models: &ModelCache, ctx: Option<&egui::Context>) {
        let (Some((_, a)), Some((_, b))) = (self.a.clone(), self.b.clone()) else {
            self.error = Some("Choose segment A and segment B first".into());
            return;
        };
        for level in [&a, &b] {
            if let Err(e) = crate::level::check_rows(&level.cells) {
                self.error = Some(format!("{}: {e}", level.name));
                return;
            }
        }
        let (models, id, steps) = (models.clone(), self.model, self.steps);
        self.start(ctx, move |_| {
            let model = VaeBlends { id }
                .model(&models, None)
                .map_err(JobError::failed)?;
            let walk = lab::interpolate(&model, &a.cells, &b.cells, steps)
                .map_err(|e| JobError::failed(e.to_string()))?;
            let n = walk.len();
            let mut out = vec![LabSegment::of("A".into(), a.clone())];
            for (i, rows) in walk.into_iter().enumerate() {
                let caption = match i {
                    0 => "A (model)".to_string(),
                    i if i + 1 == n => "B (model)".to_string(),
                    i => format!("t = {:.2}", i as f64 / (n - 1) as f64),
                };
                let name = format!("{} × {} {i}", a.name, b.name);
                out.push(LabSegment::of(caption, blend_level(rows, &name, id)));
            }
            out.push(LabSegment::of("B".into(), b.clone()));
            Ok(LabResult::Strip(out))
        });
    }

    /// Decodes `count` random points of the chosen model's prior and scores them.
    pub fn random_blends(&mut self, models: &ModelCache, ctx: Option<&egui::Context>) {
        let Some(data) = self.data.clone() else {
            self.error = Some("The training segments are still loading".into());
            return;
        };
        let (models, id, count, seed) = (models.clone(), self.model, self.count, self.seed);
        self.start(ctx, move |_| {
            let model = VaeBlends { id }
                .model(&models, None)
                .map_err(JobError::failed)?;
            let rows = crate::vae::random_blends(&model, count, seed)
                .map_err(|e| JobError::failed(e.to_string()))?;
            let v = vectors(&rows);
            let blends = rows
                .into_iter()
                .enumerate()
                .map(|(i, r)| {
                    let name = format!("{id} blend {}", i + 1);
                    LabSegment::of(format!("{}", i + 1), blend_level(r, &name, id))
                })
                .collect();
            Ok(LabResult::Random(RandomSet {
                model: id,
                blends,
                e_distance: energy_distance(&v, &data.vectors),
                vectors: v,
            }))
        });
    }

    fn project(&mut self, models: &ModelCache, ctx: Option<&egui::Context>) {
        self.projected = Some(self.model);
        let (models, id) = (models.clone(), self.model);
        self.start(ctx, move |_| {
            let model = VaeBlends { id }
                .model(&models, None)
                .map_err(JobError::failed)?;
            Ok(LabResult::Projection(model.embedding.as_ref().map(|e| {
                let (points, shares) = lab::projection(e);
                Projection {
                    model: id,
                    points,
                    shares,
                }
            })))
        });
    }

    fn take(&mut self, outcome: Result<LabResult, JobError>) {
        match outcome {
            Ok(LabResult::Data(d)) => self.data = Some(d),
            Ok(LabResult::Strip(s)) => self.strip = s,
            Ok(LabResult::Random(r)) => self.random = Some(r),
            Ok(LabResult::Projection(p)) => self.projection = p,
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Collects the worker's answer.
    pub fn poll(&mut self) {
        if let Some((_, outcome)) = self.worker.poll() {
            self.take(outcome);
        }
    }

    /// Tests: block until the job is done.
    pub fn wait(&mut self, timeout: std::time::Duration) {
        if let Some((_, outcome)) = self.worker.wait(timeout) {
            self.take(outcome);
        }
    }

    /// A random Lode Runner A and Zelda B from the training segments, drawn with the seed.
    pub fn pick_random_pair(&mut self) {
        let Some(d) = &self.data else { return };
        let mut rng = studio_core::rng::Rng::new(self.seed.wrapping_add(self.next_key));
        let pick = |source: Source, rng: &mut studio_core::rng::Rng| {
            let pool: Vec<&(String, Level)> = d
                .train
                .iter()
                .zip(&d.sources)
                .filter(|(s, _)| s.source == source)
                .map(|(_, entry)| entry)
                .collect();
            pool[rng.index(pool.len())].clone()
        };
        self.a = Some(pick(Source::LodeRunner, &mut rng));
        self.b = Some(pick(Source::Zelda, &mut rng));
        self.next_key += 1;
    }

    /// Draws the window; `extra` are the studio's blend levels A and B can be.
    pub fn draw(
        &mut self,
        ctx: &egui::Context,
        extra: &[(String, Level)],
        models: &ModelCache,
        commands: &mut Vec<AppCommand>,
    ) {
        if !self.open {
            return;
        }
        if !self.asked_data && !self.busy() {
            self.load_data(Some(ctx));
        }
        if self.data.is_some() && self.a.is_none() && self.b.is_none() && !self.busy() {
            self.pick_random_pair();
        }
        let learned = self.model.starts_with("cte");
        if self.data.is_some() && !self.busy() && self.projected != Some(self.model) {
            if learned {
                self.project(models, Some(ctx));
            } else {
                self.projected = Some(self.model);
                self.projection = None;
            }
        }
        let mut open = true;
        egui::Window::new("Blend lab")
            .open(&mut open)
            .default_size([1180.0, 720.0])
            .default_pos([120.0, 60.0])
            .show(ctx, |ui| {
                self.controls(ui, extra, models);
                ui.separator();
                self.strip_ui(ui, commands);
                ui.separator();
                self.random_ui(ui, models, commands);
            });
        if !open {
            self.open = false;
        }
    }

    fn controls(&mut self, ui: &mut egui::Ui, extra: &[(String, Level)], models: &ModelCache) {
        // The Arc, not the list: the pickers borrow it while the closure edits A and B.
        let data = self.data.clone();
        let training: &[(String, Level)] = data.as_ref().map_or(&[], |d| &d.sources);
        ui.horizontal(|ui| {
            for (slot, name) in [(&mut self.a, "A"), (&mut self.b, "B")] {
                let l = ui.label(format!("Segment {name}"));
                let shown = slot
                    .as_ref()
                    .map(|(l, _)| l.clone())
                    .unwrap_or_else(|| "choose…".into());
                egui::ComboBox::from_id_salt(("blend-pick", name))
                    .selected_text(shown)
                    .width(210.0)
                    .height(360.0)
                    .show_ui(ui, |ui| {
                        for (label, level) in extra.iter().chain(training) {
                            let chosen = slot.as_ref().is_some_and(|(l, _)| l == label);
                            if ui.selectable_label(chosen, label).clicked() {
                                *slot = Some((label.clone(), level.clone()));
                            }
                        }
                    })
                    .response
                    .labelled_by(l.id);
            }
            if ui
                .add_enabled(self.data.is_some(), egui::Button::new("Random pair"))
                .on_hover_text("A random Lode Runner segment as A and Zelda room as B")
                .clicked()
            {
                self.pick_random_pair();
            }
        });
        ui.horizontal(|ui| {
            let l = ui.label("Model");
            let current = MODELS
                .iter()
                .find(|(id, _)| *id == self.model)
                .map_or(self.model, |m| m.1);
            egui::ComboBox::from_id_salt("blend-model")
                .selected_text(current)
                .width(180.0)
                .show_ui(ui, |ui| {
                    for (id, label) in MODELS {
                        ui.selectable_value(&mut self.model, id, label);
                    }
                })
                .response
                .labelled_by(l.id);
            let l = ui.label("Steps");
            ui.add(egui::DragValue::new(&mut self.steps).range(1..=12))
                .labelled_by(l.id);
            ui.checkbox(&mut self.tint, "Tint by game").on_hover_text(
                "Orange: a Lode Runner tile; green: a Zelda tile; dimmed: both games'",
            );
            if self.tint {
                ui.label(
                    RichText::new(" Lode Runner ")
                        .small()
                        .background_color(LR_TINT)
                        .color(Color32::BLACK),
                );
                ui.label(
                    RichText::new(" Zelda ")
                        .small()
                        .background_color(ZELDA_TINT)
                        .color(Color32::BLACK),
                );
                ui.label(RichText::new("dimmed: both").small().weak());
            }
            let busy = self.busy();
            if ui
                .add_enabled(
                    !busy && self.a.is_some() && self.b.is_some(),
                    egui::Button::new("Blend A to B"),
                )
                .on_hover_text("Encode A and B, decode the line between them")
                .clicked()
            {
                self.blend(models, Some(ui.ctx()));
            }
            if busy {
                ui.spinner();
                ui.weak(if self.data.is_none() {
                    "loading the VGLC segments…"
                } else {
                    "working…"
                });
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(palette::BAD, e);
        }
    }

    fn strip_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<AppCommand>) {
        if self.strip.is_empty() {
            ui.weak("Choose A and B and press “Blend A to B”: the strip shows A, the model's reading of it, the in-betweens and B.");
            return;
        }
        egui::ScrollArea::horizontal()
            .id_salt("blend-strip")
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    let last = self.strip.len() - 1;
                    for (i, s) in self.strip.iter().enumerate() {
                        segment_card(ui, s, self.tint, THUMB, commands);
                        if i == 0 || i + 1 == last {
                            // A gap (not a separator, which would take the window's height)
                            // between the inputs and the model's segments.
                            ui.add_space(14.0);
                        }
                    }
                });
            });
    }

    fn random_ui(
        &mut self,
        ui: &mut egui::Ui,
        models: &ModelCache,
        commands: &mut Vec<AppCommand>,
    ) {
        ui.horizontal(|ui| {
            let l = ui.label("Random blends");
            ui.add(egui::DragValue::new(&mut self.count).range(10..=2000))
                .labelled_by(l.id);
            let l = ui.label("seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(l.id);
            if ui
                .add_enabled(
                    !self.busy() && self.data.is_some(),
                    egui::Button::new("Draw"),
                )
                .on_hover_text("Decode random points of the model's prior and score them")
                .clicked()
            {
                self.random_blends(models, Some(ui.ctx()));
            }
            if let Some(r) = &self.random {
                let share = |f: fn(&BlendFigures) -> bool| {
                    r.blends.iter().filter(|b| f(&b.figures)).count() as f64
                        / r.blends.len().max(1) as f64
                        * 100.0
                };
                ui.label(
                    RichText::new(format!(
                        "{}: {} blends · E-distance {:.4} · LR A* {:.1} % · LoZ A* {:.1} % · LR-like {:.1} %",
                        r.model,
                        r.blends.len(),
                        r.e_distance,
                        share(|f| f.lr_playable),
                        share(|f| f.loz_playable),
                        share(|f| f.lode_runner_like),
                    ))
                    .strong(),
                );
                if ui
                    .button("To candidates")
                    .on_hover_text("Send these blends to the candidate list")
                    .clicked()
                {
                    commands.push(AppCommand::OfferCandidates(
                        r.blends.iter().map(candidate_of).collect(),
                    ));
                }
            }
        });
        ui.horizontal_top(|ui| {
            let width = (ui.available_width() - 16.0) / 2.0;
            ui.vertical(|ui| {
                ui.set_width(width);
                self.scatter_ui(ui);
            });
            ui.vertical(|ui| {
                ui.set_width(width);
                self.projection_ui(ui);
            });
        });
        if let Some(r) = &self.random {
            egui::ScrollArea::horizontal()
                .id_salt("blend-random")
                .show(ui, |ui| {
                    ui.horizontal_top(|ui| {
                        for s in r.blends.iter().take(24) {
                            segment_card(ui, s, self.tint, 72.0, commands);
                        }
                    });
                });
        }
    }

    fn scatter_ui(&mut self, ui: &mut egui::Ui) {
        let names = metric_names();
        ui.horizontal(|ui| {
            ui.label(RichText::new("Expressive range").strong());
            for (axis, label) in [(&mut self.axes.0, "x"), (&mut self.axes.1, "y")] {
                let l = ui.label(label);
                // Wide enough for the longest metric ("interestingness", "path proportion").
                egui::ComboBox::from_id_salt(("blend-axis", label))
                    .width(140.0)
                    .selected_text(names[*axis])
                    .show_ui(ui, |ui| {
                        for (k, n) in names.iter().enumerate() {
                            ui.selectable_value(axis, k, *n);
                        }
                    })
                    .response
                    .labelled_by(l.id);
            }
        });
        let (x, y) = self.axes;
        let pick = |v: &[[f64; 5]]| -> Vec<[f64; 2]> { v.iter().map(|m| [m[x], m[y]]).collect() };
        Plot::new("blend-scatter")
            .height(230.0)
            .include_x(0.0)
            .include_x(1.0)
            .include_y(0.0)
            .include_y(1.0)
            .x_axis_label(names[x])
            .y_axis_label(names[y])
            .legend(Legend::default())
            .show(ui, |plot| {
                if let Some(d) = &self.data {
                    plot.points(
                        Points::new("training segments", PlotPoints::from(pick(&d.vectors)))
                            .color(Color32::from_gray(150))
                            .radius(1.5),
                    );
                }
                if let Some(r) = &self.random {
                    plot.points(
                        Points::new(
                            format!("{} blends", r.model),
                            PlotPoints::from(pick(&r.vectors)),
                        )
                        .color(palette::ACCENT)
                        .radius(2.0),
                    );
                }
            });
    }

    fn projection_ui(&self, ui: &mut egui::Ui) {
        ui.label(RichText::new("Learned tile embeddings (2-D projection)").strong());
        let Some(p) = &self.projection else {
            ui.weak(if self.model.starts_with("cte") {
                "projecting…"
            } else {
                "The unified representation is Table I's one-hot code: 15 fixed, equally far \
                 directions, nothing learned to project. Choose a learned-tiles model."
            });
            return;
        };
        ui.label(
            RichText::new(format!(
                "{}: {} embeddings of the decode table; axes hold {:.0} % and {:.0} % of the variance",
                p.model,
                p.points.len(),
                p.shares[0] * 100.0,
                p.shares[1] * 100.0
            ))
            .small(),
        );
        let group = |game: Source| -> Vec<[f64; 2]> {
            p.points
                .iter()
                .filter(|(_, t)| OWN[*t].0 == game)
                .map(|(xy, _)| *xy)
                .collect()
        };
        Plot::new("blend-projection")
            .height(214.0)
            .data_aspect(1.0)
            .legend(Legend::default())
            .show(ui, |plot| {
                for (game, name, colour) in [
                    (Source::LodeRunner, "Lode Runner's own tiles", LR_TINT),
                    (Source::Zelda, "Zelda's own tiles", ZELDA_TINT),
                ] {
                    plot.points(
                        Points::new(name, PlotPoints::from(group(game)))
                            .color(colour)
                            .radius(2.0),
                    );
                }
            });
    }
}

/// The generator name of the candidates the lab sends (kept with them in the session).
pub const LAB_GENERATOR: &str = "lab";

/// A lab segment as a candidate of the blend game.
fn candidate_of(s: &LabSegment) -> Candidate {
    let f = &s.figures;
    let pass = if f.lode_runner_like {
        f.lr_playable
    } else {
        f.loz_playable
    };
    Candidate {
        level: s.level.clone(),
        difficulty: None,
        verdict: studio_core::game::Verdict {
            pass,
            weak: false,
            // What the badge's colour says, as the game's own verdict says it; the likeness
            // is in the text beside it.
            label: if pass { "PLAYABLE" } else { "UNPLAYABLE" }.into(),
            reason: verdict_text(f),
        },
        generator: LAB_GENERATOR,
    }
}

fn verdict_text(f: &BlendFigures) -> String {
    format!(
        "{}-like · LR A* {} · LoZ A* {}",
        if f.lode_runner_like { "LR" } else { "LoZ" },
        if f.lr_playable { "passes" } else { "fails" },
        if f.loz_playable { "passes" } else { "fails" },
    )
}

/// The colour of a blend tile, mixed with its game's tint when `tint` is on.
pub fn cell_colour(letter: char, tint: bool) -> Color32 {
    let k = LETTERS.iter().position(|&l| l == letter);
    let base = k.map_or(Color32::from_rgb(255, 0, 255), |k| palette::rgb(COLOURS[k]));
    if !tint || props(letter).is_none() {
        return base;
    }
    let over = match crate::tiles::origin(letter) {
        Origin::LodeRunner => LR_TINT,
        Origin::Zelda => ZELDA_TINT,
        Origin::Both => return base.gamma_multiply(0.55),
    };
    let mix = |a: u8, b: u8| ((u16::from(a) + u16::from(b)) / 2) as u8;
    Color32::from_rgb(
        mix(base.r(), over.r()),
        mix(base.g(), over.g()),
        mix(base.b(), over.b()),
    )
}

/// A segment's card: caption, the cells (tinted), the badges; click opens it in the editor.
fn segment_card(
    ui: &mut egui::Ui,
    s: &LabSegment,
    tint: bool,
    side: f32,
    commands: &mut Vec<AppCommand>,
) {
    ui.vertical(|ui| {
        ui.set_width(side);
        ui.label(RichText::new(&s.caption).small());
        let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::click());
        let cell = side / 16.0;
        let mut mesh = egui::Mesh::default();
        for (y, row) in s.level.cells.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let r = Rect::from_min_size(
                    rect.min + Vec2::new(x as f32, y as f32) * cell,
                    Vec2::splat(cell),
                );
                mesh.add_colored_rect(r, cell_colour(c, tint));
            }
        }
        ui.painter().add(egui::Shape::mesh(mesh));
        let f = &s.figures;
        let passes = if f.lode_runner_like {
            f.lr_playable
        } else {
            f.loz_playable
        };
        let frame = if response.hovered() {
            palette::ACCENT
        } else if passes {
            palette::GOOD
        } else {
            palette::BAD
        };
        ui.painter()
            .rect_stroke(rect, 2.0, Stroke::new(1.5, frame), StrokeKind::Outside);
        let share = lab::lode_runner_share(&s.level.cells)
            .map_or("no game tiles".into(), |v| format!("LR {:.0} %", v * 100.0));
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 3.0;
            badge(ui, "LR A*", f.lr_playable)
                .on_hover_text("Green: the Lode Runner agent gets through; red: it does not");
            badge(ui, "LoZ A*", f.loz_playable)
                .on_hover_text("Green: the Zelda agent gets through; red: it does not");
        });
        ui.label(
            RichText::new(format!(
                "{}-like · {share}",
                if f.lode_runner_like { "LR" } else { "LoZ" }
            ))
            .small()
            .weak(),
        );
        if response
            .on_hover_text(format!(
                "{} · {} · click: open in the editor",
                s.level.name,
                verdict_text(f)
            ))
            .clicked()
        {
            commands.push(AppCommand::LoadLevel(s.level.clone()));
        }
    });
}

fn badge(ui: &mut egui::Ui, name: &str, ok: bool) -> egui::Response {
    let colour = if ok { palette::GOOD } else { palette::BAD };
    ui.label(
        RichText::new(format!(" {name} "))
            .small()
            .color(Color32::BLACK)
            .background_color(colour),
    )
}

impl ToolWindow for BlendLab {
    fn game(&self) -> studio_core::game::GameId {
        crate::ID
    }

    fn title(&self) -> &'static str {
        "Blend lab"
    }

    fn help(&self) -> &'static str {
        "Mix a Lode Runner segment and a Zelda room through a blend VAE"
    }

    fn is_open(&self) -> bool {
        self.open
    }

    fn set_open(&mut self, open: bool) {
        self.open = open;
    }

    fn poll(&mut self, _ctx: &egui::Context) {
        BlendLab::poll(self);
    }

    fn busy(&self) -> bool {
        BlendLab::busy(self)
    }

    fn ui(&mut self, ctx: &egui::Context, studio: &ToolContext<'_>, actions: &mut Vec<AppCommand>) {
        self.draw(ctx, studio.sources, studio.models, actions);
    }
}
