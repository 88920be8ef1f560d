//! Match-3's window parts (the `ui` feature): the playtest, swapping tiles and animating
//! cascades, added to the registry by [`plugin`].

pub mod playtest;

use studio_core::game::registry::Registry;
use studio_ui::RegisterWindowParts;

/// Adds the match-3 playtest.
pub fn plugin(registry: &mut Registry) {
    registry.add_playtest(studio_ui::Playtest {
        game: crate::ID,
        start: playtest::start,
    });
}
