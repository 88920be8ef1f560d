//! How often a level lands within ±2 moves of its *own* true difficulty on a fresh
//! validation: the floor under validated generation's "within ±2 on re-validation" figure,
//! whatever the generator. For every other training layout labelled at most 18.5 moves (what
//! validated generation may accept): its 600-game median (bot seed 777) is the target; then
//! 40 validations of 30 games and 40 of 120 games with other bot seeds, each counted when
//! valid and within ±2 of the target. `cargo run --release --example revalidation_floor`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::Match3Figures;
use match3::Match3Level;
use match3::{validate, ValidationConfig};
use rayon::prelude::*;
use studio_core::files::load_pack;

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    let pack = load_pack("levels/match3/main/train.ron".as_ref()).unwrap();
    let levels: Vec<_> = pack
        .levels
        .iter()
        .filter(|l| l.figures_of::<Match3Figures>().unwrap().median_moves <= 18.5)
        .step_by(2)
        .map(|l| l.layout().unwrap())
        .collect();
    let rows: Vec<Row> = levels
        .par_iter()
        .map(|l| {
            let truth = validate(
                l,
                &ValidationConfig {
                    games: 600,
                    seed: 777,
                    ..Default::default()
                },
            )
            .unwrap();
            let share = |games: u32| {
                (0..40u64)
                    .filter(|k| {
                        let c = ValidationConfig {
                            games,
                            seed: 9000 + k,
                            ..Default::default()
                        };
                        validate(l, &c).is_ok_and(|v| {
                            v.valid && (v.median_moves - truth.median_moves).abs() <= 2.0
                        })
                    })
                    .count() as f64
                    / 40.0
            };
            Row {
                spread: truth.std_moves,
                short: share(30),
                long: share(120),
            }
        })
        .collect();
    println!("{} training layouts", rows.len());
    report("all", &rows);
    for (lo, hi) in [(0.0, 3.5), (3.5, 4.0), (4.0, 4.5), (4.5, 99.0)] {
        let sub: Vec<Row> = rows
            .iter()
            .copied()
            .filter(|r| r.spread >= lo && r.spread < hi)
            .collect();
        report(&format!("games' std {lo}–{hi}"), &sub);
    }
}

/// One layout: its games' spread, and the shares of 30- and 120-game validations within ±2
/// of its true median.
#[derive(Clone, Copy)]
struct Row {
    spread: f64,
    short: f64,
    long: f64,
}

fn report(label: &str, rows: &[Row]) {
    if rows.is_empty() {
        return;
    }
    let n = rows.len() as f64;
    println!(
        "{label}: {} layouts, within ±2 on 30 games {:.3}, on 120 games {:.3}",
        rows.len(),
        rows.iter().map(|r| r.short).sum::<f64>() / n,
        rows.iter().map(|r| r.long).sum::<f64>() / n
    );
}
