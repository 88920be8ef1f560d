//! A Longcat game in the playtest window: moves by arrow keys, WASD or a mouse swipe, undo of
//! the last move, and success, fail and dead ends as they happen.

use crate::{Direction, LongcatLevel, State};
use egui::{Key, Pos2, Rect, Sense, Vec2};
use studio_core::document::board::Board as EditBoard;
use studio_core::game::GameId;
use studio_ui::palette;
use studio_ui::{outcome_frame, Attempt, BoardView, PlaySession};

/// A Longcat game in progress.
pub struct LongcatPlay {
    pub(super) attempt: Attempt,
    pub(super) level: LongcatLevel,
    /// Every state so far, the start first.
    pub history: Vec<State>,
    swipe_from: Option<Pos2>,
    pub(super) message: String,
}

impl LongcatPlay {
    pub(super) fn new(level: LongcatLevel) -> Self {
        let cells = level.cells().to_rows();
        Self {
            history: vec![State::start(&level)],
            attempt: Attempt::new(cells),
            level,
            swipe_from: None,
            message: "Arrow keys or WASD (or swipe) to move".into(),
        }
    }

    /// The state now.
    pub fn state(&self) -> State {
        self.history
            .last()
            .copied()
            .unwrap_or_else(|| State::start(&self.level))
    }

    /// Moves made.
    pub fn moves(&self) -> u32 {
        (self.history.len() - 1) as u32
    }

    /// `Some(true)` on success, `Some(false)` on a fail, `None` while playing.
    pub fn outcome(&self) -> Option<bool> {
        let s = self.state();
        if s.is_success() {
            Some(true)
        } else if s.is_fail() {
            Some(false)
        } else {
            None
        }
    }

    pub(super) fn step(&mut self, direction: Direction) {
        if self.outcome().is_some() {
            return;
        }
        match self.state().apply(direction) {
            Some(next) => {
                self.history.push(next);
                self.message = if next.is_success() {
                    format!("Solved in {} moves!", self.moves())
                } else if next.is_fail() {
                    "Stuck: no move left (undo or restart)".into()
                } else if next.is_dead() {
                    "Dead end: this can no longer be solved".into()
                } else {
                    format!("{} moves", self.moves())
                };
            }
            None => self.message = format!("Cannot move {direction:?}"),
        }
    }

    pub(super) fn undo(&mut self) {
        if self.history.len() > 1 {
            self.history.pop();
            self.attempt.recorded = false;
            self.message = format!("Undone: {} moves", self.moves());
        }
    }

    /// Draws the board and takes keys and swipes; returns where it was drawn.
    fn draw(&mut self, ui: &mut egui::Ui) -> BoardView {
        let l = self;
        if !ui.ctx().egui_wants_keyboard_input() {
            let pressed = ui.input(|i| {
                let dir = [
                    ([Key::ArrowUp, Key::W], Direction::Up),
                    ([Key::ArrowDown, Key::S], Direction::Down),
                    ([Key::ArrowLeft, Key::A], Direction::Left),
                    ([Key::ArrowRight, Key::D], Direction::Right),
                ];
                let moves: Vec<Direction> = dir
                    .iter()
                    .filter(|(keys, _)| {
                        keys.iter().any(|&k| i.key_pressed(k)) && i.modifiers.is_none()
                    })
                    .map(|(_, d)| *d)
                    .collect();
                let undo = i.key_pressed(Key::Backspace) || i.key_pressed(Key::U);
                (moves, undo)
            });
            if pressed.1 {
                l.undo();
            }
            for d in pressed.0 {
                l.step(d);
            }
        }
        let state = l.state();
        let (w, h) = (state.width(), state.height());
        let avail = ui.available_size().max(Vec2::splat(200.0));
        let cell = (avail.x / w as f32)
            .min(avail.y / h as f32)
            .clamp(16.0, 56.0);
        let (rect, response) = ui.allocate_exact_size(
            Vec2::new(w as f32, h as f32) * cell,
            Sense::click_and_drag(),
        );
        let view = BoardView {
            rect,
            cell,
            origin: (0, 0),
        };
        let painter = ui.painter_at(rect);
        let grid = state.render();
        for y in 0..h {
            for x in 0..w {
                let r = Rect::from_min_size(
                    rect.min + Vec2::new(x as f32, y as f32) * cell,
                    Vec2::splat(cell),
                )
                .shrink(1.0);
                palette::paint_look(&painter, r, crate::rules::cell_look(grid.get(x, y)));
            }
        }
        outcome_frame(&painter, rect, l.outcome());
        // Mouse swipes.
        if response.drag_started() {
            l.swipe_from = response.interact_pointer_pos();
        }
        if response.drag_stopped() {
            if let (Some(from), Some(to)) =
                (l.swipe_from.take(), ui.input(|i| i.pointer.latest_pos()))
            {
                let d = to - from;
                if d.length() > cell * 0.5 {
                    let dir = if d.x.abs() > d.y.abs() {
                        if d.x > 0.0 {
                            Direction::Right
                        } else {
                            Direction::Left
                        }
                    } else if d.y > 0.0 {
                        Direction::Down
                    } else {
                        Direction::Up
                    };
                    l.step(dir);
                }
            }
        }
        view
    }
}

/// A Longcat session on the board, when the board is a Longcat level.
/// A session on the level under edit.
///
/// # Errors
/// [`AsciiError`](studio_core::game::AsciiError): the level breaks the game's rules, in words.
pub fn start(
    board: &EditBoard,
    _seed: u64,
) -> Result<Box<dyn PlaySession>, studio_core::game::AsciiError> {
    LongcatLevel::from_rows(&board.to_rows())
        .map(|level| Box::new(LongcatPlay::new(level)) as Box<dyn PlaySession>)
        .map_err(studio_core::game::AsciiError::rule)
}

impl PlaySession for LongcatPlay {
    fn game(&self) -> GameId {
        crate::ID
    }

    fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    fn attempt_mut(&mut self) -> &mut Attempt {
        &mut self.attempt
    }

    fn moves(&self) -> u32 {
        LongcatPlay::moves(self)
    }

    fn outcome(&self) -> Option<bool> {
        LongcatPlay::outcome(self)
    }

    fn message(&self) -> &str {
        &self.message
    }

    fn status_ui(&self, ui: &mut egui::Ui) {
        ui.label(format!("Moves: {}", LongcatPlay::moves(self)));
        ui.separator();
        ui.label(format!("Empty cells left: {}", self.state().empty_count()));
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, _animate: &mut bool) {
        if ui
            .add_enabled(self.history.len() > 1, egui::Button::new("Undo move"))
            .on_hover_text("Backspace or U")
            .clicked()
        {
            self.undo();
        }
    }

    fn restart(&mut self, _seed: u64) {
        *self = LongcatPlay::new(self.level.clone());
    }

    fn board_ui(&mut self, ui: &mut egui::Ui, _animate: bool) -> BoardView {
        self.draw(ui)
    }
}
