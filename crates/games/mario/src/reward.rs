//! The thesis's level evaluation (rl-quality-diversity §6.3.4): the difficulty reward r_diff
//! from the human-like agent's total virtual damage (Eq. 6.1, Fig. 6.4) and the monotony
//! reward r_mono over 4-column patterns (Eq. 6.2), weighted 0.01.

use super::level::{MarioLevel, PATTERN_COLUMNS};

/// Weight of a virtual hole damage in the total (Eq. 6.1; an enemy damage weighs 1).
pub const HOLE_WEIGHT: f64 = 1.1;
/// Weight of the monotony reward (w_mono).
pub const MONO_WEIGHT: f64 = 0.01;
/// The total damage at which r_diff starts to rise from 0.
pub const DIFF_RISE_FROM: f64 = 0.75;
/// The total damage at which r_diff peaks at 1.
pub const DIFF_PEAK: f64 = 3.25;
/// r_diff's slope on both sides of the peak.
pub const DIFF_SLOPE: f64 = 0.4;
/// Patterns at the start of a level that r_mono does not judge (the thesis's first two
/// patterns come from the CGAN with random noise, not from the actor).
pub const UNJUDGED_PATTERNS: usize = 2;

/// Eq. 6.1: `enemy_dmg + 1.1 × hole_dmg`.
pub fn total_damage(enemy_damage: f64, hole_damage: f64) -> f64 {
    enemy_damage + HOLE_WEIGHT * hole_damage
}

/// Fig. 6.4: how appropriate a mean total damage is, 0..=1.
///
/// The thesis gives the curve as a figure; its worked examples (1.20 → 0.18, 1.34 → 0.236,
/// 2.23 → 0.592, 2.89 → 0.856, 3.09 → 0.936, 3.23 → 0.992) all lie on the line
/// `0.4 × (total − 0.75)`, which reaches 1 at 3.25. Past the peak we take the mirror image
/// (too much damage is as inappropriate as too little), reaching 0 again at 5.75.
pub fn r_diff(total_damage: f64) -> f64 {
    if !total_damage.is_finite() {
        return 0.0;
    }
    let value = if total_damage <= DIFF_PEAK {
        DIFF_SLOPE * (total_damage - DIFF_RISE_FROM)
    } else {
        1.0 - DIFF_SLOPE * (total_damage - DIFF_PEAK)
    };
    value.clamp(0.0, 1.0)
}

/// The wall mask of pattern `index` (columns `4·index ..`): which cells are solid, the bottom
/// row's gaps being the holes. Cells past the level's end count as air.
pub fn wall_mask(level: &MarioLevel, index: usize) -> Vec<bool> {
    let x0 = index * PATTERN_COLUMNS;
    let mut mask = Vec::with_capacity(PATTERN_COLUMNS * level.height());
    for x in x0..x0 + PATTERN_COLUMNS {
        for y in 0..level.height() {
            mask.push(x < level.width() && level.get(x, y).is_solid());
        }
    }
    mask
}

/// The number of whole 4-column patterns of a level.
pub fn pattern_count(level: &MarioLevel) -> usize {
    level.width() / PATTERN_COLUMNS
}

/// Eq. 6.2's penalty for pattern `n`: 8/15, 4/15, 2/15, 1/15 for each of the four previous
/// patterns with the same wall tiles.
pub fn monotony_penalty(masks: &[Vec<bool>], n: usize) -> f64 {
    const WEIGHTS: [f64; 4] = [8.0 / 15.0, 4.0 / 15.0, 2.0 / 15.0, 1.0 / 15.0];
    WEIGHTS
        .iter()
        .enumerate()
        .filter(|&(back, _)| n > back && masks[n - back - 1] == masks[n])
        .map(|(_, w)| w)
        .sum()
}

/// r_mono as the evaluation adds it: `0.01 × Σ (1 − penalty)` over the judged patterns (every
/// whole pattern after the first two), so a level of 10 patterns gains at most 0.08.
pub fn r_mono(level: &MarioLevel) -> f64 {
    let masks: Vec<Vec<bool>> = (0..pattern_count(level))
        .map(|i| wall_mask(level, i))
        .collect();
    let sum: f64 = (UNJUDGED_PATTERNS..masks.len())
        .map(|n| 1.0 - monotony_penalty(&masks, n))
        .sum();
    MONO_WEIGHT * sum
}

/// The evaluation: `r_diff + r_mono` for a playable level, 0 for an unplayable one.
pub fn evaluation(playable: bool, r_diff: f64, r_mono: f64) -> f64 {
    if playable {
        r_diff + r_mono
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::blank;
    use crate::tiles::Tile;

    #[test]
    fn r_diff_passes_through_the_thesis_examples() {
        for (total, expected) in [
            (1.20, 0.18),
            (1.34, 0.236),
            (2.23, 0.592),
            (2.89, 0.856),
            (3.09, 0.936),
            (3.23, 0.992),
        ] {
            assert!((r_diff(total) - expected).abs() < 1e-9, "{total}");
        }
        assert_eq!(r_diff(0.0), 0.0);
        assert_eq!(r_diff(3.25), 1.0);
        assert!((r_diff(4.5) - 0.5).abs() < 1e-9);
        assert_eq!(r_diff(9.0), 0.0);
        assert_eq!(r_diff(f64::NAN), 0.0);
        assert!((total_damage(2.0, 1.0) - 3.1).abs() < 1e-12);
    }

    #[test]
    fn a_flat_level_is_monotonous_and_a_varied_one_is_not() {
        // 40 columns of flat ground: every pattern equals the ones before it; only the third
        // and fourth gain (3/15 and 1/15) for the earlier patterns they cannot be compared with.
        let flat = MarioLevel::new(blank(40, 15)).unwrap();
        assert_eq!(pattern_count(&flat), 10);
        assert!((r_mono(&flat) - 0.01 * 4.0 / 15.0).abs() < 1e-12);
        // A hole in pattern 5 changes it and the next four comparisons with it.
        let mut cells = blank(40, 15);
        cells.set(21, 14, Tile::Empty);
        cells.set(21, 13, Tile::Empty);
        let holed = MarioLevel::new(cells).unwrap();
        let masks: Vec<Vec<bool>> = (0..10).map(|i| wall_mask(&holed, i)).collect();
        assert!(monotony_penalty(&masks, 5).abs() < 1e-12);
        assert!((monotony_penalty(&masks, 6) - 7.0 / 15.0).abs() < 1e-12);
        // Gains: 3/15, 1/15, 0 (patterns 2-4), 1 (the hole), then 8/15, 4/15, 2/15, 1/15 as
        // the holed pattern moves back.
        let expected = 0.01 * 34.0 / 15.0;
        assert!((r_mono(&holed) - expected).abs() < 1e-12);
        assert_eq!(evaluation(false, 0.9, 0.05), 0.0);
    }
}
