//! Everything that moves besides Mario: goombas, koopas (green and red), spikies, their
//! winged kinds, piranha plants, bullet bills, shells and mushrooms. Their state
//! ([`SpriteKind`], the crate-private `Sprite`), their per-tick walk through the tiles, and
//! how they meet Mario, shells and bumped blocks — each as the Mario AI Framework's
//! `Enemy`, `FlowerEnemy`, `BulletBill`, `Shell`, `Mushroom` and `LifeMushroom` do it.

use super::world::World;
use super::{
    HALF_WIDTH, INERTIA, SHELL_SPEED, SHORT_HEIGHT, SPRITE_GRAVITY, TALL_HEIGHT, TILE,
    VERTICAL_DAMPING,
};

/// Vertical damping of a winged enemy (framework: 0.95).
const WINGED_DAMPING: f32 = 0.95;
/// Gravity of a winged enemy (framework: 0.6).
const WINGED_GRAVITY: f32 = 0.6;
/// The hop a winged enemy starts whenever it stands on something (framework: -10).
const WINGED_HOP: f32 = -10.0;
/// How far a piranha plant rises out of its pipe, in pixels (framework: 20).
const PIRANHA_RISE: f32 = 20.0;
/// Ticks a piranha plant waits at the top and at the bottom (framework: more than 40).
const PIRANHA_WAIT: u16 = 40;
/// A piranha plant stays down while Mario is this close, in pixels (framework: 24).
const PIRANHA_SHY: i32 = 24;
/// Half of a piranha plant's collision width (framework: 2).
const PIRANHA_HALF_WIDTH: f32 = 2.0;
/// A bullet bill's speed in pixels per tick (framework: 4).
const BULLET_SPEED: f32 = 4.0;

/// What a sprite is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpriteKind {
    /// A goomba: stomped, it dies.
    Goomba,
    /// A green koopa: stomped, it becomes a shell. Walks off ledges.
    Koopa,
    /// A red koopa: as a green one, but it turns at ledges.
    RedKoopa,
    /// A spiky: it cannot be stomped (a shell or a bumped block still kills it).
    Spiky,
    /// A koopa's shell: still until kicked or stomped, then slides and kills.
    Shell,
    /// A mushroom: makes small Mario big.
    Mushroom,
    /// A 1-up mushroom: gives Mario a life.
    LifeMushroom,
    /// A piranha plant: rises out of its pipe and sinks back; it cannot be stomped.
    Piranha,
    /// A bullet bill: fired by a cannon, it flies straight; a stomp ends it.
    BulletBill,
}

impl SpriteKind {
    /// True for the kinds the framework's `Enemy` class plays (they walk, may have wings).
    pub const fn walks(self) -> bool {
        matches!(
            self,
            SpriteKind::Goomba | SpriteKind::Koopa | SpriteKind::RedKoopa | SpriteKind::Spiky
        )
    }

    /// True for what hurts Mario on touch (a still shell does not, a moving one does).
    pub const fn is_enemy(self) -> bool {
        self.walks() || matches!(self, SpriteKind::Piranha | SpriteKind::BulletBill)
    }

    /// True for the mushrooms.
    pub const fn is_item(self) -> bool {
        matches!(self, SpriteKind::Mushroom | SpriteKind::LifeMushroom)
    }
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
    /// Horizontal speed in pixels per tick (as the framework keeps it: after friction).
    pub xa: f32,
    /// Vertical speed in pixels per tick.
    pub ya: f32,
    /// 1 right, -1 left, 0 for a still shell.
    pub facing: i8,
    /// True while the sprite has wings.
    pub winged: bool,
    /// True when it appeared with wings: the framework's sprite type stays the winged one
    /// after a stomp takes them (`GOOMBA_WINGED` falls like a goomba, named as before).
    pub born_winged: bool,
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
    /// True while a walking enemy has wings (a stomp takes them).
    pub winged: bool,
    /// True when it appeared with wings.
    pub born_winged: bool,
    /// Ticks a mushroom has spent rising out of its box.
    pub life: u8,
    /// Ticks a piranha plant has waited at the top or the bottom.
    pub wait: u16,
    /// A piranha plant's lowest point (its spawn height).
    pub y_start: f32,
    /// Set when a moving shell must be checked against the other sprites this tick.
    pub shell_check: bool,
}

impl Sprite {
    pub(crate) fn new(kind: SpriteKind, x: f32, y: f32, facing: i8) -> Sprite {
        let height = if matches!(kind, SpriteKind::Koopa | SpriteKind::RedKoopa) {
            TALL_HEIGHT
        } else {
            SHORT_HEIGHT
        };
        let ya = match kind {
            SpriteKind::Shell | SpriteKind::BulletBill => -5.0,
            SpriteKind::Piranha => -1.0,
            _ => 0.0,
        };
        Sprite {
            kind,
            x,
            y,
            xa: 0.0,
            ya,
            height,
            facing,
            on_ground: false,
            alive: true,
            winged: false,
            born_winged: false,
            life: 0,
            wait: 0,
            y_start: y,
            shell_check: false,
        }
    }

    /// A walking enemy, with or without wings.
    pub(crate) fn enemy(kind: SpriteKind, winged: bool, x: f32, y: f32, facing: i8) -> Sprite {
        Sprite {
            winged,
            born_winged: winged,
            ..Sprite::new(kind, x, y, facing)
        }
    }

    /// Half the collision width (a piranha plant is narrower than the rest).
    fn half_width(&self) -> f32 {
        if self.kind == SpriteKind::Piranha {
            PIRANHA_HALF_WIDTH
        } else {
            HALF_WIDTH
        }
    }

    pub(crate) fn view(&self) -> SpriteView {
        SpriteView {
            kind: self.kind,
            x: self.x,
            y: self.y,
            xa: self.xa,
            ya: self.ya,
            facing: self.facing,
            winged: self.winged,
            born_winged: self.born_winged,
        }
    }
}

impl World {
    /// One tick of a sprite: walk (or slide, hop, rise, fly) at its speed, turn at walls,
    /// fall.
    pub(super) fn update_sprite(&mut self, i: usize) {
        match self.sprites[i].kind {
            SpriteKind::Piranha => return self.update_piranha(i),
            SpriteKind::BulletBill => {
                let s = &mut self.sprites[i];
                s.xa = f32::from(s.facing) * BULLET_SPEED;
                s.x += s.xa;
                return;
            }
            _ => {}
        }
        let s = &mut self.sprites[i];
        if s.kind.is_item() && s.life < super::MUSHROOM_RISE {
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
        s.ya *= if s.winged {
            WINGED_DAMPING
        } else {
            VERTICAL_DAMPING
        };
        s.xa *= INERTIA;
        if !s.on_ground {
            s.ya += if s.winged {
                WINGED_GRAVITY
            } else {
                SPRITE_GRAVITY
            };
        } else if s.winged {
            s.ya = WINGED_HOP;
        }
    }

    /// A piranha plant's tick: up 1 px a tick to its top, a wait, down to its pipe, a wait
    /// (longer while Mario stands near the pipe), as the framework's `FlowerEnemy`.
    fn update_piranha(&mut self, i: usize) {
        let mario_x = self.mario.x;
        let s = &mut self.sprites[i];
        if s.ya > 0.0 {
            if s.y >= s.y_start {
                s.y = s.y_start;
                let distance = (mario_x - s.x).abs() as i32;
                s.wait += 1;
                if s.wait > PIRANHA_WAIT && distance > PIRANHA_SHY {
                    s.wait = 0;
                    s.ya = -1.0;
                }
            }
        } else if s.ya < 0.0 && s.y_start - s.y > PIRANHA_RISE {
            s.y = s.y_start - PIRANHA_RISE;
            s.wait += 1;
            if s.wait > PIRANHA_WAIT {
                s.wait = 0;
                s.ya = 1.0;
            }
        }
        s.y += s.ya;
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
        let Sprite {
            x,
            y,
            height,
            kind,
            on_ground,
            ..
        } = self.sprites[i];
        let w = HALF_WIDTH;
        let avoid_cliffs = kind == SpriteKind::RedKoopa && on_ground;
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
                // A red koopa on the ground turns where the tile ahead of its feet would
                // not hold it (the framework asks the level directly, own cell or not).
                if avoid_cliffs
                    && !self
                        .tile_at((edge / TILE) as i32, (y / TILE + 1.0) as i32)
                        .blocks(1.0)
                {
                    collide = true;
                }
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
        let blocking = self.tile_at(tx, ty).blocks(ya);
        if blocking && s.kind == SpriteKind::Shell && ya == 0.0 && xa != 0.0 {
            self.bump(tx, ty, true);
        }
        blocking
    }

    /// Sprite `i` meets Mario: stomped (a winged enemy loses its wings), kicked, hurting
    /// him, or (a mushroom) taken.
    pub(super) fn collide_with_mario(&mut self, i: usize) {
        let s = self.sprites[i];
        let m = self.mario;
        let (dx, dy) = (m.x - s.x, m.y - s.y);
        let reach = if s.kind.walks() || s.kind == SpriteKind::Piranha {
            s.half_width() * 2.0 + 4.0
        } else {
            16.0
        };
        if dx <= -reach || dx >= reach || dy <= -s.height || dy >= m.height {
            return;
        }
        let stomping = m.ya > 0.0 && dy <= 0.0 && (!m.on_ground || !m.was_on_ground);
        let top = s.y - (s.height as i32 / 2) as f32;
        match s.kind {
            SpriteKind::Goomba | SpriteKind::Koopa | SpriteKind::RedKoopa => {
                if stomping {
                    self.stomp_bounce(top);
                    if s.winged {
                        let e = &mut self.sprites[i];
                        e.winged = false;
                        e.ya = 0.0;
                    } else {
                        self.sprites[i].alive = false;
                        if s.kind != SpriteKind::Goomba {
                            self.add_sprite(Sprite::new(SpriteKind::Shell, s.x, s.y, 0));
                        }
                    }
                } else {
                    self.hurt_mario();
                }
            }
            SpriteKind::Spiky | SpriteKind::Piranha => self.hurt_mario(),
            SpriteKind::BulletBill => {
                if stomping {
                    self.stomp_bounce(top);
                    self.sprites[i].alive = false;
                } else {
                    self.hurt_mario();
                }
            }
            SpriteKind::Shell => {
                if stomping {
                    self.stomp_bounce(top);
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
            SpriteKind::LifeMushroom => {
                self.sprites[i].alive = false;
                self.give_life();
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
            SpriteKind::Shell => {
                self.sprites[i].alive = false;
                self.sprites[shell].alive = false;
                self.events.kills = self.events.kills.saturating_add(1);
            }
            SpriteKind::Mushroom | SpriteKind::LifeMushroom => {}
            _ => {
                self.sprites[i].alive = false;
                self.events.kills = self.events.kills.saturating_add(1);
            }
        }
    }

    /// The block under sprite `i` was bumped at cell (x, y): enemies die, shells and
    /// mushrooms hop away from Mario; a bullet bill does not notice.
    pub(super) fn bump_check(&mut self, i: usize, x: i32, y: i32) {
        let mario_facing = self.mario.facing;
        let s = &mut self.sprites[i];
        let left = x as f32 * TILE;
        let w = s.half_width();
        if s.kind != SpriteKind::BulletBill
            && s.x + w > left
            && s.x - w < left + TILE
            && y == ((s.y - 1.0) / TILE) as i32
        {
            match s.kind {
                SpriteKind::Shell | SpriteKind::Mushroom | SpriteKind::LifeMushroom => {
                    s.facing = -mario_facing;
                    s.ya = -10.0;
                }
                _ => {
                    s.alive = false;
                    self.events.kills = self.events.kills.saturating_add(1);
                }
            }
        }
    }
}
