//! The blend game's window parts (the `ui` feature): the Blend lab, added to the registry by
//! [`plugin`].

pub mod blend_lab;

use studio_core::game::registry::Registry;
use studio_ui::RegisterWindowParts;

/// Adds the Blend lab.
pub fn plugin(registry: &mut Registry) {
    registry.add_tool(studio_ui::Tool {
        game: crate::ID,
        make: |mode| Box::new(blend_lab::BlendLab::new(mode)),
        generators: &[blend_lab::LAB_GENERATOR],
    });
}
