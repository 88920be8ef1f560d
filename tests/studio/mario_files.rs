//! Nothing lost, nothing silent, for the Mario files (issue 48): the text exports go through
//! the one folder-export path (written aside and swapped in whole; links, files, foreign
//! folders and folders of other files refused), an actor is checked against the CGAN it
//! steers whatever its sidecar says, `--restamp` restamps the CGAN instead of training it, a
//! flag another game takes is refused, and what killed saves and exports leave is cleaned up.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn studio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The shipped Mario pack, cut to its first `n` levels, written into `dir`.
fn pack_of(dir: &Path, n: usize) -> PathBuf {
    let mut pack = level_studio::files::load_pack(Path::new("levels/mario/starter.ron")).unwrap();
    pack.levels.truncate(n);
    let path = dir.join(format!("mario-{n}.ron"));
    level_studio::files::save_pack(&path, &pack).unwrap();
    path
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_shorter_export_replaces_a_longer_one_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (long, short) = (pack_of(dir.path(), 5), pack_of(dir.path(), 2));
    let out = dir.path().join("out");
    for format in ["mario-ai", "vglc-mario"] {
        let o = studio(&["export", s(&long), "--format", format, "--out", s(&out)]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(files_in(&out).len(), 5);
        // Issue 47, E21: "01 First steps" is 01-first-steps.txt, numbered once.
        assert_eq!(files_in(&out)[0], "01-first-steps.txt");
        let o = studio(&["export", s(&short), "--format", format, "--out", s(&out)]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            files_in(&out).len(),
            2,
            "no stale level of the longer export stays"
        );
    }
    // Nothing of the exports' own scratch is left beside the folder.
    assert!(files_in(dir.path()).iter().all(|n| !n.starts_with('.')));
}

#[test]
fn a_link_a_file_or_a_folder_with_other_files_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let pack = pack_of(dir.path(), 2);
    // --out a link to a folder of the designer's.
    let victim = dir.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("keep.txt"), "mine").unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let o = studio(&[
        "export",
        s(&pack),
        "--format",
        "vglc-mario",
        "--out",
        s(&link),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert_eq!(files_in(&victim), ["keep.txt"]);
    // --out a file.
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "mine").unwrap();
    let o = studio(&[
        "export",
        s(&pack),
        "--format",
        "mario-ai",
        "--out",
        s(&file),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("this is a file"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    // An earlier export in which one level file became a link: refused, nothing changes.
    let out = dir.path().join("out");
    let o = studio(&["export", s(&pack), "--format", "mario-ai", "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = out.join(&files_in(&out)[0]);
    std::fs::remove_file(&first).unwrap();
    std::os::unix::fs::symlink(&file, &first).unwrap();
    let before = files_in(&out);
    let o = studio(&["export", s(&pack), "--format", "mario-ai", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not replaced"), "{}", stderr(&o));
    assert_eq!(files_in(&out), before);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    // A folder holding the designer's own files.
    std::fs::write(victim.join("01-mine.txt"), "x").unwrap();
    std::fs::write(victim.join("readme.md"), "mine").unwrap();
    let o = studio(&[
        "export",
        s(&pack),
        "--format",
        "mario-ai",
        "--out",
        s(&victim),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("readme.md"), "{}", stderr(&o));
}

#[test]
fn a_folder_of_another_user_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let pack = pack_of(dir.path(), 2);
    let theirs = dir.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    // Only a process that may give a folder away (root) can make one of another user here.
    if std::os::unix::fs::chown(&theirs, Some(65534), Some(65534)).is_err() {
        eprintln!("skipped: cannot make a folder of another user here");
        return;
    }
    for format in ["mario-ai", "tmj"] {
        let o = studio(&["export", s(&pack), "--format", format, "--out", s(&theirs)]);
        assert_eq!(o.status.code(), Some(1), "{format}");
        assert!(stderr(&o).contains("another user"), "{}", stderr(&o));
        use std::os::unix::fs::MetadataExt;
        assert_eq!(std::fs::metadata(&theirs).unwrap().uid(), 65534);
    }
}

#[test]
fn a_level_name_of_300_characters_exports_under_a_shortened_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack = level_studio::files::load_pack(Path::new("levels/mario/starter.ron")).unwrap();
    pack.levels.truncate(1);
    pack.levels[0].name = "a very long name ".repeat(18);
    let path = dir.path().join("long.ron");
    level_studio::files::save_pack(&path, &pack).unwrap();
    let out = dir.path().join("out");
    let o = studio(&[
        "export",
        s(&path),
        "--format",
        "vglc-mario",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let names = files_in(&out);
    assert_eq!(names.len(), 1);
    assert!(names[0].len() <= 90, "{}", names[0]);
}

/// The shipped actor and CGAN copied into a folder of their own.
fn models_copy(dir: &Path) -> PathBuf {
    let models = dir.join("models");
    std::fs::create_dir(&models).unwrap();
    for name in [
        "mario-td3.safetensors",
        "mario-td3.ron",
        "mario-cgan.safetensors",
        "mario-cgan.ron",
    ] {
        std::fs::copy(Path::new("models").join(name), models.join(name)).unwrap();
    }
    models
}

#[test]
fn an_actor_whose_sidecar_names_no_cgan_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let models = models_copy(dir.path());
    let sidecar = models.join("mario-td3.ron");
    let text = std::fs::read_to_string(&sidecar).unwrap();
    let start = text.find("cgan: Some(").unwrap();
    let end = start + text[start..].find("\n  )),").unwrap() + "\n  )),".len();
    std::fs::write(
        &sidecar,
        format!("{}cgan: None,{}", &text[..start], &text[end..]),
    )
    .unwrap();
    let out = dir.path().join("g.ron");
    let weights = models.join("mario-td3.safetensors");
    let o = studio(&[
        "generate",
        "--game",
        "mario",
        "--model",
        "td3",
        "--count",
        "1",
        "--weights",
        s(&weights),
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cgan: None"), "{}", stderr(&o));
    assert!(!out.exists());
}

#[test]
fn restamping_the_cgan_restamps_it_and_trains_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let models = models_copy(dir.path());
    let weights = models.join("mario-cgan.safetensors");
    let before = std::fs::read(&weights).unwrap();
    let started = std::time::Instant::now();
    let o = studio(&[
        "train",
        "--model",
        "mario-cgan",
        "--restamp",
        "--out",
        s(&weights),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("restamped"));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(
        std::fs::read(&weights).unwrap(),
        before,
        "the weights are untouched"
    );
}

#[test]
fn a_flag_another_game_takes_is_refused_not_ignored() {
    for args in [
        &[
            "eval",
            "--game",
            "mario",
            "--model",
            "td3",
            "--attempts",
            "5",
        ][..],
        &[
            "train",
            "--model",
            "mario-vs-td3",
            "--virtual-completions",
            "3",
            "--out",
            "never.safetensors",
        ][..],
    ] {
        let o = studio(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("unexpected argument"), "{}", stderr(&o));
    }
    assert!(!Path::new("never.safetensors").exists());
}

/// Sets a file's or folder's modification time two days back.
fn age(path: &Path) {
    let two_days = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 24 * 3600);
    std::fs::File::open(path)
        .unwrap()
        .set_modified(two_days)
        .unwrap();
}

#[test]
fn what_killed_saves_and_exports_left_is_cleaned_up_once_a_day_old() {
    let dir = tempfile::tempdir().unwrap();
    let pack = pack_of(dir.path(), 1);
    let scratch = dir.path().join(".tmpAb12Cd");
    std::fs::write(&scratch, "half a model").unwrap();
    let export = dir.path().join(".out.4242.0.export");
    std::fs::create_dir(&export).unwrap();
    std::fs::write(export.join("01-a.txt"), "x").unwrap();
    let lock = dir.path().join(".gone.lock");
    std::fs::write(&lock, "").unwrap();
    let fresh = dir.path().join(".tmpZz99Yy");
    std::fs::write(&fresh, "a save in progress").unwrap();
    for p in [&scratch, &export, &lock] {
        age(p);
    }
    let out = dir.path().join("out");
    let o = studio(&["export", s(&pack), "--format", "mario-ai", "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!scratch.exists() && !export.exists() && !lock.exists());
    assert!(fresh.exists(), "a scratch file less than a day old is kept");
}
