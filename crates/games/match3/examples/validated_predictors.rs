//! Diagnostic: could validated generation pick the levels that keep the ±2-move promise on
//! one 30-game re-validation? For each sweep condition (moved as `eval --validated` moves
//! them) it asks for COUNT levels, and for each accepted level prints
//! - `p40`: how often a 30-game validation lands valid and within ±2 of the target, over bot
//!   seeds 5000–5039 (the level's real chance);
//! - `b120`: the same chance estimated from 120 *independent* games (bot seed 9000) by
//!   resampling 30 of them 2,000 times, the best a level's own games can predict it;
//! - the 120-game median and standard deviation.
//!
//! Then, for thresholds on `b120`, what keeping only the levels above them would give: their
//! mean `p40` and how many conditions would keep a level. An upper bound for any acceptance
//! rule built on a level's games, since the acceptance's own games also selected the level.
//! `cargo run --release --example validated_predictors [-- SEED [COUNT]]` (0 and 4 by
//! default; about 25 s a seed on 2 cores).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::cvae::sweep::sweep_conditions;
use match3::cvae::validated::{sweep_ask, SweepAsk};
use match3::cvae::{generate_validated, CvaeModel, ValidatedRequest};
use match3::validate::median;
use match3::{validate, ValidationConfig};
use std::collections::BTreeMap;
use studio_core::rng::Rng;

/// The chance that the median of `n` games drawn from `moves` is valid and within ±2 of `t`.
fn resampled_chance(moves: &[u32], t: f64, n: usize, rng: &mut Rng) -> f64 {
    const REPEATS: usize = 2000;
    let mut sample = vec![0u32; n];
    let hits = (0..REPEATS)
        .filter(|_| {
            for x in sample.iter_mut() {
                *x = moves[(rng.next_u64() % moves.len() as u64) as usize];
            }
            let m = median(&sample);
            m <= 20.0 && (m - t).abs() <= 2.0
        })
        .count();
    hits as f64 / REPEATS as f64
}

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    let arg = |i: usize| std::env::args().nth(i);
    let seed: u64 = arg(1).map_or(0, |s| s.parse().unwrap());
    let count: usize = arg(2).map_or(4, |s| s.parse().unwrap());
    let g = CvaeModel::load("models/avalon-main.safetensors".as_ref()).unwrap();
    let mut rng = Rng::new(7);
    // (condition index, p40, b120) of every accepted level.
    let mut levels: Vec<(usize, f64, f64)> = Vec::new();
    let mut asked = 0;
    for (i, c) in sweep_conditions(Some(g.sidecar().moves.min), seed)
        .into_iter()
        .enumerate()
    {
        let ask = sweep_ask(&g, c, |c| {
            ValidatedRequest::new(c, count, seed.wrapping_add(i as u64 * 7919))
        });
        let Ok(SweepAsk::Ask { request: r, .. }) = ask else {
            continue;
        };
        asked += 1;
        let c = r.condition;
        let t = c.moves.unwrap();
        let report = generate_validated(&g, &r, None).unwrap();
        for a in &report.accepted {
            let p40 = (0..40u64)
                .filter(|k| {
                    let config = ValidationConfig {
                        seed: 5000 + k,
                        ..Default::default()
                    };
                    let v = validate(&a.layout, &config).unwrap();
                    v.valid && (v.median_moves - t).abs() <= 2.0
                })
                .count() as f64
                / 40.0;
            let config = ValidationConfig {
                seed: 9000,
                games: 120,
                ..Default::default()
            };
            let v = validate(&a.layout, &config).unwrap();
            let b120 = resampled_chance(&v.moves, t, 30, &mut rng);
            println!(
                "{}x{} {:?} t={t:.2} p40={p40:.3} b120={b120:.3} median120={:.1} sd120={:.1}",
                c.width, c.height, c.symmetry, v.median_moves, v.std_moves
            );
            levels.push((i, p40, b120));
        }
    }
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    for threshold in [0.0, 0.8, 0.9, 0.95] {
        let kept: Vec<&(usize, f64, f64)> = levels.iter().filter(|l| l.2 >= threshold).collect();
        let mut first: BTreeMap<usize, f64> = BTreeMap::new();
        for l in &kept {
            first.entry(l.0).or_insert(l.1);
        }
        println!(
            "b120 ≥ {threshold:.2}: {} of {} levels kept, mean p40 {:.1} %; {} of {asked} conditions keep one (its p40: {:.1} %)",
            kept.len(),
            levels.len(),
            100.0 * mean(&kept.iter().map(|l| l.1).collect::<Vec<_>>()),
            first.len(),
            100.0 * mean(&first.values().copied().collect::<Vec<_>>()),
        );
    }
}
