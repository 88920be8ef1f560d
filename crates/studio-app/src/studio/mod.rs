//! The studio window: owns the saved settings and the runtime state (editors, workers, open
//! packs, panels), lays out the panels each frame, and hands every command to
//! [`StudioApp::apply`] (in `apply.rs`).

mod access;
mod apply;
mod device;
pub mod dialogs;
pub mod errors;
mod file_work;
pub mod help;
mod layout;
pub mod panel;
pub mod session;
pub mod settings;
/// The autosave and its recovery file (GUI-free, in the document model).
pub use studio_core::document::recovery;

use crate::analysis::gauge::GaugePanel;
use crate::analysis::graph_view::GraphPanel;
use crate::analysis::profile::ProfileWindow;
use crate::analysis::LiveAnalysis;
use crate::board::Board;
use crate::editor::canvas::{CanvasView, StateOverlay};
use crate::editor::sidebar::ConditionsPanel;
use crate::editor::{EditCommand, Editor};
use crate::generation::generate_panel::GeneratorPanel;
use crate::generation::interpolation::InterpolationWindow;
use crate::generation::models_window::ModelsWindow;
use crate::jobs::{JobMode, Worker};
use crate::pack::pack_strip::PackStrip;
use crate::pack_doc::{self, LevelRef, MeasureKey, Measured, PackDoc};
use crate::playtest::PlaytestWindow;
use crate::studio::dialogs::FileDialogs;
use crate::studio::panel::AppCommand;
use crate::studio::recovery::Recovery;
use crate::studio::settings::{tool_key, Settings, StudioPaths, Tool};
use crate::RepaintOnReport;
use egui::{Key, KeyboardShortcut, Modifiers};
use errors::AppError;
use file_work::FileWork;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use studio_core::document::settings::read_settings_file;
use studio_core::document::startup::{read_startup_file, status_line, StartupRead};
use studio_core::files;
use studio_core::game::registry;
use studio_core::level::{Game, Level, Playtest};

/// A change to a pack that is a step of the Edit history.
#[derive(Clone, Debug)]
pub(super) enum PackStep {
    /// A level taken out (`added: false`) or added (`added: true`) of the pack `pack`.
    Taken {
        /// The pack's uid.
        pack: u64,
        /// The level, and where it goes back.
        level: pack_doc::Removed,
        /// True for an add (undo takes it out), false for a removal (undo puts it back).
        added: bool,
    },
    /// The levels of pack `pack` put in another order (a move, a sort).
    Reordered {
        /// The pack's uid.
        pack: u64,
        /// The level ids before.
        before: Vec<u64>,
        /// The level ids after.
        after: Vec<u64>,
    },
}

/// What waits for the designer's answer in the unsaved-changes guard.
#[derive(Clone, Debug, PartialEq)]
pub enum Guarded {
    /// Open a file over an unsaved pack.
    Open(std::path::PathBuf),
    /// Close an unsaved pack.
    ClosePack(usize),
    /// Close the window.
    Quit,
}

/// The designer's answer to the unsaved-changes guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardAnswer {
    /// Save the unsaved packs, then go on.
    Save,
    /// Drop the changes and go on.
    Discard,
    /// Do nothing.
    Cancel,
}

/// The studio: saved settings plus everything that lives only while the window is open.
pub struct StudioApp {
    /// What persists between runs.
    pub settings: Settings,
    pub(super) paths: StudioPaths,
    pub(super) game: Game,
    /// The level under edit in the game on the canvas.
    pub(super) desk: Desk,
    /// The levels under edit in the other games, kept while another game is shown.
    pub(super) parked: BTreeMap<Game, Desk>,
    pub(super) analysis: LiveAnalysis,
    pub(super) packs: Vec<PackDoc>,
    pub(super) active_pack: usize,
    pub(super) canvas: CanvasView,
    pub(super) conditions: ConditionsPanel,
    pub(super) gauge: GaugePanel,
    pub(super) graph: GraphPanel,
    pub(super) strip: PackStrip,
    pub(super) generators: GeneratorPanel,
    pub(super) playtest: PlaytestWindow,
    pub(super) interpolation: InterpolationWindow,
    /// The games' tool windows, one of each registered.
    pub(super) tools: Vec<Box<dyn studio_ui::ToolWindow>>,
    pub(super) profile: ProfileWindow,
    pub(super) models_window: ModelsWindow,
    /// The interpolation window's choice of levels and what they were built from.
    pub(super) interpolation_sources: (Option<SourcesKey>, Vec<(String, Level)>),
    /// The side panels (by name and game) shown since the start: each opens at its top once
    /// per run (egui keeps scroll offsets between runs, which would open the sidebar with
    /// its first sections scrolled out of view); after that each keeps its own offset.
    pub(super) scrolled_home: std::collections::HashSet<(&'static str, Game)>,
    /// Each open tool window's levels to choose from, by game, and what they were built from.
    pub(super) tool_sources: BTreeMap<Game, (SourcesKey, Vec<(String, Level)>)>,
    /// Playtests of levels not in a pack yet: they join the level when it is added.
    pub(super) unattached: Vec<(Game, Vec<String>, Playtest)>,
    pub(super) shown_state: Option<StateOverlay>,
    pub(super) errors: Vec<AppError>,
    pub(super) files: FileWork,
    pub(super) status: String,
    pub(super) guard: Option<Guarded>,
    pub(super) recovery_offer: Option<Recovery>,
    pub(super) dialogs: FileDialogs,
    pub(super) pack_figures: Worker<Vec<(MeasureKey, Measured)>>,
    pub(super) work_generation: u64,
    pub(super) autosaved_generation: u64,
    pub(super) last_autosave: Instant,
    pub(super) close_confirmed: bool,
    pub(super) frame_ms: f32,
    /// The device models run on, in words ("CPU", "CUDA 0"), for the status bar.
    pub(super) device_name: String,
    /// The choices of View > Device (the CUDA devices found at start).
    pub(super) device_options: Vec<studio_ml::DeviceChoice>,
    pub(super) pending: Vec<AppCommand>,
    /// Changes to packs (a level added, removed, moved; a sort), by the token of their step in
    /// the editor's history: Edit > Undo and Redo replay them in order with the painting.
    pub(super) removals: BTreeMap<u64, PackStep>,
    /// What was wrong with the files read at start (the status bar shows the first few).
    pub(super) startup_notes: Vec<String>,
    /// The active pack (uid), work generation and figure count at which the pack was last
    /// found fully measured.
    pub(super) measured_through: Option<(u64, u64, usize)>,
    /// The folder of the last file opened or imported: where Open and Import start (W10).
    pub(super) last_folder: Option<std::path::PathBuf>,
    /// The shortcut sheet is shown.
    pub help_open: bool,
}

/// Levels measured per batch for a pack's cards (the visible ones first).
const MEASURE_BATCH: usize = 16;

/// What the interpolation window's list of levels depends on: work generation, active pack,
/// candidates, the editors' revisions, the revision the gauge answered for, the walked
/// model's game and the game on the canvas.
pub(super) type SourcesKey = (u64, usize, (u64, usize), u64, Option<u64>, Game, Game);

/// One game's level under edit, and its revision when it was last loaded or added to a
/// pack (a newer revision means work not in a pack).
#[derive(Clone, Debug)]
pub(super) struct Desk {
    pub(super) editor: Editor,
    pub(super) clean_revision: u64,
    /// The pack link, revision and figure freshness last written into the pack level the
    /// canvas edits in place.
    pub(super) synced: Option<(LevelRef, u64, bool)>,
    /// The pack level whose cells the canvas has changed (its figures follow the gauge).
    pub(super) edited: Option<LevelRef>,
}

impl Desk {
    fn new(editor: Editor) -> Self {
        Self {
            clean_revision: editor.revision(),
            editor,
            synced: None,
            edited: None,
        }
    }

    /// A blank level of `game` at its default size (the first registered game when `game`
    /// is not registered).
    pub(super) fn blank(game: Game) -> Self {
        let rules = game.game().unwrap_or_else(|_| registry::first());
        let (w, h) = rules.size_rules().default;
        Self::new(Editor::new(Board::blank(rules, w, h), "untitled"))
    }
}

impl StudioApp {
    /// A studio with these settings and paths; `mode` chooses threads or inline jobs (tests).
    /// Opens the packs of the last run, else the shipped packs, and offers autosaved work.
    /// Every file read here is read as [`StudioApp::with_startup`] says.
    pub fn new(settings: Settings, paths: StudioPaths, mode: JobMode) -> Self {
        Self::start(settings, Vec::new(), paths, mode)
    }

    /// A studio whose settings are read from `paths.settings_file` as the window reads them
    /// at start ([`read_settings_file`]).
    pub fn from_files(paths: StudioPaths, mode: JobMode) -> Self {
        let settings = read_settings_file(paths.settings_file.as_deref());
        Self::with_startup(settings, paths, mode)
    }

    /// A studio with the settings as read at start (the defaults when there were none). Every
    /// start-up file — settings, session, recovery and the packs reopened — is read only when
    /// it is a regular file within the size cap, its numbers are brought into range, and
    /// whatever was wrong is said in the status bar (and kept in
    /// [`StudioApp::startup_notes`]); nothing at start can block or crash the window.
    pub fn with_startup(
        settings: StartupRead<Settings>,
        paths: StudioPaths,
        mode: JobMode,
    ) -> Self {
        Self::start(
            settings.value.unwrap_or_default(),
            settings.notes,
            paths,
            mode,
        )
    }

    fn start(
        mut settings: Settings,
        mut notes: Vec<String>,
        paths: StudioPaths,
        mode: JobMode,
    ) -> Self {
        notes.extend(
            settings
                .check_numbers()
                .into_iter()
                .map(|n| format!("settings: {n}")),
        );
        device::apply_saved_device(&mut settings.device, &mut notes);
        let mut packs = Vec::new();
        let mut errors = Vec::new();
        let wanted: Vec<_> = if settings.last_packs.iter().any(|p| p.exists()) {
            settings.last_packs.clone()
        } else {
            paths.shipped_packs.clone()
        };
        for path in wanted.iter().filter(|p| p.exists()) {
            match files::load_regular_pack(path) {
                Ok(pack) => packs.push(PackDoc::opened(pack, path.clone())),
                Err(e) => {
                    notes.push(format!("pack not opened: {e}"));
                    errors.push(AppError::Startup(e.to_string()));
                }
            }
        }
        if packs.is_empty() {
            packs.push(PackDoc::placeholder(settings.game));
        }
        // Each game starts on the first level of its packs, edited in place.
        let first_level = |game: Game| {
            packs.iter().find_map(|d| {
                let i = d.pack.levels.iter().position(|l| l.game == game)?;
                let mut editor = Editor::from_level(&d.pack.levels[i]).ok()?;
                editor.source = d.level_ref(i);
                Some(editor)
            })
        };
        let mut parked: BTreeMap<Game, Desk> = studio_core::game::games()
            .iter()
            .map(|g| {
                let desk = first_level(g.id()).map_or_else(|| Desk::blank(g.id()), Desk::new);
                (g.id(), desk)
            })
            .collect();
        let recovery_offer = paths.recovery_file.as_deref().and_then(|path| {
            let read = read_startup_file(path, "recovery file", Recovery::from_text);
            notes.extend(read.notes);
            read.value
        });
        let game = if parked.contains_key(&settings.game) {
            settings.game
        } else {
            registry::first().id()
        };
        let desk = parked.remove(&game).unwrap_or_else(|| Desk::blank(game));
        let canvas = CanvasView::new(settings.zoom);
        let generators = GeneratorPanel::new(&paths.models_dir, mode);
        let mut app = Self {
            paths,
            game,
            desk,
            parked,
            analysis: LiveAnalysis::new(mode),
            packs,
            active_pack: 0,
            canvas,
            conditions: ConditionsPanel::default(),
            gauge: GaugePanel::default(),
            graph: GraphPanel::default(),
            strip: PackStrip::default(),
            generators,
            playtest: PlaytestWindow::default(),
            interpolation: InterpolationWindow::new(mode),
            tools: studio_core::game::registry::entries::<studio_ui::Tool>()
                .iter()
                .map(|tool| (tool.make)(mode))
                .collect(),
            profile: ProfileWindow::new(mode),
            models_window: ModelsWindow::new(mode),
            unattached: Vec::new(),
            interpolation_sources: (None, Vec::new()),
            scrolled_home: Default::default(),
            tool_sources: BTreeMap::new(),
            shown_state: None,
            errors,
            status: String::new(),
            guard: None,
            recovery_offer,
            dialogs: FileDialogs::new(mode == JobMode::Threads),
            pack_figures: Worker::new("pack figures", mode),
            files: FileWork::new(mode),
            work_generation: 0,
            autosaved_generation: 0,
            last_autosave: Instant::now(),
            close_confirmed: false,
            frame_ms: 0.0,
            device_name: studio_ml::device_name(),
            device_options: device::device_options(),
            pending: Vec::new(),
            removals: BTreeMap::new(),
            startup_notes: Vec::new(),
            measured_through: None,
            last_folder: None,
            help_open: false,
            settings,
        };
        // The level models of earlier runs join their games' generators before the session
        // (whose requests may name them) is restored; one that no longer loads is said.
        for path in app.settings.level_models.clone() {
            if let Err(e) = studio_ml::level_vae::register(&path) {
                notes.push(format!("level model {}: {e}", path.display()));
            }
        }
        if let Some(path) = app.paths.session_file.clone() {
            let read = read_startup_file(&path, "session file", session::Session::from_text);
            notes.extend(read.notes);
            if let Some(session) = read.value {
                app.restore(session);
            }
        }
        app.activate_pack_for(game);
        app.status = status_line(&notes);
        app.startup_notes = notes;
        app
    }

    /// Models trained or opened in the Level models window: read again on next use, and
    /// remembered in the settings so the next start lists them too.
    pub(super) fn note_changed_models(&mut self) {
        for path in self.models_window.take_changed() {
            self.generators.models.forget(&path);
            let path = std::fs::canonicalize(&path).unwrap_or(path);
            if !self.settings.level_models.contains(&path) {
                self.settings.level_models.push(path);
            }
        }
    }

    /// What was wrong with the files read at start, one line each (empty after a clean
    /// start).
    pub fn startup_notes(&self) -> &[String] {
        &self.startup_notes
    }

    pub(super) fn activate_pack_for(&mut self, game: Game) {
        if self
            .packs
            .get(self.active_pack)
            .map(|p| p.main_game() == game && !p.pack.levels.is_empty())
            .unwrap_or(false)
        {
            return;
        }
        match self
            .packs
            .iter()
            .position(|p| p.main_game() == game && !p.pack.levels.is_empty())
        {
            Some(i) => self.active_pack = i,
            None => {
                // No pack of this game is open: an empty one of its own (a pack started with
                // New pack, else a placeholder with no tab) rather than the other game's.
                let empty_of_game = |p: &PackDoc| {
                    p.path.is_none() && p.pack.levels.is_empty() && p.main_game() == game
                };
                let found = (self
                    .packs
                    .iter()
                    .position(|p| empty_of_game(p) && !p.is_placeholder()))
                .or_else(|| self.packs.iter().position(empty_of_game));
                match found {
                    Some(i) => self.active_pack = i,
                    None => {
                        self.packs.push(PackDoc::placeholder(game));
                        self.active_pack = self.packs.len() - 1;
                    }
                }
            }
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let typing = ctx.egui_wants_keyboard_input();
        let mut cmds = Vec::new();
        ctx.input_mut(|i| {
            let shortcut = |m: Modifiers, k: Key| KeyboardShortcut::new(m, k);
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z))
                || i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Y))
            {
                cmds.push(AppCommand::Edit(EditCommand::Redo));
            }
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::Z)) {
                cmds.push(AppCommand::Edit(EditCommand::Undo));
            }
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::O)) {
                cmds.push(AppCommand::OpenDialog);
            }
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND | Modifiers::SHIFT, Key::S)) {
                cmds.push(AppCommand::SaveAsDialog);
            }
            if i.consume_shortcut(&shortcut(Modifiers::COMMAND, Key::S)) {
                cmds.push(AppCommand::Save);
            }
        });
        if ctx.input(|i| i.key_pressed(Key::F1)) {
            self.help_open = !self.help_open;
        }
        // A playtest in progress owns the keys it uses (R restarts it; it must not also pick
        // the Rectangle tool behind it).
        let playing = self.playtest.open && self.playtest.play.is_some();
        if !typing && !playing {
            for tool in Tool::ALL {
                if ctx.input(|i| i.key_pressed(tool_key(tool)) && i.modifiers.is_none()) {
                    self.settings.tools.tool = tool;
                }
            }
            if self.settings.tools.selection.is_some() {
                if ctx.input(|i| i.key_pressed(Key::G) && i.modifiers.is_none()) {
                    self.pending.push(AppCommand::RegenerateSelection);
                }
                if ctx.input(|i| i.key_pressed(Key::Escape)) {
                    self.settings.tools.selection = None;
                }
            }
        }
        self.pending.extend(cmds);
    }

    /// One frame of the whole window inside `ui` (eframe's root, or a test harness).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let started = Instant::now();
        let ctx = ui.ctx().clone();
        self.poll_workers(&ctx);
        for file in ctx.input(|i| i.raw.dropped_files.clone()) {
            self.pending
                .push(AppCommand::Open(file.path().to_path_buf()));
        }
        self.shortcuts(&ctx);
        if ctx.input(|i| i.viewport().close_requested()) {
            if !self.close_confirmed && (self.has_unsaved() || self.has_canvas_work()) {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                self.guard = Some(Guarded::Quit);
            } else {
                // The window goes: a running generation stops now, so the last frame and the
                // session save do not share the cores with it.
                self.generators.cancel();
            }
        }

        let mut commands = std::mem::take(&mut self.pending);
        self.menu_bar(ui, &mut commands);
        self.status_bar(ui);
        self.panels(ui, &mut commands);
        self.modals(&ctx, &mut commands);
        for command in commands {
            self.apply(command, &ctx);
        }
        self.after_commands(&ctx);
        self.frame_ms = 0.9 * self.frame_ms + 0.1 * started.elapsed().as_secs_f32() * 1e3;
    }

    fn poll_workers(&mut self, ctx: &egui::Context) {
        self.poll_files(ctx);
        let (revision, board) = (self.editor().revision(), self.editor().board());
        let board = board.clone();
        self.analysis.set_stroke_open(self.editor().stroke_open());
        self.analysis.board_changed(revision, &board);
        let (_, wait) = self.analysis.tick(ctx);
        if let Some(wait) = wait {
            ctx.request_repaint_after(wait);
        }
        if let Some((_, result)) = self.pack_figures.poll() {
            match result {
                Ok(found) => {
                    for doc in &mut self.packs {
                        for (key, m) in &found {
                            doc.record_measured(key.clone(), m.clone());
                        }
                    }
                }
                Err(e) => self.errors.push(AppError::Measure(e.to_string())),
            }
        }
        if !self.pack_figures.busy() {
            // The scan of the pack for unmeasured levels runs only when the pack, its levels
            // or its figures changed since it was last found complete (not every frame).
            let state = self
                .packs
                .get(self.active_pack)
                .map(|d| (d.uid, self.work_generation, d.measured.len()));
            if let Some(doc) = self
                .packs
                .get(self.active_pack)
                .filter(|_| state != self.measured_through)
            {
                // A batch at a time, the cards on screen first: a 20,000-level pack fills in
                // as it goes, and the status bar counts what is left.
                let visible: Vec<usize> = self.strip.card_rects.iter().map(|c| c.0).collect();
                let (todo, left) = doc.unmeasured_batch(&visible, MEASURE_BATCH);
                self.strip.measuring = (left > 0).then_some((left, doc.pack.levels.len()));
                if left == 0 {
                    self.measured_through = state;
                }
                if !todo.is_empty() {
                    self.pack_figures.set_repaint(ctx);
                    let key = todo.len() as u64 ^ (self.active_pack as u64) << 32 ^ left as u64;
                    self.pack_figures
                        .start(key, move |cancel, _| Ok(pack_doc::measure(&todo, cancel)));
                }
            }
        }
        self.generators.poll(self.game, ctx);
        self.interpolation.poll();
        for tool in &mut self.tools {
            tool.poll(ctx);
        }
        self.profile.poll();
        let mut offered = Vec::new();
        self.models_window.poll(&mut offered);
        self.pending.extend(offered);
        self.note_changed_models();
        if self.generators.busy()
            || self.models_window.training()
            || self.models_window.regenerating()
            || self.interpolation.busy()
            || self.tools.iter().any(|t| t.busy())
            || self.profile.busy()
        {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        if let Some(command) = self.dialogs.poll() {
            self.pending.push(command);
        }
    }

    fn after_commands(&mut self, ctx: &egui::Context) {
        let (revision, board) = (self.editor().revision(), self.editor().board().clone());
        self.analysis.set_stroke_open(self.editor().stroke_open());
        self.analysis.board_changed(revision, &board);
        if self.analysis.busy() {
            ctx.request_repaint_after(Duration::from_millis(30));
        }
        self.sync_pack_level();
        self.maybe_autosave(ctx);
    }
}

impl eframe::App for StudioApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.settings.game = self.game;
        self.settings.zoom = self.canvas.zoom;
        self.settings.last_packs = self.packs.iter().filter_map(|p| p.path.clone()).collect();
        eframe::set_value(storage, eframe::APP_KEY, &self.settings);
        self.save_session();
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.close_recovery();
    }

    fn auto_save_interval(&self) -> Duration {
        Duration::from_secs(10)
    }
}
