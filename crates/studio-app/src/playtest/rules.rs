//! The playtest of a game without a bespoke widget: it draws what the game's
//! [`PlayRules`] show and turns keys and clicks into moves (arrow keys or WASD, a click, or a
//! click on two neighbours to swap them), with undo where the game has it.

use super::{outcome_frame, Attempt, BoardView, PlaySession};
use crate::board::Board as EditBoard;
use egui::{Key, Rect, Sense, Stroke, StrokeKind, Vec2};
use studio_core::game::{AsciiError, GameId, Heading, PlayInput, PlayMove, PlayRules, PlayStatus};
use studio_core::level::Level;
use studio_ui::palette;

/// Width of the row names left of a board whose rows are named (the course's HP bar).
const ROW_NAMES_WIDTH: f32 = 70.0;

/// A game played through its rules.
pub struct RulesPlay {
    level: Level,
    rules: Box<dyn PlayRules>,
    status: PlayStatus,
    selected: Option<(usize, usize)>,
    attempt: Attempt,
}

/// A session through the game's [`PlayRules`], when the game offers them.
pub(super) fn start(
    board: &EditBoard,
    seed: u64,
) -> Option<Result<Box<dyn PlaySession>, AsciiError>> {
    let level = board.to_level("playtest", &[]);
    let rules = board.rules().play(&level, seed)?;
    Some(rules.map(|rules| {
        Box::new(RulesPlay {
            status: rules.status(),
            attempt: Attempt::new(level.cells.clone()),
            level,
            rules,
            selected: None,
        }) as Box<dyn PlaySession>
    }))
}

impl RulesPlay {
    fn play(&mut self, mv: PlayMove) {
        if self.status.outcome.is_none() && self.rules.apply(mv) {
            self.status = self.rules.status();
        }
    }

    fn keys(&mut self, ui: &egui::Ui) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        let (headings, undo, act, wait) = ui.input(|i| {
            let keys = [
                ([Key::ArrowUp, Key::W], Heading::Up),
                ([Key::ArrowDown, Key::S], Heading::Down),
                ([Key::ArrowLeft, Key::A], Heading::Left),
                ([Key::ArrowRight, Key::D], Heading::Right),
            ];
            let headings: Vec<Heading> = keys
                .iter()
                .filter(|(k, _)| k.iter().any(|&k| i.key_pressed(k)) && i.modifiers.is_none())
                .map(|(_, h)| *h)
                .collect();
            (
                headings,
                i.key_pressed(Key::Backspace) || i.key_pressed(Key::U),
                i.key_pressed(Key::Space) && i.modifiers.is_none(),
                i.key_pressed(Key::Period) && i.modifiers.is_none(),
            )
        });
        if undo && self.rules.undo() {
            self.status = self.rules.status();
            self.attempt.recorded = false;
        }
        if self.rules.input() == PlayInput::Directions {
            for h in headings {
                self.play(PlayMove::Go(h));
            }
            if act {
                self.play(PlayMove::Act);
            }
            if wait {
                self.play(PlayMove::Wait);
            }
        }
    }

    fn clicked(&mut self, cell: (usize, usize)) {
        match self.rules.input() {
            PlayInput::Click => self.play(PlayMove::Click(cell.0, cell.1)),
            PlayInput::Swap => match self.selected.take() {
                Some(a) if a.0.abs_diff(cell.0) + a.1.abs_diff(cell.1) == 1 => {
                    self.play(PlayMove::Swap(a, cell));
                }
                _ => self.selected = Some(cell),
            },
            PlayInput::Directions => {}
        }
    }
}

impl PlaySession for RulesPlay {
    fn game(&self) -> GameId {
        self.level.game
    }

    fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    fn attempt_mut(&mut self) -> &mut Attempt {
        &mut self.attempt
    }

    fn moves(&self) -> u32 {
        self.status.moves
    }

    fn outcome(&self) -> Option<bool> {
        self.status.outcome
    }

    fn message(&self) -> &str {
        &self.status.message
    }

    fn status_ui(&self, ui: &mut egui::Ui) {
        ui.label(format!("Moves: {}", self.status.moves));
        for (name, value) in &self.status.counters {
            ui.separator();
            ui.label(format!("{name}: {value}"));
        }
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, _animate: &mut bool) {
        if ui
            .add_enabled(self.status.moves > 0, egui::Button::new("Undo move"))
            .on_hover_text("Backspace or U (where the game allows it)")
            .clicked()
            && self.rules.undo()
        {
            self.status = self.rules.status();
            self.attempt.recorded = false;
        }
    }

    fn restart(&mut self, seed: u64) {
        let game = self.level.game.game();
        if let Some(Ok(rules)) = game.ok().and_then(|g| g.play(&self.level, seed)) {
            self.status = rules.status();
            self.rules = rules;
            self.selected = None;
            self.attempt = Attempt::new(self.level.cells.clone());
        }
    }

    fn board_ui(&mut self, ui: &mut egui::Ui, _animate: bool) -> BoardView {
        self.keys(ui);
        let view = self.rules.view();
        let (w, h) = (view.width().max(1), view.height().max(1));
        // Rows that are not a map are named on the left (the course's events and HP bar).
        let names = self.rules.row_names();
        let names_w = if names.is_empty() {
            0.0
        } else {
            ROW_NAMES_WIDTH
        };
        let avail = ui.available_size().max(Vec2::splat(200.0));
        let cell = ((avail.x - names_w) / w as f32)
            .min(avail.y / h as f32)
            .clamp(16.0, 56.0);
        let (whole, response) = ui.allocate_exact_size(
            Vec2::new(names_w + w as f32 * cell, h as f32 * cell),
            Sense::click(),
        );
        let rect = Rect::from_min_max(whole.min + Vec2::new(names_w, 0.0), whole.max);
        if !names.is_empty() {
            let painter = ui.painter_at(whole);
            for (y, name) in names.iter().enumerate().take(h) {
                painter.text(
                    egui::pos2(rect.left() - 8.0, rect.top() + (y as f32 + 0.5) * cell),
                    egui::Align2::RIGHT_CENTER,
                    name,
                    egui::FontId::proportional(13.0),
                    ui.visuals().text_color(),
                );
            }
        }
        let painter = ui.painter_at(rect);
        for (x, y, look) in view.iter() {
            let r = Rect::from_min_size(
                rect.min + Vec2::new(x as f32, y as f32) * cell,
                Vec2::splat(cell),
            )
            .shrink(1.0);
            palette::paint_look(&painter, r, look);
            if self.selected == Some((x, y)) {
                painter.rect_stroke(
                    r,
                    2.0,
                    Stroke::new(2.5, palette::ACCENT),
                    StrokeKind::Inside,
                );
            }
        }
        outcome_frame(&painter, rect, self.status.outcome);
        if response.clicked() {
            if let Some(p) = response
                .interact_pointer_pos()
                .filter(|p| rect.contains(*p))
            {
                let rel = (p - rect.min) / cell;
                let (x, y) = (rel.x.floor() as usize, rel.y.floor() as usize);
                if x < w && y < h {
                    self.clicked((x, y));
                }
            }
        }
        BoardView {
            rect,
            cell,
            origin: (0, 0),
        }
    }
}
