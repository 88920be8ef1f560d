//! egui_kittest tests of the studio window, part 2: generators and candidates, cancelling a
//! job, opening a candidate, playtesting both games and the latent interpolation window.

use egui::{Key, Pos2};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use level_studio::app::{AppCommand, JobMode, PackCommand, Settings, StudioApp, StudioPaths};
use level_studio::blend::ui::blend_lab::BlendLab;
use level_studio::game::ConditionValue;
use level_studio::level::Level;
use level_studio::match3::Match3Level;
use level_studio::symmetry::Symmetry;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn studio(packs: Vec<PathBuf>, dir: &tempfile::TempDir, mode: JobMode) -> StudioApp {
    let paths = StudioPaths::for_tests(packs, Some(dir.path().join("recovery.ron")));
    StudioApp::new(Settings::default(), paths, mode)
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
}

fn click_at(h: &mut Harness<'_, StudioApp>, pos: Pos2) {
    h.hover_at(pos);
    h.step();
    h.drag_at(pos);
    h.step();
    h.drop_at(pos);
    steps(h, 2);
}

/// Sets the match-3 request: Avalon 7×9 vertical, 18 moves, `count` levels, `seed`.
/// Press at `from`, move to `to` in six steps, release there.
fn drag(h: &mut Harness<'_, StudioApp>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for k in 1..=6 {
        h.hover_at(from + (to - from) * (k as f32 / 6.0));
        h.step();
    }
    h.drop_at(to);
}

fn avalon_request(h: &mut Harness<'_, StudioApp>, count: usize, seed: u64) {
    let g = h.state_mut().generators_mut();
    g.choose(level_studio::match3::ID, "avalon");
    let r = g.request_mut(level_studio::match3::ID);
    r.conditions.set("width", ConditionValue::Int(7));
    r.conditions.set("height", ConditionValue::Int(9));
    r.conditions
        .set("symmetry", ConditionValue::Symmetry(Symmetry::Vertical));
    r.conditions.set("moves", ConditionValue::Float(18.0));
    (r.count, r.seed, r.validated_only) = (count, seed, false);
}

/// [`avalon_request`] with "Validated only" on and `set` conditions changed.
fn validated_avalon_request(
    h: &mut Harness<'_, StudioApp>,
    count: usize,
    seed: u64,
    set: &[(&'static str, ConditionValue)],
) {
    avalon_request(h, count, seed);
    let r = h
        .state_mut()
        .generators_mut()
        .request_mut(level_studio::match3::ID);
    r.validated_only = true;
    for (key, value) in set {
        r.conditions.set(key, *value);
    }
}

/// Steps the window until a label containing `text` shows (models load off the UI
/// thread), for at most about six seconds; whether it showed.
fn wait_for_label(h: &mut Harness<'_, StudioApp>, text: &str) -> bool {
    for _ in 0..300 {
        steps(h, 1);
        if h.query_by_label_contains(text).is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn generate_and_wait(h: &mut Harness<'_, StudioApp>) -> Vec<Vec<String>> {
    h.get_by_label("Generate").click();
    h.step();
    let ctx = h.ctx.clone();
    h.state_mut()
        .generators_mut()
        .wait(Duration::from_secs(60), level_studio::match3::ID, &ctx);
    steps(h, 2);
    assert!(!h.state().generators().busy(), "the generation finished");
    h.state()
        .generators()
        .candidates
        .iter()
        .map(|c| c.level.cells.clone())
        .collect()
}

#[test]
fn generate_gives_fresh_levels_by_default() {
    use level_studio::match3::cvae::{metrics::nearest_training_distances, TrainingSet};
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 4, 2);
    let fresh = h
        .state_mut()
        .generators_mut()
        .request_mut(level_studio::match3::ID)
        .conditions
        .usize("fresh");
    assert_eq!(
        fresh,
        Some(3),
        "the sidebar asks for 3 new cells by default"
    );
    steps(&mut h, 1);
    generate_and_wait(&mut h);
    let layouts: Vec<_> = h
        .state()
        .generators()
        .candidates
        .iter()
        .map(|c| c.level.layout().unwrap())
        .collect();
    assert!(!layouts.is_empty(), "{:?}", h.state().generators().error);
    let training = TrainingSet::load(std::path::Path::new("levels/match3/paperlike"))
        .unwrap()
        .layouts();
    for d in nearest_training_distances(&layouts, &training) {
        assert!(
            d.is_some_and(|d| d >= 3),
            "a near copy of a training level: {d:?}"
        );
    }
}

#[test]
fn generating_with_a_fixed_seed_shows_the_same_candidates() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 4, 7);
    steps(&mut h, 1);
    let first = generate_and_wait(&mut h);
    assert!(
        !first.is_empty() && first.len() <= 4,
        "candidates appear: {:?}",
        h.state().generators().error
    );
    // Each card shows its validated figure and its buttons.
    assert!(h.get_all_by_label_contains("moves").count() >= first.len());
    assert_eq!(h.get_all_by_label("+ Pack").count(), first.len());
    let again = generate_and_wait(&mut h);
    assert_eq!(first, again, "same seed, same candidates");
    // The run before is put aside, not lost: Clear, then "Previous" brings the set back.
    h.get_by_label("Clear").click();
    steps(&mut h, 2);
    assert!(h.state().generators().candidates.is_empty());
    h.get_by_label_contains("Previous (").click();
    steps(&mut h, 2);
    let back: Vec<Vec<String>> = h
        .state()
        .generators()
        .candidates
        .iter()
        .map(|c| c.level.cells.clone())
        .collect();
    assert_eq!(back, first);

    // "+ Pack" adds the candidate to the active pack.
    let before = h.state().packs()[h.state().active_pack()].pack.levels.len();
    h.get_all_by_label("+ Pack").next().unwrap().click();
    steps(&mut h, 2);
    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    assert_eq!(pack.levels.len(), before + 1);
    assert_eq!(pack.levels.last().unwrap().cells, first[0]);
}

#[test]
fn cancel_stops_a_running_generation() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    // Validated only, many levels, the fewest moves that can be asked at 7×9 (its easiest
    // layout, a training level, takes 16; fresh ones rarely come that near): a long job.
    validated_avalon_request(&mut h, 64, 3, &[("moves", ConditionValue::Float(15.0))]);
    steps(&mut h, 1);
    h.get_by_label("Generate").click();
    steps(&mut h, 3);
    assert!(
        h.state().generators().busy(),
        "the job runs: {:?} {:?}",
        h.state().generators().note,
        h.state().generators().error
    );
    h.get_by_label("Cancel").click();
    steps(&mut h, 2);
    assert!(!h.state().generators().busy(), "cancelled at once");
    let kept = h.state().generators().candidates.len();
    std::thread::sleep(Duration::from_millis(300));
    steps(&mut h, 3);
    assert_eq!(
        h.state().generators().candidates.len(),
        kept,
        "nothing arrives after Cancel"
    );
    let note = h.state().generators().note.clone().unwrap_or_default();
    assert!(note.contains("Cancelled"), "{note}");
    // The UI is usable again.
    assert!(!h.get_by_label("Generate").accesskit_node().is_disabled());
}

#[test]
fn validated_only_says_before_generating_when_the_moves_cannot_be_promised() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    validated_avalon_request(&mut h, 4, 1, &[("moves", ConditionValue::Float(19.8))]);
    // The model loads off the UI thread; the check shows once it has.
    let says = "no level can be promised at 19.8 moves";
    assert!(wait_for_label(&mut h, says), "the refusal shows");
    assert!(h
        .query_by_label_contains("ask for at most 19.5 moves")
        .is_some());
    // Without "Validated only" the same moves are fine.
    h.state_mut()
        .generators_mut()
        .request_mut(level_studio::match3::ID)
        .validated_only = false;
    steps(&mut h, 2);
    assert!(h.query_by_label_contains(says).is_none());
}

#[test]
fn validated_only_says_when_no_level_of_the_size_can_be_promised() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    let size = [
        ("width", ConditionValue::Int(8)),
        ("height", ConditionValue::Int(6)),
    ];
    validated_avalon_request(&mut h, 4, 1, &size);
    // 8×6's easiest layout takes 20 moves on 120 games: nothing there can be promised.
    let says = "no 8x6 level can be promised at 18 moves";
    assert!(wait_for_label(&mut h, says), "the refusal shows");
    assert!(h.query_by_label_contains("pick a larger board").is_some());
    // A refused request cannot be started.
    assert!(h.get_by_label("Generate").accesskit_node().is_disabled());
}

#[test]
fn a_suggestion_that_validated_only_would_refuse_is_not_offered() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 4, 1);
    let r = h
        .state_mut()
        .generators_mut()
        .request_mut(level_studio::match3::ID);
    r.conditions.set("width", ConditionValue::Int(5));
    r.conditions.set("height", ConditionValue::Int(10));
    r.conditions.set("moves", ConditionValue::Float(12.0));
    // The training set's nearest at 5×10 is 20 moves: offered while any level will do …
    let at_this_size = "Nearest feasible at this size: 5x10 20 moves";
    assert!(wait_for_label(&mut h, at_this_size));
    assert!(h
        .query_by_label_contains("no valid 5x10 training level takes 12 moves (they all take 20)")
        .is_some());
    // … but not when only validated levels will do: 20 moves cannot be promised.
    h.state_mut()
        .generators_mut()
        .request_mut(level_studio::match3::ID)
        .validated_only = true;
    steps(&mut h, 2);
    assert!(h.query_by_label_contains(at_this_size).is_none());
    assert!(h
        .query_by_label_contains("Nearest feasible at another size")
        .is_some());
}

#[test]
fn a_candidate_opens_in_the_editor() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 3, 11);
    let cells = generate_and_wait(&mut h);
    assert!(!cells.is_empty());
    h.get_all_by_label("Open").next().unwrap().click();
    steps(&mut h, 2);
    let app = h.state();
    assert_eq!(app.game(), level_studio::match3::ID);
    assert_eq!(app.editor().board().to_rows(), cells[0]);
}

#[test]
fn a_tiny_longcat_level_is_played_to_success_by_keys_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Inline));
    steps(&mut h, 2);
    let level =
        level_studio::longcat::level_from_ascii("tiny", "@..\n...\n").expect("a Longcat level");
    command(&mut h, AppCommand::LoadLevel(level.clone()));
    assert_eq!(h.state().game(), level_studio::longcat::ID);
    command(&mut h, AppCommand::Pack(PackCommand::AddCurrent));
    h.get_by_label("Playtest").click();
    steps(&mut h, 2);
    assert!(
        h.state()
            .playtest()
            .session::<level_studio::longcat::ui::playtest::LongcatPlay>()
            .is_some(),
        "{:?}",
        h.state().errors()
    );

    // Right (D), down (arrow), undo it (Backspace), down again (S), then left (A).
    for key in [Key::D, Key::ArrowDown] {
        h.key_press(key);
        steps(&mut h, 1);
    }
    assert_eq!(
        h.state()
            .playtest()
            .session::<level_studio::longcat::ui::playtest::LongcatPlay>()
            .unwrap()
            .moves(),
        2
    );
    h.key_press(Key::Backspace);
    steps(&mut h, 1);
    assert_eq!(
        h.state()
            .playtest()
            .session::<level_studio::longcat::ui::playtest::LongcatPlay>()
            .unwrap()
            .moves(),
        1,
        "undone"
    );
    for key in [Key::S, Key::A] {
        h.key_press(key);
        steps(&mut h, 1);
    }
    steps(&mut h, 1);
    let play = h
        .state()
        .playtest()
        .session::<level_studio::longcat::ui::playtest::LongcatPlay>()
        .unwrap();
    assert_eq!(play.outcome(), Some(true), "every cell filled");
    h.get_by_label_contains("SUCCESS");

    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    let played = pack.levels.iter().find(|l| l.cells == level.cells).unwrap();
    let attempts: Vec<(u32, bool)> = played
        .playtests
        .iter()
        .map(|p| (p.moves, p.solved))
        .collect();
    assert_eq!(
        attempts,
        vec![(3, true)],
        "the attempt is kept with the level"
    );
    // The level's details in the sidebar list it.
    steps(&mut h, 2);
    h.get_by_label("Playtests (1 of 1 solved)");
    h.get_by_label("solved");
}

#[test]
fn a_match_in_a_match3_playtest_changes_the_counters() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Inline));
    steps(&mut h, 2);
    command(
        &mut h,
        AppCommand::NewLevel {
            width: 7,
            height: 7,
        },
    );
    h.state_mut().playtest_mut().animate = false;
    h.get_by_label("Playtest").click();
    steps(&mut h, 3);
    h.get_by_label_contains("Moves used: 0");
    let (a, b) = h
        .state()
        .playtest()
        .session::<level_studio::match3::ui::playtest::Match3Play>()
        .expect("a match-3 game")
        .legal_move()
        .expect("a fresh board has a move");
    let (pa, pb) = {
        let p = h.state().playtest();
        (p.cell_center(a.0, a.1), p.cell_center(b.0, b.1))
    };
    click_at(&mut h, pa);
    click_at(&mut h, pb);
    let m = h
        .state()
        .playtest()
        .session::<level_studio::match3::ui::playtest::Match3Play>()
        .unwrap();
    assert_eq!(m.moves, 1, "one swap made");
    assert!(m.cleared >= 3, "a match clears at least three tiles");
    let red = m.red;
    steps(&mut h, 1);
    h.get_by_label_contains("Moves used: 1");
    h.get_by_label_contains(&format!("Red cleared: {red}"));

    // Restart deals a new board and keeps the abandoned attempt for the level.
    h.get_by_label("Restart").click();
    steps(&mut h, 2);
    assert_eq!(
        h.state()
            .playtest()
            .session::<level_studio::match3::ui::playtest::Match3Play>()
            .unwrap()
            .moves,
        0
    );
    command(&mut h, AppCommand::Pack(PackCommand::AddCurrent));
    let app = h.state();
    let level = app.packs()[app.active_pack()].pack.levels.last().unwrap();
    assert_eq!(level.playtests.len(), 1);
    assert_eq!(level.playtests[0].moves, 1);

    // A drag from a tile onto its neighbour swaps them too.
    let (a, b) = h
        .state()
        .playtest()
        .session::<level_studio::match3::ui::playtest::Match3Play>()
        .unwrap()
        .legal_move()
        .unwrap();
    let (pa, pb) = {
        let p = h.state().playtest();
        (p.cell_center(a.0, a.1), p.cell_center(b.0, b.1))
    };
    h.hover_at(pa);
    h.step();
    h.drag_at(pa);
    h.step();
    for k in 1..=4 {
        h.hover_at(pa + (pb - pa) * (k as f32 / 4.0));
        h.step();
    }
    h.drop_at(pb);
    steps(&mut h, 2);
    assert_eq!(
        h.state()
            .playtest()
            .session::<level_studio::match3::ui::playtest::Match3Play>()
            .unwrap()
            .moves,
        1,
        "dragged"
    );
}

#[test]
fn interpolation_shows_the_requested_number_of_levels() {
    let dir = tempfile::tempdir().unwrap();
    let pack = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/match3/main/test.ron");
    let mut h = harness(studio(vec![pack], &dir, JobMode::Threads));
    steps(&mut h, 2);
    h.get_by_label("Interpolation").click();
    steps(&mut h, 2);
    let sources: Vec<(String, Level)> = h.state().interpolation_sources();
    let pack_levels: Vec<_> = sources
        .iter()
        .filter(|(label, _)| label.starts_with("Pack"))
        .cloned()
        .collect();
    assert!(pack_levels.len() >= 2);
    {
        let w = h.state_mut().interpolation_mut();
        w.a = Some(pack_levels[0].clone());
        w.b = Some(pack_levels[1].clone());
        w.steps = 3;
    }
    steps(&mut h, 1);
    h.get_by_label("Interpolate").click();
    h.step();
    let started = Instant::now();
    h.state_mut()
        .interpolation_mut()
        .wait(Duration::from_secs(60));
    steps(&mut h, 3);
    let w = h.state().interpolation();
    assert!(w.error.is_none(), "{:?}", w.error);
    let strip = w.strip.as_ref().expect("a strip");
    assert_eq!(strip.between.len(), 3);
    assert_eq!(w.shown_levels(), 5);
    for t in ["t = 0.25", "t = 0.50", "t = 0.75"] {
        h.get_by_label(t);
    }
    // Both endpoints show the input and the model's reconstruction.
    assert_eq!(h.get_all_by_label("input").count(), 2);
    assert_eq!(h.get_all_by_label("model").count(), 2);
    assert_eq!(strip.a_input.level.cells, pack_levels[0].1.cells);
    eprintln!("interpolation took {:?}", started.elapsed());
}

#[test]
fn more_like_this_generates_near_a_candidate() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 3, 5);
    let cells = generate_and_wait(&mut h);
    assert!(!cells.is_empty());
    h.get_all_by_label("More like this").next().unwrap().click();
    h.step();
    let ctx = h.ctx.clone();
    h.state_mut()
        .generators_mut()
        .wait(Duration::from_secs(60), level_studio::match3::ID, &ctx);
    steps(&mut h, 2);
    let g = h.state().generators();
    assert!(g.error.is_none(), "{:?}", g.error);
    assert_eq!(
        g.candidates[0].level.cells, cells[0],
        "the source stays first"
    );
    assert!(g.candidates.len() > 1, "levels near it arrive");
    assert!(g.candidates[1..]
        .iter()
        .all(|c| c.level.name.contains("near")));
    // Issue 31, D16: the source itself never comes back as a "near" level.
    assert!(g.candidates[1..].iter().all(|c| c.level.cells != cells[0]));
    assert_eq!(g.candidates.len(), 1 + 3, "{:?}", g.note);
    // Issue 47, E12: the run has its own status line, and the source's card says what it is.
    let note = g.note.clone().unwrap_or_default();
    assert!(note.contains("levels near “"), "{note}");
    assert!(note.contains("the source stays first"), "{note}");
    h.get_by_label("the source: the others are near it");
}

#[test]
fn a_model_that_fails_to_load_says_why_and_the_others_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = StudioPaths::for_tests(vec![], Some(dir.path().join("recovery.ron")));
    paths.models_dir = dir.path().join("no-models-here");
    let mut h = harness(StudioApp::new(Settings::default(), paths, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 2, 1);
    let none = generate_and_wait(&mut h);
    assert!(none.is_empty());
    let error = h.state().generators().error.clone().unwrap_or_default();
    assert!(
        error.contains("avalon-paperlike"),
        "names the file: {error}"
    );
    h.get_by_label_contains("Unavailable");

    // The rule-based synthesiser does not need a model.
    h.get_by_label("Rule-based").click();
    steps(&mut h, 1);
    assert_eq!(generate_and_wait(&mut h).len(), 2);

    // Longcat: the DQN is disabled without its weights; solution-down works.
    command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
    {
        let g = h.state_mut().generators_mut();
        g.choose(level_studio::longcat::ID, "longcat-dqn");
        let r = g.request_mut(level_studio::longcat::ID);
        r.conditions.set("width", ConditionValue::Int(8));
        r.conditions.set("height", ConditionValue::Int(8));
        r.count = 2;
    }
    // The DQN's conditions (temperature, DAGP) push the button below the harness's fold.
    command(&mut h, AppCommand::Generate);
    let ctx = h.ctx.clone();
    let wait = |h: &mut Harness<'_, StudioApp>| {
        h.state_mut().generators_mut().wait(
            Duration::from_secs(60),
            level_studio::longcat::ID,
            &ctx,
        );
        steps(h, 2);
    };
    wait(&mut h);
    let error = h.state().generators().error.clone().unwrap_or_default();
    assert!(
        error.contains("disabled"),
        "{error} / {:?}",
        h.state().generators().note
    );
    h.get_by_label("Solution-down").click();
    steps(&mut h, 1);
    h.get_by_label("Generate").click();
    h.step();
    wait(&mut h);
    let g = h.state().generators();
    let longcat: Vec<_> = g
        .candidates
        .iter()
        .filter(|c| c.level.game == level_studio::longcat::ID)
        .collect();
    assert_eq!(longcat.len(), 2, "{:?}", g.error);
    assert!(
        longcat.iter().all(|c| c.difficulty.is_some()),
        "solution-down is always solvable"
    );
    assert_eq!(
        g.candidates.len(),
        4,
        "the match-3 candidates wait for the switch back"
    );
}

#[test]
fn a_candidate_dragged_onto_the_pack_strip_joins_the_pack() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    let g = h.state_mut().generators_mut();
    g.choose(level_studio::match3::ID, "synth");
    let r = g.request_mut(level_studio::match3::ID);
    (r.count, r.seed) = (2, 4);
    steps(&mut h, 1);
    let cells = generate_and_wait(&mut h);
    let g = h.state().generators();
    assert_eq!(cells.len(), 2, "{:?} {:?}", g.error, g.note);
    let (index, rect) = h.state().generators().card_rects[1];
    let before = h.state().packs()[h.state().active_pack()].pack.levels.len();
    // Press on the card, move down onto the strip in steps, release there.
    let from = rect.center();
    let to = Pos2::new(from.x + 300.0, 800.0);
    drag(&mut h, from, to);
    steps(&mut h, 2);
    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    assert_eq!(pack.levels.len(), before + 1, "{}", app.status());
    assert_eq!(pack.levels.last().unwrap().cells, cells[index]);

    // The other candidate dropped onto the left half of the first card goes in first.
    let (index, rect) = h.state().generators().card_rects[0];
    let card = h.state().pack_strip().card_rects[0].1;
    let from = rect.center();
    let to = Pos2::new(card.left() + 12.0, card.center().y);
    drag(&mut h, from, to);
    steps(&mut h, 2);
    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    assert_eq!(pack.levels.len(), before + 2, "{}", app.status());
    assert_eq!(pack.levels[0].cells, cells[index], "{}", app.status());
}

/// The window's generator panel and `level-studio generate` run the same service: the same
/// generator, conditions and seed give the same levels (cells, names, tags and figures).
#[test]
fn the_window_and_the_command_line_make_the_same_levels() {
    use level_studio::app::generation::generate_panel::GeneratorPanel;
    let dir = tempfile::tempdir().unwrap();
    // The game and generator, the window's conditions, and the same request as CLI flags.
    type Case = (
        level_studio::game::GameId,
        &'static str,
        Vec<(&'static str, ConditionValue)>,
        &'static [&'static str],
    );
    let cases: [Case; 3] = [
        (
            level_studio::longcat::ID,
            "solution-down",
            vec![
                ("width", ConditionValue::Int(6)),
                ("height", ConditionValue::Int(5)),
            ],
            &[
                "--game",
                "longcat",
                "--model",
                "solution-down",
                "--size",
                "6x5",
            ],
        ),
        (
            level_studio::match3::ID,
            "avalon",
            vec![
                ("width", ConditionValue::Int(7)),
                ("height", ConditionValue::Int(9)),
                ("symmetry", ConditionValue::Symmetry(Symmetry::Vertical)),
                ("moves", ConditionValue::Float(18.0)),
            ],
            &[
                "--game",
                "match3",
                "--model",
                "avalon",
                "--size",
                "7x9",
                "--symmetry",
                "vertical",
                "--moves",
                "18",
            ],
        ),
        (
            level_studio::match3::ID,
            "avalon",
            vec![
                ("width", ConditionValue::Int(6)),
                ("height", ConditionValue::Int(8)),
                ("symmetry", ConditionValue::Symmetry(Symmetry::Horizontal)),
                ("moves", ConditionValue::Float(16.0)),
                ("fresh", ConditionValue::Int(3)),
            ],
            &[
                "--game",
                "match3",
                "--model",
                "avalon",
                "--size",
                "6x8",
                "--symmetry",
                "horizontal",
                "--moves",
                "16",
                "--fresh",
                "3",
            ],
        ),
    ];
    for (game, generator, conditions, flags) in cases {
        let mut panel = GeneratorPanel::new(std::path::Path::new("models"), JobMode::Inline);
        let ctx = egui::Context::default();
        panel.choose(game, generator);
        let r = panel.request_mut(game);
        for (key, value) in conditions {
            r.conditions.set(key, value);
        }
        (r.count, r.seed) = (5, 4);
        panel.generate(game, &ctx);
        panel.wait(Duration::from_secs(60), game, &ctx);
        let window: Vec<Level> = panel.candidates.iter().map(|c| c.level.clone()).collect();
        assert_eq!(window.len(), 5, "{:?}", panel.error);

        let out = dir.path().join(format!("{generator}.ron"));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_level-studio"))
            .arg("generate")
            .args(flags)
            .args([
                "--count",
                "5",
                "--seed",
                "4",
                "--out",
                out.to_str().unwrap(),
            ])
            .status()
            .unwrap();
        assert!(status.success());
        let cli = level_studio::files::load_pack(&out).unwrap().levels;
        assert_eq!(cli, window, "{generator}: the window and the CLI differ");
    }
}

/// A restart brings back the canvas level, the generator settings and the candidates.
#[test]
fn the_session_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (cells, board) = {
        let mut h = harness(studio(vec![], &dir, JobMode::Threads));
        steps(&mut h, 2);
        avalon_request(&mut h, 3, 11);
        steps(&mut h, 1);
        let cells = generate_and_wait(&mut h);
        assert!(!cells.is_empty());
        command(
            &mut h,
            AppCommand::NewLevel {
                width: 6,
                height: 7,
            },
        );
        let board = h.state().editor().board().clone();
        h.state_mut().save_session();
        (cells, board)
    };
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    assert_eq!(h.state().editor().board(), &board);
    assert_eq!(h.state().editor().name, "new 6x7");
    let r = h
        .state_mut()
        .generators_mut()
        .request(level_studio::match3::ID)
        .clone();
    assert_eq!((r.generator, r.count, r.seed), ("avalon", 3, 11));
    assert_eq!(r.conditions.float("moves"), Some(18.0));
    let back: Vec<Vec<String>> = h
        .state()
        .generators()
        .candidates
        .iter()
        .map(|c| c.level.cells.clone())
        .collect();
    assert_eq!(back, cells);
    // A damaged session file starts a fresh session and nothing else goes wrong.
    std::fs::write(dir.path().join("session.ron"), "(canvases: [oops").unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    assert!(h.state().generators().candidates.is_empty());
    assert!(h.state().errors().is_empty());
}

#[test]
fn a_dungeon_room_is_played_tick_by_tick_with_sword_wait_and_undo() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Inline));
    steps(&mut h, 2);
    let game = level_studio::dungeon::DungeonGame;
    let level = level_studio::game::Game::level_from_ascii(
        &game,
        "corridor",
        "wwwwwwwww\nwA..+..gw\nwwwwwwwww\n",
    )
    .unwrap();
    command(&mut h, AppCommand::LoadLevel(level.clone()));
    assert_eq!(h.state().game(), level_studio::dungeon::ID);
    command(&mut h, AppCommand::Pack(PackCommand::AddCurrent));
    h.get_by_label("Playtest").click();
    steps(&mut h, 2);
    // Space draws the sword on the floor to the right, where the avatar faces at the start (a
    // tick), "." waits (a tick), Backspace takes it back.
    for key in [Key::Space, Key::Period] {
        h.key_press(key);
        steps(&mut h, 1);
    }
    h.get_by_label("Tick: 2 / 2000");
    h.key_press(Key::Backspace);
    steps(&mut h, 1);
    h.get_by_label("Tick: 1 / 2000");
    for _ in 0..3 {
        h.key_press(Key::D);
        steps(&mut h, 1);
    }
    h.get_by_label("Key: yes");
    for _ in 0..3 {
        h.key_press(Key::ArrowRight);
        steps(&mut h, 1);
    }
    steps(&mut h, 1);
    h.get_by_label_contains("Out with the key in 7 ticks!");
    let app = h.state();
    let pack = &app.packs()[app.active_pack()].pack;
    let played = pack.levels.iter().find(|l| l.cells == level.cells).unwrap();
    let attempts: Vec<(u32, bool)> = played
        .playtests
        .iter()
        .map(|p| (p.moves, p.solved))
        .collect();
    assert_eq!(
        attempts,
        vec![(7, true)],
        "the attempt is kept with the level"
    );
}

#[test]
fn agent_profile_plays_a_pack_against_the_editor_level_and_draws_both_sets() {
    let dir = tempfile::tempdir().unwrap();
    let pack = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/dungeon/starter.ron");
    let mut h = harness(studio(vec![pack], &dir, JobMode::Threads));
    steps(&mut h, 2);
    command(&mut h, AppCommand::SwitchGame(level_studio::dungeon::ID));
    h.get_by_label("Agent profile").click();
    steps(&mut h, 2);
    let sources = h.state().profile_sources();
    let pack_set = sources
        .iter()
        .find(|(l, _)| l.starts_with("Pack"))
        .expect("the starter pack is a set")
        .0
        .clone();
    {
        let w = h.state_mut().profile_mut();
        w.first = Some(pack_set.clone());
        w.second = Some("Editor level".into());
        w.games = 2;
    }
    steps(&mut h, 1);
    h.get_by_label("Profile").click();
    h.step();
    h.state_mut().profile_mut().wait(Duration::from_secs(120));
    steps(&mut h, 3);
    let w = h.state().profile();
    assert!(w.error.is_none(), "{:?}", w.error);
    let p = w.result.as_ref().expect("profiles");
    assert_eq!(p.sets.len(), 2);
    assert_eq!(p.sets[0].0, pack_set);
    // By default the GVGAI-like agents play, as the paper's profiles.
    assert_eq!(w.agents, "gvgai");
    for (_, _, profiles) in &p.sets {
        let names: Vec<&str> = profiles.iter().map(|a| a.agent.as_str()).collect();
        assert_eq!(
            names,
            ["do-nothing", "random", "gvgai-one-step", "gvgai-mcts"],
            "the GVGAI-like profile agents"
        );
        for a in profiles {
            assert!((0.0..=1.0).contains(&a.win_rate));
            assert!((0.0..=1.0).contains(&a.normalised_score));
        }
    }
    // The table heads a column per set; the two charts are drawn.
    let n = p.sets[0].1;
    h.get_by_label(&format!("{pack_set} ({n}): win"));
    h.get_by_label("Editor level (1): win");
    h.get_by_label("win rate");
    h.get_by_label("normalised score");
    // The studio's ladder is one choice away.
    h.state_mut().profile_mut().agents = "studio".into();
    steps(&mut h, 1);
    h.get_by_label("Profile").click();
    h.step();
    h.state_mut().profile_mut().wait(Duration::from_secs(120));
    steps(&mut h, 3);
    let p = h.state().profile().result.as_ref().expect("profiles");
    assert_eq!(p.sets[0].2.len(), 6, "every agent of the studio's ladder");
    h.get_by_label("Agents");
}

/// The dungeon on the canvas and a long GA (`generator`, 500 generations of 100, 4 rooms,
/// seed 2) as its request; the dungeon's id.
fn long_evolution(h: &mut Harness<'_, StudioApp>, generator: &str) -> level_studio::game::GameId {
    let game = level_studio::dungeon::ID;
    command(h, AppCommand::SwitchGame(game));
    let g = h.state_mut().generators_mut();
    g.choose(game, generator);
    let r = g.request_mut(game);
    r.conditions.set("generations", ConditionValue::Int(500));
    r.conditions.set("population", ConditionValue::Int(100));
    (r.count, r.seed) = (4, 2);
    steps(h, 1);
    game
}

#[test]
fn stop_ends_an_evolution_early_and_keeps_its_best_rooms() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    let game = long_evolution(&mut h, "fi2pop-alpha");
    h.get_by_label("Generate").click();
    steps(&mut h, 3);
    // Wait until the search has judged a few generations, then press Stop.
    let started = Instant::now();
    let judged = |h: &Harness<'_, StudioApp>| {
        h.state()
            .generators()
            .charts()
            .get(1)
            .map_or(0, |c| c.series[0].1.len())
    };
    while judged(&h) < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no generations"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.get_by_label("Stop (keep best)").click();
    h.step();
    let ctx = h.ctx.clone();
    h.state_mut()
        .generators_mut()
        .wait(Duration::from_secs(60), game, &ctx);
    steps(&mut h, 2);
    let g = h.state().generators();
    assert!(!g.busy());
    // Since issue 66 the dungeon's GA starts from rooms its own FPattern ranks best, so a few
    // generations in it may hold fewer than 4 distinct feasible rooms: it keeps what it has
    // and says how many.
    let kept = g.candidates.len();
    assert!((1..=4).contains(&kept), "{:?}", g.note);
    assert!(
        g.note
            .as_deref()
            .unwrap_or("")
            .contains(&format!("kept {kept} of 4")),
        "{:?}",
        g.note
    );
    assert!(
        g.note.as_deref().unwrap_or("").contains("stopped early"),
        "{:?}",
        g.note
    );
    let generations = g.charts()[1].series[0].1.len();
    assert!(generations < 500, "stopped after {generations} generations");
    // Issue 31, D23: a search's stop counts generations, not attempts.
    let note = g.note.clone().unwrap_or_default();
    assert!(note.contains("of 500 generations"), "{note}");
    assert!(!note.contains("attempts"), "{note}");
}

/// Issue 31, D3: a double-click on "Stop (keep best)" stops and keeps; the second click
/// lands on the same button (now "Stopping…", disabled), never on Cancel.
#[test]
fn a_double_click_on_stop_keeps_the_best_rooms() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    let game = long_evolution(&mut h, "fi2pop-beta");
    // The Stop button holds its place before the run, so Generate never moves either.
    let stop = h.get_by_label("Stop (keep best)").rect();
    h.get_by_label("Generate").click();
    steps(&mut h, 3);
    let started = Instant::now();
    while h.state().generators().charts().len() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no generations"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    assert_eq!(h.get_by_label("Stop (keep best)").rect(), stop);
    // Two clicks at the same place, one frame apart.
    click_at(&mut h, stop.center());
    click_at(&mut h, stop.center());
    let ctx = h.ctx.clone();
    h.state_mut()
        .generators_mut()
        .wait(Duration::from_secs(60), game, &ctx);
    steps(&mut h, 2);
    let g = h.state().generators();
    // As above: it keeps the distinct feasible rooms it has, up to the 4 asked.
    assert!((1..=4).contains(&g.candidates.len()), "{:?}", g.note);
    assert!(
        g.note.as_deref().unwrap_or("").contains("stopped early"),
        "{:?}",
        g.note
    );
}

#[test]
fn course_sliders_edit_the_stored_digits_as_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Inline));
    steps(&mut h, 2);
    command(&mut h, AppCommand::SwitchGame(level_studio::course::ID));
    steps(&mut h, 2);
    let before = h.state().editor().board().to_rows();
    let undo = h.state().editor().history().undo_len();
    let hp = h.get_by_role_and_label(egui::accesskit::Role::Slider, "HP");
    hp.focus();
    steps(&mut h, 1);
    h.key_press(Key::ArrowRight);
    steps(&mut h, 2);
    let after = h.state().editor().board().to_rows();
    assert_ne!(before, after);
    // Battle 1's HP is the first two digits of the first row: one hundredth more.
    let value = |rows: &[String]| rows[0][..2].parse::<u32>().unwrap();
    assert_eq!(value(&after), value(&before) + 1, "{before:?} → {after:?}");
    assert_eq!(after[1..], before[1..], "nothing else changed");
    let history = h.state().editor().history();
    assert_eq!(history.undo_len(), undo + 1);
    assert_eq!(history.undo_label(), Some("Battle 1 HP"));
    command(
        &mut h,
        AppCommand::Edit(level_studio::app::EditCommand::Undo),
    );
    steps(&mut h, 1);
    assert_eq!(h.state().editor().board().to_rows(), before);
}

/// Issue 31, D10: a click on an event slider and then the arrow keys move it, as its
/// tooltip says (a click did not give it the keyboard).
#[test]
fn a_clicked_course_slider_takes_the_arrow_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Inline));
    steps(&mut h, 2);
    command(&mut h, AppCommand::SwitchGame(level_studio::course::ID));
    steps(&mut h, 2);
    let atk = h
        .get_all_by_role_and_label(egui::accesskit::Role::Slider, "ATK")
        .next()
        .unwrap()
        .rect();
    click_at(&mut h, atk.center());
    let clicked = h.state().editor().board().to_rows();
    for _ in 0..3 {
        h.key_press(Key::ArrowRight);
        steps(&mut h, 2);
    }
    let after = h.state().editor().board().to_rows();
    // Battle 1's ATK is the first two digits of the second row: three hundredths more.
    let atk_of = |rows: &[String]| rows[1][..2].parse::<u32>().unwrap();
    assert_eq!(
        atk_of(&after),
        atk_of(&clicked) + 3,
        "{clicked:?} → {after:?}"
    );
    // Issue 47 (D10 again): a click whose press and release reach the window in one frame
    // (a quick click, a touchpad tap, xdotool's click) gives the slider the keyboard too.
    let hp = h
        .get_all_by_role_and_label(egui::accesskit::Role::Slider, "HP")
        .next()
        .unwrap()
        .rect();
    // The pointer arrives, presses and lets go, all in one frame.
    h.event(egui::Event::PointerMoved(hp.center()));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: hp.center(),
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    steps(&mut h, 2);
    let tapped = h.state().editor().board().to_rows();
    for _ in 0..2 {
        h.key_press(Key::ArrowLeft);
        steps(&mut h, 2);
    }
    let after = h.state().editor().board().to_rows();
    // Battle 1's HP is the first two digits of the first row: two hundredths less.
    let hp_of = |rows: &[String]| rows[0][..2].parse::<u32>().unwrap();
    assert_eq!(hp_of(&after) + 2, hp_of(&tapped), "{tapped:?} → {after:?}");
}

/// A Lode Runner-like segment: bricks along the bottom, a ladder, gold.
fn lr_segment(gold_col: usize) -> Vec<String> {
    (0..16)
        .map(|y| {
            (0..16)
                .map(|x| match (x, y) {
                    (_, 15) => 'b',
                    (3, 8..=14) => '#',
                    (_, 8) => 'b',
                    (x, 14) if x == gold_col => 'G',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}

/// A Zelda-like room: walls round a floor with a lava pool.
fn zelda_segment() -> Vec<String> {
    (0..16)
        .map(|y| {
            (0..16)
                .map(|x| match (x, y) {
                    (_, 0..=2) | (_, 14..=15) => '-',
                    (0 | 15, _) | (_, 3) | (_, 13) => 'W',
                    (6..=8, 7..=9) => 'P',
                    _ => 'F',
                })
                .collect()
        })
        .collect()
}

#[test]
fn blend_lab_walks_from_a_to_b_and_sends_random_blends_to_the_candidates() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    command(&mut h, AppCommand::SwitchGame(level_studio::blend::ID));
    h.get_by_label("Blend lab").click();
    steps(&mut h, 2);
    assert!(h.state().tool::<BlendLab>().unwrap().open);
    // The lab loads the VGLC segments first (an error without them: the walk needs none).
    h.state_mut()
        .tool_mut::<BlendLab>()
        .unwrap()
        .wait(Duration::from_secs(60));
    let has_data = h.state().tool::<BlendLab>().unwrap().data.is_some();
    let a = Level::bare(level_studio::blend::ID, "runner", lr_segment(9));
    let b = Level::bare(level_studio::blend::ID, "room", zelda_segment());
    {
        let lab = h.state_mut().tool_mut::<BlendLab>().unwrap();
        lab.a = Some(("runner".into(), a.clone()));
        lab.b = Some(("room".into(), b.clone()));
        lab.steps = 3;
        lab.error = None;
    }
    steps(&mut h, 2);
    h.get_by_label("Blend A to B").click();
    h.step();
    h.state_mut()
        .tool_mut::<BlendLab>()
        .unwrap()
        .wait(Duration::from_secs(60));
    steps(&mut h, 3);
    let lab = h.state().tool::<BlendLab>().unwrap();
    assert!(lab.error.is_none(), "{:?}", lab.error);
    // A, the model's A, three in-betweens, the model's B, B.
    assert_eq!(lab.strip.len(), 7);
    assert_eq!(lab.strip[0].level.cells, a.cells);
    assert_eq!(lab.strip[6].level.cells, b.cells);
    for caption in ["A (model)", "t = 0.25", "t = 0.50", "t = 0.75", "B (model)"] {
        h.get_by_label(caption);
    }
    assert!(lab.strip[0].figures.lode_runner_like);
    assert!(!lab.strip[6].figures.lode_runner_like);
    // A click on an in-between opens it in the editor.
    let middle = lab.strip[3].level.cells.clone();
    let card = h.get_by_label("t = 0.50").rect().center() + egui::vec2(0.0, 40.0);
    click_at(&mut h, card);
    steps(&mut h, 2);
    assert_eq!(h.state().editor().board().to_rows(), middle);
    if !has_data {
        eprintln!("skipping the random blends: no VGLC folder at ../shared/data/vglc");
        return;
    }
    h.state_mut().tool_mut::<BlendLab>().unwrap().count = 40;
    steps(&mut h, 1);
    h.get_by_label("Draw").click();
    h.step();
    h.state_mut()
        .tool_mut::<BlendLab>()
        .unwrap()
        .wait(Duration::from_secs(60));
    steps(&mut h, 3);
    let random = h
        .state()
        .tool::<BlendLab>()
        .unwrap()
        .random
        .clone()
        .expect("random blends");
    assert_eq!(random.blends.len(), 40);
    assert!(random.e_distance.is_finite() && random.e_distance >= 0.0);
    h.get_by_label("To candidates").click();
    steps(&mut h, 3);
    let candidates = &h.state().generators().candidates;
    assert_eq!(candidates.len(), 40);
    assert_eq!(candidates[0].level.cells, random.blends[0].level.cells);
}

/// Issue 31, D25: the interpolation lists number a game's candidates among that game's own
/// candidates, not among every game's.
#[test]
fn interpolation_sources_number_candidates_within_their_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Inline));
    steps(&mut h, 2);
    let candidate = |level: Level| level_studio::generation::Candidate {
        level,
        difficulty: None,
        verdict: level_studio::game::Verdict {
            pass: true,
            weak: false,
            label: "VALID".into(),
            reason: String::new(),
        },
        generator: "test",
    };
    let open = level_studio::match3::Layout::open(5, 5).unwrap();
    let longcat = level_studio::longcat::ID.game().unwrap().blank(5, 5);
    {
        let g = h.state_mut().generators_mut();
        for i in 0..3 {
            g.candidates
                .push(candidate(Level::from_layout(format!("m{i}"), &open)));
        }
        g.candidates.push(candidate(longcat));
    }
    let names: Vec<String> = h
        .state()
        .level_sources(level_studio::longcat::ID)
        .into_iter()
        .map(|s| s.0)
        .filter(|n| n.starts_with("Candidate"))
        .collect();
    assert_eq!(names.len(), 1);
    assert!(names[0].starts_with("Candidate 1:"), "{names:?}");
}

/// Issue 31, D4: a run that finds nothing keeps the earlier set, and the "Previous" sets and
/// the Blend lab's candidates survive a restart (the session).
#[test]
fn previous_sets_and_lab_candidates_survive_a_restart_and_an_empty_run_keeps_the_set() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 3, 5);
    let first = generate_and_wait(&mut h);
    avalon_request(&mut h, 3, 6);
    let second = generate_and_wait(&mut h);
    assert_ne!(first, second);
    // A Longcat run that finds nothing (3x3 boards have no valid level) after a real set.
    let cat = level_studio::longcat::ID;
    command(&mut h, AppCommand::SwitchGame(cat));
    {
        let g = h.state_mut().generators_mut();
        g.choose(cat, "solution-down");
        let r = g.request_mut(cat);
        (r.count, r.seed, r.validated_only) = (4, 1, false);
    }
    h.get_by_label("Generate").click();
    h.step();
    let ctx = h.ctx.clone();
    h.state_mut()
        .generators_mut()
        .wait(Duration::from_secs(60), cat, &ctx);
    let cats = h
        .state()
        .generators()
        .candidates
        .iter()
        .filter(|c| c.level.game == cat)
        .count();
    assert!(cats > 0);
    {
        let g = h.state_mut().generators_mut();
        let r = g.request_mut(cat);
        r.conditions.set("width", ConditionValue::Int(3));
        r.conditions.set("height", ConditionValue::Int(3));
        r.validated_only = true;
    }
    h.get_by_label("Generate").click();
    h.step();
    h.state_mut()
        .generators_mut()
        .wait(Duration::from_secs(60), cat, &ctx);
    steps(&mut h, 2);
    let g = h.state().generators();
    assert_eq!(
        g.candidates.iter().filter(|c| c.level.game == cat).count(),
        cats,
        "{:?}",
        g.note
    );
    assert!(
        g.note.as_deref().unwrap_or("").contains("kept"),
        "{:?}",
        g.note
    );
    // Blend lab candidates join, then everything goes through a restart.
    let blend = level_studio::blend::ID;
    let lab = level_studio::generation::Candidate {
        level: Level::bare(blend, "lab blend", lr_segment(5)),
        difficulty: None,
        verdict: level_studio::game::Verdict {
            pass: true,
            weak: false,
            label: "PLAYABLE".into(),
            reason: "LR-like".into(),
        },
        generator: level_studio::blend::ui::blend_lab::LAB_GENERATOR,
    };
    h.state_mut()
        .generators_mut()
        .offer(blend, "Blend lab", vec![lab]);
    let session = h.state().session();
    let mut again = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut again, 2);
    again.state_mut().restore(session);
    let g = again.state().generators();
    let previous: Vec<Vec<String>> = g.previous[&level_studio::match3::ID]
        .iter()
        .map(|c| c.level.cells.clone())
        .collect();
    assert_eq!(previous, first, "the Previous set is back");
    assert!(g.candidates.iter().any(|c| c.level.name == "lab blend"));
}

/// Issue 31, D12: one game's job status and charts never show in another game's panel.
#[test]
fn a_games_run_status_does_not_show_in_another_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 2, 3);
    generate_and_wait(&mut h);
    steps(&mut h, 2);
    assert!(h.query_by_label_contains("Done:").is_some());
    command(&mut h, AppCommand::SwitchGame(level_studio::longcat::ID));
    steps(&mut h, 2);
    assert!(
        h.query_by_label_contains("Done:").is_none(),
        "the match-3 status leaked"
    );
    command(&mut h, AppCommand::SwitchGame(level_studio::match3::ID));
    steps(&mut h, 2);
    assert!(
        h.query_by_label_contains("Done:").is_some(),
        "and it is still match-3's"
    );
}

/// Issue 31, D6: the interpolation window lists the levels of the walked model's game after a
/// game switch and a model change, and lets go of levels of another game.
#[test]
fn interpolation_lists_follow_the_model_and_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    h.get_by_label("Interpolation").click();
    steps(&mut h, 2);
    let first = h.state().shown_interpolation_sources().to_vec();
    assert!(first
        .iter()
        .all(|(_, l)| l.game == level_studio::match3::ID));
    let a = first[0].clone();
    h.state_mut().interpolation_mut().a = Some(a);
    command(&mut h, AppCommand::SwitchGame(level_studio::blend::ID));
    h.state_mut().interpolation_mut().model = (level_studio::blend::ID, "vglc-fc");
    steps(&mut h, 3);
    let shown = h.state().shown_interpolation_sources();
    assert!(!shown.is_empty());
    assert!(shown.iter().all(|(_, l)| l.game == level_studio::blend::ID));
    let a = h.state().interpolation().a.clone().unwrap();
    assert_eq!(
        a.1.game,
        level_studio::blend::ID,
        "the match-3 level is let go"
    );
}

/// Issue 31, D19: each generator keeps its own conditions; a value carries over only to a
/// generator whose condition is the same (the DQN's DAGP distance is in other units).
#[test]
fn each_generator_keeps_its_own_conditions() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Inline));
    steps(&mut h, 2);
    let course = level_studio::course::ID;
    let d = |h: &mut Harness<'_, StudioApp>| {
        h.state_mut()
            .generators_mut()
            .request(course)
            .conditions
            .float("diverse_d")
    };
    let g = h.state_mut().generators_mut();
    g.choose(course, "vs-ddpg");
    g.set_condition(course, "diverse_d", ConditionValue::Float(0.6));
    g.set_condition(course, "ri", ConditionValue::Int(3));
    g.choose(course, "ddpg");
    assert_eq!(d(&mut h), Some(0.6), "the same condition carries over");
    h.state_mut().generators_mut().choose(course, "dqn");
    assert_eq!(
        d(&mut h),
        Some(0.1),
        "the DQN's own distance, not the actors'"
    );
    let ri = h
        .state_mut()
        .generators_mut()
        .request(course)
        .conditions
        .int("ri");
    assert_eq!(ri, Some(3), "Randomize first means the same in both");
    h.state_mut().generators_mut().choose(course, "vs-ddpg");
    assert_eq!(d(&mut h), Some(0.6), "its own value comes back");
}

/// Issue 31, D24: a warning about the conditions appears below Generate, so the button never
/// moves under the pointer.
#[test]
fn a_condition_warning_never_moves_generate() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 2);
    avalon_request(&mut h, 8, 1);
    steps(&mut h, 3);
    let before = h.get_by_label("Generate").rect();
    // 4x4 has no valid training level: the panel warns and suggests another size.
    {
        let r = h
            .state_mut()
            .generators_mut()
            .request_mut(level_studio::match3::ID);
        r.conditions.set("width", ConditionValue::Int(4));
        r.conditions.set("height", ConditionValue::Int(4));
    }
    assert!(wait_for_label(&mut h, "Warning:"));
    assert_eq!(h.get_by_label("Generate").rect(), before);
}

/// Issue 31, D30: the canvas keeps its place when the generator panel's content changes
/// (another generator and its conditions, the GA's Stop button): the panel never widens to fit.
#[test]
fn the_canvas_keeps_its_place_whatever_the_generator_panel_shows() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Threads));
    steps(&mut h, 3);
    for (game, generators) in [
        (
            level_studio::dungeon::ID,
            ["random", "fi2pop-alpha", "constructive", "fi2pop-beta"],
        ),
        (
            level_studio::longcat::ID,
            ["solution-down", "longcat-dqn", "fi2pop-alpha", "puzzle-up"],
        ),
    ] {
        command(&mut h, AppCommand::SwitchGame(game));
        h.state_mut().generators_mut().choose(game, generators[0]);
        steps(&mut h, 3);
        // The board's fitted place moves when the live analysis answers (the panels beside the
        // canvas change size with the gauge; on a loaded machine that can come after these
        // steps): measure once it has, so only the generator panel can move it.
        crate::wait_for_gauge(&mut h);
        steps(&mut h, 2);
        let before = h.state().canvas().cell_center(0, 0);
        for generator in &generators[1..] {
            h.state_mut().generators_mut().choose(game, generator);
            steps(&mut h, 3);
            assert_eq!(
                h.state().canvas().cell_center(0, 0),
                before,
                "{game}: {generator}; errors shown: {:?}",
                h.state()
                    .errors()
                    .iter()
                    .map(|e| format!("{e:?}"))
                    .collect::<Vec<_>>()
            );
        }
    }
}

/// Issue 47, E14: Interpolation opens on the tab's game and its model, with A and B two
/// different levels (the editor level is often also a pack level).
#[test]
fn interpolation_opens_on_the_tabs_game_with_two_different_levels() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(studio(vec![], &dir, JobMode::Inline));
    steps(&mut h, 2);
    // The canvas edits pack level 1, so "Editor" and "Pack 1" are the same level.
    for (w, ht) in [(7, 7), (6, 6)] {
        command(
            &mut h,
            AppCommand::NewLevel {
                width: w,
                height: ht,
            },
        );
        command(&mut h, AppCommand::Pack(PackCommand::AddCurrent));
    }
    command(&mut h, AppCommand::Pack(PackCommand::Edit(0)));
    command(&mut h, AppCommand::ToggleInterpolation);
    steps(&mut h, 3);
    let w = h.state().interpolation();
    let (a, b) = (w.a.clone().unwrap(), w.b.clone().unwrap());
    assert_ne!(a.1.cells, b.1.cells, "A {} and B {} differ", a.0, b.0);
    // On the Blend tab it opens on a blend model and blend levels.
    command(&mut h, AppCommand::ToggleInterpolation);
    command(&mut h, AppCommand::SwitchGame(level_studio::blend::ID));
    command(&mut h, AppCommand::ToggleInterpolation);
    steps(&mut h, 3);
    let w = h.state().interpolation();
    assert_eq!(w.model.0, level_studio::blend::ID);
    assert!(w
        .a
        .iter()
        .chain(&w.b)
        .all(|(_, l)| l.game == level_studio::blend::ID));
}
