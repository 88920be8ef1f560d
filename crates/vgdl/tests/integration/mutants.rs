//! The reliability probe's mutation harness as a test (issue 70): seeded mutants of small
//! descriptions and levels of our own — lines deleted, duplicated (with tabs), swapped, a
//! sprite renamed to another (a child renamed to its parent nests it under itself), numbers
//! made absurd, level characters changed, rows duplicated or cut — each read, compiled and
//! played for a few hundred ticks with seeded random actions. None may panic, none may run
//! past its time bound, and the whole run stays within its memory bound.
//!
//! `cargo test` runs 300 mutants. A longer run (the 20,000):
//! `VGDL_MUTANTS=20000 cargo test --release -p vgdl --test integration mutants:: -- --nocapture`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};
use vgdl::{Action, State};

/// A key and a door, a chasing monster, a sword.
const DOOR: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable hidden=True
    door > Door color=GREEN
    key > Resource limit=1
    monster > Chaser stype=avatar cooldown=4
    sword > Flicker limit=5
    avatar > ShootAvatar stype=sword
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
    avatar key > collectResource scoreChange=1
    door avatar > killIfOtherHasMore resource=key limit=1 scoreChange=2
    monster sword > killSprite scoreChange=2
    avatar monster > killSprite scoreChange=-1
  TerminationSet
    SpriteCounter stype=door win=True
    SpriteCounter stype=avatar win=False
    Timeout limit=400 win=False
";

const DOOR_LEVEL: &str = "wwwwwwwwww\nwA..k...mw\nw..ww....w\nw.m....g.w\nwwwwwwwwww\n";

/// Boxes pushed into holes.
const PUSH: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    hole > Immovable color=DARKBLUE
    box > Passive
    avatar > MovingAvatar
  LevelMapping
    . > floor
    0 > floor hole
    1 > floor box
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    box avatar > bounceForward
    box wall > undoAll
    box box > undoAll
    box hole > killSprite scoreChange=1
  TerminationSet
    SpriteCounter stype=box win=True
";

const PUSH_LEVEL: &str = "wwwwwwww\nw......w\nw.1..0.w\nwA.1.0.w\nw......w\nwwwwwwww\n";

/// Spawners, missiles and a portal: sprites that come and go.
const SPAWN: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    base > SpawnPoint stype=alien prob=0.2 cooldown=6 total=12
    alien > Missile orientation=DOWN speed=0.5
    portal > Portal stype=exit
    exit > Immovable
    shot > Missile orientation=UP speed=1
    avatar > FlakAvatar stype=shot
  LevelMapping
    . > floor
    b > floor base
    p > floor portal
    e > floor exit
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    alien wall > killSprite
    shot wall > killSprite
    alien shot > killBoth scoreChange=1
    avatar alien > killSprite scoreChange=-1
    avatar portal > teleportToExit
  TerminationSet
    SpriteCounter stype=avatar win=False
    MultiSpriteCounter stype1=base stype2=alien win=True
    Timeout limit=300 win=True
";

const SPAWN_LEVEL: &str =
    "wwwwwwwwww\nw.b....b.w\nw........w\nwp......ew\nw...A....w\nwwwwwwwwww\n";

/// Numbers a mutant may put in place of one of the description's.
const NUMBERS: [&str; 9] = [
    "0",
    "-1",
    "1e30",
    "2000000000",
    "NaN",
    "0.0001",
    "99999999999999999999",
    "-2147483648",
    "1000",
];

/// A small seeded generator (xorshift*), so every run makes the same mutants.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The sprite names a description defines (the first word of each SpriteSet line).
fn sprite_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_set = false;
    for line in text.lines() {
        let t = line.trim();
        if t == "SpriteSet" {
            in_set = true;
            continue;
        }
        if ["LevelMapping", "InteractionSet", "TerminationSet"].contains(&t) {
            in_set = false;
        }
        if in_set {
            if let Some(name) = t.split_whitespace().next() {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// One mutation of a description: what an editing slip or a hostile file does.
fn mutate_description(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let at = 1 + rng.below(lines.len() - 1);
    match rng.below(7) {
        0 => {
            lines.remove(at);
        }
        1 => {
            // Duplicated, sometimes with its indentation turned into tabs.
            let copy = if rng.below(2) == 0 {
                lines[at].replace("  ", "\t")
            } else {
                lines[at].clone()
            };
            lines.insert(at, copy);
        }
        2 => {
            let other = 1 + rng.below(lines.len() - 1);
            lines.swap(at, other);
        }
        3 => {
            // A sprite renamed to another's name, everywhere on one line.
            let names = sprite_names(text);
            let from = &names[rng.below(names.len())];
            let to = &names[rng.below(names.len())];
            lines[at] = lines[at].replace(from.as_str(), to);
        }
        4 => {
            // A number made absurd.
            let words: Vec<String> = lines[at].split(' ').map(String::from).collect();
            let numbered: Vec<usize> = (0..words.len())
                .filter(|&i| {
                    words[i].contains('=') && words[i].ends_with(|c: char| c.is_ascii_digit())
                })
                .collect();
            if let Some(&i) = numbered.get(rng.below(numbered.len().max(1))) {
                let key = words[i].split('=').next().unwrap_or("").to_string();
                let mut words = words;
                words[i] = format!("{key}={}", NUMBERS[rng.below(NUMBERS.len())]);
                lines[at] = words.join(" ");
            } else {
                lines[at].push_str(&format!(" repeat={}", NUMBERS[rng.below(NUMBERS.len())]));
            }
        }
        5 => {
            // A character typed into the line.
            let bytes = b" >=\t#.:x0";
            let c = bytes[rng.below(bytes.len())] as char;
            let mut chars: Vec<char> = lines[at].chars().collect();
            let i = rng.below(chars.len() + 1);
            chars.insert(i.min(chars.len()), c);
            lines[at] = chars.into_iter().collect();
        }
        _ => {
            // The line repeated many times (a paste gone wrong).
            let copy = lines[at].clone();
            for _ in 0..(1 + rng.below(40)) {
                lines.insert(at, copy.clone());
            }
        }
    }
    lines.join("\n") + "\n"
}

/// One mutation of a level.
fn mutate_level(rng: &mut Rng, text: &str, letters: &[char]) -> String {
    let mut rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let y = rng.below(rows.len());
    match rng.below(4) {
        0 => {
            // A cell changed to another letter of the mapping, a space or an unknown one.
            let x = rng.below(rows[y].len());
            let pool: Vec<char> = letters.iter().copied().chain([' ', '?', 'A']).collect();
            rows[y][x] = pool[rng.below(pool.len())];
        }
        1 => {
            let copy = rows[y].clone();
            for _ in 0..(1 + rng.below(6)) {
                rows.insert(y, copy.clone());
            }
        }
        2 => {
            let cut = rng.below(rows[y].len() + 1);
            rows[y].truncate(cut);
        }
        _ => {
            // Every cell of a row the same letter (a flood of one sprite).
            let c = letters[rng.below(letters.len())];
            for cell in rows[y].iter_mut().skip(1) {
                *cell = c;
            }
        }
    }
    rows.into_iter()
        .map(|r| r.into_iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Reads, compiles and plays one mutant: `Ok(ticks)` or the refusal; panics propagate.
fn play(description: &str, level: &str, seed: u64) -> Result<u32, String> {
    let desc = vgdl::parse(description, "m.txt").map_err(|e| e.to_string())?;
    let rules = Arc::new(vgdl::compile(&desc, "m.txt").map_err(|e| e.to_string())?);
    let level = vgdl::read_level(&desc, level, "m_lvl0.txt").map_err(|e| e.to_string())?;
    let mut state = State::new(rules, &level, seed as i64).map_err(|e| e.to_string())?;
    let mut rng = Rng(seed | 1);
    let mut ticks = 0;
    while !state.is_over() && ticks < 300 {
        let actions = state.actions();
        let action = if actions.is_empty() {
            Action::Nil
        } else {
            actions[rng.below(actions.len())]
        };
        state.step(action);
        ticks += 1;
    }
    Ok(ticks)
}

/// The distinct characters of a level (what a level mutation draws from).
fn letters_of(level: &str) -> Vec<char> {
    let mut letters: Vec<char> = level.chars().filter(|c| !c.is_whitespace()).collect();
    letters.sort_unstable();
    letters.dedup();
    if letters.is_empty() {
        letters.push('.');
    }
    letters
}

/// The process's peak resident memory in bytes (Linux), if known.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn mutants_of_small_games_never_panic_and_stay_bounded() {
    let count: usize = std::env::var("VGDL_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let mut seeds: Vec<(String, String, Vec<char>)> =
        [(DOOR, DOOR_LEVEL), (PUSH, PUSH_LEVEL), (SPAWN, SPAWN_LEVEL)]
            .iter()
            .map(|(d, l)| (d.to_string(), l.to_string(), letters_of(l)))
            .collect();
    // Each unmutated seed plays.
    for (d, l, _) in &seeds {
        play(d, l, 0).unwrap();
    }
    // A longer local run may add a folder of games (GVGAI's `gridphysics`, read in place,
    // never copied): each `GAME.txt` with its `GAME_lvl0.txt`.
    if let Some(dir) = std::env::var_os("VGDL_MUTANTS_DIR") {
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        files.sort();
        for game in files {
            let name = game.file_stem().unwrap().to_string_lossy().to_string();
            if name.contains("_lvl") {
                continue;
            }
            let level = game.with_file_name(format!("{name}_lvl0.txt"));
            if let (Ok(d), Ok(l)) = (
                std::fs::read_to_string(&game),
                std::fs::read_to_string(&level),
            ) {
                let letters = letters_of(&l);
                seeds.push((d, l, letters));
            }
        }
        eprintln!("{} seed games", seeds.len());
    }
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(0x5eed_0070);
    let (mut played, mut refused, mut panics, mut slow) = (0, 0, Vec::new(), Vec::new());
    let bound = Duration::from_secs(10);
    let from: usize = std::env::var("VGDL_MUTANTS_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let dump = std::env::var_os("VGDL_MUTANTS_DUMP").map(std::path::PathBuf::from);
    for i in 0..count {
        let (d, l, letters) = &seeds[rng.below(seeds.len())];
        let (description, level) = match rng.below(3) {
            0 => (mutate_description(&mut rng, d), l.to_string()),
            1 => (d.to_string(), mutate_level(&mut rng, l, letters)),
            _ => (
                mutate_description(&mut rng, d),
                mutate_level(&mut rng, l, letters),
            ),
        };
        // Finding one mutant of a long run: VGDL_MUTANTS_FROM skips playing the ones
        // before it (they are still made, so the numbering holds) and VGDL_MUTANTS_DUMP
        // names a folder the mutant about to play is written to.
        if i < from {
            continue;
        }
        if let Some(dir) = &dump {
            std::fs::write(dir.join("mutant.txt"), &description).unwrap();
            std::fs::write(dir.join("mutant_lvl0.txt"), &level).unwrap();
            std::fs::write(dir.join("index.txt"), i.to_string()).unwrap();
        }
        let started = Instant::now();
        match catch_unwind(AssertUnwindSafe(|| play(&description, &level, i as u64))) {
            Ok(Ok(_)) => played += 1,
            Ok(Err(_)) => refused += 1,
            Err(_) => panics.push(format!("mutant {i}:\n{description}\n{level}")),
        }
        if (i + 1) % 500 == 0 {
            eprintln!(
                "{} of {count} mutants: {played} played, {refused} refused, {} panics, {} slow",
                i + 1,
                panics.len(),
                slow.len()
            );
        }
        if started.elapsed() > bound {
            slow.push(format!(
                "mutant {i} ({:.1} s):\n{description}\n{level}",
                started.elapsed().as_secs_f64()
            ));
        }
    }
    std::panic::set_hook(hook);
    let peak = peak_memory();
    eprintln!(
        "{count} mutants: {played} played, {refused} refused, {} panics, {} over {} s; peak memory {:?} MB",
        panics.len(),
        slow.len(),
        bound.as_secs(),
        peak.map(|b| b / (1 << 20))
    );
    assert!(
        panics.is_empty(),
        "panics: {:#?}",
        &panics[..panics.len().min(3)]
    );
    assert!(
        slow.is_empty(),
        "too slow: {:#?}",
        &slow[..slow.len().min(3)]
    );
    assert!(
        played > count / 5,
        "most mutants should still play: {played} of {count}"
    );
    if let Some(peak) = peak {
        assert!(peak < 1 << 30, "peak memory {} MB", peak >> 20);
    }
}
