//! GVGAI's games in the studio, through the VGDL engine ([`vgdl`]): a game is its VGDL
//! description and its levels, read from a folder the user names (GVGAI's files are GPL and
//! never ship with the studio).
//!
//! A game opened from its description is a studio game ([`level::VgdlGame`]): the window's
//! File menu and `import --format gvgai-vgdl` read a description and its levels into a pack
//! that carries the description, and the pattern GA ([`evolve`]) generates its levels.
//!
//! This crate adds to the command line `play --vgdl GAME.txt LEVEL.txt` (a button script with
//! a trace tick by tick in the layout of GVGAI's own reference traces, or an agent's games as
//! statistics) and `list --vgdl DIR` (which of a folder's games run and what the others
//! lack), and holds the agents that play on the engine's forward model ([`agents`]).

pub mod agent;
pub mod agents;
pub mod cli;
pub mod evolve;
pub mod figures;
pub mod formats;
pub mod game;
pub mod judge;
pub mod level;
pub mod load;
pub mod planners;
pub mod play;
pub mod pooled;
pub mod profiles;
pub mod roles;

/// The engine this crate runs the games on.
pub use vgdl;

use studio_core::game::GameId;

/// The id the command line files this plug-in's commands under.
pub const ID: GameId = GameId::new("gvgai");

/// The plug-in: adds the commands, the reader of packs' VGDL descriptions, and the GVGAI
/// importer and exporter to the studio's registry. The games themselves are registered when
/// the user opens one ([`level::open`]).
pub fn plugin(registry: &mut studio_core::game::registry::Registry) {
    cli::commands(registry);
    registry.add_source_loader(level::LOADER);
    registry.add_importer(formats::IMPORTER);
    registry.add_exporter(formats::EXPORTER);
}
