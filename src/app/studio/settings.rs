//! What the studio remembers between runs (one `#[serde(default)]` struct saved through
//! eframe's storage) and where it reads and writes files.

use crate::app::board::{tile_named, Tile};
use crate::game::{Game as GameRules, GameId};
use crate::symmetry::Symmetry;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// A canvas tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Tool {
    /// Paint cells under the pointer while the button is down.
    #[default]
    Brush,
    /// Drag a rectangle, fill it on release.
    Rectangle,
    /// Repaint the 4-connected region of equal cells.
    Fill,
    /// Pick the tile under the pointer as the current tile.
    Eyedropper,
}

impl Tool {
    /// Every tool, in palette order.
    pub const ALL: [Tool; 4] = [Tool::Brush, Tool::Rectangle, Tool::Fill, Tool::Eyedropper];

    /// The label in the palette.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Brush => "Brush",
            Tool::Rectangle => "Rectangle",
            Tool::Fill => "Fill",
            Tool::Eyedropper => "Eyedropper",
        }
    }

    /// The one-key shortcut.
    pub fn key(self) -> egui::Key {
        match self {
            Tool::Brush => egui::Key::B,
            Tool::Rectangle => egui::Key::R,
            Tool::Fill => egui::Key::F,
            Tool::Eyedropper => egui::Key::I,
        }
    }
}

/// The chosen tool, tile per game and mirror symmetry of the brush.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolState {
    /// The active tool.
    pub tool: Tool,
    /// The tile being painted in each game, by name (`match3` → `BLOCK`).
    pub brushes: BTreeMap<String, String>,
    /// Mirror painting by this symmetry.
    pub mirror: Symmetry,
    /// Lay the game's overlay (the dungeon's Patterns) over the canvas.
    pub overlay: bool,
}

impl Default for ToolState {
    fn default() -> Self {
        Self {
            tool: Tool::Brush,
            brushes: BTreeMap::new(),
            mirror: Symmetry::None,
            overlay: false,
        }
    }
}

impl ToolState {
    /// The tile painted in `game` (the game's default brush until one is chosen).
    pub fn tile(&self, game: &dyn GameRules) -> Tile {
        self.brushes
            .get(game.id().as_str())
            .and_then(|name| tile_named(game, name))
            .unwrap_or_else(|| game.default_brush())
    }

    /// Chooses the tile painted in `game`.
    pub fn set_tile(&mut self, game: &dyn GameRules, tile: Tile) {
        if let Some(t) = game.tiles().get(usize::from(tile)) {
            self.brushes
                .insert(game.id().as_str().to_string(), t.name.to_string());
        }
    }
}

/// Everything that persists between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The game shown at start.
    pub game: GameId,
    /// Tool, tiles and mirror.
    pub tools: ToolState,
    /// Canvas zoom (1.0 = fit).
    pub zoom: f32,
    /// Packs open at the end of the last run.
    pub last_packs: Vec<PathBuf>,
    /// The panels the designer closed, by [`ToolPanel::name`](crate::app::studio::panel::ToolPanel::name)
    /// (every other panel is open).
    pub closed_panels: BTreeSet<String>,
    /// Width of the right panel in points.
    pub right_panel_width: f32,
    /// Height of the bottom strip in points.
    pub pack_strip_height: f32,
    /// Show a frame-time read-out in the status bar.
    pub show_frame_time: bool,
    /// Seconds between autosaves of unsaved work.
    pub autosave_seconds: f32,
}

impl Settings {
    /// True unless the designer closed the panel called `name`.
    pub fn panel_open(&self, name: &str) -> bool {
        !self.closed_panels.contains(name)
    }

    /// Opens or closes the panel called `name`.
    pub fn set_panel_open(&mut self, name: &str, open: bool) {
        if open {
            self.closed_panels.remove(name);
        } else {
            self.closed_panels.insert(name.to_string());
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            game: crate::game::registry::first().id(),
            tools: ToolState::default(),
            zoom: 1.0,
            last_packs: Vec::new(),
            closed_panels: BTreeSet::new(),
            right_panel_width: 380.0,
            pack_strip_height: 190.0,
            show_frame_time: true,
            autosave_seconds: 20.0,
        }
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
        let shipped_packs = crate::game::games()
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
        Self {
            shipped_packs,
            recovery_file,
            session_file,
            models_dir: root.join("models"),
            levels_dir: root.join("levels"),
            user_packs,
        }
    }

    /// Paths for tests: the given packs and a recovery file of the test's choosing.
    pub fn for_tests(shipped_packs: Vec<PathBuf>, recovery_file: Option<PathBuf>) -> Self {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let user_packs = recovery_file.as_ref().and_then(|f| f.parent()).map_or_else(
            || std::env::temp_dir().join("level-studio"),
            |d| d.join("packs"),
        );
        let session_file = session_beside(recovery_file.as_deref());
        Self {
            shipped_packs,
            recovery_file,
            session_file,
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
            .join(format!("{}.ron", crate::export::tiled::slug(name)));
        if std::fs::symlink_metadata(&path).is_ok() {
            crate::files::sibling_name(&path)
        } else {
            path
        }
    }
}

/// The session file, kept beside the recovery file.
fn session_beside(recovery_file: Option<&std::path::Path>) -> Option<PathBuf> {
    recovery_file
        .and_then(|f| f.parent())
        .map(|d| d.join("session.ron"))
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
