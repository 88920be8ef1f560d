//! The board being edited, for either game, behind one small interface the canvas and the
//! command applier use: size, read a tile, write a tile, mirrored cells, flood regions.

use crate::grid::Grid;
use crate::level::{Game, Level};
use crate::longcat::{self, LongcatLevel};
use crate::match3::layout::{Rect, CANVAS_HEIGHT, CANVAS_WIDTH};
use crate::match3::{Cell as M3, Layout};
use crate::symmetry::{self, Symmetry};
use serde::{Deserialize, Serialize};

/// A paintable tile of either game; each game uses three of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tile {
    /// Match-3: holds a tile.
    Playfield,
    /// Match-3: shapes the level, tiles stop on it.
    Block,
    /// Match-3: looks like BLOCK, tiles fall through.
    Gap,
    /// Longcat: a wall.
    Wall,
    /// Longcat: a cell the cat must fill.
    Empty,
    /// Longcat: where the cat starts (exactly one).
    Head,
}

impl Tile {
    /// The palette of a game, in the order the sidebar lists it.
    pub fn palette(game: Game) -> [Tile; 3] {
        match game {
            crate::match3::ID => [Tile::Playfield, Tile::Block, Tile::Gap],
            _ => [Tile::Wall, Tile::Empty, Tile::Head],
        }
    }

    /// The name designers use.
    pub fn name(self) -> &'static str {
        match self {
            Tile::Playfield => "PLAYFIELD",
            Tile::Block => "BLOCK",
            Tile::Gap => "GAP",
            Tile::Wall => "WALL",
            Tile::Empty => "EMPTY",
            Tile::Head => "HEAD",
        }
    }

    /// The character level files use.
    pub fn ascii(self) -> char {
        match self {
            Tile::Playfield | Tile::Empty => '.',
            Tile::Block | Tile::Wall => '#',
            Tile::Gap => '~',
            Tile::Head => '@',
        }
    }

    /// The game a tile belongs to.
    pub fn game(self) -> Game {
        match self {
            Tile::Playfield | Tile::Block | Tile::Gap => crate::match3::ID,
            Tile::Wall | Tile::Empty | Tile::Head => crate::longcat::ID,
        }
    }
}

fn m3_tile(c: M3) -> Tile {
    match c {
        M3::Playfield => Tile::Playfield,
        M3::Block => Tile::Block,
        M3::Gap => Tile::Gap,
    }
}

fn lc_tile(c: longcat::Cell) -> Tile {
    match c {
        longcat::Cell::Wall => Tile::Wall,
        longcat::Cell::Empty => Tile::Empty,
        longcat::Cell::Head => Tile::Head,
    }
}

/// The level under the brush: a match-3 layout on its 9×11 canvas, or a Longcat grid (which
/// may briefly lack its head while the designer paints).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Board {
    /// A match-3 layout.
    Match3(Layout),
    /// A Longcat grid of walls, empty cells and the head.
    Longcat(Grid<longcat::Cell>),
}

impl Board {
    /// A fresh match-3 layout: an open `width × height` play area.
    pub fn new_match3(width: usize, height: usize) -> Self {
        let w = width.clamp(4, CANVAS_WIDTH);
        let h = height.clamp(4, CANVAS_HEIGHT);
        Board::Match3(Layout::open(w, h).expect("4..=9 × 4..=11 is always a layout"))
    }

    /// A fresh Longcat grid: walls round an empty room, the head in the top-left corner.
    pub fn new_longcat(width: usize, height: usize) -> Self {
        let w = width.clamp(3, longcat::level::MAX_SIDE);
        let h = height.clamp(3, longcat::level::MAX_SIDE);
        let mut g = Grid::filled(w, h, longcat::Cell::Empty);
        g.set(0, 0, longcat::Cell::Head);
        Board::Longcat(g)
    }

    /// The board of a stored level.
    ///
    /// # Errors
    /// The problem in words when the cells are not a level of its game.
    pub fn from_level(level: &Level) -> Result<Self, String> {
        match level.game {
            crate::match3::ID => level.layout().map(Board::Match3).map_err(|e| e.to_string()),
            crate::longcat::ID => LongcatLevel::from_rows(&level.cells)
                .map(|l| Board::Longcat(l.cells().clone()))
                .map_err(|e| e.to_string()),
            other => Err(format!("the editor cannot edit {other} levels yet")),
        }
    }

    /// Which game the board belongs to.
    pub fn game(&self) -> Game {
        match self {
            Board::Match3(_) => crate::match3::ID,
            Board::Longcat(_) => crate::longcat::ID,
        }
    }

    /// Columns on the canvas.
    pub fn width(&self) -> usize {
        match self {
            Board::Match3(_) => CANVAS_WIDTH,
            Board::Longcat(g) => g.width(),
        }
    }

    /// Rows on the canvas.
    pub fn height(&self) -> usize {
        match self {
            Board::Match3(_) => CANVAS_HEIGHT,
            Board::Longcat(g) => g.height(),
        }
    }

    /// The tile at canvas column `x`, row `y`.
    pub fn get(&self, x: usize, y: usize) -> Tile {
        match self {
            Board::Match3(l) => m3_tile(l.get(x, y)),
            Board::Longcat(g) => lc_tile(g.get(x, y)),
        }
    }

    /// Paints one cell; returns true when the board changed. A tile of the other game, the
    /// last PLAYFIELD cell and out-of-range cells are refused. Painting a HEAD moves the head.
    pub fn set(&mut self, x: usize, y: usize, tile: Tile) -> bool {
        if x >= self.width() || y >= self.height() || self.get(x, y) == tile {
            return false;
        }
        match (self, tile) {
            (Board::Match3(l), Tile::Playfield) => l.set(x, y, M3::Playfield),
            (Board::Match3(l), Tile::Block) => l.set(x, y, M3::Block),
            (Board::Match3(l), Tile::Gap) => l.set(x, y, M3::Gap),
            (Board::Longcat(g), Tile::Head) => {
                for c in g.cells_mut() {
                    if *c == longcat::Cell::Head {
                        *c = longcat::Cell::Empty;
                    }
                }
                g.set(x, y, longcat::Cell::Head);
                true
            }
            (Board::Longcat(g), Tile::Wall) => {
                g.set(x, y, longcat::Cell::Wall);
                true
            }
            (Board::Longcat(g), Tile::Empty) => {
                g.set(x, y, longcat::Cell::Empty);
                true
            }
            _ => false,
        }
    }

    /// The frame mirrored painting reflects in: the match-3 play area (when the cell lies in
    /// it; otherwise the whole canvas), or the whole Longcat grid.
    pub fn mirror_frame(&self, x: usize, y: usize) -> Rect {
        let whole = Rect {
            x: 0,
            y: 0,
            width: self.width(),
            height: self.height(),
        };
        match self {
            Board::Match3(l) => {
                let a = l.play_area();
                let inside = x >= a.x && x < a.x + a.width && y >= a.y && y < a.y + a.height;
                if inside {
                    a
                } else {
                    whole
                }
            }
            Board::Longcat(_) => whole,
        }
    }

    /// The cells a mirrored brush paints for `(x, y)` within `frame`, the cell itself first.
    pub fn mirrored(x: usize, y: usize, frame: Rect, symmetry: Symmetry) -> Vec<(usize, usize)> {
        if x < frame.x || y < frame.y || x >= frame.x + frame.width || y >= frame.y + frame.height {
            return vec![(x, y)];
        }
        symmetry::mirrored_cells(
            x - frame.x,
            y - frame.y,
            frame.width,
            frame.height,
            symmetry,
        )
        .into_iter()
        .map(|(mx, my)| (mx + frame.x, my + frame.y))
        .collect()
    }

    /// The 4-connected region of equal tiles containing `(x, y)` (what flood fill repaints).
    pub fn flood_region(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let (w, h) = (self.width(), self.height());
        if x >= w || y >= h {
            return Vec::new();
        }
        let target = self.get(x, y);
        let mut seen = vec![false; w * h];
        let mut stack = vec![(x, y)];
        let mut out = Vec::new();
        seen[y * w + x] = true;
        while let Some((cx, cy)) = stack.pop() {
            out.push((cx, cy));
            let neighbours = [
                (cx.wrapping_sub(1), cy),
                (cx + 1, cy),
                (cx, cy.wrapping_sub(1)),
                (cx, cy + 1),
            ];
            for (nx, ny) in neighbours {
                if nx < w && ny < h && !seen[ny * w + nx] && self.get(nx, ny) == target {
                    seen[ny * w + nx] = true;
                    stack.push((nx, ny));
                }
            }
        }
        out
    }

    /// The board's rows of ASCII, as level files store them.
    pub fn to_rows(&self) -> Vec<String> {
        match self {
            Board::Match3(l) => l.to_rows(),
            Board::Longcat(g) => g.to_rows(),
        }
    }

    /// The symmetry detected on the play area (match-3) or the grid (Longcat).
    pub fn symmetry(&self) -> Symmetry {
        match self {
            Board::Match3(l) => l.symmetry(),
            Board::Longcat(g) => symmetry::detect(g),
        }
    }

    /// The size designers read: match-3 longest PLAYFIELD runs, Longcat the grid.
    pub fn size(&self) -> (usize, usize) {
        match self {
            Board::Match3(l) => l.size(),
            Board::Longcat(g) => (g.width(), g.height()),
        }
    }

    /// Match-3 spawners (empty for Longcat).
    pub fn spawners(&self) -> Vec<(usize, usize)> {
        match self {
            Board::Match3(l) => l.spawners(),
            Board::Longcat(_) => Vec::new(),
        }
    }

    /// A stored level with these cells, the given name and tags, its detected symmetry.
    pub fn to_level(&self, name: &str, tags: &[String]) -> Level {
        Level {
            game: self.game(),
            name: name.to_string(),
            cells: self.to_rows(),
            symmetry: self.symmetry(),
            tags: tags.to_vec(),
            figures: None,
            playtests: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_match3_brush_stays_in_the_play_area_on_odd_and_even_sizes() {
        // 4×4 area at columns 2..6, rows 3..7: vertical mirror of column 2 is column 5.
        let b = Board::new_match3(4, 4);
        let f = b.mirror_frame(2, 3);
        assert_eq!((f.x, f.y, f.width, f.height), (2, 3, 4, 4));
        assert_eq!(
            Board::mirrored(2, 3, f, Symmetry::Vertical),
            vec![(2, 3), (5, 3)]
        );
        // 5×5 area: the centre column mirrors onto itself.
        let b = Board::new_match3(5, 5);
        let f = b.mirror_frame(4, 3);
        assert_eq!(
            Board::mirrored(4, 3, f, Symmetry::Quadrant),
            vec![(4, 3), (4, 7)]
        );
    }

    #[test]
    fn painting_the_head_moves_it_and_the_last_playfield_is_kept() {
        let mut b = Board::new_longcat(4, 4);
        assert!(b.set(2, 2, Tile::Head));
        assert_eq!(b.get(0, 0), Tile::Empty);
        assert_eq!(b.to_rows().concat().matches('@').count(), 1);
        let mut m = Board::Match3(Layout::parse_ascii(".#\n##\n").unwrap());
        let a = match &m {
            Board::Match3(l) => l.play_area(),
            _ => unreachable!(),
        };
        assert!(!m.set(a.x, a.y, Tile::Block));
        assert!(!m.set(0, 0, Tile::Wall));
    }

    #[test]
    fn flood_region_is_four_connected() {
        let b = Board::Longcat(Grid::parse_ascii("@.#\n.##\n#..\n").unwrap());
        assert_eq!(b.flood_region(1, 0).len(), 1);
        assert_eq!(b.flood_region(2, 0).len(), 3);
    }
}
