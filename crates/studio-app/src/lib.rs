//! The studio window (eframe/egui). Everything GUI lives here and only calls into the
//! GUI-free library (games, the document model, generation, files). It is laid out in rooms:
//!
//! - `studio/`: the shell — [`StudioApp`], commands and [`StudioApp::apply`], the panel
//!   layout, settings, file dialogs, autosave and recovery;
//! - `editor/`: the tile canvas, the palette and the level/tools sidebar;
//! - `analysis/`: the live analysis, the difficulty gauge and the state-graph viewer;
//! - `generation/`: the generator sidebar, the candidates and latent interpolation;
//! - `playtest/`: the playtest window, playing a game's registered session
//!   ([`studio_ui::Playtest`]) or its `PlayRules`;
//! - `pack/`: the pack strip with its thumbnails and difficulty curve.
//!
//! Widgets read what a game's trait returns; a game's own window parts (its playtest widget,
//! its tool windows) live in its crate behind its `ui` feature and are
//! found in the registry ([`studio_ui::Playtest`], [`studio_ui::Tool`]). Nothing here names a
//! game.
//!
//! State flow: [`Settings`] is the one saved struct; the rest of [`StudioApp`] is runtime.
//! Widgets and panels emit [`AppCommand`]s (board edits as [`EditCommand`]s), which
//! [`StudioApp::apply`] applies in one place — undo/redo lives in [`Editor::apply`]. Heavy
//! work (bot validation, state graphs, their layout, generation, interpolation) runs on workers ([`jobs`]) that report
//! over channels and wake the UI; the UI never waits.

pub mod analysis;
pub mod editor;
pub mod generation;
pub mod pack;
pub mod playtest;
pub mod studio;
pub use studio_ui::widgets;

pub use editor::{EditCommand, Editor};
pub use studio::panel::{AppCommand, ExportFormat, PackCommand};
pub use studio::settings::{Settings, StudioPaths};
pub use studio::StudioApp;
pub use studio_core::document::{board, history, pack_doc};
pub use studio_core::jobs::{self, JobMode};

pub use studio_ui::RepaintOnReport;

/// Opens the studio window and runs it until it is closed.
///
/// # Errors
/// eframe's error when no window or OpenGL context can be created (no display, no GL).
pub fn run_native() -> eframe::Result<()> {
    let root = std::env::current_dir().unwrap_or_default();
    let paths = StudioPaths::standard(&root);
    // eframe's own storage opens its file unchecked (a FIFO would stop the start, /dev/zero
    // fill the memory): the studio reads and checks it first, moving a file it cannot use
    // aside, and names the file for eframe so both mean the same one.
    let settings =
        studio_core::document::settings::read_settings_file(paths.settings_file.as_deref());
    let persistence_path = match &paths.settings_file {
        // A bad file that could not be moved aside is left alone: this run keeps its
        // settings in a file of its own.
        Some(file) if settings.left_in_place => {
            Some(file.with_file_name(format!("app.{}.ron", std::process::id())))
        }
        file => file.clone(),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Level Studio")
            .with_app_id("level-studio")
            .with_inner_size([1440.0, 900.0])
            .with_min_inner_size([900.0, 600.0])
            .with_drag_and_drop(true),
        renderer: eframe::Renderer::Glow,
        persistence_path,
        ..Default::default()
    };
    eframe::run_native(
        "level-studio",
        options,
        Box::new(move |_cc| {
            Ok(Box::new(StudioApp::with_startup(
                settings,
                paths,
                JobMode::Threads,
            )))
        }),
    )
}
