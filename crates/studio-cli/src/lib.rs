//! The command line: the same binary runs every job of the window headless.
//!
//! The shell (this crate) has the sub-commands every game shares — `list`, `validate`,
//! `generate`, `export`, `import`, `graph`, `interpolate` — and names no game. A game adds
//! its own through its plug-in ([`GameCommand`]): its `eval` (the metric sweep of its models)
//! and `train` (its models), each with the flags that game takes, and sub-commands of its own
//! (`dataset`). `eval` and `train` read `--game` / `--model` first and then parse the rest
//! with the flags of the game that owns the model, so `eval --game G --help` shows them.
//! `--device` on `train`, `generate`, `eval` and `interpolate` is the shell's ([`device`]):
//! taken out of the words before a command parses them.

pub mod bounds;
pub mod device;
mod eval;
mod export;
mod generate;
mod graph;
mod import;
mod interpolate;
mod level_ref;
pub mod level_vae;
mod list;
mod pack_cmd;
pub mod pack_out;
mod play;
pub mod time_limit;
pub mod train;
mod validate;

pub use eval::EvalCommon;
pub use train::{refuse_writing_over, TrainCommon};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;
use studio_core::game::{registry, GameId};

/// Where a [`GameCommand`] goes on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `eval --game G --model M`: the metric sweep of the game's models.
    Eval,
    /// `train --model M`: training the game's models.
    Train,
    /// `play --game G LEVEL`: playing a level headless (a button script, a trace).
    Play,
    /// A shell command taken over when a flag of the game's own is given: `play --vgdl GAME
    /// LEVEL` or `list --vgdl DIR` runs this instead of the shell's `play` or `list` (a game
    /// that is a whole family of games, named by a file rather than by `--game`).
    Via {
        /// The shell command (`play`, `list`, `generate`, `eval`).
        command: &'static str,
        /// The flag that selects this (`vgdl`, given as `--vgdl`).
        flag: &'static str,
    },
    /// A sub-command of its own (`dataset`), with what `--help` says of it.
    Own {
        /// The sub-command's name.
        name: &'static str,
        /// One line for the top-level help.
        about: &'static str,
    },
}

/// A sub-command a game adds to the command line through its plug-in
/// ([`RegisterCommands::add_command`]).
#[derive(Clone, Copy, Debug)]
pub struct GameCommand {
    /// The game that owns it.
    pub game: GameId,
    /// Where it goes.
    pub slot: Slot,
    /// The `--model` values it runs (`eval`, `train`).
    pub models: &'static [&'static str],
    /// Adds its flags to a command (clap's `Args::augment_args` of its flag struct).
    pub args: fn(clap::Command) -> clap::Command,
    /// Runs it on the parsed flags (clap's `FromArgMatches` of its flag struct, then the work).
    pub run: fn(&clap::ArgMatches) -> anyhow::Result<ExitCode>,
    /// Its numeric flags and their ranges (docs/files.md's "Bounds" table).
    pub bounds: &'static [bounds::Bound],
    /// The least command line that reaches its flags (`["eval", "--game", "GAME",
    /// "--model", "MODEL"]`): what the bounds test adds a flag to.
    pub example: &'static [&'static str],
}

/// How a plug-in adds its command-line commands to the registry.
pub trait RegisterCommands {
    /// Adds `command`.
    ///
    /// # Panics
    /// When an installed plug-in already answers one of its names (the same `eval --game G
    /// --model M`, `train --model M`, `play --game G`, the same taken-over `--flag` or the
    /// same sub-command): said at start, never ignored.
    fn add_command(&mut self, command: GameCommand);
}

impl RegisterCommands for registry::Registry {
    fn add_command(&mut self, command: GameCommand) {
        let names = command_names(&command);
        self.add_shell_entry(command, names);
    }
}

/// What makes a second command like `command` one too many, in words.
fn command_names(command: &GameCommand) -> Vec<String> {
    let game = command.game;
    let per_model = |slot: &str| -> Vec<String> {
        if command.models.is_empty() {
            vec![format!("{slot} --game {game}")]
        } else {
            command
                .models
                .iter()
                .map(|m| format!("{slot} --game {game} --model {m}"))
                .collect()
        }
    };
    match command.slot {
        Slot::Eval => per_model("eval"),
        Slot::Play => per_model("play"),
        // `train --model M` finds its game by the model alone (any case).
        Slot::Train => command
            .models
            .iter()
            .map(|m| format!("train --model {}", m.to_ascii_lowercase()))
            .collect(),
        Slot::Via { command, flag } => vec![format!("{command} --{flag}")],
        Slot::Own { name, .. } => vec![format!("the sub-command {name}")],
    }
}

/// The game commands the installed plug-ins added.
pub fn game_commands() -> Vec<Arc<GameCommand>> {
    registry::entries::<GameCommand>()
}

/// The clap command of `command` under `name`, with its flags.
pub fn clap_command(command: &GameCommand) -> clap::Command {
    let name = match command.slot {
        Slot::Eval => "eval",
        Slot::Train => "train",
        Slot::Play => "play",
        Slot::Via { command, .. } => command,
        Slot::Own { name, .. } => name,
    };
    let cli = (command.args)(clap::Command::new(name));
    if device::takes_device(name) && !matches!(command.slot, Slot::Own { .. }) {
        device::with_device_flag(cli)
    } else {
        cli
    }
}

/// The raw words of `eval`, `train` and `play`: parsed again with the flags of the game that
/// owns the model (or is named by `--game`).
#[derive(clap::Args, Debug)]
pub struct Words {
    /// `--game GAME` (eval), `--model MODEL`, then that game's flags: `eval --game GAME
    /// --help` or `train --model MODEL --help` lists them.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0.., value_name = "FLAGS")]
    pub words: Vec<OsString>,
}

/// Level Studio: a level design studio for tile-based puzzle games.
#[derive(Parser, Debug)]
#[command(
    name = "level-studio",
    version,
    about = "Level Studio: a level design studio for tile-based puzzle games.",
    long_about = None,
    after_help = "Any command also takes --time-limit SECONDS: past it the command is stopped \
                  (exit 124), its files left whole."
)]
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
    Generate(Box<generate::GenerateArgs>),
    /// Train a model, with progress and checkpoints (`train --model MODEL --help` lists the
    /// flags of the game that owns the model).
    #[command(disable_help_flag = true)]
    Train(Words),
    /// The metric sweep of a generator (`eval --game GAME --help` lists that game's flags).
    #[command(disable_help_flag = true)]
    Eval(Words),
    /// Play a level headless: a button script, with a trace tick by tick (`play --game GAME
    /// --help` lists that game's flags).
    #[command(disable_help_flag = true)]
    Play(Words),
    /// Import levels from other formats into a pack (`level-studio import --help` lists them).
    Import(import::ImportArgs),
    /// Walk a model's latent space from level A to level B into a pack (the window's
    /// Interpolation window).
    Interpolate(interpolate::InterpolateArgs),
    /// Work on pack files: `pack merge A.ron B.ron … --out ALL.ron` joins packs of one game
    /// (the parts of a `generate --shard` run, in order).
    Pack(pack_cmd::PackArgs),
}

/// The whole command line: the shell's sub-commands and those the games add.
pub fn command() -> clap::Command {
    let mut cli = Cli::command()
        .mut_subcommand("generate", device::with_device_flag)
        .mut_subcommand("interpolate", device::with_device_flag);
    for own in game_commands() {
        if let Slot::Own { about, .. } = own.slot {
            cli = cli.subcommand(clap_command(&own).about(about));
        }
    }
    cli
}

/// Parses the arguments and runs the command; `None` means no sub-command was given (the
/// caller opens the window, or prints help).
pub fn run_from_args() -> Option<ExitCode> {
    let words = match take_process_flags(std::env::args_os().collect()) {
        Ok(words) => words,
        Err(code) => return Some(code),
    };
    if let Some(code) = run_via(&words) {
        return Some(code);
    }
    run_matches(command().get_matches_from(words))
}

/// Takes the flags that act on the whole process out of `words` before clap reads them:
/// `--device` (the models' device) and `--time-limit` (which starts the clock).
fn take_process_flags(words: Vec<OsString>) -> Result<Vec<OsString>, ExitCode> {
    let words = device::take_device(words)?;
    let (words, limit) = time_limit::take_time_limit(words)?;
    if let Some(limit) = limit {
        let command = words
            .get(1)
            .map(|w| w.to_string_lossy().into_owned())
            .unwrap_or_default();
        time_limit::start(limit, &command);
    }
    Ok(words)
}

/// The game command a [`Slot::Via`] flag selects among `words` (the program name first),
/// run; `None` when no such flag is given.
fn run_via(words: &[OsString]) -> Option<ExitCode> {
    let shell = words.get(1)?.to_str()?;
    let rest = &words[2..];
    let via = game_commands().into_iter().find(|c| match c.slot {
        Slot::Via { command, flag } => {
            command == shell
                && rest.iter().any(|w| {
                    let w = w.to_string_lossy();
                    w == format!("--{flag}") || w.starts_with(&format!("--{flag}="))
                })
        }
        _ => false,
    })?;
    let cli = clap_command(&via).bin_name(format!("level-studio {shell}"));
    Some(match cli.try_get_matches_from(&words[1..]) {
        Ok(matches) => {
            if device::takes_device(shell) {
                device::announce();
            }
            finish((via.run)(&matches))
        }
        Err(e) => clap_exit(&e),
    })
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
    let words = match take_process_flags(words.into_iter().map(Into::into).collect()) {
        Ok(words) => words,
        Err(code) => return Ok(Some(code)),
    };
    if let Some(code) = run_via(&words) {
        return Ok(Some(code));
    }
    Ok(run_matches(command().try_get_matches_from(words)?))
}

fn run_matches(matches: clap::ArgMatches) -> Option<ExitCode> {
    if let Some((name, sub)) = matches.subcommand() {
        let own = game_commands()
            .into_iter()
            .find(|c| matches!(c.slot, Slot::Own { name: n, .. } if n == name));
        if let Some(own) = own {
            return Some(finish((own.run)(sub)));
        }
    }
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => run(cli),
        Err(e) => Some(clap_exit(&e)),
    }
}

/// Prints clap's message (help, version or an error) and answers its exit code.
fn clap_exit(e: &clap::Error) -> ExitCode {
    let _ = e.print();
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Option<ExitCode> {
    let command = cli.command?;
    match &command {
        Command::Generate(_) | Command::Interpolate(_) => device::announce(),
        Command::Train(words) | Command::Eval(words) if !eval::wants_help(&words.words) => {
            device::announce();
        }
        _ => {}
    }
    let result = match command {
        Command::List(args) => list::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Graph(args) => graph::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Train(words) => train::run(&words.words),
        Command::Eval(words) => eval::run(&words.words),
        Command::Play(words) => play::run(&words.words),
        Command::Import(args) => import::run(&args),
        Command::Interpolate(args) => interpolate::run(&args),
        Command::Pack(args) => pack_cmd::run(&args),
    };
    Some(finish(result))
}

/// Prints the top-level help.
pub fn print_help() {
    let _ = command().print_help();
    println!();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(slot: Slot, models: &'static [&'static str]) -> GameCommand {
        GameCommand {
            game: GameId::new("toy"),
            slot,
            models,
            args: |c| c,
            run: |_| Ok(ExitCode::SUCCESS),
            bounds: &[],
            example: &[],
        }
    }

    #[test]
    fn a_command_is_named_by_what_it_answers() {
        assert_eq!(
            command_names(&command(Slot::Eval, &["a", "b"])),
            ["eval --game toy --model a", "eval --game toy --model b"]
        );
        assert_eq!(
            command_names(&command(Slot::Train, &["Toy-Net"])),
            ["train --model toy-net"]
        );
        assert_eq!(
            command_names(&command(Slot::Play, &[])),
            ["play --game toy"]
        );
    }

    #[test]
    #[should_panic(expected = "two plug-ins register the sub-command dataset")]
    fn a_second_sub_command_of_one_name_is_refused() {
        let own = Slot::Own {
            name: "dataset",
            about: "",
        };
        let mut registry = registry::Registry::default();
        registry.add_command(command(own, &[]));
        registry.add_command(command(own, &[]));
    }
}
