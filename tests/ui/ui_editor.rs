//! egui_kittest tests that drive the real studio: painting, undo/redo, mirrored painting,
//! the live gauge, the graph viewer, packs on disk and malformed files.

use egui::{Key, Modifiers, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use level_studio::app::{AppCommand, JobMode, PackCommand, Settings, StudioApp, StudioPaths};
use level_studio::match3::layout::{BLOCK, GAP, PLAYFIELD};
use level_studio::match3::Match3Level;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn studio(packs: Vec<PathBuf>, dir: &tempfile::TempDir) -> StudioApp {
    let paths = StudioPaths::for_tests(packs, Some(dir.path().join("recovery.ron")));
    StudioApp::new(Settings::default(), paths, JobMode::Threads)
}

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size([1400.0, 900.0])
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app)
}

fn steps(h: &mut Harness<'_, StudioApp>, n: usize) {
    for _ in 0..n {
        h.step();
    }
}

fn command(h: &mut Harness<'_, StudioApp>, c: AppCommand) {
    h.state_mut().push(c);
    steps(h, 2);
}

/// Opens a file as the menu does, and waits for the worker that reads it.
fn open(h: &mut Harness<'_, StudioApp>, path: &std::path::Path) {
    command(h, AppCommand::Open(path.to_path_buf()));
    h.state_mut().wait_for_files(Duration::from_secs(20));
    steps(h, 2);
}

fn cell(h: &Harness<'_, StudioApp>, x: usize, y: usize) -> Pos2 {
    h.state().canvas().cell_center(x, y)
}

/// A press at `from`, moves through `through`, release at the last point: one stroke.
fn stroke(h: &mut Harness<'_, StudioApp>, points: &[Pos2]) {
    h.hover_at(points[0]);
    h.step();
    h.drag_at(points[0]);
    h.step();
    for &p in &points[1..] {
        h.hover_at(p);
        h.step();
    }
    h.drop_at(*points.last().unwrap());
    steps(h, 2);
}

/// Steps until the live analysis has answered for the board as it is now.
fn wait_for_gauge(h: &mut Harness<'_, StudioApp>) -> f64 {
    let start = Instant::now();
    loop {
        h.step();
        let app = h.state();
        if let Some(o) = &app.analysis().last {
            if o.revision == app.editor().revision() && !app.analysis().busy() {
                return o.latency_ms;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the gauge never answered"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn new_match3(h: &mut Harness<'_, StudioApp>, w: usize, hgt: usize) {
    command(
        h,
        AppCommand::NewLevel {
            width: w,
            height: hgt,
        },
    );
}

/// New match-3 levels of these sizes, each added to the active pack.
fn add_match3_levels(h: &mut Harness<'_, StudioApp>, sizes: &[(usize, usize)]) {
    for &(w, ht) in sizes {
        new_match3(h, w, ht);
        h.get_by_label("+ Add level").click();
        steps(h, 2);
    }
}

/// The names of the first pack's levels, in order.
fn pack_names(h: &Harness<'_, StudioApp>) -> Vec<String> {
    h.state().packs()[0]
        .pack
        .levels
        .iter()
        .map(|l| l.name.clone())
        .collect()
}

/// A press and release at `at`, one frame each.
fn press_at(h: &mut Harness<'_, StudioApp>, at: Pos2) {
    h.hover_at(at);
    h.step();
    h.drag_at(at);
    h.step();
    h.drop_at(at);
}

#[test]
fn a_stroke_is_painted_and_undone_and_redone_as_one_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    new_match3(&mut h, 9, 11);
    h.get_by_label("Brush").click();
    h.get_by_label_contains("BLOCK").click();
    steps(&mut h, 2);
    let before = h.state().editor().history().undo_len();
    let pts = [
        cell(&h, 1, 2),
        cell(&h, 2, 2),
        cell(&h, 3, 2),
        cell(&h, 4, 2),
    ];
    stroke(&mut h, &pts);
    let board = |h: &Harness<'_, StudioApp>, x, y| h.state().editor().board().get(x, y);
    for x in 1..=4 {
        assert_eq!(board(&h, x, 2), BLOCK, "cell ({x}, 2) painted");
    }
    assert_eq!(
        h.state().editor().history().undo_len(),
        before + 1,
        "one stroke, one step"
    );

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    for x in 1..=4 {
        assert_eq!(board(&h, x, 2), PLAYFIELD, "undone at ({x}, 2)");
    }
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    steps(&mut h, 2);
    for x in 1..=4 {
        assert_eq!(board(&h, x, 2), BLOCK, "redone at ({x}, 2)");
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    steps(&mut h, 2);
    assert_eq!(board(&h, 3, 2), BLOCK, "Ctrl+Y redoes too");
}

#[test]
fn mirrored_painting_lands_on_the_mirrored_cell() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    // 7×9 play area: columns 1..=7, rows 1..=9 of the canvas.
    new_match3(&mut h, 7, 9);
    h.get_by_label("Quadrant").click();
    h.get_by_label_contains("GAP").click();
    steps(&mut h, 2);
    let p = cell(&h, 2, 3);
    stroke(&mut h, &[p]);
    let b = h.state().editor().board().clone();
    for (x, y) in [(2, 3), (6, 3), (2, 7), (6, 7)] {
        assert_eq!(b.get(x, y), GAP, "({x}, {y}) mirrored");
    }
    assert_eq!(b.get(4, 3), PLAYFIELD);
    // The centre column of an odd width mirrors onto itself.
    h.get_by_label("Vertical").click();
    steps(&mut h, 1);
    let p = cell(&h, 4, 5);
    stroke(&mut h, &[p]);
    let b = h.state().editor().board().clone();
    assert_eq!(b.get(4, 5), GAP);
    assert_eq!(b.get(3, 5), PLAYFIELD);
}

#[test]
fn an_edit_updates_the_gauge_after_the_worker_answers() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    new_match3(&mut h, 8, 8);
    wait_for_gauge(&mut h);
    let first = h.state().analysis().last.as_ref().unwrap().revision;
    h.get_by_label_contains("BLOCK").click();
    steps(&mut h, 1);
    let p = cell(&h, 3, 4);
    stroke(&mut h, &[p]);
    let latency = wait_for_gauge(&mut h);
    let last = h.state().analysis().last.as_ref().unwrap();
    assert!(last.revision > first, "the gauge follows the edit");
    assert!(last.result.is_ok());
    h.step();
    h.get_by_label_contains("Median");
    eprintln!("gauge answered an edit in {latency:.1} ms");
}

#[test]
fn clicking_a_graph_node_shows_its_state_on_the_canvas() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
    wait_for_gauge(&mut h);
    steps(&mut h, 3);
    assert!(h.state().shown_state().is_none());
    let pos = h
        .state()
        .graph_panel()
        .node_screen_pos(1)
        .expect("node 1 is on screen");
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    steps(&mut h, 2);
    let shown = h.state().shown_state().expect("a state is shown").clone();
    assert_eq!(shown.node, 1);
    // The canvas now shows the cat's body, which the level itself never has.
    let body_look = level_studio::longcat::rules::cell_look(level_studio::longcat::BoardCell::Body);
    let body = shown
        .picture
        .cells
        .iter()
        .filter(|c| c.2 == body_look)
        .count();
    assert!(body > 0);
    h.key_press(Key::Escape);
    steps(&mut h, 2);
    assert!(
        h.state().shown_state().is_none(),
        "Esc goes back to the level"
    );
}

/// Issue 35: a dungeon room whose exact graph passes the budget shows its agents' verdict in
/// the gauge and, in the graph's place, why there is no graph.
#[test]
fn a_room_past_the_graph_budget_names_it_in_the_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    // Twelve slow monsters: 2^12 sets of them alive, far past 200,000 positions.
    let crowded = "wwwwwwwwwwwwwwww\nwA.............w\nw..3...3...3...w\nw..............w\n\
                   w.3...3...3....w\nw..............w\nw...3...3...3..w\nw..............w\n\
                   w.3...3...3....w\nw.............+w\nwwwwwwwwwwwwwwgw\n";
    let level = level_studio::game::Game::level_from_ascii(
        &level_studio::dungeon::DungeonGame,
        "crowded",
        crowded,
    )
    .unwrap();
    command(&mut h, AppCommand::LoadLevel(level));
    wait_for_gauge(&mut h);
    steps(&mut h, 3);
    let a = h
        .state()
        .analysis()
        .last
        .as_ref()
        .unwrap()
        .result
        .as_ref()
        .unwrap();
    assert!(a.graph.is_none());
    let note = "graph too large (200,001+ states, budget 200,000)";
    assert_eq!(a.graph_note.as_deref(), Some(note));
    h.get_by_label("Graph too large (200,001+ states, budget 200,000)");
    h.get_by_label_contains("the gauge's figures and verdict come from the agents' games");
    h.get_by_label_contains(&format!("State {note}"));
    assert!(h.query_by_label_contains("No graph").is_none());
}

#[test]
fn levels_added_to_a_pack_are_saved_and_reopened() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    new_match3(&mut h, 6, 6);
    h.get_by_label("+ Add level").click();
    steps(&mut h, 2);
    new_match3(&mut h, 9, 10);
    h.get_by_label("+ Add level").click();
    steps(&mut h, 2);
    let saved: Vec<Vec<String>> = h.state().packs()[0]
        .pack
        .levels
        .iter()
        .map(|l| l.cells.clone())
        .collect();
    assert_eq!(saved.len(), 2);
    assert!(h.state().has_unsaved());

    // Rename the second card (what a double-click starts), type a name, Enter: the level
    // is renamed.
    h.state_mut().pack_strip_mut().start_renaming(1, "new 9x10");
    steps(&mut h, 2);
    assert_eq!(
        h.query_all_by_role(egui::accesskit::Role::TextInput)
            .count(),
        1,
        "the name field is open"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("boss".into()));
    steps(&mut h, 1);
    h.key_press(Key::Enter);
    steps(&mut h, 2);
    assert_eq!(h.state().packs()[0].pack.levels[1].name, "boss");

    // Ctrl+S on an untitled pack asks for a path (in the window, in tests).
    let name = h.state().packs()[0].pack.name.clone();
    let path = dir.path().join("mine.ron");
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    steps(&mut h, 2);
    // The field proposes a file in the designer's folder: replace it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text(path.display().to_string()));
    steps(&mut h, 1);
    h.key_press(Key::Enter);
    steps(&mut h, 3);
    assert!(
        path.exists(),
        "saved to {}: {:?} {}",
        path.display(),
        h.state().errors(),
        h.state().status()
    );
    assert!(!h.state().has_unsaved());
    // Issue 47, E24: only the file is named; the pack keeps its name.
    assert_eq!(h.state().packs()[0].pack.name, name);

    let dir2 = tempfile::tempdir().unwrap();
    let mut h2 = harness(studio(vec![], &dir2));
    steps(&mut h2, 2);
    open(&mut h2, &path);
    let app = h2.state();
    assert_eq!(app.packs()[app.active_pack()].pack.levels[1].name, "boss");
    assert_eq!(app.packs()[app.active_pack()].pack.name, name);
    let reopened: Vec<Vec<String>> = app.packs()[app.active_pack()]
        .pack
        .levels
        .iter()
        .map(|l| l.cells.clone())
        .collect();
    assert_eq!(reopened, saved);
}

#[test]
fn a_malformed_file_shows_an_error_and_keeps_the_level() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    new_match3(&mut h, 5, 7);
    command(&mut h, AppCommand::Pack(PackCommand::AddCurrent));
    let board = h.state().editor().board().clone();
    let levels = h.state().packs()[0].pack.levels.len();
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "(\n  format: 1,\n  name: \"x\",\n  levels: [ (game: Match3, name: 3 ) ],\n)\n",
    )
    .unwrap();
    open(&mut h, &bad);
    let app = h.state();
    assert_eq!(app.errors().len(), 1, "{:?}", app.errors());
    let e = &app.errors()[0];
    assert!(e.mentions("bad.ron:4:"), "names file, line and column: {e}");
    assert_eq!(app.editor().board(), &board, "the level is kept");
    assert_eq!(app.packs()[0].pack.levels.len(), levels, "the pack is kept");
    assert_eq!(app.packs().len(), 1);
    h.get_by_label_contains("bad.ron:4:");
}

#[test]
fn panels_close_and_open_by_name_and_the_choice_is_a_setting() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    assert_eq!(
        h.state().panel_names(),
        ["Level", "Generate", "Difficulty", "State graph", "Pack"]
    );
    assert!(h.query_by_label("+ Add level").is_some());
    // View > Pack unticks the strip; its name goes into the saved closed set.
    h.get_by_label("View").click();
    steps(&mut h, 2);
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Pack")
        .click();
    steps(&mut h, 2);
    assert!(!h.state().settings.panel_open("Pack"));
    assert!(h.state().settings.closed_panels.contains("Pack"));
    assert!(
        h.query_by_label("+ Add level").is_none(),
        "the strip is gone"
    );
    h.state_mut().settings.set_panel_open("Pack", true);
    steps(&mut h, 2);
    assert!(h.query_by_label("+ Add level").is_some());
}

#[test]
fn a_click_shorter_than_a_frame_paints_and_switching_packs_closes_a_rename() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    new_match3(&mut h, 7, 9);
    // Press and release inside one frame, as a quick tap on a touchpad does. (egui hands such a
    // release to the next frame, so this passes with or without the click fallback in
    // `tools.rs`; under Xvfb, an instant `xdotool click` painted only with it.)
    let at = cell(&h, 2, 2);
    h.hover_at(at);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    steps(&mut h, 2);
    assert_eq!(
        h.state().editor().board().get(2, 2),
        BLOCK,
        "the tap painted"
    );

    // A name field open on a card does not follow to another pack's card.
    h.get_by_label("+ Add level").click();
    steps(&mut h, 2);
    h.get_by_label("New pack").click();
    steps(&mut h, 2);
    h.get_by_label("+ Add level").click();
    steps(&mut h, 2);
    h.state_mut().pack_strip_mut().start_renaming(0, "x");
    steps(&mut h, 2);
    assert_eq!(
        h.query_all_by_role(egui::accesskit::Role::TextInput)
            .count(),
        1
    );
    command(&mut h, AppCommand::Pack(PackCommand::Activate(0)));
    assert_eq!(
        h.query_all_by_role(egui::accesskit::Role::TextInput)
            .count(),
        0,
        "the name field closed with the pack it belonged to"
    );
}

#[test]
fn validate_plays_the_level_again_with_the_chosen_seed_and_games() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    new_match3(&mut h, 7, 9);
    h.state_mut().analysis_mut().debounce = Duration::ZERO;
    wait_for_gauge(&mut h);
    steps(&mut h, 2);
    // The gauge offers Validate with the bot seed and games (defaults 0 and 30).
    h.get_by_label("Validate");
    let figures = |h: &Harness<'_, StudioApp>| {
        let o = h.state().analysis().last.as_ref().expect("an answer");
        let f = &o.result.as_ref().expect("figures").fields;
        (f["seed"].as_u64(), f["games"].as_u64())
    };
    assert_eq!(figures(&h), (Some(0), Some(30)));
    command(&mut h, AppCommand::Validate { seed: 7, games: 12 });
    wait_for_gauge(&mut h);
    assert_eq!(figures(&h), (Some(7), Some(12)));
    assert!(h.state().status().contains("seed 7"));
    // Issue 31, D15: the seed and games are match-3's own; Longcat keeps its defaults and
    // match-3 gets its own back.
    command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
    assert_eq!(h.state().analysis().options.games, None);
    assert_eq!(h.state().analysis().options.seed, 0);
    command(&mut h, AppCommand::SwitchGame(level_studio::match3::ID));
    assert_eq!(h.state().analysis().options.games, Some(12));
    assert_eq!(h.state().analysis().options.seed, 7);
    wait_for_gauge(&mut h);
    steps(&mut h, 2);
    // Typing 3000 games says so instead of clamping silently.
    let games = h
        .get_all_by_role_and_label(egui::accesskit::Role::SpinButton, "Games")
        .next()
        .unwrap()
        .rect();
    press_at(&mut h, games.center());
    steps(&mut h, 2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("3000".into()));
    h.key_press(Key::Enter);
    steps(&mut h, 3);
    h.get_by_label_contains("Games 3000 is out of range (1–500)");
    // The note is match-3's: another game's gauge does not show it.
    command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
    steps(&mut h, 3);
    assert!(h
        .query_by_label_contains("Games 3000 is out of range")
        .is_none());
}

#[test]
fn the_dqn_options_show_in_the_generator_panel() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
    h.state_mut()
        .generators_mut()
        .choose(level_studio::longcat::ID, "longcat-dqn");
    steps(&mut h, 2);
    for label in [
        "Temperature",
        "DAGP candidates",
        "DAGP distance",
        "DAGP noise rate",
    ] {
        h.get_by_label(label);
    }
}

#[test]
fn closing_with_canvas_work_in_no_pack_keeps_it_for_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery.ron");
    {
        let mut h = harness(studio(vec![], &dir));
        steps(&mut h, 2);
        // Nothing edited: a clean close leaves no recovery file.
        h.state_mut().close_recovery();
        assert!(!recovery.exists());
        new_match3(&mut h, 5, 6);
        let c = cell(&h, 3, 4);
        stroke(&mut h, &[c]);
        assert!(h.state().has_canvas_work());
        h.state_mut().close_recovery();
        assert!(recovery.exists(), "the canvas work is kept");
    }
    // The next start offers it back, and Recover puts it on the canvas.
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    h.get_by_label("Recover").click();
    steps(&mut h, 2);
    assert_eq!(h.state().editor().name, "new 5x6");
    assert_eq!(h.state().editor().board().size(), (5, 6));
}

/// Issue 47, E1: adding the canvas to a pack is one step of the Edit history. Ctrl+Z right
/// after "+ Add level" takes the card out again and leaves the canvas (and its last stroke) as
/// it was; before the fix it undid the stroke made before the add, inside the new pack entry.
#[test]
fn undo_right_after_add_level_takes_the_level_out_and_keeps_the_stroke() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    add_match3_levels(&mut h, &[(5, 5)]);
    new_match3(&mut h, 7, 7);
    h.get_by_label("Brush").click();
    h.get_by_label_contains("BLOCK").click();
    steps(&mut h, 2);
    let c = cell(&h, 3, 3);
    stroke(&mut h, &[c]);
    let board = |h: &Harness<'_, StudioApp>| h.state().editor().board().get(3, 3);
    assert_eq!(board(&h), BLOCK);
    let before = pack_names(&h);
    h.get_by_label("+ Add level").click();
    steps(&mut h, 2);
    assert_eq!(pack_names(&h).len(), before.len() + 1, "added");
    assert!(
        h.state().linked().is_some(),
        "the canvas edits the new entry"
    );
    assert_eq!(
        h.state().editor().history().undo_label(),
        Some(format!("Add “{}”", pack_names(&h)[before.len()]).as_str())
    );
    // Ctrl+Z: the card goes, the stroke stays, the canvas is in no pack again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(pack_names(&h), before, "the add is undone");
    assert_eq!(board(&h), BLOCK, "the stroke before the add is kept");
    assert!(h.state().linked().is_none());
    // Ctrl+Z again undoes the stroke; redo twice brings both back, the entry with the stroke.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(board(&h), PLAYFIELD);
    for _ in 0..2 {
        h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        steps(&mut h, 2);
    }
    assert_eq!(pack_names(&h).len(), before.len() + 1, "added again");
    assert_eq!(board(&h), BLOCK);
    let (p, i) = h.state().linked().expect("linked to the entry again");
    assert_eq!(i, before.len());
    // What the pack holds is the canvas, stroke included.
    let rows = h.state().editor().board().to_rows();
    assert_eq!(h.state().packs()[p].pack.levels[i].cells, rows);
}

/// Issue 47, E1: moving a level and sorting the pack are steps of the Edit history too.
#[test]
fn a_move_and_a_sort_are_undone_and_redone_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    add_match3_levels(&mut h, &[(5, 5), (6, 6), (7, 7)]);
    let first = pack_names(&h);
    command(
        &mut h,
        AppCommand::Pack(PackCommand::Move { from: 0, to: 2 }),
    );
    let moved = pack_names(&h);
    assert_eq!(
        moved,
        [first[1].clone(), first[2].clone(), first[0].clone()]
    );
    assert_eq!(
        h.state().editor().history().undo_label(),
        Some("Move level 1")
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(pack_names(&h), first, "the move is undone");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    steps(&mut h, 2);
    assert_eq!(pack_names(&h), moved, "and redone");
    // "Undo remove" leaves a move alone.
    command(&mut h, AppCommand::Pack(PackCommand::UndoRemove));
    assert_eq!(pack_names(&h), moved);
}

#[test]
fn a_removed_level_comes_back_with_undo_remove() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    add_match3_levels(&mut h, &[(5, 5), (6, 6), (7, 7)]);
    let before = pack_names(&h);
    command(&mut h, AppCommand::Pack(PackCommand::Remove(1)));
    assert_eq!(pack_names(&h).len(), 2);
    assert!(h.state().status().contains("Removed"));
    h.get_by_label_contains("Undo remove “").click();
    steps(&mut h, 2);
    assert_eq!(pack_names(&h), before, "back in its place");
    // The button keeps its place, disabled, so nothing slides under the pointer.
    assert!(h.query_by_label_contains("Undo remove “").is_none());
    let undo = format!("{:?}", h.get_by_label("Undo remove"));
    assert!(undo.contains("disabled: true"), "{undo}");
}

/// Issue 31, D2: two quick clicks on a card's ✕ remove one level (the card that slides
/// under the pointer waits a moment), and any number of removals are undone and redone
/// through Edit > Undo, in order with the painting.
#[test]
fn quick_clicks_remove_one_level_and_every_removal_is_undone_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    add_match3_levels(&mut h, &[(5, 5), (6, 6), (7, 7), (8, 8)]);
    let all = pack_names(&h);
    steps(&mut h, 60);
    let close_of = |h: &Harness<'_, StudioApp>, i: usize| {
        let rect = h
            .state()
            .pack_strip()
            .card_rects
            .iter()
            .find(|c| c.0 == i)
            .unwrap()
            .1;
        rect.right_top() + egui::vec2(-11.0, 11.0)
    };
    // Two clicks on card 2's ✕, 0.1 s apart: card 3 slides under the pointer and stays.
    let x = close_of(&h, 1);
    for _ in 0..2 {
        press_at(&mut h, x);
        steps(&mut h, 4);
    }
    assert_eq!(
        pack_names(&h),
        [all[0].clone(), all[2].clone(), all[3].clone()]
    );
    // Paint on the canvas, then remove two more (after the pause): four steps to undo.
    let c = cell(&h, 2, 3);
    h.get_by_label("Brush").click();
    stroke(&mut h, &[c]);
    steps(&mut h, 60);
    for _ in 0..2 {
        let x = close_of(&h, 0);
        press_at(&mut h, x);
        steps(&mut h, 60);
    }
    assert_eq!(pack_names(&h), [all[3].clone()]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(pack_names(&h), [all[2].clone(), all[3].clone()]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(
        pack_names(&h),
        [all[0].clone(), all[2].clone(), all[3].clone()]
    );
    let painted = h.state().editor().board().clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_ne!(
        h.state().editor().board(),
        &painted,
        "the stroke is undone in its turn"
    );
    assert_eq!(pack_names(&h).len(), 3);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(
        pack_names(&h),
        all,
        "every removal undone, each in its place"
    );
    // Redo takes the first removal out again.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    steps(&mut h, 2);
    assert_eq!(
        pack_names(&h),
        [all[0].clone(), all[2].clone(), all[3].clone()]
    );
}

#[test]
fn f1_shows_the_shortcut_sheet_and_a_game_switch_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    assert!(h.query_by_label("Keyboard shortcuts").is_none());
    h.key_press(Key::F1);
    steps(&mut h, 2);
    h.get_by_label("Keyboard shortcuts");
    h.get_by_label("Ctrl+O / Ctrl+S / Ctrl+Shift+S");
    // Issue 31, D21: every registered game with a playtest lists its keys there.
    for game in level_studio::game::games() {
        if !game.play_keys().is_empty() {
            h.get_by_label(&format!("Playtest: {}", game.name()));
        }
    }
    h.get_by_label("Space or Right");
    h.get_by_label_contains("docs/window.md");
    h.key_press(Key::F1);
    steps(&mut h, 2);
    assert!(h.query_by_label("Keyboard shortcuts").is_none());
    command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
    assert_eq!(h.state().status(), "Longcat on the canvas");
}

#[test]
fn a_canvas_edit_changes_the_pack_level_in_place_and_undo_restores_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.ron");
    let mut pack = level_studio::level::Pack::new("two");
    for (name, w, ht) in [("first", 5, 5), ("second", 6, 6)] {
        let layout = level_studio::match3::Layout::open(w, ht).unwrap();
        pack.levels
            .push(level_studio::level::Level::from_layout(name, &layout));
    }
    level_studio::files::save_pack(&path, &pack).unwrap();
    let mut h = harness(studio(vec![path], &dir));
    steps(&mut h, 2);
    let level = |h: &Harness<'_, StudioApp>, i: usize| h.state().packs()[0].pack.levels[i].clone();
    let original = level(&h, 0);
    // Clicking the first card puts it on the canvas, linked to its pack entry.
    let card = h.state().pack_strip().card_rects[0].1.center();
    stroke(&mut h, &[card]);
    assert_eq!(h.state().linked(), Some((0, 0)));
    assert_eq!(h.state().editor().name, original.name);
    // A saved pack stays clean while its level is only looked at (and measured).
    wait_for_gauge(&mut h);
    steps(&mut h, 2);
    assert!(
        !h.state().has_unsaved(),
        "looking at a level changes nothing"
    );

    let c = cell(&h, 4, 5);
    stroke(&mut h, &[c]);
    let edited = level(&h, 0);
    assert_ne!(edited.cells, original.cells, "the stroke reached the pack");
    assert_eq!(edited.name, original.name);
    assert_eq!(h.state().packs()[0].pack.levels.len(), 2, "no second level");
    assert!(h.state().has_unsaved());
    assert!(!h.state().has_canvas_work(), "the work is in the pack");
    h.get_by_label_contains("(level 1 of two *)");

    // The strip's order changes around it: the link follows the level.
    command(
        &mut h,
        AppCommand::Pack(PackCommand::Move { from: 0, to: 1 }),
    );
    assert_eq!(h.state().linked(), Some((0, 1)));

    // The move is the last step of the Edit history (issue 47, E1): undo puts the level
    // back first, then the stroke.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(h.state().linked(), Some((0, 0)), "the move is undone");
    assert_eq!(level(&h, 0).cells, edited.cells);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    assert_eq!(
        level(&h, 0).cells,
        original.cells,
        "undo restores the entry"
    );

    // "+ Add level" on a pack level adds a copy under its own name, and the canvas then
    // edits the copy.
    h.get_by_label("+ Add level").click();
    steps(&mut h, 2);
    let names: Vec<String> = h.state().packs()[0]
        .pack
        .levels
        .iter()
        .map(|l| l.name.clone())
        .collect();
    assert_eq!(names.len(), 3);
    assert_eq!(names[2], format!("{} (2)", original.name));
    assert_eq!(h.state().linked(), Some((0, 2)));
}

#[test]
fn the_window_exports_tiled_maps_and_a_labelled_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    add_match3_levels(&mut h, &[(5, 5), (6, 7)]);
    let maps = dir.path().join("maps");
    command(&mut h, AppCommand::ExportTiled(maps.clone()));
    h.state_mut().wait_for_files(Duration::from_secs(20));
    steps(&mut h, 2);
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
    assert!(maps.join("01-new-5x5.tmj").exists());
    assert!(maps.join("02-new-6x7.tmj").exists());
    assert!(maps.join("match3-tiles.png").exists());
    assert!(
        h.state().status().contains("Exported"),
        "{}",
        h.state().status()
    );
    let png = dir.path().join("sheet.png");
    command(&mut h, AppCommand::ExportPng(png.clone()));
    h.state_mut().wait_for_files(Duration::from_secs(20));
    assert!(png.exists());
}

#[test]
fn quitting_with_canvas_work_in_no_pack_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery.ron");
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    new_match3(&mut h, 5, 6);
    let c = cell(&h, 3, 4);
    stroke(&mut h, &[c]);
    command(&mut h, AppCommand::Quit);
    assert!(h.state().guard().is_some(), "quitting asks");
    steps(&mut h, 2);
    h.get_by_label_contains("Work in no pack: “new 5x6” (Match-3");
    // "Add it to …" puts the level in the pack and stays.
    h.get_by_label_contains("Add it to").click();
    steps(&mut h, 2);
    assert!(h.state().guard().is_none());
    assert_eq!(
        h.state().packs()[h.state().active_pack()].pack.levels.len(),
        1
    );
    assert!(!h.state().has_canvas_work());

    // New work in no pack, then Discard: nothing is kept for the next start.
    new_match3(&mut h, 6, 6);
    let c = cell(&h, 3, 4);
    stroke(&mut h, &[c]);
    command(&mut h, AppCommand::Quit);
    steps(&mut h, 2);
    h.get_by_label("Discard").click();
    steps(&mut h, 2);
    h.state_mut().close_recovery();
    assert!(!recovery.exists(), "discarded work is not kept");
    // Issue 31, D13: nor does the session bring it back.
    let session = h.state().session();
    assert!(
        session.canvases.iter().all(|c| c.level.name != "new 6x6"),
        "{:?}",
        session
            .canvases
            .iter()
            .map(|c| &c.level.name)
            .collect::<Vec<_>>()
    );
}

/// Issue 31, D11 and D17: the quit dialog names every canvas really in no pack (not a
/// packed one on the canvas), and the work kept at a clean quit is offered back as kept, not
/// as a crash.
#[test]
fn the_quit_dialog_names_the_loose_canvases_and_kept_work_is_not_called_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut h = harness(studio(vec![], &dir));
        steps(&mut h, 2);
        // Longcat: work in no pack. Match-3: a level added to the pack, then edited there.
        command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
        command(
            &mut h,
            AppCommand::NewLevel {
                width: 6,
                height: 6,
            },
        );
        command(&mut h, AppCommand::SwitchGame(level_studio::match3::ID));
        new_match3(&mut h, 5, 6);
        h.get_by_label("+ Add level").click();
        steps(&mut h, 2);
        let c = cell(&h, 3, 4);
        stroke(&mut h, &[c]);
        command(&mut h, AppCommand::Quit);
        steps(&mut h, 2);
        let line = format!("{:?}", h.get_by_label_contains("Work in no pack:"));
        assert!(line.contains("“new 6x6” (Longcat)"), "{line}");
        assert!(!line.contains("new 5x6"), "{line}");
        assert!(
            h.query_by_label_contains("Add it to").is_none(),
            "the canvas level is packed"
        );
        h.state_mut().close_recovery();
    }
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    h.get_by_label("Bring back the kept work?");
    assert!(h.query_by_label_contains("did not close cleanly").is_none());
}

/// Issue 31, D5: Recover keeps each canvas's link to the pack level it edited in place, so
/// later edits still reach the pack.
#[test]
fn recover_keeps_the_canvas_linked_to_its_pack_level() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery.ron");
    {
        let mut h = harness(studio(vec![], &dir));
        steps(&mut h, 2);
        new_match3(&mut h, 5, 6);
        h.get_by_label("+ Add level").click();
        steps(&mut h, 2);
        new_match3(&mut h, 6, 6);
        h.get_by_label("+ Add level").click();
        steps(&mut h, 2);
        command(&mut h, AppCommand::Pack(PackCommand::Edit(0)));
        let c = cell(&h, 2, 3);
        stroke(&mut h, &[c]);
        assert_eq!(h.state().linked(), Some((0, 0)));
        // A crash: the autosave is all that is left.
        h.state_mut().autosave_now(&recovery);
    }
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    h.get_by_label("Recover").click();
    steps(&mut h, 2);
    assert_eq!(h.state().linked(), Some((0, 0)), "{}", h.state().status());
    let before = h.state().packs()[0].pack.levels[0].cells.clone();
    h.get_by_label("Brush").click();
    let c = cell(&h, 3, 3);
    stroke(&mut h, &[c]);
    assert_ne!(
        h.state().packs()[0].pack.levels[0].cells,
        before,
        "the edit reached the pack"
    );
}

#[test]
fn a_pack_is_renamed_from_its_tab_and_save_as_proposes_the_designers_folder() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/longcat/starter.ron");
    let mut h = harness(studio(vec![shipped], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::Pack(PackCommand::Activate(0)));
    let before = h.state().packs()[0].pack.name.clone();
    h.state_mut()
        .pack_strip_mut()
        .start_renaming_pack(0, &before);
    steps(&mut h, 2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("My Cats".into()));
    steps(&mut h, 1);
    h.key_press(Key::Enter);
    steps(&mut h, 2);
    assert_eq!(h.state().packs()[0].pack.name, "My Cats");
    assert!(h.state().has_unsaved());
    // Save as proposes a file named after the pack in the designer's folder, not levels/.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    steps(&mut h, 3);
    let field = h.get_by_role(egui::accesskit::Role::TextInput);
    let proposed = format!("{:?}", field);
    let expected = dir.path().join("packs").join("my-cats.ron");
    assert!(
        proposed.contains(&expected.display().to_string()),
        "{proposed}"
    );
    h.key_press(Key::Enter);
    steps(&mut h, 3);
    assert!(expected.exists(), "{:?}", h.state().errors());
    let saved = level_studio::files::load_pack(&expected).unwrap();
    assert_eq!(saved.name, "My Cats");
}

#[test]
fn a_typed_size_out_of_range_is_set_to_the_nearest_end_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 3);
    // The level panel's field comes first (the generator has a Width condition too). A click
    // puts it in edit mode with its text selected, so typing replaces it.
    let width = egui::accesskit::Role::SpinButton;
    h.get_all_by_role_and_label(width, "Width")
        .next()
        .unwrap()
        .click();
    steps(&mut h, 2);
    h.get_all_by_role_and_label(width, "Width")
        .next()
        .unwrap()
        .type_text("99");
    steps(&mut h, 1);
    h.key_press(Key::Enter);
    steps(&mut h, 3);
    h.get_by_label_contains("Width 99 is out of range");
    let max = h.state().editor().board().rules().size_rules().max.0;
    h.get_by_label_contains(&format!("New {max}×")).click();
    steps(&mut h, 3);
    assert_eq!(h.state().editor().board().width(), max);
}

/// Issue 31, D1: Ctrl+S on a shipped pack goes to Save as (the designer's folder), and
/// "Save packs" at quit writes a copy there; `levels/` is never written.
#[test]
fn ctrl_s_on_a_shipped_pack_saves_a_copy_and_levels_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/longcat/starter.ron");
    let original = std::fs::read(&shipped).unwrap();
    let mut h = harness(studio(vec![shipped.clone()], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::Pack(PackCommand::Activate(0)));
    let before = h.state().packs()[0].pack.name.clone();
    h.state_mut()
        .pack_strip_mut()
        .start_renaming_pack(0, &before);
    steps(&mut h, 2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("Edited cats".into()));
    steps(&mut h, 1);
    h.key_press(Key::Enter);
    steps(&mut h, 2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    steps(&mut h, 3);
    assert_eq!(
        std::fs::read(&shipped).unwrap(),
        original,
        "levels/ was written"
    );
    assert!(
        h.state().status().contains("shipped pack"),
        "{}",
        h.state().status()
    );
    let field = format!("{:?}", h.get_by_role(egui::accesskit::Role::TextInput));
    let copy = dir.path().join("packs").join("edited-cats.ron");
    assert!(field.contains(&copy.display().to_string()), "{field}");
    h.key_press(Key::Escape);
    steps(&mut h, 2);
    // Quit > Save packs: the shipped pack's changes go to a copy in the designer's folder.
    command(&mut h, AppCommand::Quit);
    steps(&mut h, 2);
    h.get_by_label_contains("Save").click();
    steps(&mut h, 3);
    assert_eq!(
        std::fs::read(&shipped).unwrap(),
        original,
        "levels/ was written"
    );
    assert_eq!(
        level_studio::files::load_pack(&copy).unwrap().name,
        "Edited cats"
    );
    assert_eq!(h.state().packs()[0].path.as_deref(), Some(copy.as_path()));
}

/// Issue 31, D20: the rename field opens with the old name selected (typing replaces it),
/// and a name another level of the pack has is refused in words.
#[test]
fn a_rename_replaces_the_old_name_and_refuses_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    add_match3_levels(&mut h, &[(5, 5), (6, 6)]);
    let first = h.state().packs()[0].pack.levels[0].name.clone();
    let old = h.state().packs()[0].pack.levels[1].name.clone();
    h.state_mut().pack_strip_mut().start_renaming(1, &old);
    steps(&mut h, 2);
    h.event(egui::Event::Text("Boss".into()));
    steps(&mut h, 1);
    h.key_press(Key::Enter);
    steps(&mut h, 2);
    assert_eq!(h.state().packs()[0].pack.levels[1].name, "Boss");
    command(
        &mut h,
        AppCommand::Pack(PackCommand::Rename(1, first.clone())),
    );
    assert_eq!(h.state().packs()[0].pack.levels[1].name, "Boss");
    assert!(
        h.state().status().contains("Not renamed"),
        "{}",
        h.state().status()
    );
}

/// Issue 31, D14: "+ Add level" never puts the canvas level into another game's pack.
#[test]
fn add_level_never_goes_into_another_games_pack() {
    let dir = tempfile::tempdir().unwrap();
    let cats = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/longcat/starter.ron");
    let mut h = harness(studio(vec![cats], &dir));
    steps(&mut h, 2);
    // A click on the Longcat tab brings Longcat onto the canvas (issue 69, W14); back on
    // match-3, the strip leaves the Longcat pack.
    command(&mut h, AppCommand::Pack(PackCommand::Activate(0)));
    assert_eq!(h.state().game(), level_studio::longcat::ID);
    command(&mut h, AppCommand::SwitchGame(level_studio::match3::ID));
    assert_eq!(h.state().game(), level_studio::match3::ID);
    let before = h.state().packs()[0].pack.levels.len();
    new_match3(&mut h, 5, 5);
    command(&mut h, AppCommand::Pack(PackCommand::AddCurrent));
    assert_eq!(
        h.state().packs()[0].pack.levels.len(),
        before,
        "the Longcat pack is untouched"
    );
    let active = &h.state().packs()[h.state().active_pack()];
    assert_eq!(active.main_game(), level_studio::match3::ID);
    assert_eq!(active.pack.levels.len(), 1);
}

/// Issue 31, D9: a big pack is measured a batch at a time, the cards on screen first, with
/// its progress in the strip's header.
#[test]
fn a_big_pack_is_measured_in_batches_visible_cards_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack = level_studio::level::Pack::new("big");
    use level_studio::match3::layout::{area_origin, Cell};
    for i in 0..200 {
        let mut layout = level_studio::match3::Layout::open(7, 9).unwrap();
        let (x0, y0) = area_origin(7, 9);
        // One or two blocks inside the play area: 200 different layouts.
        layout.set(x0 + 1 + i % 5, y0 + 1 + (i / 5) % 7, Cell::Block);
        if i >= 35 {
            layout.set(x0 + 1 + (i / 35) % 5, y0 + 1 + (i / 7) % 7, Cell::Block);
        }
        let mut level = level_studio::level::Level::from_layout(format!("l{i}"), &layout);
        level.figures = None;
        pack.levels.push(level);
    }
    let path = dir.path().join("big.ron");
    level_studio::files::save_pack(&path, &pack).unwrap();
    let paths = StudioPaths::for_tests(vec![path], Some(dir.path().join("recovery.ron")));
    let mut h = harness(StudioApp::new(Settings::default(), paths, JobMode::Threads));
    let start = Instant::now();
    let mut partial = false;
    while start.elapsed() < Duration::from_secs(30) {
        h.step();
        let doc = &h.state().packs()[0];
        let measured = doc.measured.len();
        if measured > 0 && measured < 150 {
            // Cards fill in while the rest is measured: the first (on screen) already.
            partial = true;
            let first = &doc.pack.levels[0];
            assert!(doc
                .measured
                .contains_key(&(first.game, first.cells.clone())));
            h.step();
            h.get_by_label_contains("/200");
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(partial, "no partial results were ever shown");
}

/// Issue 31, D7: a gauge section the designer closed ("Pattern GA") stays closed when
/// another room, with other figures in its title, is opened.
#[test]
fn a_closed_gauge_section_stays_closed_on_another_room() {
    let dir = tempfile::tempdir().unwrap();
    let rooms = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/dungeon/starter.ron");
    let mut h = harness(studio(vec![rooms], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::SwitchGame(level_studio::dungeon::ID));
    command(&mut h, AppCommand::Pack(PackCommand::Edit(0)));
    wait_for_gauge(&mut h);
    steps(&mut h, 2);
    assert!(h.query_by_label("groups").is_some(), "the section is open");
    h.get_by_label_contains("Pattern GA:").click_accesskit();
    steps(&mut h, 30);
    assert!(h.query_by_label("groups").is_none(), "closed");
    for i in 1..h.state().packs()[0].pack.levels.len() {
        command(&mut h, AppCommand::Pack(PackCommand::Edit(i)));
        wait_for_gauge(&mut h);
        steps(&mut h, 30);
        assert!(
            h.query_by_label("groups").is_none(),
            "room {} reopened it",
            i + 1
        );
    }
}

/// Walkthrough round 3: opening a pack that is open already (and unchanged on disk) shows its
/// tab and keeps the canvas linked to its level, instead of reloading it and cutting the link.
#[test]
fn opening_an_open_pack_again_keeps_the_canvas_linked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.ron");
    let mut pack = level_studio::level::Pack::new("two");
    for (name, w, ht) in [("first", 5, 5), ("second", 6, 6)] {
        let layout = level_studio::match3::Layout::open(w, ht).unwrap();
        pack.levels
            .push(level_studio::level::Level::from_layout(name, &layout));
    }
    level_studio::files::save_pack(&path, &pack).unwrap();
    let mut h = harness(studio(vec![path.clone()], &dir));
    steps(&mut h, 2);
    let card = h.state().pack_strip().card_rects[1].1.center();
    stroke(&mut h, &[card]);
    assert_eq!(h.state().linked(), Some((0, 1)));
    open(&mut h, &path);
    assert_eq!(h.state().linked(), Some((0, 1)), "still linked");
    assert_eq!(h.state().packs().len(), 1);
    assert!(
        h.state().status().contains("open already"),
        "{}",
        h.state().status()
    );
}

/// Issue 47, E2: a typed number is checked when Enter is pressed, not on every keystroke:
/// "4" then "8" in a field whose range starts at 16 gives 48, not 16 then 168 (186 for the
/// report's Mario width).
#[test]
fn a_typed_number_counts_when_entered_not_on_every_keystroke() {
    use egui::accesskit::Role;
    let mut h = egui_kittest::Harness::new_ui_state(
        |ui, state: &mut (u32, Option<String>)| {
            let label = ui.label("Width");
            level_studio::app::widgets::bounded_number(
                ui,
                &mut state.0,
                16..=400,
                "Width",
                &mut state.1,
                1.0,
            )
            .labelled_by(label.id);
        },
        (24, None),
    );
    h.run();
    h.get_by_value("24").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    for digit in ["4", "8"] {
        h.get_by_role(Role::SpinButton).type_text(digit);
        h.run();
        assert_eq!(h.state().0, 24, "nothing counts while typing");
        assert!(h.state().1.is_none(), "no clamping note while typing");
    }
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().0, 48);
    assert!(h.state().1.is_none());
    // A value out of range is still set to the nearest end when entered, with a note.
    h.get_by_value("48").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_role(Role::SpinButton).type_text("9");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().0, 16);
    assert!(h
        .state()
        .1
        .as_deref()
        .is_some_and(|n| n.contains("out of range")));
}

/// Issue 47, E4: Save in the quit dialog on a pack that was never saved asks for its file (as
/// Ctrl+S does) and then quits; cancelling that file dialog cancels the quit, losing nothing.
#[test]
fn save_in_the_quit_dialog_asks_for_a_new_packs_file_then_quits() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::Pack(PackCommand::New));
    add_match3_levels(&mut h, &[(5, 5)]);
    assert!(h.state().packs()[h.state().active_pack()].path.is_none());
    // Save, then Cancel in the file dialog: still open, the pack still unsaved.
    command(&mut h, AppCommand::Quit);
    steps(&mut h, 2);
    h.get_by_label("Save").click();
    steps(&mut h, 4);
    h.get_by_role(egui::accesskit::Role::TextInput);
    assert!(h.state().status().contains("quits once it is saved"));
    assert!(!h.state().quitting());
    h.key_press(Key::Escape);
    steps(&mut h, 2);
    assert!(h.query_by_role(egui::accesskit::Role::TextInput).is_none());
    assert!(
        !h.state().quitting(),
        "cancelling the file cancels the quit"
    );
    assert!(h.state().has_unsaved());
    // Save again, and give a file: it is written, then the studio quits.
    command(&mut h, AppCommand::Quit);
    steps(&mut h, 2);
    h.get_by_label("Save").click();
    steps(&mut h, 4);
    let file = dir.path().join("mine.ron");
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    steps(&mut h, 1);
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text(file.to_str().unwrap());
    steps(&mut h, 2);
    h.get_by_label("OK").click();
    steps(&mut h, 2);
    assert!(h.state().quitting(), "{:?}", h.state().errors());
    let saved = level_studio::files::load_pack(&file).unwrap();
    assert_eq!(saved.levels.len(), 1);
}

/// Issue 47, E17: an empty file is refused in a designer's words, and the status line says
/// the open failed instead of "Opening …" ever after.
#[test]
fn an_empty_file_is_called_empty_and_the_status_is_not_left_opening() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    for name in ["empty.ron", "empty.txt"] {
        let path = dir.path().join(name);
        std::fs::write(&path, "\n").unwrap();
        open(&mut h, &path);
        let errors = format!("{:?}", h.state().errors());
        assert!(errors.contains("the file is empty"), "{errors}");
        assert!(!errors.contains("struct"), "no type names: {errors}");
        assert!(
            !h.state().status().contains("Opening"),
            "{}",
            h.state().status()
        );
        assert!(h.state().status().contains("Could not open"));
    }
}

/// Issue 47, E16: undoing back to the saved cells clears the pack's unsaved mark.
#[test]
fn undoing_back_to_the_saved_cells_clears_the_unsaved_mark() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.ron");
    let mut pack = level_studio::level::Pack::new("two");
    for (name, w, ht) in [("first", 5, 5), ("second", 6, 6)] {
        let layout = level_studio::match3::Layout::open(w, ht).unwrap();
        pack.levels
            .push(level_studio::level::Level::from_layout(name, &layout));
    }
    level_studio::files::save_pack(&path, &pack).unwrap();
    let mut h = harness(studio(vec![path], &dir));
    steps(&mut h, 2);
    let card = h.state().pack_strip().card_rects[0].1.center();
    stroke(&mut h, &[card]);
    wait_for_gauge(&mut h);
    steps(&mut h, 2);
    assert!(!h.state().has_unsaved());
    let c = cell(&h, 4, 5);
    stroke(&mut h, &[c]);
    steps(&mut h, 2);
    assert!(h.state().has_unsaved(), "the stroke reached the pack");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    steps(&mut h, 2);
    wait_for_gauge(&mut h);
    steps(&mut h, 2);
    assert!(
        !h.state().packs()[0].dirty,
        "back to the file's cells: clean ({})",
        h.state().packs()[0].title()
    );
    assert!(!h.state().has_unsaved());
    assert!(!h.state().packs()[0].title().ends_with('*'));
    // A new edit marks it again.
    stroke(&mut h, &[c]);
    steps(&mut h, 2);
    assert!(h.state().has_unsaved());
}

/// Issue 47, E15: back on a game's tab, the strip shows the pack of the level on the canvas,
/// not the first pack of that game.
#[test]
fn switching_back_to_a_game_shows_the_pack_of_its_canvas_level() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for name in ["alpha", "beta"] {
        let path = dir.path().join(format!("{name}.ron"));
        let mut pack = level_studio::level::Pack::new(name);
        let layout = level_studio::match3::Layout::open(5, 5).unwrap();
        pack.levels
            .push(level_studio::level::Level::from_layout(name, &layout));
        level_studio::files::save_pack(&path, &pack).unwrap();
        paths.push(path);
    }
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    for path in &paths {
        open(&mut h, path);
    }
    let beta = h.state().active_pack();
    assert_eq!(h.state().packs()[beta].pack.name, "beta");
    command(&mut h, AppCommand::Pack(PackCommand::Edit(0)));
    assert_eq!(h.state().linked(), Some((beta, 0)));
    command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
    command(&mut h, AppCommand::SwitchGame(level_studio::match3::ID));
    steps(&mut h, 2);
    assert_eq!(
        h.state().active_pack(),
        beta,
        "the canvas's pack, not alpha"
    );
}

/// Issue 47, E6: a 2,000-level pack draws only the cards on screen, the plain wheel scrolls
/// the strip, and "Go to level" (Ctrl+G, a number, Enter) brings a far card into view.
#[test]
fn the_wheel_and_go_to_level_reach_any_card_of_a_long_pack() {
    let dir = tempfile::tempdir().unwrap();
    let starter = level_studio::files::load_pack(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/match3/match3-starter.ron"),
    )
    .unwrap();
    let mut pack = level_studio::level::Pack::new("long");
    for i in 0..2000 {
        // Stored figures, so nothing needs measuring.
        let mut level = starter.levels[i % starter.levels.len()].clone();
        level.name = format!("long-{}", i + 1);
        pack.levels.push(level);
    }
    let path = dir.path().join("long.ron");
    level_studio::files::save_pack(&path, &pack).unwrap();
    let mut h = harness(studio(vec![], &dir));
    open(&mut h, &path);
    steps(&mut h, 3);
    let shown = |h: &Harness<'_, StudioApp>| {
        let rects = &h.state().pack_strip().card_rects;
        (rects.first().map(|r| r.0), rects.len())
    };
    let (first, drawn) = shown(&h);
    assert_eq!(first, Some(0));
    assert!((3..=20).contains(&drawn), "{drawn} cards drawn of 2,000");
    // The plain wheel over the cards scrolls them.
    let over = h.state().pack_strip().card_rects[1].1.center();
    h.hover_at(over);
    for _ in 0..10 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::Vec2::new(0.0, -120.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    steps(&mut h, 10);
    let (first, _) = shown(&h);
    assert!(
        first.unwrap() >= 3,
        "the wheel moved the strip to card {first:?}"
    );
    // Ctrl+G (the field opens and takes the focus), a number, Enter: card 1,500 is drawn,
    // on screen, and the field closes.
    h.key_press_modifiers(Modifiers::COMMAND, Key::G);
    steps(&mut h, 2);
    h.event(egui::Event::Text("1500".into()));
    h.step();
    h.key_press(Key::Enter);
    steps(&mut h, 4);
    let rects = h.state().pack_strip().card_rects.clone();
    let card = rects.iter().find(|r| r.0 == 1499);
    let card = card.unwrap_or_else(|| panic!("card 1,500 is not drawn: {:?}", rects.first()));
    assert!(
        card.1.min.x >= 0.0 && card.1.max.x <= 1400.0,
        "{:?}",
        card.1
    );
    assert_eq!(
        h.query_all_by_role(egui::accesskit::Role::TextInput)
            .count(),
        0,
        "the field closed after the jump"
    );
    // A number the pack does not have is refused in words.
    h.get_by_label("Go to #…").click();
    steps(&mut h, 2);
    h.event(egui::Event::Text("2001".into()));
    h.step();
    h.key_press(Key::Enter);
    steps(&mut h, 2);
    h.get_by_label("this pack has levels 1 to 2000");
}
