//! A level VAE for any game: one-hot tiles of the game's own palette, padding masked out of
//! the loss, conditioned on the level's size (and optionally one figure of the game's
//! analysis), trained from any pack ([`train`]); side-scrollers train on fixed-width windows
//! and generate long levels window by window. A trained model generates, walks between two
//! levels, and regenerates a selected region ([`inpaint`]); its sidecar names the game (a VGDL
//! game by its description's hash), so a model of another game is refused. No game is named
//! here.

mod data;
pub mod eval;
mod generator;
pub mod inpaint;
mod model;
mod net;
mod sidecar;
mod train;

pub use data::{energy_distance, tile_shares, DataError};
pub use eval::{evaluate, EvalReport};
pub use generator::{id_of, is_level_vae, register, LevelVaeGenerator};
pub use model::{game_of, read_sidecar, LevelVae, LevelVaeError};
pub use net::{Arch, NetShape};
pub use sidecar::{
    FigureCondition, LevelVaeSidecar, TrainMetrics, Window, KIND, SAMPLE_TEMPERATURE,
    WINDOW_TEMPERATURE,
};
pub use train::{
    check_config, train, TrainConfig, TrainProgress, TrainSource, MAX_EPOCHS, MAX_SIDE,
};
