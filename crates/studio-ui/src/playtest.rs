//! Playing the level under edit: the session a game's playtest widget keeps, and the entry a
//! game registers to start one.

use crate::palette;
use egui::{Pos2, Rect};
use std::any::Any;
use std::time::Instant;
use studio_core::document::board::Board;
use studio_core::game::{AsciiError, GameId};

/// Where a board was drawn last frame: its rectangle, cell size and the canvas cell at its
/// top-left corner.
#[derive(Clone, Copy, Debug)]
pub struct BoardView {
    /// The board's rectangle on screen.
    pub rect: Rect,
    /// The side of one cell, in points.
    pub cell: f32,
    /// The canvas cell drawn at the top-left corner.
    pub origin: (usize, usize),
}

impl BoardView {
    /// A board drawn in `rect` with cells of `cell` points, from canvas cell (0, 0).
    pub fn new(rect: Rect, cell: f32) -> Self {
        Self {
            rect,
            cell,
            origin: (0, 0),
        }
    }

    /// Screen centre of canvas cell `(x, y)`.
    pub fn cell_center(&self, x: usize, y: usize) -> Pos2 {
        let (ox, oy) = self.origin;
        self.rect.min
            + egui::Vec2::new(
                (x as f32 - ox as f32 + 0.5) * self.cell,
                (y as f32 - oy as f32 + 0.5) * self.cell,
            )
    }
}

/// What every attempt keeps, whatever the game: the level's cells (playtests are kept with
/// the level of these cells), when it started, and whether it already went to the level.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The level's cells.
    pub cells: Vec<String>,
    /// When the attempt started.
    pub started: Instant,
    /// True once the attempt went to the level (undo clears it: the attempt goes on).
    pub recorded: bool,
}

impl Attempt {
    /// A fresh attempt at the level of these cells.
    pub fn new(cells: Vec<String>) -> Self {
        Self {
            cells,
            started: Instant::now(),
            recorded: false,
        }
    }
}

/// The frame round a played board: green solved, red failed, grey while playing.
pub fn outcome_frame(painter: &egui::Painter, rect: Rect, outcome: Option<bool>) {
    let colour = match outcome {
        Some(true) => palette::GOOD,
        Some(false) => palette::BAD,
        None => egui::Color32::from_gray(90),
    };
    painter.rect_stroke(
        rect,
        3.0,
        egui::Stroke::new(3.0, colour),
        egui::StrokeKind::Outside,
    );
}

/// One game being played in the window.
pub trait PlaySession: Any {
    /// The game played.
    fn game(&self) -> GameId;
    /// The attempt's bookkeeping (the level's cells, when it started, whether it was kept).
    fn attempt(&self) -> &Attempt;
    /// The same, to mark the attempt kept.
    fn attempt_mut(&mut self) -> &mut Attempt;
    /// The buttons of the attempt as a script, for games played in real time (kept with the
    /// attempt so it can be played again); `None` by default.
    fn script(&self) -> Option<String> {
        None
    }
    /// Moves made.
    fn moves(&self) -> u32;
    /// `Some(true)` solved, `Some(false)` failed, `None` while playing.
    fn outcome(&self) -> Option<bool>;
    /// The line under the controls ("Solved in 12 moves!").
    fn message(&self) -> &str;
    /// The counters row ("Moves used: 3 / 39 · Red cleared: …").
    fn status_ui(&self, ui: &mut egui::Ui);
    /// The game's own buttons beside Restart (undo a move, skip an animation).
    fn controls_ui(&mut self, ui: &mut egui::Ui, animate: &mut bool);
    /// Starts again (games with chance deal anew from `seed`).
    fn restart(&mut self, seed: u64);
    /// Draws the board and handles play input.
    fn board_ui(&mut self, ui: &mut egui::Ui, animate: bool) -> BoardView;
}

/// Starts a session on the level under edit (`seed` deals games with chance); the error says
/// why the level cannot be played (a grid without its player: [`AsciiError::rule`] with the
/// game's own error).
pub type StartPlay = fn(&Board, u64) -> Result<Box<dyn PlaySession>, AsciiError>;

/// A game's bespoke playtest widget, added by its plug-in: games without one play through
/// their `PlayRules` in a generic widget.
#[derive(Clone, Copy, Debug)]
pub struct Playtest {
    /// The game it plays.
    pub game: GameId,
    /// Starts a session on the level under edit.
    pub start: StartPlay,
}
