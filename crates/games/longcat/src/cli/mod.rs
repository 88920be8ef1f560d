//! Longcat's own sub-commands: the generator sweep and the ridge predictor's training
//! (`sweep.rs`), and the DQN's evaluation and training (`dqn.rs`), added to the command line
//! by [`commands`].

mod dqn;
mod sweep;

use clap::{Args, FromArgMatches};
use std::path::PathBuf;
use studio_cli::bounds::{self, bound, Bound, Range};
use studio_cli::{EvalCommon, GameCommand, RegisterCommands, Slot, TrainCommon};
use studio_core::game::registry::Registry;

/// The models `train` builds for Longcat.
pub const MODELS: [&str; 2] = ["longcat-ridge", "longcat-dqn"];

/// The generators and models `eval` sweeps.
pub const EVAL_MODELS: [&str; 3] = ["puzzle-up", "solution-down", "longcat-dqn"];

/// `eval --game longcat`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// --game, --model, --json, --seed.
    #[command(flatten)]
    pub common: EvalCommon,
    /// Generation attempts, 1 to 200,000 (default 20,000).
    #[arg(long, default_value_t = 20_000, value_parser = bounds::ATTEMPTS.parser::<usize>())]
    pub attempts: usize,
    /// Level size as WxH, each side 1 to 64 cells (Longcat takes 2x2 to 10x10).
    #[arg(long, value_parser = bounds::parse_size)]
    pub size: Option<(usize, usize)>,
    /// longcat-dqn: model weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// longcat-dqn: write a plot of the evaluation here (PNG).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Not taken by the generator sweeps (refused in words).
    #[arg(long, hide = true)]
    pub data: Option<PathBuf>,
    /// longcat-dqn: randomized initialization, one row per number of random first walk
    /// steps ("1,2,3"), each 0 to 99 (up to one less than the model's board has cells), at
    /// most 100 values.
    #[arg(long, value_delimiter = ',', value_parser = bounds::RI.parser::<usize>())]
    pub ri: Vec<usize>,
    /// longcat-dqn --ri: levels per row, 2 to 10,000 (default 1,000).
    #[arg(long, value_parser = bounds::SWEEP_LEVELS.parser::<u64>())]
    pub count: Option<u64>,
}

/// `train --model longcat-ridge|longcat-dqn`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// --model, --out, --seed.
    #[command(flatten)]
    pub common: TrainCommon,
    /// longcat-ridge: the playtest CSV to train on.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// longcat-dqn: training steps, 1 to 1,000,000, instead of the default.
    #[arg(long, value_parser = bounds::EPOCHS.parser::<usize>())]
    pub epochs: Option<usize>,
    /// longcat-dqn: board size as WxH, each side 1 to 64 cells (the DQN takes 2x2 to 10x10).
    #[arg(long, value_parser = bounds::parse_size, allow_hyphen_values = true)]
    pub size: Option<(usize, usize)>,
    /// longcat-dqn: virtual completions per step, 0 to 100 (virtual simulation; 0: the
    /// shipped rewards).
    #[arg(long, default_value_t = 0, value_parser = bounds::VIRTUAL_COMPLETIONS.parser::<usize>())]
    pub virtual_completions: usize,
    /// Do not train: write the length and hash of the existing weights at --out into their
    /// sidecar (for sidecars written before they carried one). Only for weights you trust.
    #[arg(long)]
    pub restamp: bool,
}

const EVAL_BOUNDS: &[Bound] = &[
    bound(&["eval"], "attempts", Range::Whole(bounds::ATTEMPTS)),
    bound(&["eval"], "size", Range::Size),
    bound(&["eval"], "ri", Range::Whole(bounds::RI)),
    bound(&["eval"], "count", Range::Whole(bounds::SWEEP_LEVELS)),
];

const TRAIN_BOUNDS: &[Bound] = &[
    bound(&["train"], "epochs", Range::Whole(bounds::EPOCHS)),
    bound(&["train"], "size", Range::Size),
    bound(
        &["train"],
        "virtual-completions",
        Range::Whole(bounds::VIRTUAL_COMPLETIONS),
    ),
];

/// Adds Longcat's `eval` and `train` to the command line.
pub fn commands(registry: &mut Registry) {
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Eval,
        models: &EVAL_MODELS,
        args: EvalArgs::augment_args,
        run: |m| {
            let args = EvalArgs::from_arg_matches(m)?;
            bounds::check_ri_rows(&args.ri)?;
            match args.common.model()? {
                "longcat-dqn" => dqn::eval(&args),
                _ => sweep::eval(&args),
            }
        },
        bounds: EVAL_BOUNDS,
        example: &["eval", "--game", "longcat", "--model", "puzzle-up"],
    });
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Train,
        models: &MODELS,
        args: TrainArgs::augment_args,
        run: |m| {
            let args = TrainArgs::from_arg_matches(m)?;
            match args.common.model.as_str() {
                "longcat-dqn" => dqn::train(&args),
                _ => sweep::train(&args),
            }
        },
        bounds: TRAIN_BOUNDS,
        example: &[
            "train",
            "--model",
            "longcat-dqn",
            "--out",
            "never.safetensors",
        ],
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_longest_random_start_is_the_largest_boards_walk() {
        let side = crate::level::MAX_SIDE as u64;
        assert_eq!(studio_cli::bounds::RI.max, side * side - 1);
    }
}
