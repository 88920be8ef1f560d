//! The Device setting (issue 68): the status bar names the device models run on, and a saved
//! device this build or machine lacks is said at start and replaced by `auto`.

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use level_studio::app::{JobMode, Settings, StudioApp, StudioPaths};

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size([1400.0, 900.0])
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(20)
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui), app)
}

fn paths(dir: &tempfile::TempDir) -> StudioPaths {
    StudioPaths::for_tests(vec![], Some(dir.path().join("recovery.ron")))
}

#[test]
fn the_status_bar_names_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let app = StudioApp::new(Settings::default(), paths(&dir), JobMode::Inline);
    let mut h = harness(app);
    h.step();
    // The build these tests run in has no CUDA support: `auto` is the CPU.
    h.get_by_label("CPU");
    assert_eq!(h.state().settings.device, "auto");
}

#[test]
fn a_saved_device_this_build_lacks_is_said_and_replaced_by_auto() {
    for (saved, why) in [
        ("cuda:3", "this build has no CUDA support"),
        ("gpu", "is not a device"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings {
            device: saved.into(),
            ..Settings::default()
        };
        let app = StudioApp::new(settings, paths(&dir), JobMode::Inline);
        assert_eq!(app.settings.device, "auto", "{saved}");
        let notes = app.startup_notes().join("\n");
        assert!(
            notes.contains(saved) && notes.contains(why),
            "{saved}: {notes}"
        );
        let mut h = harness(app);
        h.step();
        h.get_by_label("CPU");
    }
}
