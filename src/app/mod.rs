//! The studio window (eframe/egui). Everything GUI lives here and only calls into the
//! GUI-free library (games, grid, symmetry, files).
//!
//! State flow: [`Settings`] is the one saved struct; the rest of [`StudioApp`] is runtime.
//! Widgets and panels emit [`AppCommand`]s (board edits as [`EditCommand`]s), which
//! [`StudioApp::apply`] applies in one place — undo/redo lives in [`Editor::apply`]. Heavy
//! work (bot validation, state graphs, their layout, generation, interpolation) runs on workers ([`jobs`]) that report
//! over channels and wake the UI; the UI never waits.

pub mod analysis;
mod apply;
pub mod candidates;
pub mod canvas;
pub mod dialogs;
pub mod gauge;
pub mod generate_panel;
pub mod graph_view;
pub mod interpolation;
mod layout;
pub mod pack_strip;
pub mod palette;
pub mod panel;
pub mod playtest;
pub mod playtest_longcat;
pub mod playtest_match3;
pub mod recovery;
pub mod settings;
pub mod sidebar;
pub mod studio;

pub use crate::document::{board, editor, history, pack_doc};
pub use crate::jobs::{self, JobMode};
pub use editor::{EditCommand, Editor};
pub use panel::{AppCommand, PackCommand};
pub use settings::{Settings, StudioPaths};
pub use studio::StudioApp;

/// Wakes the window when a worker reports.
pub trait RepaintOnReport {
    /// Repaint `ctx` whenever a job of this worker reports.
    fn set_repaint(&mut self, ctx: &egui::Context);
}

impl<T: Send + 'static> RepaintOnReport for jobs::Worker<T> {
    fn set_repaint(&mut self, ctx: &egui::Context) {
        if !self.has_waker() {
            let ctx = ctx.clone();
            self.set_waker(move || ctx.request_repaint());
        }
    }
}

/// Opens the studio window and runs it until it is closed.
///
/// # Errors
/// eframe's error when no window or OpenGL context can be created (no display, no GL).
pub fn run_native() -> eframe::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Level Studio")
            .with_app_id("level-studio")
            .with_inner_size([1440.0, 900.0])
            .with_min_inner_size([900.0, 600.0])
            .with_drag_and_drop(true),
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(
        "level-studio",
        options,
        Box::new(|cc| Ok(Box::new(StudioApp::from_creation(cc)))),
    )
}
