//! The command line's VGDL commands: `play --vgdl` and `list --vgdl`.

pub mod list;
pub mod play;

use clap::{Args, FromArgMatches};
use studio_cli::bounds::{bound, Bound, Range, AGENT_GAMES};
use studio_cli::{GameCommand, Slot};

const PLAY_BOUNDS: &[Bound] = &[
    bound(&["play"], "games", Range::Whole(AGENT_GAMES)),
    bound(&["play"], "seed", Range::Seed),
    bound(&["play"], "budget", Range::Whole(play::SEARCH_STATES)),
];
use studio_core::game::registry::Registry;

/// Adds `play --vgdl` and `list --vgdl` to the command line.
pub fn commands(registry: &mut Registry) {
    registry.add(GameCommand {
        game: crate::ID,
        slot: Slot::Via {
            command: "play",
            flag: "vgdl",
        },
        models: &[],
        args: play::PlayArgs::augment_args,
        run: |m| play::run(&play::PlayArgs::from_arg_matches(m)?),
        bounds: PLAY_BOUNDS,
        example: &[
            "play",
            "--vgdl",
            "game.txt",
            "level.txt",
            "--agent",
            "random",
        ],
    });
    registry.add(GameCommand {
        game: crate::ID,
        slot: Slot::Via {
            command: "list",
            flag: "vgdl",
        },
        models: &[],
        args: list::ListArgs::augment_args,
        run: |m| list::run(&list::ListArgs::from_arg_matches(m)?),
        bounds: &[],
        example: &["list", "--vgdl", "DIR"],
    });
}
