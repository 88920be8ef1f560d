//! Benchmark of the DQN environment and network: `cargo bench --bench longcat_dqn`.

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use longcat::dqn::env::SolutionDownEnv;
use longcat::dqn::model::{DqnModel, SHIPPED_WEIGHTS};
use longcat::dqn::policy::{generate, Policy};
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;
use studio_core::rng::Rng;

fn per_item(name: &str, items: usize, f: impl FnOnce()) {
    let t = Instant::now();
    f();
    let us = t.elapsed().as_secs_f64() * 1e6 / items as f64;
    println!("{name:<52} {us:>10.2} µs per item ({items} items)");
}

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[longcat::plugin]);
    let mut rng = Rng::new(1);
    let episodes: Vec<SolutionDownEnv> = (0..2000)
        .map(|_| SolutionDownEnv::random_start(8, 8, &mut rng))
        .collect();
    let mut steps = 0;
    let t = Instant::now();
    for env in &episodes {
        let mut e = env.clone();
        let mut r = Rng::new(steps as u64);
        while !e.is_done() {
            let a = e.free_actions();
            e.advance(a[r.index(a.len())]);
            steps += 1;
        }
        black_box(&e);
    }
    println!(
        "{:<52} {:>10.3} µs per step ({steps} steps)",
        "env advance (random walk), 8x8",
        t.elapsed().as_secs_f64() * 1e6 / steps as f64
    );
    let mut rewarded = 0;
    let t = Instant::now();
    for env in episodes.iter().take(300) {
        let mut e = env.clone();
        let mut r = Rng::new(rewarded as u64);
        while !e.is_done() {
            let a = e.free_actions();
            black_box(e.step(a[r.index(a.len())]));
            rewarded += 1;
        }
    }
    println!(
        "{:<52} {:>10.3} µs per step ({rewarded} steps)",
        "env step with reward (two difficulty graphs), 8x8",
        t.elapsed().as_secs_f64() * 1e6 / rewarded as f64
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join(SHIPPED_WEIGHTS);
    match DqnModel::load(&path) {
        Ok(dqn) => {
            let envs: Vec<&SolutionDownEnv> = episodes.iter().take(1).collect();
            let t = Instant::now();
            for _ in 0..500 {
                black_box(dqn.net.q_values(&envs, &dqn.device).unwrap());
            }
            println!(
                "{:<52} {:>10.2} µs",
                "Q-network forward, batch 1",
                t.elapsed().as_secs_f64() * 1e6 / 500.0
            );
            let envs: Vec<&SolutionDownEnv> = episodes.iter().take(1024).collect();
            let t = Instant::now();
            for _ in 0..5 {
                black_box(dqn.net.q_values(&envs, &dqn.device).unwrap());
            }
            println!(
                "{:<52} {:>10.2} µs per state",
                "Q-network forward, batch 1024",
                t.elapsed().as_secs_f64() * 1e6 / 5.0 / 1024.0
            );
            per_item("generate 2,000 levels at T=0.3 (8x8)", 2000, || {
                black_box(generate(&dqn, Policy::Temperature(0.3), 2000, 0).unwrap());
            });
        }
        Err(e) => println!("skipping network benches: {e}"),
    }
}
