//! How good can a level steered through the shipped CGAN get? Two ceilings for the TD3
//! actors (issue 44, item 6), measured with the calibrated human-like agent:
//!
//! - **constant z**: an "actor" that outputs the same z at every step, for every z of a
//!   grid over [0, 1]³, each on the same starts as `eval --model td3` (a real context and two
//!   random patterns, then eight patterns from z); the three best are judged again on 50
//!   fresh starts of seeds 1 and 2;
//! - **best of K**: K levels of random z after each start, the best by its evaluation kept,
//!   then judged again with trials it was not chosen on (so the choice's luck does not count).
//!
//! `cargo run --release -p mario --example z_ceiling -- [GRID] [LEVELS] [K]` (defaults 4, 8,
//! 16), from the repository root (models/ and ../shared/data/vglc); `ZS="a,b,c;…"` judges
//! only those z on the fresh starts.

use mario::evaluate::{evaluate, DEFAULT_TRIALS};
use mario::generators::load_cgan_model;
use mario::patterns::PatLegal;
use mario::td3::{Build, MarioRl, RANDOM_START};
use rayon::prelude::*;
use studio_core::jobs::Cancel;
use studio_core::rng::Rng;
use studio_ml::rl::{randomize, Sequential};

fn score(build: &Build, seed: u64) -> (f64, f64) {
    let Ok(level) = build.level() else {
        return (0.0, 0.0);
    };
    match evaluate(&level, seed, DEFAULT_TRIALS, &Cancel::default()) {
        Ok(e) => (e.evaluation(), e.total_damage()),
        Err(_) => (0.0, 0.0),
    }
}

fn starts(gen: &MarioRl<'_>, seed: u64, count: usize) -> Vec<(Build, Rng)> {
    (0..count as u64)
        .map(|i| {
            let mut rng = Rng::derive(seed, i);
            let mut b = Build::start(gen.pat, &mut rng);
            randomize(gen, &mut b, RANDOM_START, &mut rng);
            (b, rng)
        })
        .collect()
}

/// Mean evaluation and total damage of the levels `z` makes at every step after `starts`.
fn constant(gen: &MarioRl<'_>, starts: &[(Build, Rng)], z: &[f64; 3]) -> (f64, f64) {
    let scores: Vec<(f64, f64)> = starts
        .par_iter()
        .map(|(b, _)| {
            let mut b = b.clone();
            while !gen.done(&b) {
                gen.apply(&mut b, z);
            }
            score(&b, b.eval_seed)
        })
        .collect();
    let n = scores.len().max(1) as f64;
    (
        scores.iter().map(|s| s.0).sum::<f64>() / n,
        scores.iter().map(|s| s.1).sum::<f64>() / n,
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().map_err(|e| format!("{a}: {e}")))
        .collect::<Result<_, _>>()?;
    let grid = args.first().copied().unwrap_or(4).max(2);
    let levels = args.get(1).copied().unwrap_or(8).max(1);
    let k = args.get(2).copied().unwrap_or(16).max(1);
    let cgan = load_cgan_model(std::path::Path::new("models/mario-cgan.safetensors"))?;
    let pat = PatLegal::default_set()?;
    let gen = MarioRl {
        cgan: &cgan.generator,
        pat: &pat,
        actor: None,
        critic: None,
        length: mario::patterns::LEVEL_PATTERNS,
    };
    let tuning = starts(&gen, 0, levels);

    let axis: Vec<f64> = (0..grid).map(|i| i as f64 / (grid - 1) as f64).collect();
    let mut zs = Vec::new();
    for &a in &axis {
        for &b in &axis {
            for &c in &axis {
                zs.push([a, b, c]);
            }
        }
    }
    // `ZS="a,b,c;d,e,f"` judges those z on the fresh starts only, without the grid.
    if let Ok(list) = std::env::var("ZS") {
        zs = list
            .split(';')
            .map(|t| {
                let v: Vec<f64> = t.split(',').filter_map(|x| x.trim().parse().ok()).collect();
                [
                    v.first().copied().unwrap_or(0.0),
                    v.get(1).copied().unwrap_or(0.0),
                    v.get(2).copied().unwrap_or(0.0),
                ]
            })
            .collect();
        for seed in [1, 2] {
            let fresh = starts(&gen, seed, 50);
            for z in &zs {
                let (e, d) = constant(&gen, &fresh, z);
                println!(
                    "  z = ({:.2}, {:.2}, {:.2}) on 50 fresh starts (seed {seed}): evaluation {e:.3}, total damage {d:.2}",
                    z[0], z[1], z[2]
                );
            }
        }
        return Ok(());
    }
    let mut rows: Vec<([f64; 3], f64, f64)> = zs
        .par_iter()
        .map(|z| {
            let (e, d) = constant(&gen, &tuning, z);
            (*z, e, d)
        })
        .collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("constant z, {grid}^3 grid, {levels} starts: best ten");
    for (z, e, d) in rows.iter().take(10) {
        println!(
            "  z = ({:.2}, {:.2}, {:.2}): evaluation {e:.3}, total damage {d:.2}",
            z[0], z[1], z[2]
        );
    }
    let mean_all = rows.iter().map(|r| r.1).sum::<f64>() / rows.len() as f64;
    println!("  mean over the grid {mean_all:.3}");

    for seed in [1, 2] {
        let fresh = starts(&gen, seed, 50);
        for (z, _, _) in rows.iter().take(3) {
            let (e, d) = constant(&gen, &fresh, z);
            println!(
                "  z = ({:.2}, {:.2}, {:.2}) on 50 fresh starts (seed {seed}): evaluation {e:.3}, total damage {d:.2}",
                z[0], z[1], z[2]
            );
        }
    }

    let best: Vec<(f64, f64, f64)> = tuning
        .par_iter()
        .map(|(start, rng)| {
            let mut rng = rng.clone();
            let mut best = (f64::NEG_INFINITY, start.clone());
            let mut sum = 0.0;
            for _ in 0..k {
                let mut b = start.clone();
                randomize(&gen, &mut b, gen.length, &mut rng);
                let (e, _) = score(&b, b.eval_seed);
                sum += e;
                if e > best.0 {
                    best = (e, b);
                }
            }
            let (again, dmg) = score(&best.1, best.1.eval_seed ^ 0x005e_ed0f_a6a1);
            (sum / k as f64, again, dmg)
        })
        .collect();
    let n = best.len() as f64;
    println!(
        "best of {k} random-z levels, {levels} starts: mean of all {:.3}; the chosen one judged again {:.3} (total damage {:.2})",
        best.iter().map(|b| b.0).sum::<f64>() / n,
        best.iter().map(|b| b.1).sum::<f64>() / n,
        best.iter().map(|b| b.2).sum::<f64>() / n,
    );
    Ok(())
}
