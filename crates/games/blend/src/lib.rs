//! The blend lab (level-blending-learned-representation): 16 × 16 segments of Lode Runner and
//! Zelda in one unified tile set, judged by which game they are like, by both games'
//! playability agents and by five tile metrics.

pub mod agents;
pub mod analysis;
pub mod cli;
pub mod cnn;
pub mod data;
pub mod embed;
pub mod eval;
pub mod figures;
pub mod game;
pub mod generators;
pub mod lab;
pub mod level;
pub mod metrics;
pub mod pixel_embed;
pub mod pixels;
pub mod play;
pub mod shape;
pub mod tiles;
#[cfg(feature = "ui")]
pub mod ui;
pub mod vae;

pub use figures::BlendFigures;
pub use level::{BlendGame, ID};

#[cfg(test)]
mod tests;

/// The plug-in: adds this game, its command-line commands and its file formats to the
/// studio's registry.
pub fn plugin(registry: &mut studio_core::game::registry::Registry) {
    registry.add_game(&BlendGame);
    cli::commands(registry);
    #[cfg(feature = "ui")]
    ui::plugin(registry);
    registry.add_importer(studio_core::formats::Importer {
        format: "vglc-lode-runner",
        label: "VGLC Lode Runner levels",
        help: "VGLC Lode Runner level files or their folder: each level's four 16 × 16 quadrants as blend segments",
        menu: None,
        import: data::import_lode_runner,
    });
}

/// Unit tests run with this game registered, from the repository root (where the shipped
/// models and levels are), as the binary does.
#[cfg(test)]
#[ctor::ctor]
fn install_for_unit_tests() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[plugin]);
}
