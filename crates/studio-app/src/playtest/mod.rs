//! The playtest window: the designer plays the level under edit, through the game's
//! [`PlaySession`] (a game's own session and board widget come from its crate, registered as
//! a [`studio_ui::Playtest`]: its own board widget, animations and controls; other games play through their `PlayRules` in [`rules`]). The window shows the counters, restart, the game's own controls and the result.
//! Each finished attempt (and an abandoned one with moves) goes to the level as a
//! [`Playtest`] through [`AppCommand::RecordPlaytest`].

pub mod rules;

pub use studio_ui::{outcome_frame, Attempt, BoardView, PlaySession};

use crate::board::Board as EditBoard;
use crate::studio::panel::AppCommand;
use egui::{Pos2, Rect, Vec2};
use std::any::Any;
use studio_core::game::AsciiError;
use studio_core::level::Playtest;
use studio_ui::palette;

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

/// Why a playtest did not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaytestError {
    /// The game has neither a playtest widget nor play rules.
    #[error("{game} has no playtest yet")]
    NoPlaytest {
        /// The game's name.
        game: &'static str,
    },
    /// The level breaks the game's rules.
    #[error(transparent)]
    Level(#[from] AsciiError),
}

impl PlaytestWindow {
    /// Starts playing `board` (the level under edit).
    ///
    /// # Errors
    /// [`PlaytestError`]: why the level cannot be played (a grid without its player, a game
    /// without a playtest).
    pub fn start(&mut self, board: &EditBoard) -> Result<(), PlaytestError> {
        let seed = self.next_seed;
        let play = studio_core::game::registry::entries::<studio_ui::Playtest>()
            .iter()
            .find(|p| p.game == board.game())
            .map(|p| (p.start)(board, seed))
            .or_else(|| rules::start(board, seed))
            .ok_or(PlaytestError::NoPlaytest {
                game: board.rules().name(),
            })??;
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

    /// The same, to change it (tests steer a game's own session).
    pub fn session_mut<T: PlaySession>(&mut self) -> Option<&mut T> {
        let play: &mut dyn Any = self.play.as_deref_mut()?;
        play.downcast_mut::<T>()
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
        let (game, moves, script) = (play.game(), play.moves(), play.script());
        let attempt = play.attempt_mut();
        attempt.recorded = true;
        Some(AppCommand::RecordPlaytest {
            game,
            cells: attempt.cells.clone(),
            attempt: Playtest {
                moves,
                seconds: attempt.started.elapsed().as_secs_f64(),
                solved: outcome == Some(true),
                script,
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
