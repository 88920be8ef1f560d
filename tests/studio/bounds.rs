//! Every numeric flag has a range, and every figure a model file or training produces is
//! finite or refused: out-of-range flags are refused by clap (exit 2) in words that name the
//! flag and its range, before any work starts; the answers that used to be silent (a clamped
//! game count, zero epochs trained as one, a walk longer than the board, NaN in a blend
//! sidecar, an infinite ridge prediction or training error) are refused in words.

use level_studio::cli::bounds::{self, Range, TABLE};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn studio(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `args`, expecting clap's refusal (exit 2) naming `--flag` and `range`, at once.
fn refused_by_clap(args: &[&str], flag: &str, range: &str) {
    let started = Instant::now();
    let out = studio(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(&format!("--{flag}")) && err.contains(range),
        "{args:?}: the error does not name --{flag} and {range:?}: {err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{args:?}: a refused value started work"
    );
}

/// The least a sub-command needs besides the flag under test (the files need not exist: clap
/// refuses the flag before anything is read).
fn base(command: &str) -> Vec<&'static str> {
    match command {
        "generate" => vec!["generate", "--model", "avalon", "--out", "never.ron"],
        "eval" => vec!["eval", "--model", "avalon"],
        "train" => vec!["train", "--model", "avalon", "--out", "never.safetensors"],
        "validate" => vec!["validate", "never.ron"],
        "graph" => vec!["graph", "never.ron"],
        "interpolate" => vec![
            "interpolate",
            "a.ron",
            "b.ron",
            "--model",
            "avalon",
            "--out",
            "never.ron",
        ],
        "import" => vec![
            "import",
            "--format",
            "gvgai-zelda",
            "a.txt",
            "--out",
            "never.ron",
        ],
        "dataset" => vec!["dataset", "--out", "never"],
        other => panic!("no base command line for {other}"),
    }
}

#[test]
fn every_numeric_flag_refuses_values_outside_its_range_naming_flag_and_range() {
    for row in TABLE {
        let range = row.range.to_string();
        let bad: Vec<String> = match row.range {
            Range::Seed => vec!["18446744073709551616".into(), "-1".into()],
            Range::Whole(w) => {
                let mut v = vec![(w.max + 1).to_string(), "18446744073709551615".into()];
                if w.min > 0 {
                    v.push((w.min - 1).to_string());
                }
                v
            }
            Range::Real(r) => vec![
                (r.max + r.max.abs().max(1.0)).to_string(),
                "NaN".into(),
                "inf".into(),
            ],
            Range::Size => vec!["65x8".into(), "0x8".into()],
            Range::Events => vec!["10".into()],
            Range::Dagp => vec!["0,0.5".into(), "1001,0.5".into(), "3,-1".into()],
        };
        for &command in row.commands {
            for value in &bad {
                let arg = format!("--{}={value}", row.flag);
                let mut args = base(command);
                args.push(&arg);
                if row.range == Range::Seed {
                    // A seed is any u64: only text that is not one is refused.
                    let out = studio(&args);
                    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
                    assert!(stderr(&out).contains("--seed"), "{}", stderr(&out));
                } else {
                    refused_by_clap(&args, row.flag, &range);
                }
            }
        }
    }
}

#[test]
fn the_flags_that_exhausted_memory_or_time_are_refused_before_work() {
    let cases: [(&[&str], &str, String); 11] = [
        (
            &[
                "eval",
                "--game",
                "longcat",
                "--model",
                "puzzle-up",
                "--attempts",
                "1000000000",
            ],
            "attempts",
            bounds::ATTEMPTS.to_string(),
        ),
        (
            &[
                "eval",
                "--game",
                "longcat",
                "--model",
                "longcat-dqn",
                "--attempts",
                "1000000000",
            ],
            "attempts",
            bounds::ATTEMPTS.to_string(),
        ),
        (
            &[
                "eval",
                "--game",
                "dungeon",
                "--model",
                "fi2pop",
                "--generations",
                "100000000",
            ],
            "generations",
            bounds::GENERATIONS.to_string(),
        ),
        (
            &[
                "eval",
                "--game",
                "dungeon",
                "--model",
                "fi2pop",
                "--population",
                "100000000",
            ],
            "population",
            bounds::POPULATION.to_string(),
        ),
        (
            &[
                "train",
                "--model",
                "longcat-dqn",
                "--virtual-completions",
                "1000000000",
                "--out",
                "never.safetensors",
            ],
            "virtual-completions",
            bounds::VIRTUAL_COMPLETIONS.to_string(),
        ),
        (
            &[
                "train",
                "--model",
                "blend-vglc-fc",
                "--patience",
                "1000000000",
                "--out",
                "never.safetensors",
            ],
            "patience",
            bounds::PATIENCE.to_string(),
        ),
        (
            &[
                "train",
                "--model",
                "blend-vglc-fc",
                "--trace",
                "1000000000",
                "--out",
                "never.safetensors",
            ],
            "trace",
            bounds::TRACE.to_string(),
        ),
        (
            &[
                "train",
                "--model",
                "avalon",
                "--valid-repeats",
                "1000000000",
                "--out",
                "n",
            ],
            "valid-repeats",
            bounds::VALID_REPEATS.to_string(),
        ),
        (
            &[
                "train",
                "--model",
                "avalon",
                "--selection-sweeps",
                "1000000000",
                "--out",
                "n",
            ],
            "selection-sweeps",
            bounds::SELECTION_SWEEPS.to_string(),
        ),
        (
            &[
                "train",
                "--model",
                "course-dqn",
                "--epochs",
                "18446744073709551615",
                "--out",
                "n",
            ],
            "epochs",
            bounds::EPOCHS.to_string(),
        ),
        (
            &[
                "train",
                "--model",
                "blend-cte-fc",
                "--epochs",
                "99999999999999999999",
                "--out",
                "n",
            ],
            "epochs",
            bounds::EPOCHS.to_string(),
        ),
    ];
    for (args, flag, range) in cases {
        refused_by_clap(args, flag, &range);
    }
    // generate and eval share the GA's ranges: the same words from both.
    refused_by_clap(
        &[
            "generate",
            "--game",
            "dungeon",
            "--model",
            "fi2pop",
            "--generations",
            "501",
            "--out",
            "never.ron",
        ],
        "generations",
        "0 to 500",
    );
    refused_by_clap(
        &[
            "eval",
            "--game",
            "dungeon",
            "--model",
            "fi2pop",
            "--generations",
            "501",
        ],
        "generations",
        "0 to 500",
    );
}

#[test]
fn a_dungeon_game_count_is_refused_not_clamped_to_1000() {
    refused_by_clap(
        &[
            "eval",
            "--game",
            "dungeon",
            "--model",
            "fi2pop",
            "--games",
            "1000000000",
        ],
        "games",
        "1 to 1,000",
    );
    refused_by_clap(
        &[
            "eval", "--game", "dungeon", "--model", "fi2pop", "--games", "0",
        ],
        "games",
        "1 to 1,000",
    );
}

#[test]
fn zero_epochs_are_refused_not_trained_as_one_episode() {
    let dir = tempfile::tempdir().unwrap();
    for model in [
        "course-ddpg",
        "course-vs-ddpg",
        "course-dqn",
        "course-sl",
        "blend-vglc-fc",
    ] {
        let out_path = dir.path().join(format!("{model}.safetensors"));
        refused_by_clap(
            &[
                "train",
                "--model",
                model,
                "--epochs",
                "0",
                "--out",
                out_path.to_str().unwrap(),
            ],
            "epochs",
            "1 to 1,000,000",
        );
        assert!(!out_path.exists(), "{model}: nothing is saved");
    }
}

#[test]
fn a_longcat_walk_longer_than_the_board_is_refused_in_words() {
    // Beyond any Longcat board: clap's range.
    refused_by_clap(
        &[
            "eval",
            "--game",
            "longcat",
            "--model",
            "longcat-dqn",
            "--ri",
            "1000000",
        ],
        "ri",
        "0 to 99",
    );
    // Beyond the shipped 8x8 model's board (63 steps at most): refused in words, no row.
    let started = Instant::now();
    let out = studio(&[
        "eval",
        "--game",
        "longcat",
        "--model",
        "longcat-dqn",
        "--ri",
        "1,64",
        "--count",
        "2",
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--ri 64") && err.contains("8x8") && err.contains("at most 63 steps"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no row is printed");
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// Copies a shipped model (weights and sidecar) into `dir`.
fn copy_model(name: &str, dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let weights = dir.join(format!("{name}.safetensors"));
    let side = dir.join(format!("{name}.ron"));
    std::fs::copy(format!("models/{name}.safetensors"), &weights).unwrap();
    std::fs::copy(format!("models/{name}.ron"), &side).unwrap();
    (weights, side)
}

#[test]
fn a_nan_in_a_blend_sidecar_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (weights, side) = copy_model("blend-cte-cnn", dir.path());
    let text = std::fs::read_to_string(&side).unwrap();
    let at = text.find("embedding_curve: [").unwrap() + "embedding_curve: [".len();
    let end = at + text[at..].find(',').unwrap();
    std::fs::write(&side, format!("{}NaN{}", &text[..at], &text[end..])).unwrap();
    let started = Instant::now();
    let out = studio(&[
        "eval",
        "--game",
        "blend",
        "--model",
        "cte-cnn",
        "--weights",
        weights.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(side.to_str().unwrap()) && err.contains("embedding_curve holds NaN"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_ridge_predictor_that_would_predict_infinity_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("models/longcat-ridge.ron").unwrap();
    let at = text.find("coefficients: [").unwrap() + "coefficients: [".len();
    let end = at + text[at..].find(',').unwrap();
    let bad = dir.path().join("huge.ron");
    std::fs::write(&bad, format!("{}1e308{}", &text[..at], &text[end..])).unwrap();
    let level = dir.path().join("level.txt");
    std::fs::write(&level, "@.#\n...\n...\n").unwrap();
    let out = studio(&[
        "graph",
        level.to_str().unwrap(),
        "--json",
        "--predictor",
        bad.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("huge.ron") && err.contains("coefficient of \"states\" is 1e308"),
        "{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "no figures, no null prediction: {err}"
    );
}

#[test]
fn ridge_training_on_an_absurd_label_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("playtest.csv");
    std::fs::write(&csv, "level,mean_seconds\na.txt,12\nb.txt,1e308\n").unwrap();
    let model = dir.path().join("ridge.ron");
    let out = studio(&[
        "train",
        "--model",
        "longcat-ridge",
        "--data",
        csv.to_str().unwrap(),
        "--out",
        model.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("playtest.csv:3:") && err.contains("mean_seconds 1e308"),
        "{err}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("inf"));
    assert!(!model.exists(), "nothing is written");
}
