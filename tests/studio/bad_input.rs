//! Issue 13's findings, one test each: model files and the command line under bad input give
//! a clear error (never a panic) and leave the original files untouched.

use crate::assert_ok;
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
            .args([
                "generate", "--model", "avalon", "--moves", "12", "--count", "1",
            ])
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
    // The dataset reader refuses the figure, naming the level (the sample check behind it
    // refuses one given by hand too).
    let err = match TrainingSet::load(dir.path()) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a NaN median was accepted"),
    };
    assert!(
        err.contains("main-train-0001") && err.contains("median_moves is NaN"),
        "{err}"
    );
    let pack = level_studio::files::load_pack(Path::new("levels/match3/main/test.ron")).unwrap();
    match level_studio::match3::cvae::Sample::from_level(&pack.levels[0], Some(f64::NAN)) {
        Err(ModelError::BadLevel { name, reason }) => {
            assert_eq!(name, pack.levels[0].name);
            assert!(reason.contains("median moves"), "{reason}");
        }
        other => panic!("expected the level refused, got {other:?}"),
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
    assert_ok(&out);
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
        // clap refuses it (exit 2), naming the flag and its range, before any work.
        assert_eq!(out.status.code(), Some(2), "{model}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--epochs") && err.contains("1 to 1,000,000"),
            "{model}: {err}"
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

fn export_json(pack: &Path, out: &Path) -> std::process::Output {
    studio()
        .args(["export", "--format", "json"])
        .arg(pack)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn refused(out: &std::process::Output, why: &str) {
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not replaced") && err.contains(why), "{err}");
}

#[cfg(unix)]
#[test]
fn out_never_replaces_a_symlink_fifo_read_only_or_hard_linked_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let pack = Path::new("levels/match3/match3-starter.ron");
    let target = dir.path().join("target.json");
    std::fs::write(&target, "original").unwrap();

    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    refused(&export_json(pack, &link), "symbolic link");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());

    let fifo = dir.path().join("fifo.json");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    refused(&export_json(pack, &fifo), "FIFO");

    let read_only = dir.path().join("read-only.json");
    std::fs::write(&read_only, "keep").unwrap();
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = export_json(pack, &read_only);
    // Root may write anything; the studio still refuses to replace a read-only file.
    refused(&out, "read-only");
    assert_eq!(std::fs::read_to_string(&read_only).unwrap(), "keep");

    let hard = dir.path().join("hard.json");
    std::fs::hard_link(&target, &hard).unwrap();
    refused(&export_json(pack, &hard), "hard links");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "original");
    // Nothing was left behind.
    let temps = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")
        })
        .count();
    assert_eq!(temps, 0);
}

#[cfg(unix)]
#[test]
fn a_save_keeps_the_files_permissions_and_clears_stale_temporary_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("pack.json");
    std::fs::write(&out_path, "old").unwrap();
    std::fs::set_permissions(&out_path, std::fs::Permissions::from_mode(0o600)).unwrap();
    // A save killed a long time ago, and one of another process now.
    let stale = dir.path().join(".pack.json.4242.tmp");
    let fresh = dir.path().join(".pack.json.4243.tmp");
    for f in [&stale, &fresh] {
        std::fs::write(f, "partial").unwrap();
    }
    let two_days = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 24 * 3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(two_days)
        .unwrap();
    let out = export_json(Path::new("levels/match3/match3-starter.ron"), &out_path);
    assert_ok(&out);
    let mode = std::fs::metadata(&out_path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(!stale.exists());
    assert!(fresh.exists());
}

#[test]
fn unbounded_games_counts_and_files_are_refused_with_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("a.txt");
    std::fs::write(&level, "~~~~\n....\n....\n....\n").unwrap();
    let out = studio()
        .args(["validate", "--games", "4294967295"])
        .arg(&level)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 to 10,000"));

    for count in ["0", "100000000"] {
        let out = studio()
            .args([
                "generate",
                "--model",
                "rule-based",
                "--count",
                count,
                "--out",
            ])
            .arg(dir.path().join("g.ron"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{count}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--count") && err.contains("1 to 100,000"),
            "{err}"
        );
    }

    #[cfg(unix)]
    {
        // A device is refused before a byte is read (it used to be read up to the cap).
        let out = studio().args(["validate", "/dev/zero"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("/dev/zero") && err.contains("a device, not a regular file"),
            "{err}"
        );
    }
}

#[test]
fn a_byte_order_mark_is_accepted_and_bad_utf8_is_placed() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("levels/match3/match3-starter.ron").unwrap();
    let bom = dir.path().join("bom.ron");
    std::fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    level_studio::files::load_pack(&bom).unwrap();

    let bad = dir.path().join("bad.ron");
    let mut bytes = b"(\n  name: \"a".to_vec();
    bytes.push(0xff);
    std::fs::write(&bad, &bytes).unwrap();
    let err = level_studio::files::load_pack(&bad)
        .unwrap_err()
        .to_string();
    assert!(err.ends_with("bad.ron:2:11: not UTF-8 text"), "{err}");
}

#[test]
fn an_io_error_is_printed_once() {
    let out = studio()
        .args(["export", "--format", "json", "no/such/pack.ron", "--out"])
        .arg(std::env::temp_dir().join("never.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

/// The first line of stderr that names the file, without the "error: " prefix.
fn error_line(out: &std::process::Output, file: &Path) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    err.lines()
        .find(|l| l.contains(&*file.display().to_string()))
        .unwrap_or_else(|| panic!("no error names the file: {err}"))
        .trim_start_matches("error: ")
        .to_string()
}

#[test]
fn validate_graph_and_export_report_the_same_line_and_column_for_a_malformed_pack() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("levels/longcat/starter.ron").unwrap();
    // Break the fifth level's symmetry, deep in the file.
    let mut at = 0;
    for _ in 0..5 {
        at += text[at..].find("symmetry: ").unwrap() + 1;
    }
    let at = at - 1 + "symmetry: ".len();
    let broken = format!(
        "{}Diagonal{}",
        &text[..at],
        &text[at..].split_once(',').unwrap().1
    );
    let broken = broken.replacen("Diagonal", "Diagonal,", 1);
    let pack = dir.path().join("broken.ron");
    std::fs::write(&pack, broken).unwrap();
    let run = |args: &[&str]| studio().args(args).arg(&pack).output().unwrap();
    let export = error_line(
        &studio()
            .args(["export", "--format", "json"])
            .arg(&pack)
            .arg("--out")
            .arg(dir.path().join("x.json"))
            .output()
            .unwrap(),
        &pack,
    );
    let line = text[..at].lines().count();
    assert!(export.contains(&format!("broken.ron:{line}:")), "{export}");
    assert_eq!(error_line(&run(&["validate"]), &pack), export);
    assert_eq!(error_line(&run(&["graph"]), &pack), export);
}

#[test]
fn ascii_art_whose_characters_fit_several_games_is_refused_until_the_game_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // A Longcat level that lost its head: '#' and '.' are tiles of both games.
    let level = dir.path().join("headless.txt");
    std::fs::write(&level, "#....\n.#...\n.....\n").unwrap();
    let out = studio().arg("validate").arg(&level).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tiles of several games") && err.contains("--game"),
        "{err}"
    );
    let out = studio()
        .args(["validate", "--game", "longcat"])
        .arg(&level)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("head"));
    // '~' with '#' is match-3's alone: no game to name.
    let gap = dir.path().join("gap.txt");
    std::fs::write(&gap, "~..~\n.#..\n....\n....\n").unwrap();
    let out = studio().arg("validate").arg(&gap).output().unwrap();
    assert_ok(&out);
}

#[test]
fn an_unknown_field_is_an_error_at_its_line_not_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("levels/match3/match3-starter.ron").unwrap();
    let typo = text.replacen("symmetry:", "symetry:", 1);
    let path = dir.path().join("typo.ron");
    std::fs::write(&path, &typo).unwrap();
    let line = typo[..typo.find("symetry:").unwrap()].matches('\n').count() + 1;
    let err = level_studio::files::load_pack(&path)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("typo.ron:{line}:")) && err.contains("symetry"),
        "{err}"
    );
}

#[test]
fn a_nan_figure_is_refused_on_load_and_never_exported_as_null() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack =
        level_studio::files::load_pack(Path::new("levels/match3/match3-starter.ron")).unwrap();
    let Some(f) = pack.levels[2]
        .figures
        .as_mut()
        .and_then(level_studio::level::Figures::get_mut::<level_studio::match3::Match3Figures>)
    else {
        panic!("the starter levels carry figures");
    };
    f.median_moves = f64::NAN;
    let json = dir.path().join("nan.json");
    let err = level_studio::files::export_pack_json(&json, &pack)
        .unwrap_err()
        .to_string();
    assert!(err.contains("median_moves is NaN"), "{err}");
    assert!(!json.exists());
    let ron = dir.path().join("nan.ron");
    level_studio::files::save_pack(&ron, &pack).unwrap();
    let err = level_studio::files::load_pack(&ron)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&pack.levels[2].name) && err.contains("NaN"),
        "{err}"
    );
}

#[test]
fn dataset_only_an_unknown_name_and_a_negative_size_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let out = studio()
        .args(["dataset", "--only", "foo", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("main, paper, stylized"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    let out = studio()
        .args([
            "generate",
            "--model",
            "rule-based",
            "--size",
            "-3x4",
            "--out",
        ])
        .arg(dir.path().join("g.ron"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("width is not a whole number"), "{err}");
}

#[test]
fn a_sidecar_that_exists_but_cannot_be_read_says_so_not_missing() {
    let dir = tempfile::tempdir().unwrap();
    let w = copy_model("vanilla-main", dir.path(), "unreadable");
    let side = sidecar_path(&w);
    std::fs::remove_file(&side).unwrap();
    std::fs::create_dir(&side).unwrap();
    match CvaeModel::load(&w) {
        Err(ModelError::CorruptSidecar { path, .. }) => assert_eq!(path, side),
        other => panic!("expected an unreadable sidecar, got {other:?}"),
    }
}

/// A FIFO named as input — a level to validate, a Mario AI Framework file to import, or one
/// inside a folder to import — is refused at once, naming it (issue 48, F24), where the
/// command used to wait for a writer forever.
#[cfg(unix)]
#[test]
fn a_fifo_as_input_is_refused_at_once_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let mkfifo = |path: &Path| {
        let status = Command::new("mkfifo").arg(path).status().unwrap();
        assert!(status.success(), "mkfifo {}", path.display());
    };
    let level = dir.path().join("level.ron");
    mkfifo(&level);
    let text = dir.path().join("level.txt");
    mkfifo(&text);
    let folder = dir.path().join("levels");
    std::fs::create_dir(&folder).unwrap();
    mkfifo(&folder.join("lvl-1.txt"));
    let out = dir.path().join("out.ron");
    let out = out.to_str().unwrap();
    let cases: [(Vec<&str>, &Path); 3] = [
        (vec!["validate", level.to_str().unwrap()], &level),
        (
            vec![
                "import",
                "--format",
                "mario-ai",
                text.to_str().unwrap(),
                "--out",
                out,
            ],
            &text,
        ),
        (
            vec![
                "import",
                "--format",
                "mario-ai",
                folder.to_str().unwrap(),
                "--out",
                out,
            ],
            &folder.join("lvl-1.txt"),
        ),
    ];
    for (args, fifo) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_level-studio"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > std::time::Duration::from_secs(30) {
                child.kill().unwrap();
                panic!("{args:?} still waits on the FIFO after 30 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let done = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert!(!done.status.success(), "{args:?}: {err}");
        assert!(
            err.contains("not a regular file") && err.contains(&*fifo.to_string_lossy()),
            "{args:?}: {err}"
        );
    }
}
