//! The skeleton graph of a room (SPEC §2.3): with the monsters frozen in place, every position
//! of (avatar cell, facing, key held, monsters alive) reachable from the start, found by the
//! studio's one explorer. Its moves are the four directions and the sword; a move that
//! changes nothing (walking into a wall already faced, a swing at nothing) is no edge. Walking
//! onto a live monster is a loss ([`NodeClass::Fail`]); leaving by the exit with the key is the
//! win. The avatar can walk back and forth, so the space has cycles: a node from which the win
//! cannot be reached is dead.

use super::room::{Cell, Room};
use super::rules::{Action, Dir};
use crate::game::explore::{self, StateSpace};
use crate::game::{CellLook, TileMark};
use crate::grid::Grid;

pub use crate::game::explore::{GraphError, NodeClass};

/// The state budget the command line and the studio use unless told otherwise.
pub const DEFAULT_BUDGET: usize = 200_000;

/// The most monsters the skeleton tracks (one bit each in a position's key).
pub const MAX_MONSTERS: usize = 64;

const PLAYING: u8 = 0;
const WON: u8 = 1;
const LOST: u8 = 2;

/// One position of the skeleton: the room's terrain travels with it (2 bits a cell), so a
/// position is complete on its own.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// 0 floor, 1 wall, 2 block, 3 water; two bits per cell in reading order.
    terrain: [u64; 8],
    /// Where each monster stands (frozen), by index.
    monster_cells: [u8; MAX_MONSTERS],
    /// How many monsters the room has.
    monster_count: u8,
    /// Bit `i` set while monster `i` lives.
    alive: u64,
    width: u8,
    height: u8,
    exit: u8,
    key: u8,
    avatar: u8,
    facing: u8,
    has_key: bool,
    end: u8,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Position(avatar {}, facing {}, key {}, end {})",
            self.avatar, self.facing, self.has_key, self.end
        )
    }
}

impl Position {
    /// The start of a room.
    pub fn start(room: &Room) -> Self {
        let width = room.width();
        let index = |(x, y): (usize, usize)| (y * width + x) as u8;
        let mut p = Self {
            terrain: [0; 8],
            monster_cells: [0; MAX_MONSTERS],
            monster_count: 0,
            alive: 0,
            width: width as u8,
            height: room.height() as u8,
            exit: index(room.exit()),
            key: index(room.key()),
            avatar: index(room.avatar()),
            facing: 1,
            has_key: false,
            end: PLAYING,
        };
        for (x, y, cell) in room.cells().iter() {
            let i = y * width + x;
            let t: u64 = match cell {
                Cell::Wall => 1,
                Cell::Block => 2,
                Cell::Water => 3,
                _ => 0,
            };
            p.terrain[i / 32] |= t << ((i % 32) * 2);
            if matches!(cell, Cell::Monster(_)) && usize::from(p.monster_count) < MAX_MONSTERS {
                p.monster_cells[usize::from(p.monster_count)] = i as u8;
                p.alive |= 1 << p.monster_count;
                p.monster_count += 1;
            }
        }
        p
    }

    fn terrain_at(&self, i: usize) -> u64 {
        (self.terrain[i / 32] >> ((i % 32) * 2)) & 3
    }

    /// The live monster at cell `i`, by index.
    fn monster_at(&self, i: usize) -> Option<usize> {
        (0..usize::from(self.monster_count))
            .find(|&m| self.alive & (1 << m) != 0 && usize::from(self.monster_cells[m]) == i)
    }

    /// The cell one step `dir` from the avatar, if inside the room.
    fn ahead(&self, dir: Dir) -> Option<usize> {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        let a = usize::from(self.avatar);
        let (x, y) = dir.from((a % w, a / w));
        (x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h)
            .then(|| y as usize * w + x as usize)
    }

    /// The position after `action`, `None` when it changes nothing or the game is over.
    pub fn after(&self, action: Action) -> Option<Self> {
        if self.end != PLAYING {
            return None;
        }
        let mut next = *self;
        match action {
            Action::Wait => return None,
            Action::Sword => {
                let target = self.ahead(DIRS[usize::from(self.facing)])?;
                let m = self.monster_at(target)?;
                next.alive &= !(1 << m);
            }
            Action::Move(dir) => {
                next.facing = DIRS.iter().position(|&d| d == dir).unwrap_or(0) as u8;
                let open = self.ahead(dir).filter(|&t| {
                    self.terrain_at(t) == 0 && (t != usize::from(self.exit) || self.has_key)
                });
                if let Some(t) = open {
                    next.avatar = t as u8;
                    if t == usize::from(self.key) {
                        next.has_key = true;
                    }
                    if t == usize::from(self.exit) {
                        next.end = WON;
                    } else if self.monster_at(t).is_some() {
                        next.end = LOST;
                    }
                }
                if next == *self {
                    return None;
                }
            }
        }
        Some(next)
    }

    /// True once the avatar left by the exit.
    pub fn won(&self) -> bool {
        self.end == WON
    }

    /// True once the avatar walked onto a monster.
    pub fn lost(&self) -> bool {
        self.end == LOST
    }

    /// How the position looks, cell by cell.
    pub fn look(&self) -> Grid<CellLook> {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        let mut cells = Grid::filled(w, h, CellLook::default());
        for i in 0..w * h {
            let cell = if i == usize::from(self.avatar) && !self.won() {
                Cell::Avatar
            } else if self.monster_at(i).is_some() {
                Cell::Monster(super::room::Speed::Normal)
            } else if i == usize::from(self.exit) {
                Cell::Exit
            } else if i == usize::from(self.key) && !self.has_key {
                Cell::Key
            } else {
                [Cell::Floor, Cell::Wall, Cell::Block, Cell::Water][self.terrain_at(i) as usize]
            };
            cells.set(
                i % w,
                i / w,
                CellLook {
                    rgb: super::room::rgb(cell),
                    mark: if cell == Cell::Avatar {
                        TileMark::Avatar
                    } else {
                        TileMark::Plain
                    },
                },
            );
        }
        cells
    }
}

const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

/// A dungeon room's positions and moves, as the explorer walks them.
#[derive(Clone, Copy, Debug, Default)]
pub struct DungeonSpace;

/// The moves of the skeleton graph, in edge order.
pub const MOVES: [Action; 5] = [
    Action::Move(Dir::Up),
    Action::Move(Dir::Down),
    Action::Move(Dir::Left),
    Action::Move(Dir::Right),
    Action::Sword,
];

impl StateSpace<5> for DungeonSpace {
    type State = Position;
    type Key = u128;
    type Move = Action;
    type Context = ();

    const ACYCLIC: bool = false;

    fn context(_start: &Position) {}

    fn moves() -> [Action; 5] {
        MOVES
    }

    fn key(p: &Position) -> u128 {
        u128::from(p.alive)
            | u128::from(p.avatar) << 64
            | u128::from(p.facing) << 72
            | u128::from(p.has_key) << 74
            | u128::from(p.end) << 75
    }

    fn step(p: &Position, mv: Action) -> Option<Position> {
        p.after(mv)
    }

    fn is_success(_: &(), p: &Position) -> bool {
        p.won()
    }

    fn progress(_: &Position) -> u32 {
        0
    }

    fn cells(p: &Position) -> usize {
        usize::from(p.width) * usize::from(p.height)
    }

    fn label(mv: Action) -> char {
        mv.letter()
    }

    fn look(p: &Position) -> Grid<CellLook> {
        p.look()
    }
}

/// The skeleton graph of a room.
pub type SkeletonGraph = explore::StateGraph<DungeonSpace, 5>;

/// Why a skeleton graph was not built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkeletonError {
    /// More positions than the budget.
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// More monsters than a position can track.
    #[error("{count} monsters; the skeleton graph tracks at most {MAX_MONSTERS}")]
    TooManyMonsters {
        /// The room's monsters.
        count: usize,
    },
}

/// Explores the skeleton graph of `room`.
///
/// # Errors
/// [`SkeletonError`]: past `budget` positions, or more than 64 monsters.
pub fn skeleton(room: &Room, budget: usize) -> Result<SkeletonGraph, SkeletonError> {
    let count = room.monsters().len();
    if count > MAX_MONSTERS {
        return Err(SkeletonError::TooManyMonsters { count });
    }
    Ok(SkeletonGraph::explore(Position::start(room), budget)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GraphVariables;

    fn graph(text: &str) -> SkeletonGraph {
        skeleton(&Room::parse_ascii(text).unwrap(), DEFAULT_BUDGET).unwrap()
    }

    #[test]
    fn a_corridor_has_the_ten_positions_counted_by_hand() {
        // Avatar, key, exit in a row. Without the key the avatar stands on its cell facing
        // down (start), up or left (facing right it would have moved): 3. With the key: on
        // the key's cell facing right, up or down (3) and back on the start facing left, up or
        // down (3). And the win: 10.
        let g = graph("wwwww\nwA+gw\nwwwww\n");
        let v = GraphVariables::of(&g);
        assert_eq!(v.states, 10);
        assert_eq!(v.solutions, 1);
        assert_eq!((v.dead, v.fails), (0, 0));
        let solution: String = g
            .shortest_solution()
            .unwrap()
            .iter()
            .map(|a| a.letter())
            .collect();
        assert_eq!(solution, "RR");
        assert!(g.solvable());
    }

    #[test]
    fn a_monster_met_head_on_blocks_the_only_way() {
        // The avatar cannot face the monster without walking into it: the room is lost.
        // Positions: the start facing down, up or left, and the loss.
        let g = graph("wwwwww\nwA1+gw\nwwwwww\n");
        let v = GraphVariables::of(&g);
        assert_eq!((v.states, v.fails, v.dead), (4, 1, 3));
        assert!(!g.solvable());
        assert_eq!(g.node(0).class, NodeClass::Dead);
        // With a cell between them, the avatar walks up facing the monster and kills it.
        let g = graph("wwwwwww\nwA.1+gw\nwwwwwww\n");
        assert!(g.solvable());
        let solution: String = g
            .shortest_solution()
            .unwrap()
            .iter()
            .map(|a| a.letter())
            .collect();
        assert_eq!(solution, "RSRRR");
    }
}
