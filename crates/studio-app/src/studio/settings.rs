//! Where the studio reads and writes its files, and the keys of its tools. What it remembers
//! between runs ([`Settings`], saved through eframe's storage) is GUI-free, in
//! [`studio_core::document::settings`].

use std::path::PathBuf;

pub use studio_core::document::settings::{autosave_interval, Settings, Tool, ToolState};

/// The one-key shortcut of a tool.
pub fn tool_key(tool: Tool) -> egui::Key {
    match tool {
        Tool::Brush => egui::Key::B,
        Tool::Rectangle => egui::Key::R,
        Tool::Fill => egui::Key::F,
        Tool::Eyedropper => egui::Key::I,
        Tool::Select => egui::Key::M,
    }
}

/// Where the studio finds and keeps files.
#[derive(Clone, Debug, PartialEq)]
pub struct StudioPaths {
    /// Packs opened at start when the settings name none that still exist.
    pub shipped_packs: Vec<PathBuf>,
    /// The autosave file offered back after a crash (`None`: no autosave).
    pub recovery_file: Option<PathBuf>,
    /// The session file (canvases, generator settings, candidates) read at start and
    /// written with the settings (`None`: sessions are not kept).
    pub session_file: Option<PathBuf>,
    /// eframe's storage file, `app.ron` beside the recovery file, whose `app` entry holds the
    /// [`Settings`]: checked before eframe opens it (`None`: settings are not kept).
    pub settings_file: Option<PathBuf>,
    /// Where the generators' weights are (`models/`).
    pub models_dir: PathBuf,
    /// The shipped packs' folder (`levels/`): Save as never proposes a file in it.
    pub levels_dir: PathBuf,
    /// Where Save as proposes new pack files: `~/Documents/Level Studio` (or
    /// `~/level-studio` without a Documents folder); made on first save.
    pub user_packs: PathBuf,
}

impl StudioPaths {
    /// The shipped packs under `root` (the repository or install folder) and a recovery
    /// file in the user's data folder.
    pub fn standard(root: &std::path::Path) -> Self {
        let shipped_packs = studio_core::game::games()
            .iter()
            .flat_map(|g| starter_packs(&root.join("levels").join(g.id().as_str())))
            .collect();
        let recovery_file = eframe::storage_dir("level-studio")
            .or_else(|| {
                std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/level-studio"))
            })
            .map(|d| d.join("recovery.ron"));
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let user_packs = match home {
            Some(h) if h.join("Documents").is_dir() => h.join("Documents").join("Level Studio"),
            Some(h) => h.join("level-studio"),
            None => root.join("my-packs"),
        };
        let session_file = session_beside(recovery_file.as_deref());
        let settings_file = beside(recovery_file.as_deref(), "app.ron");
        Self {
            shipped_packs,
            recovery_file,
            session_file,
            settings_file,
            models_dir: root.join("models"),
            levels_dir: root.join("levels"),
            user_packs,
        }
    }

    /// Paths for tests: the given packs and a recovery file of the test's choosing; the
    /// shipped models and levels of the repository this crate is in.
    pub fn for_tests(shipped_packs: Vec<PathBuf>, recovery_file: Option<PathBuf>) -> Self {
        let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        let user_packs = recovery_file.as_ref().and_then(|f| f.parent()).map_or_else(
            || std::env::temp_dir().join("level-studio"),
            |d| d.join("packs"),
        );
        let session_file = session_beside(recovery_file.as_deref());
        let settings_file = beside(recovery_file.as_deref(), "app.ron");
        Self {
            shipped_packs,
            recovery_file,
            session_file,
            settings_file,
            models_dir: root.join("models"),
            levels_dir: root.join("levels"),
            user_packs,
        }
    }
}

impl StudioPaths {
    /// Whether `path` is a shipped pack's file (under [`StudioPaths::levels_dir`]): the
    /// studio never saves over one; Save goes to Save as, and "Save packs" writes a copy
    /// into the designer's folder.
    pub fn is_shipped(&self, path: &std::path::Path) -> bool {
        let canonical = |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or(p.to_path_buf());
        let levels = canonical(&self.levels_dir);
        let file = match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) if !dir.as_os_str().is_empty() => canonical(dir).join(name),
            _ => canonical(path),
        };
        file.starts_with(&levels) || path.starts_with(&self.levels_dir)
    }

    /// Where a copy of a shipped pack named `name` is saved: a new file in the designer's
    /// folder, named after the pack.
    pub fn own_copy(&self, name: &str) -> PathBuf {
        let path = self
            .user_packs
            .join(format!("{}.ron", studio_core::export::tiled::slug(name)));
        if std::fs::symlink_metadata(&path).is_ok() {
            studio_core::io::sibling_name(&path)
        } else {
            path
        }
    }
}

/// The session file, kept beside the recovery file.
fn session_beside(recovery_file: Option<&std::path::Path>) -> Option<PathBuf> {
    beside(recovery_file, "session.ron")
}

/// The file called `name` in the recovery file's folder (eframe's storage folder).
fn beside(recovery_file: Option<&std::path::Path>, name: &str) -> Option<PathBuf> {
    recovery_file.and_then(|f| f.parent()).map(|d| d.join(name))
}

/// The starter packs a game ships in its `levels/` folder (`*starter*.ron`), sorted.
fn starter_packs(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "ron")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.contains("starter"))
        })
        .collect();
    found.sort();
    found
}
