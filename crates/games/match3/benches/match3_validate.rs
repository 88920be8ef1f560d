//! Benchmark: one 30-game validation of open 9×11 and 5×5 layouts, and one greedy bot move.
//! Run with `cargo bench --bench match3_validate`.

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::bot::{choose_move, BotKind};
use match3::rules::{Geometry, PlayBoard};
use match3::{validate, Layout, ValidationConfig};
use std::hint::black_box;
use std::time::{Duration, Instant};
use studio_core::rng::Rng;

fn time<F: FnMut()>(name: &str, runs: usize, mut f: F) -> Duration {
    for _ in 0..runs.min(10) {
        f();
    }
    let mut samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    samples.sort();
    let median = samples[samples.len() / 2];
    println!(
        "{name:<44} median {:>10.3} µs  (min {:.3} µs, {runs} runs)",
        median.as_secs_f64() * 1e6,
        samples[0].as_secs_f64() * 1e6
    );
    median
}

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    for (w, h) in [(9, 11), (5, 5)] {
        let layout = Layout::open(w, h).expect("open layout");
        let config = ValidationConfig::default();
        let v = validate(&layout, &config).expect("validates");
        println!(
            "open {w}x{h}: median {} moves, std {:.2}",
            v.median_moves, v.std_moves
        );
        time(
            &format!("validate open {w}x{h} (30 games, parallel)"),
            200,
            || {
                black_box(validate(black_box(&layout), &config).unwrap());
            },
        );
    }
    let layout = Layout::open(9, 11).expect("open layout");
    let geometry = Geometry::new(&layout);
    let board = PlayBoard::new(&geometry, Rng::new(5));
    let mut rng = Rng::new(6);
    time("greedy bot move choice, open 9x11", 20_000, || {
        let mut b = board.clone();
        black_box(choose_move(BotKind::Greedy, &mut b, &mut rng));
    });
    time("greedy move + play (cascades), open 9x11", 20_000, || {
        let mut b = board.clone();
        let s = choose_move(BotKind::Greedy, &mut b, &mut rng).unwrap();
        black_box(b.play(s, None));
    });
}
