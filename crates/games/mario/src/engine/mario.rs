//! Mario himself: his state ([`Mario`]) and, as methods of the world, his per-tick update
//! (buttons, jump, friction, gravity), his sub-stepped movement through the tiles (which
//! collects coins and bumps blocks from below), stomping, getting hurt and growing.

use super::world::World;
use super::{
    Action, Cause, Status, HALF_WIDTH, INERTIA, INVULNERABLE_TICKS, JUMP_SPEED, JUMP_TIME,
    MARIO_GRAVITY, POWER_UP_PAUSE, RUN_ACCELERATION, SHORT_HEIGHT, STOMP_JUMP_TIME, TALL_HEIGHT,
    TILE, VERTICAL_DAMPING, WALK_ACCELERATION,
};
use crate::tiles::Tile;

/// Mario's state: feet position (x is his centre, y his bottom pixel), speed and flags.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mario {
    pub(super) x: f32,
    pub(super) y: f32,
    pub(super) xa: f32,
    pub(super) ya: f32,
    pub(super) height: f32,
    pub(super) facing: i8,
    pub(super) big: bool,
    pub(super) ducking: bool,
    pub(super) on_ground: bool,
    pub(super) was_on_ground: bool,
    pub(super) may_jump: bool,
    pub(super) jump_time: i32,
    pub(super) y_jump_speed: f32,
    pub(super) invulnerable: u8,
}

impl Mario {
    pub(super) fn new(x: f32, y: f32) -> Mario {
        Mario {
            x,
            y,
            xa: 0.0,
            ya: 0.0,
            height: TALL_HEIGHT,
            facing: 1,
            big: false,
            ducking: false,
            on_ground: false,
            was_on_ground: false,
            may_jump: false,
            jump_time: 0,
            y_jump_speed: 0.0,
            invulnerable: 0,
        }
    }

    /// Horizontal centre in pixels.
    pub fn x(&self) -> f32 {
        self.x
    }

    /// Bottom (feet) in pixels, growing downwards.
    pub fn y(&self) -> f32 {
        self.y
    }

    /// Horizontal speed in pixels per tick.
    pub fn vx(&self) -> f32 {
        self.xa
    }

    /// Vertical speed in pixels per tick (negative is up).
    pub fn vy(&self) -> f32 {
        self.ya
    }

    /// Collision height in pixels (24 big, 12 small or ducking).
    pub fn height(&self) -> f32 {
        self.height
    }

    /// 1 facing right, -1 facing left.
    pub fn facing(&self) -> i8 {
        self.facing
    }

    /// True when standing on something after the last tick.
    pub fn on_ground(&self) -> bool {
        self.on_ground
    }

    /// True when pressing JUMP next tick starts a jump.
    pub fn may_jump(&self) -> bool {
        self.may_jump
    }

    /// True while holding JUMP still pushes Mario up.
    pub fn can_jump_higher(&self) -> bool {
        self.jump_time > 0
    }

    /// True for big Mario.
    pub fn big(&self) -> bool {
        self.big
    }

    /// True while big Mario ducks.
    pub fn ducking(&self) -> bool {
        self.ducking
    }

    /// Ticks left during which enemies cannot hurt Mario.
    pub fn invulnerable_ticks(&self) -> u8 {
        self.invulnerable
    }
}

impl World {
    /// Mario's update for one tick with `action` held.
    pub(super) fn update_mario(&mut self, action: Action) {
        let m = &mut self.mario;
        m.invulnerable = m.invulnerable.saturating_sub(1);
        m.was_on_ground = m.on_ground;
        let acceleration = if action.speed() {
            RUN_ACCELERATION
        } else {
            WALK_ACCELERATION
        };
        if m.on_ground {
            m.ducking = action.down() && m.big;
        }
        m.height = if m.big && !m.ducking {
            TALL_HEIGHT
        } else {
            SHORT_HEIGHT
        };
        if m.xa > 2.0 {
            m.facing = 1;
        }
        if m.xa < -2.0 {
            m.facing = -1;
        }

        if action.jump() {
            if self.mario.on_ground && self.mario.may_jump {
                let m = &mut self.mario;
                m.y_jump_speed = JUMP_SPEED;
                m.jump_time = JUMP_TIME;
                m.ya = JUMP_TIME as f32 * JUMP_SPEED;
                m.on_ground = false;
                self.events.jumped = true;
                // The framework probes the ceiling here; probing bumps what it touches.
                let (x, top) = (self.mario.x, self.mario.y - 4.0 - self.mario.height);
                let _blocked = self.mario_blocking(x, top, 0.0, -4.0)
                    || self.mario_blocking(x - HALF_WIDTH, top, 0.0, -4.0)
                    || self.mario_blocking(x + HALF_WIDTH, top, 0.0, -4.0);
            } else if self.mario.jump_time > 0 {
                let m = &mut self.mario;
                m.ya = m.jump_time as f32 * m.y_jump_speed;
                m.jump_time -= 1;
            }
        } else {
            self.mario.jump_time = 0;
        }

        let m = &mut self.mario;
        if action.left() && !m.ducking {
            m.xa -= acceleration;
            m.facing = -1;
        }
        if action.right() && !m.ducking {
            m.xa += acceleration;
            m.facing = 1;
        }
        m.may_jump = m.on_ground && !action.jump();
        if m.xa.abs() < 0.5 {
            m.xa = 0.0;
        }
        m.on_ground = false;
        let (xa, ya) = (m.xa, m.ya);
        self.mario_move(xa, 0.0);
        self.mario_move(0.0, ya);

        let goal_x = self.goal_x();
        let m = &mut self.mario;
        if m.x < 0.0 {
            m.x = 0.0;
            m.xa = 0.0;
        }
        let reached_goal = m.x >= goal_x;
        if reached_goal {
            m.x = goal_x;
            m.xa = 0.0;
        }
        let m = &mut self.mario;
        m.ya *= VERTICAL_DAMPING;
        m.xa *= INERTIA;
        if !m.on_ground {
            m.ya += MARIO_GRAVITY;
        }
        if reached_goal {
            self.win();
        }
    }

    /// Moves Mario by (xa, ya) in steps of at most 8 px; false when blocked.
    fn mario_move(&mut self, mut xa: f32, mut ya: f32) -> bool {
        while xa > 8.0 {
            if !self.mario_move_step(8.0, 0.0) {
                return false;
            }
            xa -= 8.0;
        }
        while xa < -8.0 {
            if !self.mario_move_step(-8.0, 0.0) {
                return false;
            }
            xa += 8.0;
        }
        while ya > 8.0 {
            if !self.mario_move_step(0.0, 8.0) {
                return false;
            }
            ya -= 8.0;
        }
        while ya < -8.0 {
            if !self.mario_move_step(0.0, -8.0) {
                return false;
            }
            ya += 8.0;
        }
        self.mario_move_step(xa, ya)
    }

    /// One movement step of at most 8 px, probing the corners the framework probes.
    fn mario_move_step(&mut self, xa: f32, ya: f32) -> bool {
        let Mario { x, y, height, .. } = self.mario;
        let w = HALF_WIDTH;
        let mut collide = false;
        if ya > 0.0 {
            collide = self.mario_blocking(x + xa - w, y + ya, xa, 0.0)
                || self.mario_blocking(x + xa + w, y + ya, xa, 0.0)
                || self.mario_blocking(x + xa - w, y + ya + 1.0, xa, ya)
                || self.mario_blocking(x + xa + w, y + ya + 1.0, xa, ya);
        }
        if ya < 0.0 {
            collide = self.mario_blocking(x + xa, y + ya - height, xa, ya)
                || collide
                || self.mario_blocking(x + xa - w, y + ya - height, xa, ya)
                || self.mario_blocking(x + xa + w, y + ya - height, xa, ya);
        }
        let half = (height as i32 / 2) as f32;
        for side in [1.0f32, -1.0] {
            if xa * side > 0.0 {
                let edge = x + xa + side * w;
                collide |= self.mario_blocking(edge, y + ya - height, xa, ya);
                collide |= self.mario_blocking(edge, y + ya - half, xa, ya);
                collide |= self.mario_blocking(edge, y + ya, xa, ya);
            }
        }
        let m = &mut self.mario;
        if collide {
            if xa < 0.0 {
                m.x = (((m.x - w) / TILE) as i32 * 16) as f32 + w;
                m.xa = 0.0;
            }
            if xa > 0.0 {
                m.x = ((((m.x + w) / TILE) as i32 + 1) * 16) as f32 - w - 1.0;
                m.xa = 0.0;
            }
            if ya < 0.0 {
                m.y = (((m.y - m.height) / TILE) as i32 * 16) as f32 + m.height;
                m.jump_time = 0;
                m.ya = 0.0;
            }
            if ya > 0.0 {
                m.y = ((((m.y - 1.0) / TILE) as i32 + 1) * 16) as f32 - 1.0;
                m.on_ground = true;
            }
            false
        } else {
            m.x += xa;
            m.y += ya;
            true
        }
    }

    /// True when the point (px, py) is in a solid tile (never Mario's own cell). Touching a
    /// coin takes it; a solid tile touched moving up is bumped.
    fn mario_blocking(&mut self, px: f32, py: f32, _xa: f32, ya: f32) -> bool {
        let (tx, ty) = ((px / TILE) as i32, (py / TILE) as i32);
        if tx == (self.mario.x / TILE) as i32 && ty == (self.mario.y / TILE) as i32 {
            return false;
        }
        let Some(index) = self.map().index(tx, ty) else {
            return false;
        };
        let tile = self.tile_at_index(index);
        if tile == Tile::Coin {
            self.collect_coin();
            self.set_tile_index(index, Tile::Empty);
        }
        let blocking = tile.blocks(ya);
        if blocking && ya < 0.0 {
            let big = self.mario.big;
            self.bump(tx, ty, big);
        }
        blocking
    }

    /// Mario lands on a sprite whose top is `top`: he snaps onto it and bounces up.
    pub(super) fn stomp_bounce(&mut self, top: f32) {
        let dy = top - self.mario.y;
        self.mario_move(0.0, dy);
        let m = &mut self.mario;
        m.y_jump_speed = JUMP_SPEED;
        m.jump_time = STOMP_JUMP_TIME;
        m.ya = STOMP_JUMP_TIME as f32 * JUMP_SPEED;
        m.on_ground = false;
        m.invulnerable = 1;
        self.events.stomps = self.events.stomps.saturating_add(1);
    }

    /// An enemy or sliding shell touched Mario: big Mario shrinks, small Mario loses.
    pub(super) fn hurt_mario(&mut self) {
        if self.mario.invulnerable > 0 || matches!(self.status, Status::Lost(_)) {
            return;
        }
        if self.mario.big {
            self.pause = POWER_UP_PAUSE;
            self.mario.big = false;
            self.mario.invulnerable = INVULNERABLE_TICKS;
            self.events.damage = Some(Cause::Enemy);
        } else {
            self.lose(Cause::Enemy);
        }
    }

    /// Mario takes a mushroom: small Mario grows, big Mario gets a coin.
    pub(super) fn give_mushroom(&mut self) {
        self.events.mushrooms = self.events.mushrooms.saturating_add(1);
        if self.mario.big {
            self.collect_coin();
        } else {
            self.pause = POWER_UP_PAUSE;
            self.mario.big = true;
        }
    }
}
