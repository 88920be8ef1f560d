//! What the studio remembers between runs: one `#[serde(default)]` struct, kept in eframe's
//! storage file (`app.ron`, as the RON string under the key `app`), with the range of each of
//! its numbers. GUI-free, so tests and the fuzz targets read a settings file exactly as the
//! window does.

use crate::document::board::{tile_named, Tile};
use crate::document::startup::{checked_number, read_startup_file, Checked, StartupRead};
use crate::game::{Game as GameRules, GameId};
use crate::io::FileError;
use crate::symmetry::Symmetry;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    /// Drag a rectangle to select it (for "Regenerate selection"); paints nothing.
    Select,
}

impl Tool {
    /// Every tool, in palette order.
    pub const ALL: [Tool; 5] = [
        Tool::Brush,
        Tool::Rectangle,
        Tool::Fill,
        Tool::Eyedropper,
        Tool::Select,
    ];

    /// The label in the palette.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Brush => "Brush",
            Tool::Rectangle => "Rectangle",
            Tool::Fill => "Fill",
            Tool::Eyedropper => "Eyedropper",
            Tool::Select => "Select",
        }
    }
}

/// The chosen tool, tile per game and mirror symmetry of the brush.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolState {
    /// The active tool.
    pub tool: Tool,
    /// The tile being painted in each game, by name (`toy` → `crate`).
    pub brushes: BTreeMap<String, String>,
    /// Mirror painting by this symmetry.
    pub mirror: Symmetry,
    /// The games whose overlay (Patterns, Mario's damage) is laid over the canvas, by id:
    /// each game's own, so turning on Mario's damage map does not tint another game's walls.
    pub overlays: BTreeSet<String>,
    /// The selected rectangle of the canvas, `[x, y, width, height]` in cells (the Select
    /// tool's; what "Regenerate selection" changes). Not kept between runs.
    #[serde(skip)]
    pub selection: Option<[usize; 4]>,
}

impl Default for ToolState {
    fn default() -> Self {
        Self {
            tool: Tool::Brush,
            brushes: BTreeMap::new(),
            mirror: Symmetry::None,
            overlays: BTreeSet::new(),
            selection: None,
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

    /// Whether `game`'s overlay is shown.
    pub fn overlay_on(&self, game: GameId) -> bool {
        self.overlays.contains(game.as_str())
    }

    /// Shows or hides `game`'s overlay.
    pub fn set_overlay(&mut self, game: GameId, on: bool) {
        if on {
            self.overlays.insert(game.as_str().to_string());
        } else {
            self.overlays.remove(game.as_str());
        }
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
    /// The game shown at start. A game this run does not know yet (a GVGAI game, registered
    /// when its pack opens) reads as the first game: the rest of the settings stay.
    #[serde(deserialize_with = "game_or_first")]
    pub game: GameId,
    /// Tool, tiles and mirror.
    pub tools: ToolState,
    /// Canvas zoom (1.0 = fit), in [`Settings::ZOOM`].
    pub zoom: f32,
    /// Packs open at the end of the last run.
    pub last_packs: Vec<PathBuf>,
    /// Level VAE files trained or opened in the window, added to their games' generators at
    /// start (one that no longer loads is said in the status bar and kept, in case its drive
    /// comes back).
    pub level_models: Vec<PathBuf>,
    /// The panels the designer closed, by the name of their tool panel (every other panel is
    /// open).
    pub closed_panels: BTreeSet<String>,
    /// Width of the right panel in points, in [`Settings::RIGHT_PANEL_WIDTH`].
    pub right_panel_width: f32,
    /// Height of the bottom strip in points, in [`Settings::PACK_STRIP_HEIGHT`].
    pub pack_strip_height: f32,
    /// Show a frame-time read-out in the status bar.
    pub show_frame_time: bool,
    /// Seconds between autosaves of unsaved work, in [`Settings::AUTOSAVE_SECONDS`].
    pub autosave_seconds: f32,
    /// Where models train and decode: `auto`, `cpu`, `cuda` or `cuda:N` (the window checks it
    /// against this build and machine at start, and uses `auto` for one it cannot use).
    pub device: String,
}

/// A game id, or the first registered game when the id names none (the settings of a run
/// that ended on a game opened from a description).
fn game_or_first<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<GameId, D::Error> {
    Ok(GameId::deserialize(deserializer).unwrap_or_default())
}

impl Settings {
    /// The canvas zoom the canvas allows.
    pub const ZOOM: RangeInclusive<f32> = 0.25..=8.0;
    /// The right panel's width in points: its smallest, up to a very wide screen.
    pub const RIGHT_PANEL_WIDTH: RangeInclusive<f32> = 340.0..=8192.0;
    /// The pack strip's height in points: its smallest, up to a very tall screen.
    pub const PACK_STRIP_HEIGHT: RangeInclusive<f32> = 120.0..=8192.0;
    /// Seconds between autosaves: at least a second, at most an hour.
    pub const AUTOSAVE_SECONDS: RangeInclusive<f32> = 1.0..=3600.0;

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

    /// Brings every number into its range, as read from a file: a value that is not a finite
    /// number gets its default, one outside its range the nearest end. Returns one line per
    /// value changed, for the status bar (none for settings in range).
    pub fn check_numbers(&mut self) -> Vec<String> {
        let defaults = Settings::default();
        let mut notes = Vec::new();
        let fields = [
            ("zoom", &mut self.zoom, Self::ZOOM, defaults.zoom),
            (
                "right_panel_width",
                &mut self.right_panel_width,
                Self::RIGHT_PANEL_WIDTH,
                defaults.right_panel_width,
            ),
            (
                "pack_strip_height",
                &mut self.pack_strip_height,
                Self::PACK_STRIP_HEIGHT,
                defaults.pack_strip_height,
            ),
            (
                "autosave_seconds",
                &mut self.autosave_seconds,
                Self::AUTOSAVE_SECONDS,
                defaults.autosave_seconds,
            ),
        ];
        for (name, value, range, default) in fields {
            let range = f64::from(*range.start())..=f64::from(*range.end());
            let (checked, note) = checked_number(name, f64::from(*value), range, default.into());
            // In range, so it fits an f32 (the ends are f32 values).
            *value = checked as f32;
            notes.extend(note);
        }
        notes
    }

    /// Reads the settings from the text of eframe's storage file (a RON map of strings; the
    /// settings are the RON under [`STORAGE_KEY`]) and checks their numbers. A file without
    /// the key gives the defaults.
    ///
    /// # Errors
    /// [`FileError::Parse`] when the file is not such a map or the settings in it do not read.
    pub fn from_storage_text(path: &Path, text: &str) -> Result<Checked<Settings>, FileError> {
        let entries: HashMap<String, String> = crate::io::from_ron(path, text)?;
        let mut settings = match entries.get(STORAGE_KEY) {
            Some(app) => ron::from_str::<Settings>(app).map_err(|e| FileError::Parse {
                path: path.to_path_buf(),
                line: 1,
                column: 1,
                message: format!(
                    "the studio's settings (“{STORAGE_KEY}”) do not read: {}:{}: {}",
                    e.span.start.line, e.span.start.col, e.code
                ),
            })?,
            None => Settings::default(),
        };
        let notes = settings
            .check_numbers()
            .into_iter()
            .map(|n| format!("settings: {n}"))
            .collect();
        Ok(Checked {
            value: settings,
            notes,
        })
    }

    /// The text of a storage file holding these settings (as eframe writes it), for tests and
    /// fuzz seeds.
    ///
    /// # Errors
    /// [`FileError::Serialise`] when RON cannot hold a value.
    pub fn to_storage_text(&self) -> Result<String, FileError> {
        let app = ron::to_string(self).map_err(|e| FileError::Serialise(e.to_string()))?;
        let entries: HashMap<String, String> = [(STORAGE_KEY.to_string(), app)].into();
        crate::io::to_ron(&entries)
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            game: crate::game::registry::first().id(),
            tools: ToolState::default(),
            zoom: 1.0,
            last_packs: Vec::new(),
            level_models: Vec::new(),
            closed_panels: BTreeSet::new(),
            right_panel_width: 380.0,
            pack_strip_height: 190.0,
            show_frame_time: true,
            autosave_seconds: 20.0,
            device: "auto".into(),
        }
    }
}

/// Reads the settings file at start, before eframe opens it: as [`read_startup_file`] reads
/// (a regular file within the cap, else moved aside) with [`Settings::from_storage_text`].
/// `None`, a missing file or one moved aside give no settings (the defaults apply).
pub fn read_settings_file(path: Option<&Path>) -> StartupRead<Settings> {
    match path {
        Some(path) => read_startup_file(path, "settings file", Settings::from_storage_text),
        None => StartupRead {
            value: None,
            notes: Vec::new(),
            left_in_place: false,
        },
    }
}

/// The key of the studio's settings in eframe's storage file (`eframe::APP_KEY`).
pub const STORAGE_KEY: &str = "app";

/// The time between autosaves for `seconds` from the settings: brought into
/// [`Settings::AUTOSAVE_SECONDS`], and the default for a value that is not a number. Never
/// panics, whatever the value.
pub fn autosave_interval(seconds: f32) -> Duration {
    let (min, max) = (
        *Settings::AUTOSAVE_SECONDS.start(),
        *Settings::AUTOSAVE_SECONDS.end(),
    );
    let seconds = if seconds.is_nan() {
        Settings::default().autosave_seconds
    } else {
        seconds.clamp(min, max)
    };
    Duration::try_from_secs_f32(seconds).unwrap_or(Duration::from_secs(20))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 47, E13: each game keeps its own overlay switch; turning Mario's damage map on
    /// leaves another game's canvas plain.
    #[test]
    fn each_game_has_its_own_overlay_switch() {
        let (mario, longcat) = (GameId::new("mario"), GameId::new("longcat"));
        let mut tools = ToolState::default();
        assert!(!tools.overlay_on(mario) && !tools.overlay_on(longcat));
        tools.set_overlay(mario, true);
        assert!(tools.overlay_on(mario) && !tools.overlay_on(longcat));
        tools.set_overlay(mario, false);
        assert!(!tools.overlay_on(mario));
        // A settings file of an older studio, with one switch for every game, reads as all off.
        let old: ToolState = ron::from_str("(overlay: true)").unwrap();
        assert!(old.overlays.is_empty());
    }

    /// A run that ended on a GVGAI game (registered only when its pack opens) leaves settings
    /// the next run reads whole: the game is the first one, everything else as saved.
    #[test]
    fn settings_naming_a_game_not_registered_yet_keep_the_rest() {
        let text = "(game: Vgdl_zelda_94416884, zoom: 2.0, last_packs: [\"/tmp/z.ron\"])";
        let s: Settings = ron::from_str(text).unwrap();
        assert_eq!(s.game, GameId::default());
        assert_eq!(s.zoom, 2.0);
        assert_eq!(s.last_packs, vec![PathBuf::from("/tmp/z.ron")]);
    }
}
