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
use crate::level::{Game, Playtest};
use crate::longcat::{Direction, LongcatLevel, State};
use crate::match3::layout::{Rect as AreaRect, CANVAS_CELLS, CANVAS_WIDTH};
use crate::match3::rules::{Board, CascadeStep, Geometry, Swap, COLOURS, GOAL_RED};
use crate::match3::ValidationConfig;
use crate::rng::Rng;
use egui::{Color32, Key, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use std::collections::VecDeque;
use std::time::Instant;

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
    cells: Vec<String>,
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
    animation: VecDeque<(CascadeStep, bool)>,
    phase_started: Option<f64>,
    started: Instant,
    /// `Some(solved)` once the attempt ended.
    pub finished: Option<bool>,
    recorded: bool,
    message: String,
}

/// A Longcat game in progress.
pub struct LongcatPlay {
    cells: Vec<String>,
    level: LongcatLevel,
    /// Every state so far, the start first.
    pub history: Vec<State>,
    started: Instant,
    recorded: bool,
    swipe_from: Option<Pos2>,
    message: String,
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

fn colour_name(c: u8) -> Color32 {
    TILE_COLOURS
        .get(c as usize)
        .copied()
        .unwrap_or(Color32::DARK_GRAY)
}

impl Match3Play {
    fn new(layout: &crate::match3::Layout, seed: u64) -> Self {
        let geometry = Geometry::new(layout);
        let mut board = Board::new(&geometry, Rng::new(seed));
        if !board.has_legal_move() {
            board.reshuffle();
        }
        let tiles = *board.tiles();
        Self {
            cells: layout.to_rows(),
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
            started: Instant::now(),
            finished: None,
            recorded: false,
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
        let mut board = Board::with_tiles(&self.geometry, self.tiles, Rng::new(0));
        board.legal_moves().first().map(|s| s.cells())
    }

    /// True while a cascade is being shown.
    pub fn animating(&self) -> bool {
        !self.animation.is_empty()
    }

    fn try_swap(&mut self, a: usize, b: usize, animate: bool) {
        let ((ax, ay), (bx, by)) = ((a % CANVAS_WIDTH, a / CANVAS_WIDTH), (b % CANVAS_WIDTH, b / CANVAS_WIDTH));
        if ax.abs_diff(bx) + ay.abs_diff(by) != 1 {
            self.selected = Some(b);
            return;
        }
        self.selected = None;
        let swap = Swap {
            a: a.min(b),
            b: a.max(b),
        };
        let mut board = Board::with_tiles(
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
        if !board.has_legal_move() && !board.reshuffle() {
            self.finished = Some(false);
            self.message = "No move left".into();
        }
        self.tiles = *board.tiles();
        self.message = if report.rounds > 1 {
            format!("Cascade of {} rounds, {} tiles", report.rounds, report.total)
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
        }
    }
}

impl LongcatPlay {
    fn new(level: LongcatLevel) -> Self {
        let cells = level.cells().to_rows();
        Self {
            history: vec![State::start(&level)],
            cells,
            level,
            started: Instant::now(),
            recorded: false,
            swipe_from: None,
            message: "Arrow keys or WASD (or swipe) to move".into(),
        }
    }

    /// The state now.
    pub fn state(&self) -> State {
        *self.history.last().expect("the start is always there")
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

    fn step(&mut self, direction: Direction) {
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

    fn undo(&mut self) {
        if self.history.len() > 1 {
            self.history.pop();
            self.recorded = false;
            self.message = format!("Undone: {} moves", self.moves());
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

    /// The attempt in progress as a record, when it has moves and is not recorded yet.
    fn take_attempt(&mut self, force: bool) -> Option<AppCommand> {
        match self.play.as_mut()? {
            Play::Match3(m) => {
                if m.recorded || m.moves == 0 || (m.finished.is_none() && !force) {
                    return None;
                }
                m.recorded = true;
                Some(AppCommand::RecordPlaytest {
                    game: Game::Match3,
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
                    game: Game::Longcat,
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
            .default_pos([360.0, 90.0])
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
                    ui.label(format!("Red cleared: {} / {GOAL_RED}", m.red));
                    ui.separator();
                    ui.weak(format!("tiles {}", m.cleared));
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
        match &mut self.play {
            Some(Play::Match3(_)) => self.match3_board(ui),
            Some(Play::Longcat(_)) => self.longcat_board(ui),
            None => {}
        }
        commands.extend(self.take_attempt(false));
    }

    fn match3_board(&mut self, ui: &mut egui::Ui) {
        let Some(Play::Match3(m)) = &mut self.play else {
            return;
        };
        let now = ui.input(|i| i.time);
        // Cascade animation: advance by time, skip on Space or a click.
        if !m.animation.is_empty() {
            let skip = ui.input(|i| i.key_pressed(Key::Space) || i.pointer.primary_clicked());
            if skip || !self.animate {
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
        self.board_rect = rect;
        self.cell_size = cell;
        self.origin_cell = (area.x, area.y);
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
                    let blocked = !m.geometry.adjacent_pairs().iter().any(|s| s.a == i || s.b == i);
                    if blocked {
                        painter.rect_filled(r.shrink(0.5), 2.0, Color32::from_rgb(48, 51, 62));
                    }
                    continue;
                }
                painter.rect_filled(r.shrink(0.5), 2.0, Color32::from_gray(52));
                let mut c = colour_name(t);
                if cleared.contains(&i) {
                    c = c.gamma_multiply(0.35);
                    painter.rect_stroke(r.shrink(2.0), 3.0, Stroke::new(2.0, Color32::WHITE), StrokeKind::Inside);
                }
                painter.circle_filled(r.center(), cell * 0.36, c);
                if m.selected == Some(i) {
                    painter.rect_stroke(r.shrink(1.0), 3.0, Stroke::new(2.5, palette::ACCENT), StrokeKind::Inside);
                }
            }
        }
        if m.finished.is_some() || m.animating() {
            return;
        }
        let pointer = response.interact_pointer_pos();
        if response.drag_started() {
            m.drag_from = pointer.and_then(cell_index);
        }
        if response.drag_stopped() {
            let to = ui.input(|i| i.pointer.latest_pos()).and_then(cell_index);
            if let (Some(a), Some(b)) = (m.drag_from.take(), to) {
                if a != b {
                    m.try_swap(a, b, self.animate);
                    return;
                }
            }
        }
        if response.clicked() {
            if let Some(i) = pointer.and_then(cell_index).filter(|&i| tiles[i] < COLOURS) {
                match m.selected {
                    Some(s) if s == i => m.selected = None,
                    Some(s) => m.try_swap(s, i, self.animate),
                    None => m.selected = Some(i),
                }
            }
        }
    }

    fn longcat_board(&mut self, ui: &mut egui::Ui) {
        let Some(Play::Longcat(l)) = &mut self.play else {
            return;
        };
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
        let cell = (avail.x / w as f32).min(avail.y / h as f32).clamp(16.0, 56.0);
        let (rect, response) =
            ui.allocate_exact_size(Vec2::new(w as f32, h as f32) * cell, Sense::click_and_drag());
        self.board_rect = rect;
        self.cell_size = cell;
        self.origin_cell = (0, 0);
        let painter = ui.painter_at(rect);
        let grid = state.render();
        for y in 0..h {
            for x in 0..w {
                let r = Rect::from_min_size(
                    rect.min + Vec2::new(x as f32, y as f32) * cell,
                    Vec2::splat(cell),
                )
                .shrink(1.0);
                palette::paint_state_cell(&painter, r, grid.get(x, y));
            }
        }
        let frame = match l.outcome() {
            Some(true) => palette::GOOD,
            Some(false) => palette::BAD,
            None => Color32::from_gray(90),
        };
        painter.rect_stroke(rect, 3.0, Stroke::new(3.0, frame), StrokeKind::Outside);
        // Mouse swipes.
        if response.drag_started() {
            l.swipe_from = response.interact_pointer_pos();
        }
        if response.drag_stopped() {
            if let (Some(from), Some(to)) = (l.swipe_from.take(), ui.input(|i| i.pointer.latest_pos())) {
                let d = to - from;
                if d.length() > cell * 0.5 {
                    let dir = if d.x.abs() > d.y.abs() {
                        if d.x > 0.0 { Direction::Right } else { Direction::Left }
                    } else if d.y > 0.0 {
                        Direction::Down
                    } else {
                        Direction::Up
                    };
                    l.step(dir);
                }
            }
        }
    }
}
