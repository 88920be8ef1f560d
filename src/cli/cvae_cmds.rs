//! Match-3 model sub-commands: generate, eval and train for the cVAEs.

use anyhow::{bail, Result};
use std::process::ExitCode;

pub fn generate(args: &super::generate::GenerateArgs) -> Result<ExitCode> {
    bail!("unknown match-3 generator {:?} (synth)", args.model)
}

pub fn eval(args: &super::eval::EvalArgs) -> Result<ExitCode> {
    bail!("unknown match-3 model {:?}", args.model)
}

pub fn train(args: &super::train::TrainArgs) -> Result<ExitCode> {
    bail!("unknown model {:?}", args.model)
}
