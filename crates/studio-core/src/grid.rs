//! A rectangular grid of cells, read and written as ASCII art (one character a cell),
//! shared by every game.

use std::fmt;

/// A cell type that has a one-character ASCII form.
pub trait AsciiCell: Copy + PartialEq {
    /// The character written for this cell.
    fn to_ascii(self) -> char;
    /// The cell a character stands for, if any.
    fn from_ascii(c: char) -> Option<Self>;
}

/// Why a block of ASCII art is not a grid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// There were no rows at all.
    #[error("the grid is empty")]
    Empty,
    /// A row differs in length from the first row.
    #[error("line {line}: row has {found} cells, expected {expected} like the first row")]
    Ragged {
        /// The line of the row, counted from 1.
        line: usize,
        /// The number of cells in that row.
        found: usize,
        /// The number of cells in the first row.
        expected: usize,
    },
    /// A character that stands for no cell of this game.
    #[error("line {line}, column {column}: unknown cell character {ch:?}")]
    UnknownChar {
        /// The line of the row, counted from 1.
        line: usize,
        /// The character's column, counted from 1.
        column: usize,
        /// The character itself.
        ch: char,
    },
}

/// A `width × height` grid stored row by row; `(x, y)` with `y = 0` the top row.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid<T> {
    width: usize,
    height: usize,
    cells: Vec<T>,
}

impl<T: Copy> Grid<T> {
    /// A grid filled with one value.
    pub fn filled(width: usize, height: usize, value: T) -> Self {
        Self {
            width,
            height,
            cells: vec![value; width * height],
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The cell at column `x`, row `y`. Panics when out of range (a programming error).
    pub fn get(&self, x: usize, y: usize) -> T {
        self.cells[y * self.width + x]
    }

    /// The cell at signed coordinates, or `None` outside the grid.
    pub fn get_checked(&self, x: i64, y: i64) -> Option<T> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            None
        } else {
            Some(self.get(x as usize, y as usize))
        }
    }

    /// Sets the cell at column `x`, row `y`.
    pub fn set(&mut self, x: usize, y: usize, value: T) {
        self.cells[y * self.width + x] = value;
    }

    /// True when `(x, y)` lies inside the grid.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64
    }

    /// All cells, row by row.
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// All cells, row by row, mutable.
    pub fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// Every `(x, y, cell)` row by row.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, T)> + '_ {
        let w = self.width;
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, &c)| (i % w, i / w, c))
    }

    /// The sub-grid starting at `(x0, y0)` of the given size.
    pub fn crop(&self, x0: usize, y0: usize, width: usize, height: usize) -> Self {
        let mut out = Vec::with_capacity(width * height);
        for y in y0..y0 + height {
            for x in x0..x0 + width {
                out.push(self.get(x, y));
            }
        }
        Self {
            width,
            height,
            cells: out,
        }
    }

    /// Copies `other` into this grid with its top-left corner at `(x0, y0)`.
    pub fn paste(&mut self, other: &Self, x0: usize, y0: usize) {
        for (x, y, c) in other.iter() {
            self.set(x0 + x, y0 + y, c);
        }
    }

    /// The grid mirrored left↔right.
    pub fn flipped_horizontally(&self) -> Self {
        let mut out = self.clone();
        for (x, y, c) in self.iter() {
            out.set(self.width - 1 - x, y, c);
        }
        out
    }

    /// The grid mirrored top↔bottom.
    pub fn flipped_vertically(&self) -> Self {
        let mut out = self.clone();
        for (x, y, c) in self.iter() {
            out.set(x, self.height - 1 - y, c);
        }
        out
    }
}

impl<T: AsciiCell> Grid<T> {
    /// Parses rows of ASCII art; blank lines before and after are ignored and trailing
    /// whitespace (and `\r`) is trimmed.
    ///
    /// # Errors
    /// [`GridError`] naming the line and column of the first problem (lines counted from 1
    /// within `text`).
    pub fn parse_ascii(text: &str) -> Result<Self, GridError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end()))
            .collect();
        let first = lines
            .iter()
            .position(|(_, l)| !l.is_empty())
            .ok_or(GridError::Empty)?;
        let last = lines
            .iter()
            .rposition(|(_, l)| !l.is_empty())
            .unwrap_or(first);
        let rows: Vec<(usize, &str)> = lines[first..=last].to_vec();
        let rows_str: Vec<String> = rows.iter().map(|(_, l)| l.to_string()).collect();
        Self::from_rows_numbered(&rows_str, rows[0].0)
    }

    /// Builds a grid from rows of ASCII art (as stored in level files).
    ///
    /// # Errors
    /// [`GridError`] naming the row (counted from 1) and column of the first problem.
    pub fn from_rows(rows: &[String]) -> Result<Self, GridError> {
        Self::from_rows_numbered(rows, 1)
    }

    fn from_rows_numbered(rows: &[String], first_line: usize) -> Result<Self, GridError> {
        if rows.is_empty() || rows[0].is_empty() {
            return Err(GridError::Empty);
        }
        let width = rows[0].chars().count();
        let mut cells = Vec::with_capacity(width * rows.len());
        for (i, row) in rows.iter().enumerate() {
            let line = first_line + i;
            let found = row.chars().count();
            if found != width {
                return Err(GridError::Ragged {
                    line,
                    found,
                    expected: width,
                });
            }
            for (j, ch) in row.chars().enumerate() {
                let cell = T::from_ascii(ch).ok_or(GridError::UnknownChar {
                    line,
                    column: j + 1,
                    ch,
                })?;
                cells.push(cell);
            }
        }
        Ok(Self {
            width,
            height: rows.len(),
            cells,
        })
    }

    /// The grid as rows of ASCII art.
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| (0..self.width).map(|x| self.get(x, y).to_ascii()).collect())
            .collect()
    }

    /// The grid as ASCII art, one line a row, each ending in a newline.
    pub fn to_ascii(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for row in self.to_rows() {
            s.push_str(&row);
            s.push('\n');
        }
        s
    }
}

/// The four orthogonal neighbours' offsets: up, down, left, right.
pub const FOUR: [(i64, i64); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

impl<T> Grid<T> {
    /// The cells at `offsets` from `at` that lie inside the grid, in the offsets' order.
    pub fn neighbours<'a>(
        &self,
        at: (usize, usize),
        offsets: &'a [(i64, i64)],
    ) -> impl Iterator<Item = (usize, usize)> + 'a {
        let (width, height) = (self.width as i64, self.height as i64);
        offsets.iter().filter_map(move |&(dx, dy)| {
            let (x, y) = (at.0 as i64 + dx, at.1 as i64 + dy);
            ((0..width).contains(&x) && (0..height).contains(&y))
                .then_some((x as usize, y as usize))
        })
    }
}

/// What a breadth-first search over the cells of a rectangle reached: each cell's distance
/// from the start and the cell it was first reached from.
#[derive(Clone)]
pub struct Reach {
    from: (usize, usize),
    came: Grid<Option<((usize, usize), u32)>>,
    order: Vec<(usize, usize)>,
}

/// Breadth-first search from `from` over a `width × height` rectangle: `next(cell)` lists the
/// cells one step on from `cell`, in the order they are to be tried (ties between equally
/// short walks go to the earlier one). Every cell is reached once, at its shortest distance.
///
/// # Panics
/// When `from` or a cell `next` lists lies outside the rectangle.
pub fn breadth_first<I>(
    width: usize,
    height: usize,
    from: (usize, usize),
    next: impl FnMut((usize, usize)) -> I,
) -> Reach
where
    I: IntoIterator<Item = (usize, usize)>,
{
    search(width, height, from, None, next)
}

/// [`breadth_first`] that stops once it comes to `goal`'s turn: `goal`'s distance and path
/// are those of the whole search, other cells may be left unreached.
///
/// # Panics
/// As [`breadth_first`].
pub fn breadth_first_to<I>(
    width: usize,
    height: usize,
    from: (usize, usize),
    goal: (usize, usize),
    next: impl FnMut((usize, usize)) -> I,
) -> Reach
where
    I: IntoIterator<Item = (usize, usize)>,
{
    search(width, height, from, Some(goal), next)
}

fn search<I>(
    width: usize,
    height: usize,
    from: (usize, usize),
    goal: Option<(usize, usize)>,
    mut next: impl FnMut((usize, usize)) -> I,
) -> Reach
where
    I: IntoIterator<Item = (usize, usize)>,
{
    let mut came = Grid::filled(width, height, None);
    came.set(from.0, from.1, Some((from, 0)));
    let mut order = vec![from];
    let mut i = 0;
    while let Some(&at) = order.get(i) {
        i += 1;
        if goal == Some(at) {
            break;
        }
        let d = came.get(at.0, at.1).map_or(0, |(_, d)| d);
        for cell in next(at) {
            if came.get(cell.0, cell.1).is_none() {
                came.set(cell.0, cell.1, Some((at, d + 1)));
                order.push(cell);
            }
        }
    }
    Reach { from, came, order }
}

impl Reach {
    /// Steps from the start to `(x, y)`; `None` where the search never came.
    pub fn distance(&self, x: usize, y: usize) -> Option<u32> {
        self.came.get(x, y).map(|(_, d)| d)
    }

    /// Every cell's distance (`None` where unreached).
    pub fn distances(&self) -> Grid<Option<u32>> {
        let mut grid = Grid::filled(self.came.width(), self.came.height(), None);
        for &(x, y) in &self.order {
            grid.set(x, y, self.distance(x, y));
        }
        grid
    }

    /// Every cell's distance, `u32::MAX` where unreached.
    pub fn distances_or_max(&self) -> Grid<u32> {
        let mut grid = Grid::filled(self.came.width(), self.came.height(), u32::MAX);
        for &(x, y) in &self.order {
            grid.set(x, y, self.distance(x, y).unwrap_or(u32::MAX));
        }
        grid
    }

    /// The cells reached, in the order the search reached them (the start first).
    pub fn reached(&self) -> &[(usize, usize)] {
        &self.order
    }

    /// The cells of a shortest walk from the start (left out) to `to` (included); `None`
    /// where `to` was not reached, empty when `to` is the start.
    pub fn path_to(&self, to: (usize, usize)) -> Option<Vec<(usize, usize)>> {
        self.came.get(to.0, to.1)?;
        let mut cells = Vec::new();
        let mut at = to;
        while at != self.from {
            cells.push(at);
            at = self
                .came
                .get(at.0, at.1)
                .map_or(self.from, |(prev, _)| prev);
        }
        cells.reverse();
        Some(cells)
    }
}

impl<T: AsciiCell> fmt::Debug for Grid<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Grid {}x{}", self.width, self.height)?;
        for row in self.to_rows() {
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, PartialEq, Debug)]
    enum Bit {
        On,
        Off,
    }
    impl AsciiCell for Bit {
        fn to_ascii(self) -> char {
            if self == Bit::On {
                '#'
            } else {
                '.'
            }
        }
        fn from_ascii(c: char) -> Option<Self> {
            match c {
                '#' => Some(Bit::On),
                '.' => Some(Bit::Off),
                _ => None,
            }
        }
    }

    #[test]
    fn ascii_round_trip() {
        let text = "#..\n.#.\n";
        let g: Grid<Bit> = Grid::parse_ascii(text).unwrap();
        assert_eq!((g.width(), g.height()), (3, 2));
        assert_eq!(g.get(1, 1), Bit::On);
        assert_eq!(g.to_ascii(), text);
        assert_eq!(format!("{g:?}"), "Grid 3x2\n#..\n.#.\n");
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = Grid::<Bit>::parse_ascii("\n#..\n.x.\n").unwrap_err();
        assert_eq!(
            err,
            GridError::UnknownChar {
                line: 3,
                column: 2,
                ch: 'x'
            }
        );
        let err = Grid::<Bit>::parse_ascii("#..\n.#\n").unwrap_err();
        assert_eq!(
            err,
            GridError::Ragged {
                line: 2,
                found: 2,
                expected: 3
            }
        );
        assert_eq!(
            Grid::<Bit>::parse_ascii("  \n\n").unwrap_err(),
            GridError::Empty
        );
    }

    #[test]
    fn breadth_first_finds_shortest_walks_around_walls() {
        let g: Grid<Bit> = Grid::parse_ascii("...\n##.\n...\n").unwrap();
        let open = |at| {
            g.neighbours(at, &FOUR)
                .filter(|&(x, y)| g.get(x, y) == Bit::Off)
                .collect::<Vec<_>>()
        };
        let reach = breadth_first(3, 3, (0, 0), open);
        assert_eq!(reach.distance(0, 2), Some(6));
        assert_eq!(reach.distance(0, 1), None);
        assert_eq!(reach.reached().len(), 7);
        assert_eq!(reach.reached()[0], (0, 0));
        assert_eq!(
            reach.path_to((1, 2)),
            Some(vec![(1, 0), (2, 0), (2, 1), (2, 2), (1, 2)])
        );
        assert_eq!(reach.path_to((0, 0)), Some(vec![]));
        assert_eq!(reach.path_to((1, 1)), None);
        let early = breadth_first_to(3, 3, (0, 0), (2, 1), open);
        assert_eq!(early.path_to((2, 1)), reach.path_to((2, 1)));
        assert!(early.reached().len() < reach.reached().len());
        let d = reach.distances();
        assert_eq!((d.get(2, 1), d.get(1, 1)), (Some(3), None));
        let m = reach.distances_or_max();
        assert_eq!((m.get(2, 1), m.get(1, 1)), (3, u32::MAX));
        // Neighbours stay inside and keep the offsets' order.
        let n: Vec<_> = g.neighbours((0, 0), &FOUR).collect();
        assert_eq!(n, [(0, 1), (1, 0)]);
    }

    #[test]
    fn flips() {
        let g: Grid<Bit> = Grid::parse_ascii("#..\n...\n").unwrap();
        assert_eq!(g.flipped_horizontally().to_ascii(), "..#\n...\n");
        assert_eq!(g.flipped_vertically().to_ascii(), "...\n#..\n");
    }
}
