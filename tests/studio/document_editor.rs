//! The editor's one history with real games: strokes, undo and redo, replacing and opening.

use level_studio::document::board::{Board, Tile};
use level_studio::document::editor::{EditCommand, Editor, Identity};
use level_studio::game::registry;

// Palette indices: match-3 PLAYFIELD 0, BLOCK 1, GAP 2; Longcat WALL 0, EMPTY 1, HEAD 2.
const BLOCK: Tile = 1;
const WALL: Tile = 0;
const EMPTY: Tile = 1;

fn m3(w: usize, h: usize) -> Board {
    Board::blank(registry::find("match3").unwrap(), w, h)
}

fn lc(w: usize, h: usize) -> Board {
    Board::blank(registry::find("longcat").unwrap(), w, h)
}

fn stroke(e: &mut Editor, cells: &[(usize, usize)], tile: Tile) {
    e.apply(EditCommand::BeginStroke {
        label: "Brush".into(),
    });
    for &(x, y) in cells {
        e.apply(EditCommand::Paint(vec![(x, y, tile)]));
    }
    e.apply(EditCommand::EndStroke);
}

#[test]
fn a_stroke_is_one_undo_step_and_redo_restores_it() {
    let mut e = Editor::new(m3(9, 11), "t");
    let start = e.board().clone();
    stroke(&mut e, &[(0, 0), (1, 0), (2, 0)], BLOCK);
    assert_eq!(e.history().undo_len(), 1);
    let painted = e.board().clone();
    assert!(e.apply(EditCommand::Undo));
    assert_eq!(e.board(), &start);
    assert!(e.apply(EditCommand::Redo));
    assert_eq!(e.board(), &painted);
    assert!(!e.apply(EditCommand::Redo));
}

#[test]
fn undo_in_the_middle_of_a_stroke_keeps_the_stroke() {
    let mut e = Editor::new(lc(5, 5), "t");
    e.apply(EditCommand::BeginStroke {
        label: "Brush".into(),
    });
    e.apply(EditCommand::Paint(vec![(2, 2, WALL)]));
    // Undo arrives before the mouse is released: the stroke is closed, then undone,
    // and redo brings it back whole.
    assert!(e.apply(EditCommand::Undo));
    assert_eq!(e.board().get(2, 2), EMPTY);
    assert!(e.apply(EditCommand::Redo));
    assert_eq!(e.board().get(2, 2), WALL);
}

#[test]
fn an_empty_stroke_records_nothing_and_a_new_step_clears_redo() {
    let mut e = Editor::new(lc(5, 5), "t");
    stroke(&mut e, &[(1, 1)], EMPTY);
    assert_eq!(e.history().undo_len(), 0);
    stroke(&mut e, &[(1, 1)], WALL);
    e.apply(EditCommand::Undo);
    assert_eq!(e.history().redo_len(), 1);
    stroke(&mut e, &[(3, 3)], WALL);
    assert_eq!(e.history().redo_len(), 0);
}

#[test]
fn replace_is_undoable_and_revision_follows_changes() {
    let mut e = Editor::new(m3(9, 11), "t");
    let r0 = e.revision();
    assert!(e.apply(EditCommand::Replace {
        board: m3(5, 5),
        label: "New".into(),
        identity: None,
    }));
    assert!(e.revision() > r0);
    assert!(!e.apply(EditCommand::Replace {
        board: m3(5, 5),
        label: "New".into(),
        identity: None,
    }));
    e.apply(EditCommand::Undo);
    assert_eq!(e.board(), &m3(9, 11));
}

#[test]
fn undoing_an_open_brings_back_the_old_name_and_redo_the_new() {
    let mut e = Editor::new(m3(9, 11), "mine");
    assert!(e.apply(EditCommand::Replace {
        board: m3(5, 5),
        label: "Load other".into(),
        identity: Some(Identity::loose("other")),
    }));
    assert_eq!(e.name, "other");
    assert!(e.apply(EditCommand::Undo));
    assert_eq!((e.name.as_str(), e.board()), ("mine", &m3(9, 11)));
    assert!(e.apply(EditCommand::Redo));
    assert_eq!((e.name.as_str(), e.board()), ("other", &m3(5, 5)));
}
