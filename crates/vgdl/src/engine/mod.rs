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

//!
//! Here: the state, making and killing sprites, the cycle and the terminations. Beside it:
//! `action` (the player's actions, button scripts), `sprite`, `movement` and `avatar` (the
//! sprites' own updates), `timers` (the clock's rules), `collisions` (which sprites meet
//! under which rule, over `fixed_grid`), `effects` (what a rule does when they meet).

mod action;
mod avatar;
mod collisions;
mod effects;
mod fixed_grid;
mod movement;
mod sprite;
mod timers;

use std::sync::Arc;

use crate::description::{LevelDesc, VgdlError};
use crate::rng::JavaRandom;
use crate::rules::{Class, Dir, Kind, Rules, Term, Timed};

pub use action::{parse_script, Action, MAX_SCRIPT_TICKS};
use collisions::Buffers;
use fixed_grid::FixedGrid;
pub use sprite::{Rect, Sprite};

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
        let grid_bytes = grid.held_bytes();
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
}
