//! What a learned model says of each cell of a level it decodes: a score for every tile,
//! handed to a game that builds its levels under its own rules ([`super::Game::score_decoder`])
//! instead of taking each cell's likeliest tile.

/// A game's decoding of a model's scores into the rows of a level; `None` when the scores
/// are of a board the game does not take.
pub type ScoreDecoder = fn(&TileScores<'_>) -> Option<Vec<String>>;

/// Per-cell tile scores (log-probabilities: higher is likelier) of a `width × height` level,
/// row-major, over the tiles of `palette`.
#[derive(Clone, Copy, Debug)]
pub struct TileScores<'a> {
    /// Cells a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The tiles the scores are of, as level files write them.
    pub palette: &'a [char],
    /// `scores[(y · width + x) · palette.len() + t]`: the score of tile `t` at `(x, y)`.
    pub scores: &'a [f32],
}

impl TileScores<'_> {
    /// The score of tile `ascii` at `(x, y)`; minus infinity for a tile the palette lacks or
    /// a cell outside the level.
    pub fn get(&self, x: usize, y: usize, ascii: char) -> f32 {
        let k = self.palette.len();
        match self.palette.iter().position(|&c| c == ascii) {
            Some(t) if x < self.width && y < self.height => self
                .scores
                .get((y * self.width + x) * k + t)
                .copied()
                .unwrap_or(f32::NEG_INFINITY),
            _ => f32::NEG_INFINITY,
        }
    }

    /// The scores (row-major, as [`TileScores::scores`] holds them) of a model sure of every
    /// cell of `art` by `margin`: 0 for the cell's own tile, `−margin` for every other tile
    /// of `palette` (what a game's decoder is tested with).
    pub fn sure_of(art: &[&str], palette: &[char], margin: f32) -> Vec<f32> {
        art.iter()
            .flat_map(|row| row.chars())
            .flat_map(|c| {
                palette
                    .iter()
                    .map(move |&t| if t == c { 0.0 } else { -margin })
            })
            .collect()
    }

    /// How much likelier `a` is than `b` at every cell, row-major: `get(a) − get(b)`.
    pub fn margins(&self, a: char, b: char) -> Vec<f32> {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .map(|(x, y)| self.get(x, y, a) - self.get(x, y, b))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_by_cell_and_tile_and_missing_ones_are_impossible() {
        let palette = ['#', '.'];
        let scores = [-0.1, -2.0, -3.0, -0.05];
        let s = TileScores {
            width: 2,
            height: 1,
            palette: &palette,
            scores: &scores,
        };
        assert_eq!(s.get(1, 0, '.'), -0.05);
        assert_eq!(s.get(0, 0, '@'), f32::NEG_INFINITY);
        assert_eq!(s.get(2, 0, '#'), f32::NEG_INFINITY);
        assert_eq!(s.margins('.', '#'), vec![-1.9, 2.95]);
    }
}
