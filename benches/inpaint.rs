//! Regenerate selection, measured (issue 64's targets): for 50 dungeon rooms × a random 4×4
//! region and 50 Mario windows × an 8-column region, the share of requests that give at least
//! one candidate passing the game's analysis within the 2 s budget, the time per request, and
//! that no cell outside the region ever changes.
//!
//! `cargo bench --bench inpaint -- ROOMS.ron MARIO.ron [ROOM_MODEL.safetensors]
//! [MARIO_MODEL.safetensors]` (docs/level-vae.md says how the packs and models are made).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use level_studio::jobs::Cancel;
use level_studio::level::Level;
use level_studio::ml::level_vae::{inpaint, LevelVae};
use level_studio::rng::Rng;
use std::path::Path;
use std::time::Instant;

/// One suite: `requests` (level, region) pairs.
fn run(name: &str, requests: &[(Level, inpaint::Region)], model: Option<&LevelVae>) {
    let config = inpaint::InpaintConfig {
        count: 3,
        seed: 0,
        ..Default::default()
    };
    let (mut served, mut in_budget, mut candidates, mut outside_changed) = (0, 0, 0, 0);
    let mut times = Vec::new();
    for (level, region) in requests {
        let started = Instant::now();
        let found = inpaint::inpaint(level, *region, model, &config, &Cancel::default())
            .unwrap_or_else(|e| panic!("{}: {e}", level.name));
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        if !found.candidates.is_empty() {
            served += 1;
        }
        if found.first_ms.is_some_and(|ms| ms <= 2000.0) {
            in_budget += 1;
        }
        for c in &found.candidates {
            candidates += 1;
            for (y, (a, b)) in c.level.cells.iter().zip(&level.cells).enumerate() {
                for (x, (p, q)) in a.chars().zip(b.chars()).enumerate() {
                    if p != q && !region.contains(x, y) {
                        outside_changed += 1;
                    }
                }
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let n = requests.len();
    println!(
        "{name} ({}): {served}/{n} requests served, {in_budget} ({:.0} %) with a first candidate \
         within 2 s; {candidates} candidates, {} cells outside a region changed; ms per \
         request: median {:.0}, 90th percentile {:.0}, max {:.0}",
        if model.is_some() { "model" } else { "search" },
        100.0 * in_budget as f64 / n as f64,
        outside_changed,
        times[n / 2],
        times[(n * 9 / 10).min(n - 1)],
        times[n - 1]
    );
}

fn main() {
    level_studio::install_games();
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let (Some(rooms), Some(mario)) = (args.first(), args.get(1)) else {
        eprintln!(
            "usage: cargo bench --bench inpaint -- ROOMS.ron MARIO.ron [ROOM_MODEL] [MARIO_MODEL]"
        );
        return;
    };
    let mut rng = Rng::new(0);
    let mut rooms = level_studio::files::load_levels(Path::new(rooms)).unwrap();
    rng.shuffle(&mut rooms);
    let room_requests: Vec<(Level, inpaint::Region)> = rooms
        .into_iter()
        .take(50)
        .map(|l| {
            let (w, h) = (l.cells[0].chars().count(), l.cells.len());
            let region = inpaint::Region {
                x: rng.index(w - 3),
                y: rng.index(h - 3),
                w: 4,
                h: 4,
            };
            (l, region)
        })
        .collect();
    // Mario: 50 windows of 32 columns cut from the levels, each with an 8-column region.
    let levels = level_studio::files::load_levels(Path::new(mario)).unwrap();
    let mut mario_requests = Vec::new();
    while mario_requests.len() < 50 {
        let l = &levels[rng.index(levels.len())];
        let w = l.cells[0].chars().count();
        let x0 = rng.index(w - 32);
        let cells: Vec<String> = l
            .cells
            .iter()
            .map(|r| r.chars().skip(x0).take(32).collect())
            .collect();
        let mut window = Level::bare(l.game, format!("{} at {x0}", l.name), cells);
        window.figures = None;
        let game = l.game.game().unwrap();
        if game.check(&window.cells).is_err() {
            continue;
        }
        let region = inpaint::Region {
            x: rng.index(32 - 7),
            y: 0,
            w: 8,
            h: window.cells.len(),
        };
        mario_requests.push((window, region));
    }
    let load = |i: usize| args.get(i).map(|p| LevelVae::load(Path::new(p)).unwrap());
    run("dungeon rooms, 4x4", &room_requests, None);
    if let Some(m) = load(2) {
        run("dungeon rooms, 4x4", &room_requests, Some(&m));
    }
    run("Mario windows, 8 columns", &mario_requests, None);
    if let Some(m) = load(3) {
        run("Mario windows, 8 columns", &mario_requests, Some(&m));
    }
}
