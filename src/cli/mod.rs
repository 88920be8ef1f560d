//! The command line: the same binary runs every job of the window headless.

mod cvae_cmds;
mod dataset;
mod dqn_cmds;
mod eval;
mod export;
mod generate;
mod graph;
mod longcat_cmds;
mod synth_cmd;
mod train;
mod validate;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Level Studio: a level design studio for tile-based puzzle games.
#[derive(Parser, Debug)]
#[command(name = "level-studio", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The sub-commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the bots (match-3) or build the state graph (Longcat) on level files or packs.
    Validate(validate::ValidateArgs),
    /// Export a pack to JSON.
    Export(export::ExportArgs),
    /// Longcat state graph: variables, classes and difficulty; optional Graphviz export.
    Graph(graph::GraphArgs),
    /// Generate levels into a pack.
    Generate(generate::GenerateArgs),
    /// Train a model, with progress and checkpoints.
    Train(train::TrainArgs),
    /// The metric sweep of a generator.
    Eval(eval::EvalArgs),
    /// Regenerate the match-3 datasets under levels/match3 with the rule-based synthesiser.
    Dataset(dataset::DatasetArgs),
}

/// Parses the arguments and runs the command; `None` means no sub-command was given (the
/// caller opens the window, or prints help).
pub fn run_from_args() -> Option<ExitCode> {
    let cli = Cli::parse();
    let command = cli.command?;
    let result = match command {
        Command::Validate(args) => validate::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Dataset(args) => dataset::run(&args),
        Command::Graph(args) => graph::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Eval(args) => eval::run(&args),
    };
    Some(match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    })
}

/// Prints the top-level help.
pub fn print_help() {
    use clap::CommandFactory;
    let _ = Cli::command().print_help();
    println!();
}
