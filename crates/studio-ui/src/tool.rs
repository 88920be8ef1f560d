//! Tool windows: a game's own windows beside the canvas (a lab, a latent map). A game
//! registers a [`Tool`]; the window makes one [`ToolWindow`] of each, lists it in the View
//! menu while the canvas shows that game, and draws it when open.

use std::any::Any;
use studio_core::game::{GameId, ModelCache};
use studio_core::generation::Candidate;
use studio_core::jobs::JobMode;
use studio_core::level::Level;

/// What a tool window sees of the studio while it draws.
pub struct ToolContext<'a> {
    /// The level on the canvas (of the tool's game).
    pub level: Option<&'a Level>,
    /// The studio's levels of the tool's game, named as the window lists them (the canvas,
    /// the pack, the candidates).
    pub sources: &'a [(String, Level)],
    /// The models the studio has loaded.
    pub models: &'a ModelCache,
}

/// What a tool window asks the studio to do.
#[derive(Clone, Debug)]
pub enum ToolAction {
    /// Add these levels to the candidates.
    OfferCandidates(Vec<Candidate>),
    /// Open this level on the canvas.
    LoadLevel(Level),
}

/// A game's window beside the canvas.
pub trait ToolWindow: Any {
    /// The game whose canvas shows it.
    fn game(&self) -> GameId;
    /// Its name in the View menu and its title ("Latent map").
    fn title(&self) -> &'static str;
    /// What it does, for the menu entry's tooltip.
    fn help(&self) -> &'static str;
    /// Shown.
    fn is_open(&self) -> bool;
    /// Shows or hides it.
    fn set_open(&mut self, open: bool);
    /// Takes what its workers reported (every frame, open or not).
    fn poll(&mut self, _ctx: &egui::Context) {}
    /// True while a worker of it is running (the window keeps repainting).
    fn busy(&self) -> bool {
        false
    }
    /// Draws it (when open), with the studio's levels; what it asks goes onto `actions`.
    fn ui(&mut self, ctx: &egui::Context, studio: &ToolContext<'_>, actions: &mut Vec<ToolAction>);
}

/// A tool window a game adds, made once per window.
#[derive(Clone, Copy, Debug)]
pub struct Tool {
    /// The game it belongs to.
    pub game: GameId,
    /// Makes it (closed), its jobs run as `mode` says (threads, or inline in tests).
    pub make: fn(JobMode) -> Box<dyn ToolWindow>,
    /// The generator names the candidates it sends carry (kept with them in the session).
    pub generators: &'static [&'static str],
}
