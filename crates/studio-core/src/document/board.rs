//! The level under the brush, for any registered game: a grid of tile indices into the
//! game's palette, changed only through the game's painting rules (a layout keeps its last
//! playable cell, a unique player tile moves when painted).

use crate::game::{tile_indices, Area, Game, GameId, Markers};
use crate::grid::Grid;
use crate::level::Level;
use crate::symmetry::{self, Symmetry};

/// A tile of the board's game: an index into [`Game::tiles`].
pub type Tile = u8;

/// The cells of one level under edit, and the game whose rules they follow.
#[derive(Clone)]
pub struct Board {
    game: &'static dyn Game,
    cells: Grid<Tile>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.game.id() == other.game.id() && self.cells == other.cells
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.game.id().hash(state);
        self.cells.hash(state);
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({}: {:?})", self.game.id(), self.to_rows())
    }
}

impl Board {
    /// A new level of `game` at (about) `width × height`: the game's blank level.
    pub fn blank(game: &'static dyn Game, width: usize, height: usize) -> Self {
        let level = game.blank(width, height);
        Self::of_rows(game, &level.cells).unwrap_or_else(|_| Self {
            game,
            cells: Grid::filled(1, 1, 0),
        })
    }

    /// The board of a stored level.
    ///
    /// # Errors
    /// The problem in words when the level's game is not registered or its cells break the
    /// game's rules.
    pub fn from_level(level: &Level) -> Result<Self, String> {
        let game = level.game.game().map_err(|e| e.to_string())?;
        game.check(&level.cells).map_err(|e| e.to_string())?;
        Self::of_rows(game, &level.cells)
    }

    fn of_rows(game: &'static dyn Game, rows: &[String]) -> Result<Self, String> {
        let indices = tile_indices(game, rows).map_err(|e| e.to_string())?;
        let width = indices.first().map_or(0, Vec::len);
        if width == 0 || indices.iter().any(|r| r.len() != width) {
            return Err(format!(
                "a {} level needs equal, non-empty rows",
                game.name()
            ));
        }
        let mut cells = Grid::filled(width, indices.len(), 0);
        for (y, row) in indices.iter().enumerate() {
            for (x, &t) in row.iter().enumerate() {
                cells.set(x, y, t);
            }
        }
        Ok(Self { game, cells })
    }

    /// The game whose rules the board follows.
    pub fn rules(&self) -> &'static dyn Game {
        self.game
    }

    /// Which game the board belongs to.
    pub fn game(&self) -> GameId {
        self.game.id()
    }

    /// Columns on the canvas.
    pub fn width(&self) -> usize {
        self.cells.width()
    }

    /// Rows on the canvas.
    pub fn height(&self) -> usize {
        self.cells.height()
    }

    /// The tile at canvas column `x`, row `y`.
    pub fn get(&self, x: usize, y: usize) -> Tile {
        self.cells.get(x, y)
    }

    /// The name of the tile at `(x, y)` (`BLOCK`).
    pub fn tile_name(&self, x: usize, y: usize) -> &'static str {
        self.tile_name_of(self.get(x, y))
    }

    /// The name of a tile of this game.
    pub fn tile_name_of(&self, tile: Tile) -> &'static str {
        self.game
            .tiles()
            .get(usize::from(tile))
            .map_or("?", |t| t.name)
    }

    /// The tile called `name` (`"BLOCK"`), if the game has it.
    pub fn tile_named(&self, name: &str) -> Option<Tile> {
        tile_named(self.game, name)
    }

    /// Paints one cell; returns true when the board changed. Unknown tiles, out-of-range
    /// cells and changes the game's rules refuse (the last PLAYFIELD) change nothing.
    pub fn set(&mut self, x: usize, y: usize, tile: Tile) -> bool {
        if x >= self.width()
            || y >= self.height()
            || usize::from(tile) >= self.game.tiles().len()
            || self.get(x, y) == tile
        {
            return false;
        }
        self.game.paint(&mut self.cells, x, y, tile)
    }

    /// The play area, when the game has one (else the whole board).
    pub fn play_area(&self) -> Option<Area> {
        self.game.play_area(&self.to_rows())
    }

    /// The frame mirrored painting reflects in: the play area when the cell lies in it,
    /// otherwise the whole board.
    pub fn mirror_frame(&self, x: usize, y: usize) -> Area {
        let whole = Area {
            x: 0,
            y: 0,
            width: self.width(),
            height: self.height(),
        };
        match self.play_area() {
            Some(a) if a.contains(x, y) => a,
            _ => whole,
        }
    }

    /// The cells a mirrored brush paints for `(x, y)` within `frame`, the cell itself first.
    pub fn mirrored(x: usize, y: usize, frame: Area, symmetry: Symmetry) -> Vec<(usize, usize)> {
        if !frame.contains(x, y) {
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
        let tiles = self.game.tiles();
        (0..self.height())
            .map(|y| {
                (0..self.width())
                    .map(|x| {
                        tiles
                            .get(usize::from(self.get(x, y)))
                            .map_or('?', |t| t.ascii)
                    })
                    .collect()
            })
            .collect()
    }

    /// The symmetry the game detects (of the play area where there is one).
    pub fn symmetry(&self) -> Symmetry {
        self.game.symmetry_of(&self.to_rows())
    }

    /// The size designers read (the game's own measure; else the grid).
    pub fn size(&self) -> (usize, usize) {
        self.game.level_size(&self.to_rows())
    }

    /// The cells the game marks (spawners).
    pub fn markers(&self) -> Markers {
        self.game.markers(&self.to_rows())
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

/// The tile of `game` called `name` (`"BLOCK"`), if it has one.
pub fn tile_named(game: &dyn Game, name: &str) -> Option<Tile> {
    game.tiles()
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
        .and_then(|i| Tile::try_from(i).ok())
}
