//! Benchmark: graph + classes + variables + player model for typical 8×8 Longcat levels, and
//! the 20,000-attempt solution-down evaluation. Run with `cargo bench --bench longcat`.

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use longcat::eval::{evaluate, EvalConfig};
use longcat::generators::{puzzle_up, solution_down};
use longcat::{GraphAnalysis, LongcatLevel, RandomGenerator, DEFAULT_BUDGET};
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
        "{name:<58} median {:>10.3} µs  (min {:.3} µs, {runs} runs)",
        median.as_secs_f64() * 1e6,
        samples[0].as_secs_f64() * 1e6
    );
    median
}

/// The level at a given percentile of graph size among `levels`.
fn at_percentile(levels: &[LongcatLevel], percentile: usize) -> (LongcatLevel, usize) {
    let mut sized: Vec<(usize, &LongcatLevel)> = levels
        .iter()
        .map(|l| {
            (
                GraphAnalysis::of(l, DEFAULT_BUDGET)
                    .map(|a| a.graph.len())
                    .unwrap_or(0),
                l,
            )
        })
        .collect();
    sized.sort_by_key(|s| s.0);
    let (n, l) = sized[(sized.len() - 1) * percentile / 100];
    (l.clone(), n)
}

fn bench_level(label: &str, level: &LongcatLevel, states: usize) {
    let a = GraphAnalysis::of(level, DEFAULT_BUDGET).expect("within budget");
    println!(
        "{label}: {states} states, difficulty {:?}\n{level:?}",
        a.difficulty
    );
    time(&format!("analyse {label} ({states} states)"), 2000, || {
        black_box(GraphAnalysis::of(black_box(level), DEFAULT_BUDGET).unwrap());
    });
}

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[longcat::plugin]);
    let solution_down: Vec<LongcatLevel> = (0..1000)
        .map(|i| solution_down(8, 8, &mut Rng::derive(1, i)).unwrap())
        .collect();
    let puzzle_up: Vec<LongcatLevel> = (0..3000)
        .flat_map(|i| puzzle_up(8, 8, &mut Rng::derive(1, i)).unwrap())
        .collect();
    for (label, levels) in [
        ("solution-down 8x8", &solution_down),
        ("puzzle-up 8x8", &puzzle_up),
    ] {
        for p in [50, 90, 99] {
            let (level, states) = at_percentile(levels, p);
            bench_level(&format!("{label} p{p}"), &level, states);
        }
    }
    let config = EvalConfig {
        generator: RandomGenerator::SolutionDown,
        width: 8,
        height: 8,
        attempts: 20_000,
        seed: 0,
        budget: DEFAULT_BUDGET,
    };
    let mut runs: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            black_box(evaluate(&config).unwrap());
            t.elapsed().as_secs_f64()
        })
        .collect();
    runs.sort_by(f64::total_cmp);
    println!(
        "{:<58} median {:>10.3} s   (min {:.3} s, 5 runs, {} threads)",
        "eval solution-down 8x8, 20,000 attempts",
        runs[2],
        runs[0],
        rayon::current_num_threads()
    );
}
