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

/// Issue 68, item 2: `scripts/cuda-launcher.sh` runs the cuda build where its libraries load,
/// else the CPU build, saying once what was missing. A stand-in for the cuda build is a small
/// program linked against a library of our own: present, the launcher runs it; removed (as
/// the driver is on a machine without one), the launcher runs the CPU build, where `--device
/// cuda` is refused in words and `auto` makes the same levels as the CPU.
#[cfg(unix)]
#[test]
fn the_cuda_launcher_runs_the_cpu_build_where_the_cuda_build_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tool = |name: &str| Command::new(name).arg("--version").output().is_ok();
    if !tool("gcc") || !tool("ldd") {
        eprintln!("skipped: gcc or ldd is missing, so no stand-in cuda build can be made");
        return;
    }
    let libs = d.join("libs");
    std::fs::create_dir(&libs).unwrap();
    std::fs::write(d.join("drv.c"), "int drv_init(void) { return 7; }\n").unwrap();
    std::fs::write(
        d.join("main.c"),
        "#include <stdio.h>\nint drv_init(void);\n\
         int main(void) { printf(\"stand-in cuda build %d\\n\", drv_init()); return 0; }\n",
    )
    .unwrap();
    let gcc = |args: &[&str]| {
        let o = Command::new("gcc")
            .current_dir(d)
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "gcc {args:?}: {}", stderr(&o));
    };
    gcc(&[
        "-shared",
        "-fPIC",
        "-Wl,-soname,libstandindrv.so.1",
        "-o",
        "libs/libstandindrv.so.1",
        "drv.c",
    ]);
    std::os::unix::fs::symlink("libstandindrv.so.1", libs.join("libstandindrv.so")).unwrap();
    gcc(&[
        "-o",
        "level-studio-cuda",
        "main.c",
        "-Llibs",
        "-lstandindrv",
    ]);
    let launch = |args: &[&str]| {
        Command::new("bash")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/cuda-launcher.sh"
            ))
            .args(args)
            .env("LEVEL_STUDIO_CUDA", d.join("level-studio-cuda"))
            .env("LEVEL_STUDIO_CPU", env!("CARGO_BIN_EXE_level-studio"))
            .env("LEVEL_STUDIO_CUDA_LIBS", &libs)
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .unwrap()
    };
    // Its libraries load: the cuda build runs, and nothing is said.
    let o = launch(&["list"]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "stand-in cuda build 7\n"
    );
    assert_eq!(stderr(&o), "");
    // The library gone: the CPU build runs, after one line naming what was missing.
    std::fs::remove_file(libs.join("libstandindrv.so.1")).unwrap();
    let out = d.join("auto.ron");
    let o = launch(&[
        "generate",
        "--device",
        "auto",
        "--model",
        "avalon",
        "--moves",
        "12",
        "--count",
        "2",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    crate::assert_ok(&o);
    let err = stderr(&o);
    let mut lines = err.lines();
    assert_eq!(
        lines.next(),
        Some(
            "level-studio: the CUDA build cannot start here (missing libstandindrv.so.1); \
             running the CPU build"
        ),
        "{err}"
    );
    assert_eq!(lines.next(), Some("device: CPU"), "{err}");
    let cpu = d.join("cpu.ron");
    crate::assert_ok(&generate(&cpu, &["--device", "cpu"]));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&cpu).unwrap());
    // There `--device cuda` fails in words.
    let o = launch(&[
        "generate",
        "--device",
        "cuda",
        "--model",
        "avalon",
        "--count",
        "1",
        "--out",
        d.join("cuda.ron").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("this build has no CUDA support"),
        "{}",
        stderr(&o)
    );
    // No CPU build either: said, exit 127.
    let o = Command::new("bash")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/cuda-launcher.sh"
        ))
        .arg("list")
        .env("LEVEL_STUDIO_CUDA", d.join("level-studio-cuda"))
        .env("LEVEL_STUDIO_CPU", d.join("nothing-here"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(127));
    assert!(stderr(&o).contains("no CPU build at"), "{}", stderr(&o));
}
