//! Bot sanity on open layouts, and reproducibility of validation.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
}

use match3::Match3Level;
use match3::{validate, BotKind, Layout, ValidationConfig};

#[test]
fn greedy_bot_solves_an_open_9x11_board_within_the_limit() {
    let v = validate(&Layout::open(9, 11).unwrap(), &ValidationConfig::default()).unwrap();
    assert!(v.median_moves <= 20.0, "median {}", v.median_moves);
    assert!(v.valid);
    assert_eq!(v.games, 30);
    assert_eq!(v.histogram.iter().sum::<u32>(), 30);
}

#[test]
fn random_bot_almost_never_solves_within_twenty_moves() {
    // Over the dataset's test layouts the random bot reaches the goal within 20 moves in only
    // a few percent of its games. (On the largest open board, where cascades do most of the
    // work, it can: median 17 there against the greedy bot's 11.5.)
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join("levels/match3/main/test.ron");
    let pack = studio_core::files::load_pack(&root).unwrap();
    let random = ValidationConfig {
        bot: BotKind::Random,
        ..Default::default()
    };
    let (mut games, mut within, mut random_valid, mut greedy_valid) = (0, 0, 0, 0);
    for level in pack.levels.iter().step_by(3) {
        let layout = level.layout().unwrap();
        let v = validate(&layout, &random).unwrap();
        games += v.moves.len();
        within += v.moves.iter().filter(|&&m| m <= 20).count();
        random_valid += v.valid as usize;
        greedy_valid += validate(&layout, &ValidationConfig::default())
            .unwrap()
            .valid as usize;
    }
    assert!(
        (within as f64) < 0.1 * games as f64,
        "random bot solved {within} of {games} games in ≤ 20 moves"
    );
    assert!(
        random_valid * 4 < greedy_valid,
        "random bot validated {random_valid} layouts, greedy {greedy_valid}"
    );
    let open = Layout::open(9, 11).unwrap();
    let r = validate(&open, &random).unwrap().median_moves;
    let g = validate(&open, &ValidationConfig::default())
        .unwrap()
        .median_moves;
    assert!(r > g, "open 9x11: random {r} vs greedy {g}");
}

#[test]
fn a_small_open_board_needs_more_moves_than_a_large_one() {
    let small = validate(&Layout::open(4, 4).unwrap(), &ValidationConfig::default()).unwrap();
    let large = validate(&Layout::open(9, 11).unwrap(), &ValidationConfig::default()).unwrap();
    assert!(
        small.median_moves > large.median_moves,
        "4x4 {} vs 9x11 {}",
        small.median_moves,
        large.median_moves
    );
}

#[test]
fn same_seed_same_validation_across_runs_and_game_counts_are_honoured() {
    let layout =
        Layout::parse_ascii("#.....#\n.......\n..~~~..\n.......\n.......\n.#...#.\n.......\n")
            .unwrap();
    let config = ValidationConfig {
        seed: 17,
        games: 12,
        ..Default::default()
    };
    let a = validate(&layout, &config).unwrap();
    let b = validate(&layout, &config).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.moves.len(), 12);
    assert_eq!(a.seed, 17);
}

#[test]
fn the_move_limit_is_configurable() {
    let layout = Layout::open(6, 6).unwrap();
    let strict = validate(
        &layout,
        &ValidationConfig {
            limit: 10,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(strict.histogram.len(), 20);
    assert!(strict.moves.iter().all(|&m| m <= 20));
    assert!(!strict.valid);
}
