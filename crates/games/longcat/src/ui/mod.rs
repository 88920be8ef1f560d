//! Longcat's window parts (the `ui` feature): the playtest, moving the cat, added to the
//! registry by [`plugin`].

pub mod playtest;

use studio_core::game::registry::Registry;
use studio_ui::RegisterWindowParts;

/// Adds the Longcat playtest.
pub fn plugin(registry: &mut Registry) {
    registry.add_playtest(studio_ui::Playtest {
        game: crate::ID,
        start: playtest::start,
    });
}
