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
use crate::rules::{Class, Dir, Effect, Kind, Rule, Rules, Term, Timed};
use crate::{LevelDesc, VgdlError};

/// GVGAI's competition limit: a game still running at this tick is lost.
pub const MAX_TICKS: i32 = 2000;
/// GVGAI's window size, from which a level's cell size in pixels follows.
const WINDOW: i32 = 800;
/// GVGAI's limit on sprites alive at once.
const MAX_SPRITES: usize = 10_000;
/// The most pairs of sprites one tick may check against its rules before the game is stopped
/// ([`Limit::Work`]): sprites that multiply make a tick quadratic up to the sprite limit
/// (10,000 sprites stacked on one cell: 10^8 pairs a rule). The most a tick of GVGAI's own
/// games was seen to check is 1.1 million (rivers, whose water piles up; docs/vgdl.md).
pub const TICK_WORK: u64 = 10_000_000;
/// The most pairs of sprites a whole game may check (5–7 s on one core): a game whose every
/// tick stays under [`TICK_WORK`] but not far under is stopped too. The most a game of
/// GVGAI's own was seen to check is 215 million (rivers again).
pub const GAME_WORK: u64 = 1_000_000_000;

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
    /// Stopped by a bound on its work, its time or a cancel: neither won nor lost.
    Stopped(Limit),
}

/// Why a game was stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// One tick, or the whole game, checked more pairs of sprites against the rules than
    /// its budget ([`TICK_WORK`], [`GAME_WORK`], unless set with [`State::set_work`]).
    Work,
    /// The game took longer than its time budget (the caller's, [`State::stop`]).
    Time,
    /// The game was cancelled (the window's Stop).
    Cancelled,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Work => {
                "limit reached: one tick checked too many pairs of sprites (they multiply)"
            }
            Limit::Time => "limit reached: the game took longer than its time budget",
            Limit::Cancelled => "stopped: cancelled",
        })
    }
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
    /// Ticks left to live (-1: no end).
    pub ttl: i32,
    /// Its speed in cells a move (its type's, unless a rule set it: `setSpeedForAll`).
    pub speed: f64,
    /// Whether a random move has set `prev` yet.
    pub prev_set: bool,
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
    /// The fixed sprites by cell (shared by a state's clones until they change).
    fixed_grid: Arc<FixedGrid>,
    /// Set when a fixed sprite was added or removed.
    fixed_dirty: bool,
    /// Set when a sprite was killed this tick.
    any_dead: bool,
    /// Set when an effect moved a sprite (what collides with what is then looked up again).
    moved: bool,
    /// Scratch space for a chaser's moves (kept to spare an allocation a move).
    scratch: Vec<Dir>,
    /// Scratch space for the collisions (kept between ticks, never cloned).
    buffers: Buffers,
    /// This tick's shields: rules between (first type, second type) with this effect are off.
    shields: Vec<(Kind, Kind, String)>,
    /// Set when a fixed sprite took a moving one's place before the tick (a transform): the
    /// next tick puts every fixed sprite's last place where it is, as GVGAI does each tick.
    fixed_last_stale: bool,
    /// The sprites that move by choice (random movers, chasers) stay where they are.
    frozen_npcs: bool,
    /// The clock's rules waiting, soonest first (GVGAI's time-effect queue).
    timers: Vec<(i32, Arc<Timed>)>,
    /// This tick's sprites a `pullWithIt` rule pulled already (rule line, type, number).
    pulled: Vec<(usize, Kind, u32)>,
    /// The interaction rules applied so far, one bit per rule by its place in the set (the
    /// first [`FIRED_RULES`]): what the pattern GA's "unique rules" counts.
    fired: [u64; FIRED_RULES / 64],
    /// The pairs of sprites this tick has checked against its rules so far.
    work: u64,
    /// The most pairs a tick may check ([`TICK_WORK`]).
    work_budget: u64,
    /// The pairs of sprites the game has checked so far, this tick's included.
    game_work: u64,
    /// The most pairs the game may check ([`GAME_WORK`]).
    game_work_budget: u64,
}

/// How many interaction rules [`State::fired`] tells apart (GVGAI's games have at most ~60).
pub const FIRED_RULES: usize = 256;

/// The collisions' working lists, kept between ticks to spare allocations; a clone of a state
/// starts with empty ones.
#[derive(Debug, Default)]
struct Buffers {
    firsts: Vec<At>,
    hits: Vec<(usize, At)>,
    movers: Vec<(i32, At)>,
    rank: Vec<usize>,
    start_len: Vec<usize>,
}

impl Clone for Buffers {
    fn clone(&self) -> Buffers {
        Buffers::default()
    }
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
            fixed_grid: Arc::new(FixedGrid::default()),
            fixed_dirty: true,
            any_dead: false,
            moved: false,
            scratch: Vec::new(),
            buffers: Buffers::default(),
            shields: Vec::new(),
            fixed_last_stale: false,
            frozen_npcs: false,
            timers: Vec::new(),
            pulled: Vec::new(),
            fired: [0; FIRED_RULES / 64],
            work: 0,
            work_budget: TICK_WORK,
            game_work: 0,
            game_work_budget: GAME_WORK,
        };
        for timed in &rules.timed {
            state.plan(timed.next, Arc::new(timed.clone()));
        }
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

    /// Whether the interaction rule at `index` (its place in the interaction set) has been
    /// applied in this game so far (rules past the first [`FIRED_RULES`] answer false).
    pub fn fired(&self, index: usize) -> bool {
        index < FIRED_RULES && self.fired[index / 64] & (1 << (index % 64)) != 0
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

    /// Freezes (or frees) the sprites that move by choice — random movers and chasers: they
    /// stay where they are, draw no random numbers, and still meet what meets them. With
    /// them frozen a game like Zelda is deterministic, and its shortest win is a search
    /// ([`crate::search::shortest_win`]).
    pub fn freeze_npcs(&mut self, frozen: bool) {
        self.frozen_npcs = frozen;
    }

    /// 0 running, 1 won, 2 lost, 3 stopped (for state keys).
    pub(crate) fn winner_code(&self) -> u8 {
        match self.winner {
            Winner::None => 0,
            Winner::Wins => 1,
            Winner::Loses => 2,
            Winner::Stopped(_) => 3,
        }
    }

    /// Sets the most pairs of sprites one tick, and the whole game, may check against the
    /// rules before the game is stopped with [`Limit::Work`] (defaults [`TICK_WORK`],
    /// [`GAME_WORK`]).
    pub fn set_work(&mut self, per_tick: u64, per_game: u64) {
        self.work_budget = per_tick;
        self.game_work_budget = per_game;
    }

    /// The pairs of sprites the last tick checked against the rules (what
    /// [`State::set_work`] bounds).
    pub fn tick_work(&self) -> u64 {
        self.work
    }

    /// The pairs of sprites the game has checked so far.
    pub fn game_work(&self) -> u64 {
        self.game_work
    }

    /// Ends a running game as stopped for `limit` (a caller's time budget or cancel): neither
    /// won nor lost. A game already over keeps its outcome.
    pub fn stop(&mut self, limit: Limit) {
        if !self.is_over() {
            self.winner = Winner::Stopped(limit);
        }
    }

    /// About how many bytes this state holds: its sprites and lists, and its share of the
    /// fixed sprites' grid it shares with its clones. What a search that keeps states counts
    /// against its memory budget.
    pub fn held_bytes(&self) -> usize {
        use std::mem::size_of;
        let sprites: usize = self
            .groups
            .iter()
            .map(|g| {
                g.capacity() * size_of::<Sprite>()
                    + g.iter()
                        .map(|s| s.resources.capacity() * size_of::<(Kind, i32)>())
                        .sum::<usize>()
            })
            .sum();
        let grid = &self.fixed_grid;
        let grid_bytes = (grid.slot.capacity()
            + grid.starts.capacity()
            + grid.entries.capacity()
            + grid.base.capacity()
            + grid.overlap_starts.capacity())
            * size_of::<u32>()
            + (grid.outside.capacity() + grid.overlaps.capacity()) * size_of::<(u32, u32)>();
        size_of::<State>()
            + self.groups.capacity() * size_of::<Vec<Sprite>>()
            + sprites
            + grid_bytes / Arc::strong_count(grid).max(1)
            + self
                .shields
                .iter()
                .map(|s| 64 + s.2.capacity())
                .sum::<usize>()
            + self.timers.capacity() * 64
            + self.pulled.capacity() * size_of::<(usize, Kind, u32)>()
            + self.scratch.capacity() * size_of::<Dir>()
    }

    /// Whether the game was stopped by a limit, and which.
    pub fn stopped(&self) -> Option<Limit> {
        match self.winner {
            Winner::Stopped(limit) => Some(limit),
            _ => None,
        }
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
            Some(Class::ShootAvatar | Class::OngoingShootAvatar) => &[
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
            ttl: p.ttl,
            speed: p.speed,
            prev_set: false,
        };
        self.next_id += 1;
        self.alive += 1;
        self.fixed_dirty |= self.rules.fixed[kind];
        self.moved = true;
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
            self.any_dead = true;
        }
    }

    /// One game cycle with the player's `action`.
    pub fn step(&mut self, action: Action) {
        if self.is_over() {
            return;
        }
        self.tick += 1;
        self.pulled.clear();
        self.work = 0;
        self.update_all(action);
        self.collide();
        if self.stopped().is_some() {
            // Stopped by the work bound mid-tick: the tick's remaining rules, the removal of
            // the dead and the terminations are not run.
            return;
        }
        // Remove the dead.
        if self.any_dead {
            for (k, group) in self.groups.iter_mut().enumerate() {
                let before = group.len();
                group.retain(|s| !s.dead);
                let removed = before - group.len();
                self.alive -= removed;
                self.fixed_dirty |= removed > 0 && self.rules.fixed[k];
            }
            self.any_dead = false;
        }
        if self.avatar_at().is_none() {
            self.avatar = None;
        }
        self.shields.clear();
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
                Term::SpriteCounterMore { kind, limit, win } => {
                    (self.count(*kind) as i32 >= *limit, *win)
                }
                Term::MultiSpriteCounterSubTypes {
                    kind,
                    limit,
                    subtypes,
                    win,
                } => {
                    let done = self.count(*kind) as i32 == *limit && {
                        // GVGAI counts the types with sprites in their own list.
                        let with = self.rules.subtypes[*kind]
                            .iter()
                            .filter(|&&k| self.count(k) > 0 && !self.groups[k].is_empty())
                            .count();
                        with as i32 == *subtypes
                    };
                    (done, *win)
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
        let stale = self.fixed_last_stale;
        for &kind in rules.order.iter().rev() {
            let class = rules.types[kind].class;
            if class.is_some_and(Class::is_avatar) {
                continue;
            }
            if rules.fixed[kind]
                && rules.types[kind].proto.ttl == -1
                && matches!(
                    class,
                    None | Some(Class::Immovable | Class::Door | Class::Portal)
                )
            {
                // Nothing to update, nor to do before moving: a sprite that never moves stays
                // where it was (GVGAI's `lastrect = rect`), unless it was made this tick from
                // a moving one and took that one's place before the tick.
                if self.fixed_last_stale {
                    for s in self.groups[kind].iter_mut() {
                        s.last = s.rect;
                    }
                }
                continue;
            }
            if self.frozen_npcs
                && matches!(
                    class,
                    Some(Class::RandomNPC | Class::Chaser | Class::Fleeing)
                )
            {
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
        if stale {
            self.fixed_last_stale = false;
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
            let own = s.speed as i32;
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
        let speed = if s.speed == -1.0 { 1.0 } else { s.speed };
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
        let own = self.groups[at.0][at.1].speed;
        let speed = if speed == 0.0 {
            if own <= 0.0 {
                1.0
            } else {
                own
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
        match class {
            Class::MissileAvatar => {
                self.passive_movement(at);
                return;
            }
            Class::OngoingTurningAvatar => {
                let dir = action.dir();
                let s = &mut self.groups[at.0][at.1];
                let o = s.orientation;
                if !dir.is_none() && dir.x * o.x + dir.y * o.y == 0.0 && s.oriented {
                    s.orientation = dir;
                }
                self.passive_movement(at);
                let s = &self.groups[at.0][at.1];
                if !s.rect.intersects(&s.last) {
                    let (pos, behind) = ((s.last.x, s.last.y), self.rules.types[at.0].proto.behind);
                    self.add(behind, pos, false);
                }
                return;
            }
            Class::OngoingAvatar | Class::OngoingShootAvatar => {
                let dir = action.dir();
                if !dir.is_none() {
                    let s = &mut self.groups[at.0][at.1];
                    if s.oriented {
                        s.orientation = dir;
                    }
                }
                self.passive_movement(at);
                if class == Class::OngoingShootAvatar && dir.is_none() && action == Action::Use {
                    self.shoot(at);
                }
                return;
            }
            _ => {}
        }
        let speed = self.groups[at.0][at.1].speed;
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
        // FlakAvatar's own test: more than `minAmmo` (when set), else more than none.
        let p = &self.rules.types[at.0].proto;
        let (min_ammo, cost) = (p.min_ammo, p.ammo_cost);
        if let Some(ammo) = p.ammo {
            let s = &self.groups[at.0][at.1];
            let held = s
                .resources
                .iter()
                .find(|(k, _)| *k == ammo)
                .map(|(_, n)| *n);
            let enough = match held {
                None => false,
                Some(n) if min_ammo > -1 => n > min_ammo,
                Some(n) => n > 0,
            };
            if !enough {
                return;
            }
        }
        let Some(what) = self.rules.types[at.0].proto.stype else {
            return;
        };
        let s = &self.groups[at.0][at.1];
        let pos = (s.rect.x, s.rect.y);
        if self.add(what, pos, false).is_some() {
            if let Some(ammo) = self.rules.types[at.0].proto.ammo {
                let s = &mut self.groups[at.0][at.1];
                if let Some(slot) = s.resources.iter_mut().find(|(k, _)| *k == ammo) {
                    slot.1 -= cost;
                }
            }
        }
    }

    /// GVGAI's `VGDLSprite.update`: the passive move, then the time to live.
    fn default_update(&mut self, at: At) {
        self.passive_movement(at);
        let s = &mut self.groups[at.0][at.1];
        if s.ttl > -1 {
            if s.ttl > 0 {
                s.ttl -= 1;
            } else {
                self.kill(at, false);
            }
        }
    }

    fn update(&mut self, at: At, class: Option<Class>) {
        use Class::*;
        let Some(class) = class else {
            self.default_update(at);
            return;
        };
        match class {
            Flicker | OrientedFlicker | Spreader => {
                self.default_update(at);
                let limit = self.rules.types[at.0].proto.limit;
                if self.groups[at.0][at.1].counter > limit {
                    self.kill(at, false);
                }
                self.groups[at.0][at.1].counter += 1;
                if class == Spreader && self.groups[at.0][at.1].counter == 2 {
                    let p = &self.rules.types[at.0].proto;
                    let (what, chance) = (p.stype.unwrap_or(at.0), p.spread_prob);
                    let last = self.groups[at.0][at.1].last;
                    for d in Dir::BASE {
                        if self.rng.next_double() < chance {
                            let pos = (
                                (f64::from(last.x) + d.x * f64::from(last.w)) as i32,
                                (f64::from(last.y) + d.y * f64::from(last.h)) as i32,
                            );
                            self.add(what, pos, false);
                        }
                    }
                }
            }
            RandomNPC => {
                self.passive_movement(at);
                let dir = self.random_move(at);
                let speed = self.groups[at.0][at.1].speed;
                self.active_movement(at, dir, speed);
            }
            Chaser | Fleeing | LOSChaser => self.chase(at, class),
            SpawnPointMultiSprite => {
                let kinds = self.rules.types[at.0].proto.missiles.clone();
                self.spawn_many(at, &kinds);
            }
            SpawnPoint | Bomber => self.spawn_point(at, self.rules.types[at.0].proto.stype),
            RandomBomber => {
                let dir = Dir::BASE[self.rng.next_int(4) as usize];
                let speed = self.groups[at.0][at.1].speed;
                self.active_movement(at, dir, speed);
                self.spawn_point(at, self.rules.types[at.0].proto.stype);
            }
            BomberRandomMissile => {
                let n = self.rules.types[at.0].proto.missiles.len();
                let pick = self.rng.next_int(n.max(1) as i32) as usize;
                let what = self.rules.types[at.0].proto.missiles.get(pick).copied();
                self.spawn_point(at, what);
            }
            RandomMissile => {
                if self.groups[at.0][at.1].orientation == Dir::NIL {
                    self.groups[at.0][at.1].orientation = Dir::BASE[self.rng.next_int(4) as usize];
                }
                self.passive_movement(at);
            }
            _ => self.default_update(at),
        }
    }

    /// GVGAI's `SpawnPoint.update`: a die rolled every update; on the cooldown's beat and
    /// under `prob`, a sprite of `what` where it stands; then the default update, and death
    /// after `total` spawns.
    fn spawn_point(&mut self, at: At, what: Option<Kind>) {
        self.spawn_many(at, what.as_slice());
    }

    /// GVGAI's `SpawnPointMultiSprite.update` (and a spawn point's, with one kind): each of
    /// `kinds` spawned in turn on the beat.
    fn spawn_many(&mut self, at: At, kinds: &[Kind]) {
        let p = &self.rules.types[at.0].proto;
        let (cooldown, prob, total, spawn_orientation) =
            (p.cooldown, p.prob, p.total, p.spawn_orientation);
        if self.groups[at.0][at.1].start == -1 {
            self.groups[at.0][at.1].start = self.tick;
        }
        let roll = self.rng.next_float();
        let start = self.groups[at.0][at.1].start;
        if (start + self.tick) % cooldown == 0 && f64::from(roll) < prob {
            for &what in kinds {
                let r = self.groups[at.0][at.1].rect;
                if let Some(new) = self.add(what, (r.x, r.y), false) {
                    self.groups[at.0][at.1].counter += 1;
                    let own = self.groups[at.0][at.1].orientation;
                    let n = &mut self.groups[new.0][new.1];
                    if !spawn_orientation.is_none() {
                        n.orientation = spawn_orientation;
                    } else if n.orientation.is_none() {
                        n.orientation = own;
                    }
                }
            }
        }
        self.default_update(at);
        if total > 0 && self.groups[at.0][at.1].counter >= total {
            self.kill(at, false);
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
            s.prev_set = true;
            s.counter = 0;
            d
        }
    }

    fn chase(&mut self, at: At, class: Class) {
        let fleeing = class == Class::Fleeing;
        self.passive_movement(at);
        let p = &self.rules.types[at.0].proto;
        let Some(target) = p.stype else {
            return;
        };
        let max_distance = p.max_distance;
        let me = self.groups[at.0][at.1].rect;
        let distance = |a: &Rect, b: &Rect| (a.y - b.y).abs() + (a.x - b.x).abs();
        // The nearest targets: the type's own sprites, else its subtypes' (GVGAI's order).
        let extra: &[Kind] = if self.groups[target].is_empty() {
            &self.rules.subtypes[target]
        } else {
            &[]
        };
        let kinds = || std::iter::once(target).chain(extra.iter().copied());
        // A LOSChaser sees only along its last direction, and nothing before its first
        // random move (GVGAI compares the unset direction by identity).
        let los = class == Class::LOSChaser;
        let (prev, prev_set) = {
            let s = &self.groups[at.0][at.1];
            (s.prev, s.prev_set)
        };
        let sees = |r: &Rect| -> bool {
            if !los {
                return true;
            }
            if !prev_set {
                return false;
            }
            if prev == Dir::DOWN {
                r.x == me.x && r.y >= me.y
            } else if prev == Dir::UP {
                r.x == me.x && r.y <= me.y
            } else if prev == Dir::LEFT {
                r.x <= me.x && r.y == me.y
            } else if prev == Dir::RIGHT {
                r.x >= me.x && r.y == me.y
            } else {
                false
            }
        };
        let best = kinds()
            .flat_map(|k| self.groups[k].iter())
            .filter(|s| sees(&s.rect))
            .map(|s| distance(&me, &s.rect))
            .min();
        let mut moves = std::mem::take(&mut self.scratch);
        moves.clear();
        if let Some(best) = best {
            let within = max_distance == -1.0 || f64::from(best) <= max_distance;
            for t in kinds().flat_map(|k| self.groups[k].iter()) {
                if !within || !sees(&t.rect) || distance(&me, &t.rect) != best {
                    continue;
                }
                for dir in Dir::BASE {
                    let r = Rect {
                        x: me.x + dir.x as i32,
                        y: me.y + dir.y as i32,
                        ..me
                    };
                    let nd = distance(&r, &t.rect);
                    if (fleeing && best < nd) || (!fleeing && best > nd) {
                        moves.push(dir);
                    }
                }
            }
        }
        let dir = if moves.is_empty() {
            self.random_move(at)
        } else {
            moves[self.rng.next_int(moves.len() as i32) as usize]
        };
        self.scratch = moves;
        let speed = self.groups[at.0][at.1].speed;
        self.active_movement(at, dir, speed);
    }

    fn at_edge(&self, r: &Rect) -> bool {
        let (w, h) = (self.size.0 * self.block, self.size.1 * self.block);
        !(r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h)
    }

    /// Queues a timed rule for tick `next`. GVGAI's queue orders by tick and puts a new
    /// entry before those already there for the same tick, so that one runs first.
    fn plan(&mut self, next: i32, timed: Arc<Timed>) {
        let at = self.timers.partition_point(|(t, _)| *t < next);
        self.timers.insert(at, (next, timed));
    }

    /// The clock's rules due by this tick, as GVGAI runs them before any collision: each on
    /// every sprite of its type (or on none), then planned again `timer` ticks on when
    /// repeating.
    fn run_timers(&mut self) {
        while self.timers.first().is_some_and(|(t, _)| *t <= self.tick) {
            let (_, timed) = self.timers.remove(0);
            match timed.kind {
                None => self.apply_without_sprites(&timed.rule),
                Some(kind) => {
                    let rules = self.rules.clone();
                    for &k in &rules.subtypes[kind] {
                        let len = self.groups[k].len();
                        for i in 0..len {
                            let s = &self.groups[k][i];
                            if !s.dead && !s.disabled {
                                self.apply_as(&timed.rule, (k, i), None, true);
                            }
                        }
                    }
                }
            }
            if timed.repeating {
                // At least one tick on, whatever the rule says: a clock that is due again
                // in the same tick would never let the tick end.
                let next = self.tick + timed.timer.max(1);
                self.plan(next, timed);
            }
        }
    }

    /// A rule run on no sprite (a clock `addTimer` started): only the effects that need no
    /// sprite act; its score change applies in any case.
    fn apply_without_sprites(&mut self, rule: &Rule) {
        match &rule.effect {
            Effect::TransformToAll {
                from,
                to,
                kill_second,
                force_orientation,
            } => {
                for i in 0..self.groups[*from].len() {
                    let r = self.groups[*from][i].rect;
                    if let Some(new) = self.add(*to, (r.x, r.y), true) {
                        self.transform(new, (*from, i), None, *kill_second, *force_orientation);
                    }
                }
            }
            Effect::KillAll { what } => {
                for i in 0..self.groups[*what].len() {
                    self.kill((*what, i), false);
                }
            }
            _ => {}
        }
        self.score += f64::from(rule.score);
    }

    fn collide(&mut self) {
        if !self.timers.is_empty() {
            self.run_timers();
        }
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
        // As GVGAI: for each rule, the sprites of both sides as they are when the rule starts;
        // for each first sprite, the second sprites it overlaps then (in their order), each
        // met while the two still overlap. Overlaps are found through a grid of cells when
        // the sides are large (same answers, without testing every pair).
        let mut scratch = std::mem::take(&mut self.buffers);
        let Buffers {
            firsts,
            hits,
            movers,
            rank,
            start_len,
            ..
        } = &mut scratch;
        // The second types `movers` lists (still right while no sprite moved or was made).
        let mut movers_for: Option<Kind> = None;
        // Each kind's place among the rule's second types (usize::MAX: not one), and each
        // kind's count of sprites when the rule started.
        rank.clear();
        rank.resize(rules.types.len(), usize::MAX);
        start_len.clear();
        start_len.resize(rules.types.len(), 0);
        // The pairs checked: each rule's first sprites against the second sprites near them
        // (and the fixed sprites' overlaps when their grid is built); past the tick's budget
        // the game stops (F34: sprites that multiply made a tick quadratic).
        let mut work = self.work;
        let budget = self
            .work_budget
            .min(self.game_work_budget.saturating_sub(self.game_work));
        'rules: for (a, b, list) in &rules.pairs {
            // A rule repeated (`repeat=10`) after a pass that met nothing would meet nothing
            // again: nothing changed in between.
            let mut idle: Option<&Rule> = None;
            for rule in list {
                if idle.is_some_and(|r| r == rule) {
                    continue;
                }
                if !self.shields.is_empty()
                    && self
                        .shields
                        .iter()
                        .any(|(x, y, e)| (*x, *y) == (*a, *b) && *e == rule.name)
                {
                    continue;
                }
                idle = None;
                let mut met = false;
                firsts.clear();
                for &k in &rules.subtypes[*a] {
                    firsts.extend((0..self.groups[k].len()).map(|i| (k, i)));
                }
                if firsts.is_empty() {
                    continue;
                }
                let seconds = &rules.subtypes[*b];
                if seconds.iter().all(|&k| self.groups[k].is_empty()) {
                    continue;
                }
                let mut any_fixed = false;
                for (place, &k) in seconds.iter().enumerate() {
                    rank[k] = place;
                    start_len[k] = self.groups[k].len();
                    any_fixed |= rules.fixed[k] && start_len[k] > 0;
                }
                if any_fixed && !self.refresh_fixed(&mut work, budget) {
                    break 'rules;
                }
                let mut stale = movers_for != Some(*b);
                for &s1 in firsts.iter() {
                    if work > budget {
                        break 'rules;
                    }
                    hits.clear();
                    let r1 = self.groups[s1.0][s1.1].rect;
                    // Moving second sprites by their left edges (sorted again after an effect
                    // moved a sprite); fixed ones through the grid.
                    if stale || self.moved {
                        movers.clear();
                        for &k in seconds.iter().filter(|&&k| !rules.fixed[k]) {
                            for (i, s) in self.groups[k][..start_len[k]].iter().enumerate() {
                                movers.push((s.rect.x, (k, i)));
                            }
                        }
                        movers.sort_unstable_by_key(|&(x, _)| x);
                        work += movers.len() as u64;
                        stale = false;
                        self.moved = false;
                        movers_for = Some(*b);
                    }
                    let reach = self.block.max(r1.w);
                    let from = movers.partition_point(|&(x, _)| x <= r1.x - reach);
                    for &(x, (k, i)) in &movers[from..] {
                        if x >= r1.x + reach {
                            break;
                        }
                        work += 1;
                        if (k, i) != s1 && r1.intersects(&self.groups[k][i].rect) {
                            hits.push((rank[k], (k, i)));
                        }
                    }
                    if any_fixed {
                        // A fixed first sprite meets the fixed sprites it overlaps, known
                        // since the grid was built; a moving one looks around itself.
                        if rules.fixed[s1.0] {
                            for &(k, i) in self.fixed_grid.overlapping(s1) {
                                work += 1;
                                let (k, i) = (k as usize, i as usize);
                                if rank[k] != usize::MAX && i < start_len[k] {
                                    hits.push((rank[k], (k, i)));
                                }
                            }
                        } else {
                            for &k in seconds {
                                if !rules.fixed[k] || start_len[k] == 0 {
                                    continue;
                                }
                                let groups = &self.groups;
                                self.fixed_grid.each_near(k, self.block, &r1, |i| {
                                    work += 1;
                                    if i < start_len[k]
                                        && (k, i) != s1
                                        && r1.intersects(&groups[k][i].rect)
                                    {
                                        hits.push((rank[k], (k, i)));
                                    }
                                });
                            }
                        }
                    }
                    hits.sort_unstable_by_key(|&(r, (_, i))| (r, i));
                    for &(_, s2) in hits.iter() {
                        let one = &self.groups[s1.0][s1.1];
                        if !one.dead && one.rect.intersects(&self.groups[s2.0][s2.1].rect) {
                            self.apply(rule, s1, Some(s2));
                            met = true;
                        }
                    }
                }
                for &k in seconds {
                    rank[k] = usize::MAX;
                }
                if !met {
                    idle = Some(rule);
                }
            }
        }
        self.work = work;
        self.game_work = self.game_work.saturating_add(work);
        if work > budget {
            self.stop(Limit::Work);
        }
        self.buffers = scratch;
    }

    /// Rebuilds the grid of fixed sprites when they changed (one was added or removed),
    /// counting the pairs it checks in `work`; false when that passed `budget` (the
    /// grid is then left as it was, and the game stops).
    fn refresh_fixed(&mut self, work: &mut u64, budget: u64) -> bool {
        if !self.fixed_dirty {
            return true;
        }
        let mut grid = FixedGrid::default();
        if !grid.build(self, work, budget) {
            return false;
        }
        self.fixed_grid = Arc::new(grid);
        self.fixed_dirty = false;
        true
    }

    /// GVGAI's `transformTo` once the new sprite is made: it takes the old one's direction
    /// (when asked, or when it has none of its own), place before the tick, resources and
    /// health; the avatar's part passes to it; the old one dies (and the other with
    /// `kill_second`).
    fn transform(
        &mut self,
        new: At,
        old_at: At,
        s2: Option<At>,
        kill_second: bool,
        force_orientation: bool,
    ) {
        let old = self.groups[old_at.0][old_at.1].clone();
        let n = &mut self.groups[new.0][new.1];
        if force_orientation || (n.oriented && old.oriented && n.orientation.is_none()) {
            n.orientation = old.orientation;
        }
        n.last = old.last;
        self.fixed_last_stale |= self.rules.fixed[new.0] && n.last != n.rect;
        for &(r, v) in &old.resources {
            n.modify_resource(r, v);
        }
        n.hp = old.hp;
        let new_is_avatar = self.rules.types[new.0].class.is_some_and(Class::is_avatar);
        let old_is_avatar = self.rules.types[old_at.0]
            .class
            .is_some_and(Class::is_avatar);
        let mut transformed = true;
        if old_is_avatar && self.avatar == Some((old_at.0, old.id)) {
            if new_is_avatar {
                self.avatar = Some((new.0, self.groups[new.0][new.1].id));
            } else {
                transformed = false;
            }
        }
        self.kill(old_at, transformed);
        if kill_second {
            if let Some(s2) = s2 {
                self.kill(s2, true);
            }
        }
    }

    /// `transformToSingleton`'s hand-over: the new sprite takes the old one's direction (when
    /// both have one), place before the tick, resources and the avatar's part; the old dies.
    fn take_place(&mut self, new: At, old_at: At) {
        let old = self.groups[old_at.0][old_at.1].clone();
        let n = &mut self.groups[new.0][new.1];
        if n.oriented && old.oriented {
            n.orientation = old.orientation;
        }
        n.last = old.last;
        self.fixed_last_stale |= self.rules.fixed[new.0] && n.last != n.rect;
        for &(r, v) in &old.resources {
            n.modify_resource(r, v);
        }
        let mut transformed = true;
        if self.rules.types[old_at.0]
            .class
            .is_some_and(Class::is_avatar)
            && self.avatar == Some((old_at.0, old.id))
        {
            if self.rules.types[new.0].class.is_some_and(Class::is_avatar) {
                self.avatar = Some((new.0, self.groups[new.0][new.1].id));
            } else {
                transformed = false;
            }
        }
        self.kill(old_at, transformed);
    }

    /// Applies `rule` to `s1` (meeting `s2`, or the edge), scoring as GVGAI scores.
    fn apply(&mut self, rule: &Rule, s1: At, s2: Option<At>) {
        self.apply_as(rule, s1, s2, false);
    }

    /// [`Self::apply`]; `timed` for a clock's rule, whose score change always applies as
    /// written (GVGAI scores the time effect, not the effect it runs).
    fn apply_as(&mut self, rule: &Rule, s1: At, s2: Option<At>, timed: bool) {
        if rule.index < FIRED_RULES {
            self.fired[rule.index / 64] |= 1 << (rule.index % 64);
        }
        let mut scored = true;
        let mut score = rule.score;
        match &rule.effect {
            Effect::StepBack { pixel_perfect } => {
                let back = match s2.filter(|_| *pixel_perfect) {
                    Some(s2) => {
                        let other = self.groups[s2.0][s2.1].rect;
                        pixel_perfect_back(&self.groups[s1.0][s1.1], &other)
                    }
                    None => self.groups[s1.0][s1.1].last,
                };
                self.groups[s1.0][s1.1].rect = back;
                self.moved = true;
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
                    let r = self.groups[s1.0][s1.1].rect;
                    if let Some(new) = self.add(*to, (r.x, r.y), false) {
                        self.transform(new, s1, s2, *kill_second, *force_orientation);
                    }
                }
            }
            Effect::TransformToAll {
                from,
                to,
                kill_second,
                force_orientation,
            } => {
                for i in 0..self.groups[*from].len() {
                    let r = self.groups[*from][i].rect;
                    if let Some(new) = self.add(*to, (r.x, r.y), true) {
                        self.transform(new, (*from, i), s2, *kill_second, *force_orientation);
                    }
                }
            }
            Effect::TransformIfCount {
                to,
                count,
                geq,
                leq,
                otherwise,
                kill_second,
                force_orientation,
            } => {
                let n = self.count_all(*count) as i32;
                let r = self.groups[s1.0][s1.1].rect;
                scored = false;
                let into = if (*geq..=*leq).contains(&n) {
                    scored = true;
                    Some(*to)
                } else {
                    *otherwise
                };
                if let Some(into) = into {
                    if let Some(new) = self.add(into, (r.x, r.y), true) {
                        self.transform(new, s1, s2, *kill_second, *force_orientation);
                    }
                }
            }
            Effect::KillAll { what } => {
                for i in 0..self.groups[*what].len() {
                    self.kill((*what, i), false);
                }
            }
            Effect::TransformToRandomChild {
                of,
                kill_second,
                force_orientation,
            } => {
                let choices: Vec<Kind> = self.rules.subtypes[*of]
                    .iter()
                    .copied()
                    .filter(|k| k != of)
                    .collect();
                if !choices.is_empty() {
                    let pick = choices[self.rng.next_int(choices.len() as i32) as usize];
                    let r = self.groups[s1.0][s1.1].rect;
                    if let Some(new) = self.add(pick, (r.x, r.y), false) {
                        self.transform(new, s1, s2, *kill_second, *force_orientation);
                    }
                }
            }
            Effect::TransformToSingleton {
                to,
                back,
                take_orientation,
            } => {
                if let Some(s2) = s2 {
                    for i in 0..self.groups[*to].len() {
                        let r = self.groups[*to][i].rect;
                        if let Some(new) = self.add(*back, (r.x, r.y), false) {
                            self.take_place(new, (*to, i));
                        }
                    }
                    let r = self.groups[s1.0][s1.1].rect;
                    if let Some(new) = self.add(*to, (r.x, r.y), false) {
                        self.take_place(new, s1);
                        if *take_orientation {
                            let o = self.groups[s2.0][s2.1].orientation;
                            let n = &mut self.groups[new.0][new.1];
                            n.oriented = true;
                            n.orientation = Dir { x: -o.x, y: -o.y };
                        }
                    }
                }
            }
            Effect::KillIfFrontal | Effect::KillIfNotFrontal => {
                scored = false;
                if let Some(s2) = s2 {
                    let first = self.groups[s1.0][s1.1].last_direction().normalised();
                    let other = self.groups[s2.0][s2.1].last_direction().normalised();
                    let head_on = Dir {
                        x: first.x + other.x,
                        y: first.y + other.y,
                    }
                    .is_none();
                    let frontal = matches!(rule.effect, Effect::KillIfFrontal);
                    if first.is_none() || head_on == frontal {
                        scored = true;
                        self.kill(s1, false);
                    }
                }
            }
            Effect::KillIfFromAbove => {
                scored = false;
                if let Some(s2) = s2 {
                    let (a, b) = (&self.groups[s1.0][s1.1], &self.groups[s2.0][s2.1]);
                    let other_higher = a.last.y > b.last.y + b.rect.h / 2;
                    let going_down = b.rect.y > b.last.y;
                    if other_higher && going_down {
                        scored = true;
                        self.kill(s1, false);
                    }
                }
            }
            Effect::Align { orient } => {
                if let Some(s2) = s2 {
                    let other = self.groups[s2.0][s2.1].clone();
                    let s = &mut self.groups[s1.0][s1.1];
                    if *orient {
                        s.orientation = other.orientation;
                    }
                    s.rect.x = other.rect.x;
                    s.rect.y = other.rect.y;
                    self.moved = true;
                }
            }
            Effect::TeleportToExit => {
                if let Some(s2) = s2 {
                    let p = &self.rules.types[s2.0];
                    let names_exit = matches!(
                        p.class,
                        Some(
                            Class::Portal
                                | Class::SpawnPoint
                                | Class::Bomber
                                | Class::RandomBomber
                                | Class::Chaser
                                | Class::Fleeing
                                | Class::Spreader
                        )
                    );
                    if let Some(exit) = p.proto.stype.filter(|_| names_exit) {
                        let exits = self.groups[exit].len();
                        if exits > 0 {
                            let pick = self.rng.next_int(exits as i32) as usize;
                            let d = self.groups[exit][pick].clone();
                            let s = &mut self.groups[s1.0][s1.1];
                            s.rect = d.rect;
                            s.lastmove = 0;
                            if d.oriented {
                                s.orientation = d.orientation;
                            }
                            self.moved = true;
                        } else {
                            self.kill(s1, false);
                        }
                    }
                }
            }
            Effect::ShieldFrom { what, effect } => {
                self.shields.push((s1.0, *what, effect.clone()));
            }
            Effect::CloneSprite => {
                let r = self.groups[s1.0][s1.1].rect;
                self.add(s1.0, (r.x, r.y), false);
            }
            Effect::SpawnIfHasLess {
                resource,
                limit,
                what,
            } => {
                scored = false;
                if self.rng.next_double() < rule.prob
                    && self.groups[s1.0][s1.1].resource(*resource) <= *limit
                {
                    let r = self.groups[s1.0][s1.1].rect;
                    self.add(*what, (r.x, r.y), false);
                    scored = true;
                }
            }
            Effect::SpawnBehind { what } => {
                if let Some(s2) = s2 {
                    if self.rng.next_double() < rule.prob {
                        let o = &self.groups[s2.0][s2.1];
                        if !o.last.intersects(&o.rect) {
                            let at = (o.last.x, o.last.y);
                            self.add(*what, at, false);
                        }
                    }
                }
            }
            Effect::CollectResourceIfHeld {
                held,
                value,
                kill_resource,
            } => {
                if let Some(s2) = s2 {
                    let kind = s1.0;
                    if self.rules.types[kind].class == Some(Class::Resource) {
                        scored = false;
                        if self.groups[s2.0][s2.1].resource(*held) >= *value {
                            let amount = self.rules.types[kind].proto.value;
                            let has = self.groups[s2.0][s2.1].resource(kind);
                            if has + amount <= self.rules.resource_limit[kind] {
                                scored = true;
                                self.groups[s2.0][s2.1].modify_resource(kind, amount);
                            }
                            if *kill_resource {
                                self.kill(s1, false);
                            }
                        }
                    }
                }
            }
            Effect::AddTimer {
                timer,
                repeating,
                effect,
                name,
            } => {
                let timed = Timed {
                    kind: None,
                    rule: Rule {
                        effect: (**effect).clone(),
                        score: rule.score,
                        prob: rule.prob,
                        line: rule.line,
                        name: name.clone(),
                        index: rule.index,
                    },
                    timer: *timer,
                    repeating: *repeating,
                    next: self.tick + timer,
                };
                let next = timed.next;
                self.plan(next, Arc::new(timed));
            }
            Effect::SetSpeedForAll { what, value } => {
                let rules = self.rules.clone();
                for &k in &rules.subtypes[*what] {
                    for s in self.groups[k].iter_mut() {
                        s.speed = *value;
                    }
                }
            }
            Effect::PullWithIt { pixel_perfect } => {
                if let Some(s2) = s2 {
                    let me = (rule.line, s1.0, self.groups[s1.0][s1.1].id);
                    if !self.pulled.contains(&me) {
                        self.pulled.push(me);
                        let puller = &self.groups[s2.0][s2.1];
                        let v = puller.last_direction().normalised();
                        let px = (puller.speed * f64::from(self.block)) as i32;
                        let puller_rect = puller.rect;
                        let before = self.groups[s1.0][s1.1].last;
                        self.update_pos(s1, v, px);
                        let s = &mut self.groups[s1.0][s1.1];
                        s.last = before;
                        if *pixel_perfect {
                            s.rect = puller_rect;
                        }
                        self.moved = true;
                    }
                }
            }
            Effect::SpawnBeside {
                what,
                dir,
                step_back,
            } => {
                if let Some(s2) = s2 {
                    if self.rng.next_double() < rule.prob {
                        let o = &self.groups[s2.0][s2.1];
                        let from = if *step_back {
                            (!o.last.intersects(&o.rect)).then_some((o.last.x, o.last.y))
                        } else {
                            Some((o.rect.x, o.rect.y))
                        };
                        if let Some((x, y)) = from {
                            let b = f64::from(self.block);
                            let at = (
                                (f64::from(x) + dir.x * b) as i32,
                                (f64::from(y) + dir.y * b) as i32,
                            );
                            self.add(*what, at, false);
                        }
                    }
                }
            }
            Effect::AddHealthPointsToMax { value, kill_second } => {
                let limit = self.rules.types[s1.0].proto.hp.2;
                let s = &mut self.groups[s1.0][s1.1];
                s.hp = if s.hp + value < limit {
                    s.hp + value
                } else {
                    limit
                };
                if s.hp > s.max_hp {
                    s.max_hp = s.hp;
                }
                if *kill_second {
                    if let Some(s2) = s2 {
                        self.kill(s2, false);
                    }
                }
            }
            Effect::UndoAll { except } => {
                self.moved = true;
                let rules = self.rules.clone();
                for &k in &rules.order {
                    if except.contains(&k) {
                        continue;
                    }
                    for s in &mut self.groups[k] {
                        // A fixed sprite made this tick from a moving one may step back with
                        // it: the grid of fixed sprites then follows.
                        self.fixed_dirty |= rules.fixed[k] && s.rect != s.last;
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
                    let speed = self.groups[s2.0][s2.1].speed;
                    self.active_movement(s1, dir, speed);
                    self.groups[s1.0][s1.1].orientation = dir;
                    self.moved = true;
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
                self.moved = true;
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
            Effect::AttractGaze { align } => {
                if let Some(s2) = s2 {
                    let other = self.groups[s2.0][s2.1].clone();
                    if self.groups[s1.0][s1.1].oriented
                        && other.oriented
                        && self.rng.next_double() < rule.prob
                    {
                        let s = &mut self.groups[s1.0][s1.1];
                        s.orientation = other.orientation;
                        if *align {
                            if s.orientation == Dir::LEFT || s.orientation == Dir::RIGHT {
                                s.rect.y = other.rect.y;
                            } else {
                                s.rect.x = other.rect.x;
                            }
                            self.moved = true;
                        }
                    }
                }
            }
            Effect::WrapAround => {
                self.moved = true;
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
        if timed {
            (scored, score) = (true, rule.score);
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
        // The whole script too (F30: 3,000 parts of a million ticks asked for 4 GB).
        if out.len() + times > MAX_SCRIPT_TICKS {
            return Err(format!(
                "the script is longer than {MAX_SCRIPT_TICKS} ticks in all (at “{part}”)"
            ));
        }
        out.extend(std::iter::repeat_n(action, times));
    }
    Ok(out)
}

/// The most ticks a whole button script may hold.
pub const MAX_SCRIPT_TICKS: usize = 10_000_000;

/// The fixed sprites by kind and grid cell: sprites are one cell in size, so two overlap only
/// when their cells are neighbours. Cells run from -1 to the level's size (a ring outside the
/// screen); sprites farther out are always candidates.
#[derive(Clone, Debug, Default)]
struct FixedGrid {
    /// Columns and rows of the grid (the level's plus the ring).
    w: i32,
    h: i32,
    /// Each kind's row of cells in `starts` (`u32::MAX` for kinds that are not fixed).
    slot: Vec<u32>,
    /// Where each (kind, cell)'s sprites start in `entries`, one more at the end.
    starts: Vec<u32>,
    /// The sprites' places in their kind's list, by kind and cell.
    entries: Vec<u32>,
    /// The sprites outside the grid.
    outside: Vec<(u32, u32)>,
    /// Where each kind's sprites start among the fixed sprites' numbers.
    base: Vec<u32>,
    /// Where each fixed sprite's overlapping fixed sprites start in `overlaps`.
    overlap_starts: Vec<u32>,
    /// The fixed sprites each fixed sprite overlaps.
    overlaps: Vec<(u32, u32)>,
}

impl FixedGrid {
    fn cell(&self, block: i32, r: &Rect) -> Option<usize> {
        let cx = r.x.div_euclid(block) + 1;
        let cy = r.y.div_euclid(block) + 1;
        ((0..self.w).contains(&cx) && (0..self.h).contains(&cy))
            .then(|| (cy * self.w + cx) as usize)
    }

    /// Builds the grid of `state`'s fixed sprites, counting the pairs it checks in `work`;
    /// false as soon as that passes `budget` (the grid is then incomplete).
    fn build(&mut self, state: &State, work: &mut u64, budget: u64) -> bool {
        self.w = state.size.0 + 2;
        self.h = state.size.1 + 2;
        let cells = (self.w * self.h) as usize;
        let kinds = state.groups.len();
        let rules = &state.rules;
        // Only the fixed types some rule names second are ever looked up.
        self.slot = vec![u32::MAX; kinds];
        let mut slots = 0u32;
        for k in 0..kinds {
            if rules.fixed[k] && rules.second_in_rules[k] {
                self.slot[k] = slots;
                slots += 1;
            }
        }
        let mut placed: Vec<(usize, u32)> = Vec::new();
        self.outside.clear();
        for (k, group) in state.groups.iter().enumerate() {
            if self.slot[k] == u32::MAX {
                continue;
            }
            let row = self.slot[k] as usize * cells;
            for (i, s) in group.iter().enumerate() {
                match self.cell(state.block, &s.rect) {
                    Some(c) => placed.push((row + c, i as u32)),
                    None => self.outside.push((k as u32, i as u32)),
                }
            }
        }
        placed.sort_unstable();
        let total = slots as usize * cells;
        self.starts = vec![0; total + 1];
        for &(c, _) in &placed {
            self.starts[c + 1] += 1;
        }
        for c in 0..total {
            self.starts[c + 1] += self.starts[c];
        }
        self.entries = placed.into_iter().map(|(_, i)| i).collect();
        // Which fixed sprites overlap which (never changing while the grid stands), for the
        // fixed types some rule names first.
        let firsts = |k: Kind| rules.fixed[k] && rules.first_in_rules[k];
        self.base = Vec::with_capacity(kinds);
        let mut numbers = 0u32;
        for (k, group) in state.groups.iter().enumerate() {
            self.base.push(numbers);
            if firsts(k) {
                numbers += group.len() as u32;
            }
        }
        self.overlap_starts = Vec::with_capacity(numbers as usize + 1);
        self.overlaps.clear();
        let seconds: Vec<Kind> = (0..kinds).filter(|&k| self.slot[k] != u32::MAX).collect();
        let mut found: Vec<(u32, u32)> = Vec::new();
        for (k, group) in state.groups.iter().enumerate() {
            if !firsts(k) {
                continue;
            }
            for (i, s) in group.iter().enumerate() {
                self.overlap_starts.push(self.overlaps.len() as u32);
                found.clear();
                for &k2 in &seconds {
                    self.each_near(k2, state.block, &s.rect, |i2| {
                        *work += 1;
                        if (k2, i2) != (k, i) && s.rect.intersects(&state.groups[k2][i2].rect) {
                            found.push((k2 as u32, i2 as u32));
                        }
                    });
                }
                if *work > budget {
                    return false;
                }
                self.overlaps.extend_from_slice(&found);
            }
        }
        self.overlap_starts.push(self.overlaps.len() as u32);
        true
    }

    /// Calls `f` with the place of each fixed sprite of `kind` that may overlap `r`: those of
    /// the three cells around it in each of three rows, and those outside the grid.
    #[inline]
    fn each_near(&self, kind: Kind, block: i32, r: &Rect, mut f: impl FnMut(usize)) {
        let row = match self.slot.get(kind) {
            Some(&row) if row != u32::MAX => row as usize,
            _ => return,
        };
        let base = row * (self.w * self.h) as usize;
        let cx = r.x.div_euclid(block) + 1;
        let cy = r.y.div_euclid(block) + 1;
        let (x0, x1) = ((cx - 1).max(0), (cx + 1).min(self.w - 1));
        if x0 <= x1 {
            for y in (cy - 1).max(0)..=(cy + 1).min(self.h - 1) {
                let from = self.starts[base + (y * self.w + x0) as usize] as usize;
                let to = self.starts[base + (y * self.w + x1) as usize + 1] as usize;
                for &i in &self.entries[from..to] {
                    f(i as usize);
                }
            }
        }
        for &(k, i) in &self.outside {
            if k as usize == kind {
                f(i as usize);
            }
        }
    }

    /// The fixed sprites that fixed sprite `at` overlaps.
    fn overlapping(&self, at: At) -> std::slice::Iter<'_, (u32, u32)> {
        let number = self.base[at.0] as usize + at.1;
        let (from, to) = (
            self.overlap_starts[number] as usize,
            self.overlap_starts[number + 1] as usize,
        );
        self.overlaps[from..to].iter()
    }
}

/// GVGAI's pixel-perfect step back: a sprite that moved straight into `other` stops at its
/// edge; any other way, back where it was.
fn pixel_perfect_back(s: &Sprite, other: &Rect) -> Rect {
    let centre = |r: &Rect| {
        (
            f64::from(r.x) + f64::from(r.w) / 2.0,
            f64::from(r.y) + f64::from(r.h) / 2.0,
        )
    };
    let (now, before) = (centre(&s.rect), centre(&s.last));
    let dir = Dir {
        x: now.0 - before.0,
        y: now.1 - before.1,
    }
    .normalised();
    let r = s.rect;
    if dir == Dir::DOWN {
        Rect {
            y: r.y - ((r.y + r.h) - other.y),
            ..r
        }
    } else if dir == Dir::RIGHT {
        Rect {
            x: r.x - ((r.x + r.w) - other.x),
            ..r
        }
    } else if dir == Dir::UP {
        Rect {
            y: other.y + other.h,
            ..r
        }
    } else if dir == Dir::LEFT {
        Rect {
            x: other.x + other.w,
            ..r
        }
    } else {
        s.last
    }
}
