//! The studio's file work: opening packs and levels and exporting packs on a worker (a
//! 1 MB pack or a big PNG sheet never stalls the window; a malformed file is reported and
//! nothing open changes), saving, closing packs, autosave and recovery after a crash.

use super::errors::AppError;
use super::StudioApp;
use crate::editor::{EditCommand, Editor};
use crate::pack_doc::PackDoc;
use crate::studio::panel::ExportFormat;
use crate::studio::recovery::{now_secs, RecoveredLink, RecoveredPack, Recovery};
use crate::RepaintOnReport;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Duration;
use studio_core::document::editor::Identity;
use studio_core::export::png::{self as png_sheet, SheetNote};
use studio_core::export::tiled;
use studio_core::files;
use studio_core::formats::FormatError;
use studio_core::jobs::{JobMode, Worker};
use studio_core::level::{Game, Level, Pack};

/// File work for the worker.
pub(crate) enum FileJob {
    /// Read a pack or a level (ASCII art that fits several games is read as this game's).
    Open(PathBuf, Game),
    /// Read levels of a game's format (`formats::importers()[i]`) into a new pack.
    Import(usize, PathBuf),
    /// Write the pack in a format; `notes` label the PNG sheet's levels and Tiled maps.
    Export {
        path: PathBuf,
        format: ExportFormat,
        pack: Box<Pack>,
        notes: Vec<SheetNote>,
    },
}

/// What a file was: a pack, or one level.
pub(crate) enum Opened {
    Pack(Pack),
    Level(Box<Level>),
}

/// The file worker and the jobs waiting for it (one file at a time, in order).
pub(crate) struct FileWork {
    worker: Worker<FileDone>,
    queue: VecDeque<FileJob>,
    key: u64,
}

impl FileWork {
    /// An idle file worker running jobs in `mode`.
    pub(crate) fn new(mode: JobMode) -> Self {
        Self {
            worker: Worker::new("files", mode),
            queue: VecDeque::new(),
            key: 0,
        }
    }
}

/// Finished file work, applied on the UI thread.
pub(crate) enum FileDone {
    /// Levels imported from another tool's format, as a new pack (or why not).
    Imported(PathBuf, Result<Pack, FormatError>),
    Opened(PathBuf, Result<Opened, String>),
    Exported(PathBuf, Result<(), FormatError>),
}

impl FileJob {
    fn run(self) -> FileDone {
        match self {
            FileJob::Open(path, game) => {
                let opened = read(&path, game);
                FileDone::Opened(path, opened)
            }
            FileJob::Import(i, path) => {
                let imported = import(i, &path);
                FileDone::Imported(path, imported)
            }
            FileJob::Export {
                path,
                format,
                pack,
                notes,
            } => {
                let written = match format {
                    ExportFormat::Json => {
                        files::export_pack_json(&path, &pack).map_err(FormatError::from)
                    }
                    ExportFormat::Png => png_sheet::export_png(&path, &pack, &notes),
                    ExportFormat::Tiled => tiled::export_tmj(&path, &pack, &notes).map(|_| ()),
                    ExportFormat::Registered(i) => match studio_core::formats::exporters().get(i) {
                        Some(exporter) => (exporter.export)(&path, &pack).map(|_| ()),
                        None => Err(FormatError::refused("no such export format in this build")),
                    },
                };
                FileDone::Exported(path, written)
            }
        }
    }
}

/// Reads a pack or a level file. A `.ron`/`.json` file is a pack, else a level; when both
/// fail, the error of what the text looks like is reported, with the formats File > Import
/// reads (another tool's level text, such as the VGLC's, is not the studio's own).
fn read(path: &Path, game: Game) -> Result<Opened, String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if ext != "ron" && ext != "json" {
        return files::load_level_hinted(path, Some(game))
            .map(|l| Opened::Level(Box::new(l)))
            .map_err(|e| {
                let formats: Vec<&str> = studio_core::formats::importers()
                    .iter()
                    .map(|i| i.label)
                    .collect();
                if formats.is_empty() {
                    e.to_string()
                } else {
                    format!(
                        "{e}. If it is another tool's level text, File > Import reads {}",
                        formats.join(", ")
                    )
                }
            });
    }
    match files::load_pack_or_level(path).map_err(|e| e.to_string())? {
        files::Loaded::Pack(p) => Ok(Opened::Pack(p)),
        files::Loaded::Level(l) => Ok(Opened::Level(l)),
    }
}

/// Reads levels of the format `formats::importers()[i]` from `path` into a pack.
fn import(i: usize, path: &Path) -> Result<Pack, FormatError> {
    let importer = studio_core::formats::importers()
        .get(i)
        .cloned()
        .ok_or_else(|| FormatError::refused("no such import format in this build"))?;
    let imported = (importer.import)(&studio_core::formats::ImportRequest {
        paths: vec![path.to_path_buf()],
        seed: 0,
    })?;
    if imported.levels.is_empty() {
        return Err(FormatError::refused(format!(
            "{}: no {} could be read as {}",
            path.display(),
            imported.noun,
            importer.format
        )));
    }
    let mut pack = Pack::new(imported.title);
    pack.levels = imported.levels;
    Ok(pack)
}

impl StudioApp {
    /// Reads levels of a game's format (`formats::importers()[i]`) on the file worker; they
    /// open as a new, unsaved pack (never saved over the file they came from).
    pub(super) fn import(&mut self, i: usize, path: &Path) {
        self.queue_file_job(FileJob::Import(i, path.to_path_buf()));
    }

    pub(super) fn close_pack(&mut self, index: usize) {
        if index < self.packs.len() {
            let closed = self.packs.remove(index);
            // Said, so an earlier "Opened …" does not linger as if the pack were still open.
            self.status = format!("Closed {}", closed.title());
        }
        if self.packs.is_empty() {
            self.packs.push(PackDoc::placeholder(self.game));
        }
        self.active_pack = self.active_pack.min(self.packs.len() - 1);
        // The strip goes on showing a pack of the game on the canvas, never another game's.
        self.activate_pack_for(self.game);
        self.strip.forget();
    }

    /// Opens a pack (a new tab, or over the tab of the same file) or loads a level onto the
    /// canvas. The file is read on a worker; a malformed or foreign file is reported with
    /// file, line and column and nothing open changes.
    pub(super) fn open_file(&mut self, path: &Path) {
        self.queue_file_job(FileJob::Open(path.to_path_buf(), self.game));
    }

    /// Exports the active pack (JSON, a labelled PNG sheet, or a folder of Tiled maps) on a
    /// worker.
    pub(super) fn export(&mut self, path: &Path, format: ExportFormat) {
        let Some(doc) = self.packs.get(self.active_pack) else {
            return;
        };
        self.queue_file_job(FileJob::Export {
            path: path.to_path_buf(),
            format,
            pack: Box::new(doc.pack.clone()),
            notes: studio_core::export::notes_of(doc),
        });
    }

    fn queue_file_job(&mut self, job: FileJob) {
        self.status = match &job {
            FileJob::Open(path, _) => format!("Opening {}…", path.display()),
            FileJob::Import(_, path) => format!("Importing {}…", path.display()),
            FileJob::Export { path, .. } => format!("Exporting {}…", path.display()),
        };
        self.files.queue.push_back(job);
        self.start_next_file_job();
    }

    fn start_next_file_job(&mut self) {
        if self.files.worker.busy() {
            return;
        }
        let Some(job) = self.files.queue.pop_front() else {
            return;
        };
        self.files.key += 1;
        self.files
            .worker
            .start(self.files.key, move |_, _| Ok(job.run()));
    }

    /// Applies finished file work and starts the next queued job.
    pub(super) fn poll_files(&mut self, ctx: &egui::Context) {
        self.files.worker.set_repaint(ctx);
        while let Some((_, result)) = self.files.worker.poll() {
            match result {
                Ok(done) => self.file_done(done),
                Err(e) => self.errors.push(AppError::Open(e.to_string())),
            }
            self.start_next_file_job();
        }
    }

    /// Tests: wait until queued file work is done and applied.
    pub fn wait_for_files(&mut self, timeout: Duration) {
        let start = std::time::Instant::now();
        while (self.files.worker.busy() || !self.files.queue.is_empty())
            && start.elapsed() < timeout
        {
            if let Some((_, result)) = self.files.worker.wait(timeout) {
                match result {
                    Ok(done) => self.file_done(done),
                    Err(e) => self.errors.push(AppError::Open(e.to_string())),
                }
            }
            self.start_next_file_job();
        }
    }

    /// True while files are being read or written.
    pub fn files_busy(&self) -> bool {
        self.files.worker.busy() || !self.files.queue.is_empty()
    }

    fn file_done(&mut self, done: FileDone) {
        match done {
            FileDone::Opened(path, Ok(Opened::Pack(pack))) => {
                self.last_folder = Some(studio_core::io::folder_of(&path));
                self.opened_pack(&path, pack)
            }
            FileDone::Opened(path, Ok(Opened::Level(level))) => {
                self.load_level(&level, None);
                self.status = format!("Loaded {} onto the canvas", path.display());
            }
            FileDone::Opened(path, Err(e)) => {
                // The status no longer says "Opening …" (E17): it says what happened.
                self.status = format!("Could not open {}", path.display());
                self.errors.push(AppError::Open(e));
            }
            FileDone::Imported(path, Ok(mut pack)) => {
                self.last_folder = Some(studio_core::io::folder_of(&path));
                // Two imports never share a tab name (W7).
                pack.name = self.unique_pack_name(&pack.name);
                let (title, n) = (pack.name.clone(), pack.levels.len());
                self.packs.retain(|p| !p.is_placeholder());
                self.packs.push(PackDoc::with(pack, None, true));
                self.active_pack = self.packs.len() - 1;
                self.show_pack_game();
                self.strip.forget();
                let levels = if n == 1 { "level" } else { "levels" };
                self.status = format!(
                    "Imported {n} {levels} from {} as “{title}” (unsaved: Save pack as… to keep it)",
                    path.display()
                );
            }
            FileDone::Imported(path, Err(e)) => {
                self.status = format!("Could not import {}", path.display());
                self.errors.push(AppError::Open(e.to_string()));
            }
            FileDone::Exported(path, Ok(())) => {
                self.status = format!("Exported {}", path.display());
            }
            FileDone::Exported(path, Err(reason)) => {
                self.errors.push(AppError::Export {
                    path,
                    reason: reason.to_string(),
                });
            }
        }
    }

    fn opened_pack(&mut self, path: &Path, pack: Pack) {
        let open = self
            .packs
            .iter()
            .position(|p| p.path.as_deref() == Some(path));
        // Opening a pack that is open already and unchanged on disk shows its tab and keeps
        // everything as it is: the canvas stays linked to its level.
        if let Some(i) = open.filter(|&i| !self.packs[i].dirty && self.packs[i].holds(&pack)) {
            self.active_pack = i;
            self.strip.forget();
            self.status = format!("{} is open already (unchanged on disk)", path.display());
            return;
        }
        let doc = PackDoc::opened(pack, path.to_path_buf());
        match open {
            Some(i) => {
                self.packs[i] = doc;
                self.active_pack = i;
            }
            None => {
                // Placeholders (the empty packs of games with none open) make way for it.
                self.packs.retain(|p| !p.is_placeholder());
                self.packs.push(doc);
                self.active_pack = self.packs.len() - 1;
            }
        }
        self.relink_canvases(self.active_pack);
        self.show_pack_game();
        self.strip.forget();
        self.status = format!("Opened {}", path.display());
    }

    /// Canvases in no pack whose cells equal a level of pack `p` edit that level again (W2):
    /// reopening a pack never leaves the canvas as "work in no pack" that the pack holds.
    pub(super) fn relink_canvases(&mut self, p: usize) {
        let Some(doc) = self.packs.get(p) else {
            return;
        };
        let mut links = Vec::new();
        for editor in self.editors() {
            if self.find_level(editor.source).is_some() {
                continue;
            }
            let game = editor.board().rules().id();
            let cells = editor.board().to_level("", &[]).cells;
            let found = doc
                .pack
                .levels
                .iter()
                .position(|l| l.game == game && l.cells == cells);
            if let Some(i) = found {
                links.push((game, doc.level_ref(i), doc.pack.levels[i].name.clone()));
            }
        }
        for (game, source, name) in links {
            let desk = self.desk_mut(game);
            desk.editor.source = source;
            desk.editor.name = name;
            desk.clean_revision = desk.editor.revision();
            desk.synced = None;
            desk.edited = None;
        }
    }

    /// The canvas follows the active pack to its game (W14): a pack of another game brings
    /// its first level onto the canvas, so the strip never shows a pack under another game.
    pub(super) fn show_pack_game(&mut self) {
        let Some(doc) = self.packs.get(self.active_pack) else {
            return;
        };
        let game = doc.main_game();
        if game == self.game {
            return;
        }
        // The game's canvas already edits a level of this pack: it comes back as it was.
        let parked_here = self
            .parked
            .get(&game)
            .and_then(|d| d.editor.source)
            .is_some_and(|r| r.pack == doc.uid);
        let first = doc.pack.levels.iter().position(|l| l.game == game);
        match first {
            Some(i) if !parked_here => {
                let (level, source) = (doc.pack.levels[i].clone(), doc.level_ref(i));
                self.load_level(&level, source);
            }
            _ => {
                let active = self.active_pack;
                self.apply_switch_game(game);
                self.active_pack = active;
            }
        }
    }

    pub(super) fn save_active(&mut self, path: &Path) {
        let Some(doc) = self.packs.get_mut(self.active_pack) else {
            return;
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Err(e) = std::fs::create_dir_all(dir) {
                self.errors
                    .push(AppError::Save(format!("{}: {e}", dir.display())));
                return;
            }
        }
        // Only the file is named: the pack keeps its name (its tab is renamed by a
        // double-click, never by saving).
        match files::save_pack(path, &doc.pack) {
            Ok(()) => {
                doc.path = Some(path.to_path_buf());
                doc.mark_saved();
                self.status = format!("Saved {}", path.display());
            }
            Err(e) => self.errors.push(AppError::Save(e.to_string())),
        }
    }

    /// Saves the unsaved packs among `which` (indices into the open packs); false (with an
    /// error shown) if one could not be saved or has no file yet.
    pub(super) fn save_dirty(&mut self, which: &[usize]) -> bool {
        let mut ok = true;
        let mut copies = Vec::new();
        let chosen = self
            .packs
            .iter_mut()
            .enumerate()
            .filter(|(i, d)| d.dirty && which.contains(i))
            .map(|(_, d)| d);
        for doc in chosen {
            // A shipped pack's changes go to a copy in the designer's folder.
            let shipped = doc
                .path
                .as_ref()
                .filter(|p| self.paths.is_shipped(p))
                .cloned();
            if let Some(from) = shipped {
                let copy = self.paths.own_copy(&doc.pack.name);
                let saved = copy
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .map_err(|e| format!("{}: {e}", copy.display()))
                    .and_then(|()| files::save_pack(&copy, &doc.pack).map_err(|e| e.to_string()));
                match saved {
                    Ok(()) => {
                        copies.push(format!("{} to {}", from.display(), copy.display()));
                        doc.path = Some(copy);
                        doc.mark_saved();
                    }
                    Err(e) => {
                        self.errors.push(AppError::Save(e));
                        ok = false;
                    }
                }
                continue;
            }
            match &doc.path {
                Some(path) => match files::save_pack(path, &doc.pack) {
                    Ok(()) => doc.mark_saved(),
                    Err(e) => {
                        self.errors.push(AppError::Save(e.to_string()));
                        ok = false;
                    }
                },
                None => {
                    self.errors.push(AppError::NoFile(doc.pack.name.clone()));
                    ok = false;
                }
            }
        }
        if !copies.is_empty() {
            self.status = format!(
                "Shipped packs are not saved over; saved copies: {}",
                copies.join(", ")
            );
        }
        ok
    }

    pub(super) fn recover(&mut self) {
        let Some(offer) = self.recovery_offer.take() else {
            return;
        };
        // The packs first, so each canvas can be linked again to the pack level it edited.
        if !offer.packs.is_empty() {
            self.packs = offer
                .packs
                .into_iter()
                .map(|p| PackDoc::with(p.pack, p.path, p.dirty))
                .collect();
            self.active_pack = 0;
        }
        let links = offer.links.iter().cloned().chain(std::iter::repeat(None));
        for (level, link) in offer.levels.iter().zip(links) {
            let Ok(editor) = Editor::from_level(level) else {
                continue;
            };
            let source = link.and_then(|link| {
                let doc = self
                    .packs
                    .iter()
                    .find(|d| d.path == link.path && d.pack.name == link.pack)?;
                // Linked again only to the same level: a pack edit reaches it, a
                // stale link never changes another level.
                let same = doc
                    .pack
                    .levels
                    .get(link.level)
                    .is_some_and(|l| l.cells == level.cells);
                same.then(|| doc.level_ref(link.level)).flatten()
            });
            let identity = match source {
                Some(r) => Identity::in_pack(level.name.clone(), r),
                None => Identity::loose(level.name.clone()),
            };
            let board = editor.board().clone();
            let desk = self.desk_mut(level.game);
            desk.editor.apply(EditCommand::Replace {
                board,
                label: "Recover".into(),
                identity: Some(identity),
            });
        }
        self.show_game(offer.game);
        self.activate_pack_for(offer.game);
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
        let every =
            studio_core::document::settings::autosave_interval(self.settings.autosave_seconds);
        if self.last_autosave.elapsed() < every {
            ctx.request_repaint_after(every - self.last_autosave.elapsed());
            return;
        }
        self.autosave_now(&path);
    }

    /// Writes the recovery file now.
    pub fn autosave_now(&mut self, path: &Path) {
        self.write_recovery(path, false);
    }

    /// Writes the recovery file; `clean_exit` when a clean exit keeps canvas work in no pack
    /// (the next start then says so, not that the studio crashed).
    pub(super) fn write_recovery(&mut self, path: &Path, clean_exit: bool) {
        // The canvases worth bringing back: linked to a pack level, or holding work in no
        // pack. An untouched blank canvas is not counted as work at the next start (W2).
        let kept: Vec<&Editor> = std::iter::once(&self.desk)
            .chain(self.parked.values())
            .filter(|d| self.find_level(d.editor.source).is_some() || self.is_loose(d))
            .map(|d| &d.editor)
            .collect();
        let links = kept
            .iter()
            .map(|e| {
                self.find_level(e.source).map(|(p, i)| RecoveredLink {
                    path: self.packs[p].path.clone(),
                    pack: self.packs[p].pack.name.clone(),
                    level: i,
                })
            })
            .collect();
        let recovery = Recovery {
            games: Default::default(),
            saved_at: now_secs(),
            game: self.game,
            levels: kept.iter().map(|e| e.to_level()).collect(),
            links,
            clean_exit,
            packs: self
                .packs
                .iter()
                .filter(|d| !d.is_placeholder())
                .map(|d| RecoveredPack {
                    path: d.path.clone(),
                    pack: d.pack.clone(),
                    dirty: d.dirty,
                })
                .collect(),
        };
        if let Err(e) = recovery.write(path) {
            self.errors.push(AppError::Autosave(e.to_string()));
        }
        self.autosaved_generation = self.work_generation;
        self.last_autosave = std::time::Instant::now();
    }
}
