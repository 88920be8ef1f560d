//! A saved 100-level GVGAI pack reopens with its figures (issue 69, W9; target under 2 s):
//! the agents measure the levels once, as the window's strip does, the pack is saved with
//! their figures, then a fresh process reads it back and has every level's difficulty and
//! verdict (the strip's curve) without an agent playing a game.
//!
//! Each fresh process also exports the pack as a PNG sheet and as Tiled maps, as
//! `level-studio export --format png|tmj` does (issue 70's F36): from the stored figures,
//! with no agent playing.
//!
//! `cargo bench -p gvgai --bench reopen_pack` (a small key-and-door game of our own; no
//! GVGAI file is read). `VGDL_REOPEN_GAME=PATH/GAME.txt` measures a GVGAI game instead: its
//! levels (`GAME_lvlN.txt` beside it) repeated to 100.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use gvgai::level;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use studio_core::document::{pack_doc, PackDoc};
use studio_core::game::registry;
use studio_core::jobs::Cancel;
use studio_core::level::Pack;

/// A key-and-door game with a wandering monster.
const DOOR: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable hidden=True
    door > Door
    key > Immovable
    monster > RandomNPC cooldown=4
    avatar > MovingAvatar
      bare >
      keyed >
  LevelMapping
    . > floor
    g > floor door
    k > floor key
    m > floor monster
    A > floor bare
  InteractionSet
    avatar wall > stepBack
    monster wall > stepBack
    bare door > stepBack
    door keyed > killSprite scoreChange=2
    bare key > transformTo stype=keyed killSecond=True scoreChange=1
    avatar monster > killSprite scoreChange=-1
  TerminationSet
    SpriteCounter stype=door win=True
    SpriteCounter stype=avatar win=False
";

/// Levels in the pack.
const LEVELS: usize = 100;
/// Different layouts among them (each measured once, as the strip measures equal cells once).
const LAYOUTS: usize = 10;
/// Fresh processes timed.
const RUNS: usize = 5;

/// Layout `i`: a 13 × 9 room with the key and the monster in places that depend on `i`.
fn layout(i: usize) -> Vec<String> {
    let (w, h) = (13, 9);
    let mut grid = vec![vec!['.'; w]; h];
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if x == 0 || y == 0 || x + 1 == w || y + 1 == h {
                *c = 'w';
            }
        }
    }
    grid[1][1] = 'A';
    grid[7][11] = 'g';
    grid[1 + i % 7][3 + i % 8] = 'k';
    grid[7 - i % 5][9 - i % 4] = 'm';
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// The 100 levels: `VGDL_REOPEN_GAME`'s levels repeated, else the door game's layouts.
fn levels() -> Pack {
    if let Some(path) = std::env::var_os("VGDL_REOPEN_GAME") {
        let (found, _) = gvgai::formats::import_game(Path::new(&path)).unwrap();
        assert!(
            !found.levels.is_empty(),
            "no GAME_lvlN.txt beside the description"
        );
        let mut pack = Pack::new(format!("{} x{LEVELS}", found.name));
        pack.levels = (0..LEVELS)
            .map(|n| {
                let mut level = found.levels[n % found.levels.len()].clone();
                level.name = format!("level {n}");
                level
            })
            .collect();
        return pack;
    }
    let g = level::open("door.txt", DOOR).unwrap();
    let mut pack = Pack::new(format!("door x{LEVELS}"));
    for n in 0..LEVELS {
        pack.levels
            .push(g.level(format!("level {n}"), layout(n % LAYOUTS)));
    }
    pack
}

/// Measures the levels as the strip does and saves the pack with their figures.
fn write_pack(path: &Path) {
    let pack = levels();
    let mut doc = PackDoc::with(pack, None, true);
    let started = Instant::now();
    let todo = doc.unmeasured();
    for (key, measured) in pack_doc::measure(&todo, &Cancel::default()) {
        doc.record_measured(key, measured);
    }
    println!(
        "measured {} layouts in {:.1} s ({} agents' games)",
        todo.len(),
        started.elapsed().as_secs_f64(),
        gvgai::profiles::games_played()
    );
    studio_core::files::save_pack(path, &doc.pack).unwrap();
}

/// In a fresh process: reads the pack and its figures back, as the window opens a pack.
fn reopen(path: &Path) {
    let started = Instant::now();
    registry::install(&[gvgai::plugin]);
    let pack = studio_core::files::load_pack(path).unwrap();
    let doc = PackDoc::opened(pack, path.to_path_buf());
    let game = doc.main_game();
    let curve = doc.curve(game);
    let unmeasured = doc.unmeasured().len();
    let passing = doc
        .pack
        .levels
        .iter()
        .filter(|l| doc.verdict(l) == Some(true))
        .count();
    let seconds = started.elapsed().as_secs_f64();
    let name = game.game().map_or("?", |g| g.name());
    println!(
        "reopened {} levels of {name} in {seconds:.3} s: {} on the curve, {passing} passing, \
         {unmeasured} to measure, {} agents' games played",
        doc.pack.levels.len(),
        curve.len(),
        gvgai::profiles::games_played()
    );
    assert_eq!(curve.len(), doc.pack.levels.len());
    assert_eq!(unmeasured, 0);
    for (format, out) in [("png", "sheet.png"), ("tmj", "maps")] {
        let out = path.with_file_name(out);
        let started = Instant::now();
        let words = ["level-studio", "export", path.to_str().unwrap(), "--format"];
        let mut words: Vec<&str> = words.to_vec();
        words.extend([format, "--out", out.to_str().unwrap()]);
        studio_cli::run_words(words).unwrap();
        println!(
            "  export --format {format}: {:.3} s",
            started.elapsed().as_secs_f64()
        );
    }
    assert_eq!(gvgai::profiles::games_played(), 0);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--reopen") {
        reopen(Path::new(&args[at + 1]));
        return;
    }
    registry::install(&[gvgai::plugin]);
    let dir: PathBuf = std::env::temp_dir().join(format!("gvgai-reopen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("door-x100.ron");
    write_pack(&path);
    let exe = std::env::current_exe().unwrap();
    let mut walls = Vec::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        let status = Command::new(&exe)
            .arg("--reopen")
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
        walls.push(started.elapsed().as_secs_f64());
    }
    let worst = walls.iter().copied().fold(0.0, f64::max);
    println!(
        "{LEVELS}-level pack, {RUNS} fresh processes: slowest {worst:.3} s from start to \
         the curve and both exports (target under 2 s: {})",
        if worst < 2.0 { "met" } else { "NOT met" }
    );
    let _ = std::fs::remove_dir_all(&dir);
}
