//! The paper's metrics on hand-made sets with known answers, and feasibility warnings.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
}

use match3::cvae::metrics::{
    difficulty, diversity, plagiarism, quantile, size_accuracy, tile_distribution,
};
use match3::Layout;

fn l(text: &str) -> Layout {
    Layout::parse_ascii(text).unwrap()
}

#[test]
fn size_diversity_and_plagiarism() {
    let a = l("....\n....\n....\n....\n");
    let b = l("....\n.##.\n....\n....\n");
    let c = l(".....\n.....\n.....\n.....\n");
    let set = vec![a.clone(), a.clone(), b.clone(), c.clone()];
    // a, a, b are 4x4; c is 5x4; one of the four was asked as 4x5.
    assert_eq!(size_accuracy(&set, &[(4, 4), (4, 4), (4, 4), (4, 5)]), 0.75);
    // 6 pairs, one identical (a, a).
    assert!((diversity(&set) - 5.0 / 6.0).abs() < 1e-12);
    assert_eq!(diversity(std::slice::from_ref(&a)), 1.0);
    // a twice and c are in the training set; b is new.
    assert_eq!(plagiarism(&set, &[a.clone(), c.clone()]), 0.75);
    assert_eq!(plagiarism(&[b], &[a, c]), 0.0);
}

#[test]
fn difficulty_within_one_std() {
    // (requested, validated median, validated std)
    let results = [
        (15.0, 16.0, 2.0),
        (12.0, 20.0, 3.0),
        (20.0, 20.0, 0.0),
        (10.0, 14.0, 4.0),
    ];
    let (acc, mean, std) = difficulty(&results);
    assert_eq!(acc, 0.75);
    assert_eq!(mean, (1.0 + 8.0 + 0.0 + 4.0) / 4.0);
    let m: f64 = 3.25;
    let var = ((1.0 - m).powi(2) + (8.0 - m).powi(2) + m.powi(2) + (4.0 - m).powi(2)) / 4.0;
    assert!((std - var.sqrt()).abs() < 1e-12);
}

#[test]
fn tile_distribution_against_quartiles() {
    // Training 4x4 levels with 0, 1, 2, 3 interior BLOCKs: BLOCK counts on the canvas are
    // 83 + k, PLAYFIELD 16 − k; Q1..Q3 of k = 0.75..2.25, so k = 1 or 2 is inside.
    let with_blocks = |k: usize| {
        let mut rows = vec!["....".to_string(); 4];
        for i in 0..k {
            let mut r: Vec<char> = rows[1 + i / 2].chars().collect();
            r[1 + i % 2] = '#';
            rows[1 + i / 2] = r.into_iter().collect();
        }
        Layout::from_rows(&rows).unwrap()
    };
    let training: Vec<Layout> = (0..4).map(with_blocks).collect();
    assert_eq!(
        training.iter().map(|t| t.size()).collect::<Vec<_>>(),
        vec![(4, 4); 4]
    );
    // Generated: median k = 1 → BLOCK and PLAYFIELD inside; GAP count 0 is Q1..Q3 of 0s.
    let generated = vec![with_blocks(1), with_blocks(1), with_blocks(3)];
    assert_eq!(tile_distribution(&generated, &[(4, 4); 3], &training), 1.0);
    // Median k = 3: BLOCK and PLAYFIELD outside, GAP still inside → 1/3.
    let generated = vec![with_blocks(3), with_blocks(3), with_blocks(0)];
    assert!((tile_distribution(&generated, &[(4, 4); 3], &training) - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(quantile(&[0.0, 1.0, 2.0, 3.0], 0.25), 0.75);
}
