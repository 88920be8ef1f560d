//! Mario generation speed (issue 33's "generate one level ≤ 20 ms"): one level of 10 patterns
//! by the shipped TD3 and VS-TD3 actors steering the shipped CGAN, with the A* playability
//! check the generator runs on every level (median of 50, seeds 0..50), and the same for the
//! CGAN with random vectors. Needs the VGLC levels (`$VGLC_DIR` or `../shared/data/vglc`).
//! Run: `cargo bench -j1 --bench mario_generate`.

use mario::engine::LevelMap;
use mario::evaluate::astar_run;
use mario::generators::load_td3_bundle;
use mario::patterns::PatLegal;
use mario::td3::{make_levels, Making};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[mario::plugin]);
    let Ok(pat) = PatLegal::default_set() else {
        eprintln!("skipped: the VGLC folder is absent");
        return;
    };
    for id in ["td3", "vs-td3"] {
        let path = Path::new("models").join(mario::td3::file::weights_file(id));
        let bundle = match load_td3_bundle(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("skipped {id}: {e}");
                continue;
            }
        };
        let gen = bundle.rl(&pat);
        let mut make = Vec::new();
        let mut checked = Vec::new();
        let mut playable = 0;
        for seed in 0..50u64 {
            let t = Instant::now();
            let builds = make_levels(&gen, 1, seed, Making::default()).unwrap_or_default();
            make.push(t.elapsed().as_secs_f64() * 1e3);
            let won = builds
                .first()
                .and_then(|b| b.level().ok())
                .is_some_and(|l| astar_run(&Arc::new(LevelMap::from_level(&l))).won());
            checked.push(t.elapsed().as_secs_f64() * 1e3);
            playable += usize::from(won);
        }
        println!(
            "{id}: one level {:.2} ms, with the A* check {:.2} ms (median of 50); {playable} of \
             50 playable",
            median(make),
            median(checked)
        );
    }
}
