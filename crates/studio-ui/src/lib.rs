//! The UI toolkit a game's window parts are written against: the studio's [`palette`] and
//! small [`widgets`], a playtest session ([`PlaySession`], started by a registered
//! [`Playtest`]) and a tool window ([`ToolWindow`], made by a registered [`Tool`]). A game
//! crate builds these behind its `ui` feature and adds them in its plug-in
//! ([`Registry::add`](studio_core::game::registry::Registry::add)); the window (`studio-app`)
//! shows them without naming a game.

pub mod palette;
mod playtest;
mod tool;
pub mod widgets;

pub use playtest::{outcome_frame, Attempt, BoardView, PlaySession, Playtest, StartPlay};
pub use tool::{Tool, ToolAction, ToolContext, ToolWindow};

use studio_core::jobs;

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
