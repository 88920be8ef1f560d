//! `generate`: new levels from a generator into a pack. Dispatches by game and model.

use crate::level::Game;
use crate::symmetry::Symmetry;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The game (match3, longcat).
    #[arg(long, default_value = "match3")]
    pub game: Game,
    /// The generator: match3 — synth, avalon, vanilla, avalon-stylized, vanilla-stylized;
    /// longcat — puzzle-up, solution-down, longcat-dqn.
    #[arg(long)]
    pub model: String,
    /// Level size as WxH.
    #[arg(long, value_parser = parse_size)]
    pub size: Option<(usize, usize)>,
    /// Symmetry (none, vertical, horizontal, quadrant).
    #[arg(long)]
    pub symmetry: Option<Symmetry>,
    /// Target median moves (Avalon).
    #[arg(long)]
    pub moves: Option<f64>,
    /// Number of levels.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Keep only levels the bots validate (valid, and near the requested moves).
    #[arg(long)]
    pub validate: bool,
    /// Longcat DQN: probability of a random action instead of the greedy one.
    #[arg(long)]
    pub temperature: Option<f64>,
    /// Longcat DQN: diversity-aware policy, "n,d".
    #[arg(long)]
    pub diverse: Option<String>,
    /// Model weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Output pack (.ron).
    #[arg(long)]
    pub out: PathBuf,
}

/// Parses `WxH`.
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = s
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(|| format!("size {s:?} is not WxH"))?;
    let w: usize = w
        .trim()
        .parse()
        .map_err(|_| format!("size {s:?}: width is not a number"))?;
    let h: usize = h
        .trim()
        .parse()
        .map_err(|_| format!("size {s:?}: height is not a number"))?;
    if w == 0 || h == 0 || w > 64 || h > 64 {
        return Err(format!("size {s:?} is out of range"));
    }
    Ok((w, h))
}

pub fn run(args: &GenerateArgs) -> Result<ExitCode> {
    match (args.game, args.model.as_str()) {
        (Game::Match3, "synth") => super::synth_cmd::generate(args),
        (Game::Longcat, "longcat-dqn") => super::dqn_cmds::generate(args),
        (Game::Longcat, _) => super::longcat_cmds::generate(args),
        (Game::Match3, _) => super::cvae_cmds::generate(args),
    }
}

/// Refuses a flag that the chosen generator does not use.
pub fn refuse_unused(args: &GenerateArgs, flags: &[(&str, bool)]) -> Result<()> {
    for (name, given) in flags {
        if *given {
            bail!("--{name} does not apply to the {} generator", args.model);
        }
    }
    Ok(())
}
