//! `train`: train a model with progress and checkpoints, by the game that owns the model
//! ([`GameCommand`](crate::GameCommand) in [`Slot::Train`]), with that game's flags.

use crate::eval::{flag_value, listing, wants_help};
use crate::{clap_command, clap_exit, game_commands, Slot};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// The flags every game's `train` takes: a game's flag struct flattens it
/// (`#[command(flatten)] common: TrainCommon`).
#[derive(Args, Clone, Debug)]
pub struct TrainCommon {
    /// The model to train (`level-studio list` shows each game's).
    #[arg(long)]
    pub model: String,
    /// Where to write the trained weights.
    #[arg(long)]
    pub out: PathBuf,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs `train` on its words: finds the game that owns `--model`, parses the words with that
/// game's flags, takes the write lock on `--out` and trains.
///
/// # Errors
/// An unknown model, a locked `--out`, or the training's own error.
pub fn run(words: &[OsString]) -> Result<ExitCode> {
    let trains: Vec<_> = game_commands()
        .into_iter()
        .filter(|c| c.slot == Slot::Train)
        .collect();
    if flag_value(words, "model").is_some_and(|m| m.eq_ignore_ascii_case(crate::level_vae::MODEL)) {
        return crate::level_vae::train(words);
    }
    let Some(model) = flag_value(words, "model") else {
        if wants_help(words) {
            println!(
                "Train a model, with progress and checkpoints.\n\nUsage: level-studio train \
                 --model MODEL --out FILE [FLAGS]\n\nEach game has its own flags: \
                 `level-studio train --model MODEL --help` lists them.\n\nModels: {}; any \
                 game: level-vae (`train --model level-vae --help`)",
                listing(&trains)
            );
            return Ok(ExitCode::SUCCESS);
        }
        bail!(
            "train needs --model MODEL ({}; any game: level-vae)",
            listing(&trains)
        );
    };
    let Some(command) = trains
        .iter()
        .find(|c| c.models.iter().any(|m| m.eq_ignore_ascii_case(&model)))
    else {
        let known: Vec<&str> = trains
            .iter()
            .flat_map(|c| c.models.iter().copied())
            .collect();
        bail!(
            "unknown model {model:?} ({}, and level-vae for any game)",
            known.join(", ")
        )
    };
    let cli = clap_command(command).bin_name("level-studio train");
    let parsed = std::iter::once(OsString::from("train")).chain(words.iter().cloned());
    let matches = match cli.try_get_matches_from(parsed) {
        Ok(matches) => matches,
        Err(e) => return Ok(clap_exit(&e)),
    };
    let out = matches
        .get_one::<PathBuf>("out")
        .ok_or_else(|| anyhow!("train needs --out FILE"))?;
    // One writer onto a model at a time: a second training onto the same --out fails now,
    // not after hours of training (the lock is counted, so the run's own saves take it too).
    if let Some(folder) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|e| anyhow!("{}: {e}", folder.display()))?;
    }
    let _lock = studio_core::io::lock::WriteLock::acquire(out)?;
    (command.run)(&matches)
}

/// Refuses a model written over one of the command's own inputs (its weights or their
/// sidecar), however the two paths are spelled: a training that replaced the model it reads
/// would leave nothing that loads.
///
/// # Errors
/// The output and the input it would replace, named.
pub fn refuse_writing_over(out: &std::path::Path, inputs: &[&std::path::Path]) -> Result<()> {
    let files =
        |weights: &std::path::Path| [weights.to_path_buf(), studio_ml::sidecar_path(weights)];
    for written in files(out) {
        let Some(written_at) = resolved(&written) else {
            continue;
        };
        for input in inputs.iter().flat_map(|i| files(i)) {
            if resolved(&input).is_some_and(|read_at| read_at == written_at) {
                bail!(
                    "--out {}: it would write over {}, which this command reads; write the \
                     model to another name",
                    out.display(),
                    input.display()
                );
            }
        }
    }
    Ok(())
}

/// Where a path points once `..`, `.` and links are followed: the file itself when it exists,
/// else its folder's real path and its name.
fn resolved(path: &std::path::Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let name = path.file_name()?;
    let folder = studio_core::io::folder_of(path);
    std::fs::canonicalize(folder).ok().map(|f| f.join(name))
}
