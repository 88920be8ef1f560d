//! The rules of Longcat as a step function on a compact, copyable [`State`]: the head slides
//! until a wall, its own body or the edge stops it, filling every cell it passes.
//!
//! A state is three numbers: a bitmask of walls, a bitmask of filled cells (walls, body and
//! head) and the head's cell index (`y * width + x`). Ten by ten cells fit in a `u128`, so a
//! state copies, compares and hashes in a few instructions, which keeps graphs fast.

use super::level::{Cell, LongcatLevel, TILES};
use std::fmt;
use studio_core::game::{CellLook, TileMark};
use studio_core::grid::{AsciiCell, Grid};

/// A move: the direction the head slides in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

impl Direction {
    /// The four moves, in the order the graph lists edges.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The edge label: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
            Direction::Right => 'R',
        }
    }

    /// The move a label stands for (`U`/`D`/`L`/`R`, either case).
    pub fn from_letter(c: char) -> Option<Self> {
        match c.to_ascii_uppercase() {
            'U' => Some(Direction::Up),
            'D' => Some(Direction::Down),
            'L' => Some(Direction::Left),
            'R' => Some(Direction::Right),
            _ => None,
        }
    }

    /// `(dx, dy)` of one step.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }

    /// Position of this direction in [`Direction::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One cell of a board during play, for drawing a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardCell {
    /// Still to be filled.
    Empty,
    /// A wall.
    Wall,
    /// The cat's body.
    Body,
    /// The cat's head.
    Head,
}

impl AsciiCell for BoardCell {
    fn to_ascii(self) -> char {
        match self {
            BoardCell::Empty => '.',
            BoardCell::Wall => '#',
            BoardCell::Body => 'o',
            BoardCell::Head => '@',
        }
    }
    fn from_ascii(c: char) -> Option<Self> {
        match c {
            '.' => Some(BoardCell::Empty),
            '#' => Some(BoardCell::Wall),
            'o' => Some(BoardCell::Body),
            '@' => Some(BoardCell::Head),
            _ => None,
        }
    }
}

/// Bit tricks over one board size: masks of the whole board and of its edge columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    pub width: u32,
    pub full: u128,
    not_left: u128,
    not_right: u128,
}

impl Geometry {
    pub fn new(width: usize, height: usize) -> Self {
        let cells = (width * height) as u32;
        let full = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let mut left = 0u128;
        for y in 0..height {
            left |= 1u128 << (y * width);
        }
        let right = left << (width - 1);
        Self {
            width: width as u32,
            full,
            not_left: full & !left,
            not_right: full & !right,
        }
    }

    /// Cells 4-adjacent to any cell of `m` (may include cells of `m`).
    #[inline]
    pub fn spread(&self, m: u128) -> u128 {
        (((m << 1) & self.not_left)
            | ((m >> 1) & self.not_right)
            | (m << self.width)
            | (m >> self.width))
            & self.full
    }

    /// The 4-connected part of `within` reachable from `seed`.
    #[inline]
    pub fn component(&self, seed: u128, within: u128) -> u128 {
        let mut region = seed & within;
        loop {
            let next = (region | self.spread(region)) & within;
            if next == region {
                return region;
            }
            region = next;
        }
    }

    /// True when the cells of `mask` form two or more 4-connected regions.
    #[inline]
    pub fn is_split(&self, mask: u128) -> bool {
        if mask == 0 {
            return false;
        }
        let lowest = mask & mask.wrapping_neg();
        self.component(lowest, mask) != mask
    }

    /// The number of 4-connected regions of `mask`.
    pub fn regions(&self, mut mask: u128) -> usize {
        let mut count = 0;
        while mask != 0 {
            let lowest = mask & mask.wrapping_neg();
            mask &= !self.component(lowest, mask);
            count += 1;
        }
        count
    }

    /// Cells of `cells` with at most one 4-neighbour in `open`.
    pub fn dead_ends(&self, cells: u128, open: u128) -> u128 {
        // A cell has ≥2 open neighbours when two of its four shifted neighbour masks overlap.
        let from_left = (open << 1) & self.not_left;
        let from_right = (open >> 1) & self.not_right;
        let from_above = (open << self.width) & self.full;
        let from_below = open >> self.width;
        let n = [from_left, from_right, from_above, from_below];
        let mut two = 0u128;
        for i in 0..4 {
            for j in i + 1..4 {
                two |= n[i] & n[j];
            }
        }
        cells & !two
    }
}

/// A moment of play: where the walls are, which cells are filled, where the head is.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    walls: u128,
    filled: u128,
    head: u8,
    width: u8,
    height: u8,
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.render())
    }
}

impl State {
    /// The start of a level: nothing filled but the walls and the head.
    pub fn start(level: &LongcatLevel) -> Self {
        let width = level.width();
        let mut walls = 0u128;
        for (x, y, c) in level.cells().iter() {
            if c == Cell::Wall {
                walls |= 1u128 << (y * width + x);
            }
        }
        let (hx, hy) = level.head();
        let head = (hy * width + hx) as u8;
        Self {
            walls,
            filled: walls | 1u128 << head,
            head,
            width: width as u8,
            height: level.height() as u8,
        }
    }

    /// The move `direction` from here, or `None` when the head cannot advance one cell.
    #[inline]
    pub fn apply(&self, direction: Direction) -> Option<State> {
        let (w, h) = (self.width as i32, self.height as i32);
        let (dx, dy) = direction.delta();
        let (mut x, mut y) = (self.head as i32 % w, self.head as i32 / w);
        let mut filled = self.filled;
        let mut moved = false;
        loop {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= w || ny >= h {
                break;
            }
            let bit = 1u128 << (ny * w + nx);
            if filled & bit != 0 {
                break;
            }
            filled |= bit;
            x = nx;
            y = ny;
            moved = true;
        }
        moved.then_some(State {
            filled,
            head: (y * w + x) as u8,
            ..*self
        })
    }

    /// Every legal move with the state it leads to, in [`Direction::ALL`] order.
    pub fn moves(&self) -> impl Iterator<Item = (Direction, State)> + '_ {
        Direction::ALL
            .into_iter()
            .filter_map(move |d| self.apply(d).map(|s| (d, s)))
    }

    /// True when no EMPTY cell is left (the level is solved).
    pub fn is_success(&self) -> bool {
        self.empty_mask() == 0
    }

    /// True when cells are left to fill but no move is legal (the player must restart).
    pub fn is_fail(&self) -> bool {
        !self.is_success() && self.moves().next().is_none()
    }

    /// True when the EMPTY cells form two or more 4-connected regions, which no play can fill.
    pub fn is_dead(&self) -> bool {
        self.geometry().is_split(self.empty_mask())
    }

    /// Number of EMPTY cells left.
    pub fn empty_count(&self) -> u32 {
        self.empty_mask().count_ones()
    }

    /// Number of 4-connected regions the EMPTY cells form.
    pub fn empty_regions(&self) -> usize {
        self.geometry().regions(self.empty_mask())
    }

    /// The head's cell, `(x, y)`.
    pub fn head(&self) -> (usize, usize) {
        let w = self.width as usize;
        (self.head as usize % w, self.head as usize / w)
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// What is at `(x, y)`.
    pub fn cell(&self, x: usize, y: usize) -> BoardCell {
        let i = y * self.width as usize + x;
        let bit = 1u128 << i;
        if i == self.head as usize {
            BoardCell::Head
        } else if self.walls & bit != 0 {
            BoardCell::Wall
        } else if self.filled & bit != 0 {
            BoardCell::Body
        } else {
            BoardCell::Empty
        }
    }

    /// The board as a grid of EMPTY / WALL / BODY / HEAD cells, for drawing.
    pub fn render(&self) -> Grid<BoardCell> {
        let mut grid = Grid::filled(self.width(), self.height(), BoardCell::Empty);
        for y in 0..self.height() {
            for x in 0..self.width() {
                grid.set(x, y, self.cell(x, y));
            }
        }
        grid
    }

    /// Bitmask of walls, bit `y * width + x`.
    pub fn walls(&self) -> u128 {
        self.walls
    }

    /// Bitmask of filled cells (walls, body and head), bit `y * width + x`.
    #[inline]
    pub fn filled(&self) -> u128 {
        self.filled
    }

    /// Bitmask of EMPTY cells.
    pub fn empty_mask(&self) -> u128 {
        self.geometry().full & !self.filled
    }

    /// The head's cell index, `y * width + x`.
    pub fn head_index(&self) -> usize {
        self.head as usize
    }

    /// Filled cells and head packed into one number, unique among the states of one level.
    #[inline]
    pub(crate) fn key(&self) -> u128 {
        // Cells use bits 0..100; the head index (< 128) goes in the top 7 bits.
        self.filled | (self.head as u128) << 121
    }

    pub(crate) fn geometry(&self) -> Geometry {
        Geometry::new(self.width as usize, self.height as usize)
    }
}

/// The colour of the cat's body in graph states.
const BODY_RGB: [u8; 3] = [233, 196, 106];

/// How a cell of a Longcat state looks in the viewer, the canvas and the playtest.
pub fn cell_look(cell: BoardCell) -> CellLook {
    let tile = |i: usize| CellLook {
        rgb: TILES[i].rgb,
        mark: TileMark::Plain,
    };
    match cell {
        BoardCell::Wall => tile(0),
        BoardCell::Empty => tile(1),
        BoardCell::Head => CellLook {
            rgb: TILES[2].rgb,
            mark: TileMark::Avatar,
        },
        BoardCell::Body => CellLook {
            rgb: BODY_RGB,
            mark: TileMark::Plain,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(text: &str) -> State {
        State::start(&LongcatLevel::parse_ascii(text).unwrap())
    }

    #[test]
    fn the_head_slides_until_blocked() {
        let s = start("@...#.\n......\n");
        assert!(s.apply(Direction::Up).is_none());
        assert!(s.apply(Direction::Left).is_none());
        let r = s.apply(Direction::Right).unwrap();
        assert_eq!(r.head(), (3, 0));
        assert_eq!(format!("{:?}", r.render()), "Grid 6x2\nooo@#.\n......\n");
        let d = r.apply(Direction::Down).unwrap();
        assert_eq!(d.head(), (3, 1));
        let l = d.apply(Direction::Left).unwrap();
        assert_eq!(l.head(), (0, 1));
        assert!(l.apply(Direction::Up).is_none(), "body blocks");
        assert!(l.is_fail());
        // (5,0), (4,1) and (5,1) are left: one region, so not dead, just stuck.
        assert!(!l.is_dead());
        assert_eq!(l.empty_regions(), 1);
        assert_eq!(l.empty_count(), 3);
    }

    #[test]
    fn success_when_nothing_is_empty() {
        let s = start("@..\n");
        let r = s.apply(Direction::Right).unwrap();
        assert!(r.is_success());
        assert!(!r.is_fail());
    }

    #[test]
    fn regions_and_dead_ends() {
        let g = Geometry::new(4, 3);
        // ....
        // ##.#
        // .#..
        let open: u128 = 0b1101_0100_1111;
        assert_eq!(g.regions(open), 2);
        assert!(g.is_split(open));
        // dead ends: (2,0)? no, 3 neighbours. (3,0): one (2,0). (0,0): one. (0,2): zero. (3,2): one.
        let ends = g.dead_ends(open, open);
        assert_eq!(ends, 1 << 0 | 1 << 3 | 1 << 8 | 1 << 11);
    }

    #[test]
    fn keys_differ_by_head() {
        let a = start("@.\n..\n");
        let b = start(".@\n..\n");
        assert_ne!(a.key(), b.key());
    }
}
