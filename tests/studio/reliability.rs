//! Issue 30's reliability holes, one test (or more) each: temporary files that follow no
//! link, model pairs that a kill cannot mix, write locks, Tiled folders swapped whole,
//! readers that never read past their cap, a bounded PNG sheet, validated generation that
//! gives the same bytes on any thread count, and the messages that said the wrong thing.
//! Kill tests run a child process (this test binary again, or the studio) that aborts at a
//! named point of a save (`LEVEL_STUDIO_CRASH_AT`), as kill -9 would stop it.

use candle_core::{Device, Tensor};
use level_studio::files;
use level_studio::io;
use level_studio::io::lock::WriteLock;
use level_studio::level::{Level, Pack};
use level_studio::match3::Layout;
use level_studio::match3::Match3Level;
use level_studio::ml::{self, Stamped, WeightsStamp};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn studio() -> Command {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

fn pack_of(n: usize, name: &str) -> Pack {
    let mut pack = Pack::new(name);
    for i in 0..n {
        pack.levels.push(Level::from_layout(
            format!("level {i}"),
            &Layout::open(5 + i % 3, 5).unwrap(),
        ));
    }
    pack
}

// ---- 3. Temporary files are created exclusively ----

#[cfg(unix)]
#[test]
fn a_symlink_planted_at_a_temporary_name_is_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.path().join("out.ron");
    // Every name this process could pick for its next saves of out.ron, and the old naming.
    let pid = std::process::id();
    std::os::unix::fs::symlink(&victim, dir.path().join(format!(".out.ron.{pid}.tmp"))).unwrap();
    for n in 0..2000 {
        let planted = dir.path().join(format!(".out.ron.{pid}.{n}.tmp"));
        std::os::unix::fs::symlink(&victim, planted).unwrap();
    }
    files::save_pack(&out, &pack_of(2, "p")).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(&out).unwrap();
    assert!(meta.file_type().is_file(), "--out became {meta:?}");
    assert_eq!(files::load_pack(&out).unwrap().levels.len(), 2);
}

// ---- 4. A model save leaves the old pair or the new pair ----

/// A sidecar of the smallest kind: a note and the weights' stamp.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct TestSidecar {
    note: String,
    weights: Option<WeightsStamp>,
}

impl Stamped for TestSidecar {
    fn stamp(&self) -> Option<&WeightsStamp> {
        self.weights.as_ref()
    }
    fn set_stamp(&mut self, stamp: WeightsStamp) {
        self.weights = Some(stamp);
    }
}

/// Saves a test model at `weights`: `note` in its sidecar, every weight `value`.
fn save(weights: &Path, note: &str, value: f32) -> Result<(), ml::WriteError> {
    let sidecar = TestSidecar {
        note: note.into(),
        weights: None,
    };
    ml::save_model(&tensors(value), &sidecar, weights)
}

fn tensors(value: f32) -> HashMap<String, Tensor> {
    let t = Tensor::full(value, (8, 8), &Device::Cpu).unwrap();
    HashMap::from([("w".to_string(), t)])
}

/// The note and first weight of the pair at `weights`, read as every loader reads it.
fn load_pair(weights: &Path) -> Result<(String, f32), ml::WeightsError> {
    let (side, sidecar): (_, TestSidecar) = ml::read_sidecar(weights)?;
    let bytes = ml::read_stamped(weights, &side, sidecar.stamp())?;
    let t = ml::tensors_from(&bytes, &Device::Cpu)?;
    let first = t["w"].flatten_all().and_then(|v| v.to_vec1::<f32>())?[0];
    Ok((sidecar.note, first))
}

/// The child's side of the kill tests: saves pair "new" (weights of 2.0) at the path in
/// `LEVEL_STUDIO_TEST_MODEL`, stopping where `LEVEL_STUDIO_CRASH_AT` says.
#[test]
fn model_save_child() {
    let Some(path) = std::env::var_os("LEVEL_STUDIO_TEST_MODEL") else {
        return;
    };
    match save(Path::new(&path), "new", 2.0) {
        Ok(()) => {}
        Err(e) => {
            eprintln!("save failed: {e}");
            std::process::exit(3);
        }
    }
}

fn save_in_child(weights: &Path, crash_at: &str) -> std::process::Output {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "reliability::model_save_child",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("LEVEL_STUDIO_TEST_MODEL", weights)
        .env("LEVEL_STUDIO_CRASH_AT", crash_at)
        .output()
        .unwrap()
}

#[test]
fn a_kill_at_any_step_of_a_model_save_leaves_a_whole_pair() {
    for point in ["model-versioned", "model-sidecar", "model-renamed", "none"] {
        for had_old in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let weights = dir.path().join("m.safetensors");
            if had_old {
                save(&weights, "old", 1.0).unwrap();
                assert_eq!(load_pair(&weights).unwrap(), ("old".into(), 1.0));
            }
            let out = save_in_child(&weights, point);
            if point == "none" {
                assert!(out.status.success(), "{}", stderr(&out));
            } else {
                assert!(!out.status.success(), "{point}: the child was not stopped");
            }
            assert!(ml::weights_present(&weights) || !had_old && point == "model-versioned");
            let pair = load_pair(&weights);
            let expected_new = matches!(point, "model-sidecar" | "model-renamed" | "none");
            match (expected_new, had_old) {
                (true, _) => assert_eq!(pair.ok(), Some(("new".into(), 2.0)), "{point}"),
                (false, true) => assert_eq!(pair.ok(), Some(("old".into(), 1.0)), "{point}"),
                // Killed before the first save counted: there is no model yet.
                (false, false) => assert!(pair.is_err(), "{point}"),
            }
            // The next save finishes the job and clears what the stopped one left.
            save(&weights, "next", 3.0).unwrap();
            assert_eq!(load_pair(&weights).unwrap(), ("next".into(), 3.0));
            let mut names: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
                .filter(|n| !n.ends_with(".tmp"))
                .collect();
            names.sort();
            assert_eq!(names, ["m.ron", "m.safetensors"], "{point}");
        }
    }
}

#[test]
fn a_second_writer_onto_a_model_or_pack_fails_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("m.safetensors");
    let _held = WriteLock::acquire(&weights).unwrap();
    // Another process saving the same model is refused, and says why.
    let out = save_in_child(&weights, "none");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("another Level Studio process is writing"),
        "{}",
        stderr(&out)
    );
    // A training onto it fails at once, before any work.
    let out = studio()
        .args(["train", "--model", "course-ddpg", "--out"])
        .arg(&weights)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("another Level Studio process is writing"),
        "{}",
        stderr(&out)
    );
    // And so does a generate run onto a pack being written.
    let pack = dir.path().join("p.ron");
    let _pack_held = WriteLock::acquire(&pack).unwrap();
    let out = studio()
        .args([
            "generate", "--game", "match3", "--model", "synth", "--size", "7x9", "--count", "1",
            "--out",
        ])
        .arg(&pack)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is writing this file now"),
        "{}",
        stderr(&out)
    );
    assert!(!pack.exists());
}

// ---- 6. A Tiled export is swapped in whole ----

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

fn export_tmj(pack: &Path, out: &Path) -> std::process::Output {
    studio()
        .args(["export", "--format", "tmj", "--out"])
        .arg(out)
        .arg(pack)
        .output()
        .unwrap()
}

#[test]
fn a_smaller_export_replaces_a_larger_one_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (big, small) = (dir.path().join("big.ron"), dir.path().join("small.ron"));
    files::save_pack(&big, &pack_of(5, "big")).unwrap();
    files::save_pack(&small, &pack_of(2, "small")).unwrap();
    let maps = dir.path().join("maps");
    assert!(export_tmj(&big, &maps).status.success());
    assert_eq!(names_in(&maps).len(), 5 + 1 + 1);
    let out = export_tmj(&small, &maps);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        names_in(&maps),
        [
            "01-level-0.tmj",
            "02-level-1.tmj",
            "match3-tiles.png",
            "small.world"
        ]
    );
    // Nothing of the swap is left beside it.
    assert_eq!(names_in(dir.path()), ["big.ron", "maps", "small.ron"]);
}

#[test]
fn a_kill_mid_export_leaves_the_old_export_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("a.ron"), dir.path().join("b.ron"));
    files::save_pack(&first, &pack_of(4, "first")).unwrap();
    files::save_pack(&second, &pack_of(3, "second")).unwrap();
    let maps = dir.path().join("maps");
    assert!(export_tmj(&first, &maps).status.success());
    let before: Vec<(String, Vec<u8>)> = names_in(&maps)
        .into_iter()
        .map(|n| (n.clone(), std::fs::read(maps.join(&n)).unwrap()))
        .collect();
    let out = studio()
        .env("LEVEL_STUDIO_CRASH_AT", "tmj-map")
        .args(["export", "--format", "tmj", "--out"])
        .arg(&maps)
        .arg(&second)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let after: Vec<(String, Vec<u8>)> = names_in(&maps)
        .into_iter()
        .map(|n| (n.clone(), std::fs::read(maps.join(&n)).unwrap()))
        .collect();
    assert_eq!(before, after);
    // The next export finishes the job.
    assert!(export_tmj(&second, &maps).status.success());
    assert!(names_in(&maps).contains(&"second.world".to_string()));
}

#[test]
fn an_export_folder_holding_other_files_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("p.ron");
    files::save_pack(&pack, &pack_of(2, "p")).unwrap();
    let maps = dir.path().join("maps");
    assert!(export_tmj(&pack, &maps).status.success());
    std::fs::write(maps.join("notes.txt"), "mine").unwrap();
    let before = names_in(&maps);
    let out = export_tmj(&pack, &maps);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("\"notes.txt\""), "{}", stderr(&out));
    assert_eq!(names_in(&maps), before);
}

// ---- 7. Readers never read past their cap ----

#[test]
fn huge_weights_are_refused_by_length_before_they_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("m.safetensors");
    save(&weights, "n", 1.0).unwrap();
    // A sparse 1 GB file in place of the weights.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&weights)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let started = std::time::Instant::now();
    let err = load_pair(&weights).unwrap_err().to_string();
    assert!(err.contains("1073741824 bytes"), "{err}");
    assert!(started.elapsed().as_secs() < 5, "it was read");
}

fn sparse(path: &Path, bytes: u64) {
    std::fs::File::create(path).unwrap().set_len(bytes).unwrap();
}

#[test]
fn an_oversized_vglc_level_or_training_set_is_refused_at_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let lode = dir.path().join("Lode Runner").join("Processed");
    std::fs::create_dir_all(&lode).unwrap();
    sparse(&lode.join("Level 1.txt"), io::MAX_FILE_BYTES + 1);
    let err = level_studio::blend::data::load(dir.path()).unwrap_err();
    assert!(err.to_string().contains("larger than 256 MiB"), "{err}");

    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    sparse(&data.join("train.ron"), io::MAX_FILE_BYTES + 1);
    let err = level_studio::match3::cvae::TrainingSet::load(&data).unwrap_err();
    assert!(err.to_string().contains("larger than 256 MiB"), "{err}");
}

// ---- 9. A PNG sheet has a pixel budget ----

#[test]
fn a_png_sheet_above_the_budget_is_refused_with_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let pack = pack_of(100_000, "huge");
    let png = dir.path().join("sheet.png");
    let err = level_studio::export::export_png(&png, &pack, &[])
        .unwrap_err()
        .to_string();
    assert!(err.contains("--format tmj"), "{err}");
    assert!(err.contains("64 million"), "{err}");
    assert!(!png.exists());
    // A pack of ordinary size is still one sheet.
    level_studio::export::export_png(&png, &pack_of(300, "fine"), &[]).unwrap();
    assert!(png.exists());
}

// ---- 10. The same seed gives the same bytes on any thread count ----

#[test]
fn validated_generation_gives_the_same_levels_on_one_and_four_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut packs = Vec::new();
    for threads in ["1", "4"] {
        let out = dir.path().join(format!("t{threads}.ron"));
        let run = studio()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "generate",
                "--game",
                "match3",
                "--model",
                "avalon",
                "--size",
                "7x9",
                "--symmetry",
                "vertical",
                "--moves",
                "16",
                "--validate",
                "--count",
                "6",
                "--seed",
                "3",
                "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", stderr(&run));
        packs.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(packs[0], packs[1]);
}

// ---- 12. Messages that name the real problem ----

#[cfg(unix)]
#[test]
fn weights_that_link_to_a_device_are_not_called_missing() {
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("m.safetensors");
    save(&weights, "n", 1.0).unwrap();
    std::fs::remove_file(&weights).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &weights).unwrap();
    let err = load_pair(&weights).unwrap_err().to_string();
    assert!(err.contains("not a regular file"), "{err}");
    // The same through a real loader.
    let dqn = dir.path().join("dqn.safetensors");
    std::fs::copy("models/longcat-dqn-8x8.ron", dir.path().join("dqn.ron")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &dqn).unwrap();
    let err = level_studio::longcat::dqn::DqnModel::load(&dqn)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("not a regular file"), "{err}");
    assert!(!err.contains("not found"), "{err}");
}

#[test]
fn a_dqn_stamp_mismatch_names_the_file_that_does_not_match() {
    let dir = tempfile::tempdir().unwrap();
    let dqn = dir.path().join("dqn.safetensors");
    std::fs::copy("models/longcat-dqn-8x8.ron", dir.path().join("dqn.ron")).unwrap();
    std::fs::copy("models/course-ddpg-9.safetensors", &dqn).unwrap();
    let err = level_studio::longcat::dqn::DqnModel::load(&dqn)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("is not the one its sidecar"), "{err}");
    assert!(err.contains("dqn.ron"), "{err}");
    assert!(!err.contains("corrupt"), "{err}");
}

#[test]
fn export_of_a_txt_file_does_not_offer_txt() {
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("x.txt");
    std::fs::write(&txt, "#..#\n").unwrap();
    let out = studio()
        .args(["export", "--out"])
        .arg(dir.path().join("x.json"))
        .arg(&txt)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("expected .ron or .json"), "{err}");
    assert!(!err.contains(".txt)"), "{err}");
}

#[test]
fn a_long_out_name_is_written_without_a_temporary_name_error() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("p.ron");
    files::save_pack(&pack, &pack_of(1, "p")).unwrap();
    let long: PathBuf = dir.path().join(format!("{}.json", "n".repeat(240)));
    assert_eq!(long.file_name().unwrap().len(), 245);
    let out = studio()
        .args(["export", "--out"])
        .arg(&long)
        .arg(&pack)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(long.is_file());
    // And a pack saved under a 255-byte name, its lock and temporary names shortened.
    let longest = dir.path().join(format!("{}.ron", "p".repeat(251)));
    files::save_pack(&longest, &pack_of(1, "p")).unwrap();
    assert!(longest.is_file());
}

// ---- Issue 70: a command bounded in time ----

#[test]
fn a_command_past_its_time_limit_stops_at_it_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("made.ron");
    files::save_pack(&out, &pack_of(2, "kept")).unwrap();
    let before = std::fs::read(&out).unwrap();
    // 5,000 validated Longcat levels take far longer than a second.
    let started = std::time::Instant::now();
    let o = studio()
        .args(["generate", "--game", "longcat", "--model", "solution-down"])
        .args([
            "--size",
            "8x8",
            "--count",
            "5000",
            "--validate",
            "--seed",
            "0",
        ])
        .args(["--time-limit", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let took = started.elapsed().as_secs_f64();
    assert_eq!(o.status.code(), Some(124), "{}", stderr(&o));
    // Asked to stop 0.2 s before the limit, as Ctrl-C asks it, the run writes what it made;
    // past the limit it would have been ended at once.
    let said = stderr(&o);
    assert!(
        said.contains("stopped at its time limit")
            || said.contains("ran past its time limit of 1 s"),
        "{said}"
    );
    assert!((0.7..10.0).contains(&took), "{took} s");
    // The pack is whole: the levels made before the stop, or (ended at the limit before
    // writing) the pack that was there.
    let now = std::fs::read(&out).unwrap();
    if now != before {
        let levels = files::load_levels(&out).unwrap();
        assert!((1..5000).contains(&levels.len()), "{}", levels.len());
    }
    // A limit that is no number of seconds is refused before anything runs.
    for bad in ["0", "-3", "soon", "1e30"] {
        let o = studio()
            .args(["validate", "x.ron", "--time-limit", bad])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("--time-limit"), "{}", stderr(&o));
    }
}
