//! Dungeon rooms (SPEC §2.3): a Zelda-like room with an avatar, a key, a locked exit and
//! monsters, played by GVGAI's Zelda rules. The room and its letters (`room`), the tick rules
//! (`rules`), the exact skeleton graph (`skeleton`), the agent ladder with the human-like
//! agent (`agents`), the GVGAI-like generic agents (`gvgai_agents`), the rules as the forward
//! model their searches run on (`forward`), the analysis built from them (`analysis`), the
//! random and constructive generators (`generators`), the GVGAI and VGLC importers
//! (`import`), the playtest (`play`) and the registered game (`game`).

pub mod agents;
pub mod analysis;
pub mod cli;
pub mod evolve;
pub mod figures;
pub mod forward;
pub mod game;
pub mod generators;
pub mod gvgai_agents;
pub mod import;
pub mod play;
pub mod room;
pub mod rules;
pub mod skeleton;

pub use figures::{AgentFigures, DungeonFigures};
pub use room::{to_level, Cell, DungeonGame, Room, RoomError, Speed, ID};
pub use rules::{Action, Dir, Monster, Outcome, Play, TickEvents, TICK_LIMIT};

/// The plug-in: adds this game, its command-line commands and its file formats to the
/// studio's registry.
pub fn plugin(registry: &mut studio_core::game::registry::Registry) {
    registry.add_game(&DungeonGame);
    cli::commands(registry);
    for importer in import::IMPORTERS {
        registry.add_importer(importer);
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
