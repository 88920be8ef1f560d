//! Everything that moves besides Mario: goombas, koopas, shells and mushrooms. Their state
//! ([`SpriteKind`], the crate-private `Sprite`), their per-tick walk through the tiles, and
//! how they meet Mario, shells and bumped blocks.

use super::world::World;
use super::{
    HALF_WIDTH, INERTIA, SHELL_SPEED, SHORT_HEIGHT, SPRITE_GRAVITY, TALL_HEIGHT, TILE,
    VERTICAL_DAMPING,
};

/// What a sprite is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpriteKind {
    /// A goomba: stomped, it dies.
    Goomba,
    /// A green koopa: stomped, it becomes a shell. Walks off ledges.
    Koopa,
    /// A koopa's shell: still until kicked or stomped, then slides and kills.
    Shell,
    /// A mushroom: makes small Mario big.
    Mushroom,
}

/// A sprite as seen from outside, for drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpriteView {
    /// What it is.
    pub kind: SpriteKind,
    /// Horizontal centre in pixels.
    pub x: f32,
    /// Bottom in pixels.
    pub y: f32,
    /// 1 right, -1 left, 0 for a still shell.
    pub facing: i8,
}

/// One sprite's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sprite {
    pub kind: SpriteKind,
    pub x: f32,
    pub y: f32,
    pub xa: f32,
    pub ya: f32,
    pub height: f32,
    pub facing: i8,
    pub on_ground: bool,
    pub alive: bool,
    /// Ticks a mushroom has spent rising out of its box.
    pub life: u8,
    /// Set when a moving shell must be checked against the other sprites this tick.
    pub shell_check: bool,
}

impl Sprite {
    pub(crate) fn new(kind: SpriteKind, x: f32, y: f32, facing: i8) -> Sprite {
        let height = if kind == SpriteKind::Koopa {
            TALL_HEIGHT
        } else {
            SHORT_HEIGHT
        };
        Sprite {
            kind,
            x,
            y,
            xa: 0.0,
            ya: if kind == SpriteKind::Shell { -5.0 } else { 0.0 },
            height,
            facing,
            on_ground: false,
            alive: true,
            life: 0,
            shell_check: false,
        }
    }

    pub(crate) fn view(&self) -> SpriteView {
        SpriteView {
            kind: self.kind,
            x: self.x,
            y: self.y,
            facing: self.facing,
        }
    }
}

impl World {
    /// One tick of a sprite: walk (or slide) at its speed, turn at walls, fall.
    pub(super) fn update_sprite(&mut self, i: usize) {
        let s = &mut self.sprites[i];
        if s.kind == SpriteKind::Mushroom && s.life < super::MUSHROOM_RISE {
            s.y -= 1.0;
            s.life += 1;
            return;
        }
        let speed = if s.kind == SpriteKind::Shell {
            SHELL_SPEED
        } else {
            super::ENEMY_SPEED
        };
        if s.xa > 2.0 {
            s.facing = 1;
        }
        if s.xa < -2.0 {
            s.facing = -1;
        }
        s.xa = f32::from(s.facing) * speed;
        if s.kind == SpriteKind::Shell && s.facing != 0 {
            s.shell_check = true;
        }
        let xa = s.xa;
        if !self.sprite_move(i, xa, 0.0) {
            self.sprites[i].facing = -self.sprites[i].facing;
        }
        self.sprites[i].on_ground = false;
        let ya = self.sprites[i].ya;
        self.sprite_move(i, 0.0, ya);
        let s = &mut self.sprites[i];
        s.ya *= VERTICAL_DAMPING;
        s.xa *= INERTIA;
        if !s.on_ground {
            s.ya += SPRITE_GRAVITY;
        }
    }

    /// Moves sprite `i` by (xa, ya) in steps of at most 8 px; false when blocked.
    fn sprite_move(&mut self, i: usize, mut xa: f32, mut ya: f32) -> bool {
        while xa > 8.0 {
            if !self.sprite_move_step(i, 8.0, 0.0) {
                return false;
            }
            xa -= 8.0;
        }
        while xa < -8.0 {
            if !self.sprite_move_step(i, -8.0, 0.0) {
                return false;
            }
            xa += 8.0;
        }
        while ya > 8.0 {
            if !self.sprite_move_step(i, 0.0, 8.0) {
                return false;
            }
            ya -= 8.0;
        }
        while ya < -8.0 {
            if !self.sprite_move_step(i, 0.0, -8.0) {
                return false;
            }
            ya += 8.0;
        }
        self.sprite_move_step(i, xa, ya)
    }

    fn sprite_move_step(&mut self, i: usize, xa: f32, ya: f32) -> bool {
        let Sprite { x, y, height, .. } = self.sprites[i];
        let w = HALF_WIDTH;
        let mut collide = false;
        if ya > 0.0 {
            collide = self.sprite_blocking(i, x + xa - w, y + ya, xa, 0.0)
                || self.sprite_blocking(i, x + xa + w, y + ya, xa, 0.0)
                || self.sprite_blocking(i, x + xa - w, y + ya + 1.0, xa, ya)
                || self.sprite_blocking(i, x + xa + w, y + ya + 1.0, xa, ya);
        }
        if ya < 0.0 {
            collide = self.sprite_blocking(i, x + xa, y + ya - height, xa, ya)
                || collide
                || self.sprite_blocking(i, x + xa - w, y + ya - height, xa, ya)
                || self.sprite_blocking(i, x + xa + w, y + ya - height, xa, ya);
        }
        let half = (height as i32 / 2) as f32;
        for side in [1.0f32, -1.0] {
            if xa * side > 0.0 {
                let edge = x + xa + side * w;
                collide |= self.sprite_blocking(i, edge, y + ya - height, xa, ya);
                collide |= self.sprite_blocking(i, edge, y + ya - half, xa, ya);
                collide |= self.sprite_blocking(i, edge, y + ya, xa, ya);
            }
        }
        let s = &mut self.sprites[i];
        if collide {
            if xa < 0.0 {
                s.x = (((s.x - w) / TILE) as i32 * 16) as f32 + w;
                s.xa = 0.0;
            }
            if xa > 0.0 {
                s.x = ((((s.x + w) / TILE) as i32 + 1) * 16) as f32 - w - 1.0;
                s.xa = 0.0;
            }
            if ya < 0.0 {
                s.y = (((s.y - s.height) / TILE) as i32 * 16) as f32 + s.height;
                s.ya = 0.0;
            }
            if ya > 0.0 {
                s.y = (((s.y / TILE) as i32 + 1) * 16) as f32 - 1.0;
                s.on_ground = true;
            }
            false
        } else {
            s.x += xa;
            s.y += ya;
            true
        }
    }

    /// True when (px, py) is in a solid tile (never the sprite's own cell). A shell hitting
    /// a block sideways bumps it.
    fn sprite_blocking(&mut self, i: usize, px: f32, py: f32, xa: f32, ya: f32) -> bool {
        let (tx, ty) = ((px / TILE) as i32, (py / TILE) as i32);
        let s = &self.sprites[i];
        if tx == (s.x / TILE) as i32 && ty == (s.y / TILE) as i32 {
            return false;
        }
        let blocking = self.tile_at(tx, ty).is_solid();
        if blocking && s.kind == SpriteKind::Shell && ya == 0.0 && xa != 0.0 {
            self.bump(tx, ty, true);
        }
        blocking
    }

    /// Sprite `i` meets Mario: stomped, kicked, hurting him, or (a mushroom) taken.
    pub(super) fn collide_with_mario(&mut self, i: usize) {
        let s = self.sprites[i];
        let m = self.mario;
        let (dx, dy) = (m.x - s.x, m.y - s.y);
        let reach = match s.kind {
            SpriteKind::Goomba | SpriteKind::Koopa => HALF_WIDTH * 2.0 + 4.0,
            SpriteKind::Shell | SpriteKind::Mushroom => 16.0,
        };
        if dx <= -reach || dx >= reach || dy <= -s.height || dy >= m.height {
            return;
        }
        let stomping = m.ya > 0.0 && dy <= 0.0 && (!m.on_ground || !m.was_on_ground);
        match s.kind {
            SpriteKind::Goomba | SpriteKind::Koopa => {
                if stomping {
                    self.stomp_bounce(s.y - (s.height as i32 / 2) as f32);
                    self.sprites[i].alive = false;
                    if s.kind == SpriteKind::Koopa {
                        self.add_sprite(Sprite::new(SpriteKind::Shell, s.x, s.y, 0));
                    }
                } else {
                    self.hurt_mario();
                }
            }
            SpriteKind::Shell => {
                if stomping {
                    self.stomp_bounce(s.y - (s.height as i32 / 2) as f32);
                    let facing = self.mario.facing;
                    let shell = &mut self.sprites[i];
                    if shell.facing != 0 {
                        shell.xa = 0.0;
                        shell.facing = 0;
                    } else {
                        shell.facing = facing;
                    }
                } else if s.facing != 0 {
                    self.hurt_mario();
                } else {
                    self.mario.invulnerable = 1;
                    self.sprites[i].facing = self.mario.facing;
                    self.events.kicks = self.events.kicks.saturating_add(1);
                }
            }
            SpriteKind::Mushroom => {
                self.sprites[i].alive = false;
                self.give_mushroom();
            }
        }
    }

    /// A sliding shell `shell` meets sprite `i`: enemies die, two shells destroy each other.
    pub(super) fn shell_hits(&mut self, i: usize, shell: usize) {
        let (t, sh) = (self.sprites[i], self.sprites[shell]);
        let (dx, dy) = (sh.x - t.x, sh.y - t.y);
        if dx <= -16.0 || dx >= 16.0 || dy <= -t.height || dy >= sh.height {
            return;
        }
        match t.kind {
            SpriteKind::Goomba | SpriteKind::Koopa => {
                self.sprites[i].alive = false;
                self.events.kills = self.events.kills.saturating_add(1);
            }
            SpriteKind::Shell => {
                self.sprites[i].alive = false;
                self.sprites[shell].alive = false;
                self.events.kills = self.events.kills.saturating_add(1);
            }
            SpriteKind::Mushroom => {}
        }
    }

    /// The block under sprite `i` was bumped at cell (x, y): enemies die, shells and
    /// mushrooms hop away from Mario.
    pub(super) fn bump_check(&mut self, i: usize, x: i32, y: i32) {
        let mario_facing = self.mario.facing;
        let s = &mut self.sprites[i];
        let left = x as f32 * TILE;
        if s.x + HALF_WIDTH > left
            && s.x - HALF_WIDTH < left + TILE
            && y == ((s.y - 1.0) / TILE) as i32
        {
            match s.kind {
                SpriteKind::Goomba | SpriteKind::Koopa => {
                    s.alive = false;
                    self.events.kills = self.events.kills.saturating_add(1);
                }
                SpriteKind::Shell | SpriteKind::Mushroom => {
                    s.facing = -mario_facing;
                    s.ya = -10.0;
                }
            }
        }
    }
}
