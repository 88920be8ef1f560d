//! The command line: the same binary runs every job of the window headless.

pub mod bounds;
mod eval;
mod export;
mod generate;
mod graph;
mod import;
mod interpolate;
mod list;
mod pack_out;
mod train;
mod validate;

// Games' own sub-commands (model sweeps and training), one folder each.
mod blend;
mod course;
mod dungeon;
mod longcat;
mod mario;
mod match3;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The sub-commands a game adds in its folder under `src/cli/`: the models it trains, and
/// its `eval` and `train` (each answers `None` for another game's model).
struct GameCommands {
    models: &'static [&'static str],
    eval: Eval,
    train: Train,
}

type Eval = fn(&eval::EvalArgs) -> Option<anyhow::Result<ExitCode>>;
type Train = fn(&train::TrainArgs) -> Option<anyhow::Result<ExitCode>>;

const fn commands(models: &'static [&'static str], eval: Eval, train: Train) -> GameCommands {
    GameCommands {
        models,
        eval,
        train,
    }
}

/// The games with sub-commands of their own, one line each.
const GAME_COMMANDS: [GameCommands; 6] = [
    commands(&match3::MODELS, match3::eval, match3::train),
    commands(&longcat::MODELS, longcat::eval, longcat::train),
    commands(&dungeon::MODELS, dungeon::eval, dungeon::train),
    commands(&course::MODELS, course::eval, course::train),
    commands(&blend::MODELS, blend::eval, blend::train),
    commands(&mario::MODELS, mario::eval, mario::train),
];

/// Level Studio: a level design studio for tile-based puzzle games.
#[derive(Parser, Debug)]
#[command(name = "level-studio", version, about, long_about = None)]
pub struct Cli {
    /// The sub-command to run; none opens the studio window.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The sub-commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The registered games, their generators and the conditions each takes.
    List(list::ListArgs),
    /// Analyse levels with their game's bots, solver or evaluator (files or packs).
    Validate(validate::ValidateArgs),
    /// Export a pack to JSON or a PNG sheet.
    Export(export::ExportArgs),
    /// The state graph of a level whose game has one: variables, classes and difficulty;
    /// optional Graphviz export.
    Graph(graph::GraphArgs),
    /// Generate levels into a pack.
    Generate(generate::GenerateArgs),
    /// Train a model, with progress and checkpoints.
    Train(train::TrainArgs),
    /// The metric sweep of a generator.
    Eval(eval::EvalArgs),
    /// Regenerate the match-3 datasets under levels/match3 with the rule-based synthesiser.
    Dataset(match3::dataset::DatasetArgs),
    /// Import levels from other formats (GVGAI Zelda, VGLC Zelda) into a pack.
    Import(import::ImportArgs),
    /// Walk a model's latent space from level A to level B into a pack (the window's
    /// Interpolation and the Blend lab's strip).
    Interpolate(interpolate::InterpolateArgs),
}

/// Parses the arguments and runs the command; `None` means no sub-command was given (the
/// caller opens the window, or prints help).
pub fn run_from_args() -> Option<ExitCode> {
    run(Cli::parse())
}

/// Runs a command line given as words (the first is the program name), in this process:
/// what tests use to drive the command line with games they register themselves.
///
/// # Errors
/// clap's error for words that are not a command line.
pub fn run_words<I, T>(words: I) -> Result<Option<ExitCode>, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    Ok(run(Cli::try_parse_from(words)?))
}

fn run(cli: Cli) -> Option<ExitCode> {
    let command = cli.command?;
    let result = match command {
        Command::List(args) => list::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Dataset(args) => match3::dataset::run(&args),
        Command::Graph(args) => graph::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Interpolate(args) => interpolate::run(&args),
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
