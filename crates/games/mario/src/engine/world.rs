//! The changing state of one game ([`World`]) and the tick that advances it: timer, camera,
//! spawning, sprite and Mario updates, collisions, shells, and changed tiles.

use super::level::LevelMap;
use super::mario::Mario;
use super::sprites::{Sprite, SpriteKind, SpriteView};
use super::{
    Action, Cause, Status, TickEvents, DEFAULT_TIME_TICKS, SCREEN_HEIGHT, SCREEN_WIDTH, TILE,
};
use crate::tiles::Tile;
use std::sync::Arc;

/// Margin in pixels beyond the camera where sprites are dropped (framework: 64).
const DESPAWN_MARGIN: f32 = 64.0;
/// Pixels below the screen (or level) bottom where anything falling is gone (framework: 32).
const FALL_MARGIN: f32 = 32.0;
/// A cannon fires on every tick the framework's tick counter is a multiple of this (100).
const CANNON_PERIOD: u32 = 100;

/// All dynamic state of one game: Mario, sprites, changed tiles, timer and status.
/// Cloning is cheap (the map is shared; two small vectors are copied).
#[derive(Clone, Debug)]
pub struct World {
    map: Arc<LevelMap>,
    pub(super) mario: Mario,
    pub(super) sprites: Vec<Sprite>,
    /// Tiles changed since the start (flat index, new tile), newest last.
    changes: Vec<(u32, Tile)>,
    next_spawn: usize,
    time_left: u32,
    ticks: u32,
    /// The framework's tick counter: ticks played, pauses and the timer's end not counted.
    frames: u32,
    pub(super) pause: u8,
    pub(super) status: Status,
    pub(super) events: TickEvents,
    camera_x: f32,
    coins: u32,
    lives: u32,
    fall_limit: f32,
    goal_x: f32,
}

impl World {
    /// A new game on `map`: small Mario at the start, the framework's default time limit.
    pub fn new(map: Arc<LevelMap>) -> World {
        let (column, row) = map.start_cell();
        let mario = Mario::new(column as f32 * TILE + 8.0, row as f32 * TILE + 15.0);
        let fall_limit = map.pixel_height().max(SCREEN_HEIGHT) + FALL_MARGIN;
        let goal_x = map.goal_column() as f32 * TILE;
        World {
            map,
            mario,
            sprites: Vec::new(),
            changes: Vec::new(),
            next_spawn: 0,
            time_left: DEFAULT_TIME_TICKS,
            ticks: 0,
            frames: 0,
            pause: 0,
            status: Status::Running,
            events: TickEvents::default(),
            camera_x: 0.0,
            coins: 0,
            lives: 0,
            fall_limit,
            goal_x,
        }
    }

    /// The same game with a different time limit, in playable ticks.
    pub fn with_time_limit(mut self, ticks: u32) -> World {
        self.time_left = ticks;
        self
    }

    /// The same game with Mario starting big (or small).
    pub fn with_big_mario(mut self, big: bool) -> World {
        self.mario.big = big;
        self.mario.height = if big {
            super::TALL_HEIGHT
        } else {
            super::SHORT_HEIGHT
        };
        self
    }

    /// Advances the game by one tick with `action` held. Does nothing once won or lost.
    pub fn step(&mut self, action: Action) {
        self.events = TickEvents::default();
        if self.status != Status::Running {
            return;
        }
        self.ticks += 1;
        if self.pause > 0 {
            self.pause -= 1;
            return;
        }
        if self.time_left == 0 {
            self.lose(Cause::Time);
            return;
        }
        self.time_left -= 1;
        self.frames += 1;

        self.camera_x = (self.mario.x - SCREEN_WIDTH / 2.0).max(0.0);
        if self.camera_x + SCREEN_WIDTH > self.map.pixel_width() {
            self.camera_x = self.map.pixel_width() - SCREEN_WIDTH;
        }
        // Mario below the level is lost, but the tick goes on without him, as in the
        // framework: the other sprites still move (and spawn) this tick.
        let fell = self.mario.y > self.fall_limit;
        if fell {
            self.lose(Cause::Hole);
        }
        let (left, right) = (
            self.camera_x - DESPAWN_MARGIN,
            self.camera_x + SCREEN_WIDTH + DESPAWN_MARGIN,
        );
        for s in &mut self.sprites {
            if s.x < left || s.x > right || s.y > self.fall_limit {
                s.alive = false;
            }
        }
        // Sprites spawned this tick got their first update on arrival; like the framework's
        // added sprites, they sit out this tick's update and collision passes.
        let count = self.sprites.len();
        self.spawn_enemies();
        self.fire_cannons();

        for i in 0..count {
            if self.sprites[i].alive {
                self.update_sprite(i);
            }
        }
        if fell {
            self.sprites.retain(|s| s.alive);
            return;
        }
        // A win does not end the tick either: an enemy touching Mario on the tick he reaches
        // the goal still hurts him, and a small Mario is then lost, as in the framework.
        self.update_mario(action);
        for i in 0..count {
            if self.sprites[i].alive {
                self.collide_with_mario(i);
            }
        }
        for i in 0..count {
            if self.sprites[i].shell_check {
                self.sprites[i].shell_check = false;
                for j in 0..count {
                    if j != i && self.sprites[i].alive && self.sprites[j].alive {
                        self.shell_hits(j, i);
                    }
                }
            }
        }
        self.sprites.retain(|s| s.alive);
    }

    /// Spawns the enemies whose column has come within one tile of the camera's right edge.
    fn spawn_enemies(&mut self) {
        let (left_column, right_column) = self.camera_columns();
        let map = Arc::clone(&self.map);
        let spawns = map.spawns();
        while let Some(spawn) = spawns.get(self.next_spawn) {
            if spawn.column > right_column {
                break;
            }
            self.next_spawn += 1;
            if spawn.column < left_column {
                continue;
            }
            let center = spawn.column as f32 * TILE + 8.0;
            let facing = if center > self.mario.x + 16.0 { -1 } else { 1 };
            let sprite = if spawn.kind == SpriteKind::Piranha {
                // The framework's `FlowerEnemy` stands in the middle of its two-tile pipe.
                Sprite::new(
                    SpriteKind::Piranha,
                    spawn.column as f32 * TILE + 17.0,
                    spawn.row as f32 * TILE + 18.0,
                    1,
                )
            } else {
                Sprite::enemy(
                    spawn.kind,
                    spawn.winged,
                    center,
                    spawn.row as f32 * TILE + 15.0,
                    facing,
                )
            };
            self.add_sprite(sprite);
        }
    }

    /// On every 100th tick of the framework's counter, each cannon top within a tile of the
    /// camera that is more than a tile from Mario fires a bullet bill towards him.
    fn fire_cannons(&mut self) {
        if !self.frames.is_multiple_of(CANNON_PERIOD) || self.map.cannons().is_empty() {
            return;
        }
        let (left_column, right_column) = self.camera_columns();
        let camera_y = self.camera_y();
        let (top_row, bottom_row) = (
            (camera_y as i32) / 16 - 1,
            ((camera_y + SCREEN_HEIGHT) as i32) / 16 + 1,
        );
        let map = Arc::clone(&self.map);
        for &(x, y) in map.cannons() {
            if x < left_column || x > right_column || y < top_row || y > bottom_row {
                continue;
            }
            let centre = (x * 16 + 8) as f32;
            let dir: i8 = if centre > self.mario.x + 16.0 {
                -1
            } else if centre < self.mario.x - 16.0 {
                1
            } else {
                continue;
            };
            let bill = Sprite::new(
                SpriteKind::BulletBill,
                centre + f32::from(dir) * 8.0,
                (y * 16 + 15) as f32,
                dir,
            );
            self.add_sprite(bill);
        }
    }

    /// The columns the framework looks at for spawns: the camera's, and one more each side.
    fn camera_columns(&self) -> (i32, i32) {
        (
            (self.camera_x as i32) / 16 - 1,
            ((self.camera_x + SCREEN_WIDTH) as i32) / 16 + 1,
        )
    }

    /// The camera's top edge as the framework places it (Mario in the middle, inside the
    /// level; 0 for levels up to 16 rows).
    fn camera_y(&self) -> f32 {
        let mut y = self.mario.y - SCREEN_HEIGHT / 2.0;
        if y + SCREEN_HEIGHT > self.map.pixel_height() {
            y = self.map.pixel_height() - SCREEN_HEIGHT;
        }
        y.max(0.0)
    }

    /// Adds a sprite and gives it its first update at once, as the framework does.
    pub(super) fn add_sprite(&mut self, sprite: Sprite) {
        self.sprites.push(sprite);
        let index = self.sprites.len() - 1;
        self.update_sprite(index);
    }

    /// Ends the game lost for `cause`.
    pub(super) fn lose(&mut self, cause: Cause) {
        self.status = Status::Lost(cause);
        self.events.damage = Some(cause);
    }

    /// Ends the game won.
    pub(super) fn win(&mut self) {
        self.status = Status::Won;
    }

    /// Counts one life for Mario (a 1-up mushroom).
    pub(super) fn give_life(&mut self) {
        self.lives += 1;
        self.events.lives = self.events.lives.saturating_add(1);
    }

    /// Counts one coin for Mario.
    pub(super) fn collect_coin(&mut self) {
        self.coins += 1;
        self.events.coins = self.events.coins.saturating_add(1);
    }

    /// The tile at a flat index, with changes applied.
    #[inline]
    pub(super) fn tile_at_index(&self, index: usize) -> Tile {
        let base = self.map.terrain_at(index);
        if !base.is_changeable() {
            return base;
        }
        self.changes
            .iter()
            .rev()
            .find(|&&(i, _)| i as usize == index)
            .map_or(base, |&(_, t)| t)
    }

    /// The collision tile at cell (x, y): x clamped into the level, air above and below it.
    #[inline]
    pub(super) fn tile_at(&self, x: i32, y: i32) -> Tile {
        self.map
            .index(x, y)
            .map_or(Tile::Empty, |i| self.tile_at_index(i))
    }

    /// Changes the tile at a flat index.
    pub(super) fn set_tile_index(&mut self, index: usize, tile: Tile) {
        if let Some(change) = self.changes.iter_mut().find(|c| c.0 as usize == index) {
            change.1 = tile;
        } else {
            self.changes.push((index as u32, tile));
        }
    }

    /// Bumps the block at (x, y) from below: boxes pay out and become used, bricks break
    /// when `can_break`; whatever stands on the block is hit.
    pub(super) fn bump(&mut self, x: i32, y: i32, can_break: bool) {
        if x < 0 || x >= self.map.width() as i32 {
            return;
        }
        let Some(index) = self.map.index(x, y) else {
            return;
        };
        match self.tile_at_index(index) {
            Tile::Brick => {
                self.events.bumps = self.events.bumps.saturating_add(1);
                self.bump_into(x, y - 1);
                if can_break {
                    self.set_tile_index(index, Tile::Empty);
                    self.events.bricks_broken = self.events.bricks_broken.saturating_add(1);
                }
            }
            tile if tile.is_bumpable() => {
                self.events.bumps = self.events.bumps.saturating_add(1);
                self.bump_into(x, y - 1);
                self.set_tile_index(index, Tile::UsedBlock);
                let item = match tile {
                    Tile::ItemBox | Tile::MushroomBrick => Some(SpriteKind::Mushroom),
                    Tile::LifeBrick | Tile::HiddenLifeBlock => Some(SpriteKind::LifeMushroom),
                    _ => None,
                };
                match item {
                    Some(kind) => {
                        let item =
                            Sprite::new(kind, x as f32 * TILE + 9.0, y as f32 * TILE + 8.0, 1);
                        self.add_sprite(item);
                    }
                    None => self.collect_coin(),
                }
            }
            _ => {}
        }
    }

    /// Hits the cell above a bumped block: a coin there is taken, sprites there are hit.
    fn bump_into(&mut self, x: i32, y: i32) {
        if let Some(index) = self.map.index(x, y) {
            if x >= 0 && x < self.map.width() as i32 && self.tile_at_index(index) == Tile::Coin {
                self.collect_coin();
                self.set_tile_index(index, Tile::Empty);
            }
        }
        for i in 0..self.sprites.len() {
            if self.sprites[i].alive {
                self.bump_check(i, x, y);
            }
        }
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// True while the game is neither won nor lost.
    pub fn is_running(&self) -> bool {
        self.status == Status::Running
    }

    /// Mario's state.
    pub fn mario(&self) -> &Mario {
        &self.mario
    }

    /// Ticks stepped so far while running (power-up pauses included).
    pub fn tick(&self) -> u32 {
        self.ticks
    }

    /// Playable ticks left before the timer runs out.
    pub fn time_left_ticks(&self) -> u32 {
        self.time_left
    }

    /// Ticks the world stays frozen for Mario growing or shrinking.
    pub fn pause_ticks(&self) -> u8 {
        self.pause
    }

    /// What happened during the last tick.
    pub fn events(&self) -> &TickEvents {
        &self.events
    }

    /// Coins collected so far.
    pub fn coins(&self) -> u32 {
        self.coins
    }

    /// Lives won so far (1-up mushrooms taken).
    pub fn lives(&self) -> u32 {
        self.lives
    }

    /// The framework's tick counter (`currentTick`): ticks played, pauses not counted.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// The camera's left edge in pixels, as of the last tick.
    pub fn camera_x(&self) -> f32 {
        self.camera_x
    }

    /// The x in pixels Mario must reach to win (the goal column's left edge).
    pub fn goal_x(&self) -> f32 {
        self.goal_x
    }

    /// The map this game is played on.
    pub fn map(&self) -> &Arc<LevelMap> {
        &self.map
    }

    /// Every live sprite (enemies, shells, mushrooms), for drawing.
    pub fn sprites(&self) -> impl Iterator<Item = SpriteView> + '_ {
        self.sprites.iter().filter(|s| s.alive).map(Sprite::view)
    }

    /// The live enemies and shells (no mushrooms), for drawing.
    pub fn enemies(&self) -> impl Iterator<Item = SpriteView> + '_ {
        self.sprites().filter(|s| !s.kind.is_item())
    }

    /// The tile now at column `x`, row `y` (bumped, broken and collected tiles applied;
    /// enemy starts and markers read as air). Outside the level: air.
    pub fn tiles_now(&self, x: usize, y: usize) -> Tile {
        if x >= self.map.width() || y >= self.map.height() {
            return Tile::Empty;
        }
        self.tile_at_index(y * self.map.width() + x)
    }

    /// The number of tiles changed since the start (bumped, broken, collected).
    pub fn changed_tiles(&self) -> usize {
        self.changes.len()
    }
}
