//! The toy's plug-in on its own: its file format round-trips and refuses bad files with the
//! line, its command counts crates, and its analysis and generator answer through the
//! registry (`cargo test -p toy --test integration`).

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use studio_core::formats::FormatError;
use studio_core::level::Pack;
use toy::{formats, toy_level};

#[test]
fn the_format_round_trips_and_refuses_bad_files_with_the_line() {
    let levels = vec![
        toy_level("one", vec!["ox".into(), "oo".into()]),
        toy_level("two", vec!["xxx".into()]),
    ];
    let text = formats::write(&levels);
    assert_eq!(text, "# one\nox\noo\n\n# two\nxxx\n");
    let back = formats::parse(Path::new("t.txt"), &text).unwrap();
    assert_eq!(back, levels);
    let err = formats::parse(Path::new("t.txt"), "# a\nox\noq\n").unwrap_err();
    assert!(
        matches!(err, FormatError::Malformed { line: Some(3), .. }),
        "{err}"
    );
    assert!(err.to_string().contains("'q' is not a toy tile"), "{err}");
    let err = formats::parse(Path::new("t.txt"), "ox\n").unwrap_err();
    assert!(
        err.to_string().contains("line 1: a row outside a level"),
        "{err}"
    );
    let err = formats::parse(Path::new("t.txt"), "# a\nox\nooo\n").unwrap_err();
    assert!(err.to_string().contains("another length"), "{err}");
    let err = formats::parse(Path::new("t.txt"), "# empty\n\n# b\nx\n").unwrap_err();
    assert!(err.to_string().contains("\"empty\" has no rows"), "{err}");
}

#[test]
fn the_exporter_writes_what_the_importer_reads_and_the_command_counts() {
    toy::register_toy();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pack.txt");
    let mut pack = Pack::new("t");
    pack.levels = vec![
        toy_level("one", vec!["ox".into(), "xo".into()]),
        toy_level("two", vec!["oo".into()]),
    ];
    let said = (formats::EXPORTER.export)(&out, &pack).unwrap();
    assert_eq!(said, "2 levels");
    let imported = (formats::IMPORTER.import)(&studio_core::formats::ImportRequest {
        paths: vec![out.clone()],
        seed: 0,
    })
    .unwrap();
    assert_eq!(imported.levels, pack.levels);
    // The command, as the command line runs it, on the pack saved as the studio saves it.
    let saved = dir.path().join("pack.ron");
    studio_core::files::save_pack(&saved, &pack).unwrap();
    let lines = toy::cli::count(&toy::cli::CountArgs { pack: saved }).unwrap();
    assert_eq!(lines, ["one: 2 crates", "two: 0 crates"]);
    // The plug-in's parts are in the registry.
    assert!(studio_core::formats::importers()
        .iter()
        .any(|i| i.format == "toy-rows"));
    assert!(studio_cli::game_commands()
        .iter()
        .any(|c| c.game == toy::TOY));
}

#[test]
fn the_analysis_and_the_generator_answer_through_the_registry() {
    toy::register_toy();
    let game = studio_core::game::find("toy").unwrap();
    let level = toy_level("l", vec!["xo".into(), "ox".into()]);
    let analysis = toy::analysis::analyse_level(&level).unwrap();
    assert_eq!(analysis.difficulty, Some(2.0));
    assert!(analysis.verdict.pass);
    assert!(
        analysis.graph.is_some(),
        "the state graph of clearing the crates"
    );
    assert_eq!(game.stored_verdict(&level), Some(true));
    let models = studio_core::game::ModelCache::new(Path::new("models"));
    let mut made = Vec::new();
    studio_core::generation::run(
        &toy::toy_request(3, 7),
        &models,
        &studio_core::jobs::Cancel::default(),
        &mut |_, _| {},
        &mut |c| made.push(c.level),
    )
    .unwrap();
    assert_eq!(made.len(), 3);
    assert!(made.iter().all(|l| l.cells.concat().contains('x')));
}
