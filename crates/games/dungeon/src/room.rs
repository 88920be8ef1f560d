//! A dungeon room (SPEC §2.3): up to 16×16 cells of wall, floor, block and water, and on the
//! floor the avatar's start (exactly one), the key (exactly one: the exit is always locked),
//! the exit (exactly one) and monsters of three speeds. ASCII uses GVGAI's Zelda letters where
//! they exist (`w` wall, `.` floor, `A` avatar, `+` key, `g` exit, `1` `2` `3` monsters) plus
//! `B` block and `~` water.

use std::fmt;
use studio_core::game::{
    AsciiError, ConditionKind, ConditionSpec, ConditionValue, GameId, TileInfo,
};
use studio_core::grid::{AsciiCell, Grid, GridError};
use studio_core::level::Level;

/// The id of dungeon rooms.
pub const ID: GameId = GameId::new("dungeon");

/// Zelda-like dungeon rooms.
#[derive(Clone, Copy, Debug, Default)]
pub struct DungeonGame;

/// Largest side of a room.
pub const MAX_SIDE: usize = 16;
/// Smallest side of a room (a wall around one floor cell).
pub const MIN_SIDE: usize = 3;

/// How often a monster moves: every 2, 4 or 8 ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Moves every 2 ticks (`1`).
    Quick,
    /// Moves every 4 ticks (`2`).
    Normal,
    /// Moves every 8 ticks (`3`).
    Slow,
}

impl Speed {
    /// The three speeds, quickest first.
    pub const ALL: [Speed; 3] = [Speed::Quick, Speed::Normal, Speed::Slow];

    /// Ticks between two moves.
    pub fn period(self) -> u32 {
        match self {
            Speed::Quick => 2,
            Speed::Normal => 4,
            Speed::Slow => 8,
        }
    }

    /// Ticks a monster holds one random direction (GVGAI's `cons` + 1); its first draw
    /// comes on this tick.
    pub fn hold(self) -> u32 {
        match self {
            Speed::Quick => 7,
            Speed::Normal => 9,
            Speed::Slow => 13,
        }
    }

    /// The speed in words.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Quick => "quick",
            Speed::Normal => "normal",
            Speed::Slow => "slow",
        }
    }
}

/// One cell of a room as stored: terrain, or a thing standing on floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Solid wall.
    Wall,
    /// Walkable floor.
    Floor,
    /// A solid block.
    Block,
    /// Water: nothing enters it.
    Water,
    /// Floor where the avatar starts.
    Avatar,
    /// Floor holding the key.
    Key,
    /// The exit: a door locked until the avatar holds the key.
    Exit,
    /// Floor where a monster starts.
    Monster(Speed),
}

impl Cell {
    /// Wall, block and water: nothing ever enters them.
    pub fn is_solid(self) -> bool {
        matches!(self, Cell::Wall | Cell::Block | Cell::Water)
    }
}

/// The colour a cell is drawn in (palette, canvas, graph states, PNG sheets).
pub fn rgb(cell: Cell) -> [u8; 3] {
    match cell {
        Cell::Wall => [84, 74, 66],
        Cell::Floor => [228, 216, 186],
        Cell::Block => [146, 112, 78],
        Cell::Water => [64, 124, 204],
        Cell::Avatar => [62, 168, 84],
        Cell::Key => [240, 196, 40],
        Cell::Exit => [150, 64, 172],
        Cell::Monster(Speed::Quick) => [232, 70, 60],
        Cell::Monster(Speed::Normal) => [206, 106, 40],
        Cell::Monster(Speed::Slow) => [150, 60, 64],
    }
}

impl AsciiCell for Cell {
    fn to_ascii(self) -> char {
        match self {
            Cell::Wall => 'w',
            Cell::Floor => '.',
            Cell::Block => 'B',
            Cell::Water => '~',
            Cell::Avatar => 'A',
            Cell::Key => '+',
            Cell::Exit => 'g',
            Cell::Monster(Speed::Quick) => '1',
            Cell::Monster(Speed::Normal) => '2',
            Cell::Monster(Speed::Slow) => '3',
        }
    }

    fn from_ascii(c: char) -> Option<Self> {
        Some(match c {
            'w' => Cell::Wall,
            '.' => Cell::Floor,
            'B' => Cell::Block,
            '~' => Cell::Water,
            'A' => Cell::Avatar,
            '+' => Cell::Key,
            'g' => Cell::Exit,
            '1' => Cell::Monster(Speed::Quick),
            '2' => Cell::Monster(Speed::Normal),
            '3' => Cell::Monster(Speed::Slow),
            _ => return None,
        })
    }
}

/// Why cells are not a dungeon room.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoomError {
    /// The ASCII art is malformed (unknown letter, ragged rows), with line and column.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// Outside 3×3 to 16×16.
    #[error("room {width}x{height} is outside 3x3 to 16x16")]
    Size {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// No floor at all (an imported room whose inside is void or blocks).
    #[error(
        "no floor cell: the avatar and the key need floor (the room's inside is void or blocks)"
    )]
    NoFloor,
    /// A thing the room needs exactly one of is missing or repeated.
    #[error("{found} {what} ('{letter}'); a room has exactly one{why}")]
    Count {
        /// What is counted ("avatars").
        what: &'static str,
        /// Its letter.
        letter: char,
        /// How many the room has.
        found: usize,
        /// Why one is needed, when it is not obvious.
        why: &'static str,
    },
}

/// A checked room: the cells and where its things start.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Room {
    cells: Grid<Cell>,
    avatar: (usize, usize),
    key: (usize, usize),
    exit: (usize, usize),
    monsters: Vec<((usize, usize), Speed)>,
}

impl fmt::Debug for Room {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.cells)
    }
}

impl Room {
    /// Checks a grid: 3×3 to 16×16, exactly one avatar, key and exit.
    ///
    /// # Errors
    /// [`RoomError`] naming the problem.
    pub fn new(cells: Grid<Cell>) -> Result<Self, RoomError> {
        let (width, height) = (cells.width(), cells.height());
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(RoomError::Size { width, height });
        }
        let find = |wanted: Cell| -> Vec<(usize, usize)> {
            cells
                .iter()
                .filter(|c| c.2 == wanted)
                .map(|c| (c.0, c.1))
                .collect()
        };
        let one = |wanted: Cell, what: &'static str, why: &'static str| {
            let at = find(wanted);
            match at.as_slice() {
                [only] => Ok(*only),
                _ => Err(RoomError::Count {
                    what,
                    letter: wanted.to_ascii(),
                    found: at.len(),
                    why,
                }),
            }
        };
        let avatar = one(Cell::Avatar, "avatars", "")?;
        let exit = one(Cell::Exit, "exits", "")?;
        let key = one(
            Cell::Key,
            "keys",
            ": the exit is a locked door, and without the key it stays locked forever",
        )?;
        let monsters = cells
            .iter()
            .filter_map(|(x, y, c)| match c {
                Cell::Monster(speed) => Some(((x, y), speed)),
                _ => None,
            })
            .collect();
        Ok(Self {
            cells,
            avatar,
            key,
            exit,
            monsters,
        })
    }

    /// Parses ASCII art.
    ///
    /// # Errors
    /// [`RoomError`], with line and column for unknown letters.
    pub fn parse_ascii(text: &str) -> Result<Self, RoomError> {
        Self::new(Grid::parse_ascii(text)?)
    }

    /// A room from stored rows.
    ///
    /// # Errors
    /// As [`Room::parse_ascii`].
    pub fn from_rows(rows: &[String]) -> Result<Self, RoomError> {
        Self::new(Grid::from_rows(rows)?)
    }

    /// The cells as stored.
    pub fn cells(&self) -> &Grid<Cell> {
        &self.cells
    }

    /// The rows of ASCII art.
    pub fn to_rows(&self) -> Vec<String> {
        self.cells.to_rows()
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.cells.width()
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.cells.height()
    }

    /// Where the avatar starts.
    pub fn avatar(&self) -> (usize, usize) {
        self.avatar
    }

    /// Where the key lies.
    pub fn key(&self) -> (usize, usize) {
        self.key
    }

    /// The exit.
    pub fn exit(&self) -> (usize, usize) {
        self.exit
    }

    /// The monsters, where they start, in reading order (the order they move in).
    pub fn monsters(&self) -> &[((usize, usize), Speed)] {
        &self.monsters
    }

    /// The cell at `(x, y)` counted from the top left, or `None` outside the room.
    pub fn get(&self, x: i64, y: i64) -> Option<Cell> {
        self.cells.get_checked(x, y)
    }
}

/// The palette, in tile order (a level's cells are stored by letter).
pub(crate) const CELLS: [Cell; 10] = [
    Cell::Wall,
    Cell::Floor,
    Cell::Block,
    Cell::Water,
    Cell::Avatar,
    Cell::Key,
    Cell::Exit,
    Cell::Monster(Speed::Quick),
    Cell::Monster(Speed::Normal),
    Cell::Monster(Speed::Slow),
];

const fn tile(ascii: char, name: &'static str, rgb: [u8; 3]) -> TileInfo {
    TileInfo { ascii, name, rgb }
}

/// The tiles, in palette order.
pub(crate) const TILES: [TileInfo; 10] = [
    tile('w', "WALL", [84, 74, 66]),
    tile('.', "FLOOR", [228, 216, 186]),
    tile('B', "BLOCK", [146, 112, 78]),
    tile('~', "WATER", [64, 124, 204]),
    tile('A', "AVATAR", [62, 168, 84]),
    tile('+', "KEY", [240, 196, 40]),
    tile('g', "EXIT", [150, 64, 172]),
    tile('1', "QUICK MONSTER", [232, 70, 60]),
    tile('2', "MONSTER", [206, 106, 40]),
    tile('3', "SLOW MONSTER", [150, 60, 64]),
];

/// Palette indices the editor paints with: floor, avatar, key and exit.
pub(crate) const FLOOR: u8 = 1;
pub(crate) const AVATAR: u8 = 4;
pub(crate) const KEY: u8 = 5;
pub(crate) const EXIT: u8 = 6;

/// A room error as the registry reports it (grid problems stay grid problems).
pub(crate) fn ascii_error(e: RoomError) -> AsciiError {
    match e {
        RoomError::Grid(g) => AsciiError::Grid(g),
        other => AsciiError::Level(other.to_string()),
    }
}

/// A stored level of a room.
pub fn to_level(room: &Room, name: impl Into<String>) -> Level {
    Level {
        game: ID,
        name: name.into(),
        cells: room.to_rows(),
        symmetry: studio_core::symmetry::detect(room.cells()),
        tags: Vec::new(),
        figures: None,
        playtests: Vec::new(),
    }
}

/// The room width and height conditions (walls included), from `min` to [`MAX_SIDE`],
/// 13 × 9 by default.
pub fn size_conditions(min: i64) -> Vec<ConditionSpec> {
    let side = |key, label, default, help| ConditionSpec {
        key,
        label,
        kind: ConditionKind::Int {
            min,
            max: MAX_SIDE as i64,
        },
        default: ConditionValue::Int(default),
        required: false,
        help,
    };
    vec![
        side("width", "Width", 13, "room width, walls included"),
        side("height", "Height", 9, "room height, walls included"),
    ]
}

/// The tile index of a cell (its place in the palette).
pub fn tile_of(cell: Cell) -> u8 {
    CELLS.iter().position(|&c| c == cell).unwrap_or(0) as u8
}

/// The letter of a tile index.
pub fn letter_of(tile: u8) -> char {
    CELLS.get(usize::from(tile)).map_or('w', |c| c.to_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_letter_reads_back() {
        let text = "wwwwww\nwA+.gw\nw123Bw\nw~...w\nwwwwww\n";
        let room = Room::parse_ascii(text).unwrap();
        assert_eq!(room.to_rows().join("\n") + "\n", text);
        assert_eq!(room.avatar(), (1, 1));
        assert_eq!(room.key(), (2, 1));
        assert_eq!(room.exit(), (4, 1));
        assert_eq!(
            room.monsters(),
            &[
                ((1, 2), Speed::Quick),
                ((2, 2), Speed::Normal),
                ((3, 2), Speed::Slow)
            ]
        );
    }

    #[test]
    fn bad_rooms_say_what_is_wrong() {
        let err = |t: &str| Room::parse_ascii(t).unwrap_err().to_string();
        assert!(err("www\nw.w\nwww\n").contains("0 avatars"));
        assert!(err("wwwww\nwAA+w\nwg..w\nwwwww\n").contains("2 avatars"));
        assert!(err("wwwww\nwA.+w\nw...w\nwwwww\n").contains("0 exits"));
        assert!(err("wwwww\nwA.gw\nw...w\nwwwww\n").contains("locked forever"));
        assert!(err("wwwww\nwA+gw\nw.x.w\nwwwww\n").contains("line 3, column 3"));
        let big = format!("A+g{}\n", ".".repeat(14));
        assert!(err(&format!("{big}{big}{big}")).contains("17x3 is outside"));
    }
}
