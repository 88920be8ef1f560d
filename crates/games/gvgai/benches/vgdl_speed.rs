//! The VGDL engine's speed beside GVGAI's own (issue 45, item 4): ticks a second of
//! do-nothing and random games on level 0 of the five reference games (one core, CPU time
//! as GVGAI's figure is), and an MCTS-like forward model load: a clone of the state and ten
//! random steps (GVGAI's sample MCTS rolls out ten moves) as many times as 40 ms allow,
//! beside GVGAI's own MCTS iterations per 40 ms move (`reference/stats.csv`).
//!
//! `cargo bench -p gvgai --bench vgdl_speed` (reads the GVGAI data in place; set GVGAI_DIR
//! when it is elsewhere).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gvgai::agents::{Agent, DoNothing, RandomAgent};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use vgdl::rng::JavaRandom;
use vgdl::State;

fn data() -> Option<PathBuf> {
    let dir = std::env::var_os("GVGAI_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/data/gvgai")
        });
    dir.join("gridphysics").is_dir().then_some(dir)
}

/// GVGAI's figure for (game, agent) from a CSV, column `col`.
fn reference(text: &str, game: &str, agent: &str, col: usize) -> Option<f64> {
    text.lines()
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f.len() > col && f[0] == game && f[1] == agent)
        .and_then(|f| f[col].parse().ok())
}

fn main() {
    let Some(dir) = data() else {
        println!("skipped: GVGAI's data is not here (set GVGAI_DIR)");
        return;
    };
    let tps =
        std::fs::read_to_string(dir.join("reference/ticks_per_second.csv")).unwrap_or_default();
    let stats = std::fs::read_to_string(dir.join("reference/stats.csv")).unwrap_or_default();
    println!("ticks a second (one core), ours against GVGAI's game loop (ticks_per_cpu_s):");
    println!(
        "{:16} {:10} {:>12} {:>12} {:>8}",
        "game", "agent", "ours", "GVGAI", "ratio"
    );
    // VGDL_BENCH_GAMES=zelda,sokoban measures only those.
    let only = std::env::var("VGDL_BENCH_GAMES").ok();
    let wanted = |g: &str| only.as_ref().is_none_or(|o| o.split(',').any(|w| w == g));
    for game in [
        "zelda",
        "survivezombies",
        "angelsdemons",
        "painter",
        "sokoban",
    ] {
        if !wanted(game) {
            continue;
        }
        let g = gvgai::load::game(&dir.join(format!("gridphysics/{game}.txt"))).unwrap();
        let l = gvgai::load::level(&g, &dir.join(format!("gridphysics/{game}_lvl0.txt"))).unwrap();
        for (agent, gvgai_name) in [("donothing", "doNothing"), ("random", "seededRandom")] {
            let mut ticks = 0u64;
            let mut seed = 0;
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(2) {
                let mut state = State::new(g.rules.clone(), &l, seed).unwrap();
                let mut a: Box<dyn Agent> = if agent == "random" {
                    Box::new(RandomAgent::new(seed + 1_000))
                } else {
                    Box::new(DoNothing)
                };
                while !state.is_over() {
                    let act = a.act(&state);
                    state.step(act);
                    ticks += 1;
                }
                seed += 1;
            }
            let ours = ticks as f64 / start.elapsed().as_secs_f64();
            let theirs = reference(&tps, game, gvgai_name, 4);
            println!(
                "{game:16} {agent:10} {ours:>12.0} {:>12} {:>8}",
                theirs.map_or("-".into(), |t| format!("{t:.0}")),
                theirs.map_or("-".into(), |t| format!("{:.1}×", ours / t))
            );
        }
    }
    println!();
    println!("forward model: clone + 10 random steps, iterations per 40 ms, beside GVGAI's MCTS");
    println!(
        "{:16} {:>12} {:>12} {:>8}",
        "game", "ours", "GVGAI", "ratio"
    );
    for game in ["zelda", "survivezombies", "angelsdemons"] {
        if !wanted(game) {
            continue;
        }
        let g = gvgai::load::game(&dir.join(format!("gridphysics/{game}.txt"))).unwrap();
        let l = gvgai::load::level(&g, &dir.join(format!("gridphysics/{game}_lvl0.txt"))).unwrap();
        // A state some way into a game (do-nothing for 30 ticks).
        let mut root = State::new(g.rules.clone(), &l, 1).unwrap();
        for _ in 0..30 {
            root.step(vgdl::Action::Nil);
        }
        let mut rng = JavaRandom::new(5);
        let mut iterations = 0u64;
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            let mut s = root.clone();
            for _ in 0..10 {
                if s.is_over() {
                    break;
                }
                let acts = s.actions();
                let a = if acts.is_empty() {
                    vgdl::Action::Nil
                } else {
                    acts[rng.next_int(acts.len() as i32) as usize]
                };
                s.step(a);
            }
            iterations += 1;
        }
        let per_40ms = iterations as f64 / start.elapsed().as_secs_f64() * 0.040;
        let theirs = reference(&stats, game, "0", 13).or_else(|| {
            stats
                .lines()
                .map(|l| l.split(',').collect::<Vec<_>>())
                .find(|f| f.len() > 13 && f[0] == game && f[1] == "0" && f[2] == "sampleMCTS")
                .and_then(|f| f[13].parse().ok())
        });
        println!(
            "{game:16} {per_40ms:>12.0} {:>12} {:>8}",
            theirs.map_or("-".into(), |t| format!("{t:.1}")),
            theirs.map_or("-".into(), |t| format!("{:.1}×", per_40ms / t))
        );
    }
}
