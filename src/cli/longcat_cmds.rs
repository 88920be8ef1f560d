//! Longcat sub-commands: generate, eval and train (owned by the Longcat engine).

use anyhow::{bail, Result};
use std::process::ExitCode;

pub fn generate(_args: &super::generate::GenerateArgs) -> Result<ExitCode> {
    bail!("Longcat generators are not available yet")
}

pub fn eval(_args: &super::eval::EvalArgs) -> Result<ExitCode> {
    bail!("Longcat evaluation is not available yet")
}

pub fn train(args: &super::train::TrainArgs) -> Result<ExitCode> {
    bail!("unknown model {:?}", args.model)
}
