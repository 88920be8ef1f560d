//! `--device` (issue 68): `train`, `generate`, `eval` and `interpolate` take it, name the
//! device used on their first progress line, and give the same levels on `cpu` and `auto` on
//! this CPU-only build; a device the build lacks, a word that names none, or the flag on
//! another command is refused in words before any work.

use std::path::Path;
use std::process::{Command, Output};

fn studio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Two Avalon levels into `out`, with `device` words put among the flags.
fn generate(out: &Path, device: &[&str]) -> Output {
    let out = out.to_str().unwrap();
    let mut args = vec!["generate"];
    args.extend_from_slice(device);
    args.extend([
        "--model", "avalon", "--moves", "12", "--count", "2", "--seed", "4", "--out", out,
    ]);
    studio(&args)
}

#[test]
fn cpu_and_auto_give_the_same_levels_and_name_the_cpu_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut packs = Vec::new();
    for (name, device) in [
        ("none", &[][..]),
        ("cpu", &["--device", "cpu"][..]),
        ("auto", &["--device=auto"][..]),
    ] {
        let out = dir.path().join(format!("{name}.ron"));
        let run = generate(&out, device);
        crate::assert_ok(&run);
        let err = stderr(&run);
        assert_eq!(err.lines().next(), Some("device: CPU"), "{name}: {err}");
        packs.push(std::fs::read(&out).unwrap());
    }
    assert!(packs.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_device_this_build_lacks_or_a_word_that_names_none_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ron");
    for (device, code, words) in [
        (
            "cuda:7",
            1,
            "this build has no CUDA support: rebuild with --features cuda",
        ),
        ("cuda", 1, "this build has no CUDA support"),
        (
            "gpu",
            2,
            "\"gpu\" is not a device: use auto, cpu, cuda or cuda:N",
        ),
    ] {
        let run = generate(&out, &["--device", device]);
        assert_eq!(run.status.code(), Some(code), "{device}: {}", stderr(&run));
        assert!(stderr(&run).contains(words), "{device}: {}", stderr(&run));
        assert!(!out.exists(), "{device}: work started");
    }
    let run = studio(&["validate", "--device", "cpu", "x.ron"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("--device applies to train, generate, eval, interpolate only"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn the_four_commands_list_the_flag_in_their_help() {
    for args in [
        &["generate", "--help"][..],
        &["interpolate", "--help"],
        &["train", "--model", "avalon", "--help"],
        &["eval", "--game", "longcat", "--help"],
        &["train", "--model", "level-vae", "--help"],
    ] {
        let run = studio(args);
        crate::assert_ok(&run);
        let help = String::from_utf8_lossy(&run.stdout);
        assert!(help.contains("--device <DEVICE>"), "{args:?}: {help}");
    }
}
