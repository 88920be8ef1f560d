//! The playtest window: the designer plays the level under edit, through the game's
//! [`PlaySession`] (each game's session and its board widget live in a file named after the
//! game: `match3.rs` swaps tiles and animates cascades, `longcat.rs` moves
//! the cat). The window shows the counters, restart, the game's own controls and the result.
//! Each finished attempt (and an abandoned one with moves) goes to the level as a
//! [`Playtest`] through [`AppCommand::RecordPlaytest`].

pub mod longcat;
pub mod mario;
pub mod match3;
pub mod rules;

use crate::app::board::Board as EditBoard;
use crate::app::editor::palette;
use crate::app::studio::panel::AppCommand;
use crate::game::GameId;
use crate::level::Playtest;
use egui::{Pos2, Rect, Vec2};
use std::any::Any;
use std::time::Instant;

/// Where a board was drawn last frame: its rectangle, cell size and the canvas cell at its
/// top-left corner.
#[derive(Clone, Copy, Debug)]
pub struct BoardView {
    pub(super) rect: Rect,
    pub(super) cell: f32,
    pub(super) origin: (usize, usize),
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
pub(super) fn outcome_frame(painter: &egui::Painter, rect: Rect, outcome: Option<bool>) {
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

/// Starts a session on a board, when the game has one: `None` when the board is not of the
/// starter's game.
type Starter = fn(&EditBoard, u64) -> Option<Result<Box<dyn PlaySession>, String>>;

/// The games with a bespoke playtest widget, one line each (their files are named after
/// them); other games play through their [`PlayRules`](crate::game::PlayRules).
const STARTERS: [Starter; 3] = [match3::start, longcat::start, mario::start];

/// The playtest window.
pub struct PlaytestWindow {
    /// Shown.
    pub open: bool,
    /// Animate (tests turn it off for fixed results).
    pub animate: bool,
    /// The game in progress.
    pub play: Option<Box<dyn PlaySession>>,
    board_rect: Rect,
    cell_size: f32,
    origin_cell: (usize, usize),
    next_seed: u64,
}

impl Default for PlaytestWindow {
    fn default() -> Self {
        Self {
            open: false,
            animate: true,
            play: None,
            board_rect: Rect::NOTHING,
            cell_size: 0.0,
            origin_cell: (0, 0),
            next_seed: 1,
        }
    }
}

impl PlaytestWindow {
    /// Starts playing `board` (the level under edit).
    ///
    /// # Errors
    /// Why the level cannot be played (a Longcat grid without its head, a game without a
    /// playtest, …).
    pub fn start(&mut self, board: &EditBoard) -> Result<(), String> {
        let seed = self.next_seed;
        let play = STARTERS
            .iter()
            .find_map(|start| start(board, seed))
            .or_else(|| rules::start(board, seed))
            .unwrap_or_else(|| Err(format!("{} has no playtest yet", board.rules().name())))?;
        self.next_seed += 1;
        self.play = Some(play);
        self.open = true;
        Ok(())
    }

    /// The session in progress, if it is a `T` (tests read the game's own state).
    pub fn session<T: PlaySession>(&self) -> Option<&T> {
        let play: &dyn Any = self.play.as_deref()?;
        play.downcast_ref::<T>()
    }

    /// Screen centre of canvas cell `(x, y)` as drawn last frame (tests click there).
    pub fn cell_center(&self, x: usize, y: usize) -> Pos2 {
        let (ox, oy) = self.origin_cell;
        self.board_rect.min
            + Vec2::new(
                (x as f32 - ox as f32 + 0.5) * self.cell_size,
                (y as f32 - oy as f32 + 0.5) * self.cell_size,
            )
    }

    /// The attempt in progress, ended now (before another level is played), as a record.
    pub(super) fn abandon(&mut self) -> Option<AppCommand> {
        self.take_attempt(true)
    }

    /// The attempt in progress as a record, when it has moves and is not recorded yet.
    fn take_attempt(&mut self, force: bool) -> Option<AppCommand> {
        let play = self.play.as_mut()?;
        let outcome = play.outcome();
        if play.attempt().recorded || play.moves() == 0 || (outcome.is_none() && !force) {
            return None;
        }
        let (game, moves) = (play.game(), play.moves());
        let attempt = play.attempt_mut();
        attempt.recorded = true;
        Some(AppCommand::RecordPlaytest {
            game,
            cells: attempt.cells.clone(),
            attempt: Playtest {
                moves,
                seconds: attempt.started.elapsed().as_secs_f64(),
                solved: outcome == Some(true),
            },
        })
    }

    fn restart(&mut self) {
        let seed = self.next_seed;
        self.next_seed += 1;
        if let Some(play) = &mut self.play {
            play.restart(seed);
        }
    }

    /// Draws the window and handles play; finished attempts go onto `commands`.
    pub fn ui(&mut self, ctx: &egui::Context, commands: &mut Vec<AppCommand>) {
        if !self.open {
            return;
        }
        let mut open = true;
        egui::Window::new("Playtest")
            .open(&mut open)
            .default_size([460.0, 560.0])
            .default_pos([500.0, 80.0])
            .show(ctx, |ui| self.contents(ui, commands));
        if !open {
            commands.extend(self.take_attempt(true));
            self.open = false;
            self.play = None;
        }
    }

    fn contents(&mut self, ui: &mut egui::Ui, commands: &mut Vec<AppCommand>) {
        let mut restart = false;
        let Some(play) = self.play.as_mut() else {
            ui.label("Nothing to play.");
            return;
        };
        ui.horizontal(|ui| play.status_ui(ui));
        ui.horizontal(|ui| {
            if ui
                .button("Restart")
                .on_hover_text("Start again (games with chance deal anew)")
                .clicked()
            {
                restart = true;
            }
            play.controls_ui(ui, &mut self.animate);
        });
        if restart {
            commands.extend(self.take_attempt(true));
            self.restart();
        }
        let Some(play) = self.play.as_mut() else {
            return;
        };
        let (message, outcome) = (play.message().to_string(), play.outcome());
        let colour = match outcome {
            Some(true) => palette::GOOD,
            Some(false) => palette::BAD,
            None => ui.visuals().text_color(),
        };
        let banner = match outcome {
            Some(true) => format!("SUCCESS · {message}"),
            Some(false) => format!("FAIL · {message}"),
            None => message,
        };
        ui.colored_label(colour, banner);
        let view = play.board_ui(ui, self.animate);
        self.board_rect = view.rect;
        self.cell_size = view.cell;
        self.origin_cell = view.origin;
        commands.extend(self.take_attempt(false));
    }
}
