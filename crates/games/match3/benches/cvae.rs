//! Benchmark: cVAE level generation on the CPU, one level at a time and in a batch of 144
//! (the sweep's conditions), and validated generation of one level. Run with `cargo bench --bench cvae` (needs the shipped weights).

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::cvae::sweep::sweep_conditions;
use match3::cvae::{Condition, CvaeModel, Decoding};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};
use studio_core::symmetry::Symmetry;

fn time<F: FnMut()>(name: &str, runs: usize, per: usize, mut f: F) -> Duration {
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
        "{name:<64} median {:>8.4} ms per level  (min {:.4} ms, {runs} runs)",
        median.as_secs_f64() * 1e3 / per as f64,
        samples[0].as_secs_f64() * 1e3 / per as f64
    );
    median
}

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    for name in ["avalon-main", "vanilla-main"] {
        let path = format!("models/{name}.safetensors");
        let generator = match CvaeModel::load(Path::new(&path)) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("skipping {name}: {e}");
                continue;
            }
        };
        let moves = generator.kind().uses_moves().then_some(15.0);
        let one = [Condition::new(7, 9, Symmetry::Vertical, moves)];
        let sweep = sweep_conditions(
            generator
                .kind()
                .uses_moves()
                .then_some(generator.sidecar().moves.min),
            0,
        );
        for (novel, label) in [(false, "decoder"), (true, "as shipped, copies made novel")] {
            let mut seed = 0;
            time(
                &format!("{name} ({label}): one level at a time"),
                2000,
                1,
                || {
                    seed += 1;
                    black_box(generator.generate_each_with(&one, seed, novel).unwrap());
                },
            );
            time(
                &format!("{name} ({label}): batch of {}", sweep.len()),
                200,
                sweep.len(),
                || {
                    seed += 1;
                    black_box(generator.generate_each_with(&sweep, seed, novel).unwrap());
                },
            );
        }
        let mut seed = 0;
        time(
            &format!("{name} (default: fresh, 3 cells): batch of {}", sweep.len()),
            50,
            sweep.len(),
            || {
                seed += 1;
                black_box(
                    generator
                        .generate_each_decoded(&sweep, seed, Decoding::DEFAULT)
                        .unwrap(),
                );
            },
        );
        validated(&generator, name, moves, Decoding::DEFAULT, "fresh");
        validated(&generator, name, moves, Decoding::Novel, "--fresh 0");
    }
}

/// Validated generation of one level at 9×10 vertical (16 moves for Avalon), a fresh pool
/// each time, proposals decoded as `decoding` says: the wall-clock cost per accepted level
/// (the bots' early-stopped games included).
fn validated(generator: &CvaeModel, name: &str, moves: Option<f64>, decoding: Decoding, how: &str) {
    use match3::cvae::{generate_validated, ValidatedRequest};
    let condition = Condition::new(9, 10, Symmetry::Vertical, moves.map(|_| 16.0));
    let (mut accepted, mut seconds) = (0usize, 0.0f64);
    for seed in 0..40 {
        let request = ValidatedRequest {
            decoding,
            ..ValidatedRequest::new(condition, 1, seed)
        };
        let r = generate_validated(generator, &request, None).unwrap();
        accepted += r.accepted.len();
        seconds += r.seconds;
    }
    println!(
        "{:<64} {:>8.1} ms per accepted level  ({accepted} of 40 requests fulfilled)",
        format!("{name}: validated ({how}), one level at 9x10 vertical"),
        seconds * 1e3 / accepted.max(1) as f64
    );
}
