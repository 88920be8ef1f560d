//! The Longcat command line: graph (JSON, DOT), validate, generate, eval and train, and clear
//! errors for bad input.

use std::path::Path;
use std::process::{Command, Output};

fn studio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn graph_json_has_every_variable() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "fail-dead.txt", "@.#\n...\n...\n");
    let out = studio(&["graph", &level, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "one JSON object: {text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let expect = [
        ("states", 12),
        ("size", 9),
        ("branches", 2),
        ("solutions", 1),
        ("fails", 2),
        ("shortest_solution", 5),
        ("solution_branches", 1),
        ("non_dead", 9),
        ("dead", 3),
        ("indeterminate", 1),
        ("indeterminate_branches", 0),
    ];
    for (key, value) in expect {
        assert_eq!(v[key], serde_json::json!(value), "{key} in {text}");
    }
    assert_eq!(v["solvable"], true);
    assert_eq!(v["difficulty"], 2.0);
    assert!(v["predicted_difficulty"].is_f64());
    assert_eq!(v["moves"], "DRULU");
}

#[test]
fn graph_of_an_unsolvable_level_has_null_difficulty() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "dead.txt", ".@..\n");
    let out = studio(&["graph", &level, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["solvable"], false);
    assert!(v["difficulty"].is_null());
    assert!(v["shortest_solution"].is_null());
}

#[test]
fn graph_dot_colours_the_classes() {
    let dir = tempfile::tempdir().unwrap();
    let level = write(dir.path(), "fail-dead.txt", "@.#\n...\n...\n");
    let dot = dir.path().join("g.dot");
    let out = studio(&["graph", &level, "--dot", dot.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(text.starts_with("digraph"));
    for (colour, count) in [
        ("green", 1),
        ("red", 2),
        ("purple", 3),
        ("blue", 5),
        ("yellow", 1),
    ] {
        assert_eq!(
            text.matches(&format!("fillcolor={colour},")).count(),
            count,
            "{colour}\n{text}"
        );
    }
    assert_eq!(
        text.matches(" -> ").count(),
        11,
        "a tree of 12 nodes has 11 edges"
    );
    for label in ["label=\"U\"", "label=\"D\"", "label=\"L\"", "label=\"R\""] {
        assert!(text.contains(label), "{label}");
    }
}

#[test]
fn validate_reports_longcat_levels() {
    let out = studio(&["validate", "levels/longcat/starter.ron", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 10);
    assert!(lines
        .iter()
        .all(|v| v["game"] == "longcat" && v["solvable"] == true));
    let text = studio(&["validate", "levels/longcat/starter.ron"]);
    assert!(stdout(&text).contains("difficulty"));
}

#[test]
fn starter_pack_rises_in_difficulty() {
    let out = studio(&["graph", "levels/longcat/starter.ron", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let d: Vec<f64> = stdout(&out)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["difficulty"]
                .as_f64()
                .unwrap()
        })
        .collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]), "{d:?}");
    assert!(
        d.last().unwrap() >= &10.0,
        "the pack ends non-trivial: {d:?}"
    );
    let one = studio(&[
        "graph",
        "levels/longcat/starter.ron",
        "--level",
        "3",
        "--json",
    ]);
    assert_eq!(stdout(&one).lines().count(), 1);
}

#[test]
fn generate_eval_and_train() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("sd.ron");
    let out = studio(&[
        "generate",
        "--game",
        "longcat",
        "--model",
        "solution-down",
        "--size",
        "6x5",
        "--count",
        "7",
        "--seed",
        "4",
        "--out",
        pack.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = studio(&["validate", pack.to_str().unwrap(), "--json"]);
    let lines: Vec<serde_json::Value> = stdout(&v)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7);
    assert!(lines
        .iter()
        .all(|l| l["solvable"] == true && l["width"] == 6 && l["height"] == 5));
    let again = dir.path().join("sd2.ron");
    studio(&[
        "generate",
        "--game",
        "longcat",
        "--model",
        "solution-down",
        "--size",
        "6x5",
        "--count",
        "7",
        "--seed",
        "4",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&pack).unwrap(),
        std::fs::read_to_string(&again).unwrap(),
        "same seed, same pack"
    );

    let pu = dir.path().join("pu.ron");
    let out = studio(&[
        "generate",
        "--game",
        "longcat",
        "--model",
        "puzzle-up",
        "--size",
        "5x5",
        "--count",
        "3",
        "--seed",
        "1",
        "--out",
        pu.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));

    let out = studio(&[
        "eval",
        "--game",
        "longcat",
        "--model",
        "solution-down",
        "--attempts",
        "300",
        "--size",
        "6x6",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(r["solvable_share"], 1.0);
    assert_eq!(r["attempts"], 300);
    let out = studio(&[
        "eval",
        "--game",
        "longcat",
        "--model",
        "puzzle-up",
        "--attempts",
        "200",
    ]);
    assert!(stdout(&out).contains("duplicate share"), "{}", stderr(&out));

    let csv = dir.path().join("playtest.csv");
    let mut text = String::from("level,mean_seconds\n");
    for i in 1..=7 {
        text += &format!("sd.ron#solution-down-6x5-{i:03},{}\n", 4 * i);
    }
    std::fs::write(&csv, text).unwrap();
    let model = dir.path().join("ridge.ron");
    let out = studio(&[
        "train",
        "--model",
        "longcat-ridge",
        "--data",
        csv.to_str().unwrap(),
        "--out",
        model.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = studio(&[
        "graph",
        pack.to_str().unwrap(),
        "--level",
        "1",
        "--json",
        "--predictor",
        model.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn bad_input_gets_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "nohead.ron",
            "(game: Longcat, name: \"x\", cells: [\"...\", \".#.\"])",
            "no cat head",
        ),
        (
            "twoheads.ron",
            "(game: Longcat, name: \"x\", cells: [\"@..\", \".#@\"])",
            "2 cat heads",
        ),
        (
            "big.ron",
            "(game: Longcat, name: \"x\", cells: [\"@..........\"])",
            "larger than Longcat's 10x10",
        ),
        ("chars.txt", "@..\n.x.\n", "line 2, column 2"),
    ];
    for (name, text, words) in cases {
        let path = write(dir.path(), name, text);
        let out = studio(&["graph", &path, "--json"]);
        assert!(!out.status.success(), "{name}");
        assert!(stderr(&out).contains(words), "{name}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{name}");
    }
    let big = write(
        dir.path(),
        "wide.txt",
        "...#......\n.......##.\n..#.@.....\n.#.....#..\n....#....#\n.....#.#..\n..##......\n........#.\n....#.....\n....#....#\n",
    );
    let out = studio(&["graph", &big, "--budget", "500"]);
    assert!(
        stderr(&out).contains("graph too large: more than 500 states"),
        "{}",
        stderr(&out)
    );

    let csv = write(
        dir.path(),
        "bad.csv",
        "level,mean_seconds\nx.txt,3\ny.txt,slow\n",
    );
    let out = studio(&[
        "train",
        "--model",
        "longcat-ridge",
        "--data",
        &csv,
        "--out",
        dir.path().join("m.ron").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("bad.csv:3:"), "{}", stderr(&out));
    assert!(!dir.path().join("m.ron").exists());

    let out = studio(&[
        "generate",
        "--game",
        "longcat",
        "--model",
        "solution-down",
        "--size",
        "12x4",
        "--out",
        dir.path().join("p.ron").to_str().unwrap(),
    ]);
    assert!(stderr(&out).contains("outside Longcat"), "{}", stderr(&out));
    let out = studio(&["eval", "--game", "longcat", "--model", "zigzag"]);
    assert!(
        stderr(&out).contains("unknown Longcat generator"),
        "{}",
        stderr(&out)
    );
}
