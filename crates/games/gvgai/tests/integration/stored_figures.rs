//! A GVGAI pack keeps its agents' figures (issue 69's W9, issue 70's F36): measured once, as
//! the window's strip measures, they are saved with the levels; the reopened pack has every
//! difficulty and verdict at once, and its PNG and Tiled exports play nothing. New cells drop
//! them, and a pack saved without them still opens and is measured. The game is a small
//! description of our own.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::DOOR;
use gvgai::figures::{AgentFigures, VgdlFigures};
use gvgai::level::{self, VgdlGame};
use gvgai::profiles::games_played;
use std::path::PathBuf;
use std::sync::Mutex;
use studio_core::document::{pack_doc, PackDoc};
use studio_core::game::{registry, Game};
use studio_core::jobs::Cancel;
use studio_core::level::{Figures, Pack};

const LEVEL0: &str = "wwwwwwww\nwA..k..w\nw......w\nw..m..gw\nwwwwwwww";
const LEVEL1: &str = "wwwwwwww\nwA.....w\nw..k...w\nw.....gw\nwwwwwwww";
/// No key: the door never opens, so no agent wins.
const LOCKED: &str = "wwwwwwww\nwA.....w\nw......w\nw.....gw\nwwwwwwww";

/// The agents' game counter is one per process: the tests that read it take turns.
static TURNS: Mutex<()> = Mutex::new(());

fn door() -> &'static VgdlGame {
    registry::install(&[gvgai::plugin]);
    level::open("door.txt", DOOR).unwrap()
}

fn rows(text: &str) -> Vec<String> {
    text.lines().map(String::from).collect()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gvgai-figures-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A pack of the three levels, the first twice (equal cells are measured once).
fn pack(g: &VgdlGame) -> Pack {
    let mut pack = Pack::new("door");
    for (name, text) in [
        ("a", LEVEL0),
        ("b", LEVEL1),
        ("locked", LOCKED),
        ("a again", LEVEL0),
    ] {
        pack.levels.push(g.level(name, rows(text)));
    }
    pack
}

#[test]
fn a_pack_saved_with_its_figures_reopens_with_every_difficulty_and_exports_playing_nothing() {
    let _turn = TURNS.lock().unwrap_or_else(|e| e.into_inner());
    let g = door();
    let dir = temp("reopen");
    // The strip measures the levels and the pack keeps what it found.
    let mut doc = PackDoc::with(pack(g), None, true);
    let todo = doc.unmeasured();
    assert_eq!(todo.len(), 3, "equal cells are measured once");
    for (key, measured) in pack_doc::measure(&todo, &Cancel::default()) {
        doc.record_measured(key, measured);
    }
    let before: Vec<(Option<f64>, Option<bool>)> = doc
        .pack
        .levels
        .iter()
        .map(|l| (doc.difficulty(l), doc.verdict(l)))
        .collect();
    assert!(doc.pack.levels.iter().all(|l| l.figures.is_some()));
    assert_eq!(
        before[2],
        (Some(1.0), Some(false)),
        "no agent opens a door without a key"
    );
    assert_eq!(
        before[1].1,
        Some(true),
        "some agent takes the key to the door"
    );
    let path = dir.join("door.ron");
    studio_core::files::save_pack(&path, &doc.pack).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let tag = level::file_tag_for("door.txt", DOOR);
    assert!(text.contains(&format!("figures: Some({tag}((")), "{text}");
    assert!(!text.contains("figures: None"), "{text}");

    // Reopened: every level has its difficulty and verdict, and no agent plays.
    let played = games_played();
    let back = studio_core::files::load_pack(&path).unwrap();
    assert_eq!(
        back.levels, doc.pack.levels,
        "the figures read back as written"
    );
    let reopened = PackDoc::opened(back, path.clone());
    for (level, was) in reopened.pack.levels.iter().zip(&before) {
        assert_eq!(g.stored_difficulty(level), was.0, "{}", level.name);
        assert_eq!(g.stored_verdict(level), was.1, "{}", level.name);
    }
    assert!(reopened.unmeasured().is_empty());
    assert_eq!(reopened.curve(g.id()).len(), 4);

    // PNG and Tiled exports label the levels from the stored figures.
    for (format, out) in [("png", dir.join("sheet.png")), ("tmj", dir.join("maps"))] {
        let code = studio_cli::run_words([
            "level-studio",
            "export",
            path.to_str().unwrap(),
            "--format",
            format,
            "--out",
            out.to_str().unwrap(),
        ])
        .unwrap();
        assert!(code.is_some() && out.exists(), "{format}");
    }
    assert_eq!(games_played(), played, "the agents played no game");
}

#[test]
fn stored_figures_label_the_levels_and_new_cells_drop_them() {
    let _turn = TURNS.lock().unwrap_or_else(|e| e.into_inner());
    let g = door();
    // Figures no analysis of three games gives (37 %): the labels come from the file.
    let figures = VgdlFigures {
        game: g.file_tag(),
        games: 3,
        seed: 0,
        agents: vec![
            AgentFigures {
                agent: "donothing".into(),
                win_rate: 0.0,
                mean_score: 0.0,
                mean_ticks: 2000.0,
            },
            AgentFigures {
                agent: "olets".into(),
                win_rate: 0.37,
                mean_score: 2.5,
                mean_ticks: 40.0,
            },
        ],
    };
    let mut level = g.level("a", rows(LEVEL0));
    level.figures = Some(Figures::new(figures.clone()));
    let mut doc = PackDoc::untitled("door");
    doc.add(level.clone());
    let played = games_played();
    let notes = studio_core::export::notes_of(&doc);
    assert_eq!(notes[0].figure.as_deref(), Some("best agent wins 37 %"));
    assert_eq!(notes[0].pass, Some(true));
    assert_eq!(games_played(), played);

    // Figures of another game of the same name (another description) are not this game's.
    let other_text = DOOR.replace("cooldown=4", "cooldown=6");
    let other = level::open("door.txt", &other_text).unwrap();
    let mut theirs = other.level("a", rows(LEVEL0));
    theirs.figures = level.figures.clone();
    assert_eq!(other.stored_difficulty(&theirs), None);

    // New cells from the canvas come without the old cells' figures: measured again.
    let mut edited = level.clone();
    edited.cells = rows(LEVEL1);
    edited.figures = None;
    assert!(doc.update_level(0, &edited, false));
    assert_eq!(g.stored_difficulty(&doc.pack.levels[0]), None);
    assert_eq!(doc.unmeasured().len(), 1);

    // A pack written before figures were kept still opens, and is measured as before.
    let dir = temp("old");
    let path = dir.join("old.ron");
    let mut old = pack(g);
    old.levels.truncate(2);
    studio_core::files::save_pack(&path, &old).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("figures: None").count(), 2, "{text}");
    let reopened = PackDoc::opened(studio_core::files::load_pack(&path).unwrap(), path);
    assert_eq!(reopened.unmeasured().len(), 2);
    assert!(reopened.curve(g.id()).is_empty());
}
