//! The window's layout: menu bar, status bar, left sidebar, right panel (gauge and graph),
//! bottom pack strip, the canvas in the centre, and the modal questions.

use crate::analysis::gauge::GaugePanel;
use crate::editor::EditCommand;
use crate::generation::candidates::CandidateDrag;
use crate::studio::dialogs::Purpose;
use crate::studio::errors::AppError;
use crate::studio::panel::{AppCommand, ExportFormat, PackCommand, PanelCtx, ToolPanel};
use crate::studio::recovery::Recovery;
use crate::studio::{GuardAnswer, Guarded, StudioApp};
use egui::{Panel, RichText};
use studio_core::level::Game;

impl StudioApp {
    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui, commands: &mut Vec<AppCommand>) {
        Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| file_menu(ui, commands));
                ui.menu_button("Edit", |ui| self.edit_menu(ui, commands));
                ui.menu_button("View", |ui| self.view_menu(ui));
                ui.menu_button("Help", |ui| {
                    if ui.button("Keyboard shortcuts   F1").clicked() {
                        self.help_open = true;
                    }
                });
                ui.separator();
                for g in studio_core::game::games() {
                    let game = g.id();
                    if ui.selectable_label(self.game == game, g.name()).clicked()
                        && self.game != game
                    {
                        commands.push(AppCommand::SwitchGame(game));
                    }
                }
                ui.separator();
                self.window_switches(ui, commands);
            });
        });
    }

    /// Edit: undo and redo (named after the step), adding the canvas to the pack.
    fn edit_menu(&self, ui: &mut egui::Ui, commands: &mut Vec<AppCommand>) {
        let h = self.editor().history();
        let undo = format!("Undo {}   Ctrl+Z", h.undo_label().unwrap_or(""));
        if ui
            .add_enabled(h.undo_len() > 0, egui::Button::new(undo))
            .clicked()
        {
            commands.push(AppCommand::Edit(EditCommand::Undo));
        }
        let redo = format!(
            "Redo {}   Ctrl+Shift+Z / Ctrl+Y",
            h.redo_label().unwrap_or("")
        );
        if ui
            .add_enabled(h.redo_len() > 0, egui::Button::new(redo))
            .clicked()
        {
            commands.push(AppCommand::Edit(EditCommand::Redo));
        }
        ui.separator();
        if ui.button("Add level to pack").clicked() {
            commands.push(AppCommand::Pack(PackCommand::AddCurrent));
        }
    }

    /// View: the panels shown, the game's overlay, the frame time, the device, the zoom.
    fn view_menu(&mut self, ui: &mut egui::Ui) {
        for name in self.panel_names() {
            let mut open = self.settings.panel_open(name);
            if ui.checkbox(&mut open, name).changed() {
                self.settings.set_panel_open(name, open);
            }
        }
        ui.separator();
        if let Ok(game) = self.game.game() {
            if let Some(name) = game.overlay_name() {
                let mut on = self.settings.tools.overlay_on(self.game);
                if ui
                    .checkbox(&mut on, format!("{name} overlay"))
                    .on_hover_text(game.overlay_help())
                    .changed()
                {
                    self.settings.tools.set_overlay(self.game, on);
                }
            }
        }
        ui.checkbox(&mut self.settings.show_frame_time, "Frame time");
        self.device_menu(ui);
        if ui.button("Reset canvas zoom").clicked() {
            self.canvas.zoom = 1.0;
            self.canvas.pan = egui::Vec2::ZERO;
        }
    }

    /// The menu bar's right part: Playtest, and a switch per window (interpolation, the
    /// game's tool windows, level models, agent profile).
    fn window_switches(&self, ui: &mut egui::Ui, commands: &mut Vec<AppCommand>) {
        if ui
            .button("Playtest")
            .on_hover_text("Play the level on the canvas")
            .clicked()
        {
            commands.push(AppCommand::Playtest);
        }
        if ui
            .selectable_label(self.interpolation.open, "Interpolation")
            .on_hover_text("Walk a generator's latent space between two levels")
            .clicked()
        {
            commands.push(AppCommand::ToggleInterpolation);
        }
        for (i, tool) in self.tools.iter().enumerate() {
            if tool.game() == self.game
                && ui
                    .selectable_label(tool.is_open(), tool.title())
                    .on_hover_text(tool.help())
                    .clicked()
            {
                commands.push(AppCommand::ToggleTool(i));
            }
        }
        if ui
            .selectable_label(self.models_window.open, "Level models")
            .on_hover_text(
                "Train a level VAE on this pack, open a model file, regenerate the \
                 selected cells",
            )
            .clicked()
        {
            commands.push(AppCommand::ToggleModels);
        }
        if self.game.game().is_ok_and(|g| g.has_agents())
            && ui
                .selectable_label(self.profile.open, "Agent profile")
                .on_hover_text(
                    "How each agent of the ladder fares on a level, a pack or the \
                     candidates (and against a second set)",
                )
                .clicked()
        {
            commands.push(AppCommand::ToggleProfile);
        }
    }

    pub(super) fn status_bar(&mut self, ui: &mut egui::Ui) {
        Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| {
                let e = self.editor();
                let place = match self.linked() {
                    Some((p, i)) => format!(" (level {} of {})", i + 1, self.packs[p].title()),
                    None if e.revision() != self.desk.clean_revision => " (not in a pack)".into(),
                    None => String::new(),
                };
                ui.label(format!("{} · {}{place}", e.board().rules().name(), e.name))
                    .on_hover_text(
                        "Edits to a pack level change it in its pack (undo with Ctrl+Z); \
                         “+ Add level” adds a copy",
                    );
                ui.separator();
                if self.files_busy() {
                    ui.add(egui::Spinner::new().size(12.0));
                }
                // The frame time keeps its place at the right; a long status is cut short
                // before it (whole on hover) instead of running under it.
                let frame = self
                    .settings
                    .show_frame_time
                    .then(|| format!("UI {:.2} ms/frame", self.frame_ms));
                let reserve = if frame.is_some() { 130.0 } else { 0.0 } + 80.0;
                let room = (ui.available_width() - reserve).max(60.0);
                ui.scope(|ui| {
                    ui.set_max_width(room);
                    ui.add(egui::Label::new(&self.status).truncate())
                        .on_hover_text(&self.status);
                });
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if let Some(frame) = frame {
                        ui.weak(frame);
                    }
                    ui.weak(&self.device_name)
                        .on_hover_text("The device models train and decode on (View > Device)");
                });
            });
        });
    }

    pub(super) fn panels(&mut self, ui: &mut egui::Ui, commands: &mut Vec<AppCommand>) {
        let game = self.game;
        let shown = self.shown_state.as_ref().map(|s| s.node);
        self.strip.selected = self
            .linked()
            .filter(|&(p, _)| p == self.active_pack)
            .map(|(_, i)| i);
        let editor = &self.desk.editor;
        let level_open = self.settings.panel_open(self.conditions.name());
        let strip_open = self.settings.panel_open(self.strip.name());
        let generators_open = self.settings.panel_open(self.generators.name());
        let gauge_open = self.settings.panel_open(self.gauge.name());
        let graph_open =
            self.settings.panel_open(self.graph.name()) && editor.board().rules().has_state_graph();
        let mut ctx = PanelCtx {
            game,
            editor,
            tools: &mut self.settings.tools,
            analysis: &self.analysis,
            packs: &self.packs,
            active_pack: self.active_pack,
            shown_state: shown,
            unattached: &self.unattached,
            commands,
        };
        if strip_open {
            let r = Panel::bottom("pack-strip")
                .resizable(true)
                .default_size(self.settings.pack_strip_height)
                .min_size(120.0)
                .show(ui, |ui| {
                    self.strip.ui(ui, &mut ctx);
                });
            self.settings.pack_strip_height = r.response.rect.height();
            candidate_drop(ui, r.response.rect, ctx.commands);
        }
        if level_open {
            let area = scroll_home(&mut self.scrolled_home, "sidebar", game);
            Panel::left("sidebar")
                .resizable(true)
                .default_size(290.0)
                .show(ui, |ui| {
                    area.show(ui, |ui| self.conditions.ui(ui, &mut ctx));
                });
        }
        if generators_open {
            let generators = &mut self.generators;
            Panel::left("generate")
                .resizable(true)
                .default_size(272.0)
                .min_size(200.0)
                .show(ui, |ui| {
                    studio_ui::widgets::fixed_width(ui, |ui| {
                        generators.ui(ui, &mut ctx);
                        ui.separator();
                        generators.candidates_ui(ui, game, ctx.commands);
                    });
                });
        }
        if gauge_open || graph_open {
            let gauge_area = scroll_home(&mut self.scrolled_home, "gauge", game);
            let r = Panel::right("analysis")
                .resizable(true)
                .default_size(self.settings.right_panel_width.max(380.0))
                .min_size(340.0)
                .show(ui, |ui| {
                    if gauge_open {
                        scrolled_gauge(ui, &mut self.gauge, gauge_area, graph_open, &mut ctx);
                    }
                    if graph_open {
                        if gauge_open {
                            ui.separator();
                        }
                        self.graph.ui(ui, &mut ctx);
                    }
                });
            self.settings.right_panel_width = r.response.rect.width();
        }
        let errors = &mut self.errors;
        let tools = ctx.tools;
        let revision = editor.revision();
        let analysis = self
            .analysis
            .last
            .as_ref()
            .filter(|o| o.revision == revision)
            .and_then(|o| o.result.as_ref().ok());
        let canvas = &mut self.canvas;
        let state = self.shown_state.as_ref();
        let out = egui::CentralPanel::default().show(ui, |ui| {
            error_banners(ui, errors);
            canvas.ui(ui, editor.board(), tools, state, analysis)
        });
        let out = out.inner;
        commands.extend(out.commands.into_iter().map(AppCommand::Edit));
        if out.leave_state {
            commands.push(AppCommand::LeaveGraphState);
        }
    }

    pub(super) fn modals(&mut self, ctx: &egui::Context, commands: &mut Vec<AppCommand>) {
        super::help::show(ctx, &mut self.help_open);
        self.playtest.ui(ctx, commands);
        if self.models_window.open {
            self.models_window_ui(ctx, commands);
        }
        if self.interpolation.open {
            self.interpolation_ui(ctx, commands);
        }
        for i in 0..self.tools.len() {
            if self.tools[i].is_open() {
                self.tool_window_ui(i, ctx, commands);
            }
        }
        if self.profile.open {
            let sources = self.profile_sources();
            self.profile.ui(ctx, self.game, &sources);
        }
        if let Some(command) = self.dialogs.ui(ctx) {
            commands.push(command);
        }
        if let Some(offer) = &self.recovery_offer {
            commands.extend(recovery_question(ctx, offer));
        }
        if let Some(guarded) = self.guard.clone() {
            self.unsaved_question(guarded, ctx, commands);
        }
    }

    /// The Level models window, on the active pack, of whose levels of the game shown
    /// "Train" learns.
    fn models_window_ui(&mut self, ctx: &egui::Context, commands: &mut Vec<AppCommand>) {
        let game = self.game;
        let pack = self.packs.get(self.active_pack).map(|doc| {
            // A shipped pack's folder is the install's: its models go to the user's packs.
            let out = crate::generation::models_window::model_path_for(
                doc.path.as_deref().filter(|p| !self.paths.is_shipped(p)),
                &doc.title(),
                &self.paths.user_packs,
                self.models_window.arch,
            );
            (doc.title(), doc.pack.levels.as_slice(), out)
        });
        let selection = self.settings.tools.selection;
        self.models_window.ui(ctx, game, pack, selection, commands);
    }

    /// The Interpolation window, with the levels to choose from, rebuilt only when packs,
    /// candidates or the editor change.
    fn interpolation_ui(&mut self, ctx: &egui::Context, commands: &mut Vec<AppCommand>) {
        // The walked model's game: another model lists another game's levels.
        let key = self.sources_key(self.interpolation.model.0);
        if self.interpolation_sources.0 != Some(key) {
            self.interpolation_sources = (Some(key), self.interpolation_sources());
        }
        let sources = &self.interpolation_sources.1;
        self.interpolation
            .ui(ctx, sources, &self.generators.models, commands);
    }

    /// Open tool window `i` (a game's window part), and what it asks of the studio.
    fn tool_window_ui(&mut self, i: usize, ctx: &egui::Context, commands: &mut Vec<AppCommand>) {
        let game = self.tools[i].game();
        // Rebuilt only when what they come from changed: a 20,000-level pack would
        // otherwise be copied every frame while the tool is open.
        let key = self.sources_key(game);
        if self.tool_sources.get(&game).is_none_or(|(k, _)| *k != key) {
            let sources = self.level_sources(game);
            self.tool_sources.insert(game, (key, sources));
        }
        let level = (self.game == game).then(|| self.editor().to_level());
        let sources = self
            .tool_sources
            .get(&game)
            .map_or(&[][..], |(_, s)| s.as_slice());
        let studio = studio_ui::ToolContext {
            level: level.as_ref(),
            sources,
            models: &self.generators.models,
        };
        let mut actions = Vec::new();
        self.tools[i].ui(ctx, &studio, &mut actions);
        let from = self.tools[i].title();
        commands.extend(actions.into_iter().map(|action| match action {
            studio_ui::ToolAction::OfferCandidates(list) => {
                AppCommand::OfferCandidates { from, list }
            }
            studio_ui::ToolAction::LoadLevel(level) => AppCommand::LoadLevel(level),
        }));
    }

    /// "Unsaved changes": asked before an action that would lose unsaved packs (or, on
    /// quitting, canvas work in no pack); the answer is carried out at once.
    fn unsaved_question(
        &mut self,
        guarded: Guarded,
        ctx: &egui::Context,
        commands: &mut Vec<AppCommand>,
    ) {
        // Only the packs this action would lose are named (and saved by Save).
        let dirty: Vec<String> = self
            .guarded_packs(&guarded)
            .into_iter()
            .map(|i| self.packs[i].title())
            .collect();
        // Quitting also asks about canvas work that is in no pack: every canvas that
        // really holds some, by game and name.
        let loose = if guarded == Guarded::Quit {
            self.loose_canvases()
        } else {
            Vec::new()
        };
        let canvas_work = (!loose.is_empty()).then(|| {
            loose
                .iter()
                .map(|(game, name)| format!("“{name}” ({game})"))
                .collect::<Vec<_>>()
                .join(", ")
        });
        // "Add it to the pack" is offered only for the level on the canvas, when it is
        // one of them.
        let canvas_loose = loose.iter().any(|(g, _)| *g == self.desk_game_name());
        let question = UnsavedQuestion {
            guarded: &guarded,
            dirty,
            canvas_work,
            add_to: self
                .packs
                .get(self.active_pack)
                .map(|p| p.title())
                .filter(|_| canvas_loose),
        };
        let (decision, add_first) = question.show(ctx);
        if add_first {
            self.guard = None;
            commands.push(AppCommand::Pack(PackCommand::AddCurrent));
            self.status = "Added the canvas level to the pack; save the pack, then quit".into();
        }
        if let Some(d) = decision {
            self.resolve_guard(guarded, d, ctx, commands);
        }
    }

    /// The unsaved packs a guarded action would lose: every one on quit, the pack closed,
    /// or the open copy a file opened again replaces.
    pub(super) fn guarded_packs(&self, guarded: &Guarded) -> Vec<usize> {
        self.packs
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                p.dirty
                    && match guarded {
                        Guarded::Quit => true,
                        Guarded::ClosePack(c) => c == i,
                        Guarded::Open(path) => p.path.as_deref() == Some(path.as_path()),
                    }
            })
            .map(|(i, _)| i)
            .collect()
    }

    pub(super) fn resolve_guard(
        &mut self,
        guarded: Guarded,
        decision: GuardAnswer,
        ctx: &egui::Context,
        commands: &mut Vec<AppCommand>,
    ) {
        self.guard = None;
        match decision {
            GuardAnswer::Cancel => return,
            GuardAnswer::Save if guarded == Guarded::Quit => {
                // Packs with a file (or shipped: a copy) are saved now; a pack never saved
                // asks for its file, as Ctrl+S does, and the quit goes on once it is saved.
                let (untitled, filed): (Vec<usize>, Vec<usize>) = self
                    .guarded_packs(&guarded)
                    .into_iter()
                    .partition(|&i| self.packs[i].path.is_none());
                if !self.save_dirty(&filed) {
                    return;
                }
                if !untitled.is_empty() {
                    self.go_on_quitting(ctx);
                    return;
                }
            }
            GuardAnswer::Save if !self.save_dirty(&self.guarded_packs(&guarded)) => return,
            GuardAnswer::Save => {}
            GuardAnswer::Discard => {
                if guarded == Guarded::Quit {
                    // Canvas work in no pack is dropped too: neither the recovery file nor
                    // the session brings it back.
                    self.discard_canvas_work();
                }
            }
        }
        match guarded {
            Guarded::Open(path) => {
                self.open_file(&path);
            }
            Guarded::ClosePack(i) => self.close_pack(i),
            Guarded::Quit => {
                self.close_confirmed = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
        let _ = commands;
    }

    /// The quit dialog's Save, step by step: asks for the file of the next unsaved pack that
    /// has none (the quit waits; cancelling the dialog cancels it), and quits once none is
    /// left.
    pub(super) fn go_on_quitting(&mut self, ctx: &egui::Context) {
        let next = self.packs.iter().position(|p| p.dirty && p.path.is_none());
        match next {
            Some(i) => {
                self.active_pack = i;
                self.strip.forget();
                self.status = format!(
                    "Choose where to save “{}”; the studio quits once it is saved (Cancel \
                     stays)",
                    self.packs[i].title()
                );
                self.request_dialog(Purpose::SaveAsThenQuit, ctx);
            }
            None => {
                self.close_confirmed = true;
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// True once the studio has been told to close (the quit dialog answered, or nothing to
    /// save).
    pub fn quitting(&self) -> bool {
        self.close_confirmed
    }

    pub(super) fn request_dialog(&mut self, purpose: Purpose, ctx: &egui::Context) {
        // A new file goes into the designer's packs folder, never into the shipped
        // `levels/`; it is named after the pack.
        let own_file = |doc: &crate::pack_doc::PackDoc| {
            let shipped = doc.path.as_ref().is_some_and(|p| self.paths.is_shipped(p));
            match &doc.path {
                Some(p) if !shipped => p.clone(),
                _ => self.paths.own_copy(&doc.pack.name),
            }
        };
        // Picking a file that exists starts in a folder, never at a made-up file name: the
        // last folder opened from, else the active pack's, else the designer's packs (W10).
        let folder = || {
            self.last_folder
                .clone()
                .or_else(|| {
                    let doc = self.packs.get(self.active_pack)?;
                    let path = doc.path.as_ref().filter(|p| !self.paths.is_shipped(p))?;
                    Some(studio_core::io::folder_of(path))
                })
                .unwrap_or_else(|| self.paths.user_packs.clone())
        };
        let start = match purpose {
            Purpose::Open | Purpose::Import(_) | Purpose::OpenModel => Some(folder()),
            _ => self.packs.get(self.active_pack).map(own_file).map(|p| {
                let stem = p
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string();
                match purpose {
                    Purpose::ExportJson => p.with_extension("json"),
                    Purpose::ExportPng => p.with_extension("png"),
                    // A folder export proposes a folder's name, never a `.ron` one.
                    Purpose::ExportTiled => p.with_file_name(format!("{stem}-tiled")),
                    Purpose::ExportRegistered(i) => {
                        let format = studio_core::formats::exporters()
                            .get(i)
                            .map_or("levels", |e| e.format);
                        p.with_file_name(format!("{stem}-{format}"))
                    }
                    _ => p,
                }
            }),
        };
        self.dialogs.request(purpose, start, ctx);
    }
}

/// "Recover unsaved work?" (or, after a clean quit that kept work, "Bring back the kept
/// work?"): answers Recover or Discard once clicked.
fn recovery_question(ctx: &egui::Context, offer: &Recovery) -> Option<AppCommand> {
    let mut answer = None;
    egui::Modal::new(egui::Id::unique("recovery")).show(ctx, |ui| {
        let packs = offer.packs.iter().filter(|p| p.dirty).count();
        // Canvases linked to a pack level come back with their pack; the count names
        // the ones in no pack.
        let loose = (0..offer.levels.len())
            .filter(|&i| offer.links.get(i).is_none_or(Option::is_none))
            .count();
        if offer.clean_exit {
            // Kept on purpose at the last quit: not a crash.
            ui.heading("Bring back the kept work?");
            ui.label(format!(
                "At the last quit ({}) the canvas held work in no pack, kept for this \
                 start: {loose} canvas level(s) in no pack and {packs} unsaved \
                 pack(s).",
                offer.age()
            ));
        } else {
            ui.heading("Recover unsaved work?");
            ui.label(format!(
                "The studio did not close cleanly. An autosave from {} holds {} level(s) on the canvas and {packs} unsaved pack(s).",
                offer.age(),
                offer.levels.len()
            ));
        }
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                answer = Some(AppCommand::Recover);
            }
            if ui.button("Discard").clicked() {
                answer = Some(AppCommand::DiscardRecovery);
            }
        });
    });
    answer
}

/// What the "Unsaved changes" question names: the action, the unsaved packs, the canvas
/// work in no pack, and the pack the canvas level can be added to first.
struct UnsavedQuestion<'a> {
    /// The action waiting for the answer.
    guarded: &'a Guarded,
    /// The titles of the packs it would lose.
    dirty: Vec<String>,
    /// The canvases in no pack, by name and game, when quitting.
    canvas_work: Option<String>,
    /// The active pack's title, when the canvas level is work in no pack.
    add_to: Option<String>,
}

impl UnsavedQuestion<'_> {
    /// Shows the question; answers the decision clicked, and whether "Add it to …" was.
    fn show(&self, ctx: &egui::Context) -> (Option<GuardAnswer>, bool) {
        let mut decision = None;
        let mut add_first = false;
        egui::Modal::new(egui::Id::unique("unsaved")).show(ctx, |ui| {
            ui.heading("Unsaved changes");
            if !self.dirty.is_empty() {
                ui.label(format!(
                    "These packs have unsaved changes: {}",
                    self.dirty.join(", ")
                ));
            }
            if let Some(names) = &self.canvas_work {
                ui.label(format!(
                    "Work in no pack: {names}. Kept, it is offered back at the next start."
                ));
            }
            let what = match self.guarded {
                Guarded::Open(p) => format!("Opening {} replaces the open copy.", p.display()),
                Guarded::ClosePack(_) => "Closing the pack drops them.".to_string(),
                Guarded::Quit => "Discard drops them.".to_string(),
            };
            ui.label(what);
            ui.horizontal(|ui| {
                let save = match (self.dirty.is_empty(), self.canvas_work.is_some()) {
                    (true, true) => "Keep for next start",
                    (false, true) => "Save packs, keep the level",
                    _ => "Save",
                };
                if ui.button(save).clicked() {
                    decision = Some(GuardAnswer::Save);
                }
                if let Some(pack) = &self.add_to {
                    if ui
                        .button(format!("Add it to {pack}"))
                        .on_hover_text("Add the canvas level to the active pack and stay")
                        .clicked()
                    {
                        add_first = true;
                    }
                }
                if ui.button("Discard").clicked() {
                    decision = Some(GuardAnswer::Discard);
                }
                if ui.button("Cancel").clicked() {
                    decision = Some(GuardAnswer::Cancel);
                }
            });
        });
        (decision, add_first)
    }
}

/// Each side panel starts the run at its top, then keeps its offset per game.
fn scroll_home(
    seen: &mut std::collections::HashSet<(&'static str, Game)>,
    panel: &'static str,
    game: Game,
) -> egui::ScrollArea {
    let area = egui::ScrollArea::vertical().id_salt((panel, game));
    if seen.insert((panel, game)) {
        area.vertical_scroll_offset(0.0)
    } else {
        area
    }
}

/// A candidate dropped anywhere on the pack strip (at `strip_rect`) joins the active pack;
/// the strip is outlined while one is carried over it.
fn candidate_drop(ui: &egui::Ui, strip_rect: egui::Rect, commands: &mut Vec<AppCommand>) {
    let (hovering, released) = ui.input(|i| {
        let over = i
            .pointer
            .hover_pos()
            .is_some_and(|p| strip_rect.contains(p));
        (over, over && i.pointer.any_released())
    });
    if hovering && egui::DragAndDrop::has_payload_of_type::<CandidateDrag>(ui.ctx()) {
        ui.ctx()
            .layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                egui::Id::unique("candidate-drop"),
            ))
            .rect_stroke(
                strip_rect.shrink(2.0),
                4.0,
                egui::Stroke::new(2.0, studio_ui::palette::ACCENT),
                egui::StrokeKind::Inside,
            );
        if released {
            if let Some(drag) = egui::DragAndDrop::take_payload::<CandidateDrag>(ui.ctx()) {
                commands.push(AppCommand::AddLevel(drag.0.clone()));
            }
        }
    }
}

/// The gauge in its scroll area: it scrolls when it is taller than its share (a game's
/// agent tables), so the Validate row and the state graph below it stay reachable.
fn scrolled_gauge(
    ui: &mut egui::Ui,
    gauge: &mut GaugePanel,
    area: egui::ScrollArea,
    graph_open: bool,
    ctx: &mut PanelCtx<'_>,
) {
    let room = if graph_open {
        ui.available_height() * 0.62
    } else {
        ui.available_height()
    };
    // A solid bar (not egui's floating one, drawn only on hover): a gauge cut at the state
    // graph shows that it scrolls (W20).
    ui.scope(|ui| {
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
        area.max_height(room)
            .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::VisibleWhenNeeded)
            .show(ui, |ui| gauge.ui(ui, ctx));
    });
}

/// The errors over the canvas, newest last: at most three banners, each wrapped to the
/// canvas width with its dismiss button first, so a long message never pushes it off screen.
fn error_banners(ui: &mut egui::Ui, errors: &mut Vec<AppError>) {
    let mut dismiss = None;
    let hidden = errors.len().saturating_sub(3);
    if hidden > 0
        && ui
            .small_button(format!("Dismiss {hidden} older errors"))
            .clicked()
    {
        errors.drain(..hidden);
    }
    let shown = errors.len().saturating_sub(3);
    for (i, e) in errors.iter().enumerate().skip(shown) {
        egui::Frame::new()
            .fill(egui::Color32::from_rgb(90, 30, 30))
            .inner_margin(6.0)
            .corner_radius(4.0)
            .show(ui, |ui| {
                ui.set_max_width(ui.available_width());
                ui.horizontal_top(|ui| {
                    if ui.small_button("x").on_hover_text("Dismiss").clicked() {
                        dismiss = Some(i);
                    }
                    ui.add(
                        egui::Label::new(
                            RichText::new(format!("Error: {e}")).color(egui::Color32::WHITE),
                        )
                        .wrap(),
                    );
                });
            });
    }
    if let Some(i) = dismiss {
        errors.remove(i);
    }
}

/// File: open, import, save, export (the studio's formats and the games'), new pack, quit.
fn file_menu(ui: &mut egui::Ui, commands: &mut Vec<AppCommand>) {
    if ui.button("Open…   Ctrl+O").clicked() {
        commands.push(AppCommand::OpenDialog);
    }
    // Formats that bring a whole game (a GVGAI description) have an item of their own.
    for (i, importer) in studio_core::formats::importers().iter().enumerate() {
        if let Some(label) = importer.menu {
            if ui.button(label).on_hover_text(importer.help).clicked() {
                commands.push(AppCommand::ImportDialog(i));
            }
        }
    }
    if ui.button("Save pack   Ctrl+S").clicked() {
        commands.push(AppCommand::Save);
    }
    if ui.button("Save pack as…   Ctrl+Shift+S").clicked() {
        commands.push(AppCommand::SaveAsDialog);
    }
    ui.separator();
    if ui.button("Export JSON…").clicked() {
        commands.push(AppCommand::ExportDialog(ExportFormat::Json));
    }
    if ui
        .button("Export PNG sheet…")
        .on_hover_text("Every level with its number, name, figure and verdict")
        .clicked()
    {
        commands.push(AppCommand::ExportDialog(ExportFormat::Png));
    }
    if ui
        .button("Export Tiled maps…")
        .on_hover_text(
            "A folder with one Tiled map (.tmj) per level, the tilesets and a .world file \
             that shows the whole pack",
        )
        .clicked()
    {
        commands.push(AppCommand::ExportDialog(ExportFormat::Tiled));
    }
    // The formats the games add (the command line's `import` / `export`).
    let exporters: Vec<_> = studio_core::formats::exporters()
        .iter()
        .map(|e| (e.label, e.help, e.format))
        .collect();
    if let Some(i) = format_menu(ui, "Export as level text", &exporters) {
        commands.push(AppCommand::ExportDialog(ExportFormat::Registered(i)));
    }
    let all_importers = studio_core::formats::importers();
    let importers: Vec<_> = all_importers
        .iter()
        .map(|i| (i.label, i.help, i.format))
        .collect();
    if let Some(i) = format_menu(ui, "Import", &importers) {
        commands.push(AppCommand::ImportDialog(i));
    }
    ui.separator();
    if ui.button("New pack").clicked() {
        commands.push(AppCommand::Pack(PackCommand::New));
    }
    if ui.button("Quit").clicked() {
        commands.push(AppCommand::Quit);
    }
}

/// A File submenu listing registered formats by name (`(label, help, command-line format)`),
/// none when there is none; answers which one was clicked.
fn format_menu(
    ui: &mut egui::Ui,
    title: &str,
    formats: &[(&'static str, &'static str, &'static str)],
) -> Option<usize> {
    if formats.is_empty() {
        return None;
    }
    let mut clicked = None;
    ui.menu_button(title, |ui| {
        for (i, (label, help, format)) in formats.iter().enumerate() {
            if ui
                .button(format!("{label}…"))
                .on_hover_text(format!("{help} (the command line's --format {format})"))
                .clicked()
            {
                clicked = Some(i);
            }
        }
    });
    clicked
}
