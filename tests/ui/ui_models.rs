//! egui_kittest tests of the Level models window (issue 64): the Select tool drags a
//! rectangle on a match-3 layout, "Regenerate selection" (G) sends candidates that differ from the level inside
//! the rectangle only, and "Train" on the active pack makes a level VAE that joins the game's
//! generators at once.

use egui::Key;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use level_studio::app::{AppCommand, JobMode, Settings, StudioApp, StudioPaths};
use std::path::PathBuf;
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

#[test]
fn a_dragged_selection_is_regenerated_and_only_its_cells_change() {
    let dir = tempfile::tempdir().unwrap();
    let pack = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/match3/match3-starter.ron");
    let mut h = harness(studio(vec![pack], &dir));
    steps(&mut h, 3);
    // The layout settles once the level's analysis is in (the gauge's height moves the board).
    let ctx = h.ctx.clone();
    h.state_mut().finish_analysis(&ctx);
    steps(&mut h, 3);
    // The Select tool (M), then a drag from cell (2, 2) to cell (3, 3).
    h.key_press(Key::M);
    steps(&mut h, 2);
    let (from, to) = {
        let canvas = h.state().canvas();
        (canvas.cell_center(2, 2), canvas.cell_center(3, 3))
    };
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for k in 1..=6 {
        h.hover_at(from + (to - from) * (k as f32 / 6.0));
        steps(&mut h, 2);
    }
    h.drop_at(to);
    steps(&mut h, 2);
    assert_eq!(h.state().selection(), Some([2, 2, 2, 2]));
    let before = h.state().editor().board().to_rows();
    h.key_press(Key::G);
    steps(&mut h, 2);
    let mut offered = Vec::new();
    h.state_mut()
        .models_window_mut()
        .wait(Duration::from_secs(60), &mut offered);
    assert!(
        h.state().models_window().error.is_none(),
        "{:?}",
        h.state().models_window().error
    );
    // The frames after G may have taken the answer already (a fast search): it is then in
    // the candidates without passing through `wait`.
    for command in offered {
        h.state_mut().push(command);
    }
    steps(&mut h, 3);
    let candidates = &h.state().generators().candidates;
    assert!(!candidates.is_empty(), "no candidate came back");
    for c in candidates {
        assert!(c.verdict.pass, "{}", c.verdict.reason);
        for (y, (a, b)) in c.level.cells.iter().zip(&before).enumerate() {
            for (x, (p, q)) in a.chars().zip(b.chars()).enumerate() {
                let inside = (2..4).contains(&x) && (2..4).contains(&y);
                assert!(
                    inside || p == q,
                    "cell {x},{y} outside the selection changed"
                );
            }
        }
    }
}

#[test]
fn training_on_the_pack_adds_a_level_vae_to_the_generators() {
    let dir = tempfile::tempdir().unwrap();
    // A copy: the model is saved beside the pack.
    let pack = dir.path().join("rooms.ron");
    std::fs::copy(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/dungeon/starter.ron"),
        &pack,
    )
    .unwrap();
    let mut h = harness(studio(vec![pack], &dir));
    steps(&mut h, 2);
    h.state_mut()
        .push(AppCommand::SwitchGame(level_studio::dungeon::ID));
    steps(&mut h, 2);
    h.get_by_label("Level models").click();
    steps(&mut h, 2);
    h.state_mut().models_window_mut().epochs = 3;
    steps(&mut h, 1);
    h.get_by_label("Train").click();
    steps(&mut h, 2);
    let mut offered = Vec::new();
    h.state_mut()
        .models_window_mut()
        .wait(Duration::from_secs(120), &mut offered);
    steps(&mut h, 2);
    let w = h.state().models_window();
    assert!(w.error.is_none(), "{:?}", w.error);
    assert!(!w.curve().is_empty(), "no loss curve");
    let game = level_studio::dungeon::ID.game().unwrap();
    let learned: Vec<_> = level_studio::game::generators_of(game)
        .into_iter()
        .filter(|g| g.id().starts_with("vae-"))
        .collect();
    assert_eq!(
        learned.len(),
        1,
        "the trained model is not among the generators"
    );
    let file = learned[0].model_file().unwrap().to_path_buf();
    assert_eq!(file, dir.path().join("rooms-level-vae-fc.safetensors"));
    assert!(file.exists() && file.with_extension("ron").exists());
    // The sidebar lists it, and the settings remember it for the next start.
    h.get_by_label(learned[0].label());
    let remembered = std::fs::canonicalize(&file).unwrap();
    assert_eq!(h.state().level_models(), std::slice::from_ref(&remembered));
    let settings = Settings {
        level_models: vec![remembered, dir.path().join("gone.safetensors")],
        ..Default::default()
    };
    let paths = StudioPaths::for_tests(vec![], Some(dir.path().join("recovery2.ron")));
    let next = StudioApp::new(settings, paths, JobMode::Threads);
    assert!(
        next.startup_notes()
            .iter()
            .any(|n| n.contains("gone.safetensors")),
        "{:?}",
        next.startup_notes()
    );
    assert_eq!(
        level_studio::game::generators_of(game)
            .iter()
            .filter(|g| g.id().starts_with("vae-"))
            .count(),
        1
    );
}
