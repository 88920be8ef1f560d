//! A level VAE's validated generation, measured (issue 64's Longcat target: `--validate`
//! delivers a solvable, new level in ≤ 50 ms on average): for each seed and cell temperature,
//! the wall time per level kept by the game's own verdict (`--validate`), and per level of a
//! plain run (for Longcat every one solvable: the walk decoding), through the generation
//! service that `generate` and the window use.
//!
//! `cargo bench --bench level_vae_validate -- MODEL.safetensors [COUNT] [SEEDS]`
//! (docs/level-vae.md says how the model is made; COUNT 100, SEEDS 0,1,2 by default).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use level_studio::game::{ConditionValue, Conditions, GenRequest, ModelCache};
use level_studio::jobs::Cancel;
use level_studio::ml::level_vae;
use std::path::Path;
use std::time::Instant;

/// Runs one request; answers (levels kept, attempts, seconds).
fn timed(generator: &level_vae::LevelVaeGenerator, request: &GenRequest) -> (usize, usize, f64) {
    let models = ModelCache::default();
    let started = Instant::now();
    let summary = level_studio::generation::run(
        request,
        &models,
        &Cancel::default(),
        &mut |_, _| {},
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("{}: {e}", generator.path().display()));
    (
        summary.sent,
        summary.attempts,
        started.elapsed().as_secs_f64(),
    )
}

fn main() {
    level_studio::install_games();
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let Some(model) = args.first() else {
        eprintln!(
            "usage: cargo bench --bench level_vae_validate -- MODEL.safetensors [COUNT] [SEEDS]"
        );
        return;
    };
    let count: usize = args.get(1).map_or(100, |c| c.parse().expect("COUNT"));
    let seeds: Vec<u64> = args.get(2).map_or(vec![0, 1, 2], |s| {
        s.split(',').map(|x| x.parse().expect("SEEDS")).collect()
    });
    let generator = level_vae::register(Path::new(model)).expect("the model loads");
    let game = level_vae::game_of(generator.sidecar()).expect("its game");
    use level_studio::game::LevelGenerator;
    for validated_only in [true, false] {
        for temperature in [0.0, 1.0] {
            let mut all = Vec::new();
            for &seed in &seeds {
                let mut conditions = Conditions::defaults(&generator.conditions());
                conditions.set("temperature", ConditionValue::Float(temperature));
                let request = GenRequest {
                    game: game.id(),
                    generator: generator.id(),
                    conditions,
                    count,
                    seed,
                    validated_only,
                    weights: None,
                };
                let (kept, attempts, seconds) = timed(&generator, &request);
                println!(
                    "{} T {temperature}, seed {seed}: {kept} levels from {attempts} attempts in \
                     {seconds:.2} s: {:.1} ms a level",
                    if validated_only {
                        "validated"
                    } else {
                        "plain    "
                    },
                    seconds * 1000.0 / kept.max(1) as f64
                );
                all.push(seconds * 1000.0 / kept.max(1) as f64);
            }
            println!(
                "  mean over seeds: {:.1} ms a level",
                all.iter().sum::<f64>() / all.len() as f64
            );
        }
    }
}
