//! Level and pack files: round trips, ASCII input, malformed files, atomic saves.

use level_studio::files;
use level_studio::io;
use level_studio::io::FileError;
use level_studio::level::{Figures, Level, Pack};
use level_studio::match3::Match3Figures;
use level_studio::match3::Match3Level;
use level_studio::match3::{validate, Layout, ValidationConfig};
use std::path::Path;

fn sample_pack() -> Pack {
    let mut pack = Pack::new("round trip");
    pack.description = "two levels".into();
    let a = Layout::parse_ascii("#..#\n....\n.~~.\n....\n").unwrap();
    let mut level = Level::from_layout("a", &a);
    let v = validate(&a, &ValidationConfig::default()).unwrap();
    level.figures = Some(Figures::new(Match3Figures::from(&v)));
    level.tags = vec!["hand-made".into()];
    pack.levels.push(level);
    pack.levels
        .push(Level::from_layout("b", &Layout::open(9, 11).unwrap()));
    pack
}

#[test]
fn pack_round_trips_through_ron_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let pack = sample_pack();
    let ron_path = dir.path().join("pack.ron");
    files::save_pack(&ron_path, &pack).unwrap();
    assert_eq!(files::load_pack(&ron_path).unwrap(), pack);
    let json_path = dir.path().join("pack.json");
    files::export_pack_json(&json_path, &pack).unwrap();
    assert_eq!(files::load_pack(&json_path).unwrap(), pack);
    let text = std::fs::read_to_string(&json_path).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["levels"][0]["name"], "a");
}

#[test]
fn level_round_trips_and_keeps_its_layout() {
    let dir = tempfile::tempdir().unwrap();
    let level = sample_pack().levels[0].clone();
    let path = dir.path().join("level.ron");
    files::save_level(&path, &level).unwrap();
    let back = files::load_level(&path).unwrap();
    assert_eq!(back, level);
    assert_eq!(
        back.layout().unwrap().area_ascii(),
        "#..#\n....\n.~~.\n....\n"
    );
}

#[test]
fn ascii_play_area_is_centred_on_load() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.txt");
    std::fs::write(&path, "....\n....\n....\n....\n").unwrap();
    // Dots are tiles of both games: the game is named.
    let level = files::load_levels_as(&path, Some(level_studio::match3::ID))
        .unwrap()
        .remove(0);
    assert_eq!(level.game, level_studio::match3::ID);
    assert_eq!(level.name, "small");
    assert_eq!(level.cells.len(), 11);
    assert_eq!(level.cells[3], "##....###");
    assert_eq!(level.layout().unwrap().size(), (4, 4));
}

fn expect_parse_error(path: &Path, line: usize) -> String {
    match files::load_levels(path) {
        Err(FileError::Parse { line: l, .. }) => {
            assert_eq!(l, line);
            files::load_levels(path).unwrap_err().to_string()
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn malformed_files_name_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let bad_char = dir.path().join("bad.txt");
    std::fs::write(&bad_char, "....\n..x.\n....\n....\n").unwrap();
    let msg = expect_parse_error(&bad_char, 2);
    assert!(
        msg.contains("bad.txt") && msg.contains(":2:3") && msg.contains("'x'"),
        "{msg}"
    );

    let ragged = dir.path().join("ragged.txt");
    std::fs::write(&ragged, "....\n...\n").unwrap();
    expect_parse_error(&ragged, 2);

    let pack = sample_pack();
    let text = io::to_ron(&pack).unwrap();
    let truncated = dir.path().join("truncated.ron");
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    let err = files::load_pack(&truncated).unwrap_err();
    assert!(matches!(err, FileError::Parse { .. }), "{err}");
    assert!(err.to_string().contains("truncated.ron"));

    let garbage = dir.path().join("garbage.ron");
    std::fs::write(&garbage, "(\n  format: 1,\n  name: 42,\n  levels: [],\n)\n").unwrap();
    match files::load_pack(&garbage).unwrap_err() {
        FileError::Parse { line, column, .. } => {
            assert!(line == 3 && (8..=9).contains(&column), "{line}:{column}")
        }
        other => panic!("{other}"),
    }
}

/// The line (from 1) and column (from 1) of byte `at` in `text`.
fn place_of(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    (
        before.matches('\n').count() + 1,
        before.rsplit('\n').next().unwrap().chars().count() + 1,
    )
}

#[test]
fn an_error_inside_a_packs_levels_is_placed_in_the_whole_file() {
    // A pack's levels are read after its other fields (its games registered first): their
    // errors still name the line and column of the file, in RON and in JSON.
    let dir = tempfile::tempdir().unwrap();
    let pack = sample_pack();
    let ron_text = io::to_ron(&pack).unwrap();
    let at = ron_text.rfind("tags:").unwrap();
    let bad = dir.path().join("bad-field.ron");
    std::fs::write(
        &bad,
        format!("{}tagz:{}", &ron_text[..at], &ron_text[at + 5..]),
    )
    .unwrap();
    match files::load_pack(&bad).unwrap_err() {
        FileError::Parse {
            line,
            column,
            message,
            ..
        } => {
            assert_eq!((line, column), place_of(&ron_text, at), "{message}");
            assert!(message.contains("tagz"), "{message}");
        }
        other => panic!("{other}"),
    }
    let json_text = serde_json::to_string_pretty(&pack).unwrap();
    let at = json_text.rfind("\"tags\"").unwrap();
    let bad = dir.path().join("bad-field.json");
    std::fs::write(
        &bad,
        format!("{}\"tagz\"{}", &json_text[..at], &json_text[at + 6..]),
    )
    .unwrap();
    match files::load_pack(&bad).unwrap_err() {
        FileError::Parse { line, message, .. } => {
            let (want, _) = place_of(&json_text, at);
            assert_eq!(line, want, "{message}");
            assert!(message.contains(&format!("at line {want} ")), "{message}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn bad_layouts_inside_valid_ron_are_reported_by_level_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack = sample_pack();
    pack.levels[1].cells = vec!["####".into(), "####".into()];
    let path = dir.path().join("empty-area.ron");
    std::fs::write(&path, io::to_ron(&pack).unwrap()).unwrap();
    let err = files::load_pack(&path).unwrap_err().to_string();
    assert!(
        err.contains("empty-area.ron") && err.contains("\"b\"") && err.contains("empty"),
        "{err}"
    );

    pack.levels[1].cells = vec![".".repeat(10); 4];
    std::fs::write(&path, io::to_ron(&pack).unwrap()).unwrap();
    let err = files::load_pack(&path).unwrap_err().to_string();
    assert!(err.contains("larger than the 9x11 canvas"), "{err}");
}

#[test]
fn a_failed_save_leaves_the_old_file_whole_and_no_temporary_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pack.ron");
    let pack = sample_pack();
    files::save_pack(&path, &pack).unwrap();
    // Saving into a path whose parent is a file fails; the existing pack is untouched.
    let blocked = path.join("inside.ron");
    assert!(files::save_pack(&blocked, &pack).is_err());
    assert_eq!(files::load_pack(&path).unwrap(), pack);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn shipped_datasets_load_and_cover_every_size() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/match3/main");
    let train = files::load_pack(&root.join("train.ron")).unwrap();
    assert!(train.levels.len() >= 1500);
    let mut sizes = std::collections::HashSet::new();
    let (mut easy, mut hard) = (0, 0);
    for level in &train.levels {
        sizes.insert(level.layout().unwrap().size());
        let f = level.figures_of::<Match3Figures>().expect("labelled");
        if f.median_moves <= 20.0 {
            easy += 1
        } else {
            hard += 1
        }
    }
    assert_eq!(sizes.len(), 48);
    assert!(easy >= 150 && hard >= 150, "easy {easy}, hard {hard}");
}

#[test]
fn the_match3_starter_pack_rises_in_difficulty() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/match3/match3-starter.ron");
    let pack = files::load_pack(&path).unwrap();
    let medians: Vec<f64> = pack
        .levels
        .iter()
        .map(|l| {
            l.figures_of::<Match3Figures>()
                .expect("labelled")
                .median_moves
        })
        .collect();
    assert!(medians.len() >= 10);
    assert!(medians.windows(2).all(|w| w[0] <= w[1]), "{medians:?}");
    assert!(medians.iter().filter(|&&m| m <= 20.0).count() >= 8);
}

/// Every level file and pack that ships, read and written again, gives back its own bytes:
/// each game's figures, now the game's own type, are written as the one enum of format 1 was.
/// Three files were written by hand and leave out defaults (`figures: None`); those give the
/// same levels back, and their written form is a fixed point.
#[test]
fn every_shipped_file_reads_and_writes_byte_identically() {
    const BY_HAND: [&str; 3] = [
        "levels/match3/examples/diamond.ron",
        "levels/match3/examples/gap-bridge.ron",
        "levels/course/starter.ron",
    ];
    fn ron_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                ron_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "ron") {
                out.push(path);
            }
        }
    }
    let write = |loaded: &files::Loaded| match loaded {
        files::Loaded::Pack(pack) => io::to_ron(pack).unwrap(),
        files::Loaded::Level(level) => io::to_ron(level).unwrap(),
    };
    let mut paths = Vec::new();
    ron_files(Path::new("levels"), &mut paths);
    assert!(paths.len() >= 16, "{paths:?}");
    let mut with_figures = std::collections::BTreeSet::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let loaded = files::load_pack_or_level(&path).unwrap();
        let written = write(&loaded);
        if let files::Loaded::Pack(pack) = &loaded {
            with_figures.extend(
                pack.levels
                    .iter()
                    .filter_map(|l| l.figures.as_ref())
                    .map(|f| f.tag()),
            );
        }
        if BY_HAND.iter().any(|p| path == Path::new(p)) {
            let again = files::parse_pack_or_level(&path, &written).unwrap();
            assert!(
                write(&again) == written,
                "{}: not a fixed point",
                path.display()
            );
            match (&loaded, &again) {
                (files::Loaded::Pack(a), files::Loaded::Pack(b)) => assert_eq!(a, b),
                (files::Loaded::Level(a), files::Loaded::Level(b)) => assert_eq!(a, b),
                _ => panic!("{}: read back as another kind", path.display()),
            }
        } else {
            assert!(
                written == text,
                "{} changed when written again",
                path.display()
            );
        }
    }
    // The shipped packs carry the figures of the six built-in games (Blend's starter pack
    // since issue 69).
    assert_eq!(
        with_figures.into_iter().collect::<Vec<_>>(),
        ["Blend", "Course", "Dungeon", "Longcat", "Mario", "Match3"]
    );
}
