//! A game added at run time works in the window with no edit to it: the toy game of
//! `crates/games/toy` (two tiles, a crate-counting analysis, a random-rows generator and a click
//! playtest) is registered here, then switched to, painted, analysed, generated, played and
//! saved through the studio, as a designer would.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use level_studio::app::{AppCommand, JobMode, PackCommand, Settings, StudioApp, StudioPaths};
use std::time::{Duration, Instant};
use toy::{register_toy, TOY};

/// The tool windows the installed plug-ins add, in the window's order.
fn studio_core_tools() -> Vec<std::sync::Arc<studio_ui::Tool>> {
    level_studio::game::registry::entries::<studio_ui::Tool>()
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

fn click_at(h: &mut Harness<'_, StudioApp>, pos: egui::Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    steps(h, 2);
}

#[test]
fn a_registered_toy_game_is_edited_analysed_generated_played_and_saved_in_the_window() {
    register_toy();
    let dir = tempfile::tempdir().unwrap();
    let paths = StudioPaths::for_tests(vec![], Some(dir.path().join("recovery.ron")));
    let app = StudioApp::new(Settings::default(), paths, JobMode::Threads);
    let mut h = Harness::builder()
        .with_size([1440.0, 900.0])
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app);
    steps(&mut h, 2);

    // The game switch lists the toy; choosing it puts a blank toy level on the canvas.
    h.get_all_by_label("Toy")
        .next()
        .expect("a Toy switch")
        .click();
    steps(&mut h, 3);
    assert_eq!(h.state().game(), TOY);
    assert_eq!(h.state().editor().board().to_rows(), ["ooo", "ooo", "ooo"]);

    // The palette comes from the game's tiles; paint a crate with the brush.
    h.get_by_label_contains("CRATE").click();
    steps(&mut h, 2);
    let centre = h.state().canvas().cell_center(1, 1);
    click_at(&mut h, centre);
    assert_eq!(h.state().editor().board().to_rows(), ["ooo", "oxo", "ooo"]);

    // The toy's tool window (its plug-in's window part) counts the canvas's crates and puts
    // an emptied copy on the canvas.
    let tool = studio_core_tools()
        .iter()
        .position(|t| t.game == TOY)
        .expect("the toy's tool is registered");
    command(&mut h, AppCommand::ToggleTool(tool));
    steps(&mut h, 2);
    h.get_by_label_contains("1 crates");
    h.get_by_label("Empty it").click();
    steps(&mut h, 3);
    assert_eq!(h.state().editor().board().to_rows(), ["ooo", "ooo", "ooo"]);
    command(&mut h, AppCommand::ToggleTool(tool));
    click_at(&mut h, centre);
    assert_eq!(h.state().editor().board().to_rows(), ["ooo", "oxo", "ooo"]);

    // The live analysis is the game's: the gauge shows its verdict.
    h.state_mut().analysis_mut().debounce = Duration::ZERO;
    let start = Instant::now();
    loop {
        steps(&mut h, 1);
        let app = h.state();
        let fresh = app
            .analysis()
            .last
            .as_ref()
            .filter(|o| o.revision == app.editor().revision());
        if let Some(o) = fresh {
            let a = o.result.as_ref().expect("the toy analyses");
            assert_eq!(a.verdict.label, "CRATES");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no analysis");
        std::thread::sleep(Duration::from_millis(5));
    }
    steps(&mut h, 2);
    h.get_by_label("CRATES");

    // The state graph comes from the generic explorer over the toy's moves: one crate, two
    // nodes (start and solved). The viewer draws it; a click shows a state on the canvas.
    steps(&mut h, 2);
    let node = h
        .state()
        .graph_panel()
        .node_screen_pos(1)
        .expect("node 1 is drawn");
    click_at(&mut h, node);
    let shown = h
        .state()
        .shown_state()
        .expect("a graph state is shown")
        .clone();
    assert_eq!(shown.node, 1);
    assert!(
        shown.picture.caption.contains("success"),
        "{}",
        shown.picture.caption
    );
    h.key_press(egui::Key::Escape);
    steps(&mut h, 2);
    assert!(h.state().shown_state().is_none());

    // The sidebar's generator is the toy's; candidates stream in through the service.
    {
        let g = h.state_mut().generators_mut();
        let r = g.request_mut(TOY);
        assert_eq!(r.generator, "stripes");
        (r.count, r.seed) = (3, 7);
    }
    command(&mut h, AppCommand::Generate);
    let ctx = h.ctx.clone();
    h.state_mut()
        .generators_mut()
        .wait(Duration::from_secs(30), TOY, &ctx);
    steps(&mut h, 2);
    let candidates: Vec<_> = h.state().generators().candidates.clone();
    assert_eq!(candidates.len(), 3, "{:?}", h.state().generators().error);
    assert!(candidates.iter().all(|c| c.level.game == TOY));
    assert_eq!(candidates[0].level.name, "stripes-001");

    // The playtest runs the game's rules: clicking the crate clears it and solves the level.
    command(&mut h, AppCommand::Playtest);
    assert!(h.state().errors().is_empty(), "{:?}", h.state().errors());
    steps(&mut h, 2);
    let crate_cell = h.state().playtest().cell_center(1, 1);
    click_at(&mut h, crate_cell);
    let play = h
        .state()
        .playtest()
        .play
        .as_ref()
        .expect("a game is played");
    assert_eq!(play.moves(), 1);
    assert_eq!(play.outcome(), Some(true), "{}", play.message());

    // The level and a candidate go into a pack, which is saved and read back.
    command(&mut h, AppCommand::Pack(PackCommand::AddCurrent));
    command(&mut h, AppCommand::AddLevel(candidates[1].level.clone()));
    let path = dir.path().join("toys.ron");
    command(&mut h, AppCommand::SaveAs(path.clone()));
    let pack = level_studio::files::load_pack(&path).unwrap();
    assert_eq!(pack.levels.len(), 2);
    assert!(pack.levels.iter().all(|l| l.game == TOY));
    assert_eq!(pack.levels[0].cells, ["ooo", "oxo", "ooo"]);
    assert_eq!(
        pack.levels[0].playtests.len(),
        1,
        "the solved attempt stays with the level"
    );
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("game: Toy"));
}
