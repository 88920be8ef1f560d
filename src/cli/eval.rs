//! `eval`: the metric sweep of a generator, run by its game's own command.

use super::bounds;
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
    /// vanilla-stylized, dataset; longcat: puzzle-up, solution-down, longcat-dqn); not needed
    /// with --table62.
    #[arg(long, default_value = "")]
    pub model: String,
    /// Mario: the thesis's Table 6.2 (the human-like agent's four indicators, mean ± sd over
    /// --games trials, default 10) on the VGLC levels it names, beside the thesis's figures.
    #[arg(long)]
    pub table62: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Generation attempts, 1 to 200,000 (Longcat; default 20,000).
    #[arg(long, default_value_t = 20_000, value_parser = bounds::ATTEMPTS.parser::<usize>())]
    pub attempts: usize,
    /// Level size as WxH, each side 1 to 64 cells (Longcat; dungeon rooms it evolves).
    #[arg(long, value_parser = bounds::parse_size)]
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
    /// With --validated: levels generated and validated at most per condition, 1 to 100,000
    /// (default 256: what Generate and `generate --validate` give a request for one level).
    #[arg(long, default_value_t = default_budget(), value_parser = bounds::VALIDATED_BUDGET.parser::<u64>())]
    pub budget: u64,
    /// With --validated: the safety margin in moves, at least 0, less than 2 (the tolerance;
    /// see `ValidatedRequest::margin`).
    #[arg(long, default_value_t = default_margin(), value_parser = bounds::MARGIN.parser())]
    pub margin: f64,
    /// With --validated: the safety margin below the move limit, 0 to 10 moves (see
    /// `ValidatedRequest::limit_margin`).
    #[arg(long, default_value_t = default_limit_margin(), value_parser = bounds::LIMIT_MARGIN.parser())]
    pub limit_margin: f64,
    /// Match-3 models: sweep the decoder's raw output (copies of training levels kept).
    #[arg(long)]
    pub raw: bool,
    /// Match-3 models: draw each cell from the decoder's softmax at this temperature, 0 to 3
    /// (0: fresh levels start at 1.1; with --fresh 0 the argmax; copies of training levels
    /// drawn again).
    #[arg(long, value_parser = bounds::TEMPERATURE.parser())]
    pub temperature: Option<f64>,
    /// Match-3 models: draw cells until each level differs from every training layout of its
    /// size in at least N cells, 0 to 12 (default 3, as Generate; 0: the argmax with copies
    /// edited in one or two cells; the temperature, 1.1 or --temperature, rises when needed).
    /// With --validated, the levels validated generation proposes.
    #[arg(long, value_name = "N", value_parser = bounds::FRESH.parser::<u64>())]
    pub fresh: Option<u64>,
    /// Dungeon fi2pop: the α and β packs to profile (without it, 3 + 3 rooms are evolved
    /// first).
    #[arg(long, num_args = 2, value_names = ["ALPHA", "BETA"])]
    pub profile: Vec<PathBuf>,
    /// Dungeon fi2pop: the agents profiled: gvgai (do-nothing, random and GVGAI-like one-step
    /// and MCTS that value only the score, as the paper's controllers), studio (the studio's
    /// ladder, whose one-step and MCTS know the way to the key) or all.
    #[arg(long, default_value = "gvgai", value_parser = ["gvgai", "studio", "all"])]
    pub agents: String,
    /// Dungeon fi2pop: games each agent plays on each room, 1 to 1,000 (default 30).
    #[arg(long, value_parser = bounds::AGENT_GAMES.parser::<u32>())]
    pub games: Option<u32>,
    /// Dungeon fi2pop: generations when it evolves its own rooms, 0 to 500 (default 20).
    #[arg(long, value_parser = bounds::GENERATIONS.parser::<usize>())]
    pub generations: Option<usize>,
    /// Dungeon fi2pop: population when it evolves its own rooms, 4 to 200 (default 50).
    #[arg(long, value_parser = bounds::POPULATION.parser::<usize>())]
    pub population: Option<usize>,
    /// Dungeon fi2pop: rooms it evolves per fitness, one run each, 1 to 100 (default 3, as
    /// the paper).
    #[arg(long, default_value_t = 3, value_parser = bounds::ROOMS.parser::<u32>())]
    pub rooms: u32,
    /// Dungeon fi2pop: write the rooms it evolved to DIR/alpha.ron and DIR/beta.ron.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// Course: events per course, 9 or 12.
    #[arg(long, default_value_t = 9, value_parser = bounds::parse_events)]
    pub events: usize,
    /// Randomized initialization, one row per number of random first decisions ("1,2,3"),
    /// each 0 to 99, at most 100 values: course learned generators (columns, 1 to one less
    /// than the course has), longcat-dqn (walk steps, up to one less than the model's board
    /// has cells) and Mario's TD3 actors (patterns, 1 to 10).
    #[arg(long, value_delimiter = ',', value_parser = bounds::RI.parser::<usize>())]
    pub ri: Vec<usize>,
    /// Course learned generators: the diversity-aware greedy policy, "n,d" (n random columns,
    /// kept when farther than d from the network's; the critic picks) from 20 initial
    /// courses; n 1 to 1,000, d at least 0, p 0 to 1.
    #[arg(long, value_name = "N,D", value_parser = bounds::parse_dagp)]
    pub dagp: Option<String>,
    /// Course: discard courses evaluated below this, 0 to 1, and keep drawing (tries are
    /// reported).
    #[arg(long, value_name = "V", value_parser = bounds::FILTER.parser())]
    pub filter: Option<f64>,
    /// Course: courses to generate (default 200); longcat-dqn --ri: levels per row (default
    /// 1,000); blend: blends to draw (default 1,000); 2 to 10,000.
    #[arg(long, value_parser = bounds::SWEEP_LEVELS.parser::<u64>())]
    pub count: Option<u64>,
}

pub fn run(args: &EvalArgs) -> Result<ExitCode> {
    if args.model.is_empty() && !args.table62 {
        bail!("eval needs --model MODEL (the generator or model to evaluate; see `list`)");
    }
    if args.ri.len() > bounds::RI_ROWS {
        bail!(
            "--ri lists {} values; it takes at most {} (a table row each)",
            args.ri.len(),
            bounds::RI_ROWS
        );
    }
    super::GAME_COMMANDS
        .iter()
        .find_map(|g| (g.eval)(args))
        .unwrap_or_else(|| bail!("{} has no metric sweep yet", args.game))
}

fn default_budget() -> u64 {
    crate::match3::cvae::validated::default_budget(1) as u64
}

fn default_margin() -> f64 {
    crate::match3::cvae::validated::DEFAULT_MARGIN
}

fn default_limit_margin() -> f64 {
    crate::match3::cvae::validated::DEFAULT_LIMIT_MARGIN
}

#[cfg(test)]
mod tests {
    use super::super::{Cli, Command};
    use clap::Parser;

    #[test]
    fn validated_eval_gives_each_condition_a_designers_budget() {
        let cli = Cli::try_parse_from(["level-studio", "eval", "--model", "avalon", "--validated"])
            .expect("a valid command line");
        let Some(Command::Eval(args)) = cli.command else {
            panic!("not eval: {cli:?}");
        };
        // What "Validated only" and `generate --validate` give a request for one level.
        assert_eq!(
            args.budget as usize,
            crate::match3::cvae::validated::default_budget(1)
        );
        assert_eq!(args.budget, 256);
    }
}
