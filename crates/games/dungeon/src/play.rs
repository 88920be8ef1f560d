//! The playtest: one tick a key on a room under the tick rules, and how a cell looks on the
//! board (the avatar facing its way, monsters by speed).

use super::room::{Cell, Room, Speed};
use super::rules::{Action, Dir, Outcome, Play, TICK_LIMIT};
use studio_core::game::{CellLook, Heading, PlayInput, PlayMove, PlayRules, PlayStatus, TileMark};
use studio_core::grid::Grid;
use studio_core::rng::Rng;

/// A playtest: one tick a key (arrows or WASD move, Space swings the sword, `.` waits), the
/// monsters moved by the seeded dice; every tick can be taken back.
pub struct DungeonPlay {
    room: Room,
    play: Play,
    rng: Rng,
    history: Vec<(Play, Rng)>,
    message: String,
}

impl DungeonPlay {
    /// A game of `room` whose monsters roll `seed`'s dice.
    pub fn new(room: Room, seed: u64) -> Self {
        Self {
            play: Play::start(&room),
            room,
            rng: Rng::new(seed),
            history: Vec::new(),
            message: "Arrows or WASD move, Space swings the sword, . waits".into(),
        }
    }
}

impl PlayRules for DungeonPlay {
    fn view(&self) -> Grid<CellLook> {
        let mut cells = Grid::filled(self.room.width(), self.room.height(), CellLook::default());
        for (x, y, cell) in self.room.cells().iter() {
            let shown = match cell {
                Cell::Avatar | Cell::Monster(_) => Cell::Floor,
                Cell::Key if self.play.key => Cell::Floor,
                other => other,
            };
            cells.set(x, y, look(shown, self.play.facing));
        }
        if self.play.outcome != Outcome::Won {
            let (x, y) = self.play.avatar;
            cells.set(x, y, look(Cell::Avatar, self.play.facing));
        }
        // Monsters last: the one that got the avatar is shown on its cell, not hidden under it.
        for m in self.play.monsters.iter().filter(|m| m.alive) {
            cells.set(
                m.pos.0,
                m.pos.1,
                look(Cell::Monster(m.speed), self.play.facing),
            );
        }
        cells
    }

    fn input(&self) -> PlayInput {
        PlayInput::Directions
    }

    fn apply(&mut self, mv: PlayMove) -> bool {
        let action = match mv {
            PlayMove::Go(h) => Action::Move(match h {
                Heading::Up => Dir::Up,
                Heading::Down => Dir::Down,
                Heading::Left => Dir::Left,
                Heading::Right => Dir::Right,
            }),
            PlayMove::Act => Action::Sword,
            PlayMove::Wait => Action::Wait,
            PlayMove::Swap(..) | PlayMove::Click(..) => return false,
        };
        if self.play.outcome != Outcome::Playing {
            return false;
        }
        self.history.push((self.play.clone(), self.rng.clone()));
        let events = self
            .play
            .tick(&self.room, action, &mut self.rng, TICK_LIMIT);
        self.message = match self.play.outcome {
            Outcome::Won => format!("Out with the key in {} ticks!", self.play.tick),
            Outcome::Died => "A monster got you.".into(),
            Outcome::TimedOut => format!("Out of time ({TICK_LIMIT} ticks)."),
            Outcome::Playing if events.killed => "Got one! (+2)".into(),
            Outcome::Playing if events.took_key => "You have the key (+1): now the exit".into(),
            Outcome::Playing if events.bumped => "Blocked".into(),
            Outcome::Playing if events.turned => "Turned: the same way again moves".into(),
            Outcome::Playing => String::new(),
        };
        true
    }

    fn status(&self) -> PlayStatus {
        let facing = match self.play.facing {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        };
        PlayStatus {
            moves: self.play.tick,
            outcome: match self.play.outcome {
                Outcome::Playing => None,
                Outcome::Won => Some(true),
                Outcome::Died | Outcome::TimedOut => Some(false),
            },
            message: self.message.clone(),
            counters: vec![
                ("Tick".into(), format!("{} / {TICK_LIMIT}", self.play.tick)),
                ("Score".into(), self.play.score.to_string()),
                (
                    "Key".into(),
                    if self.play.key { "yes" } else { "no" }.into(),
                ),
                ("Facing".into(), facing.into()),
                (
                    "Monsters".into(),
                    self.play
                        .monsters
                        .iter()
                        .filter(|m| m.alive)
                        .count()
                        .to_string(),
                ),
            ],
        }
    }

    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((play, rng)) => {
                self.play = play;
                self.rng = rng;
                self.message = "Took back a tick".into();
                true
            }
            None => false,
        }
    }
}

fn look(cell: Cell, facing: Dir) -> CellLook {
    CellLook {
        rgb: super::room::rgb(cell),
        mark: mark(cell, facing),
    }
}

/// How a cell is marked on the board: the avatar with its sword on the side it faces, a
/// monster with one pip per speed step (slow 1, normal 2, quick 3).
pub fn mark(cell: Cell, facing: Dir) -> TileMark {
    match cell {
        Cell::Avatar => TileMark::Facing(match facing {
            Dir::Up => Heading::Up,
            Dir::Down => Heading::Down,
            Dir::Left => Heading::Left,
            Dir::Right => Heading::Right,
        }),
        Cell::Monster(Speed::Quick) => TileMark::Monster(3),
        Cell::Monster(Speed::Normal) => TileMark::Monster(2),
        Cell::Monster(Speed::Slow) => TileMark::Monster(1),
        _ => TileMark::Plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::DungeonGame;
    use studio_core::game::Game;

    #[test]
    fn a_playtest_plays_ticks_strikes_wins_and_takes_ticks_back() {
        let room = Room::parse_ascii("wwwwwww\nwA.1+gw\nwwwwwww\n").unwrap();
        let mut p = DungeonPlay::new(room, 0);
        assert!(p.apply(PlayMove::Go(Heading::Right)));
        // Facing the slow monster from the next cell: the sword kills it.
        assert!(p.apply(PlayMove::Act));
        assert_eq!(p.status().message, "Got one! (+2)");
        assert!(p.undo());
        assert_eq!(p.status().moves, 1);
        assert!(p.apply(PlayMove::Act));
        for _ in 0..3 {
            assert!(p.apply(PlayMove::Go(Heading::Right)));
        }
        let s = p.status();
        assert_eq!((s.outcome, s.moves), (Some(true), 5));
        assert!(!p.apply(PlayMove::Wait), "the game is over");
        assert!(!p.apply(PlayMove::Click(1, 1)));
        let blank = DungeonGame.blank(4, 4);
        assert!(DungeonGame.check(&blank.cells).is_ok());
    }

    /// Issue 31, D22: the monster that got the avatar is shown on its cell at the end.
    #[test]
    fn the_monster_that_got_the_avatar_is_shown() {
        let room = Room::parse_ascii(
            "wwwwwww
wA.1+gw
wwwwwww
",
        )
        .unwrap();
        let mut p = DungeonPlay::new(room, 0);
        let monster = p.play.monsters[0].pos;
        p.play.avatar = monster;
        p.play.outcome = Outcome::Died;
        let view = p.view();
        assert!(matches!(
            view.get(monster.0, monster.1).mark,
            TileMark::Monster(_)
        ));
    }
}
