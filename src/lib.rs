//! Level Studio: a level design studio for tile-based puzzle games.
//!
//! This library holds everything that is not GUI: the grid and symmetry helpers, the games
//! (match-3 layouts and Longcat), level and pack files, and the command line. The window
//! only calls into it.

pub mod app;
pub mod cli;
pub mod files;
pub mod grid;
pub mod level;
pub mod longcat;
pub mod match3;
pub mod model;
pub mod rl;
pub mod rng;
pub mod symmetry;
