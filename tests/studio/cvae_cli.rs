//! The cVAE sub-commands from the command line: generate with a feasibility warning, and
//! errors in words.

use std::process::Command;

fn studio(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn generate_warns_about_conditions_the_data_never_met() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.ron");
    let out = out.to_str().unwrap();
    // The paper-like set holds one 4×4 layout, the main set 34: the default model finds
    // fewer fresh levels there and says so.
    for (model, found) in [("avalon", 1), ("avalon-main", 2)] {
        let (ok, stdout, stderr) = studio(&[
            "generate",
            "--model",
            model,
            "--size",
            "4x4",
            "--symmetry",
            "vertical",
            "--moves",
            "10",
            "--count",
            "2",
            "--out",
            out,
        ]);
        assert!(ok, "{model}: {stderr}");
        assert!(
            stdout.contains(&format!("wrote {found} levels")),
            "{model}: {stdout}"
        );
        assert!(
            stderr.contains("warning") && stderr.contains("nearest"),
            "{model}: {stderr}"
        );
        if found < 2 {
            assert!(stderr.contains("only 1 of 2"), "{model}: {stderr}");
        }
        let pack = level_studio::files::load_pack(std::path::Path::new(out)).unwrap();
        assert_eq!(pack.levels.len(), found, "{model}");
    }
}

#[test]
fn bad_requests_are_errors_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.ron");
    let out = out.to_str().unwrap();
    let (ok, _, stderr) = studio(&[
        "generate", "--model", "avalon", "--size", "7x9", "--out", out,
    ]);
    assert!(
        !ok && stderr.contains("needs a target number of moves"),
        "{stderr}"
    );
    let (ok, _, stderr) = studio(&[
        "generate", "--model", "vanilla", "--size", "7x9", "--moves", "12", "--out", out,
    ]);
    assert!(!ok && stderr.contains("--moves does not apply"), "{stderr}");
    let (ok, _, stderr) = studio(&[
        "generate",
        "--model",
        "avalon",
        "--size",
        "7x9",
        "--moves",
        "12",
        "--weights",
        "nowhere.safetensors",
        "--out",
        out,
    ]);
    assert!(!ok && stderr.contains("not found"), "{stderr}");
    let (ok, _, stderr) = studio(&["eval", "--model", "nosuch"]);
    assert!(!ok && stderr.contains("unknown match-3 model"), "{stderr}");
    let (ok, _, stderr) = studio(&[
        "eval",
        "--model",
        "avalon",
        "--validated",
        "--margin",
        "2.5",
    ]);
    assert!(
        !ok && stderr.contains("--margin") && stderr.contains("at least 0, less than 2"),
        "{stderr}"
    );
    let (ok, _, stderr) = studio(&[
        "eval",
        "--model",
        "avalon",
        "--validated",
        "--limit-margin=-1",
    ]);
    assert!(
        !ok && stderr.contains("--limit-margin") && stderr.contains("0 to 10"),
        "{stderr}"
    );
    let (ok, _, stderr) = studio(&[
        "train",
        "--model",
        "avalon",
        "--valid-repeats",
        "0",
        "--out",
        out,
    ]);
    assert!(!ok && stderr.contains("--valid-repeats"), "{stderr}");
    let (ok, _, stderr) = studio(&[
        "train",
        "--model",
        "avalon",
        "--kl-weight",
        "0",
        "--out",
        out,
    ]);
    assert!(!ok && stderr.contains("--kl-weight"), "{stderr}");
    assert!(!std::path::Path::new(out).exists());
}
