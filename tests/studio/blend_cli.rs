//! The blend game from the command line: importing Lode Runner levels as segments, and
//! `validate` on them. Needs the VGLC folder beside the repository; skips with a reason
//! without it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::assert_ok;
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
    assert_ok(&out);
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

#[test]
fn the_shipped_vaes_generate_segments_and_bad_weights_say_why() {
    let dir = tempfile::tempdir().unwrap();
    for model in ["cte-fc", "vglc-fc", "cte-cnn", "vglc-cnn"] {
        let out = dir.path().join(format!("{model}.ron"));
        let run = studio()
            .args([
                "generate", "--game", "blend", "--model", model, "--count", "3", "--seed", "1",
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
        assert_eq!(pack.levels.len(), 3);
        for level in pack.levels.iter() {
            assert!(level_studio::blend::level::check_rows(&level.cells).is_ok());
        }
    }
    // Damaged weights: the stamp in the sidecar no longer matches.
    let weights = dir.path().join("bad.safetensors");
    std::fs::copy("models/blend-vglc-fc.safetensors", &weights).unwrap();
    std::fs::copy("models/blend-vglc-fc.ron", dir.path().join("bad.ron")).unwrap();
    let mut bytes = std::fs::read(&weights).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&weights, bytes).unwrap();
    let run = studio()
        .args([
            "generate",
            "--game",
            "blend",
            "--model",
            "vglc-fc",
            "--count",
            "1",
            "--weights",
        ])
        .arg(&weights)
        .arg("--out")
        .arg(dir.path().join("x.ron"))
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("not the one its sidecar"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn eval_prints_table_two_beside_the_paper() {
    if !Path::new(LEVEL_1).is_file() {
        println!("skipped: the VGLC folder beside the repository is not here");
        return;
    }
    let out = studio()
        .args([
            "eval", "--game", "blend", "--model", "vglc-fc", "--count", "200", "--seed", "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["count"], 200);
    for key in ["e_distance", "lr_playable", "loz_playable"] {
        let x = v[key].as_f64().unwrap();
        assert!(x >= 0.0, "{key} {x}");
    }
    assert!(v["lr_playable"].as_f64().unwrap() <= 1.0);
    assert_eq!(v["paper"]["e_distance"], 0.1755);
    assert!(v["metrics"]["density"]["mean"].as_f64().is_some());
    let bad = studio()
        .args(["eval", "--game", "blend", "--model", "gan"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr)
        .contains("cte-fc, vglc-fc, pix-fc, cte-cnn, vglc-cnn, pix-cnn, dataset"));
}

#[test]
fn eval_plot_draws_the_blend_percentage_curves_and_interpolate_walks_segments() {
    if !Path::new(LEVEL_1).is_file() {
        println!("skipped: the VGLC folder beside the repository is not here");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("curves.png");
    let out = studio()
        .args([
            "eval", "--game", "blend", "--model", "vglc-cnn", "--count", "100", "--plot",
        ])
        .arg(&png)
        .output()
        .unwrap();
    assert_ok(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("blend-percentage curves: 100 walks, 1100 segments"),
        "{text}"
    );
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (640, 420));
    // The dataset has no curves to draw.
    let out = studio()
        .args(["eval", "--game", "blend", "--model", "dataset", "--plot"])
        .arg(&png)
        .output()
        .unwrap();
    assert!(!out.status.success());
    // A Lode Runner quadrant to a Zelda room, headless.
    let lr = dir.path().join("lr.ron");
    let zelda = dir.path().join("zelda.ron");
    for (args, out) in [
        (vec!["import", "--format", "vglc-lode-runner", LEVEL_1], &lr),
        (
            vec![
                "generate",
                "--game",
                "blend",
                "--model",
                "dataset",
                "--set",
                "lode_runner=false",
                "--count",
                "1",
            ],
            &zelda,
        ),
    ] {
        let run = studio().args(args).arg("--out").arg(out).output().unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    let walk = dir.path().join("walk.ron");
    let mut a = lr.as_os_str().to_owned();
    a.push("#2");
    let mut b = zelda.as_os_str().to_owned();
    b.push("#1");
    let run = studio()
        .arg("interpolate")
        .arg(&a)
        .arg(&b)
        .args(["--model", "cte-cnn", "--steps", "3", "--validate", "--out"])
        .arg(&walk)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("t = ")).count(),
        5,
        "{text}"
    );
    let pack = level_studio::files::load_pack(&walk).unwrap();
    assert_eq!(pack.levels.len(), 5);
    assert!(pack
        .levels
        .iter()
        .all(|l| l.game == level_studio::blend::ID));
    assert!(pack.levels.iter().all(|l| l.figures.is_some()), "validated");
}

/// Runs `train --model M FLAG V --out …` for each (model, value, what the refusal names) and
/// checks that it fails naming the flag and that, and writes nothing.
fn refused_before_training(flag: &str, cases: &[(&str, &str, &str)]) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never.safetensors");
    for &(model, value, says) in cases {
        let done = studio()
            .args(["train", "--model", model, flag, value, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(!done.status.success(), "{model} {flag} {value}");
        let err = String::from_utf8_lossy(&done.stderr);
        assert!(err.contains(flag) && err.contains(says), "{err}");
        assert!(!out.exists(), "{model} {value}: nothing is written");
    }
}

#[test]
fn neighbours_is_refused_for_the_unified_models_before_any_training() {
    // The unified models take no --neighbours, and a value other than the two is refused by
    // name.
    refused_before_training(
        "--neighbours",
        &[
            ("blend-vglc-fc", "tags", "blend-cte-fc"),
            ("blend-cte-fc", "pixels", "tags"),
            ("blend-pix-fc", "tags", "pixels"),
        ],
    );
}

#[test]
fn fc_widths_is_refused_for_the_cnn_models_before_any_training() {
    // A CNN-VAE has no FC widths, and a value other than the two is refused by name.
    refused_before_training(
        "--fc-widths",
        &[
            ("blend-cte-cnn", "paper", "blend-vglc-fc"),
            ("blend-vglc-cnn", "paper", "CNN-VAE"),
            ("blend-vglc-fc", "huge", "paper"),
        ],
    );
}

#[test]
fn table_is_refused_for_the_models_not_learned_from_pixels_before_any_training() {
    // Only the pixel representation draws its decode table by occurrences, and a value other
    // than the two is refused by name.
    refused_before_training(
        "--table",
        &[
            ("blend-cte-fc", "occurrences", "blend-pix-fc"),
            ("blend-vglc-cnn", "distinct", "not learned from pixels"),
            ("blend-pix-fc", "often", "occurrences"),
        ],
    );
}
