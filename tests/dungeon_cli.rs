//! The command line on dungeon rooms: validate (with the agent ladder), graph, generate.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

fn studio() -> Command {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
}

const ROOM: &str = "wwwwwwwww\nwA......w\nw..w....w\nw..w.3..w\nw......+w\nwg......w\nwwwwwwwww\n";

#[test]
fn validate_prints_the_skeleton_and_every_agent() {
    let dir = tempfile::tempdir().unwrap();
    let room = dir.path().join("room.txt");
    std::fs::write(&room, ROOM).unwrap();
    let out = studio()
        .args(["validate", "--json", "--games", "10"])
        .arg(&room)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "dungeon");
    assert_eq!(v["solvable"], true);
    assert!(v["shortest_solution"].as_u64().unwrap() >= 10);
    assert!(v["states"].as_u64().unwrap() > 10);
    assert!(v["difficulty"].as_f64().is_some());
    for agent in [
        "do-nothing",
        "random",
        "one-step",
        "planner",
        "mcts",
        "human-like",
    ] {
        let a = &v["agents"][agent];
        for key in ["win_rate", "mean_ticks", "mean_score"] {
            assert!(a[key].as_f64().is_some(), "{agent} {key}: {v}");
        }
    }
    assert_eq!(v["agents"]["do-nothing"]["win_rate"], 0.0);
    assert!(v["agents"]["human-like"]["mean_virtual_damage"]
        .as_f64()
        .is_some());
    assert!(v["agents"]["planner"].get("mean_virtual_damage").is_none());
}

#[test]
fn graph_writes_dot_and_generate_makes_valid_rooms() {
    let dir = tempfile::tempdir().unwrap();
    let room = dir.path().join("room.txt");
    std::fs::write(&room, ROOM).unwrap();
    let dot = dir.path().join("room.dot");
    let out = studio()
        .args(["graph", "--json"])
        .arg(&room)
        .arg("--dot")
        .arg(&dot)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&dot)
        .unwrap()
        .starts_with("digraph"));
    for model in ["random", "constructive"] {
        let pack = dir.path().join(format!("{model}.ron"));
        let out = studio()
            .args([
                "generate", "--game", "dungeon", "--model", model, "--count", "5",
            ])
            .args(["--size", "11x8", "--seed", "3", "--out"])
            .arg(&pack)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{model}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let levels = level_studio::files::load_pack(&pack).unwrap().levels;
        assert_eq!(levels.len(), 5);
        assert!(levels
            .iter()
            .all(|l| l.cells.len() == 8 && l.cells[0].len() == 11));
    }
}
