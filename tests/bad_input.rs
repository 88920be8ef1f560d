//! Issue 13's findings, one test each: model files and the command line under bad input give
//! a clear error (never a panic) and leave the original files untouched.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use level_studio::longcat::dqn::DqnModel;
use level_studio::match3::cvae::generator::sidecar_path;
use level_studio::match3::cvae::{CvaeModel, ModelError, TrainingSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn studio() -> Command {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
}

/// Copies a shipped model (weights + sidecar) into `dir` under `name`.
fn copy_model(from: &str, dir: &Path, name: &str) -> PathBuf {
    let src = Path::new("models").join(format!("{from}.safetensors"));
    let to = dir.join(format!("{name}.safetensors"));
    std::fs::copy(&src, &to).unwrap();
    std::fs::copy(sidecar_path(&src), sidecar_path(&to)).unwrap();
    to
}

fn refused_weights(result: Result<CvaeModel, ModelError>, why: &str) {
    match result {
        Err(ModelError::CorruptWeights { reason, .. }) => {
            assert!(reason.contains(why), "{reason}");
        }
        other => panic!("expected refused weights ({why}), got {other:?}"),
    }
}

/// Replaces the first coverage entry's `min_moves` in a sidecar's text.
fn with_min_moves(text: &str, value: &str) -> String {
    let at = text.find("min_moves: ").unwrap() + "min_moves: ".len();
    let end = at + text[at..].find(',').unwrap();
    format!("{}{value}{}", &text[..at], &text[end..])
}

#[test]
fn a_sidecar_with_nan_or_reversed_moves_is_refused_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (name, value) in [("nan", "NaN"), ("reversed", "99.0"), ("inf", "inf")] {
        let w = copy_model("avalon-main", dir.path(), name);
        let side = sidecar_path(&w);
        let text = std::fs::read_to_string(&side).unwrap();
        std::fs::write(&side, with_min_moves(&text, value)).unwrap();
        let before = std::fs::read(&side).unwrap();
        match CvaeModel::load(&w) {
            Err(ModelError::CorruptSidecar { reason, .. }) => {
                assert!(reason.contains("coverage of"), "{reason}")
            }
            other => panic!("{name}: expected a refused sidecar, got {other:?}"),
        }
        // The command line says so and exits with an error, not a panic (101).
        let out = studio()
            .args(["generate", "--model", "avalon", "--moves", "12", "--count", "1"])
            .arg("--weights")
            .arg(&w)
            .arg("--out")
            .arg(dir.path().join("out.ron"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("coverage of"), "{name}: {err}");
        assert_eq!(std::fs::read(&side).unwrap(), before);
    }
}

#[test]
fn training_refuses_a_level_whose_median_moves_is_nan_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("levels/match3/main/train.ron").unwrap();
    let at = text.find("median_moves: 40.0").unwrap();
    let text = format!(
        "{}median_moves: NaN{}",
        &text[..at],
        &text[at + "median_moves: 40.0".len()..]
    );
    std::fs::write(dir.path().join("train.ron"), text).unwrap();
    match TrainingSet::load(dir.path()) {
        Err(ModelError::BadLevel { name, reason }) => {
            assert!(!name.is_empty());
            assert!(reason.contains("median moves"), "{reason}");
        }
        Err(other) => panic!("expected the level named, got {other}"),
        Ok(_) => panic!("a NaN median was accepted"),
    }
}

#[test]
fn weights_with_a_flipped_bit_or_random_bytes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let flipped = copy_model("avalon-main", dir.path(), "flipped");
    let mut bytes = std::fs::read(&flipped).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&flipped, &bytes).unwrap();
    refused_weights(CvaeModel::load(&flipped), "damaged");

    let random = copy_model("avalon-main", dir.path(), "random");
    let mut bytes = std::fs::read(&random).unwrap();
    let mut state = 7u64;
    for b in bytes.iter_mut().skip(2000) {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        *b = (state >> 56) as u8;
    }
    std::fs::write(&random, &bytes).unwrap();
    refused_weights(CvaeModel::load(&random), "damaged");

    let dqn = dir.path().join("dqn.safetensors");
    std::fs::copy("models/longcat-dqn-8x8.safetensors", &dqn).unwrap();
    std::fs::copy("models/longcat-dqn-8x8.ron", sidecar_path(&dqn)).unwrap();
    let mut bytes = std::fs::read(&dqn).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 1;
    std::fs::write(&dqn, &bytes).unwrap();
    let err = DqnModel::load(&dqn).unwrap_err().to_string();
    assert!(err.contains("damaged"), "{err}");
}

#[test]
fn nan_weights_are_refused_even_when_their_sidecar_vouches_for_them() {
    let dir = tempfile::tempdir().unwrap();
    let w = copy_model("avalon-main", dir.path(), "nan");
    let mut bytes = std::fs::read(&w).unwrap();
    // The last four bytes are the last f32 of the last tensor: make it NaN.
    let n = bytes.len();
    bytes[n - 4..].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(&w, &bytes).unwrap();
    let out = studio()
        .args(["train", "--model", "avalon", "--restamp", "--out"])
        .arg(&w)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    refused_weights(CvaeModel::load(&w), "NaN");
}

#[test]
fn a_swapped_model_of_the_same_architecture_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let w = copy_model("avalon-main", dir.path(), "swapped");
    std::fs::copy("models/avalon-stylized.safetensors", &w).unwrap();
    refused_weights(CvaeModel::load(&w), "different runs");
}

#[test]
fn a_sidecar_without_a_weights_stamp_is_refused_with_the_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let w = copy_model("vanilla-main", dir.path(), "old");
    let side = sidecar_path(&w);
    let text = std::fs::read_to_string(&side).unwrap();
    let at = text.find("  weights: Some(").unwrap();
    std::fs::write(&side, format!("{})\n", &text[..at])).unwrap();
    refused_weights(CvaeModel::load(&w), "--restamp");
}

#[test]
fn train_with_zero_epochs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("m.safetensors");
    for model in ["longcat-dqn", "avalon"] {
        let out = studio()
            .args(["train", "--model", model, "--epochs", "0", "--out"])
            .arg(&out_path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{model}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--epochs"),
            "{model}"
        );
        assert!(!out_path.exists());
    }
}

#[test]
fn a_predictor_with_a_nan_coefficient_is_refused_not_read_as_zero() {
    let text = std::fs::read_to_string("models/longcat-ridge.ron").unwrap();
    let at = text.find("intercept: ").unwrap() + "intercept: ".len();
    let end = at + text[at..].find(',').unwrap();
    let bad = format!("{}NaN{}", &text[..at], &text[end..]);
    let err = level_studio::longcat::ridge::RidgeModel::from_ron("bad.ron", &bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a finite number"), "{err}");
}
