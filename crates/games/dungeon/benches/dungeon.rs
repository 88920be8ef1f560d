//! Benchmark: the skeleton graph of a 13×9 dungeon room with three monsters (a GVGAI Zelda
//! level's size), and its validation (30 seeded games by every agent). Run with
//! `cargo bench --bench dungeon`. Targets (issue 14): ≤ 0.2 ms and ≤ 50 ms medians.

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use dungeon::agents::{evaluate, AgentKind};
use dungeon::skeleton::{skeleton, DEFAULT_BUDGET};
use dungeon::Room;
use dungeon::TICK_LIMIT;
use std::hint::black_box;
use std::time::Instant;

const ROOM: &str = "\
wwwwwwwwwwwww
wA.......w..w
w..w........w
w...w...w.+ww
www.w2..wwwww
w.......w.g.w
w.w.....w...w
w1....3.....w
wwwwwwwwwwwww
";

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[dungeon::plugin]);
    let room = Room::parse_ascii(ROOM).unwrap();
    let graph = skeleton(&room, DEFAULT_BUDGET).unwrap();
    println!(
        "13x9 room, 3 monsters: {} positions, shortest solution {:?} moves",
        graph.len(),
        graph.shortest_solution().map(|s| s.len())
    );
    median("skeleton graph 13x9", 200, || {
        black_box(skeleton(black_box(&room), DEFAULT_BUDGET).unwrap());
    });
    for agent in AgentKind::ALL {
        let s = evaluate(&room, agent, 30, 0, TICK_LIMIT);
        println!(
            "  {:<11} win rate {:.2}  mean ticks {:>6.1}  mean score {:>5.2}{}",
            agent.name(),
            s.win_rate,
            s.mean_ticks,
            s.mean_score,
            s.mean_virtual_damage
                .map_or(String::new(), |d| format!("  virtual damage {d:.2}"))
        );
    }
    median("validation 13x9 (30 games x 6 agents)", 10, || {
        for agent in AgentKind::ALL {
            black_box(evaluate(black_box(&room), agent, 30, 0, TICK_LIMIT));
        }
    });
}

fn median(name: &str, runs: usize, mut f: impl FnMut()) {
    let mut samples: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    println!(
        "{name:<40} median {:>8.4} ms  (min {:.4} ms, {runs} runs)",
        samples[runs / 2],
        samples[0]
    );
}
