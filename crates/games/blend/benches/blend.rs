//! Benchmark: 1,000 random blends decoded from each shipped VAE and judged by both agents
//! and the five tile metrics (issue 17's target: ≤ 10 s on 2 cores). Run with
//! `cargo bench --bench blend`; prints the median of 5 runs.

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use blend::eval::report;
use blend::vae::{random_blends, BlendModel};
use std::path::Path;
use std::time::Instant;

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[blend::plugin]);
    for name in ["vglc-fc", "cte-fc", "vglc-cnn", "cte-cnn"] {
        run(name);
    }
}

fn run(name: &str) {
    let model = BlendModel::load(Path::new(&format!("models/blend-{name}.safetensors"))).unwrap();
    let mut times = Vec::new();
    for seed in 0..5u64 {
        let t = Instant::now();
        let blends = random_blends(&model, 1_000, seed).unwrap();
        // The agents and metrics, against an empty reference (no E-distance).
        let r = report(&blends, &[]);
        times.push(t.elapsed().as_secs_f64());
        assert_eq!(r.count, 1_000);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{name}: 1000 random blends decoded and judged (both agents, 5 metrics): median {:.3} s (min {:.3}, max {:.3})",
        times[2], times[0], times[4]
    );
}
