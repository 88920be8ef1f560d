//! Mario AI Framework level files through the studio and back (issue 69): imported, saved
//! in a pack's RON, reopened and exported, a file nobody changed is written byte for byte as
//! it came; an edited level keeps the source's letters wherever its cells did not change.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, as the binary runs.
#[ctor::ctor]
fn install_game() {
    studio_core::game::registry::install(&[mario::plugin]);
}

use mario::formats::{export_pack, source_text, Format, IMPORTERS};
use mario::{MarioLevel, Tile};
use std::path::{Path, PathBuf};
use studio_core::files;
use studio_core::formats::ImportRequest;
use studio_core::level::Pack;

/// Hand-written framework files: `t` and `T` pipes, `?` and `Q` boxes, platforms (`%`, `|`),
/// a cannon (`*`), `E` enemies; no `M` (the framework starts Mario on the first column's
/// floor); with and without a final newline, one with Windows line ends.
fn framework_files() -> Vec<(&'static str, String)> {
    let sky = |width: usize, rows: usize| vec!["-".repeat(width); rows];
    let mut pipes = sky(30, 11);
    pipes.extend(
        [
            "-----?Q?----------------------",
            "--------------------%%%-------",
            "---------tt----TT---|||--*----",
            "--E------tt----TT---|||--*--F-",
            "XXXXXXXXXXXXXXXXXXXXX---XXXXXX",
        ]
        .map(String::from),
    );
    let mut plain = sky(20, 14);
    plain.extend(["----Q---E----t------", "XXXXXXXXXXXXXXXXXXXX"].map(String::from));
    vec![
        ("pipes-no-newline", pipes.join("\n")),
        ("pipes-newline", pipes.join("\n") + "\n"),
        ("plain-crlf", plain.join("\r\n") + "\r\n"),
        ("plain-no-newline", plain.join("\n")),
    ]
}

/// Writes the files into `dir` and imports them as a pack, as `import --format mario-ai`.
fn import(dir: &Path, files: &[(&str, String)]) -> Pack {
    let paths: Vec<PathBuf> = files
        .iter()
        .map(|(name, text)| {
            let path = dir.join(format!("{name}.txt"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let importer = IMPORTERS.iter().find(|i| i.format == "mario-ai").unwrap();
    let imported = (importer.import)(&ImportRequest { paths, seed: 0 }).unwrap();
    let mut pack = Pack::new(imported.title);
    pack.levels = imported.levels;
    pack
}

/// The exported files' texts, in the pack's order.
fn export(dir: &Path, pack: &Pack) -> Vec<String> {
    let out = dir.join("export");
    assert_eq!(
        export_pack(&out, pack, Format::MarioAi).unwrap(),
        pack.levels.len()
    );
    let mut names: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn unchanged_framework_files_export_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let files = framework_files();
    let pack = import(dir.path(), &files);
    let texts = export(dir.path(), &pack);
    for ((name, source), text) in files.iter().zip(&texts) {
        assert_eq!(text, source, "{name}");
    }
}

#[test]
fn the_source_survives_the_packs_ron() {
    let dir = tempfile::tempdir().unwrap();
    let files = framework_files();
    let path = dir.path().join("pack.ron");
    files::save_pack(&path, &import(dir.path(), &files)).unwrap();
    let reopened = files::load_pack(&path).unwrap();
    for ((name, source), level) in files.iter().zip(&reopened.levels) {
        assert_eq!(source_text(&level.tags), Some(source.as_str()), "{name}");
    }
    let texts = export(dir.path(), &reopened);
    for ((name, source), text) in files.iter().zip(&texts) {
        assert_eq!(text, source, "{name}");
    }
}

#[test]
fn an_edited_cell_changes_only_its_letter_in_the_export() {
    let dir = tempfile::tempdir().unwrap();
    let files = framework_files();
    let mut pack = import(dir.path(), &files[..1]);
    let level = &mut pack.levels[0];
    let mut mario = MarioLevel::from_rows(&level.cells).unwrap();
    let mut cells = mario.cells().clone();
    // A brick in the sky, at row 3, column 4.
    cells.set(3, 2, Tile::Brick);
    mario = MarioLevel::new(cells).unwrap();
    level.cells = mario.to_rows();
    let text = &export(dir.path(), &pack)[0];
    let mut rows: Vec<String> = files[0].1.split('\n').map(String::from).collect();
    rows[2].replace_range(3..4, "S");
    assert_eq!(*text, rows.join("\n"));
}

#[test]
fn a_level_made_in_the_studio_exports_in_the_studios_letters() {
    let dir = tempfile::tempdir().unwrap();
    let files = framework_files();
    let mut pack = import(dir.path(), &files[..1]);
    pack.levels[0].tags.clear();
    let mario = MarioLevel::from_rows(&pack.levels[0].cells).unwrap();
    let text = &export(dir.path(), &pack)[0];
    assert_eq!(*text, mario::formats::write(&mario, Format::MarioAi));
    assert!(text.contains("<>") && text.ends_with('\n'));
}
