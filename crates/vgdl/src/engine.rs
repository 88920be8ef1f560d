//! The engine: a level of a compiled game, stepped one GVGAI game cycle at a time.
//!
//! A cycle runs as GVGAI's `Game.gameCycle`: the tick count goes up; the avatar moves with
//! the player's action, then every other sprite updates, type by type from the end of the
//! sprite order to its start; then the edge rules, then each pair's rules in the order the
//! interaction set first names the pair (each rule against the sprites that overlap at that
//! moment); then the dead are removed, the terminations checked in order, and the game ends
//! at tick 2,000 as GVGAI's competition does. Random numbers come from `java.util.Random`
//! seeded as GVGAI seeds its game, drawn where GVGAI draws them.
//!
//! A [`State`] is plain data (sprites in vectors, no pointers), so `clone` is the agents'
//! forward model.

use std::sync::Arc;

use crate::rng::JavaRandom;
use crate::rules::{Class, Dir, Effect, Kind, Rule, Rules, Term};
use crate::{LevelDesc, VgdlError};

/// GVGAI's competition limit: a game still running at this tick is lost.
pub const MAX_TICKS: i32 = 2000;
/// GVGAI's window size, from which a level's cell size in pixels follows.
const WINDOW: i32 = 800;
/// GVGAI's limit on sprites alive at once.
const MAX_SPRITES: usize = 10_000;

/// A player's action, as GVGAI names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Nothing.
    Nil,
    /// Left.
    Left,
    /// Right.
    Right,
    /// Up.
    Up,
    /// Down.
    Down,
    /// Use (shoot, swing).
    Use,
}

impl Action {
    /// GVGAI's name of the action (`LEFT`, `NIL`).
    pub fn name(self) -> &'static str {
        match self {
            Action::Nil => "NIL",
            Action::Left => "LEFT",
            Action::Right => "RIGHT",
            Action::Up => "UP",
            Action::Down => "DOWN",
            Action::Use => "USE",
        }
    }

    /// The action named `word` (GVGAI's names, any case, with or without `ACTION_`).
    pub fn named(word: &str) -> Option<Action> {
        let w = word.to_ascii_uppercase();
        let w = w.strip_prefix("ACTION_").unwrap_or(&w);
        Some(match w {
            "NIL" | "NONE" => Action::Nil,
            "LEFT" => Action::Left,
            "RIGHT" => Action::Right,
            "UP" => Action::Up,
            "DOWN" => Action::Down,
            "USE" => Action::Use,
            _ => return None,
        })
    }

    fn dir(self) -> Dir {
        match self {
            Action::Left => Dir::LEFT,
            Action::Right => Dir::RIGHT,
            Action::Up => Dir::UP,
            Action::Down => Dir::DOWN,
            Action::Nil | Action::Use => Dir::NONE,
        }
    }
}

/// How a game ended for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// Not ended.
    None,
    /// Won.
    Wins,
    /// Lost.
    Loses,
}

/// A rectangle in pixels (`java.awt.Rectangle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left.
    pub x: i32,
    /// Top.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

impl Rect {
    /// Overlap with area (touching edges do not count), as `Rectangle.intersects`.
    pub fn intersects(&self, o: &Rect) -> bool {
        self.w > 0
            && self.h > 0
            && o.w > 0
            && o.h > 0
            && o.x < self.x + self.w
            && o.y < self.y + self.h
            && self.x < o.x + o.w
            && self.y < o.y + o.h
    }
}

/// One sprite.
#[derive(Clone, Debug)]
pub struct Sprite {
    /// Its type.
    pub kind: Kind,
    /// Its number, in the order sprites were made.
    pub id: u32,
    /// Where it is.
    pub rect: Rect,
    /// Where it was before this tick's moves.
    pub last: Rect,
    /// Its direction.
    pub orientation: Dir,
    /// Whether it has a direction.
    pub oriented: bool,
    /// Ticks since it last moved.
    pub lastmove: i32,
    /// True until its first update.
    pub first_tick: bool,
    /// Disabled (a dead avatar: GVGAI keeps it, out of play).
    pub disabled: bool,
    /// Killed this tick (removed at the end of it).
    pub dead: bool,
    /// Health points, their maximum and their limit.
    pub hp: i32,
    /// The most health points it has had.
    pub max_hp: i32,
    /// Resources held: (resource type, amount), by type.
    pub resources: Vec<(Kind, i32)>,
    /// A flicker's age; a spawn point's count of spawns; a random mover's repeat count.
    pub counter: i32,
    /// A spawn point's first tick (-1 before its first update).
    pub start: i32,
    /// A random mover's last direction.
    pub prev: Dir,
}

impl Sprite {
    /// The amount of `resource` held.
    pub fn resource(&self, resource: Kind) -> i32 {
        self.resources
            .iter()
            .find(|(k, _)| *k == resource)
            .map_or(0, |(_, n)| *n)
    }

    fn set_resource(&mut self, resource: Kind, amount: i32) {
        match self.resources.iter_mut().find(|(k, _)| *k == resource) {
            Some(slot) => slot.1 = amount,
            None => {
                self.resources.push((resource, amount));
                self.resources.sort_by_key(|(k, _)| *k);
            }
        }
    }

    /// GVGAI's `modifyResource`: never under 0.
    fn modify_resource(&mut self, resource: Kind, delta: i32) {
        let next = (self.resource(resource) + delta).max(0);
        self.set_resource(resource, next);
    }

    fn last_direction(&self) -> Dir {
        Dir {
            x: f64::from(self.rect.x - self.last.x),
            y: f64::from(self.rect.y - self.last.y),
        }
    }
}

/// Where a sprite is: its type and its place in the type's list.
type At = (Kind, usize);

/// A game in play.
#[derive(Clone, Debug)]
pub struct State {
    rules: Arc<Rules>,
    /// Cell size in pixels.
    pub block: i32,
    /// The level's size in cells.
    pub size: (i32, i32),
    /// The sprites of each type, in the order they were made.
    pub groups: Vec<Vec<Sprite>>,
    /// The avatar: its type and number.
    avatar: Option<(Kind, u32)>,
    /// GVGAI's game tick: -1 before the first cycle.
    pub tick: i32,
    /// The player's score.
    pub score: f64,
    /// Whether the game is over, and how.
    pub winner: Winner,
    /// The game's random numbers.
    pub rng: JavaRandom,
    next_id: u32,
    alive: usize,
}

impl State {
    /// A level of `rules` ready to play, its random numbers seeded with `seed` (GVGAI's
    /// `new Random(seed)`).
    ///
    /// # Errors
    /// [`VgdlError`] when the level has no avatar.
    pub fn new(rules: Arc<Rules>, level: &LevelDesc, seed: i64) -> Result<State, VgdlError> {
        let (w, h) = (level.width as i32, level.height as i32);
        let block = rules
            .square_size
            .unwrap_or_else(|| (WINDOW / w.max(h).max(1)).max(2));
        let n = rules.types.len();
        let mut state = State {
            rules: rules.clone(),
            block,
            size: (w, h),
            groups: vec![Vec::new(); n],
            avatar: None,
            tick: -1,
            score: 0.0,
            winner: Winner::None,
            rng: JavaRandom::new(seed),
            next_id: 0,
            alive: 0,
        };
        let mut avatars: Vec<(Kind, u32)> = Vec::new();
        for y in 0..level.height {
            for x in 0..level.width {
                for name in level.at(x, y) {
                    let Some(kind) = rules.kind(name) else {
                        continue;
                    };
                    let pos = (x as i32 * block, y as i32 * block);
                    if let Some(at) = state.add(kind, pos, false) {
                        let s = &state.groups[at.0][at.1];
                        if rules.types[kind].class.is_some_and(Class::is_avatar) {
                            avatars.push((kind, s.id));
                        }
                    }
                }
            }
        }
        // One player: GVGAI keeps the first avatar placed and removes the others.
        for &(kind, id) in avatars.iter().skip(1) {
            state.groups[kind].retain(|s| s.id != id);
            state.alive -= 1;
        }
        state.avatar = avatars.first().copied();
        if state.avatar.is_none() {
            return Err(VgdlError {
                file: rules.file.clone(),
                line: 1,
                message: "the level has no avatar".into(),
            });
        }
        Ok(state)
    }

    /// The compiled game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The avatar, while it is in the game (disabled when it died).
    pub fn avatar(&self) -> Option<&Sprite> {
        let (kind, id) = self.avatar?;
        self.groups[kind].iter().find(|s| s.id == id)
    }

    fn avatar_at(&self) -> Option<At> {
        let (kind, id) = self.avatar?;
        self.groups[kind]
            .iter()
            .position(|s| s.id == id)
            .map(|i| (kind, i))
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.winner != Winner::None
    }

    /// The actions the avatar takes (GVGAI's `getAvailableActions`, without NIL), in GVGAI's
    /// order; none once the avatar is gone.
    pub fn actions(&self) -> &'static [Action] {
        let Some(avatar) = self.avatar() else {
            return &[];
        };
        match self.rules.types[avatar.kind].class {
            Some(Class::ShootAvatar) => &[
                Action::Use,
                Action::Left,
                Action::Right,
                Action::Down,
                Action::Up,
            ],
            Some(Class::FlakAvatar) => &[Action::Use, Action::Left, Action::Right],
            Some(Class::HorizontalAvatar) => &[Action::Left, Action::Right],
            Some(Class::VerticalAvatar) => &[Action::Up, Action::Down],
            _ => &[Action::Left, Action::Right, Action::Down, Action::Up],
        }
    }

    /// The sprites of `kind` and its subtypes not disabled (what a termination counts).
    pub fn count(&self, kind: Kind) -> usize {
        self.rules.subtypes[kind]
            .iter()
            .map(|&k| self.groups[k].iter().filter(|s| !s.disabled).count())
            .sum()
    }

    /// Every sprite of `kind` and its subtypes, disabled and dead ones too (GVGAI's
    /// `getNumSprites`).
    fn count_all(&self, kind: Kind) -> usize {
        self.rules.subtypes[kind]
            .iter()
            .map(|&k| self.groups[k].len())
            .sum()
    }

    /// The score as GVGAI reports a finished game: a won game scores at least 1.
    pub fn final_score(&self) -> f64 {
        if self.winner == Winner::Wins && self.score <= 0.0 {
            1.0
        } else {
            self.score
        }
    }

    /// Makes a sprite of `kind` at `pos`, as GVGAI's `addSprite` (refused over the sprite
    /// limit, and for a singleton that has one already unless `force`).
    fn add(&mut self, kind: Kind, pos: (i32, i32), force: bool) -> Option<At> {
        if self.alive > MAX_SPRITES {
            return None;
        }
        let def = &self.rules.types[kind];
        if !force
            && def
                .itypes
                .iter()
                .any(|&t| self.rules.types[t].singleton && self.count_all(t) > 0)
        {
            return None;
        }
        let p = &def.proto;
        let rect = Rect {
            x: pos.0,
            y: pos.1,
            w: self.block,
            h: self.block,
        };
        let sprite = Sprite {
            kind,
            id: self.next_id,
            rect,
            last: rect,
            orientation: p.orientation,
            oriented: p.oriented,
            lastmove: 0,
            first_tick: true,
            disabled: false,
            dead: false,
            hp: p.hp.0,
            max_hp: p.hp.1,
            resources: Vec::new(),
            counter: 0,
            start: -1,
            prev: Dir::NONE,
        };
        self.next_id += 1;
        self.alive += 1;
        self.groups[kind].push(sprite);
        Some((kind, self.groups[kind].len() - 1))
    }

    fn kill(&mut self, at: At, transformed: bool) {
        let is_avatar = self.rules.types[at.0].class.is_some_and(Class::is_avatar);
        let s = &mut self.groups[at.0][at.1];
        if is_avatar && !transformed {
            s.disabled = true;
        } else {
            s.dead = true;
        }
    }

    /// One game cycle with the player's `action`.
    pub fn step(&mut self, action: Action) {
        if self.is_over() {
            return;
        }
        self.tick += 1;
        self.update_all(action);
        self.collide();
        // Remove the dead.
        for group in &mut self.groups {
            let before = group.len();
            group.retain(|s| !s.dead);
            self.alive -= before - group.len();
        }
        if self.avatar_at().is_none() {
            self.avatar = None;
        }
        for t in &self.rules.terminations {
            let (done, win) = match t {
                Term::SpriteCounter { kind, limit, win } => {
                    (self.count(*kind) as i32 <= *limit, *win)
                }
                Term::MultiSpriteCounter {
                    kinds,
                    limit,
                    min,
                    win,
                } => {
                    let n: i32 = kinds.iter().map(|&k| self.count(k) as i32).sum();
                    (n == *limit || (*min && n > *limit), *win)
                }
                Term::Timeout { limit, win } => (self.tick >= *limit, *win),
            };
            if done {
                self.winner = if win { Winner::Wins } else { Winner::Loses };
                break;
            }
        }
        if self.tick >= MAX_TICKS && self.winner != Winner::Wins {
            self.winner = Winner::Loses;
        }
    }

    fn update_all(&mut self, action: Action) {
        if let Some(at) = self.avatar_at() {
            if !self.groups[at.0][at.1].disabled {
                self.pre_movement(at);
                self.update_avatar(at, action);
            }
        }
        let rules = self.rules.clone();
        for &kind in rules.order.iter().rev() {
            let class = rules.types[kind].class;
            if class.is_some_and(Class::is_avatar) {
                continue;
            }
            let mut i = 0;
            while i < self.groups[kind].len() {
                if !self.groups[kind][i].disabled {
                    self.pre_movement((kind, i));
                    self.update((kind, i), class);
                }
                i += 1;
            }
        }
    }

    fn pre_movement(&mut self, at: At) {
        let s = &mut self.groups[at.0][at.1];
        s.last = s.rect;
        s.lastmove += 1;
    }

    /// GVGAI's `_updatePos`: a move of `speed` pixels when the cooldown allows.
    fn update_pos(&mut self, at: At, dir: Dir, speed: i32) -> bool {
        let cooldown = self.rules.types[at.0].proto.cooldown;
        let s = &mut self.groups[at.0][at.1];
        let speed = if speed == 0 {
            let own = self.rules.types[at.0].proto.speed as i32;
            if own == 0 {
                return false;
            }
            own
        } else {
            speed
        };
        if cooldown <= s.lastmove && dir.x.abs() + dir.y.abs() != 0.0 {
            s.rect.x += (dir.x * f64::from(speed)) as i32;
            s.rect.y += (dir.y * f64::from(speed)) as i32;
            s.lastmove = 0;
            return true;
        }
        false
    }

    /// GVGAI's grid physics, passive: an oriented sprite with a speed moves on.
    fn passive_movement(&mut self, at: At) {
        let p = &self.rules.types[at.0].proto;
        if p.is_static {
            return;
        }
        let s = &mut self.groups[at.0][at.1];
        if s.first_tick {
            s.first_tick = false;
            return;
        }
        let speed = if p.speed == -1.0 { 1.0 } else { p.speed };
        if speed != 0.0 && s.oriented {
            let dir = s.orientation;
            let px = (speed * f64::from(self.block)) as i32;
            self.update_pos(at, dir, px);
        }
    }

    /// GVGAI's grid physics, active: a move in `dir` at `speed` cells (0: the sprite's own).
    /// Returns 0 for still, 1 for a move, 2 for a turn.
    fn active_movement(&mut self, at: At, dir: Dir, speed: f64) -> u8 {
        let p = &self.rules.types[at.0].proto;
        let speed = if speed == 0.0 {
            if p.speed <= 0.0 {
                1.0
            } else {
                p.speed
            }
        } else {
            speed
        };
        if speed != 0.0 && !dir.is_none() {
            if p.rotate_in_place {
                let s = &mut self.groups[at.0][at.1];
                if s.oriented && s.orientation != dir {
                    s.orientation = dir;
                    return 2;
                }
            }
            let px = (speed * f64::from(self.block)) as i32;
            if self.update_pos(at, dir, px) {
                return 1;
            }
        }
        0
    }

    fn update_avatar(&mut self, at: At, action: Action) {
        let Some(class) = self.rules.types[at.0].class else {
            return;
        };
        let action = if action == Action::Nil || self.actions().contains(&action) {
            action
        } else {
            Action::Nil
        };
        let speed = self.rules.types[at.0].proto.speed;
        let moved = self.active_movement(at, action.dir(), speed);
        if moved == 1 && matches!(class, Class::OrientedAvatar | Class::ShootAvatar) {
            let s = &mut self.groups[at.0][at.1];
            s.orientation = s.last_direction().normalised();
        }
        if moved == 0 && action == Action::Use {
            match class {
                Class::ShootAvatar => self.shoot(at),
                Class::FlakAvatar => self.flak(at),
                _ => {}
            }
        }
    }

    fn has_ammo(&self, at: At) -> bool {
        match self.rules.types[at.0].proto.ammo {
            None => true,
            Some(ammo) => self.groups[at.0][at.1].resource(ammo) > 0,
        }
    }

    fn spend_ammo(&mut self, at: At) {
        if let Some(ammo) = self.rules.types[at.0].proto.ammo {
            let s = &mut self.groups[at.0][at.1];
            if s.resources.iter().any(|(k, _)| *k == ammo) {
                let n = s.resource(ammo);
                s.set_resource(ammo, n - 1);
            }
        }
    }

    fn shoot(&mut self, at: At) {
        if !self.has_ammo(at) {
            return;
        }
        let Some(what) = self.rules.types[at.0].proto.stype else {
            return;
        };
        let s = &self.groups[at.0][at.1];
        let dir = s.orientation.normalised();
        let pos = (
            (f64::from(s.rect.x) + dir.x * f64::from(s.last.w)) as i32,
            (f64::from(s.rect.y) + dir.y * f64::from(s.last.h)) as i32,
        );
        if let Some(new) = self.add(what, pos, false) {
            let n = &mut self.groups[new.0][new.1];
            if n.oriented {
                n.orientation = dir;
            }
            self.spend_ammo(at);
        }
    }

    fn flak(&mut self, at: At) {
        if !self.has_ammo(at) {
            return;
        }
        let Some(what) = self.rules.types[at.0].proto.stype else {
            return;
        };
        let s = &self.groups[at.0][at.1];
        let pos = (s.rect.x, s.rect.y);
        if self.add(what, pos, false).is_some() {
            self.spend_ammo(at);
        }
    }

    fn update(&mut self, at: At, class: Option<Class>) {
        use Class::*;
        let Some(class) = class else {
            self.passive_movement(at);
            return;
        };
        match class {
            Flicker | OrientedFlicker => {
                self.passive_movement(at);
                let limit = self.rules.types[at.0].proto.limit;
                if self.groups[at.0][at.1].counter > limit {
                    self.kill(at, false);
                }
                self.groups[at.0][at.1].counter += 1;
            }
            RandomNPC => {
                self.passive_movement(at);
                let dir = self.random_move(at);
                let speed = self.rules.types[at.0].proto.speed;
                self.active_movement(at, dir, speed);
            }
            Chaser | Fleeing => self.chase(at, class == Fleeing),
            SpawnPoint | Bomber => {
                let rules = self.rules.clone();
                let p = &rules.types[at.0].proto;
                if self.groups[at.0][at.1].start == -1 {
                    self.groups[at.0][at.1].start = self.tick;
                }
                let roll = self.rng.next_float();
                let start = self.groups[at.0][at.1].start;
                if (start + self.tick) % p.cooldown == 0 && f64::from(roll) < p.prob {
                    let pos = (
                        self.groups[at.0][at.1].rect.x,
                        self.groups[at.0][at.1].rect.y,
                    );
                    let added = p.stype.and_then(|what| self.add(what, pos, false));
                    if let Some(new) = added {
                        self.groups[at.0][at.1].counter += 1;
                        let own = self.groups[at.0][at.1].orientation;
                        let n = &mut self.groups[new.0][new.1];
                        if !p.spawn_orientation.is_none() {
                            n.orientation = p.spawn_orientation;
                        } else if n.orientation.is_none() {
                            n.orientation = own;
                        }
                    }
                }
                self.passive_movement(at);
                if p.total > 0 && self.groups[at.0][at.1].counter >= p.total {
                    self.kill(at, false);
                }
            }
            _ => self.passive_movement(at),
        }
    }

    /// RandomNPC's move: its last direction again while the repeat count lasts, else a
    /// random base direction.
    fn random_move(&mut self, at: At) -> Dir {
        let cons = self.rules.types[at.0].proto.value;
        let s = &mut self.groups[at.0][at.1];
        if s.counter < cons {
            s.counter += 1;
            s.prev
        } else {
            let d = Dir::BASE[self.rng.next_int(4) as usize];
            let s = &mut self.groups[at.0][at.1];
            s.prev = d;
            s.counter = 0;
            d
        }
    }

    fn chase(&mut self, at: At, fleeing: bool) {
        self.passive_movement(at);
        let p = &self.rules.types[at.0].proto;
        let Some(target) = p.stype else {
            return;
        };
        let max_distance = p.max_distance;
        let me = self.groups[at.0][at.1].rect;
        let distance = |a: &Rect, b: &Rect| f64::from((a.y - b.y).abs() + (a.x - b.x).abs());
        // The nearest targets: the type's own sprites, else its subtypes'.
        let mut targets: Vec<Rect> = Vec::new();
        let mut best = f64::MAX;
        let own = &self.groups[target];
        let kinds: Vec<Kind> = if own.is_empty() {
            let mut k = vec![target];
            k.extend(self.rules.subtypes[target].iter().copied());
            k
        } else {
            vec![target]
        };
        for k in kinds {
            for s in &self.groups[k] {
                let d = distance(&me, &s.rect);
                if d < best {
                    best = d;
                    targets.clear();
                    targets.push(s.rect);
                } else if d == best {
                    targets.push(s.rect);
                }
            }
        }
        let mut moves: Vec<Dir> = Vec::new();
        for t in &targets {
            let d = distance(&me, t);
            if max_distance != -1.0 && d > max_distance {
                continue;
            }
            for dir in Dir::BASE {
                let r = Rect {
                    x: me.x + dir.x as i32,
                    y: me.y + dir.y as i32,
                    ..me
                };
                let nd = distance(&r, t);
                if (fleeing && d < nd) || (!fleeing && d > nd) {
                    moves.push(dir);
                }
            }
        }
        let dir = if moves.is_empty() {
            self.random_move(at)
        } else {
            moves[self.rng.next_int(moves.len() as i32) as usize]
        };
        let speed = self.rules.types[at.0].proto.speed;
        self.active_movement(at, dir, speed);
    }

    fn at_edge(&self, r: &Rect) -> bool {
        let (w, h) = (self.size.0 * self.block, self.size.1 * self.block);
        !(r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h)
    }

    fn collide(&mut self) {
        let rules = self.rules.clone();
        for &kind in &rules.eos {
            for rule in &rules.eos_rules[kind] {
                for &k in &rules.subtypes[kind] {
                    let mut i = 0;
                    while i < self.groups[k].len() {
                        let s = &self.groups[k][i];
                        if self.at_edge(&s.rect) && !s.dead && !s.disabled {
                            self.apply(rule, (k, i), None);
                        }
                        i += 1;
                    }
                }
            }
        }
        for (a, b, list) in &rules.pairs {
            for rule in list {
                let firsts: Vec<At> = rules.subtypes[*a]
                    .iter()
                    .flat_map(|&k| (0..self.groups[k].len()).map(move |i| (k, i)))
                    .collect();
                let seconds: Vec<At> = rules.subtypes[*b]
                    .iter()
                    .flat_map(|&k| (0..self.groups[k].len()).map(move |i| (k, i)))
                    .collect();
                for &s1 in &firsts {
                    let hits: Vec<At> = seconds
                        .iter()
                        .copied()
                        .filter(|&s2| {
                            s1 != s2
                                && self.groups[s1.0][s1.1]
                                    .rect
                                    .intersects(&self.groups[s2.0][s2.1].rect)
                        })
                        .collect();
                    for s2 in hits {
                        let one = &self.groups[s1.0][s1.1];
                        if !one.dead && one.rect.intersects(&self.groups[s2.0][s2.1].rect) {
                            self.apply(rule, s1, Some(s2));
                        }
                    }
                }
            }
        }
    }

    /// Applies `rule` to `s1` (meeting `s2`, or the edge), scoring as GVGAI scores.
    fn apply(&mut self, rule: &Rule, s1: At, s2: Option<At>) {
        let mut scored = true;
        let mut score = rule.score;
        match &rule.effect {
            Effect::StepBack => {
                let s = &mut self.groups[s1.0][s1.1];
                s.rect = s.last;
            }
            Effect::KillSprite => self.kill(s1, false),
            Effect::KillBoth => {
                self.kill(s1, false);
                if let Some(s2) = s2 {
                    self.kill(s2, false);
                }
            }
            Effect::TransformTo {
                to,
                kill_second,
                force_orientation,
            } => {
                if !self.groups[s1.0][s1.1].disabled {
                    let pos = (
                        self.groups[s1.0][s1.1].rect.x,
                        self.groups[s1.0][s1.1].rect.y,
                    );
                    if let Some(new) = self.add(*to, pos, false) {
                        let old = self.groups[s1.0][s1.1].clone();
                        let n = &mut self.groups[new.0][new.1];
                        if *force_orientation
                            || (n.oriented && old.oriented && n.orientation.is_none())
                        {
                            n.orientation = old.orientation;
                        }
                        n.last = old.last;
                        for &(r, v) in &old.resources {
                            n.modify_resource(r, v);
                        }
                        n.hp = old.hp;
                        let new_is_avatar =
                            self.rules.types[*to].class.is_some_and(Class::is_avatar);
                        let old_is_avatar =
                            self.rules.types[s1.0].class.is_some_and(Class::is_avatar);
                        let mut transformed = true;
                        if old_is_avatar && self.avatar == Some((s1.0, old.id)) {
                            if new_is_avatar {
                                self.avatar = Some((new.0, self.groups[new.0][new.1].id));
                            } else {
                                transformed = false;
                            }
                        }
                        self.kill(s1, transformed);
                        if *kill_second {
                            if let Some(s2) = s2 {
                                self.kill(s2, true);
                            }
                        }
                    }
                }
            }
            Effect::UndoAll { except } => {
                let rules = self.rules.clone();
                for &k in &rules.order {
                    if except.contains(&k) {
                        continue;
                    }
                    for s in &mut self.groups[k] {
                        s.rect = s.last;
                    }
                }
            }
            Effect::BounceForward => {
                if let Some(s2) = s2 {
                    let pusher = &self.groups[s2.0][s2.1];
                    let last = pusher.last_direction();
                    let mut dir = last.normalised();
                    if last.x * pusher.orientation.x < 0.0 {
                        dir.x = -dir.x;
                    }
                    if last.y * pusher.orientation.y < 0.0 {
                        dir.y = -dir.y;
                    }
                    let speed = self.rules.types[s2.0].proto.speed;
                    self.active_movement(s1, dir, speed);
                    self.groups[s1.0][s1.1].orientation = dir;
                }
            }
            Effect::ReverseDirection => {
                let s = &mut self.groups[s1.0][s1.1];
                s.orientation = Dir {
                    x: -s.orientation.x,
                    y: -s.orientation.y,
                };
            }
            Effect::TurnAround => {
                let s = &mut self.groups[s1.0][s1.1];
                s.rect = s.last;
                s.lastmove = self.rules.types[s1.0].proto.cooldown;
                let down = Dir::DOWN;
                self.active_movement(s1, down, 0.0);
                let s = &mut self.groups[s1.0][s1.1];
                s.lastmove = self.rules.types[s1.0].proto.cooldown;
                self.active_movement(s1, down, 0.0);
                let s = &mut self.groups[s1.0][s1.1];
                s.orientation = Dir {
                    x: -s.orientation.x,
                    y: -s.orientation.y,
                };
            }
            Effect::AddHealthPoints { value, kill_second } => {
                let s = &mut self.groups[s1.0][s1.1];
                let limit = self.rules.types[s1.0].proto.hp.2;
                scored = false;
                if s.hp + value < limit {
                    s.hp += value;
                    if s.hp > s.max_hp {
                        s.max_hp = s.hp;
                    }
                    scored = true;
                    if *kill_second {
                        if let Some(s2) = s2 {
                            self.kill(s2, false);
                        }
                    }
                }
            }
            Effect::SubtractHealthPoints {
                value,
                limit,
                score_if_killed,
                of,
            } => {
                let target = match of {
                    Some(kind) => self.rules.subtypes[*kind]
                        .iter()
                        .rev()
                        .find(|&&k| !self.groups[k].is_empty())
                        .map(|&k| (k, 0)),
                    None => Some(s1),
                };
                if let Some(t) = target {
                    let s = &mut self.groups[t.0][t.1];
                    s.hp -= value;
                    if s.hp <= *limit {
                        self.kill(t, false);
                        score = *score_if_killed;
                    }
                }
            }
            Effect::Spawn { what } => {
                if self.rng.next_double() < rule.prob {
                    let r = self.groups[s1.0][s1.1].rect;
                    self.add(*what, (r.x, r.y), false);
                }
            }
            Effect::ChangeResource {
                resource,
                value,
                kill_resource,
            } => {
                scored = false;
                if let Some(s2) = s2 {
                    let n = self.groups[s1.0][s1.1].resource(*resource);
                    if n + value <= self.rules.resource_limit[*resource] {
                        self.groups[s1.0][s1.1].modify_resource(*resource, *value);
                        scored = true;
                        if *kill_resource {
                            self.kill(s2, true);
                        }
                    }
                }
            }
            Effect::CollectResource { kill_resource } => {
                if let Some(s2) = s2 {
                    let kind = s1.0;
                    if self.rules.types[kind].class == Some(Class::Resource) {
                        scored = false;
                        let limit = self.rules.resource_limit[kind];
                        let held = self.groups[s2.0][s2.1].resource(kind);
                        if held < limit {
                            let value = self.rules.types[kind].proto.value;
                            let topup = value.min(limit - held);
                            scored = true;
                            self.groups[s2.0][s2.1].modify_resource(kind, topup);
                            if *kill_resource {
                                self.kill(s1, true);
                            }
                        }
                    }
                }
            }
            Effect::SpawnIfHasMore {
                resource,
                limit,
                what,
                spend,
            } => {
                scored = false;
                if self.rng.next_double() < rule.prob
                    && self.groups[s1.0][s1.1].resource(*resource) >= *limit
                {
                    let r = self.groups[s1.0][s1.1].rect;
                    self.add(*what, (r.x, r.y), false);
                    scored = true;
                    self.groups[s1.0][s1.1].modify_resource(*resource, -spend);
                }
            }
            Effect::KillIfOtherHasMore {
                resource,
                limit,
                subtract,
            } => {
                scored = false;
                if let Some(s2) = s2 {
                    if self.groups[s2.0][s2.1].resource(*resource) >= *limit {
                        scored = true;
                        self.kill(s1, false);
                        if *subtract {
                            let o = &mut self.groups[s2.0][s2.1];
                            let n = (o.resource(*resource) - limit).max(0);
                            o.set_resource(*resource, n);
                        }
                    }
                }
            }
            Effect::KillIfHasMore { resource, limit } => {
                scored = false;
                if self.groups[s1.0][s1.1].resource(*resource) >= *limit {
                    scored = true;
                    self.kill(s1, false);
                }
            }
            Effect::KillIfHasLess { resource, limit } => {
                scored = false;
                if self.groups[s1.0][s1.1].resource(*resource) <= *limit {
                    scored = true;
                    self.kill(s1, false);
                }
            }
            Effect::AttractGaze => {
                if let Some(s2) = s2 {
                    let other = self.groups[s2.0][s2.1].orientation;
                    if self.groups[s1.0][s1.1].oriented
                        && self.groups[s2.0][s2.1].oriented
                        && self.rng.next_double() < rule.prob
                    {
                        self.groups[s1.0][s1.1].orientation = other;
                    }
                }
            }
            Effect::WrapAround => {
                let (w, h) = (self.size.0 * self.block, self.size.1 * self.block);
                let s = &mut self.groups[s1.0][s1.1];
                let o = s.orientation;
                if o.x > 0.0 {
                    s.rect.x = 0;
                } else if o.x < 0.0 {
                    s.rect.x = w - s.rect.w;
                } else if o.y > 0.0 {
                    s.rect.y = 0;
                } else if o.y < 0.0 {
                    s.rect.y = h - s.rect.h;
                }
                s.lastmove = 0;
            }
            Effect::FlipDirection => {
                let d = Dir::BASE[self.rng.next_int(4) as usize];
                self.groups[s1.0][s1.1].orientation = d;
            }
        }
        if scored {
            self.score += f64::from(score);
        }
    }
}

/// Reads a button script: a comma list of `ACTION*N` (or `ACTION` for once) with GVGAI's
/// action names, e.g. `RIGHT*10,USE,NIL*5`.
///
/// # Errors
/// A message naming the part that does not read.
pub fn parse_script(text: &str) -> Result<Vec<Action>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, times) = match part.split_once('*') {
            Some((n, t)) => (
                n.trim(),
                t.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("“{part}”: the count after * is not a whole number"))?,
            ),
            None => (part, 1),
        };
        let action = Action::named(name).ok_or_else(|| {
            format!("“{part}”: {name} is not an action (LEFT RIGHT UP DOWN USE NIL)")
        })?;
        if times > 1_000_000 {
            return Err(format!("“{part}”: at most 1,000,000 ticks a part"));
        }
        out.extend(std::iter::repeat_n(action, times));
    }
    Ok(out)
}
