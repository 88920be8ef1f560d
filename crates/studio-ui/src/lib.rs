//! The UI toolkit a game's window parts are written against: the studio's [`palette`] and
//! small [`widgets`], a playtest session ([`PlaySession`], started by a registered
//! [`Playtest`]) and a tool window ([`ToolWindow`], made by a registered [`Tool`]). A game
//! crate builds these behind its `ui` feature and adds them in its plug-in
//! ([`RegisterWindowParts`]); the window (`studio-app`) shows them without naming a game.

pub mod palette;
mod playtest;
mod tool;
pub mod widgets;

pub use playtest::{outcome_frame, Attempt, BoardView, PlaySession, Playtest, StartPlay};
pub use tool::{Tool, ToolAction, ToolContext, ToolWindow};

use studio_core::jobs;

/// How a plug-in adds its window parts to the registry.
pub trait RegisterWindowParts {
    /// Adds the game's bespoke playtest widget.
    ///
    /// # Panics
    /// When the game has a playtest already (said at start, never ignored).
    fn add_playtest(&mut self, playtest: Playtest);

    /// Adds a tool window of the game (listed in the View menu while it is on the canvas).
    fn add_tool(&mut self, tool: Tool);
}

impl RegisterWindowParts for studio_core::game::registry::Registry {
    fn add_playtest(&mut self, playtest: Playtest) {
        let name = format!("the playtest of {}", playtest.game);
        self.add_shell_entry(playtest, vec![name]);
    }

    fn add_tool(&mut self, tool: Tool) {
        self.add_shell_entry(tool, Vec::new());
    }
}

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
