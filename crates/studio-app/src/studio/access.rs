//! What the studio lets panels, tests and benches read (and, for tests, adjust): the level
//! under edit, the live analysis, packs, panels and windows.

use super::{Desk, Guarded, StudioApp};
use crate::analysis::graph_view::GraphPanel;
use crate::analysis::LiveAnalysis;
use crate::editor::canvas::{CanvasView, StateOverlay};
use crate::editor::Editor;
use crate::generation::generate_panel::GeneratorPanel;
use crate::generation::interpolation::InterpolationWindow;
use crate::pack::pack_strip::PackStrip;
use crate::pack_doc::{LevelRef, PackDoc};
use crate::playtest::PlaytestWindow;
use crate::studio::errors::AppError;
use crate::studio::panel::ToolPanel;
use crate::AppCommand;
use std::time::Duration;
use studio_core::level::{Game, Level};

impl StudioApp {
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
    pub fn errors(&self) -> &[AppError] {
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

    /// The editor's tool (Brush, Rectangle, …).
    pub fn current_tool(&self) -> studio_core::document::settings::Tool {
        self.settings.tools.tool
    }

    /// The tool window of type `T` (a game's own), if one is
    /// registered.
    pub fn tool<T: studio_ui::ToolWindow>(&self) -> Option<&T> {
        self.tools.iter().find_map(|t| {
            let t: &dyn std::any::Any = t.as_ref();
            t.downcast_ref::<T>()
        })
    }

    /// The same, to change it (tests choose segments or wait).
    pub fn tool_mut<T: studio_ui::ToolWindow>(&mut self) -> Option<&mut T> {
        self.tools.iter_mut().find_map(|t| {
            let t: &mut dyn std::any::Any = t.as_mut();
            t.downcast_mut::<T>()
        })
    }

    /// The Agent profile window.
    pub fn profile(&self) -> &crate::analysis::profile::ProfileWindow {
        &self.profile
    }

    /// The Agent profile window, to choose sets or wait in tests.
    pub fn profile_mut(&mut self) -> &mut crate::analysis::profile::ProfileWindow {
        &mut self.profile
    }

    /// The Level models window (train, open a model, regenerate a selection).
    pub fn models_window(&self) -> &crate::generation::models_window::ModelsWindow {
        &self.models_window
    }

    /// The Level models window, to set its fields or wait in tests.
    pub fn models_window_mut(&mut self) -> &mut crate::generation::models_window::ModelsWindow {
        &mut self.models_window
    }

    /// The level VAE files the settings remember (listed among their games' generators at
    /// start).
    pub fn level_models(&self) -> &[std::path::PathBuf] {
        &self.settings.level_models
    }

    /// The canvas selection, `[x, y, width, height]` (the Select tool's).
    pub fn selection(&self) -> Option<[usize; 4]> {
        self.settings.tools.selection
    }

    /// The latent interpolation window, to choose levels or wait in tests.
    pub fn interpolation_mut(&mut self) -> &mut InterpolationWindow {
        &mut self.interpolation
    }

    /// Levels the interpolation window can start from, all of the walked model's game: the
    /// editor level, the active pack's levels and the candidates.
    pub fn interpolation_sources(&self) -> Vec<(String, Level)> {
        self.level_sources(self.interpolation.model.0)
    }

    /// The levels the interpolation window lists now (as last drawn).
    pub fn shown_interpolation_sources(&self) -> &[(String, Level)] {
        &self.interpolation_sources.1
    }

    /// The levels the open tool windows of `game` were last given to choose from.
    pub fn shown_tool_sources(
        &self,
        game: studio_core::game::GameId,
    ) -> Option<&[(String, Level)]> {
        self.tool_sources.get(&game).map(|(_, s)| s.as_slice())
    }

    /// What `game`'s list of levels ([`Self::level_sources`]) depends on now.
    pub(super) fn sources_key(&self, game: studio_core::game::GameId) -> super::SourcesKey {
        (
            self.work_generation,
            self.active_pack,
            self.generators.revision(),
            self.editors().map(|e| e.revision()).sum::<u64>(),
            self.analysis.last.as_ref().map(|o| o.revision),
            game,
            self.game,
        )
    }

    /// `game`'s levels in the studio: the editor level, the active pack's levels and the
    /// candidates.
    pub fn level_sources(&self, game: studio_core::game::GameId) -> Vec<(String, Level)> {
        let mut out = Vec::new();
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
        // Numbered among the game's own candidates, as its candidates grid shows them.
        let own = self
            .generators
            .candidates
            .iter()
            .filter(|c| c.level.game == game);
        for (i, c) in own.enumerate() {
            out.push((
                format!("Candidate {}: {}", i + 1, c.level.name),
                c.level.clone(),
            ));
        }
        out
    }

    /// The sets of the current game's levels the Agent profile window can play: the editor's
    /// level, each open pack, the candidates.
    pub fn profile_sources(&self) -> Vec<(String, Vec<Level>)> {
        let game = self.game;
        let mut out = vec![("Editor level".to_string(), vec![self.level_for_pack()])];
        for doc in &self.packs {
            let levels: Vec<Level> = doc
                .pack
                .levels
                .iter()
                .filter(|l| l.game == game)
                .cloned()
                .collect();
            if !levels.is_empty() {
                out.push((format!("Pack: {}", doc.title()), levels));
            }
        }
        let candidates: Vec<Level> = self
            .generators
            .candidates
            .iter()
            .filter(|c| c.level.game == game)
            .map(|c| c.level.clone())
            .collect();
        if !candidates.is_empty() {
            out.push(("Candidates".to_string(), candidates));
        }
        out
    }

    /// The window's panels by name, in the order the View menu lists them (the names key the
    /// saved open/closed set).
    pub fn panel_names(&self) -> [&'static str; 5] {
        let panels: [&dyn ToolPanel; 5] = [
            &self.conditions,
            &self.generators,
            &self.gauge,
            &self.graph,
            &self.strip,
        ];
        panels.map(|p| p.name())
    }

    /// The pack strip (tests read where cards are drawn).
    pub fn pack_strip(&self) -> &PackStrip {
        &self.strip
    }

    /// The pack strip, to start renaming a card in tests.
    pub fn pack_strip_mut(&mut self) -> &mut PackStrip {
        &mut self.strip
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

    /// True when a level on a canvas (of any game) has edits that are in no pack (a pack
    /// level edited in place is in its pack).
    pub fn has_canvas_work(&self) -> bool {
        !self.loose_canvases().is_empty()
    }

    /// The canvases that hold work in no pack: (game name, level name), the one shown first.
    pub fn loose_canvases(&self) -> Vec<(&'static str, String)> {
        std::iter::once((self.game, &self.desk))
            .chain(self.parked.iter().map(|(g, d)| (*g, d)))
            .filter(|(_, d)| self.is_loose(d))
            .map(|(g, d)| {
                let game = g.game().map_or("?", |g| g.name());
                (game, d.editor.name.clone())
            })
            .collect()
    }

    /// Whether a desk holds edits in no pack.
    pub(super) fn is_loose(&self, d: &Desk) -> bool {
        self.find_level(d.editor.source).is_none()
            && d.editor.revision() != d.clean_revision
            && d.editor.history().undo_len() > 0
    }

    /// The name of the game on the canvas.
    pub(super) fn desk_game_name(&self) -> &'static str {
        self.game.game().map_or("?", |g| g.name())
    }

    /// Drops the canvases' work in no pack (the designer chose Discard on quitting): each
    /// such canvas starts blank, so neither the session nor the recovery file keeps it.
    pub(super) fn discard_canvas_work(&mut self) {
        if self.is_loose(&self.desk) {
            self.desk = Desk::blank(self.game);
        }
        let parked: Vec<Game> = self
            .parked
            .iter()
            .filter(|(_, d)| self.is_loose(d))
            .map(|(g, _)| *g)
            .collect();
        for g in parked {
            self.parked.remove(&g);
        }
        self.mark_canvas_clean();
    }

    /// Forgets that the canvases hold work in no pack (the designer discarded it).
    pub(super) fn mark_canvas_clean(&mut self) {
        for desk in std::iter::once(&mut self.desk).chain(self.parked.values_mut()) {
            desk.clean_revision = desk.editor.revision();
        }
    }

    /// Where a pack level is now: (pack, level) indices (`None`: no link, or the level was
    /// removed or its pack closed).
    pub(super) fn find_level(&self, source: Option<LevelRef>) -> Option<(usize, usize)> {
        let source = source?;
        self.packs
            .iter()
            .enumerate()
            .find_map(|(p, d)| d.index_of(source).map(|i| (p, i)))
    }

    /// The pack level the canvas edits in place: (pack, level) indices.
    pub fn linked(&self) -> Option<(usize, usize)> {
        self.find_level(self.desk.editor.source)
    }

    /// What a clean exit does with the recovery file: canvas work that is in no pack is kept
    /// there (it is offered back at the next start, so closing never loses it); otherwise the
    /// file, which is only for crashes, goes.
    pub fn close_recovery(&mut self) {
        let Some(path) = self.paths.recovery_file.clone() else {
            return;
        };
        if self.has_canvas_work() {
            self.write_recovery(&path, true);
        } else {
            super::recovery::Recovery::remove(&path);
        }
    }
}
