//! The command line on Mario levels: import from the VGLC and the Mario AI Framework, export
//! back, validate with A* and the human-like agent, and the Table 6.2 comparison.

use crate::assert_ok;
use std::path::Path;
use std::process::Command;

fn studio() -> Command {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
}

/// A 40-column level in the studio's letters: a gap, a pipe, a goomba, boxes.
fn level_text() -> String {
    let mut rows = vec!["-".repeat(40); 15];
    rows[9] = format!("{}S@S!{}", "-".repeat(10), "-".repeat(26));
    rows[11] = format!("{}<>{}", "-".repeat(22), "-".repeat(16));
    rows[12] = format!("-M{}g-----[]{}F-", "-".repeat(14), "-".repeat(14));
    let ground = format!("{}---{}", "X".repeat(16), "X".repeat(21));
    rows[13] = ground.clone();
    rows[14] = ground;
    rows.join("\n") + "\n"
}

fn run(args: &[&str]) -> std::process::Output {
    studio().args(args).output().unwrap()
}

#[test]
fn validate_prints_playability_the_indicators_and_the_rewards() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("level.txt");
    std::fs::write(&file, level_text()).unwrap();
    let out = studio()
        .args(["validate", "--json", "--game", "mario"])
        .arg(&file)
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "mario");
    assert_eq!(v["playable"], true);
    assert!(v["astar_ticks"].as_u64().unwrap() > 40);
    assert_eq!(v["trials"], 10);
    for key in [
        "jumps",
        "enemy_damage",
        "hole_damage",
        "long_presses",
        "total_damage",
        "r_diff",
        "r_mono",
        "evaluation",
    ] {
        assert!(v[key].as_f64().is_some_and(f64::is_finite), "{key}: {v}");
    }
    let total = v["enemy_damage"].as_f64().unwrap() + 1.1 * v["hole_damage"].as_f64().unwrap();
    assert!((v["total_damage"].as_f64().unwrap() - total).abs() < 1e-9);
    let eval = v["r_diff"].as_f64().unwrap() + v["r_mono"].as_f64().unwrap();
    assert!((v["evaluation"].as_f64().unwrap() - eval).abs() < 1e-9);
    assert!(v["virtual_damage_places"].is_array());
    // Same seed, same figures.
    let again = studio()
        .args(["validate", "--json", "--game", "mario"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn an_unplayable_level_scores_zero_and_says_where_a_star_failed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("wall.txt");
    // A wall eleven blocks high: no jump clears it.
    let mut rows: Vec<String> = vec!["-".repeat(30); 15];
    for row in rows.iter_mut().take(13).skip(2) {
        row.replace_range(15..16, "#");
    }
    rows[13] = "X".repeat(30);
    rows[14] = "X".repeat(30);
    std::fs::write(&file, rows.join("\n") + "\n").unwrap();
    let out = studio()
        .args(["validate", "--json", "--game", "mario"])
        .arg(&file)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["playable"], false, "{v}");
    assert_eq!(v["evaluation"], 0.0);
    let why = v["astar_failure"].as_str().unwrap();
    assert!(why.contains("column"), "{why}");
}

#[test]
fn mario_ai_text_imports_exports_and_refuses_an_unknown_letter() {
    let dir = tempfile::tempdir().unwrap();
    // The framework writes pipes as columns of 't' and bullet bills as '*'.
    let mut rows = vec!["-".repeat(24); 16];
    rows[12] = format!("{}tt{}*{}", "-".repeat(8), "-".repeat(6), "-".repeat(7));
    rows[13] = "-M------tt------*---E-F-".to_string();
    rows[14] = "X".repeat(24);
    rows[15] = "X".repeat(24);
    let file = dir.path().join("lvl-1.txt");
    std::fs::write(&file, rows.join("\n") + "\n").unwrap();
    let pack = dir.path().join("ai.ron");
    let out = studio()
        .args(["import", "--format", "mario-ai"])
        .arg(&file)
        .arg("--out")
        .arg(&pack)
        .output()
        .unwrap();
    assert_ok(&out);
    let text = std::fs::read_to_string(&pack).unwrap();
    assert!(
        text.contains("<>") && text.contains("[]") && text.contains('B'),
        "{text}"
    );
    // Export back to both formats.
    for format in ["mario-ai", "vglc-mario"] {
        let out_dir = dir.path().join(format);
        let out = studio()
            .args(["export"])
            .arg(&pack)
            .args(["--format", format, "--out"])
            .arg(&out_dir)
            .output()
            .unwrap();
        assert_ok(&out);
        let written = std::fs::read_to_string(out_dir.join("01-lvl-1.txt")).unwrap();
        assert_eq!(written.lines().count(), 16);
    }
    // A spiky is one of the framework's tiles now; a letter the framework does not have is
    // refused with its place, and nothing is written.
    rows[13] = "-M------tt------*---y-F-".to_string();
    std::fs::write(&file, rows.join("\n") + "\n").unwrap();
    let spiky = dir.path().join("spiky.ron");
    let out = studio()
        .args(["import", "--format", "mario-ai"])
        .arg(&file)
        .arg("--out")
        .arg(&spiky)
        .output()
        .unwrap();
    assert_ok(&out);
    rows[13] = "-M------tt------*---Z-F-".to_string();
    std::fs::write(&file, rows.join("\n") + "\n").unwrap();
    let refused = dir.path().join("refused.ron");
    let out = studio()
        .args(["import", "--format", "mario-ai"])
        .arg(&file)
        .arg("--out")
        .arg(&refused)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("row 14, column 21") && err.contains("'Z'"),
        "{err}"
    );
    assert!(!refused.exists());
}

#[test]
fn the_vglc_levels_import_and_a_star_finishes_every_one() {
    let dir = level_studio::mario::formats::vglc_levels_dir();
    if !dir.is_dir() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let out_dir = tempfile::tempdir().unwrap();
    let pack = out_dir.path().join("vglc.ron");
    let out = studio()
        .args(["import", "--format", "vglc-mario"])
        .arg(&dir)
        .arg("--out")
        .arg(&pack)
        .output()
        .unwrap();
    assert_ok(&out);
    let out = studio()
        .args(["validate", "--json", "--games", "2"])
        .arg(&pack)
        .output()
        .unwrap();
    assert_ok(&out);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 15);
    for v in &lines {
        assert_eq!(v["playable"], true, "{}", v["level"]);
    }
    // Bad letters are refused with their place.
    let bad = out_dir.path().join("bad.txt");
    std::fs::write(&bad, "Z".repeat(20) + "\n").unwrap();
    let out = run(&[
        "import",
        "--format",
        "vglc-mario",
        bad.to_str().unwrap(),
        "--out",
        out_dir.path().join("bad.ron").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("row 1, column 1"));
    assert!(!Path::new(&out_dir.path().join("bad.ron")).exists());
}

#[test]
fn random_patterns_generate_and_eval_when_the_vglc_is_here() {
    if !level_studio::mario::formats::vglc_levels_dir().is_dir() {
        eprintln!("skipped: the VGLC folder is absent");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("random.ron");
    let args = |seed: &str, out: &Path| {
        let mut c = studio();
        c.args([
            "generate",
            "--game",
            "mario",
            "--model",
            "random-patterns",
            "--set",
            "length=10",
            "--count",
            "3",
            "--seed",
            seed,
            "--out",
        ])
        .arg(out);
        c
    };
    let out = args("4", &pack).output().unwrap();
    assert_ok(&out);
    let again = dir.path().join("again.ron");
    assert!(args("4", &again).output().unwrap().status.success());
    let a = level_studio::files::load_pack(&pack).unwrap();
    let b = level_studio::files::load_pack(&again).unwrap();
    assert_eq!(a.levels.len(), 3);
    for (x, y) in a.levels.iter().zip(&b.levels) {
        assert_eq!(x.cells, y.cells, "same seed, same levels");
        assert_eq!(x.cells[0].len(), 41, "10 patterns and the goal column");
        assert_eq!(x.cells.len(), 14);
    }
    let out = run(&[
        "eval",
        "--game",
        "mario",
        "--model",
        "random-patterns",
        "--count",
        "6",
        "--seed",
        "2",
        "--json",
    ]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["count"], 6);
    for key in [
        "mean_evaluation",
        "mean_r_diff",
        "mean_r_mono",
        "kl_level",
        "different_tiles",
    ] {
        assert!(v[key].as_f64().is_some_and(f64::is_finite), "{key}: {v}");
    }
    assert!(v["unplayable"].as_u64().unwrap() <= 6);
    assert!(v["different_tiles"].as_f64().unwrap() > 10.0);
}

#[test]
fn the_cgan_trains_generates_and_draws_its_latent_map_when_the_vglc_is_here() {
    if !level_studio::mario::formats::vglc_levels_dir().is_dir() {
        eprintln!("skipped: the VGLC folder is absent");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The five shortest VGLC levels (three held out, two to train on): the command's whole
    // path (two epochs, so that its levels are worth keeping) in a sixth of the time of one
    // epoch on the 15 levels.
    let data = dir.path().join("vglc");
    std::fs::create_dir(&data).unwrap();
    for name in ["3-3", "1-3", "5-3", "1-2", "6-3"] {
        let file = format!("mario-{name}.txt");
        std::fs::copy(
            level_studio::mario::formats::vglc_levels_dir().join(&file),
            data.join(&file),
        )
        .unwrap();
    }
    let weights = dir.path().join("cgan.safetensors");
    let out = studio()
        .args([
            "train",
            "--model",
            "mario-cgan",
            "--epochs",
            "2",
            "--seed",
            "3",
        ])
        .arg("--data")
        .arg(&data)
        .arg("--out")
        .arg(&weights)
        .output()
        .unwrap();
    assert_ok(&out);
    let sidecar = std::fs::read_to_string(dir.path().join("cgan.ron")).unwrap();
    assert!(sidecar.contains("mario-cgan-cnn-appendix-a-v1") && sidecar.contains("test_levels"));
    // Trained and held out among the five levels given, none else.
    assert!(
        sidecar.contains("6-3") && !sidecar.contains("1-1"),
        "{sidecar}"
    );
    let pack = dir.path().join("cgan.ron.pack.ron");
    let out = studio()
        .args([
            "generate", "--game", "mario", "--model", "cgan", "--count", "2", "--seed", "5",
        ])
        .args(["--weights"])
        .arg(&weights)
        .arg("--out")
        .arg(&pack)
        .output()
        .unwrap();
    assert_ok(&out);
    assert_eq!(
        level_studio::files::load_pack(&pack).unwrap().levels.len(),
        2
    );
    let png = dir.path().join("map.png");
    let out = studio()
        .args([
            "eval", "--game", "mario", "--model", "cgan", "--count", "3", "--json",
        ])
        .arg("--weights")
        .arg(&weights)
        .arg("--plot")
        .arg(&png)
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["model"], "cgan");
    assert!(v["mean_evaluation"].as_f64().is_some());
    assert!(String::from_utf8_lossy(&out.stderr).contains("distinct raw patterns"));
    assert!(png.is_file());
    // The Fig. 6.9 counts alone, as JSON.
    let out = studio()
        .args([
            "eval", "--game", "mario", "--model", "cgan", "--map", "--json",
        ])
        .arg("--weights")
        .arg(&weights)
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["map_points"], 10201);
    let (raw, matched) = (
        v["map_raw_distinct"].as_u64().unwrap(),
        v["map_matched_distinct"].as_u64().unwrap(),
    );
    assert!(
        (1..=10201).contains(&raw) && (1..=raw).contains(&matched),
        "{v}"
    );
    // --map belongs to the CGAN.
    let out = studio()
        .args(["eval", "--game", "mario", "--model", "td3", "--map"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--map is the CGAN's latent map"));
    // A damaged weights file is refused in words.
    std::fs::write(&weights, b"not weights").unwrap();
    let out = studio()
        .args([
            "eval",
            "--game",
            "mario",
            "--model",
            "cgan",
            "--count",
            "2",
            "--weights",
        ])
        .arg(&weights)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cgan.safetensors"));
}

#[test]
fn td3_generates_playable_levels_and_more_like_this_keeps_the_first_patterns() {
    use level_studio::game::{Conditions, GenRequest, ModelCache};
    if !level_studio::mario::formats::vglc_levels_dir().is_dir() {
        eprintln!("skipped: the VGLC folder is absent");
        return;
    }
    let models = ModelCache::new(Path::new("models"));
    let request = |id: &'static str, count: usize| GenRequest {
        game: level_studio::mario::ID,
        generator: id,
        conditions: Conditions::default(),
        count,
        seed: 3,
        validated_only: false,
        weights: None,
    };
    let cancel = level_studio::jobs::Cancel::default();
    for id in ["td3", "vs-td3"] {
        let mut made = Vec::new();
        level_studio::generation::run(
            &request(id, 4),
            &models,
            &cancel,
            &mut |_, _| {},
            &mut |c| made.push(c),
        )
        .unwrap();
        assert_eq!(made.len(), 4, "{id}");
        assert!(
            made.iter().all(|c| c.verdict.pass),
            "{id}: A* finishes every level"
        );
        let source = made[0].level.clone();
        let mut near = Vec::new();
        let mut reports: Vec<(f32, String)> = Vec::new();
        level_studio::generation::run_near(
            &source,
            &request(id, 5),
            &models,
            &cancel,
            &mut |f, note| reports.push((f, note)),
            &mut |c| near.push(c),
        )
        .unwrap();
        // Issue 69, W4: "More like this" reports as each level arrives, not "starting" only.
        assert!(reports.len() > near.len(), "{id}: {reports:?}");
        assert!(
            reports.windows(2).all(|w| w[0].0 <= w[1].0),
            "{id}: the bar only moves forward"
        );
        assert!(
            reports.iter().any(|(_, n)| n.contains(" of 5")),
            "{reports:?}"
        );
        assert!(
            near.len() >= 3,
            "{id}: {} levels like the first",
            near.len()
        );
        for c in &near {
            assert_ne!(c.level.cells, source.cells);
            for row in 0..source.cells.len() {
                assert_eq!(
                    c.level.cells[row][..12],
                    source.cells[row][..12],
                    "{id}: the first three patterns are kept"
                );
            }
        }
    }
    // The table's command: rows per RI and a DAGP row, every figure there.
    let out = run(&[
        "eval", "--game", "mario", "--model", "td3", "--count", "6", "--seed", "1", "--ri", "1,3",
        "--dagp", "5,0.1", "--json",
    ]);
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["ri"], 1);
    assert_eq!(rows[2]["dagp"]["n"], 5);
    for row in rows {
        for key in [
            "mean_evaluation",
            "mean_r_diff",
            "mean_r_mono",
            "kl_level",
            "different_tiles",
        ] {
            assert!(
                row[key].as_f64().is_some_and(f64::is_finite),
                "{key}: {row}"
            );
        }
        assert!(row["unplayable"].as_u64().is_some());
    }
    // Issue 44, item 5: DAGP changes the levels at each of the thesis's distances (on
    // KL_pattern's scale 0.2 keeps out only near-copies of the actor's pattern), so its rows
    // differ from RI 2's, which start the same.
    let figures = |args: &[&str]| {
        let mut all = vec!["eval", "--game", "mario", "--model", "td3", "--count", "8"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--seed", "1", "--json"]);
        let out = run(&all);
        assert_ok(&out);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let row = v["rows"][0].clone();
        (row["different_tiles"].as_f64(), row["kl_level"].as_f64())
    };
    let ri2 = figures(&["--ri", "2"]);
    for d in ["0.1", "0.2"] {
        let dagp = figures(&["--dagp", &format!("20,{d}")]);
        assert_ne!(dagp, ri2, "DAGP at {d} changed no level");
    }
}

/// `eval --ri` is refused out of range instead of clamped (issue 48, F23), and a list longer
/// than the table it makes is refused before any work (F22).
#[test]
fn eval_refuses_an_ri_out_of_range_or_a_list_longer_than_its_table() {
    for (ri, says) in [
        ("0", "--ri 0: randomized initialization places 1 to 10"),
        ("2,99", "--ri 99: randomized initialization places 1 to 10"),
    ] {
        let out = run(&["eval", "--game", "mario", "--model", "td3", "--ri", ri]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(says), "{ri}: {err}");
    }
    let long = vec!["1"; 101].join(",");
    let out = run(&["eval", "--game", "mario", "--model", "td3", "--ri", &long]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--ri lists 101 values; it takes at most 100"),
        "{err}"
    );
}

/// Mario's `eval --dagp` takes what Generate takes (issue 48, F23): at most 50 candidates, a
/// distance of 0 to 1, and no noise rate, which Mario would ignore.
#[test]
fn eval_refuses_a_dagp_generate_would_refuse_or_a_noise_rate_it_would_ignore() {
    for (dagp, says) in [
        ("1000,0.1", "Mario's DAGP draws 1 to 50 candidates"),
        ("10,0.1,0.5", "Mario's DAGP has no noise rate"),
        ("10,1e308", "Mario's DAGP distance is 0 to 1"),
    ] {
        let out = run(&["eval", "--game", "mario", "--model", "td3", "--dagp", dagp]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(says), "{dagp}: {err}");
    }
}

/// `train --model mario-td3 --out` the CGAN it steers is refused before any work, however the
/// path is spelled, and the CGAN is left as it was (issue 48, F20).
#[test]
fn training_an_actor_over_the_cgan_it_steers_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cgan = dir.path().join("cgan.safetensors");
    std::fs::copy("models/mario-cgan.safetensors", &cgan).unwrap();
    std::fs::copy("models/mario-cgan.ron", dir.path().join("cgan.ron")).unwrap();
    let before = std::fs::read(&cgan).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    for out in [
        cgan.clone(),
        dir.path().join("sub/../cgan.safetensors"),
        dir.path().join("cgan.ron"),
    ] {
        let done = studio()
            .args(["train", "--model", "mario-td3", "--epochs", "1", "--out"])
            .arg(&out)
            .env("MARIO_CGAN", &cgan)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert!(!done.status.success(), "{}: {err}", out.display());
        assert!(
            err.contains("which this command reads"),
            "{}: {err}",
            out.display()
        );
    }
    assert_eq!(std::fs::read(&cgan).unwrap(), before);
}

/// A run cannot stop after more episodes than it has, and says so before any work.
#[test]
fn td3_stop_after_past_the_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never.safetensors");
    for (model, epochs) in [("mario-td3", Some("10")), ("mario-vs-td3", None)] {
        let done = studio()
            .args(["train", "--model", model, "--stop-after", "5000"])
            .args(epochs.into_iter().flat_map(|e| ["--epochs", e]))
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert!(!done.status.success(), "{model}: {err}");
        assert!(
            err.contains("--stop-after 5000 is past the run's"),
            "{model}: {err}"
        );
        assert!(!out.exists(), "{model}: nothing is written");
    }
}

/// The TD3 actors' training settings are refused, in words, by the models that do not take
/// them, before any work and without writing anything.
#[test]
fn td3_training_settings_are_refused_by_models_that_do_not_take_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never.safetensors");
    for (model, flag, value, says) in [
        ("mario-td3", "--completion-noise", "0", "mario-vs-td3"),
        ("mario-td3", "--vs-reward", "mean", "mario-vs-td3"),
        ("mario-cgan", "--completion-noise", "0", "TD3 actors"),
        ("mario-cgan", "--actor-lr", "0.001", "TD3 actors"),
        ("mario-cgan", "--tau", "0.005", "TD3 actors"),
        ("mario-cgan", "--train-every", "2", "TD3 actors"),
        ("mario-cgan", "--vs-reward", "live", "TD3 actors"),
        ("mario-cgan", "--updates-per-step", "4", "TD3 actors"),
        ("mario-cgan", "--test-every", "100", "TD3 actors"),
        ("mario-cgan", "--test-levels", "100", "TD3 actors"),
        ("mario-cgan", "--test-average", "", "TD3 actors"),
        ("mario-cgan", "--stop-after", "10", "TD3 actors"),
    ] {
        let done = studio()
            .args(["train", "--model", model, flag])
            .args((!value.is_empty()).then_some(value))
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert!(!done.status.success(), "{model} {flag}: {err}");
        assert!(
            err.contains(flag) && err.contains(says),
            "{model} {flag}: {err}"
        );
        assert!(!out.exists(), "{model} {flag}: nothing is written");
    }
}
