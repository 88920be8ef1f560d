//! The fewest moves a layout of each size is known to take: the bound below which no level
//! of that size can be asked for.
//!
//! A layout's difficulty is the bots' median moves, so the easiest layout of a size is
//! nearly open: the open rectangle or a training level one or two cells from it (no other
//! layout has been seen to be easier by more than a move; `examples/edge_probe.rs` tries
//! every one-cell change). [`EASIEST`] holds, per size, the least median over the open
//! rectangle and the dataset's layouts near it, each validated with [`EASIEST_GAMES`] games
//! (bot seed [`EASIEST_SEED`]), so that one lucky 30-game label does not count.
//! [`measure_easiest`] recomputes it; a test checks the table against the dataset.

use super::layout::{Layout, HEIGHTS, WIDTHS};
use super::validate::{validate, ValidationConfig};
use rayon::prelude::*;

/// Games per validation behind [`EASIEST`].
pub const EASIEST_GAMES: u32 = 120;

/// Bot seed of the validations behind [`EASIEST`] (not a seed validated generation uses).
pub const EASIEST_SEED: u64 = 4242;

/// How far above the open rectangle's median a dataset layout's label may lie and still be
/// validated as a candidate for the easiest.
pub const EASIEST_LABEL_SLACK: f64 = 2.0;

/// Per width (rows, from 4) and height (columns, from 4), the fewest median moves measured
/// ([`measure_easiest`] over `levels/match3/main`).
pub const EASIEST: [[f64; 8]; 6] = [
    [40.0, 36.0, 32.0, 28.5, 28.0, 25.5, 25.0, 24.0], // width 4
    [37.0, 30.0, 26.5, 24.0, 22.0, 21.0, 20.0, 19.0], // width 5
    [33.0, 27.0, 23.0, 21.0, 19.0, 18.0, 17.0, 16.0], // width 6
    [30.0, 25.0, 22.0, 19.0, 17.0, 16.0, 15.0, 14.0], // width 7
    [29.0, 23.0, 20.0, 18.0, 17.0, 15.0, 14.0, 13.0], // width 8
    [28.0, 23.0, 20.0, 18.0, 15.0, 14.0, 13.0, 12.0], // width 9
];

/// The fewest median moves a `width`×`height` layout is known to take; `None` for a size
/// the game does not have.
pub fn easiest_moves(width: usize, height: usize) -> Option<f64> {
    let row = EASIEST.get(width.checked_sub(*WIDTHS.start())?)?;
    row.get(height.checked_sub(*HEIGHTS.start())?).copied()
}

/// The validation behind [`EASIEST`].
pub fn easiest_config() -> ValidationConfig {
    ValidationConfig {
        games: EASIEST_GAMES,
        seed: EASIEST_SEED,
        ..ValidationConfig::default()
    }
}

/// Measures [`EASIEST`] from `levels` (layouts with their median-moves labels): per size, the
/// least median of the open rectangle and of the layouts of that size labelled at most
/// [`EASIEST_LABEL_SLACK`] above it, each validated with [`easiest_config`]. A layout no bot
/// can play counts as the validation's most moves. Widths outer, as [`EASIEST`].
pub fn measure_easiest(levels: &[(Layout, f64)]) -> Vec<Vec<f64>> {
    let config = easiest_config();
    let median =
        |l: &Layout| validate(l, &config).map_or(f64::from(config.max_moves()), |v| v.median_moves);
    WIDTHS
        .map(|w| {
            HEIGHTS
                .collect::<Vec<_>>()
                .par_iter()
                .map(|&h| {
                    let Ok(open) = Layout::open(w, h) else {
                        return f64::INFINITY;
                    };
                    let open_moves = median(&open);
                    levels
                        .iter()
                        .filter(|(l, label)| {
                            l.size() == (w, h)
                                && *label <= open_moves + EASIEST_LABEL_SLACK
                                && *l != open
                        })
                        .map(|(l, _)| median(l))
                        .fold(open_moves, f64::min)
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Match3Figures, Match3Level};
    use studio_core::files::load_pack;

    #[test]
    fn the_table_is_what_the_dataset_measures() {
        let mut levels = Vec::new();
        for split in crate::dataset::SPLITS {
            let path = format!("levels/match3/main/{split}.ron");
            let pack = load_pack(path.as_ref()).expect("the shipped dataset loads");
            for level in &pack.levels {
                let figures = level.figures_of::<Match3Figures>().expect("labelled");
                levels.push((level.layout().expect("a layout"), figures.median_moves));
            }
        }
        let measured = measure_easiest(&levels);
        for (row, want) in measured.iter().zip(EASIEST) {
            assert_eq!(row.as_slice(), want.as_slice());
        }
    }

    #[test]
    fn sizes_outside_the_game_have_no_bound() {
        assert_eq!(easiest_moves(9, 11), Some(12.0));
        assert_eq!(easiest_moves(4, 4), Some(40.0));
        assert_eq!(easiest_moves(3, 5), None);
        assert_eq!(easiest_moves(10, 5), None);
        assert_eq!(easiest_moves(5, 12), None);
    }
}
