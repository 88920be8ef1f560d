//! Seeded mutation fuzzing of every reader of outside input: level and pack files (RON and
//! JSON), ASCII art (every game's), VGLC Zelda dungeons, cVAE and DQN sidecars, the
//! difficulty predictor, the playtest CSV, safetensors weights, and the window's start-up files
//! (settings, session, recovery; read and range-checked as at start, GUI-free). Each target mutates the shipped files (bit flips, random bytes,
//! deleted, repeated or truncated runs, and tokens such as `NaN`, `-1` or unbalanced
//! brackets) and feeds them to the reader, which must answer with a value or an error and
//! never panic.
//!
//! `cargo test` runs each target for a short, bounded time. A longer run:
//! `LEVEL_STUDIO_FUZZ_EXECS=10000000 cargo test --release --test fuzz -- --nocapture`
//! (optionally `LEVEL_STUDIO_FUZZ_ONLY=<target>`); `docs/fuzz.md` records the counts reached.
//! A panicking input is saved under `target/fuzz-failures/` and named in the failure.

use level_studio::document::recovery::{RecoveredPack, Recovery};
use level_studio::document::session::{
    SavedCandidate, SavedCanvas, SavedRequest, SavedValue, Session,
};
use level_studio::document::settings::{autosave_interval, Settings, ToolState};
use level_studio::files;
use level_studio::game::GameId;
use level_studio::io;
use level_studio::longcat::dqn::model::DqnSidecar;
use level_studio::longcat::ridge::{parse_playtest_csv, RidgeModel};
use level_studio::match3::cvae::generator::parse_sidecar;
use level_studio::match3::cvae::Condition;
use level_studio::rng::Rng;
use level_studio::symmetry::Symmetry;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Byte runs that readers treat specially, spliced into inputs.
const TOKENS: [&str; 24] = [
    "NaN",
    "inf",
    "-inf",
    "-1",
    "0",
    "4294967296",
    "18446744073709551616",
    "1e308",
    "-0.0",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "\"",
    ",",
    ":",
    "#",
    "\u{feff}",
    "\n",
    "Some(",
    "None",
    "\"levels\":",
];

/// One mutation of `seed` into `out`: one to four edits.
fn mutate(rng: &mut Rng, seed: &[u8], out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(seed);
    for _ in 0..1 + rng.below(4) {
        let len = out.len();
        let at = if len == 0 { 0 } else { rng.index(len) };
        match rng.below(7) {
            0 if len > 0 => out[at] ^= 1 << rng.below(8),
            1 if len > 0 => out[at] = rng.below(256) as u8,
            2 if len > 0 => {
                let n = (1 + rng.index(16)).min(len - at);
                out.drain(at..at + n);
            }
            3 if len > 0 => {
                let n = (1 + rng.index(32)).min(len - at);
                let run: Vec<u8> = out[at..at + n].to_vec();
                out.splice(at..at, run);
            }
            4 => {
                let token = TOKENS[rng.index(TOKENS.len())].as_bytes();
                out.splice(at..at, token.iter().copied());
            }
            5 if len > 0 => {
                // Replace a number in place: the readers' ranges and checks.
                let token = TOKENS[rng.index(9)].as_bytes();
                let end = (at..len)
                    .find(|&i| !out[i].is_ascii_digit() && out[i] != b'.')
                    .unwrap_or(len);
                out.splice(at..end, token.iter().copied());
            }
            _ => out.truncate(at),
        }
    }
}

/// How long or how many executions each target runs.
fn budget() -> (Option<u64>, Duration) {
    let execs = std::env::var("LEVEL_STUDIO_FUZZ_EXECS")
        .ok()
        .and_then(|v| v.parse().ok());
    (execs, Duration::from_millis(1500))
}

/// Runs one target; returns its executions and the files of the inputs that panicked.
fn fuzz(name: &str, seeds: &[Vec<u8>], reader: &dyn Fn(&[u8])) -> (u64, Vec<PathBuf>) {
    if std::env::var("LEVEL_STUDIO_FUZZ_ONLY").is_ok_and(|only| only != name) {
        return (0, Vec::new());
    }
    let (execs, time) = budget();
    let started = Instant::now();
    let mut rng = Rng::new(0x5eed ^ name.len() as u64);
    let mut input = Vec::new();
    let mut done = 0u64;
    let mut failures = Vec::new();
    loop {
        let finished = match execs {
            Some(n) => done >= n,
            None => started.elapsed() >= time,
        };
        if finished {
            break;
        }
        let seed = &seeds[rng.index(seeds.len())];
        mutate(&mut rng, seed, &mut input);
        if catch_unwind(AssertUnwindSafe(|| reader(&input))).is_err() {
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join(format!("{name}-{}.bin", failures.len()));
            std::fs::write(&file, &input).unwrap();
            failures.push(file);
            if failures.len() >= 5 {
                break;
            }
        }
        done += 1;
    }
    eprintln!(
        "fuzz {name}: {done} executions in {:.1} s, {} panics",
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    (done, failures)
}

fn text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

/// Two VGLC rooms side by side (text orientation), with doorways, blocks, water and a monster.
fn vglc_seed() -> Vec<u8> {
    let room = [
        "WWWWDDDWWWW",
        "WWFFFFFFFWW",
        "WWFBFFFPFWW",
        "WWFFFMFFFWW",
        "WWFFOFFFFWW",
        "WWFFFFFIFWW",
        "WDFFFFFFFDW",
        "WDFFFSFFFDW",
        "WWFFFFFFFWW",
        "WWFFPPPFFWW",
        "WWFFFFFFFWW",
        "WWFFFFFFFWW",
        "WWFFFFFFFWW",
        "WWFFFFFFFWW",
        "WWWWDDDWWWW",
        "WWWWWWWWWWW",
    ];
    room.iter()
        .map(|r| format!("{r}{}\n", "-".repeat(11)))
        .collect::<String>()
        .into_bytes()
}

/// A small safetensors file (two tensors) written by the same candle the models use.
fn tiny_safetensors() -> Vec<u8> {
    use candle_core::{Device, Tensor};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.safetensors");
    let mut tensors = std::collections::HashMap::new();
    tensors.insert(
        "a.weight".to_string(),
        Tensor::new(&[[1f32, 2.0], [3.0, 4.0]], &Device::Cpu).unwrap(),
    );
    tensors.insert(
        "a.bias".to_string(),
        Tensor::new(&[0.5f32, -0.5], &Device::Cpu).unwrap(),
    );
    candle_core::safetensors::save(&tensors, &path).unwrap();
    std::fs::read(&path).unwrap()
}

/// Settings as eframe's storage file holds them: the defaults, and chosen values beside an
/// eframe window entry.
fn settings_seeds() -> Vec<Vec<u8>> {
    let mut chosen = Settings {
        game: level_studio::longcat::ID,
        zoom: 2.5,
        last_packs: vec![PathBuf::from("levels/longcat/starter.ron")],
        right_panel_width: 420.5,
        pack_strip_height: 200.0,
        show_frame_time: false,
        autosave_seconds: 45.0,
        tools: ToolState {
            mirror: Symmetry::Vertical,
            ..ToolState::default()
        },
        ..Settings::default()
    };
    chosen.set_panel_open("Generate", false);
    let with_window = chosen.to_storage_text().unwrap().replacen(
        '{',
        "{\n    \"window\": \"(normal_geometry:(outer_position_pixels:Some((x:10.0,y:20.0)),\
         scale_factor:1.0,inner_size_points:(x:1440.0,y:900.0)),fullscreen:false,\
         maximized:false)\",",
        1,
    );
    vec![
        Settings::default().to_storage_text().unwrap().into_bytes(),
        with_window.into_bytes(),
    ]
}

/// A session with a canvas, a generator request and a candidate.
fn session_seed(levels: &[level_studio::level::Level]) -> Vec<u8> {
    let session = Session {
        games: Default::default(),
        canvases: vec![SavedCanvas {
            level: levels[0].clone(),
            pack_level: Some((PathBuf::from("levels/match3/match3-starter.ron"), 0)),
        }],
        requests: vec![SavedRequest {
            game: level_studio::match3::ID,
            generator: "avalon".into(),
            conditions: vec![
                ("width".into(), SavedValue::Int(7)),
                ("height".into(), SavedValue::Int(9)),
                ("symmetry".into(), SavedValue::Symmetry(Symmetry::Vertical)),
                ("moves".into(), SavedValue::Float(18.0)),
            ],
            count: 8,
            seed: 11,
            validated_only: true,
        }],
        candidates: vec![SavedCandidate {
            level: levels[1].clone(),
            generator: "avalon".into(),
            difficulty: Some(0.25),
            pass: true,
            weak: false,
            label: "valid".into(),
            reason: "median 18 moves".into(),
        }],
        previous: vec![SavedCandidate {
            level: levels[1].clone(),
            generator: "avalon".into(),
            difficulty: Some(0.25),
            pass: true,
            weak: false,
            label: "valid".into(),
            reason: "median 18 moves".into(),
        }],
    };
    io::to_ron(&session).unwrap().into_bytes()
}

/// A recovery file with canvases and an unsaved pack.
fn recovery_seed(pack: &level_studio::level::Pack) -> Vec<u8> {
    let mut pack = pack.clone();
    pack.levels.truncate(3);
    let recovery = Recovery {
        games: Default::default(),
        saved_at: 1_700_000_000,
        game: level_studio::match3::ID,
        levels: pack.levels[..2].to_vec(),
        packs: vec![RecoveredPack {
            path: Some(PathBuf::from("levels/match3/match3-starter.ron")),
            pack,
            dirty: true,
        }],
        links: Vec::new(),
        clean_exit: false,
    };
    io::to_ron(&recovery).unwrap().into_bytes()
}

/// A fuzz target: its name, the files it mutates and the reader it feeds.
type Target = (&'static str, Vec<Vec<u8>>, Box<dyn Fn(&[u8])>);

/// Every target, with its seeds and reader.
fn targets() -> Vec<Target> {
    let starter = files::load_pack(Path::new("levels/match3/match3-starter.ron")).unwrap();
    let longcat = files::load_pack(Path::new("levels/longcat/starter.ron")).unwrap();
    let level_seeds: Vec<Vec<u8>> = starter.levels[..3]
        .iter()
        .chain(&longcat.levels[..3])
        .map(|l| io::to_ron(l).unwrap().into_bytes())
        .collect();
    let ascii_seeds: Vec<Vec<u8>> = starter.levels[..3]
        .iter()
        .chain(&longcat.levels[..3])
        .map(|l| (l.cells.join("\n") + "\n").into_bytes())
        .collect();
    let json_seeds = vec![
        serde_json::to_vec_pretty(&starter).unwrap(),
        serde_json::to_vec_pretty(&longcat).unwrap(),
    ];
    let csv = "level,mean_seconds\n# comment\nstarter.ron#01 Corridor,12.5\n\"pack.ron#a, b\",3\n"
        .as_bytes()
        .to_vec();
    let session_seeds = vec![session_seed(&starter.levels), session_seed(&longcat.levels)];
    let recovery_seeds = vec![recovery_seed(&starter), recovery_seed(&longcat)];
    let conditions = [
        Condition::new(7, 9, Symmetry::Vertical, Some(15.0)),
        Condition::new(4, 4, Symmetry::None, Some(10.0)),
        Condition::new(9, 11, Symmetry::Quadrant, None),
    ];
    vec![
        (
            "level-ron",
            level_seeds,
            Box::new(|b: &[u8]| {
                let _ = files::parse_pack_or_level(Path::new("f.ron"), &text(b));
            }),
        ),
        (
            "pack-ron",
            vec![
                read("levels/match3/match3-starter.ron"),
                read("levels/longcat/starter.ron"),
            ],
            Box::new(|b: &[u8]| {
                let _ = files::parse_pack_or_level(Path::new("f.ron"), &text(b));
            }),
        ),
        (
            "pack-json",
            json_seeds,
            Box::new(|b: &[u8]| {
                let _ = files::parse_pack_or_level(Path::new("f.json"), &text(b));
            }),
        ),
        (
            "ascii",
            ascii_seeds,
            Box::new(|b: &[u8]| {
                let t = text(b);
                let path = Path::new("f.txt");
                let _ = files::level_from_ascii(path, &t, None);
                for game in ["match3", "longcat", "dungeon"] {
                    let id: GameId = game.parse().unwrap();
                    let _ = files::level_from_ascii(path, &t, Some(id));
                }
            }),
        ),
        (
            "cvae-sidecar",
            vec![
                read("models/vanilla-stylized.ron"),
                read("models/avalon-stylized.ron"),
            ],
            Box::new(move |b: &[u8]| {
                // What generation asks of a sidecar that loaded.
                if let Ok(s) = parse_sidecar(Path::new("f.ron"), &text(b)) {
                    for c in &conditions {
                        let _ = s.feasibility(c);
                        let _ = s.moves.normalise(c.moves.unwrap_or(40.0));
                    }
                }
            }),
        ),
        (
            "dqn-sidecar",
            vec![read("models/longcat-dqn-8x8.ron")],
            Box::new(|b: &[u8]| {
                let _ = DqnSidecar::parse(Path::new("f.ron"), &text(b));
            }),
        ),
        (
            "predictor",
            vec![read("models/longcat-ridge.ron")],
            Box::new(|b: &[u8]| {
                if let Ok(m) = RidgeModel::from_ron("f.ron", &text(b)) {
                    let _ = m.predict(&Default::default());
                }
            }),
        ),
        (
            "playtest-csv",
            vec![csv],
            Box::new(|b: &[u8]| {
                let _ = parse_playtest_csv(Path::new("p.csv"), &text(b));
            }),
        ),
        (
            "vglc-zelda",
            vec![vglc_seed()],
            Box::new(|b: &[u8]| {
                let _ = level_studio::dungeon::import::vglc_rooms(Path::new("d.txt"), &text(b), 0);
            }),
        ),
        (
            "settings",
            settings_seeds(),
            Box::new(|b: &[u8]| {
                // As the window reads `app.ron` at start; what it keeps is in range.
                if let Ok(read) = Settings::from_storage_text(Path::new("app.ron"), &text(b)) {
                    let mut settings = read.value;
                    assert_eq!(settings.check_numbers(), Vec::<String>::new());
                    let _ = autosave_interval(settings.autosave_seconds);
                    let _ = settings.to_storage_text();
                }
            }),
        ),
        (
            "session",
            session_seeds,
            Box::new(|b: &[u8]| {
                if let Ok(read) = Session::from_text(Path::new("session.ron"), &text(b)) {
                    let mut session = read.value;
                    assert_eq!(session.check(), Vec::<String>::new());
                }
            }),
        ),
        (
            "recovery",
            recovery_seeds,
            Box::new(|b: &[u8]| {
                let path = Path::new("recovery.ron");
                if let Ok(read) = Recovery::from_text(path, &text(b)) {
                    let mut recovery = read.value;
                    assert_eq!(recovery.check(path), Vec::<String>::new());
                    let _ = recovery.age();
                }
            }),
        ),
        (
            "safetensors",
            vec![tiny_safetensors()],
            Box::new(|b: &[u8]| {
                let _ = level_studio::ml::tensors_from(b, &candle_core::Device::Cpu);
            }),
        ),
    ]
}

#[test]
fn no_reader_panics_on_mutated_files() {
    let targets = targets();
    // Expected panics are caught; their messages would only fill the log.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let results: Vec<(&str, u64, Vec<PathBuf>)> = targets
        .iter()
        .map(|(name, seeds, reader)| {
            let (n, failures) = fuzz(name, seeds, reader.as_ref());
            (*name, n, failures)
        })
        .collect();
    std::panic::set_hook(hook);
    let failed: Vec<String> = results
        .iter()
        .filter(|(_, _, f)| !f.is_empty())
        .map(|(name, _, f)| format!("{name}: {f:?}"))
        .collect();
    assert!(failed.is_empty(), "readers panicked on: {failed:#?}");
    for (name, n, _) in &results {
        assert!(
            *n > 0 || std::env::var("LEVEL_STUDIO_FUZZ_ONLY").is_ok(),
            "{name} never ran"
        );
    }
}
