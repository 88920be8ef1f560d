//! `play`: plays a level headless with a game's own flags (`play --game mario LEVEL --actions
//! SCRIPT --trace`), run by the game's command in [`Slot::Play`](crate::Slot::Play).

use crate::eval::{flag_value, wants_help};
use crate::{clap_command, clap_exit, game_commands, Slot};
use anyhow::{anyhow, bail, Result};
use std::ffi::OsString;
use std::process::ExitCode;
use studio_core::game::registry;

/// Runs `play` on its words: finds the game named by `--game`, then parses the words with
/// that game's flags and plays.
///
/// # Errors
/// No or an unknown game, a game that has no `play` yet, or the game's own error.
pub fn run(words: &[OsString]) -> Result<ExitCode> {
    let plays: Vec<_> = game_commands()
        .into_iter()
        .filter(|c| c.slot == Slot::Play)
        .collect();
    let games = plays
        .iter()
        .map(|c| c.game.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let Some(name) = flag_value(words, "game") else {
        if wants_help(words) {
            println!(
                "Play a level headless: a button script, tick by tick.\n\nUsage: level-studio \
                 play --game GAME LEVEL [FLAGS]\n\nEach game has its own flags: `level-studio \
                 play --game GAME --help` lists them.\n\nGames: {games}"
            );
            return Ok(ExitCode::SUCCESS);
        }
        bail!("play needs --game GAME (games that play headless: {games})");
    };
    let id = registry::find(&name)?.id();
    let command = plays
        .iter()
        .find(|c| c.game == id)
        .ok_or_else(|| anyhow!("{id} has no headless play yet (games that have: {games})"))?;
    let cli = clap_command(command).bin_name("level-studio play");
    let parsed = std::iter::once(OsString::from("play")).chain(words.iter().cloned());
    match cli.try_get_matches_from(parsed) {
        Ok(matches) => (command.run)(&matches),
        Err(e) => Ok(clap_exit(&e)),
    }
}
