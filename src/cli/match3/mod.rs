//! Match-3's own sub-commands: the cVAE metric sweep and training (`cvae.rs`) and the
//! dataset generator (`dataset.rs`). The generic commands reach them through [`eval`] and
//! [`train`].

mod cvae;
pub mod dataset;

use super::eval::EvalArgs;
use super::train::TrainArgs;
use anyhow::Result;
use std::process::ExitCode;

/// The models `train` builds for match-3.
pub const MODELS: [&str; 2] = ["avalon", "vanilla"];

/// The metric sweep, when `--game` is match-3.
pub fn eval(args: &EvalArgs) -> Option<Result<ExitCode>> {
    (args.game == crate::match3::ID).then(|| cvae::eval(args))
}

/// Training, when `--model` is a match-3 cVAE.
pub fn train(args: &TrainArgs) -> Option<Result<ExitCode>> {
    MODELS
        .contains(&args.model.to_ascii_lowercase().as_str())
        .then(|| cvae::train(args))
}
