//! The studio window with every shipped game, driven with egui_kittest: the editor
//! (`ui_editor`), start-up and recovery (`ui_startup`), generators, candidates, playtest and
//! interpolation (`ui_part2`), Mario (`ui_mario`), and the window's pure helpers
//! (`app_helpers`). One test binary (`cargo test --test ui
//! ui_editor::` runs one module); the toy game's window test stays apart in `ui_toy.rs`,
//! since it registers a game of its own.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// The studio's games, installed as the binary installs them.
#[ctor::ctor]
fn install_games() {
    level_studio::install_games();
}

mod app_helpers;
mod ui_editor;
mod ui_mario;
mod ui_part2;
mod ui_startup;
