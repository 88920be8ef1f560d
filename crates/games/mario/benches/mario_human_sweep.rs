//! Calibration sweep of the human-like agent against the thesis's Table 6.2 (issue 44, item
//! 3): for each set of knobs ([`HumanParams`]) the eight VGLC levels both have are played with
//! 10 trials each, for seeds 0 and 1, seeded as `eval --game mario --table62` seeds them, and
//! the set is scored by the targets: each indicator's mean over the 8 levels within
//! ±25 % of the thesis's mean, and enemy and hole damage per level within max(the thesis's sd,
//! 25 % of its mean) on at least 6 of the 8. Prints one line per set, best first.
//!
//! Run: `cargo bench -p mario --bench mario_human_sweep` (a few minutes on 2 cores; needs
//! the VGLC levels beside the repository, `../shared/data/vglc`, or `$VGLC_DIR`).

// Benchmarks fail loudly on purpose: a sweep that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use mario::agents::human::{self, HumanParams};
use mario::cli::TABLE_6_2;
use mario::engine::LevelMap;
use mario::formats::{read_vglc, vglc_level_text};
use std::sync::Arc;
use studio_core::rng::Rng;

const TRIALS: u32 = 10;
const SEEDS: [u64; 2] = [0, 1];

/// Per level: the four indicators' means (jumps, enemy, hole, long presses).
fn play(maps: &[Arc<LevelMap>], params: HumanParams, seed: u64) -> Vec<[f64; 4]> {
    maps.iter()
        .map(|map| {
            let mut sum = [0.0; 4];
            for t in 0..TRIALS {
                let trial_seed = Rng::derive(seed, u64::from(t)).next_u64();
                let tr = human::trial_with(map, trial_seed, human::max_ticks(map), params);
                sum[0] += f64::from(tr.jumps);
                sum[1] += f64::from(tr.enemy_damage);
                sum[2] += f64::from(tr.hole_damage);
                sum[3] += f64::from(tr.long_presses);
            }
            sum.map(|s| s / f64::from(TRIALS))
        })
        .collect()
}

fn main() {
    // From the repository root, as the binary runs (the VGLC folder is beside it).
    std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../..")).unwrap();
    let maps: Vec<Arc<LevelMap>> = TABLE_6_2
        .iter()
        .map(|(name, _)| {
            let text = vglc_level_text(name).expect("the VGLC levels (set VGLC_DIR)");
            Arc::new(LevelMap::from_level(&read_vglc(&text).unwrap()))
        })
        .collect();
    let thesis_mean: Vec<f64> = (0..4)
        .map(|i| TABLE_6_2.iter().map(|(_, t)| t[i].0).sum::<f64>() / 8.0)
        .collect();
    // The last round (the others are in docs/mario.md, "Calibration sweep"), which gave the
    // default: a search every 2 ticks (our A* changed its action too rarely for the thesis's
    // long presses at every 4), slips drawn at every tick, long presses as the thesis has
    // them (30 %, two a pattern, at every change of A*'s action), and the jump reward from
    // the thesis's mapping (0.25) up to 1.0 (above that Mario hovers for the reward).
    let sets: Vec<HumanParams> = [0.25f32, 0.5, 0.75, 1.0]
        .into_iter()
        .map(|jump_reward| HumanParams {
            jump_reward,
            long_press_any_change: true,
            draw_every_tick: true,
            slip_window: 30,
            reaction_ticks: 3,
            recovery_budget: 30,
            long_press_chance: 0.3,
            max_long_presses_per_pattern: 2,
            replan_every: 2,
            ..HumanParams::default()
        })
        .collect();
    println!(
        "thesis means over the 8 levels: jumps {:.1}, enemy {:.2}, hole {:.2}, long presses {:.1}",
        thesis_mean[0], thesis_mean[1], thesis_mean[2], thesis_mean[3]
    );
    let mut lines = Vec::new();
    for params in sets {
        let mut worst: f64 = 0.0;
        let mut means = [0.0; 4];
        let mut within = usize::MAX;
        for seed in SEEDS {
            let rows = play(&maps, params, seed);
            for i in 0..4 {
                let m = rows.iter().map(|r| r[i]).sum::<f64>() / 8.0;
                means[i] += m / SEEDS.len() as f64;
                worst = worst.max((m / thesis_mean[i] - 1.0).abs());
            }
            for i in [1, 2] {
                let ok = rows
                    .iter()
                    .zip(TABLE_6_2.iter())
                    .filter(|(r, (_, t))| (r[i] - t[i].0).abs() <= t[i].1.max(0.25 * t[i].0))
                    .count();
                within = within.min(ok);
            }
        }
        lines.push((
            worst,
            format!(
                "worst mean off by {:>5.0} %  damage levels within {within}/8  | jumps {:>5.1} \
                 enemy {:>4.2} hole {:>4.2} presses {:>5.1} | {params:?}",
                worst * 100.0,
                means[0],
                means[1],
                means[2],
                means[3]
            ),
            params,
        ));
        eprintln!("{}", lines.last().unwrap().1);
    }
    lines.sort_by(|a, b| a.0.total_cmp(&b.0));
    println!("best first:");
    for (_, line, _) in &lines {
        println!("{line}");
    }
    // The best set level by level (seed 0) beside the thesis, to see where it differs.
    if let Some((_, _, best)) = lines.first() {
        println!("the best set, seed 0, per level: ours [thesis]");
        for (row, (name, t)) in play(&maps, *best, 0).iter().zip(TABLE_6_2.iter()) {
            println!(
                "{name:<5} jumps {:>5.1} [{:>4.1}]  enemy {:>4.1} [{:>3.1}]  hole {:>4.1} [{:>3.1}]  \
                 presses {:>5.1} [{:>4.1}]",
                row[0], t[0].0, row[1], t[1].0, row[2], t[2].0, row[3], t[3].0
            );
        }
    }
}
