//! The studio window: owns the saved settings and the runtime state (editors, workers, open
//! packs, panels), lays out the panels each frame, and hands every command to
//! [`StudioApp::apply`] (in `apply.rs`).

use super::analysis::LiveAnalysis;
use super::board::Board;
use super::canvas::{CanvasView, StateOverlay};
use super::dialogs::FileDialogs;
use super::editor::{EditCommand, Editor};
use super::gauge::GaugePanel;
use super::generate_panel::GeneratorPanel;
use super::graph_view::GraphPanel;
use super::interpolation::InterpolationWindow;
use super::jobs::{JobMode, Worker};
use super::pack_doc::{self, MeasureKey, Measured, PackDoc};
use super::pack_strip::PackStrip;
use super::panel::AppCommand;
use super::playtest::PlaytestWindow;
use super::recovery::Recovery;
use super::settings::{Settings, StudioPaths, Tool};
use super::sidebar::ConditionsPanel;
use super::RepaintOnReport;
use crate::files;
use crate::game::registry;
use crate::level::{Game, Level, Playtest};
use egui::{Key, KeyboardShortcut, Modifiers};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

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
    /// The interpolation window's choice of levels and what they were built from.
    pub(super) interpolation_sources: (Option<SourcesKey>, Vec<(String, Level)>),
    /// Playtests of levels not in a pack yet: they join the level when it is added.
    pub(super) unattached: Vec<(Game, Vec<String>, Playtest)>,
    pub(super) shown_state: Option<StateOverlay>,
    pub(super) errors: Vec<String>,
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
    pub(super) pending: Vec<AppCommand>,
}

/// What the interpolation window's list of levels depends on: work generation, active pack,
/// candidates, match-3 editor revision and the revision the gauge answered for.
pub(super) type SourcesKey = (u64, usize, (u64, usize), u64, Option<u64>);

/// One game's level under edit, and its revision when it was last loaded or added to a
/// pack (a newer revision means work not in a pack).
#[derive(Clone, Debug)]
pub(super) struct Desk {
    pub(super) editor: Editor,
    pub(super) clean_revision: u64,
}

impl Desk {
    fn new(editor: Editor) -> Self {
        Self {
            clean_revision: editor.revision(),
            editor,
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
    pub fn new(settings: Settings, paths: StudioPaths, mode: JobMode) -> Self {
        let mut packs = Vec::new();
        let mut errors = Vec::new();
        let wanted: Vec<_> = if settings.last_packs.iter().any(|p| p.exists()) {
            settings.last_packs.clone()
        } else {
            paths.shipped_packs.clone()
        };
        for path in wanted.iter().filter(|p| p.exists()) {
            match files::load_pack(path) {
                Ok(pack) => packs.push(PackDoc::opened(pack, path.clone())),
                Err(e) => errors.push(e.to_string()),
            }
        }
        if packs.is_empty() {
            packs.push(PackDoc::untitled("untitled"));
        }
        let first_level = |game: Game| {
            packs
                .iter()
                .flat_map(|d| d.pack.levels.iter())
                .find(|l| l.game == game)
                .and_then(|l| Editor::from_level(l).ok())
        };
        let mut parked: BTreeMap<Game, Desk> = crate::game::games()
            .iter()
            .map(|g| {
                let desk = first_level(g.id()).map_or_else(|| Desk::blank(g.id()), Desk::new);
                (g.id(), desk)
            })
            .collect();
        let recovery_offer = paths.recovery_file.as_deref().and_then(Recovery::read);
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
            gauge: GaugePanel,
            graph: GraphPanel::default(),
            strip: PackStrip::default(),
            generators,
            playtest: PlaytestWindow::default(),
            interpolation: InterpolationWindow::new(mode),
            unattached: Vec::new(),
            interpolation_sources: (None, Vec::new()),
            shown_state: None,
            errors,
            status: String::new(),
            guard: None,
            recovery_offer,
            dialogs: FileDialogs::new(mode == JobMode::Threads),
            pack_figures: Worker::new("pack figures", mode),
            work_generation: 0,
            autosaved_generation: 0,
            last_autosave: Instant::now(),
            close_confirmed: false,
            frame_ms: 0.0,
            pending: Vec::new(),
            settings,
        };
        app.activate_pack_for(game);
        app
    }

    /// The studio as eframe creates it: settings from eframe's storage, standard paths.
    pub fn from_creation(cc: &eframe::CreationContext<'_>) -> Self {
        let settings: Settings = cc
            .storage
            .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
            .unwrap_or_default();
        let root = std::env::current_dir().unwrap_or_default();
        Self::new(settings, StudioPaths::standard(&root), JobMode::Threads)
    }

    /// The game on the canvas.
    pub fn game(&self) -> Game {
        self.game
    }

    /// The level under edit.
    pub fn editor(&self) -> &Editor {
        &self.desk.editor
    }

    pub(super) fn editor_mut(&mut self) -> &mut Editor {
        &mut self.desk.editor
    }

    /// Puts `game` on the canvas, with the level last edited in it.
    pub(super) fn show_game(&mut self, game: Game) {
        if game == self.game {
            return;
        }
        let desk = self
            .parked
            .remove(&game)
            .unwrap_or_else(|| Desk::blank(game));
        let old = std::mem::replace(&mut self.desk, desk);
        self.parked.insert(self.game, old);
        self.game = game;
    }

    /// The desk (level under edit) of `game`, shown or parked.
    pub(super) fn desk_mut(&mut self, game: Game) -> &mut Desk {
        if game == self.game {
            &mut self.desk
        } else {
            self.parked.entry(game).or_insert_with(|| Desk::blank(game))
        }
    }

    /// The levels under edit in every game, the one on the canvas first.
    pub(super) fn editors(&self) -> impl Iterator<Item = &Editor> {
        std::iter::once(&self.desk.editor).chain(self.parked.values().map(|d| &d.editor))
    }

    /// The live analysis (gauge and graph).
    pub fn analysis(&self) -> &LiveAnalysis {
        &self.analysis
    }

    /// The live analysis, to adjust its debounce in tests.
    pub fn analysis_mut(&mut self) -> &mut LiveAnalysis {
        &mut self.analysis
    }

    /// The open packs.
    pub fn packs(&self) -> &[PackDoc] {
        &self.packs
    }

    /// Index of the active pack.
    pub fn active_pack(&self) -> usize {
        self.active_pack
    }

    /// Errors shown in the window, oldest first.
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// The status line.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// The graph state shown on the canvas, if any.
    pub fn shown_state(&self) -> Option<&StateOverlay> {
        self.shown_state.as_ref()
    }

    /// The canvas (tests read where cells are drawn).
    pub fn canvas(&self) -> &CanvasView {
        &self.canvas
    }

    /// The generator sidebar and its candidates.
    pub fn generators(&self) -> &GeneratorPanel {
        &self.generators
    }

    /// The generator sidebar, to set conditions or wait for a job in tests.
    pub fn generators_mut(&mut self) -> &mut GeneratorPanel {
        &mut self.generators
    }

    /// The playtest window.
    pub fn playtest(&self) -> &PlaytestWindow {
        &self.playtest
    }

    /// The playtest window, to turn animations off in tests.
    pub fn playtest_mut(&mut self) -> &mut PlaytestWindow {
        &mut self.playtest
    }

    /// The latent interpolation window.
    pub fn interpolation(&self) -> &InterpolationWindow {
        &self.interpolation
    }

    /// The latent interpolation window, to choose levels or wait in tests.
    pub fn interpolation_mut(&mut self) -> &mut InterpolationWindow {
        &mut self.interpolation
    }

    /// Levels the interpolation window can start from, all of the walked model's game: the
    /// editor level, the active pack's levels and the candidates.
    pub fn interpolation_sources(&self) -> Vec<(String, Level)> {
        let mut out = Vec::new();
        let game = self.interpolation.model.0;
        // The editor level carries the gauge's figures when they are fresh: the encoder is
        // conditioned on the validated moves.
        let editor_level = if self.game == game {
            Some(self.level_for_pack())
        } else {
            self.parked.get(&game).map(|d| d.editor.to_level())
        };
        if let Some(level) = editor_level {
            out.push((format!("Editor: {}", level.name), level));
        }
        if let Some(doc) = self.packs.get(self.active_pack) {
            for (i, l) in doc.pack.levels.iter().enumerate() {
                if l.game == game {
                    out.push((format!("Pack {}: {}", i + 1, l.name), l.clone()));
                }
            }
        }
        for (i, c) in self.generators.candidates.iter().enumerate() {
            if c.level.game == game {
                out.push((
                    format!("Candidate {}: {}", i + 1, c.level.name),
                    c.level.clone(),
                ));
            }
        }
        out
    }

    /// The graph viewer (tests read where nodes are drawn).
    pub fn graph_panel(&self) -> &GraphPanel {
        &self.graph
    }

    /// The unsaved-changes question waiting for an answer, if any.
    pub fn guard(&self) -> Option<&Guarded> {
        self.guard.as_ref()
    }

    /// Milliseconds the last frame's UI code took.
    pub fn frame_ms(&self) -> f32 {
        self.frame_ms
    }

    /// Queues a command as if a widget had emitted it (tests, drag-and-drop, the menu).
    pub fn push(&mut self, command: AppCommand) {
        self.pending.push(command);
    }

    /// Tests and benches: run the pending analysis now and wait for it.
    pub fn finish_analysis(&mut self, ctx: &egui::Context) -> bool {
        let (revision, board) = (self.editor().revision(), self.editor().board().clone());
        self.analysis.board_changed(revision, &board);
        self.analysis.finish_now(ctx, Duration::from_secs(20))
    }

    /// True when some pack or canvas level has changes not in a file.
    pub fn has_unsaved(&self) -> bool {
        self.packs.iter().any(|p| p.dirty)
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
                // No pack of this game is open: start an empty one rather than show the other game's.
                let untitled = format!("untitled {game}");
                let empty_untitled = |p: &PackDoc| {
                    p.path.is_none()
                        && p.pack.levels.is_empty()
                        && (p.pack.name == "untitled" || p.pack.name == untitled)
                };
                match self.packs.iter().position(empty_untitled) {
                    Some(i) => self.active_pack = i,
                    None => {
                        self.packs.push(PackDoc::untitled(&untitled));
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
        if !typing {
            for tool in Tool::ALL {
                if ctx.input(|i| i.key_pressed(tool.key()) && i.modifiers.is_none()) {
                    self.settings.tools.tool = tool;
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
        if ctx.input(|i| i.viewport().close_requested())
            && !self.close_confirmed
            && self.has_unsaved()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.guard = Some(Guarded::Quit);
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
        let (revision, board) = (self.editor().revision(), self.editor().board());
        let board = board.clone();
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
                            doc.measured.insert(key.clone(), m.clone());
                        }
                    }
                }
                Err(e) => self.errors.push(format!("measuring the pack: {e}")),
            }
        }
        if !self.pack_figures.busy() {
            if let Some(doc) = self.packs.get(self.active_pack) {
                let todo = doc.unmeasured();
                if !todo.is_empty() {
                    self.pack_figures.set_repaint(ctx);
                    let key = todo.len() as u64 ^ (self.active_pack as u64) << 32;
                    self.pack_figures
                        .start(key, move |cancel, _| Ok(pack_doc::measure(&todo, cancel)));
                }
            }
        }
        self.generators.poll(self.game, ctx);
        self.interpolation.poll();
        if self.generators.busy() || self.interpolation.busy() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        if let Some(command) = self.dialogs.poll() {
            self.pending.push(command);
        }
    }

    fn after_commands(&mut self, ctx: &egui::Context) {
        let (revision, board) = (self.editor().revision(), self.editor().board().clone());
        self.analysis.board_changed(revision, &board);
        if self.analysis.busy() {
            ctx.request_repaint_after(Duration::from_millis(30));
        }
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
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // A clean exit (after the unsaved-changes guard): the recovery file is only for crashes.
        if let Some(path) = &self.paths.recovery_file {
            Recovery::remove(path);
        }
    }

    fn auto_save_interval(&self) -> Duration {
        Duration::from_secs(10)
    }
}
