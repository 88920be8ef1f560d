//! The blend game from the command line: importing Lode Runner levels as segments, and
//! `validate` on them. Needs the VGLC folder beside the repository; skips with a reason
//! without it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

fn studio() -> Command {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
}

const LEVEL_1: &str = "../shared/data/vglc/Lode Runner/Processed/Level 1.txt";

#[test]
fn import_lode_runner_quadrants_and_validate_them() {
    if !Path::new(LEVEL_1).is_file() {
        println!("skipped: {LEVEL_1} is not here (the VGLC folder beside the repository)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("lr.ron");
    let out = studio()
        .args(["import", "--format", "vglc-lode-runner", LEVEL_1, "--out"])
        .arg(&pack)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("4 segments of 1"));
    let out = studio()
        .arg("validate")
        .arg(&pack)
        .arg("--json")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    for r in &rows {
        assert_eq!(r["game"], "blend");
        assert_eq!(r["like"], "lode-runner");
        assert_eq!(r["loz_playable"], true);
        for key in [
            "density",
            "non_linearity",
            "leniency",
            "interestingness",
            "path_proportion",
        ] {
            let v = r[key].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&v), "{key} {v}");
        }
        assert!(r["lr_gold"].as_u64().is_some());
    }
    // A file that is not a Lode Runner level is refused, and nothing is written.
    let bad = dir.path().join("Level 2.txt");
    std::fs::write(&bad, "BBB\n...\n").unwrap();
    let none = dir.path().join("none.ron");
    let out = studio()
        .args(["import", "--format", "vglc-lode-runner"])
        .arg(&bad)
        .arg("--out")
        .arg(&none)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("22"));
    assert!(!none.exists());
}
