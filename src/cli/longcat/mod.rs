//! Longcat's own sub-commands: the generator sweep and the ridge predictor's training
//! (`sweep.rs`), and the DQN's evaluation and training (`dqn.rs`). The generic commands
//! reach them through [`eval`] and [`train`].

mod dqn;
mod sweep;

use super::eval::EvalArgs;
use super::train::TrainArgs;
use anyhow::Result;
use std::process::ExitCode;

/// The models `train` builds for Longcat.
pub const MODELS: [&str; 2] = ["longcat-ridge", "longcat-dqn"];

/// The metric sweep, when `--game` is Longcat.
pub fn eval(args: &EvalArgs) -> Option<Result<ExitCode>> {
    (args.game == crate::longcat::ID).then(|| match args.model.as_str() {
        "longcat-dqn" => dqn::eval(args),
        _ => sweep::eval(args),
    })
}

/// Training, when `--model` is a Longcat model.
pub fn train(args: &TrainArgs) -> Option<Result<ExitCode>> {
    match args.model.as_str() {
        "longcat-dqn" => Some(dqn::train(args)),
        "longcat-ridge" => Some(sweep::train(args)),
        _ => None,
    }
}
