//! The playtest window: the designer plays the level under edit. Match-3: swap two
//! neighbouring tiles by click-click or drag; each cascade round is shown (cleared tiles
//! marked, then the board after gravity and refill) in short steps a click or Space skips;
//! moves used and red cleared count up; restart deals a new seed. Longcat: arrow keys, WASD or
//! a mouse swipe move the cat; undo takes back the last move; success and fail are shown.
//! Each finished attempt (and an abandoned one with moves) goes to the level as a
//! [`Playtest`] through [`AppCommand::RecordPlaytest`].

use super::board::Board as EditBoard;
use super::palette;
use super::panel::AppCommand;
pub use super::playtest_longcat::LongcatPlay;
pub use super::playtest_match3::{Match3Play, STEP_SECONDS};
use crate::level::Playtest;
use crate::longcat::LongcatLevel;
use crate::match3::rules::GOAL_RED;
use crate::match3::ValidationConfig;
use egui::{Pos2, Rect, Vec2};

/// Where a board was drawn last frame: its rectangle, cell size and the canvas cell at its
/// top-left corner.
#[derive(Clone, Copy, Debug)]
pub struct BoardView {
    pub(super) rect: Rect,
    pub(super) cell: f32,
    pub(super) origin: (usize, usize),
}

/// What is being played.
pub enum Play {
    /// Match-3.
    Match3(Box<Match3Play>),
    /// Longcat.
    Longcat(LongcatPlay),
}

/// The playtest window.
pub struct PlaytestWindow {
    /// Shown.
    pub open: bool,
    /// Animate cascades (tests turn it off for fixed results).
    pub animate: bool,
    /// The game in progress.
    pub play: Option<Play>,
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
    /// Why the level cannot be played (a Longcat grid without its head, …).
    pub fn start(&mut self, board: &EditBoard) -> Result<(), String> {
        let play = match board {
            EditBoard::Match3(layout) => {
                let seed = self.next_seed;
                self.next_seed += 1;
                Play::Match3(Box::new(Match3Play::new(layout, seed)))
            }
            EditBoard::Longcat(grid) => {
                let level = LongcatLevel::new(grid.clone()).map_err(|e| e.to_string())?;
                Play::Longcat(LongcatPlay::new(level))
            }
        };
        self.play = Some(play);
        self.open = true;
        Ok(())
    }

    /// The match-3 game, if one is played.
    pub fn match3(&self) -> Option<&Match3Play> {
        match &self.play {
            Some(Play::Match3(m)) => Some(m),
            _ => None,
        }
    }

    /// The Longcat game, if one is played.
    pub fn longcat(&self) -> Option<&LongcatPlay> {
        match &self.play {
            Some(Play::Longcat(l)) => Some(l),
            _ => None,
        }
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
        match self.play.as_mut()? {
            Play::Match3(m) => {
                if m.recorded || m.moves == 0 || (m.finished.is_none() && !force) {
                    return None;
                }
                m.recorded = true;
                Some(AppCommand::RecordPlaytest {
                    game: crate::match3::ID,
                    cells: m.cells.clone(),
                    attempt: Playtest {
                        moves: m.moves,
                        seconds: m.started.elapsed().as_secs_f64(),
                        solved: m.finished == Some(true),
                    },
                })
            }
            Play::Longcat(l) => {
                let outcome = l.outcome();
                if l.recorded || l.moves() == 0 || (outcome.is_none() && !force) {
                    return None;
                }
                l.recorded = true;
                Some(AppCommand::RecordPlaytest {
                    game: crate::longcat::ID,
                    cells: l.cells.clone(),
                    attempt: Playtest {
                        moves: l.moves(),
                        seconds: l.started.elapsed().as_secs_f64(),
                        solved: outcome == Some(true),
                    },
                })
            }
        }
    }

    fn restart(&mut self) {
        let seed = self.next_seed;
        self.next_seed += 1;
        match &mut self.play {
            Some(Play::Match3(m)) => {
                if let Ok(layout) = crate::match3::Layout::from_rows(&m.cells) {
                    **m = Match3Play::new(&layout, seed);
                    m.message = format!("New deal (seed {seed})");
                }
            }
            Some(Play::Longcat(l)) => *l = LongcatPlay::new(l.level.clone()),
            None => {}
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
        match &self.play {
            None => {
                ui.label("Nothing to play.");
                return;
            }
            Some(Play::Match3(m)) => {
                ui.horizontal(|ui| {
                    let limit = ValidationConfig::default().max_moves();
                    ui.label(format!("Moves used: {} / {limit}", m.moves));
                    ui.separator();
                    let (red, all) = m.shown_counts();
                    ui.label(format!("Red cleared: {red} / {GOAL_RED}"));
                    ui.separator();
                    ui.weak(format!("tiles {all}"));
                });
            }
            Some(Play::Longcat(l)) => {
                ui.horizontal(|ui| {
                    ui.label(format!("Moves: {}", l.moves()));
                    ui.separator();
                    ui.label(format!("Empty cells left: {}", l.state().empty_count()));
                });
            }
        }
        ui.horizontal(|ui| {
            if ui
                .button("Restart")
                .on_hover_text("Start again (match-3: a new seed)")
                .clicked()
            {
                restart = true;
            }
            if let Some(Play::Longcat(l)) = &mut self.play {
                if ui
                    .add_enabled(l.history.len() > 1, egui::Button::new("Undo move"))
                    .on_hover_text("Backspace or U")
                    .clicked()
                {
                    l.undo();
                }
            }
            if let Some(Play::Match3(m)) = &mut self.play {
                if m.animating() && ui.button("Skip").on_hover_text("Space").clicked() {
                    m.animation.clear();
                }
                ui.checkbox(&mut self.animate, "Animate");
            }
        });
        if restart {
            commands.extend(self.take_attempt(true));
            self.restart();
        }
        let (message, outcome) = match &self.play {
            Some(Play::Match3(m)) => (m.message.clone(), m.finished),
            Some(Play::Longcat(l)) => (l.message.clone(), l.outcome()),
            None => return,
        };
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
        self.board(ui);
        commands.extend(self.take_attempt(false));
    }

    fn board(&mut self, ui: &mut egui::Ui) {
        let view = match &mut self.play {
            Some(Play::Match3(m)) => m.board_ui(ui, self.animate),
            Some(Play::Longcat(l)) => l.board_ui(ui),
            None => return,
        };
        self.board_rect = view.rect;
        self.cell_size = view.cell;
        self.origin_cell = view.origin;
    }
}
