//! Diagnostic: every level validated generation accepts over the sweep conditions (moved as
//! `eval --validated` moves them), with its re-validation (bot seed `seed + 1000`), its
//! chance of landing within ±2 moves over 40 other bot seeds, and its median over 600 games.
//! `cargo run --release --example validated_misses [-- SEED [BUDGET [LIMIT_MARGIN]]]`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use level_studio::match3::cvae::sidecar::Feasibility;
use level_studio::match3::cvae::sweep::sweep_conditions;
use level_studio::match3::cvae::{generate_validated, CvaeModel, ModelError, ValidatedRequest};
use level_studio::match3::{validate, ValidationConfig};

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let seed: u64 = arg(1).map_or(0, |s| s.parse().unwrap());
    let budget: usize = arg(2).map_or(64, |s| s.parse().unwrap());
    let limit_margin: f64 = arg(3).map_or(1.5, |s| s.parse().unwrap());
    let g = CvaeModel::load("models/avalon-main.safetensors".as_ref()).unwrap();
    for (i, mut c) in sweep_conditions(Some(g.sidecar().moves.min), seed)
        .into_iter()
        .enumerate()
    {
        if let Feasibility::Infeasible {
            nearest_same_size, ..
        } = g.feasibility(&c)
        {
            match nearest_same_size {
                Some(n) if n.moves.is_none_or(|m| m <= 20.0) => c = n,
                _ => continue,
            }
        }
        let mut r = ValidatedRequest {
            budget,
            limit_margin,
            ..ValidatedRequest::new(c, 1, seed.wrapping_add(i as u64 * 7919))
        };
        if let Err(ModelError::BeyondMargin { most, .. }) = r.check_promise(true) {
            r.condition.moves = Some(most);
        }
        match r.check_promise(true) {
            Err(ModelError::BelowEasiest { least: Some(l), .. }) => r.condition.moves = Some(l),
            Err(_) => continue,
            Ok(()) => {}
        }
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
        let hits = (0..40).filter(|k| ok(5000 + k).is_some()).count();
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
}
