//! The command line's VGDL commands: `play --vgdl`, `list --vgdl`, `generate --vgdl` and
//! `eval --vgdl`.

pub mod evolve;
pub mod list;
pub mod play;
pub mod profile;
mod profile_shards;

use clap::{Args, FromArgMatches};
use studio_cli::bounds::{bound, Bound, Range, AGENT_GAMES};
use studio_cli::{GameCommand, RegisterCommands, Slot};

const GENERATE_BOUNDS: &[Bound] = &[
    bound(
        &["generate"],
        "count",
        Range::Whole(studio_cli::bounds::ROOMS),
    ),
    bound(&["generate"], "seed", Range::Seed),
    bound(
        &["generate"],
        "population",
        Range::Whole(studio_cli::bounds::POPULATION),
    ),
    bound(
        &["generate"],
        "generations",
        Range::Whole(studio_cli::bounds::GENERATIONS),
    ),
    bound(&["generate"], "ticks", Range::Whole(evolve::TICKS)),
];
const EVAL_BOUNDS: &[Bound] = &[
    bound(&["eval"], "games", Range::Whole(AGENT_GAMES)),
    bound(&["eval"], "seed", Range::Seed),
    bound(&["eval"], "budget", Range::Whole(evolve::BUDGET)),
    bound(&["eval"], "ticks", Range::Whole(evolve::TICKS)),
    bound(&["eval"], "levels", Range::Whole(profile::LEVELS)),
    bound(&["eval"], "resamples", Range::Whole(profile::RESAMPLES)),
    bound(
        &["eval"],
        "population",
        Range::Whole(studio_cli::bounds::POPULATION),
    ),
    bound(
        &["eval"],
        "generations",
        Range::Whole(studio_cli::bounds::GENERATIONS),
    ),
];
const PLAY_BOUNDS: &[Bound] = &[
    bound(&["play"], "games", Range::Whole(AGENT_GAMES)),
    bound(&["play"], "seed", Range::Seed),
    bound(&["play"], "budget", Range::Whole(play::SEARCH_STATES)),
];
use studio_core::game::registry::Registry;

/// Adds `play --vgdl` and `list --vgdl` to the command line.
pub fn commands(registry: &mut Registry) {
    registry.add_command(GameCommand {
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
    registry.add_command(GameCommand {
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
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Via {
            command: "generate",
            flag: "vgdl",
        },
        models: &["fi2pop"],
        args: evolve::GenerateArgs::augment_args,
        run: |m| evolve::generate(&evolve::GenerateArgs::from_arg_matches(m)?),
        bounds: GENERATE_BOUNDS,
        example: &["generate", "--vgdl", "game.txt", "--out", "out.ron"],
    });
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Via {
            command: "eval",
            flag: "vgdl",
        },
        models: &["fi2pop"],
        args: profile::EvalArgs::augment_args,
        run: |m| profile::eval(&profile::EvalArgs::from_arg_matches(m)?),
        bounds: EVAL_BOUNDS,
        example: &[
            "eval",
            "--vgdl",
            "game.txt",
            "--profile",
            "alpha.ron",
            "beta.ron",
        ],
    });
}
