//! egui_kittest tests of Mario in the studio window: the real-time playtest (held keys move
//! Mario at the engine's frame rate, pause and step, a lost attempt is kept with the level),
//! watching A* play, and the side-scrolling canvas.

use crate::wait_for_gauge;
use egui::Key;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use level_studio::app::{AppCommand, JobMode, PackCommand, Settings, StudioApp, StudioPaths};
use level_studio::game::registry;
use level_studio::level::Level;
use level_studio::mario::ui::cgan_map::CganMapWindow;
use level_studio::mario::ui::playtest::{MarioPlay, Player};

fn studio(dir: &tempfile::TempDir) -> StudioApp {
    let paths = StudioPaths::for_tests(vec![], Some(dir.path().join("recovery.ron")));
    StudioApp::new(Settings::default(), paths, JobMode::Inline)
}

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size([1440.0, 900.0])
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app)
}

fn steps(h: &mut Harness<'_, StudioApp>, n: usize) {
    for _ in 0..n {
        h.step();
    }
}

/// A 40-column level: ground, Mario at the left, a goomba at column `goomba` (if any).
fn level(goomba: Option<usize>) -> Level {
    let mut rows = vec!["-".repeat(40); 15];
    let mut feet: Vec<char> = "-".repeat(40).chars().collect();
    feet[1] = 'M';
    feet[38] = 'F';
    if let Some(x) = goomba {
        feet[x] = 'g';
    }
    rows[12] = feet.into_iter().collect();
    rows[13] = "X".repeat(40);
    rows[14] = "X".repeat(40);
    let game = registry::find("mario").unwrap();
    game.level_from_ascii("corridor", &(rows.join("\n") + "\n"))
        .unwrap()
}

fn start_playtest(h: &mut Harness<'_, StudioApp>, level: &Level) {
    h.state_mut().push(AppCommand::LoadLevel(level.clone()));
    steps(h, 2);
    h.state_mut()
        .push(AppCommand::Pack(PackCommand::AddCurrent));
    steps(h, 2);
    h.get_by_label("Playtest").click();
    steps(h, 2);
    assert!(
        h.state().playtest().session::<MarioPlay>().is_some(),
        "{:?}",
        h.state().errors()
    );
}

#[test]
fn held_arrows_move_mario_in_real_time_and_pause_freezes_him() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    start_playtest(&mut h, &level(None));
    assert_eq!(
        h.state().playtest().session::<MarioPlay>().unwrap().ticks(),
        0,
        "the clock waits for the designer's first key"
    );
    let x0 = h
        .state()
        .playtest()
        .session::<MarioPlay>()
        .unwrap()
        .world
        .mario()
        .x();
    h.key_down(Key::ArrowRight);
    steps(&mut h, 30);
    let play = h.state().playtest().session::<MarioPlay>().unwrap();
    // Half a second at 60 frames a second is about 16 engine ticks of 30 ms.
    assert!((14..=18).contains(&play.ticks()), "{} ticks", play.ticks());
    let x1 = play.world.mario().x();
    assert!(x1 > x0 + 30.0, "walked from {x0} to {x1}");
    // P pauses: time stands still; N plays one tick.
    h.key_press(Key::P);
    steps(&mut h, 1);
    let paused_at = h.state().playtest().session::<MarioPlay>().unwrap().ticks();
    steps(&mut h, 20);
    assert_eq!(
        h.state().playtest().session::<MarioPlay>().unwrap().ticks(),
        paused_at
    );
    h.key_press(Key::N);
    steps(&mut h, 1);
    assert_eq!(
        h.state().playtest().session::<MarioPlay>().unwrap().ticks(),
        paused_at + 1
    );
    h.key_up(Key::ArrowRight);
    h.get_by_label_contains("PAUSED");
}

#[test]
fn walking_into_a_goomba_loses_and_the_attempt_is_kept_with_the_level() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    let level = level(Some(8));
    start_playtest(&mut h, &level);
    h.key_down(Key::ArrowRight);
    for _ in 0..200 {
        h.step();
        if h.state()
            .playtest()
            .session::<MarioPlay>()
            .unwrap()
            .outcome()
            .is_some()
        {
            break;
        }
    }
    h.key_up(Key::ArrowRight);
    steps(&mut h, 2);
    assert_eq!(
        h.state()
            .playtest()
            .session::<MarioPlay>()
            .unwrap()
            .outcome(),
        Some(false)
    );
    h.get_by_label_contains("Hit by an enemy");
    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    let played = pack.levels.iter().find(|l| l.cells == level.cells).unwrap();
    assert_eq!(played.playtests.len(), 1, "the attempt is kept");
    assert!(!played.playtests[0].solved);
    assert!(played.playtests[0].moves > 5, "moves are the ticks played");
}

#[test]
fn watching_a_star_fast_reaches_the_goal_and_is_not_the_designers_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    let level = level(Some(20));
    start_playtest(&mut h, &level);
    // The window grows to its full width over its first frames; Watch sits at its right.
    steps(&mut h, 60);
    h.get_by_label("A*").click();
    steps(&mut h, 1);
    h.get_by_label("Fast").click();
    steps(&mut h, 1);
    assert_eq!(
        h.state().playtest().session::<MarioPlay>().unwrap().player,
        Player::AStar
    );
    for _ in 0..400 {
        h.step();
        if h.state()
            .playtest()
            .session::<MarioPlay>()
            .unwrap()
            .outcome()
            .is_some()
        {
            break;
        }
    }
    let play = h.state().playtest().session::<MarioPlay>().unwrap();
    assert_eq!(play.outcome(), Some(true), "A* finishes the corridor");
    assert_eq!(play.speed, 4);
    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    let played = pack.levels.iter().find(|l| l.cells == level.cells).unwrap();
    assert!(
        played.playtests.is_empty(),
        "an agent's game is not an attempt"
    );
    // Issue 69, W17: the win line counts the ticks the Tick counter shows.
    steps(&mut h, 2);
    let ticks = h.state().playtest().session::<MarioPlay>().unwrap().ticks();
    h.get_by_label_contains(&format!("Reached the goal in {ticks} ticks"));
    h.get_by_label(&format!("Tick {ticks}"));
    // W11: R after the watch starts the designer's own game.
    h.key_press(Key::R);
    steps(&mut h, 2);
    let play = h.state().playtest().session::<MarioPlay>().unwrap();
    assert_eq!(play.player, Player::Designer, "R hands the controls over");
    assert_eq!(play.ticks(), 0);
}

#[test]
fn a_long_level_scrolls_sideways_and_its_minimap_brings_a_part_into_view() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    let game = registry::find("mario").unwrap();
    let long = game.blank(300, 15);
    h.state_mut().push(AppCommand::LoadLevel(long));
    steps(&mut h, 3);
    // Measured once the gauge has answered (its answer may move the panels).
    wait_for_gauge(&mut h);
    steps(&mut h, 2);
    let left = h.state().canvas().cell_center(0, 0);
    let right = h.state().canvas().cell_center(299, 0);
    let cell = h.state().canvas().cell_center(1, 0).x - left.x;
    assert!(
        cell >= 8.0,
        "fitted to the height, not squeezed to the width: {cell}"
    );
    assert!(right.x > 1440.0, "the level runs past the window");
    // The wheel scrolls it sideways.
    h.hover_at(left + egui::Vec2::new(100.0, 100.0));
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::Vec2::new(0.0, -400.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    steps(&mut h, 3);
    let scrolled = h.state().canvas().cell_center(0, 0);
    assert!(scrolled.x < left.x - 100.0, "{left:?} → {scrolled:?}");
    // Issue 47, E23: a click on the minimap whose press and release fall in one frame (a
    // touchpad tap, xdotool's click) jumps there too: to the level's end, then its start.
    let minimap = h
        .state()
        .canvas()
        .minimap
        .expect("a long level has a minimap");
    for (along, expect_left) in [(0.95, false), (0.02, true)] {
        let at = egui::pos2(minimap.left() + along * minimap.width(), minimap.center().y);
        h.hover_at(at);
        h.step();
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: egui::Modifiers::NONE,
        });
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: egui::Modifiers::NONE,
        });
        steps(&mut h, 2);
        let first = h.state().canvas().cell_center(0, 0).x;
        if expect_left {
            assert!(
                (first - left.x).abs() < 50.0,
                "back at the start: {first} vs {}",
                left.x
            );
        } else {
            assert!(first < left.x - 2000.0, "jumped to the end: {first}");
        }
    }
}

#[test]
fn the_cgan_map_sweeps_after_the_canvas_level_and_shows_the_points_patterns() {
    if !level_studio::mario::formats::vglc_levels_dir().is_dir() {
        eprintln!("skipped: the VGLC folder is absent");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    h.state_mut().push(AppCommand::LoadLevel(level(Some(20))));
    steps(&mut h, 2);
    h.get_by_label("CGAN map").click();
    for _ in 0..400 {
        steps(&mut h, 1);
        if h.state()
            .tool::<CganMapWindow>()
            .unwrap()
            .distinct()
            .is_some()
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    steps(&mut h, 3);
    let (raw, matched) = h
        .state()
        .tool::<CganMapWindow>()
        .unwrap()
        .distinct()
        .unwrap();
    assert!(
        raw >= matched && matched >= 1,
        "{raw} raw, {matched} matched"
    );
    assert!(h
        .query_by_label_contains("distinct patterns before Matching")
        .is_some());
    assert!(h
        .query_by_label_contains("After the canvas level's patterns 1-3")
        .is_some());
    for caption in ["raw", "matched", "1", "2", "3"] {
        assert!(h.query_by_label(caption).is_some(), "{caption}");
    }
}

/// Issue 47, E5: a playtest owns the keys it uses: R restarts the game and does not also pick
/// the editor's Rectangle tool behind it.
#[test]
fn r_in_the_playtest_restarts_and_leaves_the_editors_tool_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    let tool = h.state().current_tool();
    start_playtest(&mut h, &level(None));
    h.key_down(Key::ArrowRight);
    steps(&mut h, 10);
    h.key_up(Key::ArrowRight);
    h.key_press(Key::R);
    steps(&mut h, 2);
    assert_eq!(
        h.state().current_tool(),
        tool,
        "the editor's tool is unchanged"
    );
    assert!(
        h.state().playtest().session::<MarioPlay>().unwrap().ticks() < 5,
        "R restarted the game"
    );
    // With the playtest closed, R picks the Rectangle again.
    h.state_mut().playtest_mut().open = false;
    steps(&mut h, 2);
    h.key_press(Key::R);
    steps(&mut h, 2);
    assert_eq!(
        h.state().current_tool(),
        level_studio::document::settings::Tool::Rectangle
    );
}

/// Issue 47, E3: the Mario formats are in the window: File > Import reads VGLC (and Mario AI
/// Framework) text into a new, unsaved pack, File > Export as level text writes them, and
/// File > Open of such a file says to use Import instead of only "unknown cell character".
#[test]
fn the_window_imports_and_exports_the_mario_level_text() {
    let dir = tempfile::tempdir().unwrap();
    // The studio's own VGLC export of the shipped pack's first level.
    let mut pack =
        level_studio::files::load_pack(std::path::Path::new("levels/mario/starter.ron")).unwrap();
    pack.levels.truncate(1);
    let vglc = dir.path().join("vglc");
    let exporters = level_studio::formats::exporters();
    let to_vglc = exporters
        .iter()
        .position(|e| e.format == "vglc-mario")
        .unwrap();
    (exporters[to_vglc].export)(&vglc, &pack).unwrap();
    let file = std::fs::read_dir(&vglc)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    // Open: the error names Import.
    h.state_mut().push(AppCommand::Open(file.clone()));
    steps(&mut h, 2);
    h.state_mut()
        .wait_for_files(std::time::Duration::from_secs(20));
    steps(&mut h, 2);
    let errors = format!("{:?}", h.state().errors());
    assert!(errors.contains("File > Import reads"), "{errors}");
    assert!(errors.contains("VGLC Super Mario Bros levels"), "{errors}");
    // Import: a new pack with the level, in no file yet.
    // Packs with a tab (a placeholder makes way for the import).
    let tabs = |h: &Harness<'_, StudioApp>| {
        h.state()
            .packs()
            .iter()
            .filter(|p| !p.is_placeholder())
            .count()
    };
    let packs = tabs(&h);
    let importers = level_studio::formats::importers();
    let from_vglc = importers
        .iter()
        .position(|i| i.format == "vglc-mario")
        .unwrap();
    h.state_mut().push(AppCommand::Import(from_vglc, file));
    steps(&mut h, 2);
    h.state_mut()
        .wait_for_files(std::time::Duration::from_secs(20));
    steps(&mut h, 2);
    assert_eq!(tabs(&h), packs + 1, "{:?}", h.state().errors());
    let doc = &h.state().packs()[h.state().active_pack()];
    assert_eq!(doc.pack.levels.len(), 1);
    assert!(
        doc.path.is_none() && doc.dirty,
        "unsaved, never over the text file"
    );
    // The VGLC text has no start or flag letter: the rest comes back as it was.
    let no_marks: Vec<String> = pack.levels[0]
        .cells
        .iter()
        .map(|r| r.replace(['M', 'F'], "-"))
        .collect();
    assert_eq!(doc.pack.levels[0].cells, no_marks);
    // Export as Mario AI Framework text from the window.
    let to_ai = exporters
        .iter()
        .position(|e| e.format == "mario-ai")
        .unwrap();
    let out = dir.path().join("ai");
    h.state_mut().push(AppCommand::ExportAs(
        level_studio::app::ExportFormat::Registered(to_ai),
        out.clone(),
    ));
    steps(&mut h, 2);
    h.state_mut()
        .wait_for_files(std::time::Duration::from_secs(20));
    steps(&mut h, 2);
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    // The File menu lists both.
    h.get_by_label("File").click();
    steps(&mut h, 2);
    h.get_by_label("Import");
    h.get_by_label("Export as level text");
}

/// Issue 47, E10: the F1 sheet has a Mario section with its playtest keys, and promises only
/// what works.
#[test]
fn the_shortcut_sheet_lists_the_mario_playtest_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    h.key_press(Key::F1);
    steps(&mut h, 3);
    h.get_by_label("Playtest: Mario");
    h.get_by_label("Space, Up or S");
    // The course sliders' arrow keys work now (a quick click gives them the keyboard too),
    // so the sheet lists them again.
    h.get_by_label_contains("then the arrow keys");
}

/// Issue 47, E8: Right and Space pressed together at the very start jump (Mario starts in the
/// air, and the engine jumps only on a press made on the ground).
#[test]
fn a_jump_pressed_with_the_first_key_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    start_playtest(&mut h, &level(None));
    let mario_y = |h: &Harness<'_, StudioApp>| {
        let play = h.state().playtest().session::<MarioPlay>().unwrap();
        play.world.mario().y()
    };
    h.key_down(Key::ArrowRight);
    h.key_down(Key::Space);
    steps(&mut h, 2);
    let ground = mario_y(&h);
    let mut highest = ground;
    for _ in 0..30 {
        h.step();
        highest = highest.min(mario_y(&h));
    }
    h.key_up(Key::Space);
    h.key_up(Key::ArrowRight);
    assert!(
        highest < ground - 20.0,
        "no jump: Mario's feet went from {ground} up to {highest} at most"
    );
}

/// Issue 47, E9: before the first key, the goomba is drawn and Mario has his playing size;
/// the start hint goes once play starts.
#[test]
fn before_the_start_the_enemies_show_and_the_hint_goes_with_the_first_key() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    start_playtest(&mut h, &level(Some(8)));
    let play = h.state().playtest().session::<MarioPlay>().unwrap();
    assert_eq!(play.ticks(), 0);
    let drawn = play.as_drawn();
    assert_eq!(
        drawn.sprites().count(),
        1,
        "the goomba is drawn before the start"
    );
    assert_eq!(drawn.mario().height(), 12.0, "small Mario, as he plays");
    // The playtest window lays itself out over a few frames (no key is held: time waits).
    steps(&mut h, 4);
    h.get_by_label_contains("or Space to start");
    h.key_down(Key::ArrowRight);
    steps(&mut h, 6);
    h.key_up(Key::ArrowRight);
    steps(&mut h, 2);
    let play = h.state().playtest().session::<MarioPlay>().unwrap();
    assert!(play.ticks() > 0);
    assert_eq!(play.as_drawn().mario().height(), 12.0);
    assert!(
        h.query_by_label_contains("to start").is_none(),
        "the hint stays"
    );
    h.get_by_label_contains("Space jumps");
}

/// Issue 47: after an edit, the Mario gauge says in one line what the human-like trials did
/// at the edited pattern against the analysis before it.
#[test]
fn the_gauge_says_why_the_damage_moved_at_the_edited_pattern() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    h.state_mut().push(AppCommand::LoadLevel(level(None)));
    steps(&mut h, 2);
    let ctx = h.ctx.clone();
    // The studio runs its jobs inline here: an analysis may already have answered.
    let answered = |h: &Harness<'_, StudioApp>| {
        let app = h.state();
        app.analysis()
            .last
            .as_ref()
            .is_some_and(|o| o.revision == app.editor().revision())
    };
    h.state_mut().finish_analysis(&ctx);
    steps(&mut h, 2);
    assert!(answered(&h));
    assert!(
        h.query_by_label_contains("Why:").is_none(),
        "nothing edited yet"
    );
    // A hole two columns wide at columns 10–11 (1-based), through the ground.
    let empty = level_studio::mario::Tile::Empty.index();
    h.state_mut()
        .push(AppCommand::Edit(level_studio::app::EditCommand::Paint(
            vec![
                (9, 13, empty),
                (10, 13, empty),
                (9, 14, empty),
                (10, 14, empty),
            ],
        )));
    steps(&mut h, 2);
    h.state_mut().finish_analysis(&ctx);
    steps(&mut h, 4);
    assert!(answered(&h));
    // The edited pattern, and what the trials did there against before (the counts are
    // the agent's: unit-tested in the mario crate).
    h.get_by_label_contains("Why: Pattern 3 (columns 9–12), now (before): ");
    h.get_by_label_contains("slips over 10 human-like trials");
    // Issue 44, item 7: the gauge places the level's damage on the r_diff curve.
    h.get_by_label_contains("r_diff (the thesis's Fig. 6.4): this level's damage");
}

/// Issue 44, item 2: a kept attempt carries its buttons as a script, the same script played
/// on the command line ends the same way at the same tick, and "Replay" plays it again in
/// the window to the same place.
#[test]
fn an_attempt_keeps_its_buttons_and_replays_to_the_same_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    steps(&mut h, 2);
    let level = level(Some(8));
    start_playtest(&mut h, &level);
    let play = |h: &Harness<'_, StudioApp>| -> (Option<bool>, u32, f32) {
        let p = h.state().playtest().session::<MarioPlay>().unwrap();
        (p.outcome(), p.ticks(), p.world.mario().x())
    };
    h.key_down(Key::ArrowRight);
    for _ in 0..200 {
        h.step();
        if play(&h).0.is_some() {
            break;
        }
    }
    h.key_up(Key::ArrowRight);
    steps(&mut h, 2);
    let (outcome, ticks, x) = play(&h);
    assert_eq!(outcome, Some(false), "walked into the goomba");
    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    let played = pack.levels.iter().find(|l| l.cells == level.cells).unwrap();
    let script = played.playtests[0]
        .script
        .clone()
        .expect("the attempt's buttons");
    let buttons = level_studio::mario::script::parse(&script).unwrap();
    assert_eq!(
        buttons.len() as u32,
        ticks,
        "one tick of buttons per tick played"
    );
    // The command line's replay of the same script: the same end at the same tick.
    let mario = level_studio::mario::MarioLevel::from_rows(&level.cells).unwrap();
    let mut last = (0, 0.0);
    let world = level_studio::mario::cli::play::play(&mario, &buttons, |tick, w| {
        last = (tick, w.mario().x());
    });
    assert!(!world.is_running());
    assert_eq!(
        last,
        (ticks as usize, x),
        "the command line ends where the window did"
    );
    // Replay in the window: the same end, at the same tick and place.
    h.get_by_label("Replay").click();
    steps(&mut h, 2);
    assert_eq!(
        h.state().playtest().session::<MarioPlay>().unwrap().player,
        Player::Replay
    );
    for _ in 0..400 {
        h.step();
        if play(&h).0.is_some() {
            break;
        }
    }
    assert_eq!(play(&h), (Some(false), ticks, x));
    // A replay is not an attempt of the designer's: still one kept.
    steps(&mut h, 2);
    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    let played = pack.levels.iter().find(|l| l.cells == level.cells).unwrap();
    assert_eq!(played.playtests.len(), 1);
}

/// A tool window's list of levels is built when what it comes from changes, not every frame
/// (a 20,000-level pack was copied each frame while the CGAN map was open), and follows the
/// pack when a level is added.
#[test]
fn a_tool_windows_levels_follow_the_pack_without_being_rebuilt_each_frame() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(&dir));
    h.state_mut().push(AppCommand::LoadLevel(level(None)));
    steps(&mut h, 2);
    h.get_by_label("CGAN map").click();
    steps(&mut h, 3);
    // The editor level carries the gauge's figures, so the list is rightly rebuilt once when
    // the gauge answers: wait for that before checking that idle frames keep it.
    wait_for_gauge(&mut h);
    steps(&mut h, 2);
    let mario = level_studio::mario::ID;
    let count = |h: &Harness<'_, StudioApp>| {
        h.state()
            .shown_tool_sources(mario)
            .expect("the CGAN map was given its levels")
            .len()
    };
    let before = count(&h);
    let first = h.state().shown_tool_sources(mario).unwrap().as_ptr();
    steps(&mut h, 3);
    assert_eq!(
        h.state().shown_tool_sources(mario).unwrap().as_ptr(),
        first,
        "the same list, not rebuilt"
    );
    h.state_mut()
        .push(AppCommand::Pack(PackCommand::AddCurrent));
    steps(&mut h, 3);
    assert_eq!(count(&h), before + 1, "the added level is listed");
}

/// Issue 69, W5: the why line of a slow stroke (the gauge answers in its middle) compares
/// with the level before the stroke, as the same edit made at once does.
#[test]
fn a_slow_strokes_why_line_compares_with_the_level_before_the_stroke() {
    use level_studio::app::EditCommand;
    let empty = level_studio::mario::Tile::Empty.index();
    let cells = [(9, 13), (10, 13), (9, 14), (10, 14)];
    let why = |slow: bool| {
        let dir = tempfile::tempdir().unwrap();
        let mut h = harness(studio(&dir));
        steps(&mut h, 2);
        h.state_mut().push(AppCommand::LoadLevel(level(None)));
        steps(&mut h, 2);
        let ctx = h.ctx.clone();
        h.state_mut().finish_analysis(&ctx);
        steps(&mut h, 2);
        h.state_mut()
            .push(AppCommand::Edit(EditCommand::BeginStroke {
                label: "Brush".into(),
            }));
        for &(x, y) in &cells {
            h.state_mut()
                .push(AppCommand::Edit(EditCommand::Paint(vec![(x, y, empty)])));
            steps(&mut h, 2);
            if slow {
                // The gauge answers in the middle of the stroke.
                h.state_mut().finish_analysis(&ctx);
                steps(&mut h, 2);
            }
        }
        h.state_mut().push(AppCommand::Edit(EditCommand::EndStroke));
        steps(&mut h, 2);
        h.state_mut().finish_analysis(&ctx);
        steps(&mut h, 2);
        let app = h.state();
        let last = app.analysis().last.as_ref().unwrap();
        assert_eq!(last.revision, app.editor().revision());
        last.why.clone().expect("a why line")
    };
    assert_eq!(why(true), why(false));
}
