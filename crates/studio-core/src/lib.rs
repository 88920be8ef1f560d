//! The Level Studio core: everything the window, the command line and every game share, with
//! no game and no GUI crate in it.
//!
//! - [`level`]: a level and a pack as files hold them; each game's stored figures behind
//!   [`level::GameFigures`].
//! - [`game`]: the trait family a game implements ([`game::Game`], analysis, generators,
//!   playtest rules, the state-graph explorer) and the [`game::registry`] plug-ins fill.
//! - [`files`] (levels and packs on disk) over [`io`] (atomic writes, locks, capped reads).
//! - [`generation`] (the one generation service) and [`jobs`] (workers, progress, cancel).
//! - [`document`] (the board being edited, undo, pack curation), [`export`] (JSON, PNG sheets,
//!   Tiled maps), [`formats`] (the importers and exporters games add), [`evolve`] (the FI2Pop pattern GA, written once for every game).
//! - [`search`]: one-step lookahead, MCTS and flat MCTS over a game's forward model.
//! - [`grid`], [`symmetry`], [`rng`]: the small pieces; [`datasets`]: the VGLC readers.

pub mod datasets;
pub mod document;
pub mod evolve;
pub mod export;
pub mod files;
pub mod formats;
pub mod game;
pub mod generation;
pub mod grid;
pub mod io;
pub mod jobs;
pub mod level;
pub mod parts;
pub mod rng;
pub mod search;
pub mod symmetry;

#[cfg(test)]
pub(crate) mod testing;
