//! The rules of a dungeon room (SPEC §2.3), one tick at a time, as GVGAI's Zelda plays them
//! (`zelda.txt` run on GVGAI's engine; ../shared/reports/dungeon-vs-gvgai.md §4): the avatar
//! acts, then every monster moves, then the collisions are resolved for all of them.
//!
//! - The avatar starts facing right. A direction it does not face only turns it (one tick);
//!   the faced direction moves it one cell. A move into a wall, block, water or the locked
//!   exit leaves it in place. Taking the key turns it to face right again (GVGAI makes a fresh
//!   avatar that holds the key).
//! - The sword is a sprite on the faced cell that stays 6 ticks (the tick it appears and five
//!   more) and kills every monster on it or stepping onto it (+2). While it is out, the sword
//!   action makes no new one (it only spends the tick).
//! - Stepping on the key takes it (+1); stepping on the exit with the key wins (+1) and ends
//!   the game before the monsters move.
//! - A monster holds a random direction (one of the four, drawn from the game's seeded dice)
//!   for 7 / 9 / 13 ticks (quick / normal / slow; GVGAI's `cons` + 1); it has none before its
//!   first draw at tick 7 / 9 / 13. It moves one cell that way when 2 / 4 / 8 ticks have passed
//!   since its last move. A move into a wall, block or water is a bump: it stays, and the move
//!   is spent. Monsters may walk onto the key and the exit. Two monsters that end on one cell
//!   step back where they came from (a monster that did not move stays).
//! - Collisions come after everyone moved: a monster on the sword's cell dies first; a live
//!   monster on the avatar's cell then kills it (−1, lost). An avatar and a monster that swap
//!   cells pass each other, and stepping into a cell a monster leaves that tick is safe.
//! - A game not won after the tick limit (GVGAI's 2,000) is lost.

use super::room::{Cell, Room, Speed};
use studio_core::rng::Rng;

/// The default tick limit: GVGAI's `MAX_TIMESTEPS`.
pub const TICK_LIMIT: u32 = 2_000;

/// Ticks the sword stays out (GVGAI's `OrientedFlicker limit=5`: the tick it appears and five
/// more).
pub const SWORD_TICKS: u32 = 6;

/// A direction on the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

impl Dir {
    /// The four directions.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The step `(dx, dy)`.
    pub fn delta(self) -> (i64, i64) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    /// The cell one step from `(x, y)` this way (may be outside the room).
    pub fn from(self, (x, y): (usize, usize)) -> (i64, i64) {
        let (dx, dy) = self.delta();
        (x as i64 + dx, y as i64 + dy)
    }

    /// The letter of a solution (`U`, `D`, `L`, `R`).
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }
}

/// What the avatar does in a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Face this direction (a turn, one tick) or, already facing it, move one cell.
    Move(Dir),
    /// Draw the sword onto the faced cell (nothing while it is out).
    Sword,
    /// Do nothing.
    Wait,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 6] = [
        Action::Move(Dir::Up),
        Action::Move(Dir::Down),
        Action::Move(Dir::Left),
        Action::Move(Dir::Right),
        Action::Sword,
        Action::Wait,
    ];

    /// The action as one letter (`U D L R` moves, `S` sword, `.` wait).
    pub fn letter(self) -> char {
        match self {
            Action::Move(d) => d.letter(),
            Action::Sword => 'S',
            Action::Wait => '.',
        }
    }
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Still going.
    Playing,
    /// The avatar left by the exit with the key.
    Won,
    /// A monster reached the avatar.
    Died,
    /// The tick limit passed.
    TimedOut,
}

/// A monster in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Monster {
    /// Where it stands.
    pub pos: (usize, usize),
    /// How often it moves.
    pub speed: Speed,
    /// False once the sword killed it.
    pub alive: bool,
    /// The direction it holds (`None` before its first draw).
    pub heading: Option<Dir>,
    /// Ticks since it drew its direction (or since the start, before the first draw).
    pub held: u32,
    /// Ticks since its last move (a bump counts as a move).
    pub since_move: u32,
}

impl Monster {
    /// Whether it moves on the next tick: it will hold a direction then and its cooldown
    /// will have passed.
    pub fn moves_next_tick(&self) -> bool {
        self.alive
            && (self.heading.is_some() || self.held + 1 >= self.speed.hold())
            && self.since_move + 1 >= self.speed.period()
    }
}

/// The sword while it is out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sword {
    /// The cell it stands on.
    pub pos: (usize, usize),
    /// Ticks it stays out, this one included.
    pub left: u32,
}

/// What happened in one tick, for messages and scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickEvents {
    /// The sword killed a monster.
    pub killed: bool,
    /// The avatar took the key.
    pub took_key: bool,
    /// The avatar only turned to face a new direction.
    pub turned: bool,
    /// The avatar bumped into something it faced and stayed.
    pub bumped: bool,
    /// What it bumped into was the exit, locked (no key yet).
    pub locked: bool,
}

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    /// Where the avatar stands.
    pub avatar: (usize, usize),
    /// Where it faces (where a move goes and the sword appears).
    pub facing: Dir,
    /// True once the key is taken.
    pub key: bool,
    /// The monsters, in the order they move.
    pub monsters: Vec<Monster>,
    /// The sword, while it is out.
    pub sword: Option<Sword>,
    /// Ticks played.
    pub tick: u32,
    /// +1 key, +2 a kill, +1 a win, −1 a death.
    pub score: i32,
    /// How the game stands.
    pub outcome: Outcome,
}

impl Play {
    /// The start of a game in `room`: the avatar faces right.
    pub fn start(room: &Room) -> Self {
        Self {
            avatar: room.avatar(),
            facing: Dir::Right,
            key: false,
            monsters: room
                .monsters()
                .iter()
                .map(|&(pos, speed)| Monster {
                    pos,
                    speed,
                    alive: true,
                    heading: None,
                    held: 0,
                    since_move: 0,
                })
                .collect(),
            sword: None,
            tick: 0,
            score: 0,
            outcome: Outcome::Playing,
        }
    }

    /// Makes this game a copy of `other`, reusing the monster list's memory (the search
    /// agents copy the game thousands of times a tick).
    pub fn copy_from(&mut self, other: &Play) {
        self.avatar = other.avatar;
        self.facing = other.facing;
        self.key = other.key;
        self.monsters.clone_from(&other.monsters);
        self.sword = other.sword;
        self.tick = other.tick;
        self.score = other.score;
        self.outcome = other.outcome;
    }

    /// Whether a live monster stands at `pos`.
    pub fn monster_at(&self, pos: (usize, usize)) -> Option<usize> {
        self.monsters.iter().position(|m| m.alive && m.pos == pos)
    }

    /// The avatar's half of a tick on its own: the sword ages, the avatar acts and the
    /// collisions are resolved (the human-like agent's slips use the halves one tick off).
    pub fn avatar_acts(&mut self, room: &Room, action: Action) -> TickEvents {
        if self.outcome != Outcome::Playing {
            return TickEvents::default();
        }
        self.age_sword();
        let mut events = self.avatar_moves(room, action);
        self.resolve(&mut events);
        events
    }

    /// The monsters' half of a tick on its own: each moves as it may, then the collisions
    /// are resolved.
    pub fn monsters_act(&mut self, room: &Room, rng: &mut Rng) {
        if self.outcome != Outcome::Playing {
            return;
        }
        self.monsters_move(room, rng);
        let mut events = TickEvents::default();
        self.resolve(&mut events);
    }

    /// One whole tick: the avatar acts, every monster moves, then the collisions are resolved;
    /// the game is lost past `limit`.
    pub fn tick(&mut self, room: &Room, action: Action, rng: &mut Rng, limit: u32) -> TickEvents {
        if self.outcome != Outcome::Playing {
            return TickEvents::default();
        }
        self.tick += 1;
        self.age_sword();
        let mut events = self.avatar_moves(room, action);
        if self.outcome != Outcome::Playing {
            return events;
        }
        self.monsters_move(room, rng);
        self.resolve(&mut events);
        if self.outcome == Outcome::Playing && self.tick >= limit {
            self.outcome = Outcome::TimedOut;
        }
        events
    }

    /// The sword loses a tick; it is gone once its ticks are spent.
    fn age_sword(&mut self) {
        if let Some(sword) = &mut self.sword {
            sword.left = sword.left.saturating_sub(1);
            if sword.left == 0 {
                self.sword = None;
            }
        }
    }

    /// The avatar turns, moves or draws its sword; a win ends the game at once.
    fn avatar_moves(&mut self, room: &Room, action: Action) -> TickEvents {
        let mut events = TickEvents::default();
        match action {
            Action::Wait => {}
            Action::Sword => {
                if self.sword.is_none() {
                    if let Some(pos) = in_room(room, self.facing.from(self.avatar)) {
                        self.sword = Some(Sword {
                            pos,
                            left: SWORD_TICKS,
                        });
                    }
                }
            }
            Action::Move(dir) if dir != self.facing => {
                self.facing = dir;
                events.turned = true;
            }
            Action::Move(dir) => {
                let target = in_room(room, dir.from(self.avatar));
                let open = target.filter(|&(x, y)| {
                    let cell = room.cells().get(x, y);
                    !cell.is_solid() && (cell != Cell::Exit || self.key)
                });
                match open {
                    Some(to) => {
                        self.avatar = to;
                        if !self.key && to == room.key() {
                            self.key = true;
                            self.facing = Dir::Right;
                            self.score += 1;
                            events.took_key = true;
                        }
                        if to == room.exit() {
                            self.score += 1;
                            self.outcome = Outcome::Won;
                        }
                    }
                    None => {
                        events.bumped = true;
                        events.locked = target == Some(room.exit());
                    }
                }
            }
        }
        events
    }

    /// Every live monster counts a tick, draws a new direction when its hold is over, and
    /// moves when its cooldown has passed; then monsters that share a cell step back.
    fn monsters_move(&mut self, room: &Room, rng: &mut Rng) {
        // Where each monster stood before this tick (a step back returns it there).
        let from: Vec<(usize, usize)> = self.monsters.iter().map(|m| m.pos).collect();
        let mut moved = false;
        for m in &mut self.monsters {
            if !m.alive {
                continue;
            }
            m.since_move += 1;
            if m.held + 1 < m.speed.hold() {
                m.held += 1;
            } else {
                m.heading = Some(Dir::ALL[rng.index(4)]);
                m.held = 0;
            }
            let Some(heading) = m.heading else { continue };
            if m.since_move < m.speed.period() {
                continue;
            }
            m.since_move = 0;
            if let Some(to) = in_room(room, heading.from(m.pos)) {
                if !room.cells().get(to.0, to.1).is_solid() {
                    m.pos = to;
                    moved = true;
                }
            }
        }
        if !moved {
            return;
        }
        // Monsters that share a cell step back; a step back can make a new pair, so repeat
        // until every cell holds one monster. A monster steps back at most once.
        loop {
            let mut stepped = false;
            for i in 0..self.monsters.len() {
                let m = self.monsters[i];
                let back = from.get(i).copied().unwrap_or(m.pos);
                if !m.alive || m.pos == back {
                    continue;
                }
                let shared = self
                    .monsters
                    .iter()
                    .enumerate()
                    .any(|(j, o)| j != i && o.alive && o.pos == m.pos);
                if shared {
                    self.monsters[i].pos = back;
                    stepped = true;
                }
            }
            if !stepped {
                break;
            }
        }
    }

    /// The collisions after everyone moved: the sword kills the monsters on its cell, then a
    /// monster on the avatar kills it.
    fn resolve(&mut self, events: &mut TickEvents) {
        if let Some(sword) = self.sword {
            for m in self.monsters.iter_mut() {
                if m.alive && m.pos == sword.pos {
                    m.alive = false;
                    self.score += 2;
                    events.killed = true;
                }
            }
        }
        if self.outcome == Outcome::Playing && self.monster_at(self.avatar).is_some() {
            self.score -= 1;
            self.outcome = Outcome::Died;
        }
    }
}

/// `(x, y)` as a cell of the room, or `None` outside it.
fn in_room(room: &Room, (x, y): (i64, i64)) -> Option<(usize, usize)> {
    room.get(x, y).map(|_| (x as usize, y as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(text: &str) -> Room {
        Room::parse_ascii(text).unwrap()
    }

    fn play(room: &Room, actions: &str) -> Play {
        let mut p = Play::start(room);
        let mut rng = Rng::new(1);
        for c in actions.chars() {
            let a = *Action::ALL.iter().find(|a| a.letter() == c).unwrap();
            p.tick(room, a, &mut rng, TICK_LIMIT);
        }
        p
    }

    #[test]
    fn key_then_exit_wins_with_two_points() {
        let r = room("wwwww\nwA+gw\nwwwww\n");
        let p = play(&r, "R");
        assert!(p.key);
        assert_eq!((p.score, p.outcome), (1, Outcome::Playing));
        let p = play(&r, "RR");
        assert_eq!((p.score, p.outcome, p.tick), (2, Outcome::Won, 2));
    }

    #[test]
    fn a_new_direction_only_turns_and_the_key_faces_right_again() {
        let r = room("wwwwww\nwAg.+w\nw....w\nwwwwww\n");
        let p = play(&r, "D");
        assert_eq!((p.avatar, p.facing, p.tick), ((1, 1), Dir::Down, 1));
        let p = play(&r, "DD");
        assert_eq!((p.avatar, p.facing), ((1, 2), Dir::Down));
        // The locked exit and walls leave the avatar in place.
        let p = play(&r, "R");
        assert_eq!((p.avatar, p.facing), ((1, 1), Dir::Right));
        let p = play(&r, "UU");
        assert_eq!((p.avatar, p.facing), ((1, 1), Dir::Up));
        // Down, right along the bottom, up onto the key: facing right again.
        let p = play(&r, "DDRRRRUU");
        assert_eq!((p.avatar, p.key, p.facing), ((4, 1), true, Dir::Right));
    }

    #[test]
    fn the_sword_stays_six_ticks_and_kills_what_steps_in() {
        // A slow monster boxed in right of the avatar: it cannot move before tick 13.
        let r = room("wwwww\nwA3ww\nw+gww\nwwwww\n");
        let p = play(&r, "S");
        assert_eq!(p.score, 2, "the avatar faces right at the start");
        assert!(!p.monsters[0].alive);
        // Facing down, the sword lands on the key's cell and stays for 6 ticks; a second swing
        // in that time makes no new one.
        let p = play(&r, "DS");
        assert_eq!(p.sword.map(|s| (s.pos, s.left)), Some(((1, 2), 6)));
        let p = play(&r, "DSRSSSS");
        assert_eq!(p.sword.map(|s| (s.pos, s.left)), Some(((1, 2), 1)));
        let p = play(&r, "DSRSSSSS");
        assert_eq!(p.sword.map(|s| (s.pos, s.left)), Some(((2, 1), 6)));
        assert_eq!(p.score, 2, "the new sword on the monster's cell kills it");
        // A quick monster walks into a sword left out: drawn on tick 5, the sword covers
        // (2,1) until tick 10; the monster's one open way is left, onto it, at tick 7.
        let r = room("wwwwww\nwA.1ww\nw+gwww\nwwwwww\n");
        let mut caught = 0;
        for seed in 0..40 {
            let mut p = Play::start(&r);
            let mut rng = Rng::new(seed);
            for t in 1..=7 {
                let a = if t == 5 { Action::Sword } else { Action::Wait };
                p.tick(&r, a, &mut rng, TICK_LIMIT);
            }
            let left = p.monsters[0].heading == Some(Dir::Left);
            assert_eq!(!p.monsters[0].alive, left, "seed {seed}");
            assert_eq!(p.outcome, Outcome::Playing);
            if left {
                assert_eq!(p.score, 2);
                caught += 1;
            }
        }
        assert!(caught > 0);
    }

    #[test]
    fn monsters_draw_at_their_hold_and_move_on_their_cooldowns() {
        // One monster in an open room: no move before its first draw at tick 7 / 9 / 13,
        // then one every 2 / 4 / 8 ticks in a straight line (bumps included).
        for (letter, hold, period) in [('1', 7, 2), ('2', 9, 4), ('3', 13, 8)] {
            let text = format!(
                "wwwwwwwwwwwww\nwA+g........w\nw...........w\nw.....{letter}.....w\nw...........w\nw...........w\nwwwwwwwwwwwww\n"
            );
            let r = room(&text);
            let mut p = Play::start(&r);
            let mut rng = Rng::new(5);
            let mut moves = Vec::new();
            let mut last = p.monsters[0].pos;
            for t in 1..=40 {
                assert_eq!(
                    p.monsters[0].moves_next_tick(),
                    t >= hold && (t - hold) % period == 0,
                    "{letter} at tick {t}"
                );
                p.tick(&r, Action::Wait, &mut rng, TICK_LIMIT);
                assert_eq!(p.monsters[0].heading.is_some(), t >= hold);
                if p.monsters[0].pos != last {
                    moves.push(t);
                    last = p.monsters[0].pos;
                }
            }
            assert!(moves.iter().all(|t| *t >= hold && (t - hold) % period == 0));
            assert!(!moves.is_empty(), "{letter} moved at {moves:?}");
        }
    }

    #[test]
    fn collisions_come_after_everyone_moved() {
        // Walking into a monster that stays is death.
        let r = room("wwwwww\nwA3+gw\nwwwwww\n");
        let p = play(&r, "R");
        assert_eq!((p.outcome, p.score), (Outcome::Died, -1));
        // A quick monster boxed in beside the avatar, with one free way (left, onto the
        // avatar): whatever it draws, it has moved onto the avatar or bumped by tick 9.
        let r = room("wwwww\nwA1ww\nw+gww\nwwwww\n");
        let mut seen_death = false;
        for seed in 0..20 {
            let mut p = Play::start(&r);
            let mut rng = Rng::new(seed);
            for _ in 0..6 {
                p.tick(&r, Action::Wait, &mut rng, TICK_LIMIT);
            }
            assert_eq!(
                p.outcome,
                Outcome::Playing,
                "no monster moves before tick 7"
            );
            for _ in 0..40 {
                p.tick(&r, Action::Wait, &mut rng, TICK_LIMIT);
            }
            seen_death |= p.outcome == Outcome::Died;
        }
        assert!(seen_death);
    }

    #[test]
    fn the_tick_limit_ends_the_game_and_seeds_reproduce_it() {
        let r = room("wwwwwww\nwA...+w\nw..2..w\nwg....w\nwwwwwww\n");
        let run = |seed: u64| {
            let mut p = Play::start(&r);
            let mut rng = Rng::new(seed);
            let mut trail = Vec::new();
            while p.outcome == Outcome::Playing {
                p.tick(&r, Action::Wait, &mut rng, 40);
                trail.push(p.monsters[0].pos);
            }
            (p.outcome, p.tick, trail)
        };
        let (outcome, tick, trail) = run(3);
        assert!(matches!(outcome, Outcome::TimedOut | Outcome::Died));
        assert!(tick <= 40);
        assert_eq!(run(3).2, trail);
    }
}
