//! How far difficulty accuracy can go on this data: over the evaluation sweeps of seeds
//! 0..4, (a) the share of conditions for which some training level of the requested size
//! took within 3 moves of the request, and (b) the accuracy of an oracle that generates K
//! levels per condition (as shipped) and keeps one the bots say hits the request.
//!
//! `cargo run --release --example cvae_ceiling [-- models/avalon-main.safetensors]`

// Examples fail loudly on purpose: they are probes, and a panic names what went wrong.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::cvae::sweep::{sweep_conditions, validate_all};
use match3::cvae::{Condition, CvaeModel, TrainingSet};
use match3::ValidationConfig;

const SEEDS: u64 = 4;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    let weights = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "models/avalon-main.safetensors".into());
    let generator = CvaeModel::load(weights.as_ref())?;
    let train = TrainingSet::load(generator.sidecar().training.data.as_ref())?;
    let min = generator.sidecar().moves.min;
    let (mut near, mut total) = (0, 0);
    for seed in 0..SEEDS {
        for c in sweep_conditions(Some(min), seed) {
            let want = c.moves.unwrap_or(min);
            total += 1;
            near += usize::from(train.samples.iter().any(|s| {
                (s.width, s.height) == (c.width, c.height) && (s.moves - want).abs() <= 3.0
            }));
        }
    }
    println!(
        "conditions with a training level of that size within 3 moves: {:.1} %",
        100.0 * near as f64 / total as f64
    );
    for k in [1usize, 2, 4, 8] {
        let mut hits = 0;
        for seed in 0..SEEDS {
            let conditions = sweep_conditions(Some(min), seed);
            let many: Vec<Condition> = conditions
                .iter()
                .flat_map(|c| std::iter::repeat_n(*c, k))
                .collect();
            let layouts = generator.generate_each(&many, seed)?;
            let config = ValidationConfig {
                seed,
                ..Default::default()
            };
            let validations = validate_all(&layouts, &config);
            for (c, group) in conditions.iter().zip(validations.chunks(k)) {
                let want = c.moves.unwrap_or(min);
                hits += usize::from(
                    group
                        .iter()
                        .flatten()
                        .any(|v| (v.median_moves - want).abs() <= v.std_moves),
                );
            }
        }
        println!(
            "best of {k} by the bots (oracle): difficulty accuracy {:.1} %",
            100.0 * hits as f64 / total as f64
        );
    }
    Ok(())
}
