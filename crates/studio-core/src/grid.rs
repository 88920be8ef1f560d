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
    fn flips() {
        let g: Grid<Bit> = Grid::parse_ascii("#..\n...\n").unwrap();
        assert_eq!(g.flipped_horizontally().to_ascii(), "..#\n...\n");
        assert_eq!(g.flipped_vertically().to_ascii(), "...\n#..\n");
    }
}
