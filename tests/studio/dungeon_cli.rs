//! The command line on dungeon rooms: validate (with the agent ladder), graph, generate.

use crate::assert_ok;
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
    assert_ok(&out);
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
    assert_ok(&out);
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

#[test]
fn fi2pop_evolves_alpha_and_beta_rooms_and_eval_profiles_the_agents_on_them() {
    let dir = tempfile::tempdir().unwrap();
    let pack = |fitness: &str| {
        let out = dir.path().join(format!("{fitness}.ron"));
        let run = studio()
            .args(["generate", "--game", "dungeon", "--model", "fi2pop"])
            .args([
                "--fitness",
                fitness,
                "--generations",
                "6",
                "--population",
                "20",
            ])
            .args(["--count", "3", "--seed", "2", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(
            stderr.contains("generation"),
            "progress on stderr: {stderr}"
        );
        out
    };
    let (alpha, beta) = (pack("alpha"), pack("beta"));
    let text = std::fs::read_to_string(&alpha).unwrap();
    assert_eq!(text.matches("fi2pop-alpha-13x9-").count(), 3, "{text}");
    // The same seed gives the same pack.
    let again = dir.path().join("again.ron");
    let run = studio()
        .args(["generate", "--game", "dungeon", "--model", "fi2pop-alpha"])
        .args(["--generations", "6", "--population", "20"])
        .args(["--count", "3", "--seed", "2", "--out"])
        .arg(&again)
        .output()
        .unwrap();
    assert!(run.status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    let out = studio()
        .args(["eval", "--game", "dungeon", "--model", "fi2pop", "--json"])
        .args(["--games", "6", "--profile"])
        .arg(&alpha)
        .arg(&beta)
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for side in ["alpha", "beta"] {
        assert!(v[side]["mean_group_size"].as_f64().unwrap() >= 1.0, "{v}");
        // By default the GVGAI-like agents, as the paper's profiles.
        assert_eq!(v["agents"], "gvgai");
        assert!(v[side]["profiles"].get("planner").is_none(), "{v}");
        for agent in ["do-nothing", "random", "gvgai-one-step", "gvgai-mcts"] {
            let p = &v[side]["profiles"][agent];
            for key in ["win_rate", "normalised_score"] {
                let x = p[key].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&x), "{side} {agent} {key}: {v}");
            }
        }
        assert_eq!(v[side]["profiles"]["do-nothing"]["win_rate"], 0.0);
    }
    assert!(
        v["alpha"]["mean_group_size"].as_f64().unwrap()
            > v["beta"]["mean_group_size"].as_f64().unwrap(),
        "{v}"
    );
    // --agents studio profiles the studio's ladder.
    let out = studio()
        .args(["eval", "--game", "dungeon", "--model", "fi2pop", "--json"])
        .args(["--games", "2", "--agents", "studio", "--profile"])
        .arg(&alpha)
        .arg(&beta)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for agent in ["one-step", "planner", "mcts", "human-like"] {
        assert!(
            v["alpha"]["profiles"][agent]["win_rate"].as_f64().is_some(),
            "{v}"
        );
    }
}

#[test]
fn fi2pop_refuses_bad_flags_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.ron");
    for args in [
        vec!["--model", "random", "--fitness", "beta"],
        vec!["--model", "fi2pop", "--population", "1"],
        vec!["--model", "fi2pop", "--generations", "100000"],
        vec!["--model", "random", "--generations", "3"],
    ] {
        let run = studio()
            .args(["generate", "--game", "dungeon", "--count", "1", "--out"])
            .arg(&out)
            .args(&args)
            .output()
            .unwrap();
        assert!(!run.status.success(), "{args:?}");
        assert!(!String::from_utf8_lossy(&run.stderr).trim().is_empty());
        assert!(!out.exists(), "{args:?}");
    }
    let missing = studio()
        .args([
            "eval",
            "--game",
            "dungeon",
            "--model",
            "fi2pop",
            "--profile",
        ])
        .arg(dir.path().join("a.ron"))
        .arg(dir.path().join("b.ron"))
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("a.ron"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_long_search_and_still_writes_its_best_rooms() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("stopped.ron");
    let mut child = studio()
        .args([
            "generate",
            "--game",
            "dungeon",
            "--model",
            "fi2pop",
            "--generations",
            "500",
            "--population",
            "200",
            "--count",
            "3",
            "--seed",
            "4",
            "--out",
        ])
        .arg(&out)
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    // Wait for the search to be under way, then press Ctrl-C.
    loop {
        let mut line = String::new();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "ended early: {seen}"
        );
        seen.push_str(&line);
        if line.contains("generation 2 of 500") {
            break;
        }
    }
    // SAFETY: sending SIGINT to our own child process.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{seen}{rest}");
    assert!(rest.contains("stopped after generation"), "{rest}");
    assert!(!rest.contains("generation 500 of 500"), "{rest}");
    let pack = level_studio::files::load_pack(&out).unwrap();
    assert_eq!(pack.levels.len(), 3);
    assert!(pack.levels[0].tags.iter().any(|t| t.starts_with("fitness")));
}

/// A VGLC-sized room (16 × 11) with twelve slow monsters: its skeleton has 2¹² sets of
/// monsters alive, far past the 200,000-position budget.
const CROWDED: &str = "\
wwwwwwwwwwwwwwww
wA.............w
w..3...3...3...w
w..............w
w.3...3...3....w
w..............w
w...3...3...3..w
w..............w
w.3...3...3....w
w.............+w
wwwwwwwwwwwwwwgw
";

/// [`CROWDED`] with its key behind water.
const CUT_OFF: &str = "\
wwwwwwwwwwwwwwww
wA.............w
w..3...3...3...w
w..............w
w.3...3...3....w
w..............w
w...3...3...3..w
w..............w
w.3...3...3...~w
w............~+w
wwwwwwwwwwwwwwgw
";

/// Issue 35: a room whose exact graph passes the budget still gets its agents' figures and
/// a verdict from them, with the graph marked too large; `graph` says so and exits 1.
#[test]
fn a_room_past_the_graph_budget_gets_a_verdict_from_its_agents() {
    let dir = tempfile::tempdir().unwrap();
    let crowded = dir.path().join("crowded.txt");
    std::fs::write(&crowded, CROWDED).unwrap();
    // The same room with the key behind water: nobody wins, and nobody can say it is lost.
    let cut = dir.path().join("cut.txt");
    std::fs::write(&cut, CUT_OFF).unwrap();
    let out = studio()
        .args(["validate", "--json", "--games", "5"])
        .arg(&crowded)
        .arg(&cut)
        .output()
        .unwrap();
    assert_ok(&out);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for v in &lines {
        assert_eq!(v["graph"], "too large", "{v}");
        assert_eq!(v["graph_budget"], 200_000, "{v}");
        assert!(v["solvable"].is_null() && v["states"].is_null(), "{v}");
        let reason = v["verdict"]["reason"].as_str().unwrap();
        assert!(
            reason.contains("graph too large (200,001+ states, budget 200,000)"),
            "{v}"
        );
        for agent in ["do-nothing", "planner", "mcts", "human-like"] {
            assert!(v["agents"][agent]["win_rate"].as_f64().is_some(), "{v}");
        }
    }
    let (won, lost) = (&lines[0], &lines[1]);
    assert_eq!(won["agent_won"], true, "{won}");
    assert!(["PLAYABLE", "HARSH"].contains(&won["verdict"]["label"].as_str().unwrap()));
    assert_eq!(lost["agent_won"], false, "{lost}");
    assert_eq!(lost["verdict"]["label"], "UNKNOWN", "{lost}");
    assert_eq!(lost["verdict"]["pass"], false);

    let out = studio().arg("graph").arg(&crowded).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("graph too large (200,001+ states, budget 200,000); raise --budget"),
        "{stderr}"
    );
}
