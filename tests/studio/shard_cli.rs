//! Sweeps split over processes (issue 68, item 5): `generate --shard I/N` makes the I-th of N
//! blocks of a run, and `pack merge` joins the parts in order into the one-process run's
//! pack, byte for byte; the Slurm array script runs the parts; bad input is refused in words.

use super::assert_ok;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn studio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The one-process run and the merge of its `n` parts, as bytes.
fn one_and_merged(dir: &Path, flags: &[&str], n: usize) -> (Vec<u8>, Vec<u8>) {
    let all = dir.join("all.ron");
    let mut args = vec!["generate"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--out", path(&all)]);
    assert_ok(&studio(&args));
    let parts: Vec<PathBuf> = (1..=n).map(|i| dir.join(format!("part-{i}.ron"))).collect();
    for (i, part) in parts.iter().enumerate() {
        let shard = format!("{}/{n}", i + 1);
        let mut args = vec!["generate"];
        args.extend_from_slice(flags);
        args.extend_from_slice(&["--shard", &shard, "--out", path(part)]);
        assert_ok(&studio(&args));
    }
    let merged = dir.join("merged.ron");
    let mut args = vec!["pack", "merge"];
    args.extend(parts.iter().map(|p| path(p)));
    args.extend_from_slice(&["--out", path(&merged)]);
    assert_ok(&studio(&args));
    (
        std::fs::read(&all).unwrap(),
        std::fs::read(&merged).unwrap(),
    )
}

#[test]
fn four_parts_merged_are_the_one_process_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let flags = [
        "--game", "match3", "--model", "avalon", "--size", "7x9", "--moves", "15", "--count", "40",
        "--seed", "3",
    ];
    let (one, merged) = one_and_merged(dir.path(), &flags, 4);
    assert!(one.len() > 1000);
    assert!(one == merged, "the merge differs from the one-process run");
}

#[test]
fn validated_parts_merged_are_the_one_process_run_too() {
    let dir = tempfile::tempdir().unwrap();
    let flags = [
        "--game",
        "longcat",
        "--model",
        "solution-down",
        "--size",
        "6x6",
        "--count",
        "12",
        "--seed",
        "5",
        "--validate",
    ];
    let (one, merged) = one_and_merged(dir.path(), &flags, 3);
    assert!(one == merged, "the merge differs from the one-process run");
}

#[test]
fn the_slurm_array_script_runs_each_part() {
    // Slurm itself is not needed: the script reads the array's variables, set here by hand.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let flags = [
        "--game", "match3", "--model", "avalon", "--size", "7x9", "--moves", "15", "--count", "12",
        "--seed", "3",
    ];
    for i in 1..=3 {
        let mut cmd = Command::new("bash");
        cmd.arg("scripts/slurm/generate-array.sh")
            .arg(&out)
            .args(flags)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("LEVEL_STUDIO", env!("CARGO_BIN_EXE_level-studio"))
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", "3");
        assert_ok(&cmd.output().unwrap());
    }
    let all = dir.path().join("all.ron");
    let mut args = vec!["generate"];
    args.extend_from_slice(&flags);
    args.extend_from_slice(&["--out", path(&all)]);
    assert_ok(&studio(&args));
    let merged = dir.path().join("merged.ron");
    let parts: Vec<PathBuf> = (1..=3).map(|i| out.join(format!("part-{i}.ron"))).collect();
    let mut args = vec!["pack", "merge"];
    args.extend(parts.iter().map(|p| path(p)));
    args.extend_from_slice(&["--out", path(&merged)]);
    assert_ok(&studio(&args));
    assert_eq!(
        std::fs::read(&all).unwrap(),
        std::fs::read(&merged).unwrap()
    );
    // Outside an array the script says how to run it.
    let alone = Command::new("bash")
        .arg("scripts/slurm/generate-array.sh")
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(!alone.status.success());
    assert!(String::from_utf8_lossy(&alone.stderr).contains("--array=1-N"));
}

/// Whether a Slurm node answers `sinfo` as ready.
fn slurm_answers() -> bool {
    Command::new("sinfo")
        .args(["--noheader", "--states=idle,mix,alloc"])
        .output()
        .is_ok_and(|o| o.status.success() && !o.stdout.is_empty())
}

/// Issue 68, item 5: the array script on a live Slurm cluster. Where Slurm's daemons are
/// installed and no cluster answers, the test starts a one-node one on this host
/// (`scripts/slurm/one-node.sh`, which needs root); where they are not (CI), it says so and
/// skips.
#[test]
fn a_live_slurm_array_makes_the_one_process_run() {
    if !slurm_answers() {
        let installed = ["slurmctld", "slurmd", "sbatch"].iter().all(|d| {
            Command::new("sh")
                .args(["-c", &format!("command -v {d}")])
                .output()
                .is_ok_and(|o| o.status.success())
        });
        if !installed {
            eprintln!("skipped: Slurm is not installed here (Debian's slurm-wlm; scripts/slurm/one-node.sh)");
            return;
        }
        let started = Command::new("bash")
            .arg("scripts/slurm/one-node.sh")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        if !started.status.success() || !slurm_answers() {
            eprintln!(
                "skipped: a one-node Slurm did not start here: {}",
                String::from_utf8_lossy(&started.stderr)
            );
            return;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("parts");
    let flags = [
        "--game", "match3", "--model", "avalon", "--size", "7x9", "--moves", "15", "--count", "40",
        "--seed", "3",
    ];
    let log = dir.path().join("part-%a.log");
    let submitted = Command::new("sbatch")
        .args(["--wait", "--array=1-4", "--export=ALL"])
        .arg(format!("--output={}", path(&log)))
        .arg(format!("--chdir={}", env!("CARGO_MANIFEST_DIR")))
        .arg("scripts/slurm/generate-array.sh")
        .arg(&out)
        .args(flags)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("LEVEL_STUDIO", env!("CARGO_BIN_EXE_level-studio"))
        .output()
        .unwrap();
    assert_ok(&submitted);
    let parts: Vec<PathBuf> = (1..=4).map(|i| out.join(format!("part-{i}.ron"))).collect();
    let merged = dir.path().join("merged.ron");
    let mut args = vec!["pack", "merge"];
    args.extend(parts.iter().map(|p| path(p)));
    args.extend_from_slice(&["--out", path(&merged)]);
    assert_ok(&studio(&args));
    let all = dir.path().join("all.ron");
    let mut args = vec!["generate"];
    args.extend_from_slice(&flags);
    args.extend_from_slice(&["--out", path(&all)]);
    assert_ok(&studio(&args));
    assert_eq!(
        std::fs::read(&all).unwrap(),
        std::fs::read(&merged).unwrap(),
        "the merged Slurm parts differ from the one-process run"
    );
}

#[test]
fn bad_shards_and_mismatched_merges_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.ron");
    for (shard, said) in [
        ("0/4", "I runs from 1 to N"),
        ("5/4", "I runs from 1 to N"),
        ("2/0", "I runs from 1 to N"),
        ("two/4", "whole numbers"),
        ("3", "I/N"),
    ] {
        let o = studio(&[
            "generate",
            "--game",
            "match3",
            "--model",
            "synth",
            "--count",
            "8",
            "--shard",
            shard,
            "--out",
            path(&out),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(said), "{shard}: {err}");
    }
    let o = studio(&[
        "generate",
        "--game",
        "match3",
        "--model",
        "synth",
        "--count",
        "3",
        "--shard",
        "1/4",
        "--out",
        path(&out),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("more parts than"));
    let o = studio(&[
        "generate",
        "--game",
        "dungeon",
        "--model",
        "fi2pop",
        "--count",
        "4",
        "--shard",
        "1/2",
        "--out",
        path(&out),
    ]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("one search"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists(), "nothing written");
    // A merge of two games' packs, and a merge over one of its own inputs.
    let o = studio(&[
        "pack",
        "merge",
        "levels/match3/match3-starter.ron",
        "levels/longcat/starter.ron",
        "--out",
        path(&out),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("one game"), "{err}");
    assert!(!out.exists());
    let copy = dir.path().join("copy.ron");
    std::fs::copy("levels/longcat/starter.ron", &copy).unwrap();
    let o = studio(&[
        "pack",
        "merge",
        path(&copy),
        path(&copy),
        "--out",
        path(&copy),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("is one of the packs merged"));
}
