//! Mario's window parts (the `ui` feature): the playtest (play, or watch A* and the
//! human-like agent) and the CGAN map, added to the registry by [`plugin`].

pub mod cgan_map;
pub mod playtest;

use studio_core::game::registry::Registry;
use studio_ui::RegisterWindowParts;

/// Adds Mario's playtest and the CGAN map.
pub fn plugin(registry: &mut Registry) {
    registry.add_playtest(studio_ui::Playtest {
        game: crate::level::ID,
        start: playtest::start,
    });
    registry.add_tool(studio_ui::Tool {
        game: crate::level::ID,
        make: |_| Box::new(cgan_map::CganMapWindow::default()),
        generators: &[],
    });
}
