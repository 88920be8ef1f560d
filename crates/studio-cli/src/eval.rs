//! `eval`: the metric sweep of a generator, run by its game's own command with that game's
//! flags ([`GameCommand`](crate::GameCommand) in [`Slot::Eval`]).

use crate::{clap_command, clap_exit, game_commands, GameCommand, Slot};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::ffi::OsString;
use std::process::ExitCode;
use studio_core::game::{registry, GameId};

/// The flags every game's `eval` takes: a game's flag struct flattens it
/// (`#[command(flatten)] common: EvalCommon`).
#[derive(Args, Clone, Debug)]
pub struct EvalCommon {
    /// The game (`level-studio list` shows them); without it, the game that owns --model.
    #[arg(long)]
    pub game: Option<GameId>,
    /// The generator or model to evaluate (`level-studio eval --game GAME --help` lists the
    /// game's).
    #[arg(long, default_value = "")]
    pub model: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl EvalCommon {
    /// The model asked for.
    ///
    /// # Errors
    /// No `--model` was given.
    pub fn model(&self) -> Result<&str> {
        if self.model.is_empty() {
            bail!("eval needs --model MODEL (the generator or model to evaluate; see `list`)");
        }
        Ok(&self.model)
    }
}

/// The value of `--flag` in `words` (`--flag value` or `--flag=value`), before any `--`.
pub(crate) fn flag_value(words: &[OsString], flag: &str) -> Option<String> {
    let long = format!("--{flag}");
    let mut it = words.iter().map(|w| w.to_string_lossy());
    while let Some(word) = it.next() {
        if word == "--" {
            break;
        }
        if word == long {
            return it.next().map(|v| v.into_owned());
        }
        if let Some(value) = word.strip_prefix(&format!("{long}=")) {
            return Some(value.to_string());
        }
    }
    None
}

/// True when the words ask for help.
pub(crate) fn wants_help(words: &[OsString]) -> bool {
    words.iter().any(|w| w == "--help" || w == "-h")
}

/// Runs `eval` on its words: finds the game (`--game`, or the game whose models include
/// `--model`), then parses the words with that game's flags and runs its sweep.
///
/// # Errors
/// An unknown game or model, or the sweep's own error.
pub fn run(words: &[OsString]) -> Result<ExitCode> {
    let evals: Vec<_> = game_commands()
        .into_iter()
        .filter(|c| c.slot == Slot::Eval)
        .collect();
    let game = flag_value(words, "game");
    let model = flag_value(words, "model");
    if model
        .as_deref()
        .is_some_and(crate::level_vae::is_model_file)
    {
        return crate::level_vae::eval(words);
    }
    let command: &GameCommand = match (&game, &model) {
        (Some(name), _) => {
            let id = registry::find(name)?.id();
            evals
                .iter()
                .find(|c| c.game == id)
                .ok_or_else(|| anyhow!("{id} has no metric sweep yet"))?
        }
        // A model no game claims goes to the first game, which names its own models.
        (None, Some(model)) => evals
            .iter()
            .find(|c| c.models.contains(&model.as_str()))
            .or_else(|| evals.iter().find(|c| c.game == GameId::default()))
            .ok_or_else(|| {
                anyhow!(
                    "no game evaluates a model {model:?} ({}); give --game GAME",
                    listing(&evals)
                )
            })?,
        (None, None) if wants_help(words) => {
            println!(
                "The metric sweep of a game's generator or model.\n\nUsage: level-studio eval \
                 --game GAME --model MODEL [FLAGS]\n\nEach game has its own flags: \
                 `level-studio eval --game GAME --help` lists them.\n\nModels: {}",
                listing(&evals)
            );
            return Ok(ExitCode::SUCCESS);
        }
        (None, None) => bail!(
            "eval needs --model MODEL (the generator or model to evaluate; see `list`) or \
             --game GAME"
        ),
    };
    let cli = clap_command(command).bin_name("level-studio eval");
    let parsed = std::iter::once(OsString::from("eval")).chain(words.iter().cloned());
    match cli.try_get_matches_from(parsed) {
        Ok(matches) => (command.run)(&matches),
        Err(e) => Ok(clap_exit(&e)),
    }
}

/// "game: model, model; game: …" for help and errors.
pub(crate) fn listing(commands: &[std::sync::Arc<GameCommand>]) -> String {
    commands
        .iter()
        .map(|c| format!("{}: {}", c.game, c.models.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}
