//! A Mario game in the playtest window, in real time: held arrow keys walk, Space (or Up, or
//! S) jumps — longer held, higher — Shift (or A) runs, Down ducks; P pauses, N steps one tick
//! while paused. The engine runs at its own frame rate (one tick every 30 ms, as the Mario AI
//! Framework), the view follows Mario, and a strip under it shows the whole level with
//! Mario's place. "Watch" lets A* or a human-like trial play instead, at normal or fast
//! speed, with the trial's virtual damage places marked.

use crate::agents::{AStarAgent, Agent, HumanLikeAgent};
use crate::engine::{Action, Cause, LevelMap, SpriteKind, SpriteView, Status, World, TILE};
use crate::evaluate::new_world;
use crate::level::MarioGame;
use crate::{MarioLevel, Tile};
use egui::{Color32, Key, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use std::sync::Arc;
use studio_core::document::board::Board as EditBoard;
use studio_core::game::{Game, GameId, GameView, TileMark};
use studio_ui::palette;
use studio_ui::{outcome_frame, Attempt, BoardView, PlaySession};

/// Seconds of one engine tick (the framework's 30 ms).
pub const TICK_SECONDS: f64 = 0.030;
/// Ticks a frame plays at most, so a slow frame never makes the game run away.
const MAX_TICKS_A_FRAME: u32 = 8;
/// Columns the view shows (the framework's screen is 16).
const VIEW_COLUMNS: f32 = 20.0;
/// Ticks a tick of fast watching plays.
pub const FAST: u32 = 4;

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The designer, with the keyboard.
    Designer,
    /// The A* agent (the playability test).
    AStar,
    /// A human-like trial with this seed.
    HumanLike(u64),
    /// The designer's last attempt, played again from its buttons.
    Replay,
}

/// The agent playing, when one does.
enum Watcher {
    AStar(Box<AStarAgent>),
    Human(Box<HumanLikeAgent>),
    /// A recorded attempt's buttons and the next tick's place in them.
    Script(Vec<Action>, usize),
}

impl Watcher {
    /// The next tick's buttons; `None` once a script has run out.
    fn act(&mut self, world: &World) -> Option<Action> {
        match self {
            Watcher::AStar(a) => Some(a.act(world)),
            Watcher::Human(h) => Some(h.act(world)),
            Watcher::Script(actions, next) => {
                let action = actions.get(*next).copied();
                *next += 1;
                action
            }
        }
    }
}

/// A Mario game in progress.
pub struct MarioPlay {
    pub(super) attempt: Attempt,
    map: Arc<LevelMap>,
    /// The game now.
    pub world: World,
    /// Who plays.
    pub player: Player,
    agent: Option<Watcher>,
    /// Frozen until resumed (P).
    pub paused: bool,
    /// Ticks per engine tick when an agent plays (1 normal, [`FAST`] fast).
    pub speed: u32,
    carry: f64,
    /// The designer's clock starts with the first key held.
    started: bool,
    /// Whether the designer's jump button reaches the engine yet. Mario starts in the air and
    /// the engine (as the Mario AI Framework's) jumps only on a fresh press made on the
    /// ground, so a jump held from the first ticks would never count: it is kept back until
    /// Mario can first jump, then passed on (one tick later at most).
    jump_ready: bool,
    /// The buttons the engine got on each tick of the designer's attempt now (kept with the
    /// attempt as its script).
    buttons: Vec<Action>,
    /// The designer's last attempt's buttons ("Replay" plays them again).
    last_buttons: Vec<Action>,
    /// Updates played before the first tick: 1 where the game loop starts, as the
    /// framework's does, with a no-button update (the designer's game and its replay).
    initial: u32,
    message: String,
}

/// The line under the game while the designer plays: the keys, once the start hint is gone.
const PLAYING: &str = "Space jumps (hold for height) · Shift runs · Down ducks · P pauses · \
                       R restarts";

impl MarioPlay {
    pub(super) fn new(level: &MarioLevel) -> Self {
        let map = Arc::new(LevelMap::from_level(level));
        let mut world = new_world(&map);
        world.step(Action::NONE);
        Self {
            attempt: Attempt::new(level.to_rows()),
            world,
            map,
            player: Player::Designer,
            agent: None,
            paused: false,
            speed: 1,
            carry: 0.0,
            started: false,
            jump_ready: false,
            buttons: Vec::new(),
            last_buttons: Vec::new(),
            initial: 1,
            message:
                "Press an arrow or Space to start · Space jumps (hold for height) · Shift runs \
                      · P pauses"
                    .into(),
        }
    }

    /// Starts again with `player` at the controls.
    pub fn start_with(&mut self, player: Player) {
        if self.player == Player::Designer && !self.buttons.is_empty() {
            self.last_buttons = std::mem::take(&mut self.buttons);
        }
        self.buttons.clear();
        self.world = new_world(&self.map);
        // The designer's game starts as the framework's game loop does, with one no-button
        // update (so `play --game mario --actions` replays a kept attempt exactly); the
        // agents play as the gauge's trials do, so a watched trial is the gauge's.
        self.initial = u32::from(matches!(player, Player::Designer | Player::Replay));
        if self.initial == 1 {
            self.world.step(Action::NONE);
        }
        self.attempt = Attempt::new(self.attempt.cells.clone());
        self.player = player;
        self.agent = match player {
            Player::Designer => None,
            Player::AStar => Some(Watcher::AStar(Box::default())),
            Player::HumanLike(seed) => Some(Watcher::Human(Box::new(HumanLikeAgent::new(seed)))),
            Player::Replay => Some(Watcher::Script(self.last_buttons.clone(), 0)),
        };
        self.carry = 0.0;
        self.paused = false;
        self.started = false;
        self.jump_ready = false;
        self.message = match player {
            Player::Designer => "Your turn: press an arrow or Space to start".into(),
            Player::AStar => "Watching A* (the playability test)".into(),
            Player::HumanLike(seed) => format!("Watching a human-like trial (seed {seed})"),
            Player::Replay => format!(
                "Replaying your last attempt ({} ticks of buttons)",
                self.last_buttons.len()
            ),
        };
    }

    /// The game as the window draws it. Before the first tick nothing has spawned yet and
    /// Mario has no size of his own: the enemies and Mario are drawn as the first tick will
    /// place them, so the designer sees the goombas before starting and Mario keeps one size.
    pub fn as_drawn(&self) -> std::borrow::Cow<'_, World> {
        // The designer's game has had the game loop's first update (enemies spawned).
        if self.world.tick() > 0 {
            return std::borrow::Cow::Borrowed(&self.world);
        }
        let mut next = self.world.clone();
        next.step(Action::NONE);
        std::borrow::Cow::Owned(next)
    }

    /// Ticks played (the game loop's initial update not counted).
    pub fn ticks(&self) -> u32 {
        self.world.tick().saturating_sub(self.initial)
    }

    /// The buttons of the designer's attempt now, one per tick played.
    pub fn buttons(&self) -> &[Action] {
        &self.buttons
    }

    /// Whether there is an attempt to replay (the one now, or the last before it).
    pub fn can_replay(&self) -> bool {
        !self.last_buttons.is_empty()
            || (self.player == Player::Designer && !self.buttons.is_empty())
    }

    /// `Some(true)` won, `Some(false)` lost, `None` while playing.
    pub fn outcome(&self) -> Option<bool> {
        match self.world.status() {
            Status::Running => None,
            Status::Won => Some(true),
            Status::Lost(_) => Some(false),
        }
    }

    /// The buttons held now, read from the keyboard.
    fn keys(ui: &egui::Ui) -> Action {
        if ui.ctx().egui_wants_keyboard_input() {
            return Action::NONE;
        }
        ui.input(|i| {
            let mut a = Action::NONE;
            if i.key_down(Key::ArrowLeft) {
                a = a | Action::LEFT;
            }
            if i.key_down(Key::ArrowRight) {
                a = a | Action::RIGHT;
            }
            if i.key_down(Key::ArrowDown) {
                a = a | Action::DOWN;
            }
            if i.key_down(Key::Space) || i.key_down(Key::ArrowUp) || i.key_down(Key::S) {
                a = a | Action::JUMP;
            }
            if i.modifiers.shift || i.key_down(Key::A) {
                a = a | Action::SPEED;
            }
            a
        })
    }

    /// Plays one tick: the designer's keys or the agent's choice.
    pub fn tick(&mut self, keys: Action) {
        if !self.world.is_running() {
            return;
        }
        let action = match &mut self.agent {
            Some(agent) => match agent.act(&self.world) {
                Some(action) => action,
                None => {
                    // A replayed attempt that ended before the game did (restarted, closed).
                    self.paused = true;
                    self.message = format!(
                        "Replay done: your attempt stopped here, after {} ticks",
                        self.ticks()
                    );
                    return;
                }
            },
            None if self.jump_ready => keys,
            None => keys.without(Action::JUMP),
        };
        if self.agent.is_none() {
            self.buttons.push(action);
        }
        self.world.step(action);
        self.jump_ready |= self.world.mario().may_jump();
        self.message = match self.world.status() {
            // The ticks played, as the "Tick" counter beside it counts them (W17).
            Status::Won => format!("Reached the goal in {} ticks!", self.ticks()),
            Status::Lost(Cause::Hole) => "Fell into a hole (R or Restart to try again)".into(),
            Status::Lost(Cause::Enemy) => "Hit by an enemy (R or Restart to try again)".into(),
            Status::Lost(Cause::Time) => "Time is up (R or Restart to try again)".into(),
            Status::Running => return,
        };
    }

    /// Advances by `dt` seconds of real time (pause, speed and the per-frame cap applied).
    pub(super) fn advance(&mut self, dt: f64, keys: Action) {
        if self.player == Player::Designer && !self.started {
            // Nothing moves until the designer is ready.
            if keys == Action::NONE {
                return;
            }
            self.started = true;
            self.message = PLAYING.into();
        }
        if self.paused || !self.world.is_running() {
            self.carry = 0.0;
            return;
        }
        let speed = if self.agent.is_some() { self.speed } else { 1 };
        self.carry += dt * f64::from(speed);
        let mut played = 0;
        while self.carry >= TICK_SECONDS && played < MAX_TICKS_A_FRAME * speed {
            self.tick(keys);
            self.carry -= TICK_SECONDS;
            played += 1;
        }
        if played >= MAX_TICKS_A_FRAME * speed {
            self.carry = 0.0;
        }
    }

    fn input(&mut self, ui: &egui::Ui) -> Action {
        let (pause, step, restart) = if ui.ctx().egui_wants_keyboard_input() {
            (false, false, false)
        } else {
            ui.input(|i| {
                (
                    i.key_pressed(Key::P),
                    i.key_pressed(Key::N),
                    i.key_pressed(Key::R),
                )
            })
        };
        let keys = Self::keys(ui);
        if pause {
            self.paused = !self.paused;
        }
        // R starts the designer's own game again, after a watch too (W11); so does a
        // movement key once a watched game has ended.
        let watched_over = self.agent.is_some() && !self.world.is_running();
        if restart || (watched_over && keys != Action::NONE) {
            self.start_with(Player::Designer);
        }
        if step && self.paused {
            self.tick(keys);
        }
        keys
    }

    fn draw(&mut self, ui: &mut egui::Ui) -> BoardView {
        let keys = self.input(ui);
        let dt = f64::from(ui.input(|i| i.stable_dt)).min(0.1);
        self.advance(dt, keys);
        if self.world.is_running() && !self.paused {
            ui.ctx().request_repaint();
        }
        let game = MarioGame;
        let (w, h) = (self.map.width(), self.map.height());
        let avail = ui.available_size().max(Vec2::new(240.0, 160.0));
        let columns = VIEW_COLUMNS.min(w as f32);
        let cell = (avail.x / columns)
            .min((avail.y - 40.0) / h as f32)
            .clamp(8.0, 48.0);
        let (rect, _) = ui.allocate_exact_size(Vec2::new(columns, h as f32) * cell, Sense::hover());
        let painter = ui.painter_at(rect);
        // The camera: Mario a little left of the middle, the view inside the level.
        let scale = cell / TILE;
        let view_px = columns * TILE;
        let camera = (self.world.mario().x() - view_px * 0.4)
            .clamp(0.0, (w as f32 * TILE - view_px).max(0.0));
        let first = (camera / TILE).floor() as usize;
        let to_screen = |x: f32, y: f32| rect.min + Vec2::new((x - camera) * scale, y * scale);
        // The sky in one piece, then the tiles, each a hair larger than its cell so that no
        // seam shows between neighbours; only tiles with a mark get the palette's drawing.
        let sky = game.tiles()[usize::from(Tile::Empty.index())].rgb;
        painter.rect_filled(rect, 0.0, Color32::from_rgb(sky[0], sky[1], sky[2]));
        let shown = self.as_drawn();
        // Piranha plants behind their pipes, as the framework draws them.
        for s in shown.sprites().filter(|s| s.kind == SpriteKind::Piranha) {
            draw_sprite(&painter, &s, &to_screen, scale);
        }
        for y in 0..h {
            for x in first..(first + columns as usize + 2).min(w) {
                let tile = self.world.tiles_now(x, y);
                // Invisible blocks stay invisible until bumped.
                if matches!(
                    tile,
                    Tile::Empty | Tile::HiddenCoinBlock | Tile::HiddenLifeBlock
                ) {
                    continue;
                }
                let min = to_screen(x as f32 * TILE, y as f32 * TILE);
                let r = Rect::from_min_size(min, Vec2::splat(cell));
                if game.tile_mark(tile.index()) == TileMark::Plain {
                    let [r8, g8, b8] = game.tiles()[usize::from(tile.index())].rgb;
                    painter.rect_filled(r.expand(0.5), 0.0, Color32::from_rgb(r8, g8, b8));
                } else {
                    palette::paint_tile(&painter, r, &game, tile.index());
                }
            }
        }
        // The goal column.
        let goal = to_screen(self.map.goal_column() as f32 * TILE, 0.0).x;
        painter.vline(
            goal,
            rect.y_range(),
            Stroke::new(2.0, Color32::from_rgba_unmultiplied(255, 255, 255, 160)),
        );
        for s in shown.sprites().filter(|s| s.kind != SpriteKind::Piranha) {
            draw_sprite(&painter, &s, &to_screen, scale);
        }
        // A human-like trial's virtual damage so far: where a slip would have hurt.
        if let Some(Watcher::Human(h)) = &self.agent {
            for d in h.virtual_damage() {
                let c = to_screen(d.x_px, d.y_px - 8.0);
                let colour = match d.cause {
                    Cause::Hole => Color32::from_rgb(80, 220, 240),
                    _ => Color32::from_rgb(250, 220, 40),
                };
                let r = 0.45 * cell;
                painter.add(egui::Shape::convex_polygon(
                    vec![
                        c + Vec2::new(0.0, -r),
                        c + Vec2::new(r, 0.0),
                        c + Vec2::new(0.0, r),
                        c + Vec2::new(-r, 0.0),
                    ],
                    colour,
                    Stroke::new(1.0, Color32::BLACK),
                ));
            }
        }
        let m = self.world.mario();
        let body = Rect::from_min_max(
            to_screen(m.x() - 6.0, m.y() - shown.mario().height()),
            to_screen(m.x() + 6.0, m.y()),
        );
        let blink = m.invulnerable_ticks() > 0 && (self.world.tick() / 2).is_multiple_of(2);
        if !blink {
            painter.rect_filled(body, 2.0 * scale, Color32::from_rgb(228, 48, 40));
            painter.rect_stroke(
                body,
                2.0 * scale,
                Stroke::new(1.5, Color32::from_rgb(40, 40, 160)),
                StrokeKind::Inside,
            );
        }
        outcome_frame(&painter, rect, self.outcome());
        // The whole level, with the view and Mario on it.
        let (strip, _) = ui.allocate_exact_size(Vec2::new(rect.width(), 16.0), Sense::hover());
        let sp = ui.painter_at(strip);
        sp.rect_filled(strip, 2.0, Color32::from_gray(40));
        let along = |px: f32| strip.left() + px / (w as f32 * TILE) * strip.width();
        for x in 0..w {
            if self.map.tile(x, h - 1).is_solid() {
                continue;
            }
            let x0 = along(x as f32 * TILE);
            sp.rect_filled(
                Rect::from_min_max(
                    Pos2::new(x0, strip.bottom() - 4.0),
                    Pos2::new(along((x + 1) as f32 * TILE), strip.bottom()),
                ),
                0.0,
                Color32::from_rgb(20, 20, 20),
            );
        }
        sp.rect_stroke(
            Rect::from_min_max(
                Pos2::new(along(camera), strip.top()),
                Pos2::new(along(camera + view_px), strip.bottom()),
            ),
            2.0,
            Stroke::new(1.0, Color32::from_gray(200)),
            StrokeKind::Inside,
        );
        sp.circle_filled(
            Pos2::new(along(m.x()), strip.center().y),
            4.0,
            Color32::from_rgb(228, 48, 40),
        );
        BoardView {
            rect,
            cell,
            origin: (first, 0),
        }
    }
}

/// A Mario session on the board, when the board is a Mario level.
/// A session on the level under edit.
///
/// # Errors
/// [`AsciiError`](studio_core::game::AsciiError): the level breaks the game's rules, in words.
pub fn start(
    board: &EditBoard,
    _seed: u64,
) -> Result<Box<dyn PlaySession>, studio_core::game::AsciiError> {
    MarioLevel::from_rows(&board.to_rows())
        .map(|level| Box::new(MarioPlay::new(&level)) as Box<dyn PlaySession>)
        .map_err(studio_core::game::AsciiError::rule)
}

impl PlaySession for MarioPlay {
    fn game(&self) -> GameId {
        crate::level::ID
    }

    fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    fn attempt_mut(&mut self) -> &mut Attempt {
        &mut self.attempt
    }

    /// The designer's buttons, one per tick, as a script (`play --game mario --actions`).
    fn script(&self) -> Option<String> {
        (self.player == Player::Designer && !self.buttons.is_empty())
            .then(|| crate::script::write(&self.buttons))
    }

    /// Ticks the designer played (an agent's game is not the designer's attempt).
    fn moves(&self) -> u32 {
        if self.player == Player::Designer {
            self.ticks()
        } else {
            0
        }
    }

    fn outcome(&self) -> Option<bool> {
        MarioPlay::outcome(self)
    }

    fn message(&self) -> &str {
        &self.message
    }

    fn status_ui(&self, ui: &mut egui::Ui) {
        let left = f64::from(self.world.time_left_ticks()) * TICK_SECONDS;
        ui.label(format!("Time left {left:.1} s"));
        ui.separator();
        ui.label(format!("Tick {}", self.ticks()));
        ui.separator();
        ui.label(format!("Coins {}", self.world.coins()));
        ui.separator();
        ui.label(if self.world.mario().big() {
            "Big Mario"
        } else {
            "Small Mario"
        });
        if self.paused {
            ui.separator();
            ui.colored_label(palette::ACCENT, "PAUSED");
        }
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui, _animate: &mut bool) {
        let pause = if self.paused { "Resume" } else { "Pause" };
        if ui.button(pause).on_hover_text("P").clicked() {
            self.paused = !self.paused;
        }
        if ui
            .add_enabled(self.paused, egui::Button::new("Step"))
            .on_hover_text("One tick while paused (N)")
            .clicked()
        {
            self.tick(Action::NONE);
        }
        ui.separator();
        ui.label("Watch:");
        if ui
            .button("A*")
            .on_hover_text("Watch the A* agent play (the playability test)")
            .clicked()
        {
            self.start_with(Player::AStar);
        }
        if ui
            .button("Human-like")
            .on_hover_text("Watch a human-like trial (a new seed each time)")
            .clicked()
        {
            let seed = match self.player {
                Player::HumanLike(s) => s + 1,
                _ => 0,
            };
            self.start_with(Player::HumanLike(seed));
        }
        if ui
            .add_enabled(self.can_replay(), egui::Button::new("Replay"))
            .on_hover_text(
                "Play your last attempt again from its buttons, tick by tick (also kept with \
                 the attempt: level-studio play --game mario … --actions SCRIPT)",
            )
            .clicked()
        {
            self.start_with(Player::Replay);
        }
        // Always there (greyed while the designer plays), so the window keeps its width.
        if ui
            .add_enabled(
                self.player != Player::Designer,
                egui::Button::new("Play myself"),
            )
            .on_hover_text("Take the controls: a new game of your own (R)")
            .clicked()
        {
            self.start_with(Player::Designer);
        }
        let mut fast = self.speed > 1;
        if ui
            .checkbox(&mut fast, "Fast")
            .on_hover_text(format!("Agents play {FAST}× as fast"))
            .changed()
        {
            self.speed = if fast { FAST } else { 1 };
        }
    }

    fn restart(&mut self, _seed: u64) {
        self.start_with(self.player);
    }

    fn board_ui(&mut self, ui: &mut egui::Ui, _animate: bool) -> BoardView {
        self.draw(ui)
    }
}

/// One sprite as a rounded box in its kind's colour (wings as two light tabs, a spiky with
/// a dark spine row).
fn draw_sprite(
    painter: &egui::Painter,
    s: &SpriteView,
    to_screen: &impl Fn(f32, f32) -> egui::Pos2,
    scale: f32,
) {
    let (height, colour) = match s.kind {
        SpriteKind::Goomba => (12.0, Color32::from_rgb(150, 86, 44)),
        SpriteKind::Koopa => (24.0, Color32::from_rgb(70, 176, 70)),
        SpriteKind::RedKoopa => (24.0, Color32::from_rgb(214, 64, 48)),
        SpriteKind::Spiky => (12.0, Color32::from_rgb(200, 40, 40)),
        SpriteKind::Shell => (12.0, Color32::from_rgb(30, 120, 40)),
        SpriteKind::Mushroom => (12.0, Color32::from_rgb(220, 50, 40)),
        SpriteKind::LifeMushroom => (12.0, Color32::from_rgb(40, 190, 60)),
        SpriteKind::Piranha => (24.0, Color32::from_rgb(30, 150, 50)),
        SpriteKind::BulletBill => (12.0, Color32::from_rgb(30, 30, 36)),
    };
    let r = Rect::from_min_max(
        to_screen(s.x - 7.0, s.y - height),
        to_screen(s.x + 7.0, s.y),
    );
    painter.rect_filled(r, 3.0 * scale, colour);
    if s.kind == SpriteKind::Spiky {
        let spine = Rect::from_min_max(r.min, egui::pos2(r.max.x, r.min.y + 3.0 * scale));
        painter.rect_filled(spine, 0.0, Color32::from_rgb(250, 240, 220));
    }
    if s.winged {
        let wing = Color32::from_rgb(250, 250, 250);
        for side in [-1.0f32, 1.0] {
            let x = s.x + side * 9.0;
            let w = Rect::from_min_max(
                to_screen(x - 3.0, s.y - height - 2.0),
                to_screen(x + 3.0, s.y - height + 6.0),
            );
            painter.rect_filled(w, 2.0 * scale, wing);
        }
    }
}
