//! A deterministic Super Mario tick engine, rebuilt in Rust from the rules of the Mario AI
//! Framework (amidos2006/Mario-AI-Framework): the same tick order, sub-stepped tile
//! collision, walking/running/jumping physics, stomping, shells, bumped blocks, mushrooms,
//! falling deaths and the timer. The engine owns the level's fixed tiles ([`LevelMap`],
//! shared behind an `Arc`) and all changing state ([`World`], cheap to clone for search).
//!
//! Same map + same action sequence → same trajectory: no hash-map iteration, no clocks,
//! only `f32` arithmetic in a fixed order.
//!
//! Where it is simpler than the framework, the tile set it plays and the side-by-side with the
//! framework: docs/mario.md, "The engine".

mod level;
mod mario;
mod sprites;
mod world;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tile_tests;

pub use level::{LevelError, LevelMap};
pub use mario::Mario;
pub use sprites::{SpriteKind, SpriteView};
pub use world::World;

use std::ops::BitOr;

/// Side length of one tile in pixels.
pub const TILE: f32 = 16.0;
/// Horizontal friction applied every tick on the ground and in the air (framework: 0.89).
pub const INERTIA: f32 = 0.89;
/// Vertical damping applied every tick (framework: 0.85).
pub const VERTICAL_DAMPING: f32 = 0.85;
/// Mario's gravity per tick when airborne.
pub const MARIO_GRAVITY: f32 = 3.0;
/// Gravity per tick for enemies, shells and mushrooms.
pub const SPRITE_GRAVITY: f32 = 2.0;
/// Mario's acceleration per tick while walking.
pub const WALK_ACCELERATION: f32 = 0.6;
/// Mario's acceleration per tick while running (SPEED held).
pub const RUN_ACCELERATION: f32 = 1.2;
/// Upward speed per remaining jump tick (framework: yJumpSpeed = -1.9).
pub const JUMP_SPEED: f32 = -1.9;
/// Ticks of upward push a jump lasts while JUMP is held (framework: jumpTime = 7).
pub const JUMP_TIME: i32 = 7;
/// Ticks of upward push after stomping an enemy (framework: 8).
pub const STOMP_JUMP_TIME: i32 = 8;
/// Mario's top running speed in pixels per tick: 1.2 · 0.89 / 0.11 + 1.2.
pub const MAX_RUN_SPEED: f32 = 10.909_091;
/// Walking speed of goombas, koopas and mushrooms in pixels per tick.
pub const ENEMY_SPEED: f32 = 1.75;
/// Sliding speed of a kicked shell in pixels per tick (framework: 11).
pub const SHELL_SPEED: f32 = 11.0;
/// Half of Mario's (and every sprite's) collision width.
pub const HALF_WIDTH: f32 = 4.0;
/// Height of big Mario and of koopas.
pub const TALL_HEIGHT: f32 = 24.0;
/// Height of small (or ducking) Mario, goombas, shells and mushrooms.
pub const SHORT_HEIGHT: f32 = 12.0;
/// Ticks Mario cannot be hurt after shrinking (framework: 32).
pub const INVULNERABLE_TICKS: u8 = 32;
/// Ticks the whole world freezes while Mario grows or shrinks (framework: 3 · 3).
pub const POWER_UP_PAUSE: u8 = 9;
/// Ticks a mushroom spends rising out of its box.
pub const MUSHROOM_RISE: u8 = 9;
/// The framework's default time limit (20 s of 30 ms ticks), in playable ticks.
pub const DEFAULT_TIME_TICKS: u32 = 20_000 / 30;
/// Width of the framework's camera (screen) in pixels.
pub const SCREEN_WIDTH: f32 = 256.0;
/// Height of the framework's screen in pixels (the lowest fall limit).
pub const SCREEN_HEIGHT: f32 = 256.0;

/// The buttons held during one tick, as bit flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(pub u8);

impl Action {
    /// No button.
    pub const NONE: Action = Action(0);
    /// Walk left.
    pub const LEFT: Action = Action(1);
    /// Walk right.
    pub const RIGHT: Action = Action(2);
    /// Duck (big Mario only, on the ground).
    pub const DOWN: Action = Action(4);
    /// Run (doubles the acceleration).
    pub const SPEED: Action = Action(8);
    /// Jump; holding it longer jumps higher.
    pub const JUMP: Action = Action(16);
    /// Run right.
    pub const RUN_RIGHT: Action = Action(2 | 8);
    /// Walk right and jump.
    pub const JUMP_RIGHT: Action = Action(2 | 16);
    /// Run right and jump.
    pub const RUN_JUMP_RIGHT: Action = Action(2 | 8 | 16);
    /// Run left.
    pub const RUN_LEFT: Action = Action(1 | 8);
    /// Walk left and jump.
    pub const JUMP_LEFT: Action = Action(1 | 16);
    /// Run left and jump.
    pub const RUN_JUMP_LEFT: Action = Action(1 | 8 | 16);
    /// Jump in place while holding SPEED.
    pub const RUN_JUMP: Action = Action(8 | 16);

    /// Both sets of buttons.
    pub const fn with(self, other: Action) -> Action {
        Action(self.0 | other.0)
    }

    /// These buttons without `other`'s.
    pub const fn without(self, other: Action) -> Action {
        Action(self.0 & !other.0)
    }

    /// True when every button of `other` is held.
    pub const fn contains(self, other: Action) -> bool {
        self.0 & other.0 == other.0
    }

    /// True when LEFT is held.
    pub const fn left(self) -> bool {
        self.contains(Action::LEFT)
    }

    /// True when RIGHT is held.
    pub const fn right(self) -> bool {
        self.contains(Action::RIGHT)
    }

    /// True when DOWN is held.
    pub const fn down(self) -> bool {
        self.contains(Action::DOWN)
    }

    /// True when SPEED is held.
    pub const fn speed(self) -> bool {
        self.contains(Action::SPEED)
    }

    /// True when JUMP is held.
    pub const fn jump(self) -> bool {
        self.contains(Action::JUMP)
    }
}

impl BitOr for Action {
    type Output = Action;
    fn bitor(self, rhs: Action) -> Action {
        self.with(rhs)
    }
}

/// Why Mario lost (or took damage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// Touched by an enemy or a sliding shell.
    Enemy,
    /// Fell below the level.
    Hole,
    /// The timer ran out.
    Time,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Still playing.
    Running,
    /// Mario reached the goal column.
    Won,
    /// Mario lost, and why.
    Lost(Cause),
}

/// What happened during the last tick (reset at the start of every [`World::step`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickEvents {
    /// Damage Mario took (shrinking counts as damage), with its cause.
    pub damage: Option<Cause>,
    /// Enemies Mario stomped (a koopa turned into a shell counts, a stopped shell too).
    pub stomps: u8,
    /// Enemies killed by a sliding shell or by a block bumped under them.
    pub kills: u8,
    /// Still shells Mario kicked.
    pub kicks: u8,
    /// Coins Mario got (floating coins and coin blocks).
    pub coins: u8,
    /// Blocks bumped from below (or hit by a shell).
    pub bumps: u8,
    /// Bricks broken.
    pub bricks_broken: u8,
    /// Mushrooms Mario took.
    pub mushrooms: u8,
    /// 1-up mushrooms Mario took.
    pub lives: u8,
    /// True when Mario started a jump this tick.
    pub jumped: bool,
}
