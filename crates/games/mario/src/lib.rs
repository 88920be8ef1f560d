//! Super Mario Bros levels (SPEC §2.6, rl-quality-diversity ch. 3.2 and 6): the tiles and
//! their letters (`tiles`), a checked level (`level`), the VGLC and Mario AI Framework text
//! formats (`formats`), the deterministic tick engine (`engine`), the agents that play it
//! (`agents`) and the thesis's evaluation (`reward`).

pub mod agents;
pub mod analysis;
pub mod cgan;
pub mod cli;
pub mod decode;
pub mod engine;
pub mod evaluate;
pub mod figures;
pub mod formats;
pub mod game;
pub mod generators;
pub mod level;
pub mod patterns;
pub mod reward;
pub mod script;
pub mod td3;
pub mod tiles;
#[cfg(feature = "ui")]
pub mod ui;

#[cfg(test)]
pub(crate) mod test_levels;

pub use figures::MarioFigures;
pub use level::{to_level, LevelError, MarioGame, MarioLevel, ID};
pub use tiles::Tile;

/// The plug-in: adds this game, its command-line commands and its file formats to the
/// studio's registry.
pub fn plugin(registry: &mut studio_core::game::registry::Registry) {
    registry.add_game(&MarioGame);
    cli::commands(registry);
    #[cfg(feature = "ui")]
    ui::plugin(registry);
    for importer in formats::IMPORTERS {
        registry.add_importer(importer);
    }
    for exporter in formats::EXPORTERS {
        registry.add_exporter(exporter);
    }
}

/// Unit tests run with this game registered, from the repository root (where the shipped
/// models and levels are), as the binary does.
#[cfg(test)]
#[ctor::ctor]
fn install_for_unit_tests() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[plugin]);
}
