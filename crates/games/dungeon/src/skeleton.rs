//! The skeleton graph of a room (SPEC §2.3): with the monsters frozen in place (GVGAI's
//! `Immovable`), every position of (avatar cell, facing, key held, monsters alive, ticks the
//! sword stays out) reachable from the start under the rules of [`super::rules`], found by the
//! studio's one explorer. Its moves are the four directions (a new one only turns the avatar)
//! and the sword (while it is out, a tick spent waiting). A move that changes nothing (walking
//! into a wall already faced with no sword out) is no edge, and neither is drawing the sword
//! onto a cell with no monster: with every monster frozen it can only delay a later swing, so
//! it never shortens a win nor reaches a new cell, facing, key or kill. Every edge is one
//! tick. Walking onto a live monster is a loss ([`NodeClass::Fail`]); leaving by the exit with
//! the key is the win. The avatar can walk back and forth, so the space has cycles: a node from
//! which the win cannot be reached is dead.

use super::room::{Cell, Room};
use super::rules::{Action, Dir, SWORD_TICKS};
use studio_core::game::explore::{self, StateSpace};
use studio_core::game::CellLook;
use studio_core::grid::Grid;

pub use studio_core::game::explore::{GraphError, NodeClass};

/// The state budget the command line and the studio use unless told otherwise.
pub const DEFAULT_BUDGET: usize = 200_000;

/// The most monsters the skeleton tracks (one bit each in a position's key).
pub const MAX_MONSTERS: usize = 64;

/// No monster on a cell.
const NONE: u8 = u8::MAX;
/// No neighbour past the room's edge.
const OUTSIDE: u16 = u16::MAX;

const PLAYING: u8 = 0;
const WON: u8 = 1;
const LOST: u8 = 2;

/// What stays the same across a room's skeleton: its terrain and where the monsters stand.
#[derive(Clone, Debug)]
pub struct Frozen {
    /// 0 floor, 1 wall, 2 block, 3 water, in reading order.
    terrain: Vec<u8>,
    /// Where each monster stands, by index.
    monster_cells: Vec<u16>,
    /// Each monster's speed, by index (for the picture only: frozen monsters never move).
    monster_speeds: Vec<super::room::Speed>,
    /// The monster standing on each cell, by index (`NONE` for none).
    monster_of: Vec<u8>,
    /// Each cell's neighbours up, down, left, right (`OUTSIDE` past the edge).
    neighbours: Vec<[u16; 4]>,
    width: usize,
    height: usize,
    exit: u16,
    key: u16,
}

impl Frozen {
    /// The frozen room.
    pub fn of(room: &Room) -> Self {
        let (width, height) = (room.width(), room.height());
        let index = |(x, y): (usize, usize)| (y * width + x) as u16;
        let mut monster_of = vec![NONE; width * height];
        for (m, &(at, _)) in room.monsters().iter().enumerate().take(MAX_MONSTERS) {
            monster_of[usize::from(index(at))] = m as u8;
        }
        let neighbours = (0..width * height)
            .map(|i| {
                DIRS.map(|dir| {
                    let (x, y) = dir.from((i % width, i / width));
                    if x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height {
                        (y as usize * width + x as usize) as u16
                    } else {
                        OUTSIDE
                    }
                })
            })
            .collect();
        Self {
            terrain: room
                .cells()
                .cells()
                .iter()
                .map(|c| match c {
                    Cell::Wall => 1,
                    Cell::Block => 2,
                    Cell::Water => 3,
                    _ => 0,
                })
                .collect(),
            monster_cells: room.monsters().iter().map(|m| index(m.0)).collect(),
            monster_speeds: room.monsters().iter().map(|m| m.1).collect(),
            monster_of,
            neighbours,
            width,
            height,
            exit: index(room.exit()),
            key: index(room.key()),
        }
    }

    /// The live monster at cell `i`, by index.
    fn monster_at(&self, p: &Position, i: usize) -> Option<usize> {
        let m = self.monster_of[i];
        (m != NONE && p.alive & (1 << m) != 0).then_some(usize::from(m))
    }

    /// The cell one step in direction `dir` (an index into `DIRS`) from `i`, if inside the
    /// room.
    fn ahead(&self, i: usize, dir: usize) -> Option<usize> {
        let n = self.neighbours[i][dir];
        (n != OUTSIDE).then_some(usize::from(n))
    }

    /// The position after `action`, `None` when it changes nothing or the game is over.
    pub fn after(&self, p: &Position, action: Action) -> Option<Position> {
        if p.end != PLAYING {
            return None;
        }
        let mut next = *p;
        // The sword ages first, as in a tick of play.
        next.sword = p.sword.saturating_sub(1);
        let avatar = usize::from(p.avatar);
        match action {
            Action::Wait => return None,
            Action::Sword if next.sword > 0 => {}
            Action::Sword => {
                let target = self.ahead(avatar, usize::from(p.facing))?;
                let m = self.monster_at(p, target)?;
                next.alive &= !(1 << m);
                next.sword = SWORD_TICKS as u8;
            }
            Action::Move(dir) => {
                let d = DIRS.iter().position(|&d| d == dir).unwrap_or(0);
                if d != usize::from(p.facing) {
                    next.facing = d as u8;
                } else {
                    let open = self.ahead(avatar, d).filter(|&t| {
                        self.terrain[t] == 0 && (t != usize::from(self.exit) || p.has_key)
                    });
                    if let Some(t) = open {
                        next.avatar = t as u16;
                        if t == usize::from(self.key) && !p.has_key {
                            next.has_key = true;
                            next.facing = RIGHT;
                        }
                        if t == usize::from(self.exit) {
                            next.end = WON;
                        } else if self.monster_at(p, t).is_some() {
                            next.end = LOST;
                        }
                    }
                }
            }
        }
        (next != *p).then_some(next)
    }

    /// How a position looks, cell by cell.
    pub fn look(&self, p: &Position) -> Grid<CellLook> {
        let mut cells = Grid::filled(self.width, self.height, CellLook::default());
        for i in 0..self.width * self.height {
            let cell = if i == usize::from(p.avatar) && !p.won() {
                Cell::Avatar
            } else if let Some(m) = self.monster_at(p, i) {
                Cell::Monster(self.monster_speeds[m])
            } else if i == usize::from(self.exit) {
                Cell::Exit
            } else if i == usize::from(self.key) && !p.has_key {
                Cell::Key
            } else {
                [Cell::Floor, Cell::Wall, Cell::Block, Cell::Water][usize::from(self.terrain[i])]
            };
            cells.set(
                i % self.width,
                i / self.width,
                CellLook {
                    rgb: super::room::rgb(cell),
                    mark: super::play::mark(cell, DIRS[usize::from(p.facing)]),
                },
            );
        }
        cells
    }
}

/// One position of the skeleton (the room itself is the graph's [`Frozen`] context).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Bit `i` set while monster `i` lives.
    alive: u64,
    avatar: u16,
    facing: u8,
    has_key: bool,
    end: u8,
    /// Ticks the sword stays out, this one included (0: none out).
    sword: u8,
}

impl Position {
    /// The start of a room.
    pub fn start(room: &Room) -> Self {
        let (x, y) = room.avatar();
        let count = room.monsters().len().min(MAX_MONSTERS);
        Self {
            alive: if count == 64 {
                u64::MAX
            } else {
                (1u64 << count) - 1
            },
            avatar: (y * room.width() + x) as u16,
            facing: RIGHT,
            has_key: false,
            end: PLAYING,
            sword: 0,
        }
    }

    /// True once the avatar left by the exit.
    pub fn won(&self) -> bool {
        self.end == WON
    }

    /// True once the avatar walked onto a monster.
    pub fn lost(&self) -> bool {
        self.end == LOST
    }
}

const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];
/// Facing right, as an index into `DIRS` (the start, and after taking the key).
const RIGHT: u8 = 3;

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
    type Context = Frozen;

    const ACYCLIC: bool = false;

    fn moves() -> [Action; 5] {
        MOVES
    }

    fn key(p: &Position) -> u128 {
        u128::from(p.alive)
            | u128::from(p.avatar) << 64
            | u128::from(p.facing) << 80
            | u128::from(p.has_key) << 82
            | u128::from(p.end) << 83
            | u128::from(p.sword) << 85
    }

    fn step(room: &Frozen, p: &Position, mv: Action) -> Option<Position> {
        room.after(p, mv)
    }

    fn is_success(_: &Frozen, p: &Position) -> bool {
        p.won()
    }

    fn progress(_: &Position) -> u32 {
        0
    }

    fn cells(room: &Frozen, _: &Position) -> usize {
        room.width * room.height
    }

    fn label(mv: Action) -> char {
        mv.letter()
    }

    fn look(room: &Frozen, p: &Position) -> Grid<CellLook> {
        room.look(p)
    }

    /// Monsters alive × avatar cell × facing × key × sword ticks. The end needs no place of its own: a
    /// won position is the only one with the avatar on the exit, a lost one the only one
    /// with the avatar on a live monster.
    fn dense_size(room: &Frozen) -> Option<usize> {
        let monsters = u32::try_from(room.monster_cells.len()).ok()?;
        1usize
            .checked_shl(monsters)
            .filter(|_| monsters < 32)?
            .checked_mul(room.width * room.height * 8 * (SWORD_TICKS as usize + 1))
    }

    fn dense(room: &Frozen, p: &Position) -> usize {
        (((p.alive as usize * room.width * room.height + usize::from(p.avatar)) * 4
            + usize::from(p.facing))
            * 2
            + usize::from(p.has_key))
            * (SWORD_TICKS as usize + 1)
            + usize::from(p.sword)
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
    Ok(SkeletonGraph::explore(
        Frozen::of(room),
        Position::start(room),
        budget,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_core::game::GraphVariables;

    fn graph(text: &str) -> SkeletonGraph {
        skeleton(&Room::parse_ascii(text).unwrap(), DEFAULT_BUDGET).unwrap()
    }

    /// The shortest solution's actions as letters.
    fn letters(g: &SkeletonGraph) -> String {
        g.shortest_solution()
            .unwrap()
            .iter()
            .map(|a| a.letter())
            .collect()
    }

    #[test]
    fn a_corridor_has_the_thirteen_positions_counted_by_hand() {
        // Avatar, key, exit in a row; the avatar starts facing right. Without the key it
        // stands on its cell facing any of the four ways (4). Stepping right takes the key and
        // faces right; on the key's cell it can face four ways (4), and back on the start
        // (reached facing left) four more (4). And the win: 13.
        let g = graph("wwwww\nwA+gw\nwwwww\n");
        let v = GraphVariables::of(&g);
        assert_eq!(v.states, 13);
        assert_eq!((v.dead, v.fails), (0, 0));
        let solution = letters(&g);
        assert_eq!(solution, "RR");
        assert!(g.solvable());
    }

    #[test]
    fn a_monster_met_head_on_is_struck_from_the_start() {
        // The avatar starts facing right, at the monster: one swing clears the way.
        let g = graph("wwwwww\nwA1+gw\nwwwwww\n");
        assert!(g.solvable());
        let solution = letters(&g);
        assert_eq!(solution, "SRRR");
        // A monster below, out of the way: walked past.
        let g = graph("wwwwww\nwA.+gw\nw1wwww\nwwwwww\n");
        let solution = letters(&g);
        assert_eq!(solution, "RRR");
        let g = graph("wwwwwww\nwA.1+gw\nwwwwwww\n");
        let solution = letters(&g);
        assert_eq!(solution, "RSRRR");
    }
}
