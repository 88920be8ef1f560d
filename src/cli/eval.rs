//! `eval`: the metric sweep of a generator, run by its game's own command.

use crate::level::Game;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The game (match3, longcat, dungeon, course).
    #[arg(long, default_value_t = Game::default())]
    pub game: Game,
    /// The generator or model to evaluate (match3: avalon, vanilla, avalon-stylized,
    /// vanilla-stylized, dataset; longcat: puzzle-up, solution-down, longcat-dqn).
    #[arg(long)]
    pub model: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Generation attempts (Longcat; default 20,000).
    #[arg(long, default_value_t = 20_000)]
    pub attempts: usize,
    /// Level size as WxH (Longcat).
    #[arg(long, value_parser = super::generate::parse_size)]
    pub size: Option<(usize, usize)>,
    /// Model weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Write a plot of the evaluation here (PNG; longcat-dqn; course: the training curves).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Dataset folder (match3; default levels/match3/main).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Match-3 models: measure validated generation over the sweep conditions instead.
    #[arg(long)]
    pub validated: bool,
    /// With --validated: levels generated and validated at most per condition.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub budget: u64,
    /// With --validated: the safety margin in moves (see `ValidatedRequest::margin`).
    #[arg(long, default_value_t = default_margin())]
    pub margin: f64,
    /// With --validated: the safety margin below the move limit, in moves (see
    /// `ValidatedRequest::limit_margin`).
    #[arg(long, default_value_t = default_limit_margin())]
    pub limit_margin: f64,
    /// Match-3 models: sweep the decoder's raw output (copies of training levels kept).
    #[arg(long)]
    pub raw: bool,
    /// Match-3 models: draw each cell from the decoder's softmax at this temperature instead
    /// of taking the argmax (copies of training levels drawn again).
    #[arg(long)]
    pub temperature: Option<f64>,
    /// Match-3 models: draw cells until each level differs from every training layout of its
    /// size in at least N cells (the temperature, 1 or --temperature, rises when needed).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=99))]
    pub fresh: Option<u64>,
    /// Dungeon fi2pop: the α and β packs to profile (without it, 3 + 3 rooms are evolved
    /// first).
    #[arg(long, num_args = 2, value_names = ["ALPHA", "BETA"])]
    pub profile: Vec<PathBuf>,
    /// Dungeon fi2pop: games each agent plays on each room (default 30).
    #[arg(long)]
    pub games: Option<u32>,
    /// Dungeon fi2pop: generations when it evolves its own rooms (default 20).
    #[arg(long)]
    pub generations: Option<usize>,
    /// Dungeon fi2pop: population when it evolves its own rooms (default 50).
    #[arg(long)]
    pub population: Option<usize>,
    /// Dungeon fi2pop: rooms it evolves per fitness, one run each (default 3, as the paper).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rooms: u32,
    /// Dungeon fi2pop: write the rooms it evolved to DIR/alpha.ron and DIR/beta.ron.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// Course: events per course, 9 or 12.
    #[arg(long, default_value_t = 9)]
    pub events: usize,
    /// Randomized initialization, one row per number of random first decisions ("1,2,3"):
    /// course learned generators (columns) and longcat-dqn (walk steps).
    #[arg(long, value_delimiter = ',')]
    pub ri: Vec<usize>,
    /// Course learned generators: the diversity-aware greedy policy, "n,d" (n random columns,
    /// kept when farther than d from the network's; the critic picks) from 20 initial courses.
    #[arg(long, value_name = "N,D")]
    pub dagp: Option<String>,
    /// Course: discard courses evaluated below this and keep drawing (tries are reported).
    #[arg(long, value_name = "V")]
    pub filter: Option<f64>,
    /// Course: courses to generate (default 200); longcat-dqn --ri: levels per row (default
    /// 1,000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub count: Option<u64>,
}

pub fn run(args: &EvalArgs) -> Result<ExitCode> {
    super::GAME_COMMANDS
        .iter()
        .find_map(|g| (g.eval)(args))
        .unwrap_or_else(|| bail!("{} has no metric sweep yet", args.game))
}

fn default_margin() -> f64 {
    crate::match3::cvae::validated::DEFAULT_MARGIN
}

fn default_limit_margin() -> f64 {
    crate::match3::cvae::validated::DEFAULT_LIMIT_MARGIN
}
