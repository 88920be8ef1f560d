//! Diagnostic: every level validated generation accepts over the sweep conditions (moved as
//! `eval --validated` moves them), with its re-validation (bot seed `seed + 1000`), its
//! chance of landing within ±2 moves over 40 other bot seeds, and its median over 600 games.
//! At the end, the same levels' share within ±2 under each of those 40 bot seeds: how much
//! one re-validation's bot seed moves the whole sweep's figure.
//! `cargo run --release --example validated_misses [-- SEED [BUDGET [LIMIT_MARGIN]]]`
//! (budget 256 by default, as `eval --validated`)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::cvae::sweep::sweep_conditions;
use match3::cvae::validated::{default_budget, sweep_ask, SweepAsk};
use match3::cvae::{generate_validated, CvaeModel, ValidatedRequest};
use match3::{validate, ValidationConfig};

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    let arg = |i: usize| std::env::args().nth(i);
    let seed: u64 = arg(1).map_or(0, |s| s.parse().unwrap());
    let budget: usize = arg(2).map_or(default_budget(1), |s| s.parse().unwrap());
    let limit_margin: f64 = arg(3).map_or(1.5, |s| s.parse().unwrap());
    // Per bot seed 5000 + k: levels within ±2, levels re-validated.
    let mut per_seed = [0usize; 40];
    let mut levels = 0usize;
    let g = CvaeModel::load("models/avalon-main.safetensors".as_ref()).unwrap();
    for (i, c) in sweep_conditions(Some(g.sidecar().moves.min), seed)
        .into_iter()
        .enumerate()
    {
        let ask = sweep_ask(&g, c, |c| ValidatedRequest {
            budget,
            limit_margin,
            ..ValidatedRequest::new(c, 1, seed.wrapping_add(i as u64 * 7919))
        });
        let Ok(SweepAsk::Ask { request: r, .. }) = ask else {
            continue;
        };
        let c = r.condition;
        let Ok(report) = generate_validated(&g, &r, None) else {
            println!(
                "{}x{} {:?} t={:.2} beyond",
                c.width,
                c.height,
                c.symmetry,
                c.moves.unwrap()
            );
            continue;
        };
        let t = c.moves.unwrap();
        let Some(a) = report.accepted.first() else {
            println!(
                "{}x{} {:?} t={:.2} MISSED",
                c.width, c.height, c.symmetry, t
            );
            continue;
        };
        let ok = |s: u64| {
            validate(
                &a.layout,
                &ValidationConfig {
                    seed: s,
                    ..Default::default()
                },
            )
            .ok()
            .filter(|v| v.valid && (v.median_moves - t).abs() <= 2.0)
            .map(|v| v.median_moves)
        };
        let reval = ok(seed + 1000);
        if reval.is_none() {
            let v = validate(
                &a.layout,
                &ValidationConfig {
                    seed: seed + 1000,
                    ..Default::default()
                },
            );
            println!(
                "   reval {:?}",
                v.map(|v| (v.valid, v.median_moves, v.solved))
            );
        }
        let hit: Vec<bool> = (0..40).map(|k| ok(5000 + k).is_some()).collect();
        for (tally, h) in per_seed.iter_mut().zip(&hit) {
            *tally += usize::from(*h);
        }
        levels += 1;
        let hits = hit.iter().filter(|h| **h).count();
        let big = validate(
            &a.layout,
            &ValidationConfig {
                seed: 777,
                games: 600,
                ..Default::default()
            },
        )
        .unwrap();
        println!(
            "{}x{} {:?} t={:.2} first={:.1} sd={:.1} reval={} p={:.2} true600={:.1} {}",
            c.width,
            c.height,
            c.symmetry,
            t,
            a.validation.median_moves,
            a.validation.std_moves,
            reval.map_or("MISS".to_string(), |m| format!("{m:.1}")),
            hits as f64 / 40.0,
            big.median_moves,
            if reval.is_none() { "<<<" } else { "" }
        );
    }
    let mut shares: Vec<f64> = per_seed
        .iter()
        .map(|&h| 100.0 * h as f64 / levels.max(1) as f64)
        .collect();
    shares.sort_by(f64::total_cmp);
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    println!(
        "within ±2 on one 30-game re-validation, {levels} levels, over 40 bot seeds: least {:.1} %, lower quartile {:.1} %, mean {mean:.1} %, upper quartile {:.1} %, most {:.1} %; {} of 40 seeds at 95 % or more",
        shares[0],
        shares[10],
        shares[30],
        shares[39],
        shares.iter().filter(|&&x| x >= 95.0).count()
    );
}
