//! The Level models window: train a level VAE on the active pack (on a worker, with its loss
//! curve, progress and Cancel; the file saved atomically beside the pack), open a model file,
//! and regenerate the canvas selection — from a level VAE of the game, or by a search over
//! the selected cells when the game has none. A trained or opened model joins the game's
//! generators at once; the regenerated levels arrive in the candidates panel, badged by the
//! game's analysis like every other generator's.

use crate::studio::panel::AppCommand;
use crate::RepaintOnReport;
use egui_plot::{Legend, Line, Plot, PlotPoints};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use studio_core::game::{GameId, LevelGenerator};
use studio_core::generation::Candidate;
use studio_core::jobs::{JobError, JobMode, Worker};
use studio_core::level::Level;
use studio_ml::level_vae::{self, inpaint, Arch, LevelVae};
use studio_ui::palette;

/// The candidates a region regeneration gives.
const REGION_COUNT: std::ops::RangeInclusive<usize> = 1..=20;

/// Where the region's candidates come from.
#[derive(Clone, Debug, PartialEq)]
pub enum RegionSource {
    /// A level VAE file of the game.
    Model(PathBuf),
    /// The seeded search over the region (no model).
    Search,
}

/// One epoch's losses: epoch, training, held-out.
type Curve = Arc<Mutex<Vec<[f64; 3]>>>;

/// The Level models window's state.
pub struct ModelsWindow {
    /// Shown.
    pub open: bool,
    /// The network to train.
    pub arch: Arch,
    /// Most epochs.
    pub epochs: usize,
    /// Share held out.
    pub holdout: f64,
    /// Seed.
    pub seed: u64,
    /// Columns a window, for side-scrolling games.
    pub window_columns: usize,
    /// What the last training or opening said.
    pub message: Option<String>,
    /// The last problem, in words.
    pub error: Option<String>,
    /// Candidates a region regeneration asks for.
    pub count: usize,
    /// Where they come from.
    pub source: RegionSource,
    training: Worker<PathBuf>,
    curve: Curve,
    regenerating: Worker<Vec<Candidate>>,
    next_key: u64,
    /// Model files trained or opened since the studio last asked: its model cache forgets
    /// them, so a model retrained under the same name is read again.
    changed: Vec<PathBuf>,
}

impl ModelsWindow {
    /// A closed window running jobs in `mode`.
    pub fn new(mode: JobMode) -> Self {
        Self {
            open: false,
            arch: Arch::Fc,
            epochs: 300,
            holdout: 0.1,
            seed: 0,
            window_columns: 16,
            message: None,
            error: None,
            count: 5,
            source: RegionSource::Search,
            training: Worker::new("level-vae training", mode),
            curve: Arc::default(),
            regenerating: Worker::new("regenerate selection", mode),
            next_key: 1,
            changed: Vec::new(),
        }
    }

    /// True while a training runs.
    pub fn training(&self) -> bool {
        self.training.busy()
    }

    /// True while a region is being regenerated.
    pub fn regenerating(&self) -> bool {
        self.regenerating.busy()
    }

    /// The losses so far, one `[epoch, training, held-out]` per epoch.
    pub fn curve(&self) -> Vec<[f64; 3]> {
        self.curve.lock().map(|c| c.clone()).unwrap_or_default()
    }

    fn key(&mut self) -> u64 {
        self.next_key += 1;
        self.next_key
    }

    /// Starts training on `levels` (the active pack, titled `title`), saving at `out`.
    pub fn train(&mut self, levels: Vec<Level>, title: String, out: PathBuf, ctx: &egui::Context) {
        if self.training.busy() {
            self.error = Some("A training is running: wait for it or cancel it".into());
            return;
        }
        let side_scrolling = levels
            .first()
            .and_then(|l| l.game.game().ok())
            .is_some_and(|g| g.side_scrolling());
        let height = levels.iter().map(|l| l.cells.len()).max().unwrap_or(1);
        let config = level_vae::TrainConfig {
            arch: self.arch,
            epochs: self.epochs,
            holdout: self.holdout,
            seed: self.seed,
            window: side_scrolling.then_some((self.window_columns, height)),
            ..Default::default()
        };
        if let Err(e) = level_vae::check_config(&config) {
            self.error = Some(e.to_string());
            return;
        }
        self.error = None;
        self.message = None;
        if let Ok(mut c) = self.curve.lock() {
            c.clear();
        }
        let curve = self.curve.clone();
        self.training.set_repaint(ctx);
        let key = self.key();
        self.training.start(key, move |cancel, report| {
            report.progress(0.0, format!("reading {} levels", levels.len()));
            let source = level_vae::TrainSource {
                pack: title,
                command: format!(
                    "the window's Train on this pack: --arch {} --epochs {} --holdout {} \
                     --seed {}{}",
                    config.arch,
                    config.epochs,
                    config.holdout,
                    config.seed,
                    config
                        .window
                        .map_or(String::new(), |(w, h)| format!(" --window {w}x{h}"))
                ),
            };
            level_vae::train(&levels, &config, &source, &out, cancel, &mut |p| {
                if let Ok(mut c) = curve.lock() {
                    c.push([p.epoch as f64, p.train_loss, p.holdout_loss]);
                }
                report.progress(
                    p.epoch as f32 / p.epochs as f32,
                    format!(
                        "epoch {}/{} · held-out cells {:.1} % · best epoch {}",
                        p.epoch,
                        p.epochs,
                        p.holdout_cells * 100.0,
                        p.best_epoch
                    ),
                );
            })
            .map_err(|e| match e {
                level_vae::LevelVaeError::Cancelled => JobError::Cancelled,
                other => JobError::failed(other.to_string()),
            })?;
            Ok(out)
        });
    }

    /// The model files trained or opened (and loaded) since the last call.
    pub fn take_changed(&mut self) -> Vec<PathBuf> {
        std::mem::take(&mut self.changed)
    }

    /// Adds the model at `path` to its game's generators.
    pub fn open_model(&mut self, path: &Path) {
        match level_vae::register(path) {
            Ok(g) => {
                self.changed.push(path.to_path_buf());
                self.message = Some(format!(
                    "{} joins the {} generators",
                    g.label(),
                    g.sidecar().game
                ));
                self.error = None;
                self.source = RegionSource::Model(path.to_path_buf());
            }
            Err(e) => self.error = Some(format!("{}: {e}", path.display())),
        }
    }

    /// Starts regenerating `region` of `level`.
    pub fn regenerate(&mut self, level: Level, region: [usize; 4], ctx: &egui::Context) {
        if self.regenerating.busy() {
            return;
        }
        let [x, y, w, h] = region;
        let region = inpaint::Region { x, y, w, h };
        let model = match &self.source {
            RegionSource::Model(p) => Some(p.clone()),
            RegionSource::Search => None,
        };
        let config = inpaint::InpaintConfig {
            count: self.count,
            seed: self.seed,
            budget: std::time::Duration::from_secs(10),
            ..Default::default()
        };
        self.error = None;
        self.regenerating.set_repaint(ctx);
        let key = self.key();
        self.regenerating.start(key, move |cancel, report| {
            report.progress(0.1, format!("regenerating region {region}"));
            let model = match model {
                Some(p) => Some(LevelVae::load(&p).map_err(|e| e.to_string())?),
                None => None,
            };
            let found =
                inpaint::inpaint(&level, region, model.as_ref(), &config, cancel).map_err(|e| {
                    match e {
                        inpaint::InpaintError::Cancelled => JobError::Cancelled,
                        other => JobError::failed(other.to_string()),
                    }
                })?;
            if found.candidates.is_empty() {
                return Err(JobError::failed(format!(
                    "no candidate for region {region} passed the game's analysis in {} \
                     attempts: try a larger selection or another seed",
                    found.attempts
                )));
            }
            Ok(found
                .candidates
                .into_iter()
                .map(|c| {
                    let mut l = c.level;
                    l.tags.push("region".into());
                    Candidate {
                        level: l,
                        difficulty: c.difficulty,
                        verdict: c.verdict,
                        generator: "region",
                    }
                })
                .collect())
        });
    }

    /// Collects the workers' answers: a trained model joins its game's generators, the
    /// region's candidates go to the candidates panel.
    pub fn poll(&mut self, commands: &mut Vec<AppCommand>) {
        if let Some((_, outcome)) = self.training.poll() {
            match outcome {
                Ok(path) => {
                    self.open_model(&path);
                    if let Some(m) = &mut self.message {
                        *m = format!("Saved {}; {m}", path.display());
                    }
                }
                Err(JobError::Cancelled) => {
                    self.message = Some(
                        "Training cancelled; nothing was kept but the last checkpoint (if any)"
                            .into(),
                    );
                }
                Err(e) => self.error = Some(e.to_string()),
            }
        }
        if let Some((_, outcome)) = self.regenerating.poll() {
            match outcome {
                Ok(list) => {
                    self.message = Some(format!(
                        "{} regenerated levels in the candidates",
                        list.len()
                    ));
                    commands.push(AppCommand::OfferCandidates {
                        from: "Regenerate selection",
                        list,
                    });
                }
                Err(JobError::Cancelled) => {}
                Err(e) => self.error = Some(e.to_string()),
            }
        }
    }

    /// Tests: block until the running jobs are done, then collect their answers.
    pub fn wait(&mut self, timeout: std::time::Duration, commands: &mut Vec<AppCommand>) {
        match self.training.wait(timeout) {
            Some((_, Ok(path))) => self.open_model(&path),
            Some((_, Err(e))) => self.error = Some(e.to_string()),
            None => {}
        }
        if let Some((_, outcome)) = self.regenerating.wait(timeout) {
            match outcome {
                Ok(list) => commands.push(AppCommand::OfferCandidates {
                    from: "Regenerate selection",
                    list,
                }),
                Err(e) => self.error = Some(e.to_string()),
            }
        }
    }

    /// The level VAEs registered for `game` (label, file).
    fn models_of(game: GameId) -> Vec<(&'static str, PathBuf)> {
        studio_core::game::registry::learned(game)
            .iter()
            .filter_map(|g| Some((g.label(), g.model_file()?.to_path_buf())))
            .collect()
    }

    /// Draws the window. `pack`: the active pack (its levels of `game` are what Train copies
    /// and learns from, only when pressed) and where a model of it is saved; `selection`: the
    /// canvas's (Regenerate asks the studio, which hands over the level under edit).
    #[allow(clippy::too_many_arguments)]
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        game: GameId,
        pack: Option<(String, &[Level], PathBuf)>,
        selection: Option<[usize; 4]>,
        commands: &mut Vec<AppCommand>,
    ) {
        if !self.open {
            return;
        }
        let mut open = true;
        let name = game.game().map_or("this game", |g| g.name());
        egui::Window::new("Level models")
            .open(&mut open)
            .default_size([560.0, 520.0])
            .default_pos([260.0, 140.0])
            .show(ctx, |ui| {
                ui.heading(format!("Train a level VAE on this pack ({name})"));
                self.train_ui(ui, game, pack, commands);
                ui.separator();
                ui.heading("Regenerate selection");
                self.region_ui(ui, game, selection, commands);
                if let Some(m) = &self.message {
                    ui.colored_label(palette::GOOD, m);
                }
                if let Some(e) = &self.error {
                    ui.colored_label(palette::BAD, e);
                }
            });
        if !open {
            self.open = false;
        }
    }

    fn train_ui(
        &mut self,
        ui: &mut egui::Ui,
        game: GameId,
        pack: Option<(String, &[Level], PathBuf)>,
        commands: &mut Vec<AppCommand>,
    ) {
        let Some((title, all, out)) = pack else {
            ui.weak("Open or make a pack of this game's levels to train on.");
            return;
        };
        let count = all.iter().filter(|l| l.game == game).count();
        ui.label(format!("Pack “{title}”: {count} levels"));
        ui.horizontal(|ui| {
            let l = ui.label("Network");
            egui::ComboBox::from_id_salt("vae-arch")
                .selected_text(self.arch.to_string())
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.arch, Arch::Fc, "fc (fully connected)");
                    ui.selectable_value(&mut self.arch, Arch::Cnn, "cnn (convolutional)");
                })
                .response
                .labelled_by(l.id);
            let l = ui.label("Epochs");
            ui.add(egui::DragValue::new(&mut self.epochs).range(1..=level_vae::MAX_EPOCHS))
                .labelled_by(l.id);
            let l = ui.label("Held out");
            ui.add(
                egui::DragValue::new(&mut self.holdout)
                    .range(0.0..=0.5)
                    .speed(0.01),
            )
            .labelled_by(l.id);
            let l = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.seed))
                .labelled_by(l.id);
        });
        let side_scrolling = game.game().is_ok_and(|g| g.side_scrolling());
        if side_scrolling {
            ui.horizontal(|ui| {
                let l = ui.label("Window columns");
                ui.add(
                    egui::DragValue::new(&mut self.window_columns).range(2..=level_vae::MAX_SIDE),
                )
                .labelled_by(l.id);
                ui.weak("a side-scroller trains on windows and generates window by window");
            });
        }
        ui.horizontal(|ui| {
            let busy = self.training.busy();
            if ui
                .add_enabled(!busy && count >= 2, egui::Button::new("Train"))
                .on_hover_text(format!("Saves {}", out.display()))
                .clicked()
            {
                let levels = all.iter().filter(|l| l.game == game).cloned().collect();
                self.train(levels, title.clone(), out.clone(), ui.ctx());
            }
            if busy {
                if ui.button("Cancel").clicked() {
                    self.training.cancel();
                }
                if self.training.progress.is_some() {
                    let (f, note) = self.training.progress_text();
                    ui.add(egui::ProgressBar::new(f).text(note).desired_width(260.0));
                }
            }
            if ui.button("Open a model file…").clicked() {
                commands.push(AppCommand::OpenModelDialog);
            }
        });
        if count < 2 {
            ui.weak("A level VAE needs at least two levels (and learns from many more).");
        }
        let curve = self.curve();
        if !curve.is_empty() {
            let train: PlotPoints = curve.iter().map(|p| [p[0], p[1]]).collect();
            let held: PlotPoints = curve.iter().map(|p| [p[0], p[2]]).collect();
            Plot::new("vae-loss")
                .height(150.0)
                .legend(Legend::default())
                .x_axis_label("epoch")
                .y_axis_label("loss per level")
                .show(ui, |plot| {
                    plot.line(Line::new("training", train));
                    plot.line(Line::new("held out", held));
                });
        }
    }

    fn region_ui(
        &mut self,
        ui: &mut egui::Ui,
        game: GameId,
        selection: Option<[usize; 4]>,
        commands: &mut Vec<AppCommand>,
    ) {
        let models = Self::models_of(game);
        if let RegionSource::Model(p) = &self.source {
            if !models.iter().any(|(_, m)| m == p) {
                self.source = RegionSource::Search;
            }
        }
        ui.horizontal(|ui| {
            let l = ui.label("From");
            let shown = match &self.source {
                RegionSource::Search => "search over the region (no model)".to_string(),
                RegionSource::Model(p) => models
                    .iter()
                    .find(|(_, m)| m == p)
                    .map_or_else(|| p.display().to_string(), |(label, _)| label.to_string()),
            };
            egui::ComboBox::from_id_salt("region-source")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(
                        &mut self.source,
                        RegionSource::Search,
                        "search over the region (no model)",
                    );
                    for (label, path) in &models {
                        ui.selectable_value(
                            &mut self.source,
                            RegionSource::Model(path.clone()),
                            *label,
                        );
                    }
                })
                .response
                .labelled_by(l.id);
            let l = ui.label("Candidates");
            ui.add(egui::DragValue::new(&mut self.count).range(REGION_COUNT))
                .labelled_by(l.id);
        });
        match selection {
            Some([x, y, w, h]) => {
                ui.label(format!("Selection: column {x}, row {y}, {w}×{h} cells"));
                ui.horizontal(|ui| {
                    let busy = self.regenerating.busy();
                    if ui
                        .add_enabled(!busy, egui::Button::new("Regenerate selection"))
                        .on_hover_text("Shortcut: G. Only the selected cells change; each candidate passes the game's analysis")
                        .clicked()
                    {
                        commands.push(AppCommand::RegenerateSelection);
                    }
                    if busy {
                        if ui.button("Cancel").clicked() {
                            self.regenerating.cancel();
                        }
                        ui.spinner();
                    }
                });
            }
            None => {
                ui.weak("Pick the Select tool (M) and drag over the canvas to choose the cells to regenerate.");
            }
        }
    }
}

/// Where a model trained on the pack at `pack` (or, never saved or shipped, titled `title`)
/// is saved: beside the pack, `NAME-level-vae-ARCH.safetensors` (else in `user_dir`).
pub fn model_path_for(pack: Option<&Path>, title: &str, user_dir: &Path, arch: Arch) -> PathBuf {
    let stem = pack
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| {
            title
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect()
        });
    let folder = pack
        .map(studio_core::io::folder_of)
        .unwrap_or_else(|| user_dir.to_path_buf());
    folder.join(format!("{stem}-level-vae-{arch}.safetensors"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_goes_beside_its_pack_or_into_the_users_folder() {
        let user = Path::new("/home/d/level-studio");
        assert_eq!(
            model_path_for(Some(Path::new("/p/rooms.ron")), "Rooms", user, Arch::Fc),
            PathBuf::from("/p/rooms-level-vae-fc.safetensors")
        );
        assert_eq!(
            model_path_for(None, "Longcat starter", user, Arch::Cnn),
            user.join("Longcat-starter-level-vae-cnn.safetensors")
        );
    }
}
