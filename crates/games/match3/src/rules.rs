//! The match-3 rules engine: seeded colours, a start board without matches, legal swaps,
//! matching of lines of three or more, clearing, gravity through GAP, refills from spawners,
//! cascades, reshuffles and the red-tile goal.
//!
//! Boards live in flat arrays over the 9×11 canvas (index `y * 9 + x`) so a bot can try every
//! swap of a move in microseconds.

use super::layout::{Cell, Layout, CANVAS_CELLS, CANVAS_HEIGHT, CANVAS_WIDTH};
use studio_core::rng::Rng;

/// Number of tile colours.
pub const COLOURS: u8 = 4;
/// The colour the goal counts.
pub const RED: u8 = 0;
/// Colour names, indexed by colour.
pub const COLOUR_NAMES: [&str; 4] = ["red", "green", "blue", "orange"];
/// Red tiles to clear to win.
pub const GOAL_RED: u32 = 60;
/// Fresh boards tried when no legal move is left before the game is lost.
pub const RESHUFFLE_TRIES: u32 = 20;
/// Marks a canvas cell that holds no tile (BLOCK or GAP).
pub const NO_TILE: u8 = u8::MAX;
const EMPTY: u8 = u8::MAX - 1;

/// A swap of two orthogonally adjacent cells, as canvas indices with `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swap {
    /// The first cell's canvas index (the smaller).
    pub a: usize,
    /// The second cell's canvas index.
    pub b: usize,
}

impl Swap {
    /// Canvas `(x, y)` of both cells.
    pub fn cells(self) -> ((usize, usize), (usize, usize)) {
        (xy(self.a), xy(self.b))
    }
}

/// Canvas `(x, y)` of an index.
pub fn xy(i: usize) -> (usize, usize) {
    (i % CANVAS_WIDTH, i / CANVAS_WIDTH)
}

/// Tiles a cell clears with the same-colour run of `h` cells through it along its row and `v`
/// along its column (itself counted in both): each run of three or more, the cell once.
fn line_tiles(h: u32, v: u32) -> u32 {
    match (h >= 3, v >= 3) {
        (true, true) => h + v - 1,
        (true, false) => h,
        (false, true) => v,
        (false, false) => 0,
    }
}

/// The fixed shape of a layout, prepared once for many games: which cells hold tiles, their
/// neighbours, and each fall segment of each column (PLAYFIELD cells bottom to top between
/// BLOCKs; GAPs are skipped since tiles fall through them).
#[derive(Clone, Debug)]
pub struct Geometry {
    playable: [bool; CANVAS_CELLS],
    cells: Vec<usize>,
    swaps: Vec<Swap>,
    /// For each swap, for each of its two cells: the canvas indices of the neighbours left,
    /// right, above and below it, [`NO_NEIGHBOUR`] where the canvas ends or the partner is.
    sides: Vec<[[u8; 4]; 2]>,
    segments: Vec<Vec<usize>>,
}

/// A neighbour that does not count: off the canvas, or the swap's partner.
const NO_NEIGHBOUR: u8 = CANVAS_CELLS as u8;

impl Geometry {
    /// Prepares a layout for play.
    pub fn new(layout: &Layout) -> Self {
        let mut playable = [false; CANVAS_CELLS];
        let mut cells = Vec::new();
        for (x, y, c) in layout.canvas().iter() {
            if c == Cell::Playfield {
                playable[y * CANVAS_WIDTH + x] = true;
                cells.push(y * CANVAS_WIDTH + x);
            }
        }
        let mut swaps = Vec::new();
        for &i in &cells {
            let (x, y) = xy(i);
            if x + 1 < CANVAS_WIDTH && playable[i + 1] {
                swaps.push(Swap { a: i, b: i + 1 });
            }
            if y + 1 < CANVAS_HEIGHT && playable[i + CANVAS_WIDTH] {
                swaps.push(Swap {
                    a: i,
                    b: i + CANVAS_WIDTH,
                });
            }
        }
        let sides = swaps
            .iter()
            .map(|s| {
                let around = |i: usize, partner: usize| {
                    let (x, y) = xy(i);
                    let keep = |ok: bool, j: usize| {
                        if ok && j != partner {
                            j as u8
                        } else {
                            NO_NEIGHBOUR
                        }
                    };
                    [
                        keep(x > 0, i.wrapping_sub(1)),
                        keep(x + 1 < CANVAS_WIDTH, i + 1),
                        keep(y > 0, i.wrapping_sub(CANVAS_WIDTH)),
                        keep(y + 1 < CANVAS_HEIGHT, i + CANVAS_WIDTH),
                    ]
                };
                [around(s.a, s.b), around(s.b, s.a)]
            })
            .collect();
        let mut segments = Vec::new();
        for x in 0..CANVAS_WIDTH {
            let mut seg = Vec::new();
            for y in (0..CANVAS_HEIGHT).rev() {
                match layout.get(x, y) {
                    Cell::Playfield => seg.push(y * CANVAS_WIDTH + x),
                    Cell::Gap => {}
                    Cell::Block => {
                        if !seg.is_empty() {
                            segments.push(std::mem::take(&mut seg));
                        }
                    }
                }
            }
            if !seg.is_empty() {
                segments.push(seg);
            }
        }
        Self {
            playable,
            cells,
            swaps,
            sides,
            segments,
        }
    }

    /// Every adjacent pair of PLAYFIELD cells (candidate swaps, legal or not).
    pub fn adjacent_pairs(&self) -> &[Swap] {
        &self.swaps
    }

    /// Number of PLAYFIELD cells.
    pub fn tile_count(&self) -> usize {
        self.cells.len()
    }
}

/// What a move did: tiles cleared by the swap's own matches and by the whole cascade.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveReport {
    /// Red tiles cleared by the swap's own matches.
    pub own_red: u32,
    /// All tiles cleared by the swap's own matches.
    pub own_total: u32,
    /// Red tiles cleared including cascades.
    pub red: u32,
    /// All tiles cleared including cascades.
    pub total: u32,
    /// Rounds of matching (1 = no cascade).
    pub rounds: u32,
}

/// One round of a cascade, for step-by-step display: the board before clearing, the cells
/// cleared, and the board after gravity and refill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CascadeStep {
    /// The colour of each canvas cell before the round clears ([`NO_TILE`] where none).
    pub before: [u8; CANVAS_CELLS],
    /// Canvas indices of the cells the round clears.
    pub cleared: Vec<usize>,
    /// The colour of each canvas cell after gravity and refill.
    pub after: [u8; CANVAS_CELLS],
}

/// A board in play: the tiles on a prepared geometry and the colour RNG.
#[derive(Clone, Debug)]
pub struct PlayBoard<'g> {
    geometry: &'g Geometry,
    tiles: [u8; CANVAS_CELLS],
    rng: Rng,
}

impl<'g> PlayBoard<'g> {
    /// A fresh start board without ready-made matches, coloured from `rng`.
    pub fn new(geometry: &'g Geometry, rng: Rng) -> Self {
        let mut board = Self {
            geometry,
            tiles: [NO_TILE; CANVAS_CELLS],
            rng,
        };
        board.fill_without_matches();
        board
    }

    /// A board with given tiles (for tests and playtests); `NO_TILE` outside PLAYFIELD.
    pub fn with_tiles(geometry: &'g Geometry, tiles: [u8; CANVAS_CELLS], rng: Rng) -> Self {
        Self {
            geometry,
            tiles,
            rng,
        }
    }

    /// The tile colours by canvas index (`NO_TILE` where there is no tile).
    pub fn tiles(&self) -> &[u8; CANVAS_CELLS] {
        &self.tiles
    }

    /// The geometry this board is played on.
    pub fn geometry(&self) -> &'g Geometry {
        self.geometry
    }

    fn fill_without_matches(&mut self) {
        self.tiles = [NO_TILE; CANVAS_CELLS];
        for k in 0..self.geometry.cells.len() {
            let i = self.geometry.cells[k];
            let (x, y) = xy(i);
            let mut banned = [false; COLOURS as usize];
            if x >= 2
                && self.geometry.playable[i - 1]
                && self.geometry.playable[i - 2]
                && self.tiles[i - 1] == self.tiles[i - 2]
            {
                banned[self.tiles[i - 1] as usize] = true;
            }
            let up = CANVAS_WIDTH;
            if y >= 2
                && self.geometry.playable[i - up]
                && self.geometry.playable[i - 2 * up]
                && self.tiles[i - up] == self.tiles[i - 2 * up]
            {
                banned[self.tiles[i - up] as usize] = true;
            }
            let mut allowed = [0u8; COLOURS as usize];
            let mut n = 0;
            for c in (0..COLOURS).filter(|&c| !banned[c as usize]) {
                allowed[n] = c;
                n += 1;
            }
            self.tiles[i] = allowed[self.rng.index(n)];
        }
    }

    /// Length of the same-colour line through `i` along `step` (1 = row, 9 = column),
    /// counting only PLAYFIELD cells.
    fn run_through(&self, i: usize, horizontal: bool) -> (usize, usize) {
        let colour = self.tiles[i];
        let (x, y) = xy(i);
        let (back, fwd, step) = if horizontal {
            (x, CANVAS_WIDTH - 1 - x, 1)
        } else {
            (y, CANVAS_HEIGHT - 1 - y, CANVAS_WIDTH)
        };
        let mut lo = 0;
        while lo < back && self.tiles[i - (lo + 1) * step] == colour {
            lo += 1;
        }
        let mut hi = 0;
        while hi < fwd && self.tiles[i + (hi + 1) * step] == colour {
            hi += 1;
        }
        (lo, hi)
    }

    /// True when swapping makes a line of three or more.
    pub fn is_legal(&mut self, swap: Swap) -> bool {
        self.swap_outcome(swap).is_some()
    }

    /// The (red, total) tiles the swap's own matches would clear, or `None` when it matches
    /// nothing (an illegal move). The board is left unchanged.
    pub fn swap_outcome(&mut self, swap: Swap) -> Option<(u32, u32)> {
        let (a, b) = (swap.a, swap.b);
        if self.tiles[a] == self.tiles[b] || self.tiles[a] >= COLOURS || self.tiles[b] >= COLOURS {
            return None;
        }
        self.tiles.swap(a, b);
        let mut red = 0;
        let mut total = 0;
        for i in [a, b] {
            let (l, r) = self.run_through(i, true);
            let (u, d) = self.run_through(i, false);
            let n = line_tiles((l + r + 1) as u32, (u + d + 1) as u32);
            total += n;
            if self.tiles[i] == RED {
                red += n;
            }
        }
        self.tiles.swap(a, b);
        (total > 0).then_some((red, total))
    }

    /// [`PlayBoard::swap_outcome`] of every legal swap, in [`Geometry::adjacent_pairs`]
    /// order, from one pass over the board: `f(swap, red, total)`. The bots' move choice.
    pub fn each_swap_outcome(&self, mut f: impl FnMut(Swap, u32, u32)) {
        // The tiles with one cell more that never holds a tile, for the missing neighbours.
        let mut t = [NO_TILE; CANVAS_CELLS + 1];
        t[..CANVAS_CELLS].copy_from_slice(&self.tiles);
        // Same-colour runs ending at each cell, counted from the left, right, top and bottom
        // (the cell itself included).
        let mut runs = [[0u8; CANVAS_CELLS + 1]; 4];
        for y in 0..CANVAS_HEIGHT {
            for x in 0..CANVAS_WIDTH {
                let i = y * CANVAS_WIDTH + x;
                runs[0][i] = if x > 0 && t[i - 1] == t[i] {
                    runs[0][i - 1] + 1
                } else {
                    1
                };
                runs[2][i] = if y > 0 && t[i - CANVAS_WIDTH] == t[i] {
                    runs[2][i - CANVAS_WIDTH] + 1
                } else {
                    1
                };
            }
        }
        for y in (0..CANVAS_HEIGHT).rev() {
            for x in (0..CANVAS_WIDTH).rev() {
                let i = y * CANVAS_WIDTH + x;
                runs[1][i] = if x + 1 < CANVAS_WIDTH && t[i + 1] == t[i] {
                    runs[1][i + 1] + 1
                } else {
                    1
                };
                runs[3][i] = if y + 1 < CANVAS_HEIGHT && t[i + CANVAS_WIDTH] == t[i] {
                    runs[3][i + CANVAS_WIDTH] + 1
                } else {
                    1
                };
            }
        }
        // Tiles a cell clears once `colour` moved into it: the runs of that colour that end
        // at its neighbours (the partner holds another colour after the swap and counts for
        // none), joined through it into a row and a column.
        let cleared = |sides: &[u8; 4], colour: u8| -> u32 {
            let run = |k: usize| {
                let j = usize::from(sides[k]);
                if t[j] == colour {
                    u32::from(runs[k][j])
                } else {
                    0
                }
            };
            line_tiles(1 + run(0) + run(1), 1 + run(2) + run(3))
        };
        for (&swap, sides) in self.geometry.swaps.iter().zip(&self.geometry.sides) {
            let (ca, cb) = (t[swap.a], t[swap.b]);
            if ca == cb || ca >= COLOURS || cb >= COLOURS {
                continue;
            }
            // After the swap `a` holds `cb` and `b` holds `ca`.
            let (na, nb) = (cleared(&sides[0], cb), cleared(&sides[1], ca));
            let total = na + nb;
            if total > 0 {
                let red = if cb == RED { na } else { 0 } + if ca == RED { nb } else { 0 };
                f(swap, red, total);
            }
        }
    }

    /// Every legal swap, in canvas order.
    pub fn legal_moves(&mut self) -> Vec<Swap> {
        let geometry = self.geometry;
        geometry
            .swaps
            .iter()
            .copied()
            .filter(|&s| self.is_legal(s))
            .collect()
    }

    /// True when at least one legal swap exists.
    pub fn has_legal_move(&mut self) -> bool {
        let geometry = self.geometry;
        geometry.swaps.iter().any(|&s| self.is_legal(s))
    }

    /// Marks every cell in a line of three or more; returns the marks and their count.
    fn find_matches(&self) -> ([bool; CANVAS_CELLS], usize) {
        // One bit per cell and colour, rows BITS_PER_ROW bits apart with a zero bit after
        // each row's last cell, so that no line runs from one row into the next.
        const BITS_PER_ROW: usize = CANVAS_WIDTH + 1;
        let mut colours = [0u128; COLOURS as usize];
        for (i, &c) in self.tiles.iter().enumerate() {
            if c < COLOURS {
                let (x, y) = xy(i);
                colours[usize::from(c)] |= 1 << (y * BITS_PER_ROW + x);
            }
        }
        let mut lines = 0u128;
        for m in colours {
            // The first cell of each three in a row, then the three cells.
            let across = m & (m >> 1) & (m >> 2);
            let down = m & (m >> BITS_PER_ROW) & (m >> (2 * BITS_PER_ROW));
            lines |= across | (across << 1) | (across << 2);
            lines |= down | (down << BITS_PER_ROW) | (down << (2 * BITS_PER_ROW));
        }
        let mut marked = [false; CANVAS_CELLS];
        let count = lines.count_ones() as usize;
        while lines != 0 {
            let bit = lines.trailing_zeros() as usize;
            marked[(bit / BITS_PER_ROW) * CANVAS_WIDTH + bit % BITS_PER_ROW] = true;
            lines &= lines - 1;
        }
        (marked, count)
    }

    /// True when some line of three or more is on the board.
    pub fn has_match(&self) -> bool {
        self.find_matches().1 > 0
    }

    /// Lets tiles fall down each segment and refills from its spawner with fresh colours.
    fn gravity_and_refill(&mut self) {
        let geometry = self.geometry;
        for seg in &geometry.segments {
            let mut write = 0;
            for read in 0..seg.len() {
                let t = self.tiles[seg[read]];
                if t != EMPTY {
                    self.tiles[seg[write]] = t;
                    write += 1;
                }
            }
            for &i in &seg[write..] {
                self.tiles[i] = self.rng.below(COLOURS as u32) as u8;
            }
        }
    }

    /// Clears matches, applies gravity and refills until the board is still. Returns
    /// (red, total) cleared and rounds; `steps` receives each round when given.
    pub fn resolve(&mut self, mut steps: Option<&mut Vec<CascadeStep>>) -> (u32, u32, u32) {
        let (mut red, mut total, mut rounds) = (0, 0, 0);
        loop {
            let (marked, count) = self.find_matches();
            if count == 0 {
                return (red, total, rounds);
            }
            rounds += 1;
            let before = self.tiles;
            // Only a caller that shows the rounds needs the cleared cells listed.
            let mut cleared = Vec::new();
            for (i, &m) in marked.iter().enumerate() {
                if m {
                    if self.tiles[i] == RED {
                        red += 1;
                    }
                    total += 1;
                    self.tiles[i] = EMPTY;
                    if steps.is_some() {
                        cleared.push(i);
                    }
                }
            }
            self.gravity_and_refill();
            if let Some(s) = steps.as_deref_mut() {
                s.push(CascadeStep {
                    before,
                    cleared,
                    after: self.tiles,
                });
            }
        }
    }

    /// Plays a swap: swaps, clears, cascades. `None` (and no change) when illegal.
    pub fn play(&mut self, swap: Swap, steps: Option<&mut Vec<CascadeStep>>) -> Option<MoveReport> {
        let (own_red, own_total) = self.swap_outcome(swap)?;
        self.tiles.swap(swap.a, swap.b);
        let (red, total, rounds) = self.resolve(steps);
        Some(MoveReport {
            own_red,
            own_total,
            red,
            total,
            rounds,
        })
    }

    /// Re-colours the whole board (no ready-made matches) until a legal move exists, at most
    /// [`RESHUFFLE_TRIES`] times. Returns false when every try was stuck.
    pub fn reshuffle(&mut self) -> bool {
        for _ in 0..RESHUFFLE_TRIES {
            self.fill_without_matches();
            if self.has_legal_move() {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tiles from ASCII over the play area: `r g b o` colours, `#`/`~` no tile, `.` unused.
    pub(crate) fn board_tiles(layout: &Layout, colours: &str) -> [u8; CANVAS_CELLS] {
        let r = layout.play_area();
        let mut t = [NO_TILE; CANVAS_CELLS];
        for (y, line) in colours.lines().enumerate() {
            for (x, ch) in line.chars().enumerate() {
                let c = match ch {
                    'r' => 0,
                    'g' => 1,
                    'b' => 2,
                    'o' => 3,
                    _ => NO_TILE,
                };
                t[(r.y + y) * CANVAS_WIDTH + r.x + x] = c;
            }
        }
        t
    }

    fn area_colours(layout: &Layout, tiles: &[u8; CANVAS_CELLS]) -> String {
        let r = layout.play_area();
        let mut s = String::new();
        for y in r.y..r.y + r.height {
            for x in r.x..r.x + r.width {
                s.push(match tiles[y * CANVAS_WIDTH + x] {
                    0 => 'r',
                    1 => 'g',
                    2 => 'b',
                    3 => 'o',
                    EMPTY => '_',
                    _ => '#',
                });
            }
            s.push('\n');
        }
        s
    }

    /// An RNG whose refills are known: we only check the cells that do not depend on it.
    fn rng() -> Rng {
        Rng::new(1)
    }

    #[test]
    fn a_new_board_has_no_match_and_is_full() {
        for seed in 0..200 {
            let layout = Layout::parse_ascii(
                ".........\n.........\n...~~~...\n.........\n..#...#..\n.........\n",
            )
            .unwrap();
            let g = Geometry::new(&layout);
            let b = PlayBoard::new(&g, Rng::new(seed));
            assert!(!b.has_match(), "seed {seed}");
            assert_eq!(
                b.tiles().iter().filter(|&&t| t < COLOURS).count(),
                g.tile_count()
            );
        }
    }

    #[test]
    fn gravity_falls_through_gap_and_stops_on_block() {
        // Column 0: tile above a GAP falls through it. Column 2: the BLOCK holds the tile above.
        let layout = Layout::parse_ascii("...\n~.#\n...\n...\n").unwrap();
        let g = Geometry::new(&layout);
        let tiles = board_tiles(&layout, "gbo\n#r#\nrrr\nbgb\n");
        let mut b = PlayBoard::with_tiles(&g, tiles, rng());
        // Clear the red row (row 2) by hand, then let gravity act.
        let (red, total, _) = {
            let (marked, n) = b.find_matches();
            assert_eq!(n, 3);
            for (i, m) in marked.iter().enumerate() {
                if *m {
                    b.tiles[i] = EMPTY;
                }
            }
            b.gravity_and_refill();
            (3, n, 1)
        };
        assert_eq!((red, total), (3, 3));
        let after = area_colours(&layout, &b.tiles);
        let rows: Vec<&str> = after.lines().collect();
        // Column 0: 'g' fell from row 0 through the GAP at row 1 to row 2.
        assert_eq!(&rows[2][0..1], "g");
        assert_eq!(&rows[1][0..1], "#");
        // Column 1: 'r' fell from row 1 to row 2, 'b' from row 0 to row 1.
        assert_eq!(&rows[2][1..2], "r");
        assert_eq!(&rows[1][1..2], "b");
        // Column 2: 'o' stays above the BLOCK; the cell under the BLOCK (a spawner) refilled.
        assert_eq!(&rows[0][2..3], "o");
        assert_eq!(&rows[1][2..3], "#");
        assert!(rows[2].chars().nth(2).is_some_and(|c| "rgbo".contains(c)));
        // Bottom row untouched.
        assert_eq!(rows[3], "bgb");
    }

    #[test]
    fn a_cascade_worked_out_on_paper() {
        // 3 wide, 5 high, open. Swap (1,3)<->(1,4)... written as colours:
        //   row0: b o g
        //   row1: g o b
        //   row2: o r b
        //   row3: r g r
        //   row4: g r g
        // Swapping the 'g' at (1,3) with the 'r' at (1,4): row 3 becomes r r r (3 red) and
        // row 4 becomes g g g (3 green), six tiles in all.
        // Gravity: column 0 drops b,g,o by two rows; column 1 drops o,o,r; column 2 drops g,b,b.
        // Board after fall (rows 2..4): col0 b g o, col1 o o r, col2 g b b -> row2 "bog",
        // row3 "gob", row4 "orb": no line of three, so the cascade stops after the refill
        // unless the two fresh top rows make one; the cleared counts of round 1 are exact.
        let layout = Layout::parse_ascii("...\n...\n...\n...\n...\n").unwrap();
        let g = Geometry::new(&layout);
        let tiles = board_tiles(&layout, "bog\ngob\norb\nrgr\ngrg\n");
        let mut b = PlayBoard::with_tiles(&g, tiles, rng());
        let r = layout.play_area();
        let at = |x: usize, y: usize| (r.y + y) * CANVAS_WIDTH + r.x + x;
        let swap = Swap {
            a: at(1, 3),
            b: at(1, 4),
        };
        assert_eq!(b.swap_outcome(swap), Some((3, 6)));
        let mut steps = Vec::new();
        let report = b.play(swap, Some(&mut steps)).unwrap();
        assert_eq!((report.own_red, report.own_total), (3, 6));
        let first = &steps[0];
        assert_eq!(first.cleared.len(), 6);
        let after = area_colours(&layout, &first.after);
        let rows: Vec<&str> = after.lines().collect();
        assert_eq!(&rows[2..], &["bog", "gob", "orb"]);
        assert_eq!(report.rounds as usize, steps.len());
        assert!(report.red >= 3 && report.total >= 6);
    }

    #[test]
    fn a_cleared_row_drops_every_column_by_one() {
        //   row0: r b r
        //   row1: o r g
        //   row2: r g b
        //   row3: g b g
        let layout = Layout::parse_ascii("...\n...\n...\n...\n").unwrap();
        let g = Geometry::new(&layout);
        let tiles = board_tiles(&layout, "rbr\norg\nrgb\ngbg\n");
        let mut b = PlayBoard::with_tiles(&g, tiles, Rng::new(3));
        let r = layout.play_area();
        let at = |x: usize, y: usize| (r.y + y) * CANVAS_WIDTH + r.x + x;
        // Swap (1,2) 'g' with (1,3) 'b': row 3 -> g g g cleared; row 2 -> r b b.
        // Column 1 falls: (1,3) <- 'b'(1,2)... wait (1,2) now holds 'b' after swap; it falls to
        // row 3; 'r'(1,1) to row 2; 'b'(1,0) to row 1; fresh at (1,0). Columns 0 and 2 likewise
        // fall by one. Row 2 becomes o r g? col0: r,o,r fall -> rows1..3 = r,o,r; col2: r,g,b
        // -> rows 1..3 = r,g,b. Row 2 = o r g, row 3 = r b b: no line of three. Row 1 = r b r.
        let mut steps = Vec::new();
        let rep = b
            .play(
                Swap {
                    a: at(1, 2),
                    b: at(1, 3),
                },
                Some(&mut steps),
            )
            .unwrap();
        assert_eq!((rep.own_red, rep.own_total), (0, 3));
        let rows: Vec<String> = area_colours(&layout, &steps[0].after)
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(&rows[1..], &["rbr", "org", "rbb"]);
        assert!(!b.has_match());
    }

    #[test]
    fn illegal_swaps_are_refused_and_change_nothing() {
        let layout = Layout::parse_ascii("...\n...\n...\n").unwrap();
        let g = Geometry::new(&layout);
        let tiles = board_tiles(&layout, "rgb\ngbr\nbrg\n");
        let mut b = PlayBoard::with_tiles(&g, tiles, rng());
        assert!(b.legal_moves().is_empty());
        let s = g.adjacent_pairs()[0];
        assert!(b.play(s, None).is_none());
        assert_eq!(b.tiles(), &tiles);
    }

    #[test]
    fn gap_and_block_break_a_line() {
        let layout =
            Layout::parse_ascii("r~rr\n....\n....\n....\n".replace('r', ".").as_str()).unwrap();
        let g = Geometry::new(&layout);
        // "r~rr" on row 0 is not a line of 3 across the GAP; with a matching colour dropped in
        // from a swap it is.
        let tiles = board_tiles(&layout, "r#rg\ngbgr\nbgbg\ngbgb\n");
        let mut b = PlayBoard::with_tiles(&g, tiles, rng());
        assert!(!b.has_match());
        let r = layout.play_area();
        let at = |x: usize, y: usize| (r.y + y) * CANVAS_WIDTH + r.x + x;
        // Swap (3,0) 'g' with (3,1) 'r': row 0 reads r ~ r r -> only a run of two -> illegal.
        assert_eq!(
            b.swap_outcome(Swap {
                a: at(3, 0),
                b: at(3, 1)
            }),
            None
        );
    }

    /// An open 9×11 layout with up to 29 BLOCKs and GAPs scattered over the canvas, so that
    /// lines break everywhere.
    fn scattered_layout(rng: &mut Rng) -> Layout {
        let mut layout = Layout::open(9, 11).unwrap();
        for _ in 0..rng.index(30) {
            let cell = if rng.chance(0.5) {
                Cell::Block
            } else {
                Cell::Gap
            };
            layout.set(rng.index(CANVAS_WIDTH), rng.index(CANVAS_HEIGHT), cell);
        }
        layout
    }

    #[test]
    fn the_bitwise_line_search_marks_what_walking_the_lines_marks() {
        let mut rng = Rng::new(7);
        for round in 0..500 {
            let g = Geometry::new(&scattered_layout(&mut rng));
            let mut tiles = [NO_TILE; CANVAS_CELLS];
            for &i in &g.cells {
                // Two colours only, so that lines of three and more are everywhere.
                tiles[i] = rng.below(2) as u8;
            }
            let board = PlayBoard::with_tiles(&g, tiles, Rng::new(round));
            let in_line = |i: usize, step: usize, len: usize, at: usize| {
                // The run of `tiles[i]` through position `at` of a line of `len` cells.
                let start = i - at * step;
                let same = |k: usize| tiles[start + k * step] == tiles[i];
                let lo = (0..at).rev().take_while(|&k| same(k)).count();
                let hi = (at + 1..len).take_while(|&k| same(k)).count();
                lo + hi + 1 >= 3
            };
            let mut expected = [false; CANVAS_CELLS];
            for i in 0..CANVAS_CELLS {
                let (x, y) = xy(i);
                expected[i] = tiles[i] < COLOURS
                    && (in_line(i, 1, CANVAS_WIDTH, x)
                        || in_line(i, CANVAS_WIDTH, CANVAS_HEIGHT, y));
            }
            let (marked, count) = board.find_matches();
            assert_eq!(marked, expected, "round {round}");
            assert_eq!(count, expected.iter().filter(|&&m| m).count());
        }
    }

    #[test]
    fn every_swap_outcome_in_one_pass_is_each_swaps_own() {
        let mut rng = Rng::new(41);
        for round in 0..300 {
            let g = Geometry::new(&scattered_layout(&mut rng));
            let mut board = PlayBoard::new(&g, Rng::new(round));
            for _ in 0..5 {
                let mut one_pass = Vec::new();
                board.each_swap_outcome(|s, red, total| one_pass.push((s, red, total)));
                let each: Vec<(Swap, u32, u32)> = g
                    .adjacent_pairs()
                    .iter()
                    .filter_map(|&s| board.swap_outcome(s).map(|(r, t)| (s, r, t)))
                    .collect();
                assert_eq!(one_pass, each, "round {round}");
                let Some(&(s, _, _)) = one_pass.first() else {
                    break;
                };
                board.play(s, None);
            }
        }
    }

    #[test]
    fn reshuffle_finds_a_board_with_a_move() {
        let layout = Layout::open(5, 5).unwrap();
        let g = Geometry::new(&layout);
        let tiles = board_tiles(&layout, "rgbor\nborgb\norgbo\nrgbor\nborgb\n");
        let mut b = PlayBoard::with_tiles(&g, tiles, Rng::new(9));
        assert!(!b.has_legal_move());
        assert!(b.reshuffle());
        assert!(b.has_legal_move());
        assert!(!b.has_match());
    }

    #[test]
    fn a_layout_without_adjacent_cells_cannot_be_reshuffled() {
        let layout = Layout::parse_ascii(".#.#\n#.#.\n.#.#\n#.#.\n").unwrap();
        let g = Geometry::new(&layout);
        let mut b = PlayBoard::new(&g, Rng::new(1));
        assert!(!b.has_legal_move());
        assert!(!b.reshuffle());
    }
}
