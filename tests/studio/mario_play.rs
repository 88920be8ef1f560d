//! `play --game mario` (issue 44, item 2): a button script played on a level, traced tick by
//! tick as the Mario AI Framework's game loop plays it (one no-button update, then one update
//! per tick), from a framework level file, a VGLC one or a pack's level; bad scripts, places
//! and games refused in words.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn studio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A 40-column framework level: ground, Mario at column 1, the flag at 38, and a hole three
/// columns wide at 10–12 when `hole`.
fn framework_level(dir: &Path, hole: bool) -> PathBuf {
    let mut rows = vec!["-".repeat(40); 16];
    let mut feet: Vec<char> = "-".repeat(40).chars().collect();
    feet[1] = 'M';
    feet[38] = 'F';
    rows[13] = feet.into_iter().collect();
    for y in [14, 15] {
        rows[y] = (0..40)
            .map(|x| {
                if hole && (10..13).contains(&x) {
                    '-'
                } else {
                    'X'
                }
            })
            .collect();
    }
    let path = dir.join(if hole { "hole.txt" } else { "flat.txt" });
    std::fs::write(&path, rows.join("\n") + "\n").unwrap();
    path
}

/// The columns of each trace line.
fn trace(o: &Output) -> Vec<Vec<String>> {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn a_script_is_traced_tick_by_tick_from_the_initial_update() {
    let dir = tempfile::tempdir().unwrap();
    let flat = framework_level(dir.path(), false);
    let flat = flat.to_str().unwrap();
    let lines = trace(&studio(&[
        "play",
        "--game",
        "mario",
        flat,
        "--actions",
        "R*60",
        "--trace",
    ]));
    assert_eq!(lines.len(), 61, "tick 0 and one line per scripted tick");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line.len(), 7, "tick x y xa ya on_ground status: {line:?}");
        assert_eq!(line[0], i.to_string());
        assert_eq!(line[6], "RUNNING");
    }
    // The framework's initial no-button update only gives Mario gravity (ya 3); he touches
    // the ground on the first scripted tick.
    assert_eq!(lines[0][3], "0.0000");
    assert_eq!(lines[0][4], "3.0000");
    assert_eq!(
        (lines[0][5].as_str(), lines[1][5].as_str()),
        ("false", "true")
    );
    let x = |i: usize| lines[i][1].parse::<f64>().unwrap();
    assert!(x(60) > x(0) + 50.0, "walked right: {} → {}", x(0), x(60));
    // The same script, the same trace (the engine draws no random number).
    let again = trace(&studio(&[
        "play",
        "--game",
        "mario",
        flat,
        "--actions",
        "R*60",
        "--trace",
    ]));
    assert_eq!(again, lines);
    // A script may start with "-" (no buttons).
    let waited = trace(&studio(&[
        "play",
        "--game",
        "mario",
        flat,
        "--actions",
        "-*5,R",
        "--trace",
    ]));
    assert_eq!(waited.len(), 7);
    assert_eq!(waited[5][1], lines[0][1], "standing still for five ticks");
    // Without --trace: one line on how it went; --json: one object.
    let o = studio(&["play", "--game", "mario", flat, "--actions", "R*60"]);
    assert!(
        stdout(&o).starts_with("RUNNING at tick 60 of 60 scripted"),
        "{}",
        stdout(&o)
    );
    let o = studio(&[
        "play",
        "--game",
        "mario",
        flat,
        "--actions",
        "RS*400",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "WIN", "{v}");
    assert!(v["ticks"].as_u64().unwrap() < 400);
}

#[test]
fn a_fall_ends_the_trace_and_a_jump_clears_the_hole() {
    let dir = tempfile::tempdir().unwrap();
    let hole = framework_level(dir.path(), true);
    let hole = hole.to_str().unwrap();
    let lines = trace(&studio(&[
        "play",
        "--game",
        "mario",
        hole,
        "--actions",
        "R*300",
        "--trace",
    ]));
    let last = lines.last().unwrap();
    assert_eq!(last[6], "LOSE", "{last:?}");
    assert!(lines.len() < 301, "the trace stops when the game ends");
    assert!(lines[..lines.len() - 1].iter().all(|l| l[6] == "RUNNING"));
    // Run, jump before the hole, run on: the flag.
    let o = studio(&[
        "play",
        "--game",
        "mario",
        hole,
        "--actions",
        "RS*20,RSJ*12,RS*200",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "WIN", "{v}");
}

#[test]
fn a_pack_level_is_played_by_its_place() {
    let lines = trace(&studio(&[
        "play",
        "--game",
        "mario",
        "levels/mario/starter.ron#1",
        "--actions",
        "RS*5",
        "--trace",
    ]));
    assert_eq!(lines.len(), 6);
    let o = studio(&[
        "play",
        "--game",
        "mario",
        "levels/mario/starter.ron#99",
        "--actions",
        "R",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("has levels 1 to"), "{}", stderr(&o));
    let o = studio(&[
        "play",
        "--game",
        "mario",
        "levels/longcat/starter.ron#1",
        "--actions",
        "R",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not a Mario level"), "{}", stderr(&o));
}

#[test]
fn bad_scripts_games_and_files_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let flat = framework_level(dir.path(), false);
    let flat = flat.to_str().unwrap();
    let refused = |args: &[&str], says: &str| {
        let o = studio(args);
        assert!(!o.status.success(), "{args:?} ran");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    };
    refused(
        &["play", "--game", "mario", flat, "--actions", "R*2,Q"],
        "part 2: “Q” is not a button",
    );
    refused(
        &["play", "--game", "mario", flat, "--actions", "R*x"],
        "not a whole number",
    );
    refused(&["play", flat, "--actions", "R"], "play needs --game");
    refused(
        &["play", "--game", "longcat", flat, "--actions", "R"],
        "has no headless play yet",
    );
    refused(
        &[
            "play",
            "--game",
            "mario",
            "/no/such/level.txt",
            "--actions",
            "R",
        ],
        "/no/such/level.txt",
    );
    refused(
        &[
            "play",
            "--game",
            "mario",
            flat,
            "--actions",
            "R",
            "--format",
            "tiled",
        ],
        "vglc-mario or mario-ai",
    );
    // The help lists the flags.
    let o = studio(&["play", "--game", "mario", "--help"]);
    assert!(stdout(&o).contains("--actions"), "{}", stdout(&o));
}

/// `--sprites` adds every live sprite to the trace, named as the framework names it: here a
/// cannon's bullet bill on tick 99 (the framework's figures: x 220, y 207, xa −4) beside a
/// winged goomba that keeps its winged name.
#[test]
fn sprites_are_traced_with_the_frameworks_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = vec!["-".repeat(32); 16];
    rows[12] = format!("{:-<32}", "--------------*");
    rows[13] = format!("{:-<32}", "-M------------*-G");
    rows[14] = "X".repeat(32);
    rows[15] = "X".repeat(32);
    let path = dir.path().join("cannon.txt");
    std::fs::write(&path, rows.join("\n") + "\n").unwrap();
    let o = studio(&[
        "play",
        "--game",
        "mario",
        path.to_str().unwrap(),
        "--actions",
        "-*99",
        "--trace",
        "--sprites",
    ]);
    let lines = trace(&o);
    assert_eq!(lines.len(), 100);
    assert!(lines[0][7].starts_with("GOOMBA_WINGED "), "{:?}", lines[0]);
    let bill = lines[99]
        .iter()
        .find(|c| c.starts_with("BULLET_BILL "))
        .unwrap_or_else(|| panic!("no bullet bill on tick 99: {:?}", lines[99]));
    assert_eq!(bill, "BULLET_BILL 220.0000 207.0000 -4.0000 -5.0000");
    // Without --trace there is nothing to add sprites to.
    let o = studio(&[
        "play",
        "--game",
        "mario",
        path.to_str().unwrap(),
        "--actions",
        "-*9",
        "--sprites",
    ]);
    assert!(!o.status.success());
}
