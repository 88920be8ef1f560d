//! The one place where the studio's state changes: [`StudioApp::apply`] takes each command
//! (board edits go on to [`Editor::apply`](crate::editor::Editor::apply), which keeps
//! undo/redo), plus the file operations and the autosave behind them.

use crate::analysis::gauge::GAMES;
use crate::board::Board;
use crate::editor::canvas::StateOverlay;
use crate::editor::EditCommand;
use crate::pack_doc::{LevelRef, PackDoc};
use crate::studio::dialogs::Purpose;
use crate::studio::errors::AppError;
use crate::studio::panel::{AppCommand, ExportFormat, PackCommand};
use crate::studio::recovery::Recovery;
use crate::studio::{Guarded, PackStep, StudioApp};
use studio_core::document::editor::Identity;
use studio_core::level::{Game, Level, Playtest};

impl StudioApp {
    /// Applies one command.
    pub fn apply(&mut self, command: AppCommand, ctx: &egui::Context) {
        match command {
            AppCommand::Edit(edit) => self.apply_edit(edit),
            AppCommand::SwitchGame(game) => self.apply_switch_game(game),
            AppCommand::NewLevel { width, height } => self.new_level(width, height),
            AppCommand::ShowGraphState(node) => self.show_graph_state(node),
            AppCommand::LeaveGraphState => self.shown_state = None,
            AppCommand::Pack(p) => self.apply_pack(p),
            AppCommand::Open(path) => self.open_guarded(path),
            AppCommand::OpenDialog => self.request_dialog(Purpose::Open, ctx),
            AppCommand::Save => self.save_or_ask(ctx),
            AppCommand::SaveAs(path) => self.save_active(&path),
            AppCommand::SaveAsThenQuit(path) => self.save_as_then_quit(&path, ctx),
            AppCommand::SaveAsDialog => self.request_dialog(Purpose::SaveAs, ctx),
            AppCommand::ExportJson(path) => self.export(&path, ExportFormat::Json),
            AppCommand::ExportPng(path) => self.export(&path, ExportFormat::Png),
            AppCommand::ExportTiled(path) => self.export(&path, ExportFormat::Tiled),
            AppCommand::ExportDialog(format) => self.request_dialog(export_purpose(format), ctx),
            AppCommand::ExportAs(format, path) => self.export(&path, format),
            AppCommand::ImportDialog(i) => self.request_dialog(Purpose::Import(i), ctx),
            AppCommand::Import(i, path) => self.import(i, &path),
            AppCommand::Recover => self.recover(),
            AppCommand::DiscardRecovery => self.discard_recovery(),
            AppCommand::Generate => self.generators.generate(self.game, ctx),
            AppCommand::CancelGeneration => self.generators.cancel(),
            AppCommand::StopGeneration => self.generators.stop(),
            AppCommand::MoreLikeThis(i) => self.generators.more_like(i, ctx),
            AppCommand::LoadLevel(level) => {
                self.load_level(&level, None);
                self.status = format!("Opened “{}” in the editor", level.name);
            }
            AppCommand::AddLevel(level) => self.add_level(level, None),
            AppCommand::InsertLevel { level, at } => self.add_level(level, Some(at)),
            AppCommand::Playtest => self.start_playtest(ctx),
            AppCommand::RecordPlaytest {
                game,
                cells,
                attempt,
            } => self.record_playtest(game, cells, attempt),
            AppCommand::ToggleInterpolation => self.toggle_interpolation(),
            AppCommand::ToggleTool(i) => {
                if let Some(tool) = self.tools.get_mut(i) {
                    let open = tool.is_open();
                    tool.set_open(!open);
                }
            }
            AppCommand::OfferCandidates { from, list } => {
                if let Some(game) = list.first().map(|c| c.level.game) {
                    self.status = format!("{} levels sent to the candidates", list.len());
                    self.generators.offer(game, from, list);
                }
            }
            AppCommand::ToggleProfile => self.profile.open = !self.profile.open,
            AppCommand::ToggleModels => self.models_window.open = !self.models_window.open,
            AppCommand::OpenModelDialog => {
                let start = self.paths.user_packs.join("model.safetensors");
                self.dialogs
                    .request(super::dialogs::Purpose::OpenModel, Some(start), ctx);
            }
            AppCommand::OpenModel(path) => self.open_model(&path),
            AppCommand::RegenerateSelection => self.regenerate_selection(ctx),
            AppCommand::Validate { seed, games } => self.validate(seed, games),
            AppCommand::Quit => self.quit(ctx),
        }
    }

    /// Replaces the board with a blank one of this size (an undoable step).
    fn new_level(&mut self, width: usize, height: usize) {
        let board = Board::blank(self.editor().board().rules(), width, height);
        self.shown_state = None;
        self.editor_mut().apply(EditCommand::Replace {
            board,
            label: "New level".into(),
            identity: Some(Identity::loose(format!("new {width}x{height}"))),
        });
    }

    /// Opens a pack file; asks first when that replaces an open copy with unsaved changes.
    fn open_guarded(&mut self, path: std::path::PathBuf) {
        let replaces_dirty = self
            .packs
            .iter()
            .any(|p| p.dirty && p.path.as_deref() == Some(path.as_path()));
        if replaces_dirty {
            self.guard = Some(Guarded::Open(path));
        } else {
            self.open_file(&path);
        }
    }

    /// Saves the active pack to its file, or asks where to save it: it has none yet, or it
    /// is a shipped pack, which is never saved over.
    fn save_or_ask(&mut self, ctx: &egui::Context) {
        match self
            .packs
            .get(self.active_pack)
            .and_then(|p| p.path.clone())
        {
            // A shipped pack is never saved over: the designer saves a copy.
            Some(path) if self.paths.is_shipped(&path) => {
                self.status = format!(
                    "{} is a shipped pack and is not saved over; choose where to save \
                     your copy",
                    path.display()
                );
                self.request_dialog(Purpose::SaveAs, ctx);
            }
            Some(path) => self.save_active(&path),
            None => self.request_dialog(Purpose::SaveAs, ctx),
        }
    }

    /// The quit's Save of a pack that had no file: saves it there, then quits on (or asks
    /// for the next such pack's file).
    fn save_as_then_quit(&mut self, path: &std::path::Path, ctx: &egui::Context) {
        self.save_active(path);
        let saved = self.packs.get(self.active_pack).is_some_and(|p| !p.dirty);
        if saved {
            self.go_on_quitting(ctx);
        }
    }

    /// Drops the recovery offer and its file.
    fn discard_recovery(&mut self) {
        self.recovery_offer = None;
        if let Some(p) = &self.paths.recovery_file {
            Recovery::remove(p);
        }
    }

    /// Starts a playtest of the canvas; one still running is ended first and its attempt kept.
    fn start_playtest(&mut self, ctx: &egui::Context) {
        if let Some(record) = self.playtest.abandon() {
            self.apply(record, ctx);
        }
        let board = self.editor().board().clone();
        if let Err(e) = self.playtest.start(&board) {
            self.errors.push(AppError::Playtest(e.to_string()));
        }
    }

    /// Opens or closes the Interpolation window.
    fn toggle_interpolation(&mut self) {
        self.interpolation.open = !self.interpolation.open;
        // It opens on the tab's game and its model, when the game has one (E14).
        let model = crate::generation::interpolation::latent_model_of(self.game);
        if let (true, Some(id)) = (self.interpolation.open, model) {
            if self.interpolation.model.0 != self.game {
                self.interpolation.model = (self.game, id);
                self.interpolation.a = None;
                self.interpolation.b = None;
                self.interpolation.strip = None;
            }
        }
    }

    /// Opens a level model file in the Level models window; the status says how it went.
    fn open_model(&mut self, path: &std::path::Path) {
        self.models_window.open_model(path);
        self.models_window.open = true;
        if let Some(e) = &self.models_window.error {
            self.status = e.clone();
        } else if let Some(m) = &self.models_window.message {
            self.status = m.clone();
        }
    }

    /// Regenerates the selected cells with a level model, or says how to select them.
    fn regenerate_selection(&mut self, ctx: &egui::Context) {
        match self.settings.tools.selection {
            Some(region) => {
                self.models_window.open = true;
                let level = self.editor().to_level();
                self.models_window.regenerate(level, region, ctx);
            }
            None => {
                self.status = "Select cells first: the Select tool (M), then drag on the \
                               canvas"
                    .into();
            }
        }
    }

    /// Validates again with this seed and number of bot games.
    fn validate(&mut self, seed: u64, games: u32) {
        let games = games.clamp(*GAMES.start(), *GAMES.end());
        self.gauge.set_validated(self.game, seed, games);
        self.analysis.options.seed = seed;
        self.analysis.options.games = Some(games);
        // Forgetting the last answer makes the next frame analyse the board again.
        self.analysis.reset();
        self.status = format!("Validating with seed {seed}, {games} games");
    }

    /// Closes the window, asking first when work would be lost.
    fn quit(&mut self, ctx: &egui::Context) {
        if self.has_unsaved() || self.has_canvas_work() {
            self.guard = Some(Guarded::Quit);
        } else {
            self.close_confirmed = true;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    /// Puts a level (a candidate, an in-between level) into the active pack at `at` (the
    /// end when `None`), under a name no level there has, with the playtests already made on
    /// it.
    fn add_level(&mut self, mut level: Level, at: Option<usize>) {
        if self.packs.is_empty() {
            self.packs.push(PackDoc::placeholder(self.game));
        }
        let active = self.active_pack.min(self.packs.len() - 1);
        self.attach_playtests(&mut level);
        let doc = &mut self.packs[active];
        level.name = doc.unique_name(&level.name);
        let name = level.name.clone();
        let at = at
            .unwrap_or(doc.pack.levels.len())
            .min(doc.pack.levels.len());
        doc.insert(at, level);
        self.strip.reveal = Some(at);
        self.status = format!("Added “{name}” to {} as level {}", doc.title(), at + 1);
        self.work_generation += 1;
    }

    fn attach_playtests(&mut self, level: &mut Level) {
        let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.unattached)
            .into_iter()
            .partition(|(g, c, _)| *g == level.game && *c == level.cells);
        level.playtests.extend(mine.into_iter().map(|(_, _, p)| p));
        self.unattached = rest;
    }

    /// Keeps an attempt with every level of the same cells in the open packs; when none is
    /// in a pack yet, it waits and joins the level when it is added.
    fn record_playtest(&mut self, game: Game, cells: Vec<String>, attempt: Playtest) {
        let mut kept = 0;
        for doc in &mut self.packs {
            let mut changed = false;
            for level in doc
                .pack
                .levels
                .iter_mut()
                .filter(|l| l.game == game && l.cells == cells)
            {
                level.playtests.push(attempt.clone());
                changed = true;
                kept += 1;
            }
            doc.dirty |= changed;
        }
        let verdict = if attempt.solved {
            "solved"
        } else {
            "not solved"
        };
        if kept > 0 {
            self.work_generation += 1;
            self.status = format!(
                "Playtest kept: {} moves, {:.0} s, {verdict}",
                attempt.moves, attempt.seconds
            );
        } else {
            self.unattached.push((game, cells, attempt));
            self.status = "Playtest kept; it joins the level when you add it to a pack".into();
        }
    }

    fn show_graph_state(&mut self, node: usize) {
        let Some(Ok(analysis)) = self.analysis.last.as_ref().map(|o| &o.result) else {
            return;
        };
        if let Some(picture) = analysis.graph.as_ref().and_then(|g| g.state(node)) {
            self.shown_state = Some(StateOverlay { node, picture });
        }
    }

    /// The level on the canvas as it goes into a pack, with the gauge's figures when they
    /// are for this very board.
    pub(super) fn level_for_pack(&self) -> Level {
        let editor = self.editor();
        let mut level = editor.to_level();
        if let Some(o) = &self.analysis.last {
            if o.revision == editor.revision() {
                if let Ok(a) = &o.result {
                    level.figures = a.figures.clone();
                }
            }
        }
        level
    }

    /// Applies an edit to the canvas; an undone or redone step that stands for a removal
    /// from a pack puts the level back or takes it out again.
    fn apply_edit(&mut self, edit: EditCommand) {
        if !matches!(edit, EditCommand::EndStroke) {
            self.shown_state = None;
        }
        if self.editor_mut().apply(edit) {
            self.work_generation += 1;
        }
        if let Some((token, redo)) = self.editor_mut().take_marker() {
            self.replay_removal(token, redo);
        }
    }

    /// Records a change to a pack as one step of the Edit history (in order with the
    /// painting); `identity` is the canvas's after the change, when it changes.
    fn record_pack_step(&mut self, label: String, step: PackStep, identity: Option<Identity>) {
        let token = self.removals.keys().next_back().map_or(1, |t| t + 1);
        self.removals.insert(token, step);
        self.editor_mut().apply(EditCommand::Mark {
            label,
            token,
            identity,
        });
    }

    /// Replays a pack step undone (`redo` false) or redone: puts a removed level back or
    /// takes it out again, takes an added level out or adds it again, puts levels back in
    /// their order before or after a move or sort.
    fn replay_removal(&mut self, token: u64, redo: bool) {
        let Some(step) = self.removals.get(&token).cloned() else {
            return;
        };
        let pack_uid = match &step {
            PackStep::Taken { pack, .. } | PackStep::Reordered { pack, .. } => *pack,
        };
        let Some(at) = self.packs.iter().position(|p| p.uid == pack_uid) else {
            self.status =
                "That change was to a pack that is no longer open; nothing to change".into();
            return;
        };
        let title = self.packs[at].title();
        match step {
            PackStep::Reordered { before, after, .. } => {
                self.packs[at].reorder(if redo { &after } else { &before });
                self.status = if redo {
                    format!("Put {title} in the new order again")
                } else {
                    format!("Put {title} back in its earlier order")
                };
            }
            // A removal redone and an add undone both take the level out.
            PackStep::Taken { level, added, .. } if redo != added => {
                if let Some(again) = self.packs[at].take_again(&level) {
                    self.status = if added {
                        format!(
                            "Took “{}” out of {title} (the add is undone)",
                            again.level.name
                        )
                    } else {
                        format!("Removed “{}” from {title} again", again.level.name)
                    };
                    self.removals.insert(
                        token,
                        PackStep::Taken {
                            pack: pack_uid,
                            level: again,
                            added,
                        },
                    );
                }
            }
            PackStep::Taken { level, added, .. } => {
                let name = self.packs[at].put_back(level);
                self.strip.reveal = self.packs[at]
                    .pack
                    .levels
                    .iter()
                    .position(|l| l.name == name);
                self.status = if added {
                    format!("Added “{name}” to {title} again")
                } else {
                    format!("Put “{name}” back into {title}")
                };
            }
        }
        // Undone back to what the file holds: no unsaved mark.
        self.packs[at].refresh_dirty();
        self.strip.forget();
        self.work_generation += 1;
    }

    fn apply_pack(&mut self, command: PackCommand) {
        if self.packs.is_empty() {
            self.packs.push(PackDoc::placeholder(self.game));
            self.active_pack = 0;
        }
        let active = self.active_pack.min(self.packs.len() - 1);
        match command {
            PackCommand::AddCurrent => self.add_current(active),
            PackCommand::Remove(i) => self.remove_level(active, i),
            PackCommand::UndoRemove => {
                // Only a removal: the last step may be an add or a move of the pack too.
                let history = self.editor().history();
                let removal = history.undo_marker().is_some()
                    && history
                        .undo_label()
                        .is_some_and(|l| l.starts_with("Remove "));
                if removal {
                    self.apply_edit(EditCommand::Undo);
                }
            }
            PackCommand::Rename(i, name) => self.rename_level(active, i, name),
            PackCommand::Move { from, to } => {
                let label = format!("Move level {}", from + 1);
                self.reorder_pack(active, label, |doc| doc.move_level(from, to));
                self.work_generation += 1;
                self.status = format!("Moved level {} to place {}", from + 1, to + 1);
            }
            PackCommand::SortByDifficulty => {
                self.reorder_pack(
                    active,
                    "Sort by difficulty".into(),
                    PackDoc::sort_by_difficulty,
                );
                self.strip.forget();
                self.work_generation += 1;
                self.status = format!(
                    "Sorted {} from easiest to hardest",
                    self.packs[active].title()
                );
            }
            PackCommand::Edit(i) => self.edit_pack_level(active, i),
            PackCommand::RenamePack(i, name) => {
                if let (Some(doc), false) = (self.packs.get_mut(i), name.is_empty()) {
                    doc.rename_pack(&name);
                    self.work_generation += 1;
                    self.status = format!("Renamed the pack to “{name}”");
                }
            }
            PackCommand::Activate(i) => {
                if i < self.packs.len() {
                    self.active_pack = i;
                    self.show_pack_game();
                    self.strip.forget();
                }
            }
            PackCommand::New => {
                self.packs.push(PackDoc::untitled_for(self.game));
                self.active_pack = self.packs.len() - 1;
            }
            PackCommand::Close => {
                if self.packs[active].dirty {
                    self.guard = Some(Guarded::ClosePack(active));
                } else {
                    self.close_pack(active);
                }
            }
        }
    }

    /// "+ Add level": the canvas joins pack `active` (or, when that pack holds another
    /// game's levels, a pack of the canvas's game), and the canvas then edits it in place.
    fn add_current(&mut self, mut active: usize) {
        // A level never goes into another game's pack: the canvas's game gets a pack of its
        // own (an open one, or a new untitled one), and the status says where it went.
        let mut moved_from = None;
        let other = &self.packs[active];
        if !other.pack.levels.is_empty() && other.main_game() != self.game {
            moved_from = Some(other.title());
            self.activate_pack_for(self.game);
            active = self.active_pack.min(self.packs.len() - 1);
        }
        // When the canvas already edited a pack level, the new one is a copy under a name
        // of its own.
        let mut level = self.level_for_pack();
        let copy = self.linked().is_some();
        level.name = self.packs[active].unique_name(&level.name);
        if copy {
            level.playtests.clear();
        } else {
            self.attach_playtests(&mut level);
        }
        let name = level.name.clone();
        self.packs[active].add(level);
        let last = self.packs[active].pack.levels.len() - 1;
        // One step of the Edit > Undo history, in order with the painting: undo takes
        // the level out again and leaves the canvas as it was (work in no pack).
        if let Some(handle) = self.packs[active].handle(last) {
            let step = PackStep::Taken {
                pack: self.packs[active].uid,
                level: handle,
                added: true,
            };
            let identity = Identity {
                name: name.clone(),
                source: self.packs[active].level_ref(last),
            };
            self.record_pack_step(format!("Add “{name}”"), step, Some(identity));
        }
        self.desk.clean_revision = self.desk.editor.revision();
        self.strip.reveal = Some(last);
        let what = if copy { "a copy" } else { "the canvas" };
        self.status = format!(
            "Added {what} as “{name}” to {}; edits on the canvas now change it",
            self.packs[active].title()
        );
        if let Some(other) = moved_from {
            self.status.push_str(&format!(
                " ({other} holds another game's levels, so it was left as it is)"
            ));
        }
        self.work_generation += 1;
    }

    /// Takes level `i` out of pack `active`, as one step of the Edit history.
    fn remove_level(&mut self, active: usize, i: usize) {
        if let Some(removed) = self.packs[active].take(i) {
            let name = removed.level.name.clone();
            // One step of the Edit > Undo history, in order with the painting.
            let step = PackStep::Taken {
                pack: self.packs[active].uid,
                level: removed,
                added: false,
            };
            self.record_pack_step(format!("Remove “{name}”"), step, None);
            self.strip.forget();
            self.work_generation += 1;
            self.status = format!(
                "Removed “{name}” from {} (Edit > Undo or Ctrl+Z puts it back)",
                self.packs[active].title()
            );
        }
    }

    /// Renames level `i` of pack `active`, unless another level there has the name.
    fn rename_level(&mut self, active: usize, i: usize, name: String) {
        let taken = self.packs[active]
            .pack
            .levels
            .iter()
            .enumerate()
            .any(|(j, l)| j != i && l.name == name);
        if taken {
            // Names stay unique in a pack, so `pack.ron#name` finds one level.
            self.status = format!(
                "Not renamed: a level called “{name}” is already in {}; pick another name",
                self.packs[active].title()
            );
        } else if !name.is_empty() {
            self.packs[active].rename(i, &name);
            if self.linked() == Some((active, i)) {
                self.desk.editor.name = name.clone();
            }
            self.work_generation += 1;
            self.status = format!("Renamed level {} to “{name}”", i + 1);
        }
    }

    /// Changes the order of pack `active` by `change`; a new order is one step of the Edit
    /// history, under `label`.
    fn reorder_pack(&mut self, active: usize, label: String, change: impl FnOnce(&mut PackDoc)) {
        let before = self.packs[active].order();
        change(&mut self.packs[active]);
        let after = self.packs[active].order();
        if before != after {
            let step = PackStep::Reordered {
                pack: self.packs[active].uid,
                before,
                after,
            };
            self.record_pack_step(label, step, None);
        }
    }

    /// Loads level `i` of pack `active` onto the canvas, which then edits it in place.
    fn edit_pack_level(&mut self, active: usize, i: usize) {
        let Some(level) = self.packs[active].pack.levels.get(i).cloned() else {
            return;
        };
        let source = self.packs[active].level_ref(i);
        self.load_level(&level, source);
        self.status = format!(
            "Editing level {} “{}” of {} in place",
            i + 1,
            level.name,
            self.packs[active].title()
        );
    }

    /// Puts `game` on the canvas, with the strip on its pack.
    pub(super) fn apply_switch_game(&mut self, game: Game) {
        self.show_game(game);
        // Each game's own bot seed and games: its last Validate, or its defaults.
        let (seed, games) = match self.gauge.validated(game) {
            Some((seed, games)) => (seed, Some(games)),
            None => (0, None),
        };
        self.analysis.options.seed = seed;
        self.analysis.options.games = games;
        self.strip.forget();
        self.status = format!("{} on the canvas", self.editor().board().rules().name());
        self.shown_state = None;
        self.analysis.reset();
        // The strip shows the pack the canvas's level belongs to (E15), else an open
        // pack of the game.
        let linked = self
            .editor()
            .source
            .and_then(|r| self.packs.iter().position(|p| p.uid == r.pack));
        match linked {
            Some(i) => self.active_pack = i,
            None => self.activate_pack_for(game),
        }
        // Another game's board has another shape: the canvas fits it again.
        self.canvas.zoom = 1.0;
        self.canvas.pan = egui::Vec2::ZERO;
    }

    /// `name`, else `name (2)`, `name (3)`, …: a pack name no open pack has.
    pub(super) fn unique_pack_name(&self, name: &str) -> String {
        let taken = |n: &str| self.packs.iter().any(|p| p.pack.name == n);
        if !taken(name) {
            return name.to_string();
        }
        (2..)
            .map(|k| format!("{name} ({k})"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| name.to_string())
    }

    /// Loads a level onto the canvas (an undoable replace), switching game if needed;
    /// `source` is the pack level it is, when the canvas edits that level in place.
    pub(super) fn load_level(&mut self, level: &Level, source: Option<LevelRef>) {
        let board = match Board::from_level(level) {
            Ok(b) => b,
            Err(e) => {
                self.errors.push(AppError::Level {
                    name: level.name.clone(),
                    reason: e,
                });
                return;
            }
        };
        if level.game != self.game {
            self.show_game(level.game);
            self.analysis.reset();
        }
        self.shown_state = None;
        let desk = &mut self.desk;
        desk.editor.apply(EditCommand::Replace {
            board,
            label: format!("Load {}", level.name),
            identity: Some(Identity {
                name: level.name.clone(),
                source,
            }),
        });
        desk.editor.tags = level.tags.clone();
        desk.clean_revision = desk.editor.revision();
        desk.synced = source.map(|s| (s, desk.editor.revision(), false));
    }

    /// Writes the canvas into the pack level it edits in place: new cells (with the gauge's
    /// figures once they are for these cells). Looking at a level changes nothing.
    pub(super) fn sync_pack_level(&mut self) {
        let Some(source) = self.desk.editor.source else {
            return;
        };
        let revision = self.desk.editor.revision();
        let fresh = self
            .analysis
            .last
            .as_ref()
            .is_some_and(|o| o.revision == revision && o.result.is_ok());
        if self.desk.synced == Some((source, revision, fresh)) {
            return;
        }
        self.desk.synced = Some((source, revision, fresh));
        let level = self.level_for_pack();
        let found = self
            .packs
            .iter_mut()
            .find_map(|d| d.index_of(source).map(|i| (d, i)));
        if let Some((doc, i)) = found {
            let new_cells = doc.pack.levels[i].cells != level.cells;
            let fill_figures = self.desk.edited == Some(source);
            if doc.update_level(i, &level, fill_figures) {
                self.work_generation += 1;
            }
            if new_cells {
                self.desk.edited = Some(source);
            }
        }
    }
}

/// The file dialog an export to `format` asks.
fn export_purpose(format: ExportFormat) -> Purpose {
    match format {
        ExportFormat::Json => Purpose::ExportJson,
        ExportFormat::Png => Purpose::ExportPng,
        ExportFormat::Tiled => Purpose::ExportTiled,
        ExportFormat::Registered(i) => Purpose::ExportRegistered(i),
    }
}
