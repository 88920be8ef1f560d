//! Human-like evaluation speed: one full evaluation (a plain A* playability run plus 10
//! human-like trials) of a 41-column hand-made level (median of 15 runs) and of VGLC 1-1
//! (median of 5). Run: `CARGO_TARGET_DIR=target cargo bench -j1 --bench mario_human`.

use mario::agents::evaluate;
use mario::engine::LevelMap;
use std::sync::Arc;
use std::time::Instant;

/// 41 columns with two gaps, a pipe, goombas, a koopa and a block row.
const FORTY_ONE: [&str; 14] = [
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-----------------------------------------",
    "-------------S!S-------------------------",
    "-----------------------------------------",
    "--------------------<>-------------------",
    "---------g-----g----[]---g-k-------g-----",
    "XXXXXXXXXXXXXXXXX---XXXXXXXXXXX---XXXXXXX",
    "XXXXXXXXXXXXXXXXX---XXXXXXXXXXX---XXXXXXX",
];

/// Median milliseconds of `runs` evaluations of `map` (seeds 0, 1, …), and the last stats.
fn time(map: &Arc<LevelMap>, runs: u64) -> (f64, String) {
    let mut ms = Vec::new();
    let mut last = String::new();
    for seed in 0..runs {
        let t0 = Instant::now();
        let stats = evaluate(map, seed, 10);
        ms.push(t0.elapsed().as_secs_f64() * 1e3);
        last = format!(
            "A* {:?}, human wins {:.0}%, jumps {:.1}, enemy {:.1}, hole {:.1}, long presses {:.1}",
            stats.astar_status,
            stats.win_rate() * 100.0,
            stats.jumps_stats().mean,
            stats.enemy_damage_stats().mean,
            stats.hole_damage_stats().mean,
            stats.long_presses_stats().mean
        );
    }
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], last)
}

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[mario::plugin]);
    let text = FORTY_ONE.join("\n");
    match LevelMap::from_ascii(&text) {
        Ok(map) => {
            let (median, last) = time(&Arc::new(map), 15);
            println!("41-column level, A* + 10 trials: median {median:.1} ms ({last})");
        }
        Err(e) => println!("41-column level: does not parse: {e}"),
    }
    match mario::formats::vglc_level_text("1-1")
        .ok_or("the VGLC folder is absent ($VGLC_DIR)")
        .map(|t| mario::formats::read_vglc(&t).map(|l| LevelMap::from_level(&l)))
    {
        Ok(Ok(map)) => {
            let (median, last) = time(&Arc::new(map), 5);
            println!("VGLC 1-1, A* + 10 trials:       median {median:.1} ms ({last})");
        }
        Ok(Err(e)) => println!("VGLC 1-1: skipped, the file does not parse: {e}"),
        Err(why) => println!("VGLC 1-1: skipped, {why}"),
    }
}
