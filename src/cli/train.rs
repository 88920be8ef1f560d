//! `train`: train a model with progress and checkpoints. Dispatches by model.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// avalon, vanilla (match-3 cVAEs), longcat-ridge (difficulty predictor), longcat-dqn.
    #[arg(long)]
    pub model: String,
    /// Training data: a dataset folder (match-3) or a playtest CSV (longcat-ridge).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Where to write the trained weights.
    #[arg(long)]
    pub out: PathBuf,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Training epochs (or steps) instead of the model's default.
    #[arg(long)]
    pub epochs: Option<usize>,
    /// Level size as WxH (longcat-dqn).
    #[arg(long, value_parser = super::generate::parse_size)]
    pub size: Option<(usize, usize)>,
}

pub fn run(args: &TrainArgs) -> Result<ExitCode> {
    match args.model.as_str() {
        "longcat-dqn" => super::dqn_cmds::train(args),
        m if m.starts_with("longcat") => super::longcat_cmds::train(args),
        _ => super::cvae_cmds::train(args),
    }
}
