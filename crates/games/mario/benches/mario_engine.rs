//! Engine and A* speed: ticks per second stepping a 200-column level with 10 enemies (plain
//! stepping, and clone + step as a search does), and A*'s time to finish the VGLC's 1-1.
//! Run: `CARGO_TARGET_DIR=target cargo bench -j1 --bench mario_engine`.

use mario::agents::{play, AStarAgent};
use mario::engine::{Action, LevelMap, World};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use studio_core::rng::Rng;

/// 200 columns, 14 rows: ground with gaps, pipes, blocks, and 10 enemies near the start.
fn level() -> Arc<LevelMap> {
    let (w, h) = (200usize, 14usize);
    let mut g = vec![vec!['-'; w]; h];
    for x in (0..w).filter(|x| x % 37 != 20 && x % 37 != 21) {
        for row in &mut g[12..14] {
            row[x] = 'X';
        }
    }
    for &x in &[30usize, 70, 110, 150] {
        g[10][x] = '<';
        g[10][x + 1] = '>';
        g[11][x] = '[';
        g[11][x + 1] = ']';
    }
    for x in (40..190).step_by(23) {
        g[8][x] = 'S';
        g[8][x + 1] = '!';
        g[8][x + 2] = 'S';
    }
    for i in 0..10 {
        g[11][8 + 4 * i] = if i % 3 == 0 { 'k' } else { 'g' };
    }
    let text: Vec<String> = g.into_iter().map(|r| r.into_iter().collect()).collect();
    match LevelMap::from_ascii(&text.join("\n")) {
        Ok(map) => Arc::new(map),
        Err(e) => panic!("bench level: {e}"),
    }
}

/// 200 columns, 14 rows, with 10 enemies kept alive: they walk to and fro in a walled pen
/// high above the start, where Mario (pacing below, walled in) can neither reach them nor leave
/// them behind, so every tick moves all ten.
fn pen_level() -> Arc<LevelMap> {
    let (w, h) = (200usize, 14usize);
    let mut g = vec![vec!['-'; w]; h];
    for row in &mut g[12..14] {
        row.iter_mut().for_each(|c| *c = 'X');
    }
    g[4][1..=15].fill('#');
    for row in &mut g[1..4] {
        row[1] = '#';
        row[15] = '#';
    }
    for i in 0..10 {
        g[3][3 + i] = if i % 3 == 0 { 'k' } else { 'g' };
    }
    // A wall below keeps Mario (and so the camera) at the start.
    for row in &mut g[6..12] {
        row[12] = '#';
    }
    let text: Vec<String> = g.into_iter().map(|r| r.into_iter().collect()).collect();
    match LevelMap::from_ascii(&text.join("\n")) {
        Ok(map) => Arc::new(map),
        Err(e) => panic!("bench level: {e}"),
    }
}

/// A fixed stream of plausible actions: mostly right, some jumps, some left.
fn actions(n: usize) -> Vec<Action> {
    let mut rng = Rng::new(7);
    let choices = [
        Action::RUN_RIGHT,
        Action::RUN_RIGHT,
        Action::RUN_JUMP_RIGHT,
        Action::RIGHT,
        Action::LEFT,
        Action::NONE,
        Action::JUMP_RIGHT,
    ];
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let a = choices[rng.index(choices.len())];
        for _ in 0..rng.range(2, 10) {
            out.push(a);
        }
    }
    out.truncate(n);
    out
}

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[mario::plugin]);
    let map = level();
    let start = World::new(map.clone()).with_time_limit(u32::MAX);
    let stream = actions(1 << 16);
    let ticks: u64 = 5_000_000;

    let mut world = start.clone();
    let mut enemies_seen = 0usize;
    let t0 = Instant::now();
    for i in 0..ticks as usize {
        world.step(stream[i & 0xFFFF]);
        if !world.is_running() {
            world = start.clone();
        }
        if i & 0xFFF == 0 {
            enemies_seen += world.enemies().count();
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    black_box(&world);
    println!(
        "step loop:         {:>10.0} ticks/s ({:.3} µs/tick, {:.1} enemies alive on average)",
        ticks as f64 / secs,
        secs * 1e6 / ticks as f64,
        enemies_seen as f64 / (ticks as f64 / 4096.0)
    );

    let pen = World::new(pen_level()).with_time_limit(u32::MAX);
    let mut world = pen.clone();
    let mut alive = 0usize;
    // Right, left, left, right: the pacing cancels out, so Mario stays near the pen.
    let pace = [Action::RIGHT, Action::LEFT, Action::LEFT, Action::RIGHT];
    let t0 = Instant::now();
    for i in 0..ticks as usize {
        world.step(pace[(i / 16) & 3]);
        if i & 0xFFF == 0x800 {
            alive += world.enemies().count();
        }
        // Start again every 4,096 ticks, before Mario's pacing drifts the camera away.
        if !world.is_running() || i & 0xFFF == 0xFFF {
            world = pen.clone();
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    black_box(&world);
    println!(
        "10 enemies alive:  {:>10.0} ticks/s ({:.3} µs/tick, {:.1} enemies alive on average)",
        ticks as f64 / secs,
        secs * 1e6 / ticks as f64,
        alive as f64 / (ticks as f64 / 4096.0)
    );

    let mut world = start.clone();
    let t0 = Instant::now();
    for i in 0..ticks as usize {
        let mut next = world.clone();
        next.step(stream[i & 0xFFFF]);
        world = if next.is_running() {
            next
        } else {
            start.clone()
        };
    }
    let secs = t0.elapsed().as_secs_f64();
    black_box(&world);
    println!(
        "clone + step loop: {:>10.0} ticks/s ({:.3} µs/tick)",
        ticks as f64 / secs,
        secs * 1e6 / ticks as f64
    );

    match mario::formats::vglc_level_text("1-1").ok_or("absent") {
        Ok(text) => match mario::formats::read_vglc(&text).map(|l| LevelMap::from_level(&l)) {
            Ok(level) => {
                let level = Arc::new(level);
                let mut agent = AStarAgent::new();
                let t0 = Instant::now();
                let outcome = play(&level, &mut agent, 5000);
                println!(
                    "A* on VGLC 1-1:    {:?} in {} ticks, {} nodes simulated, {:.1} ms",
                    outcome.status,
                    outcome.ticks,
                    agent.nodes_simulated(),
                    t0.elapsed().as_secs_f64() * 1e3
                );
            }
            Err(e) => println!("A* on VGLC 1-1: skipped, the file does not parse: {e}"),
        },
        Err(_) => println!("A* on VGLC 1-1: skipped, the VGLC folder is absent ($VGLC_DIR)"),
    }
}
