//! Issue 69's defects from the round-four walkthrough (W1–W20), each driven through the
//! window: every test here fails on the code the walkthrough ran.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use level_studio::app::{AppCommand, JobMode, PackCommand, Settings, StudioApp, StudioPaths};
use level_studio::document::recovery::Recovery;
use level_studio::level::Game;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn studio(packs: Vec<PathBuf>, dir: &tempfile::TempDir) -> StudioApp {
    let paths = StudioPaths::for_tests(packs, Some(dir.path().join("recovery.ron")));
    StudioApp::new(Settings::default(), paths, JobMode::Threads)
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

fn command(h: &mut Harness<'_, StudioApp>, c: AppCommand) {
    h.state_mut().push(c);
    steps(h, 2);
    h.state_mut().wait_for_files(Duration::from_secs(20));
    steps(h, 2);
}

fn starter(game: &str) -> PathBuf {
    let dir = Path::new("levels").join(game);
    let name = if game == "match3" {
        "match3-starter.ron"
    } else {
        "starter.ron"
    };
    dir.join(name)
}

fn game_of(h: &Harness<'_, StudioApp>, pack: usize) -> Game {
    h.state().packs()[pack].main_game()
}

fn name_of(game: Game) -> &'static str {
    game.game().map_or("?", |g| g.name())
}

/// W1, W8: closing a pack leaves no "untitled <game>" tab in its place, Recover does not
/// bring empty packs back, and a pack started with New pack is named after the game's name,
/// never its internal id.
#[test]
fn closing_a_pack_leaves_no_phantom_pack_and_recover_brings_none_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![starter("match3"), starter("longcat")], &dir));
    steps(&mut h, 3);
    let game = h.state().game();
    let active = h.state().active_pack();
    assert_eq!(game_of(&h, active), game);
    h.get_by_label("Close pack").click();
    steps(&mut h, 3);
    // No tab names an empty pack; the strip says the game has none open.
    assert!(
        h.query_by_label_contains("untitled").is_none(),
        "no untitled tab after Close pack"
    );
    let hint = format!("no {} pack open", name_of(game));
    assert!(h.query_by_label(&hint).is_some(), "the strip says: {hint}");
    // The autosave keeps the one real pack left, not the placeholder.
    let recovery = dir.path().join("recovery.ron");
    h.state_mut().autosave_now(&recovery);
    let text = std::fs::read_to_string(&recovery).unwrap();
    let saved = Recovery::from_text(&recovery, &text).unwrap().value;
    assert_eq!(saved.packs.len(), 1, "only the longcat pack is kept");
    assert!(saved.packs.iter().all(|p| !p.pack.levels.is_empty()));
    // New pack is a real tab, named after the game ("untitled Match-3").
    command(&mut h, AppCommand::Pack(PackCommand::New));
    let title = format!("untitled {}", name_of(game));
    assert!(h.query_by_label(&title).is_some(), "the tab reads {title}");
    assert!(!title.contains(&game.to_string()) || name_of(game) == game.to_string());
}

/// W14: a click on the tab of another game's pack brings that game onto the canvas, so the
/// strip never shows a pack under another game's canvas.
#[test]
fn activating_another_games_pack_brings_its_game_onto_the_canvas() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![starter("match3"), starter("longcat")], &dir));
    steps(&mut h, 3);
    let other = (0..h.state().packs().len())
        .find(|&i| game_of(&h, i) != h.state().game())
        .unwrap();
    let game = game_of(&h, other);
    command(&mut h, AppCommand::Pack(PackCommand::Activate(other)));
    assert_eq!(h.state().game(), game, "the canvas follows the pack");
    assert_eq!(h.state().active_pack(), other);
    // The canvas edits the pack's first level of that game.
    let linked = h.state().linked().map(|(p, _)| p);
    assert_eq!(linked, Some(other));
}

/// W7: two imports of packs with the same title get two names; the status counts "1 level".
#[test]
fn two_imports_get_two_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack = level_studio::files::load_pack(&starter("mario")).unwrap();
    pack.levels.truncate(1);
    let out = dir.path().join("vglc");
    let exporters = level_studio::formats::exporters();
    let to_vglc = exporters
        .iter()
        .position(|e| e.format == "vglc-mario")
        .unwrap();
    (exporters[to_vglc].export)(&out, &pack).unwrap();
    let file = std::fs::read_dir(&out)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let importers = level_studio::formats::importers();
    let from_vglc = importers
        .iter()
        .position(|i| i.format == "vglc-mario")
        .unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::Import(from_vglc, file.clone()));
    assert!(
        h.state().status().contains("Imported 1 level "),
        "{}",
        h.state().status()
    );
    command(&mut h, AppCommand::Import(from_vglc, file));
    let names: Vec<String> = h
        .state()
        .packs()
        .iter()
        .filter(|p| !p.is_placeholder())
        .map(|p| p.pack.name.clone())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_ne!(names[0], names[1], "two tabs, two names");
    assert_eq!(names[1], format!("{} (2)", names[0]));
}

/// W13: a pack cut mid-file (here inside the word "branches") is called truncated, not an
/// "unexpected field"; a whole file written wrong still gets the reader's own words.
#[test]
fn a_truncated_pack_is_said_to_end_early() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(starter("longcat")).unwrap();
    let cut = text.find("branches").map_or(text.len() / 2, |i| i + 4);
    let path = dir.path().join("trunc.ron");
    std::fs::write(&path, &text[..cut]).unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::Open(path.clone()));
    let errors = format!("{:?}", h.state().errors());
    assert!(errors.contains("the file ends early"), "{errors}");
    // Balanced text with a wrong field is not called truncated.
    let wrong = dir.path().join("wrong.ron");
    std::fs::write(&wrong, "(name: \"x\", nonsense: 3)\n").unwrap();
    let err = level_studio::files::load_pack(&wrong)
        .unwrap_err()
        .to_string();
    assert!(!err.contains("ends early"), "{err}");
    assert!(level_studio::io::ends_early("(a: [1, 2"));
    assert!(level_studio::io::ends_early("(a: \"open"));
    assert!(!level_studio::io::ends_early("(a: '(', b: \")\")"));
}

/// W3: the size-clamp warning belongs to the game whose field was typed into: other games'
/// conditions do not show it.
#[test]
fn a_size_warning_stays_with_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir));
    steps(&mut h, 2);
    let first = h.state().game();
    // Type a width far past the range into the number field, and press Enter.
    let fields = h.get_all_by_role(egui::accesskit::Role::SpinButton).count();
    assert!(fields >= 2, "the size fields");
    h.get_all_by_role(egui::accesskit::Role::SpinButton)
        .next()
        .unwrap()
        .click();
    steps(&mut h, 2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_all_by_role(egui::accesskit::Role::SpinButton)
        .next()
        .unwrap()
        .type_text("999");
    steps(&mut h, 1);
    h.key_press(egui::Key::Enter);
    steps(&mut h, 3);
    assert!(
        h.query_by_label_contains("is out of range").is_some(),
        "the warning shows on its own game"
    );
    let other = level_studio::game::games()
        .iter()
        .map(|g| g.id())
        .find(|&g| g != first)
        .unwrap();
    command(&mut h, AppCommand::SwitchGame(other));
    assert!(
        h.query_by_label_contains("is out of range").is_none(),
        "not on another game's tab"
    );
    command(&mut h, AppCommand::SwitchGame(first));
    assert!(h.query_by_label_contains("is out of range").is_some());
}

/// W6: a refused "Go to" goes with the pack it was about.
#[test]
fn a_go_to_refusal_goes_with_its_pack() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![starter("match3"), starter("longcat")], &dir));
    steps(&mut h, 3);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::G);
    steps(&mut h, 2);
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("20001");
    steps(&mut h, 1);
    h.key_press(egui::Key::Enter);
    steps(&mut h, 3);
    assert!(h.query_by_label_contains("this pack has levels").is_some());
    h.get_by_label("Close pack").click();
    steps(&mut h, 3);
    assert!(
        h.query_by_label_contains("this pack has levels").is_none(),
        "the refusal went with its pack"
    );
}

/// W2: a canvas whose cells equal a level of a reopened pack edits that level again, so it
/// is not "work in no pack"; the recovery file keeps only canvases worth bringing back.
#[test]
fn reopening_a_pack_links_the_identical_canvas_again() {
    use level_studio::app::EditCommand;
    use level_studio::match3::Match3Level;
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
    command(&mut h, AppCommand::Pack(PackCommand::Edit(1)));
    assert_eq!(h.state().linked(), Some((0, 1)));
    // An edit in place, saved: the canvas has history and the file holds it.
    let now = h.state().editor().board().get(0, 0);
    for c in [
        EditCommand::BeginStroke {
            label: "Brush".into(),
        },
        EditCommand::Paint(vec![(0, 0, if now == 0 { 1 } else { 0 })]),
        EditCommand::EndStroke,
    ] {
        h.state_mut().push(AppCommand::Edit(c));
    }
    steps(&mut h, 2);
    command(&mut h, AppCommand::Save);
    assert!(!h.state().has_unsaved(), "{:?}", h.state().errors());
    command(&mut h, AppCommand::Pack(PackCommand::Close));
    assert_eq!(h.state().linked(), None);
    assert!(
        h.state().has_canvas_work(),
        "closed: the canvas is in no pack"
    );
    command(&mut h, AppCommand::Open(path.clone()));
    let linked = h.state().linked();
    assert!(linked.is_some_and(|(_, i)| i == 1), "{linked:?}");
    assert!(!h.state().has_canvas_work(), "nothing to save or add again");
    // The autosave brings back the linked canvas only, not six blank ones.
    let recovery = dir.path().join("recovery.ron");
    h.state_mut().autosave_now(&recovery);
    let text = std::fs::read_to_string(&recovery).unwrap();
    let saved = Recovery::from_text(&recovery, &text).unwrap().value;
    assert_eq!(saved.levels.len(), 1, "{:?}", saved.links);
}

/// The path the in-window prompt proposes (the file dialog of tests and of machines without
/// a portal).
fn proposed(h: &mut Harness<'_, StudioApp>, c: AppCommand) -> String {
    h.state_mut().push(c);
    steps(h, 3);
    let text = h
        .get_by_role(egui::accesskit::Role::TextInput)
        .value()
        .unwrap_or_default();
    h.key_press(egui::Key::Escape);
    steps(h, 2);
    text
}

/// W10: each file dialog proposes a path that fits its action: a folder to open or import
/// from, a folder name (not a `.ron` file) for a folder export.
#[test]
fn file_dialogs_propose_paths_that_fit_the_action() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![starter("mario")], &dir));
    steps(&mut h, 2);
    let open = proposed(&mut h, AppCommand::OpenDialog);
    assert!(
        open.ends_with(std::path::MAIN_SEPARATOR) && !open.ends_with(".ron"),
        "Open starts in a folder: {open}"
    );
    let import = proposed(&mut h, AppCommand::ImportDialog(0));
    assert!(!import.ends_with(".ron"), "Import: {import}");
    let exporters = level_studio::formats::exporters();
    let text = exporters
        .iter()
        .position(|e| e.format == "mario-ai")
        .unwrap();
    let folder = proposed(
        &mut h,
        AppCommand::ExportDialog(level_studio::app::ExportFormat::Registered(text)),
    );
    assert!(
        folder.ends_with("-mario-ai") && !folder.contains(".ron"),
        "a folder's name: {folder}"
    );
}

/// E20's rest: with many tabs the strip's header wraps, and neither "Undo remove" nor the
/// difficulty curve is pushed past the window's right edge.
#[test]
fn many_tabs_wrap_and_keep_the_curve_and_buttons_in_the_window() {
    use level_studio::match3::Match3Level;
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = (0..16)
        .map(|k| {
            let path = dir.path().join(format!("pack-with-a-longish-name-{k}.ron"));
            let mut pack = level_studio::level::Pack::new(format!("pack with a long name {k}"));
            let layout = level_studio::match3::Layout::open(5, 5).unwrap();
            pack.levels
                .push(level_studio::level::Level::from_layout("one", &layout));
            level_studio::files::save_pack(&path, &pack).unwrap();
            path
        })
        .collect();
    for tabs in [7, 16] {
        let mut h = harness(studio(paths[..tabs].to_vec(), &dir));
        steps(&mut h, 6);
        let width = 1440.0;
        for label in ["Undo remove", "Close pack"] {
            let rect = h.get_by_label(label).rect();
            assert!(
                rect.max.x <= width + 0.5,
                "{tabs} tabs: {label} at {rect:?}"
            );
        }
        let curve = h.get_by_label_contains("Difficulty curve").rect();
        assert!(
            curve.max.x <= width + 0.5,
            "{tabs} tabs: the curve at {curve:?}"
        );
    }
}

/// W15: Blend ships a starter pack like the other games, and its tab opens on one of its
/// playable blends rather than on an empty canvas.
#[test]
fn blend_has_a_starter_pack_and_opens_on_a_level() {
    let dir = tempfile::tempdir().unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shipped = StudioPaths::standard(&root).shipped_packs;
    let blend = root.join("levels/blend/starter.ron");
    assert!(shipped.contains(&blend), "{shipped:?}");
    let pack = level_studio::files::load_pack(&blend).unwrap();
    assert!(pack.levels.len() >= 6);
    assert!(pack
        .levels
        .iter()
        .all(|l| l.game == level_studio::blend::ID));
    let mut h = harness(studio(vec![blend], &dir));
    steps(&mut h, 2);
    command(&mut h, AppCommand::SwitchGame(level_studio::blend::ID));
    let linked = h.state().linked();
    assert!(
        linked.is_some(),
        "the canvas edits the starter's first level"
    );
    assert_eq!(h.state().editor().name, pack.levels[0].name);
    // Each level is a playable blend (what `--validate` kept).
    let game = level_studio::blend::ID.game().unwrap();
    for level in &pack.levels {
        let a = game
            .analyse(
                level,
                &level_studio::game::AnalyseOptions::default(),
                &level_studio::jobs::Cancel::default(),
            )
            .unwrap();
        assert!(a.verdict.pass, "{}: {}", level.name, a.verdict.label);
    }
}
