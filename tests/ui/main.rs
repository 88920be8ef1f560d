//! The studio window with every shipped game, driven with egui_kittest: the editor
//! (`ui_editor`), start-up and recovery (`ui_startup`), generators, candidates, playtest and
//! interpolation (`ui_part2`), Mario (`ui_mario`), the Device setting (`ui_device`), and the window's pure helpers
//! (`app_helpers`), and a game added at run time (`ui_toy`, which registers the toy game; it
//! has no playtest keys, so the tests that list every game are the same with it or without).
//! One test binary (`cargo test --test ui ui_editor::` runs one module).

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// The studio's games, installed as the binary installs them.
#[ctor::ctor]
fn install_games() {
    level_studio::install_games();
}

/// Steps until the gauge has answered for the editor's level and is idle (what a test that
/// measures the layout waits for: the answer may change the panels, and on a loaded machine
/// it comes at any frame).
pub fn wait_for_gauge(h: &mut egui_kittest::Harness<'_, level_studio::app::StudioApp>) {
    let start = std::time::Instant::now();
    loop {
        h.step();
        let app = h.state();
        let answered = app
            .analysis()
            .last
            .as_ref()
            .is_some_and(|o| o.revision == app.editor().revision());
        if answered && !app.analysis().busy() {
            break;
        }
        assert!(start.elapsed().as_secs() < 60, "the gauge never answered");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

mod app_helpers;
mod ui_device;
mod ui_editor;
mod ui_mario;
mod ui_models;
mod ui_part2;
mod ui_round4;
mod ui_startup;
mod ui_toy;
