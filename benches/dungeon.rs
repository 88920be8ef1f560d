//! Benchmark: the skeleton graph of a 13×9 dungeon room with three monsters (a GVGAI Zelda
//! level's size). Run with `cargo bench --bench dungeon`. Target (issue 14): ≤ 0.2 ms median.

// Benchmarks fail loudly on purpose: a bench that cannot set up should stop, not limp on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use level_studio::dungeon::skeleton::{skeleton, DEFAULT_BUDGET};
use level_studio::dungeon::Room;
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
    let room = Room::parse_ascii(ROOM).unwrap();
    let graph = skeleton(&room, DEFAULT_BUDGET).unwrap();
    println!(
        "13x9 room, 3 monsters: {} positions, shortest solution {:?} moves",
        graph.len(),
        graph.shortest_solution().map(|s| s.len())
    );
    let runs = 200;
    let mut samples: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(skeleton(black_box(&room), DEFAULT_BUDGET).unwrap());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    println!(
        "{:<40} median {:>8.4} ms  (min {:.4} ms, {runs} runs)",
        "skeleton graph 13x9",
        samples[runs / 2],
        samples[0]
    );
}
