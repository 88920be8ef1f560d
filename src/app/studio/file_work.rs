//! The studio's file work: opening packs and levels (a malformed file is reported and
//! nothing open changes), saving, closing packs, autosave and recovery after a crash.

use super::StudioApp;
use crate::app::editor::{EditCommand, Editor};
use crate::app::pack_doc::PackDoc;
use crate::app::studio::recovery::{now_secs, RecoveredPack, Recovery};
use crate::files::{self, FileError};
use std::path::Path;
use std::time::Duration;

impl StudioApp {
    pub(super) fn close_pack(&mut self, index: usize) {
        if index < self.packs.len() {
            self.packs.remove(index);
        }
        if self.packs.is_empty() {
            self.packs.push(PackDoc::untitled("untitled"));
        }
        self.active_pack = self.active_pack.min(self.packs.len() - 1);
        self.strip.selected = None;
    }

    /// Opens a pack (a new tab, or over the tab of the same file) or loads a level onto the
    /// canvas. A malformed or foreign file is reported with file, line and column and
    /// nothing open changes.
    pub(super) fn open_file(&mut self, path: &Path, report: bool) -> bool {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        let result: Result<Option<crate::level::Pack>, FileError> = if ext == "ron" || ext == "json"
        {
            match files::load_pack(path) {
                Ok(p) => Ok(Some(p)),
                Err(pack_err) => {
                    let looks_like_pack = std::fs::read_to_string(path)
                        .map(|t| t.contains("levels"))
                        .unwrap_or(false);
                    match files::load_level(path) {
                        Ok(level) => {
                            self.load_level(&level);
                            Ok(None)
                        }
                        Err(level_err) => Err(if looks_like_pack { pack_err } else { level_err }),
                    }
                }
            }
        } else {
            files::load_level(path).map(|level| {
                self.load_level(&level);
                None
            })
        };
        match result {
            Ok(Some(pack)) => {
                let doc = PackDoc::opened(pack, path.to_path_buf());
                match self
                    .packs
                    .iter()
                    .position(|p| p.path.as_deref() == Some(path))
                {
                    Some(i) => {
                        self.packs[i] = doc;
                        self.active_pack = i;
                    }
                    None => {
                        // An untouched empty untitled pack makes way for the opened one.
                        if self.packs.len() == 1
                            && self.packs[0].path.is_none()
                            && self.packs[0].pack.levels.is_empty()
                        {
                            self.packs.clear();
                        }
                        self.packs.push(doc);
                        self.active_pack = self.packs.len() - 1;
                    }
                }
                if let Some(level) = self.packs[self.active_pack].pack.levels.first().cloned() {
                    if level.game != self.game {
                        self.load_level(&level);
                    }
                }
                self.strip.selected = None;
                self.status = format!("Opened {}", path.display());
                true
            }
            Ok(None) => {
                self.status = format!("Loaded {} onto the canvas", path.display());
                true
            }
            Err(e) => {
                if report {
                    self.errors.push(format!("Could not open: {e}"));
                }
                false
            }
        }
    }

    pub(super) fn save_active(&mut self, path: &Path) {
        let Some(doc) = self.packs.get_mut(self.active_pack) else {
            return;
        };
        match files::save_pack(path, &doc.pack) {
            Ok(()) => {
                doc.path = Some(path.to_path_buf());
                doc.dirty = false;
                self.status = format!("Saved {}", path.display());
            }
            Err(e) => self.errors.push(format!("Could not save: {e}")),
        }
    }

    /// Saves every unsaved pack that has a file; false (with an error shown) if one could
    /// not be saved or has no file yet.
    pub(super) fn save_all_dirty(&mut self) -> bool {
        let mut ok = true;
        for doc in self.packs.iter_mut().filter(|d| d.dirty) {
            match &doc.path {
                Some(path) => match files::save_pack(path, &doc.pack) {
                    Ok(()) => doc.dirty = false,
                    Err(e) => {
                        self.errors.push(format!("Could not save: {e}"));
                        ok = false;
                    }
                },
                None => {
                    self.errors.push(format!(
                        "“{}” has no file yet: use File > Save pack as... first",
                        doc.pack.name
                    ));
                    ok = false;
                }
            }
        }
        ok
    }

    pub(super) fn recover(&mut self) {
        let Some(offer) = self.recovery_offer.take() else {
            return;
        };
        for level in &offer.levels {
            if let Ok(editor) = Editor::from_level(level) {
                let board = editor.board().clone();
                let desk = self.desk_mut(level.game);
                desk.editor.apply(EditCommand::Replace {
                    board,
                    label: "Recover".into(),
                });
                desk.editor.name = level.name.clone();
            }
        }
        if !offer.packs.is_empty() {
            self.packs = offer
                .packs
                .into_iter()
                .map(|p| PackDoc {
                    pack: p.pack,
                    path: p.path,
                    dirty: p.dirty,
                    measured: Default::default(),
                })
                .collect();
            self.active_pack = 0;
        }
        self.show_game(offer.game);
        self.analysis.reset();
        self.status = "Recovered the autosaved work".into();
    }

    /// Writes the recovery file when work changed since the last autosave.
    pub(super) fn maybe_autosave(&mut self, ctx: &egui::Context) {
        let Some(path) = self.paths.recovery_file.clone() else {
            return;
        };
        if self.recovery_offer.is_some() || self.work_generation == self.autosaved_generation {
            return;
        }
        let every = Duration::from_secs_f32(self.settings.autosave_seconds.max(1.0));
        if self.last_autosave.elapsed() < every {
            ctx.request_repaint_after(every - self.last_autosave.elapsed());
            return;
        }
        self.autosave_now(&path);
    }

    /// Writes the recovery file now.
    pub fn autosave_now(&mut self, path: &Path) {
        let recovery = Recovery {
            saved_at: now_secs(),
            game: self.game,
            levels: self.editors().map(|e| e.to_level()).collect(),
            packs: self
                .packs
                .iter()
                .map(|d| RecoveredPack {
                    path: d.path.clone(),
                    pack: d.pack.clone(),
                    dirty: d.dirty,
                })
                .collect(),
        };
        if let Err(e) = recovery.write(path) {
            self.errors.push(format!("autosave failed: {e}"));
        }
        self.autosaved_generation = self.work_generation;
        self.last_autosave = std::time::Instant::now();
    }
}
