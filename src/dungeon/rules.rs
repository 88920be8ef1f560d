//! The rules of a dungeon room (SPEC §2.3), one tick at a time: the avatar acts (moves one
//! cell or swings its sword), then the monsters act on their cooldowns, driven by a seeded RNG.
//!
//! - A move into a wall, block, water or the locked exit leaves the avatar in place, facing
//!   that way. Every move turns the avatar to face its direction.
//! - The sword kills a monster on the cell the avatar faces (+2).
//! - Stepping on the key takes it (+1); stepping on the exit with the key wins (+1) and ends
//!   the game before the monsters act.
//! - A monster moves every 2 / 4 / 8 ticks (quick / normal / slow; on ticks that are multiples
//!   of its period, counting from 1) to a random free neighbouring floor cell: never into a
//!   wall, block, water, the exit or another monster, but onto the avatar. Monsters move in
//!   reading order of where they started; one with no free neighbour stays.
//! - A monster on the avatar's cell kills it (−1, lost), whoever moved there.
//! - A game not won after the tick limit (default 200) is lost.
//!
//! The avatar starts facing down.

use super::room::{Cell, Room, Speed, MAX_SIDE};
use crate::rng::Rng;

/// The default tick limit.
pub const TICK_LIMIT: u32 = 200;

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
    /// Move one cell (or turn, when blocked).
    Move(Dir),
    /// Swing the sword at the faced cell.
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
}

/// What happened in one tick, for messages and scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickEvents {
    /// The sword killed a monster.
    pub killed: bool,
    /// The avatar took the key.
    pub took_key: bool,
    /// The avatar bumped into something and only turned.
    pub bumped: bool,
    /// What it bumped into was the exit, locked (no key yet).
    pub locked: bool,
}

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    /// Where the avatar stands.
    pub avatar: (usize, usize),
    /// Where it faces (the sword's target).
    pub facing: Dir,
    /// True once the key is taken.
    pub key: bool,
    /// The monsters, in the order they move.
    pub monsters: Vec<Monster>,
    /// Ticks played.
    pub tick: u32,
    /// +1 key, +2 a kill, +1 a win, −1 a death.
    pub score: i32,
    /// How the game stands.
    pub outcome: Outcome,
}

impl Play {
    /// The start of a game in `room`.
    pub fn start(room: &Room) -> Self {
        Self {
            avatar: room.avatar(),
            facing: Dir::Down,
            key: false,
            monsters: room
                .monsters()
                .iter()
                .map(|&(pos, speed)| Monster {
                    pos,
                    speed,
                    alive: true,
                })
                .collect(),
            tick: 0,
            score: 0,
            outcome: Outcome::Playing,
        }
    }

    /// Whether a live monster stands at `pos`.
    pub fn monster_at(&self, pos: (usize, usize)) -> Option<usize> {
        self.monsters.iter().position(|m| m.alive && m.pos == pos)
    }

    /// The avatar's half of a tick (the monsters stay where they are; the skeleton graph
    /// uses it alone). Ends the game on a win or when the avatar walks into a monster.
    pub fn avatar_acts(&mut self, room: &Room, action: Action) -> TickEvents {
        let mut events = TickEvents::default();
        if self.outcome != Outcome::Playing {
            return events;
        }
        match action {
            Action::Wait => {}
            Action::Sword => {
                if let Some(target) = in_room(room, self.facing.from(self.avatar)) {
                    if let Some(i) = self.monster_at(target) {
                        self.monsters[i].alive = false;
                        self.score += 2;
                        events.killed = true;
                    }
                }
            }
            Action::Move(dir) => {
                self.facing = dir;
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
                            self.score += 1;
                            events.took_key = true;
                        }
                        if to == room.exit() {
                            self.score += 1;
                            self.outcome = Outcome::Won;
                            return events;
                        }
                    }
                    None => {
                        events.bumped = true;
                        events.locked = target == Some(room.exit());
                    }
                }
            }
        }
        self.check_contact();
        events
    }

    /// The monsters' half of a tick: each whose period divides the tick moves to a random free
    /// neighbouring floor cell.
    pub fn monsters_act(&mut self, room: &Room, rng: &mut Rng) {
        if self.outcome != Outcome::Playing {
            return;
        }
        // Live monsters on each cell, filled when the first monster moves: this runs on every
        // tick of every agent's games and rollouts, so a neighbour's check is one look-up
        // rather than a walk over the monsters.
        let width = room.width();
        let cell = |(x, y): (usize, usize)| y * width + x;
        let mut occupied: Option<[u8; MAX_SIDE * MAX_SIDE]> = None;
        for i in 0..self.monsters.len() {
            let m = self.monsters[i];
            if !m.alive || !self.tick.is_multiple_of(m.speed.period()) {
                continue;
            }
            let occupied = occupied.get_or_insert_with(|| {
                let mut counts = [0u8; MAX_SIDE * MAX_SIDE];
                for other in self.monsters.iter().filter(|o| o.alive) {
                    if let Some(n) = counts.get_mut(cell(other.pos)) {
                        *n += 1;
                    }
                }
                counts
            });
            // The free neighbours in direction order, on the stack.
            let mut free = [(0, 0); 4];
            let mut count = 0;
            for (x, y) in Dir::ALL.iter().filter_map(|d| in_room(room, d.from(m.pos))) {
                let c = room.cells().get(x, y);
                if !c.is_solid() && c != Cell::Exit && occupied.get(cell((x, y))) == Some(&0) {
                    free[count] = (x, y);
                    count += 1;
                }
            }
            if count > 0 {
                let to = free[rng.index(count)];
                if let Some(n) = occupied.get_mut(cell(m.pos)) {
                    *n = n.saturating_sub(1);
                }
                if let Some(n) = occupied.get_mut(cell(to)) {
                    *n = n.saturating_add(1);
                }
                self.monsters[i].pos = to;
            }
        }
        self.check_contact();
    }

    /// One whole tick: the avatar acts, then the monsters; the game is lost past `limit`.
    pub fn tick(&mut self, room: &Room, action: Action, rng: &mut Rng, limit: u32) -> TickEvents {
        if self.outcome != Outcome::Playing {
            return TickEvents::default();
        }
        self.tick += 1;
        let events = self.avatar_acts(room, action);
        self.monsters_act(room, rng);
        if self.outcome == Outcome::Playing && self.tick >= limit {
            self.outcome = Outcome::TimedOut;
        }
        events
    }

    fn check_contact(&mut self) {
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
    fn a_locked_exit_and_walls_only_turn_the_avatar() {
        let r = room("wwwwww\nwAg.+w\nwwwwww\n");
        let p = play(&r, "R");
        assert_eq!((p.avatar, p.facing), ((1, 1), Dir::Right));
        let p = play(&r, "U");
        assert_eq!((p.avatar, p.facing), ((1, 1), Dir::Up));
    }

    #[test]
    fn the_sword_kills_the_faced_monster_only() {
        // A slow monster boxed in below the avatar: it cannot move before tick 8.
        let r = room("wwwww\nwA+gw\nw3www\nwwwww\n");
        let p = play(&r, "S");
        assert_eq!(
            p.score, 2,
            "the avatar faces down at the start: S hits (1,2)"
        );
        assert!(!p.monsters[0].alive);
        let p = play(&r, "RS");
        assert!(p.monsters[0].alive, "facing right, the sword hits the exit");
        assert_eq!(p.score, 1);
    }

    #[test]
    fn monsters_move_on_their_cooldowns_and_kill_on_contact() {
        // Each monster has exactly one free neighbour, so its moves are known.
        let r = room("wwwwwwwwww\nw1.w2.w3.w\nwwwwwwwwww\nwA+gwwwwww\nwwwwwwwwww\n");
        let mut p = Play::start(&r);
        let mut rng = Rng::new(9);
        let mut moved = Vec::new();
        for _ in 0..8 {
            p.tick(&r, Action::Wait, &mut rng, TICK_LIMIT);
            moved.push(p.monsters.iter().map(|m| m.pos.0).collect::<Vec<_>>());
        }
        // Quick moves on 2, 4, 6, 8 (back and forth); normal on 4, 8; slow on 8.
        assert_eq!(moved[0], vec![1, 4, 7]);
        assert_eq!(moved[1], vec![2, 4, 7]);
        assert_eq!(moved[3], vec![1, 5, 7]);
        assert_eq!(moved[7], vec![1, 4, 8]);
        // Walking into a monster dies, as does a monster walking onto the avatar.
        let r = room("wwwwww\nwA3+gw\nwwwwww\n");
        let p = play(&r, "R");
        assert_eq!((p.outcome, p.score), (Outcome::Died, -1));
        // The quick monster's only free neighbour is the avatar's cell: it steps there on
        // tick 2.
        let r = room("wwwww\nwA1ww\nw+gww\nwwwww\n");
        let p = play(&r, ".");
        assert_eq!(p.outcome, Outcome::Playing);
        let p = play(&r, "..");
        assert_eq!((p.outcome, p.tick, p.score), (Outcome::Died, 2, -1));
    }

    #[test]
    fn the_tick_limit_ends_the_game_and_seeds_reproduce_it() {
        let r = room("wwwwwww\nwA...+w\nw..2..w\nwg....w\nwwwwwww\n");
        let run = |seed: u64| {
            let mut p = Play::start(&r);
            let mut rng = Rng::new(seed);
            let mut trail = Vec::new();
            while p.outcome == Outcome::Playing {
                p.tick(&r, Action::Sword, &mut rng, 40);
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
