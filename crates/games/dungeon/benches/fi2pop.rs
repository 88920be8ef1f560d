//! Benchmark: the FI2Pop pattern GA on 13×9 dungeon rooms (issue 15). Run with
//! `cargo bench --bench fi2pop`. Targets: a feasible α room in ≤ 10 s median (the run stops
//! at the end of the first generation that holds one), and 50 × 20 generations in ≤ 60 s.

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use dungeon::evolve::RoomEvolution;
use std::time::Instant;
use studio_core::evolve::pattern::Fitness;
use studio_core::evolve::{evolve, Settings};
use studio_core::jobs::Cancel;

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[dungeon::plugin]);
    let seeds = 0..9u64;
    for fitness in [Fitness::Alpha, Fitness::Beta] {
        let ga = RoomEvolution::new(13, 9, fitness);
        let mut first = Vec::new();
        let mut generations_to_first = Vec::new();
        for seed in seeds.clone() {
            let cancel = Cancel::default();
            let mut found = None;
            let t = Instant::now();
            let settings = Settings {
                seed,
                generations: 200,
                ..Settings::default()
            };
            evolve(&ga, &settings, &cancel, &mut |g| {
                if g.feasible > 0 && found.is_none() {
                    found = Some(g.generation);
                    cancel.cancel();
                }
            });
            first.push(t.elapsed().as_secs_f64() * 1e3);
            generations_to_first.push(found.expect("a feasible room within 200 generations"));
        }
        let mut full = Vec::new();
        let mut best = Vec::new();
        for seed in seeds.clone() {
            let settings = Settings {
                seed,
                ..Settings::default()
            };
            let t = Instant::now();
            let run = evolve(&ga, &settings, &Cancel::default(), &mut |_| {});
            full.push(t.elapsed().as_secs_f64() * 1e3);
            best.push(run.feasible.first().map_or(0.0, |i| i.evaluation.fitness()));
        }
        println!(
            "{} first feasible room: median {:>8.1} ms (generations {:?})",
            fitness.letter(),
            median(&mut first),
            generations_to_first
        );
        println!(
            "{} 50 x 20 generations:  median {:>8.1} ms (best feasible fitness median {:.3})",
            fitness.letter(),
            median(&mut full),
            median(&mut best)
        );
    }
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}
