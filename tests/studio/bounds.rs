//! Every numeric flag has a range, and every figure a model file or training produces is
//! finite or refused: out-of-range flags are refused by clap (exit 2) in words that name the
//! flag and its range, before any work starts; the answers that used to be silent (a clamped
//! game count, zero epochs trained as one, a walk longer than the board, NaN in a blend
//! sidecar, an infinite ridge prediction or training error) are refused in words.

use level_studio::cli::bounds::{self, Range};
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

#[test]
fn every_numeric_flag_refuses_values_outside_its_range_naming_flag_and_range() {
    let rows = bounds::all();
    // Every game adds its eval or train: their flags are in the table too.
    assert!(rows
        .iter()
        .any(|r| r.command == "eval longcat" && r.flag == "attempts"));
    for row in rows {
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
        {
            for value in &bad {
                let arg = format!("--{}={value}", row.flag);
                let mut args = row.base.to_vec();
                assert!(!args.is_empty(), "{}: no command line to try", row.command);
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

/// The value types that make a flag numeric.
fn numeric(arg: &clap::Arg) -> bool {
    use std::any::TypeId;
    let t = arg.get_value_parser().type_id();
    [
        TypeId::of::<u64>(),
        TypeId::of::<u32>(),
        TypeId::of::<usize>(),
        TypeId::of::<i64>(),
        TypeId::of::<f64>(),
        TypeId::of::<(usize, usize)>(),
    ]
    .into_iter()
    .any(|n| t == n)
}

/// Parses `--flag value` with the flag's own parser, alone in a probe command.
fn accepts(arg: &clap::Arg, value: &str) -> bool {
    let long = arg.get_long().unwrap_or_default();
    clap::Command::new("probe")
        .arg(arg.clone().required(false))
        .try_get_matches_from(["probe".to_string(), format!("--{long}={value}")])
        .is_ok()
}

/// Every sub-command of the command line under its table name: the shell's, and each game's
/// `eval`, `train` and own sub-commands (`eval longcat`, `dataset match3`).
fn every_command() -> Vec<(String, clap::Command)> {
    let mut all = Vec::new();
    use clap::CommandFactory;
    for command in level_studio::cli::Cli::command().get_subcommands() {
        if !matches!(command.get_name(), "eval" | "train") {
            all.push((command.get_name().to_string(), command.clone()));
        }
    }
    for game in level_studio::cli::game_commands() {
        let command = level_studio::cli::clap_command(&game);
        all.push((format!("{} {}", command.get_name(), game.game), command));
    }
    all.extend(level_studio::cli::level_vae::commands());
    all
}

#[test]
fn every_numeric_flag_has_a_range_in_the_table_and_its_help_states_it() {
    let rows = bounds::all();
    // A game's own row first (`generate gvgai --count`, a flag the game's `generate --vgdl`
    // takes), else the shell's row of the command.
    let row_of = |command: &str, flag: &str| {
        rows.iter()
            .find(|r| r.flag == flag && r.command == command)
            .or_else(|| {
                rows.iter()
                    .find(|r| r.flag == flag && command.starts_with(&format!("{} ", r.command)))
            })
    };
    let commands = every_command();
    let mut seen = 0;
    for (name, command) in &commands {
        for arg in command.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            let by_name = matches!(long, "dagp" | "diverse");
            if !numeric(arg) && !by_name {
                continue;
            }
            seen += 1;
            let Some(row) = row_of(name, long) else {
                panic!("{name} --{long} is numeric but has no range in the bounds table");
            };
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            let words = row.range.to_string();
            if row.range != Range::Seed {
                assert!(
                    help.contains(&words),
                    "{name} --{long}: the help {help:?} does not state {words:?}"
                );
            }
            match row.range {
                Range::Whole(w) => {
                    assert!(accepts(arg, &w.min.to_string()), "{name} --{long} min");
                    assert!(accepts(arg, &w.max.to_string()), "{name} --{long} max");
                    assert!(!accepts(arg, &(w.max + 1).to_string()), "{name} --{long}");
                    assert!(!accepts(arg, "99999999999999999999999"), "{name} --{long}");
                    if w.min > 0 {
                        assert!(!accepts(arg, &(w.min - 1).to_string()), "{name} --{long}");
                    }
                }
                Range::Real(r) => {
                    assert_eq!(accepts(arg, &r.min.to_string()), !r.above_min);
                    assert_eq!(accepts(arg, &r.max.to_string()), !r.below_max);
                    let above = r.max + r.max.abs().max(1.0);
                    assert!(!accepts(arg, &above.to_string()), "{name} --{long}");
                    for bad in ["NaN", "inf", "-inf", "1e309"] {
                        assert!(!accepts(arg, bad), "{name} --{long} {bad}");
                    }
                }
                Range::Size => {
                    assert!(accepts(arg, "64x1"));
                    assert!(!accepts(arg, "65x8") && !accepts(arg, "0x8"));
                }
                Range::Events => {
                    assert!(accepts(arg, "12") && !accepts(arg, "10"));
                }
                Range::Dagp => {
                    assert!(accepts(arg, "10,0.4") && !accepts(arg, "1001,0.4"));
                }
                Range::Seed => {
                    assert!(accepts(arg, &u64::MAX.to_string()));
                }
            }
        }
    }
    assert!(
        seen >= rows.len(),
        "{seen} numeric flags, {} rows",
        rows.len()
    );
    // No row names a flag the command line does not have, and no pair has two rows.
    for row in &rows {
        let command = commands
            .iter()
            .find(|(name, _)| {
                *name == row.command || name.starts_with(&format!("{} ", row.command))
            })
            .map(|(_, c)| c)
            .unwrap_or_else(|| panic!("no sub-command {}", row.command));
        assert!(
            command
                .get_arguments()
                .any(|a| a.get_long() == Some(row.flag)),
            "{} has no --{}",
            row.command,
            row.flag
        );
        let twice = rows
            .iter()
            .filter(|r| r.flag == row.flag && r.command == row.command)
            .count();
        assert_eq!(twice, 1, "{} --{}", row.command, row.flag);
    }
}
