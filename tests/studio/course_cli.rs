//! The command line on courses: validate prints the evaluation, generate makes random
//! courses, eval measures a generator, bad files say what is wrong.

use crate::assert_ok;
use level_studio::course::CourseFigures;
use std::process::Command;

fn studio() -> Command {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
}

/// Six middling enemies, recoveries after the 2nd and 4th, a middling boss.
const COURSE: &str = "505050505050\n505050505050\n005000500000\n";

#[test]
fn validate_prints_the_evaluation_its_terms_and_the_strategy_counts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("course.txt");
    std::fs::write(&file, COURSE).unwrap();
    // A bare matrix needs its game: read it as a course through a level file.
    let level = level_studio::game::Game::level_from_ascii(
        &level_studio::course::CourseGame,
        "middling",
        COURSE,
    )
    .unwrap();
    let path = dir.path().join("course.ron");
    level_studio::files::save_level(&path, &level).unwrap();
    let out = studio()
        .args(["validate", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "course");
    assert_eq!(v["strategies"], 32);
    assert_eq!(v["events"], 8);
    let e = v["evaluation"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&e));
    let weights = [0.4, 0.1, 0.2, 0.1, 0.05, 0.1, 0.05];
    let sum: f64 = (1..=7)
        .map(|i| v[format!("f{i}")].as_f64().unwrap() * weights[i - 1])
        .sum();
    assert!((sum - e).abs() < 1e-9);
    let rate = v["win_rate"].as_f64().unwrap();
    assert!((rate - v["wins"].as_f64().unwrap() / 32.0).abs() < 1e-12);
}

#[test]
fn generate_and_eval_random_courses() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("random.ron");
    let run = studio()
        .args([
            "generate", "--game", "course", "--model", "random", "--count", "4", "--seed", "3",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let pack = level_studio::files::load_pack(&out).unwrap();
    assert_eq!(pack.levels.len(), 4);
    for l in &pack.levels {
        let f = l.figures_of::<CourseFigures>().expect("figures stored");
        assert_eq!(f.strategies, 64);
        assert_eq!(l.cells.len(), 3);
        assert_eq!(l.cells[0].len(), 14);
    }
    let eval = studio()
        .args([
            "eval", "--game", "course", "--model", "random", "--count", "300", "--seed", "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        eval.status.success(),
        "{}",
        String::from_utf8_lossy(&eval.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&eval.stdout).unwrap();
    let mean = v["mean_evaluation"].as_f64().unwrap();
    assert!(mean > 0.3 && mean < 0.7, "{mean}");
    assert!(v["asd"].as_f64().unwrap() > 1.0);
    assert!(v["different_winning_strategies"].as_f64().unwrap() > 1.0);
    let again = studio()
        .args([
            "eval", "--game", "course", "--model", "random", "--count", "300", "--seed", "1",
            "--json",
        ])
        .output()
        .unwrap();
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        v["mean_evaluation"], w["mean_evaluation"],
        "same seed, same figures"
    );
}

#[test]
fn bad_courses_and_conditions_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "(game: Course, name: \"x\", cells: [\"5050\", \"50x0\", \"0000\"])",
    )
    .unwrap();
    let out = studio().arg("validate").arg(&bad).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'x' is not a digit"), "{err}");
    let out = studio()
        .args([
            "eval", "--game", "course", "--model", "random", "--events", "10",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("9 or 12 events"));
    let out = studio()
        .args([
            "generate", "--game", "course", "--model", "random", "--count", "1", "--out",
        ])
        .arg(dir.path().join("x.ron"))
        .args(["--size", "7x9"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn the_shipped_actors_generate_courses_and_bad_weights_say_why() {
    let dir = tempfile::tempdir().unwrap();
    for (model, events) in [("ddpg", "9"), ("vs-ddpg", "12"), ("dqn", "9"), ("sl", "12")] {
        let out = dir.path().join(format!("{model}.ron"));
        let run = studio()
            .args([
                "generate", "--game", "course", "--model", model, "--events", events, "--count",
                "3", "--seed", "1", "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let pack = level_studio::files::load_pack(&out).unwrap();
        assert_eq!(pack.levels.len(), 3);
    }
    let missing = studio()
        .args([
            "generate",
            "--game",
            "course",
            "--model",
            "ddpg",
            "--count",
            "1",
            "--weights",
        ])
        .arg(dir.path().join("none.safetensors"))
        .arg("--out")
        .arg(dir.path().join("x.ron"))
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("none.ron"));
    // Damaged weights: the stamp in the sidecar no longer matches.
    let weights = dir.path().join("bad.safetensors");
    std::fs::copy("models/course-ddpg-9.safetensors", &weights).unwrap();
    std::fs::copy("models/course-ddpg-9.ron", dir.path().join("bad.ron")).unwrap();
    let mut bytes = std::fs::read(&weights).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&weights, bytes).unwrap();
    let damaged = studio()
        .args([
            "eval",
            "--game",
            "course",
            "--model",
            "ddpg",
            "--count",
            "10",
            "--weights",
        ])
        .arg(&weights)
        .output()
        .unwrap();
    assert!(!damaged.status.success());
    assert!(
        String::from_utf8_lossy(&damaged.stderr).contains("not the one its sidecar"),
        "{}",
        String::from_utf8_lossy(&damaged.stderr)
    );
}

#[test]
fn randomized_initialization_trades_evaluation_for_diversity() {
    let out = studio()
        .args([
            "eval", "--game", "course", "--model", "vs-ddpg", "--ri", "1,3,6", "--count", "100",
            "--seed", "2", "--json",
        ])
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["ri"].as_array().unwrap();
    let asd: Vec<f64> = rows.iter().map(|r| r["asd"].as_f64().unwrap()).collect();
    let eval: Vec<f64> = rows
        .iter()
        .map(|r| r["mean_evaluation"].as_f64().unwrap())
        .collect();
    assert_eq!(rows[1]["c"], 3);
    assert!(asd[0] < asd[1] && asd[1] < asd[2], "{asd:?}");
    assert!(eval[0] > eval[2], "{eval:?}");
    let bad = studio()
        .args([
            "eval", "--game", "course", "--model", "vs-ddpg", "--ri", "7",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("randomize 1 to 6"));
}

#[test]
fn dagp_and_the_filter_from_the_command_line() {
    let out = studio()
        .args([
            "eval", "--game", "course", "--model", "vs-ddpg", "--dagp", "5,0.4", "--filter", "0.5",
            "--count", "40", "--seed", "3", "--json",
        ])
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["initial_courses"], 20);
    assert_eq!(v["count"], 40);
    assert!(v["mean_evaluation"].as_f64().unwrap() >= 0.5);
    assert!(v["tries"].as_u64().unwrap() >= 40);
    assert!(v["asd"].as_f64().unwrap() > 0.0);
    for (args, says) in [
        (["--dagp", "5"], "is not \"n,d\""),
        (["--dagp", "0,0.2"], "1 to 1000 candidates"),
        (["--filter", "1.5"], "1.5 is out of range (0 to 1)"),
    ] {
        let bad = studio()
            .args([
                "eval", "--game", "course", "--model", "ddpg", "--count", "10",
            ])
            .args(args)
            .output()
            .unwrap();
        assert!(!bad.status.success());
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let random = studio()
        .args([
            "eval", "--game", "course", "--model", "random", "--dagp", "5,0.2",
        ])
        .output()
        .unwrap();
    assert!(!random.status.success());
    assert!(String::from_utf8_lossy(&random.stderr).contains("needs a learned model"));
}

#[test]
fn generate_diverse_filtered_courses_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("diverse.ron");
    let run = studio()
        .args([
            "generate",
            "--game",
            "course",
            "--model",
            "vs-ddpg",
            "--diverse",
            "10,0.3",
            "--set",
            "ri=2",
            "--set",
            "filter=0.7",
            "--count",
            "6",
            "--seed",
            "4",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let pack = level_studio::files::load_pack(&out).unwrap();
    assert_eq!(pack.levels.len(), 6);
    for level in pack.levels.iter() {
        let course = level_studio::course::Course::from_rows(&level.cells).unwrap();
        assert!(level_studio::course::evaluate(&course).value >= 0.7);
    }
    let bad = studio()
        .args([
            "generate",
            "--game",
            "course",
            "--model",
            "vs-ddpg",
            "--diverse",
            "10",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--diverse"));
}

#[test]
fn the_ddpg_settings_belong_to_their_models_and_reach_the_sidecar() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("vs.safetensors");
    let train = |model: &str, extra: &[&str]| {
        studio()
            .args(["train", "--model", model, "--events", "9", "--epochs", "60"])
            .args(extra)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };
    for (model, flag, value) in [
        ("course-ddpg", "--virtual-completions", "3"),
        ("course-ddpg", "--completion-noise", "0"),
        ("course-dqn", "--actor-lr", "0.001"),
        ("course-sl", "--tau", "0.01"),
    ] {
        let run = train(model, &[flag, value]);
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{model} {flag}");
        assert!(err.contains(flag) && err.contains(model), "{err}");
        assert!(!out.exists(), "a refused run wrote weights");
    }
    let run = train("course-vs-ddpg", &["--virtual-completions", "0"]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("1 to 100"));
    let run = train(
        "course-vs-ddpg",
        &[
            "--virtual-completions",
            "2",
            "--completion-noise",
            "0",
            "--actor-lr",
            "0.00001",
            "--tau",
            "0.001",
        ],
    );
    assert_ok(&run);
    let sidecar = std::fs::read_to_string(out.with_extension("ron")).unwrap();
    assert!(sidecar.contains("virtual_completions: 2"), "{sidecar}");
    assert!(
        sidecar.contains(
            "--epochs 60 --virtual-completions 2 --completion-noise 0 --actor-lr 0.00001 --tau 0.001 --seed"
        ),
        "{sidecar}"
    );
}
