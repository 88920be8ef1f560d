//! The generation room: the generator sidebar (conditions from the game's generators, run
//! through the one generation service), the candidates, and latent interpolation.

pub mod candidates;
pub mod generate_panel;
mod generator_ui;
pub mod interpolation;
pub mod models_window;
