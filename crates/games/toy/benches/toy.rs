//! How long the toy's analysis takes on a full 6 × 6 level with 12 crates (a state graph of
//! 4,096 positions): `cargo bench -p toy`. What a game's bench looks like: a release build,
//! a fixed input, a median of repeated runs, one line of output.

use std::time::Instant;
use toy::toy_level;

fn main() {
    let rows: Vec<String> = (0..6)
        .map(|y| {
            (0..6)
                .map(|x| if (x + y) % 3 == 0 { 'x' } else { 'o' })
                .collect()
        })
        .collect();
    let level = toy_level("bench", rows);
    let mut times = Vec::new();
    for _ in 0..21 {
        let start = Instant::now();
        let analysis = toy::analysis::analyse_level(&level);
        times.push(start.elapsed().as_secs_f64() * 1e3);
        assert!(analysis.is_ok(), "the bench level analyses");
    }
    times.sort_by(f64::total_cmp);
    println!(
        "toy analysis, 6x6 with 12 crates: median {:.2} ms over {} runs",
        times[times.len() / 2],
        times.len()
    );
}
