//! A match-3 game in the playtest window: swaps by click-click or drag, cascades shown round by
//! round (cleared tiles marked, then the board after gravity and refill), the move and red
//! counters, and the end of the attempt (goal reached, out of moves, stuck).

use crate::layout::{Rect as AreaRect, CANVAS_CELLS, CANVAS_WIDTH};
use crate::rules::{CascadeStep, Geometry, PlayBoard, Swap, COLOURS, GOAL_RED, RED};
use crate::Match3Game;
use crate::ValidationConfig;
use egui::{Color32, Key, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use std::collections::VecDeque;
use studio_core::document::board::Board as EditBoard;
use studio_core::game::GameId;
use studio_core::rng::Rng;
use studio_ui::palette;
use studio_ui::{Attempt, BoardView, PlaySession};

/// Seconds each half of a cascade round is shown.
pub const STEP_SECONDS: f64 = 0.18;

/// Colours of the four match-3 tile colours (red first).
const TILE_COLOURS: [Color32; 4] = [
    Color32::from_rgb(226, 72, 72),
    Color32::from_rgb(84, 186, 96),
    Color32::from_rgb(76, 132, 232),
    Color32::from_rgb(240, 160, 60),
];

/// A match-3 game in progress.
pub struct Match3Play {
    pub(super) attempt: Attempt,
    layout: crate::Layout,
    geometry: Geometry,
    area: AreaRect,
    tiles: [u8; CANVAS_CELLS],
    seed: u64,
    /// Moves made.
    pub moves: u32,
    /// Red tiles cleared (the goal is [`GOAL_RED`]).
    pub red: u32,
    /// All tiles cleared.
    pub cleared: u32,
    selected: Option<usize>,
    drag_from: Option<usize>,
    pub(super) animation: VecDeque<(CascadeStep, bool)>,
    phase_started: Option<f64>,
    /// `Some(solved)` once the attempt ended.
    pub finished: Option<bool>,
    pub(super) message: String,
}

fn colour_name(c: u8) -> Color32 {
    TILE_COLOURS
        .get(c as usize)
        .copied()
        .unwrap_or(Color32::DARK_GRAY)
}

impl Match3Play {
    pub(super) fn new(layout: &crate::Layout, seed: u64) -> Self {
        let geometry = Geometry::new(layout);
        let mut board = PlayBoard::new(&geometry, Rng::new(seed));
        if !board.has_legal_move() {
            board.reshuffle();
        }
        let tiles = *board.tiles();
        Self {
            attempt: Attempt::new(layout.to_rows()),
            layout: layout.clone(),
            area: layout.play_area(),
            tiles,
            seed,
            geometry,
            moves: 0,
            red: 0,
            cleared: 0,
            selected: None,
            drag_from: None,
            animation: VecDeque::new(),
            phase_started: None,
            finished: None,
            message: "Click a tile, then a neighbour to swap them".into(),
        }
    }

    /// The tiles as shown now (mid-animation: the round's board).
    pub fn tiles(&self) -> &[u8; CANVAS_CELLS] {
        match self.animation.front() {
            Some((step, false)) => &step.before,
            Some((step, true)) => &step.after,
            None => &self.tiles,
        }
    }

    /// A legal swap as canvas cells, if any (tests play it).
    pub fn legal_move(&self) -> Option<((usize, usize), (usize, usize))> {
        let mut board = PlayBoard::with_tiles(&self.geometry, self.tiles, Rng::new(0));
        board.legal_moves().first().map(|s| s.cells())
    }

    /// (red, all) tiles cleared as far as the cascade on screen has got: rounds not shown yet
    /// are not counted yet.
    pub fn shown_counts(&self) -> (u32, u32) {
        let (mut red, mut all) = (self.red, self.cleared);
        for (step, _) in self.animation.iter().skip(1).filter(|(_, after)| !after) {
            all -= step.cleared.len() as u32;
            red -= step
                .cleared
                .iter()
                .filter(|&&i| step.before[i] == RED)
                .count() as u32;
        }
        (red, all)
    }

    /// True while a cascade is being shown.
    pub fn animating(&self) -> bool {
        !self.animation.is_empty()
    }

    pub(super) fn try_swap(&mut self, a: usize, b: usize, animate: bool) {
        let ((ax, ay), (bx, by)) = (
            (a % CANVAS_WIDTH, a / CANVAS_WIDTH),
            (b % CANVAS_WIDTH, b / CANVAS_WIDTH),
        );
        if ax.abs_diff(bx) + ay.abs_diff(by) != 1 {
            self.selected = Some(b);
            return;
        }
        self.selected = None;
        let swap = Swap {
            a: a.min(b),
            b: a.max(b),
        };
        let mut board = PlayBoard::with_tiles(
            &self.geometry,
            self.tiles,
            Rng::derive(self.seed, u64::from(self.moves) + 1),
        );
        let mut steps = Vec::new();
        let Some(report) = board.play(swap, Some(&mut steps)) else {
            self.message = "No match: that swap is not a move".into();
            return;
        };
        self.moves += 1;
        self.red += report.red;
        self.cleared += report.total;
        let stuck = !board.has_legal_move() && !board.reshuffle();
        self.tiles = *board.tiles();
        self.message = if report.rounds > 1 {
            format!(
                "Cascade of {} rounds, {} tiles",
                report.rounds, report.total
            )
        } else {
            format!("{} tiles cleared", report.total)
        };
        if animate {
            self.animation = steps
                .into_iter()
                .flat_map(|s| [(s.clone(), false), (s, true)])
                .collect();
            self.phase_started = None;
        }
        let limit = ValidationConfig::default().max_moves();
        if self.red >= GOAL_RED {
            self.finished = Some(true);
            self.message = format!("Goal reached in {} moves!", self.moves);
        } else if self.moves >= limit {
            self.finished = Some(false);
            self.message = format!("Out of moves ({limit})");
        } else if stuck {
            self.finished = Some(false);
            self.message = "No move left, even after reshuffling".into();
        }
    }

    /// Draws the board, runs the cascade animation and takes swaps; returns where it was
    /// drawn.
    fn draw(&mut self, ui: &mut egui::Ui, animate: bool) -> BoardView {
        let m = self;
        let now = ui.input(|i| i.time);
        // Cascade animation: advance by time, skip on Space or a click.
        if !m.animation.is_empty() {
            let skip = ui.input(|i| i.key_pressed(Key::Space) || i.pointer.primary_clicked());
            if skip || !animate {
                m.animation.clear();
            } else {
                let started = *m.phase_started.get_or_insert(now);
                if now - started >= STEP_SECONDS {
                    m.animation.pop_front();
                    m.phase_started = Some(now);
                }
                ui.ctx().request_repaint();
            }
        }
        let area = m.area;
        let avail = ui.available_size().max(Vec2::splat(200.0));
        let cell = (avail.x / area.width as f32)
            .min(avail.y / area.height as f32)
            .clamp(16.0, 56.0);
        let size = Vec2::new(area.width as f32, area.height as f32) * cell;
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        let view = BoardView {
            rect,
            cell,
            origin: (area.x, area.y),
        };
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 4.0, palette::CANVAS_BG);
        let cleared: &[usize] = match m.animation.front() {
            Some((s, false)) => &s.cleared,
            _ => &[],
        };
        let tiles = *m.tiles();
        let cell_index = |p: Pos2| -> Option<usize> {
            let rel = (p - rect.min) / cell;
            if rel.x < 0.0 || rel.y < 0.0 {
                return None;
            }
            let (x, y) = (rel.x as usize + area.x, rel.y as usize + area.y);
            (x < area.x + area.width && y < area.y + area.height).then_some(y * CANVAS_WIDTH + x)
        };
        for y in area.y..area.y + area.height {
            for x in area.x..area.x + area.width {
                let i = y * CANVAS_WIDTH + x;
                let r = Rect::from_min_size(
                    rect.min + Vec2::new((x - area.x) as f32, (y - area.y) as f32) * cell,
                    Vec2::splat(cell),
                );
                let t = tiles[i];
                if t >= COLOURS {
                    // No tile: BLOCK is solid, GAP (tiles fall through) is hatched.
                    match m.layout.get(x, y) {
                        crate::Cell::Gap => {
                            let gap = crate::layout::GAP;
                            palette::paint_tile(&painter, r.shrink(1.0), &Match3Game, gap)
                        }
                        _ => {
                            painter.rect_filled(r.shrink(0.5), 2.0, Color32::from_rgb(36, 38, 46));
                        }
                    }
                    continue;
                }
                painter.rect_filled(r.shrink(0.5), 2.0, Color32::from_gray(52));
                let mut c = colour_name(t);
                if cleared.contains(&i) {
                    c = c.gamma_multiply(0.35);
                    painter.rect_stroke(
                        r.shrink(2.0),
                        3.0,
                        Stroke::new(2.0, Color32::WHITE),
                        StrokeKind::Inside,
                    );
                }
                painter.circle_filled(r.center(), cell * 0.36, c);
                if m.selected == Some(i) {
                    painter.rect_stroke(
                        r.shrink(1.0),
                        3.0,
                        Stroke::new(2.5, palette::ACCENT),
                        StrokeKind::Inside,
                    );
                }
            }
        }
        if m.finished.is_some() || m.animating() {
            return view;
        }
        let pointer = response.interact_pointer_pos();
        if response.drag_started() {
            m.drag_from = pointer.and_then(cell_index);
        }
        if response.drag_stopped() {
            let to = ui.input(|i| i.pointer.latest_pos()).and_then(cell_index);
            if let (Some(a), Some(b)) = (m.drag_from.take(), to) {
                if a != b {
                    m.try_swap(a, b, animate);
                    return view;
                }
            }
        }
        if response.clicked() {
            if let Some(i) = pointer.and_then(cell_index).filter(|&i| tiles[i] < COLOURS) {
                match m.selected {
                    Some(s) if s == i => m.selected = None,
                    Some(s) => m.try_swap(s, i, animate),
                    None => m.selected = Some(i),
                }
            }
        }
        view
    }
}

/// A match-3 session on the board, when the board is a match-3 layout.
/// A session on the level under edit.
///
/// # Errors
/// [`AsciiError`](studio_core::game::AsciiError): the level breaks the game's rules, in words.
pub fn start(
    board: &EditBoard,
    seed: u64,
) -> Result<Box<dyn PlaySession>, studio_core::game::AsciiError> {
    crate::Layout::from_rows(&board.to_rows())
        .map(|layout| Box::new(Match3Play::new(&layout, seed)) as Box<dyn PlaySession>)
        .map_err(studio_core::game::AsciiError::rule)
}

impl PlaySession for Match3Play {
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
        self.moves
    }

    fn outcome(&self) -> Option<bool> {
        self.finished
    }

    fn message(&self) -> &str {
        &self.message
    }

    fn status_ui(&self, ui: &mut egui::Ui) {
        let config = ValidationConfig::default();
        ui.label(format!(
            "Moves used: {} / {}",
            self.moves,
            config.max_moves()
        ))
        .on_hover_text(format!(
            "A valid level takes the bots {} moves or fewer (median); an attempt ends at {}, \
                 as the bots' games do",
            config.limit,
            config.max_moves()
        ));
        ui.separator();
        let (red, all) = self.shown_counts();
        ui.label(format!("Red cleared: {red} / {GOAL_RED}"));
        ui.separator();
        ui.weak(format!("tiles {all}"));
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, animate: &mut bool) {
        if self.animating() && ui.button("Skip").on_hover_text("Space").clicked() {
            self.animation.clear();
        }
        ui.checkbox(animate, "Animate");
    }

    fn restart(&mut self, seed: u64) {
        *self = Match3Play::new(&self.layout, seed);
        self.message = format!("New deal (seed {seed})");
    }

    fn board_ui(&mut self, ui: &mut egui::Ui, animate: bool) -> BoardView {
        self.draw(ui, animate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Layout;

    #[test]
    fn counters_follow_the_cascade_on_screen_and_a_bad_swap_is_refused() {
        let layout = Layout::open(7, 7).unwrap();
        let mut play = Match3Play::new(&layout, 5);
        let ((ax, ay), (bx, by)) = play.legal_move().unwrap();
        let (a, b) = (ay * CANVAS_WIDTH + ax, by * CANVAS_WIDTH + bx);
        play.try_swap(a, b, true);
        assert_eq!(play.moves, 1);
        let first_round = play.animation.front().unwrap().0.cleared.len() as u32;
        assert_eq!(
            play.shown_counts().1,
            first_round,
            "only the round on screen"
        );
        play.animation.clear();
        assert_eq!(play.shown_counts(), (play.red, play.cleared));
        // Tiles that are not neighbours make no move.
        let before = play.moves;
        play.try_swap(0, CANVAS_CELLS - 1, false);
        assert_eq!(play.moves, before);
    }
}
