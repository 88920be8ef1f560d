//! Match-3's own sub-commands: the cVAE metric sweep and training (`cvae.rs`) and the
//! dataset generator (`dataset.rs`), added to the command line by [`commands`].

mod cvae;
pub mod dataset;

use clap::{Args, FromArgMatches};
use std::path::PathBuf;
use studio_cli::bounds::{self, bound, Bound, Range};
use studio_cli::{EvalCommon, GameCommand, RegisterCommands, Slot, TrainCommon};
use studio_core::game::registry::Registry;

/// The models `train` builds for match-3.
pub const MODELS: [&str; 2] = ["avalon", "vanilla"];

/// The models `eval` sweeps (`dataset`: the training levels themselves).
pub const EVAL_MODELS: [&str; 7] = [
    "avalon",
    "vanilla",
    "avalon-stylized",
    "vanilla-stylized",
    "avalon-main",
    "vanilla-main",
    "dataset",
];

/// `eval --game match3`: the cVAE metric sweep.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// --game, --model, --json, --seed.
    #[command(flatten)]
    pub common: EvalCommon,
    /// Model weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Dataset folder (default levels/match3/main).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Measure validated generation over the sweep conditions instead.
    #[arg(long)]
    pub validated: bool,
    /// With --validated: levels generated and validated at most per condition, 1 to 100,000
    /// (default 256: what Generate and `generate --validate` give a request for one level).
    #[arg(long, default_value_t = default_budget(), value_parser = bounds::VALIDATED_BUDGET.parser::<u64>())]
    pub budget: u64,
    /// With --validated: the safety margin in moves, at least 0, less than 2 (the tolerance;
    /// see `ValidatedRequest::margin`).
    #[arg(long, default_value_t = crate::cvae::validated::DEFAULT_MARGIN, value_parser = bounds::MARGIN.parser())]
    pub margin: f64,
    /// With --validated: the safety margin below the move limit, 0 to 10 moves (see
    /// `ValidatedRequest::limit_margin`).
    #[arg(long, default_value_t = crate::cvae::validated::DEFAULT_LIMIT_MARGIN, value_parser = bounds::LIMIT_MARGIN.parser())]
    pub limit_margin: f64,
    /// Sweep the decoder's raw output (copies of training levels kept).
    #[arg(long)]
    pub raw: bool,
    /// Draw each cell from the decoder's softmax at this temperature, 0 to 3 (0: fresh
    /// levels start at 1.1; with --fresh 0 the argmax; copies of training levels drawn
    /// again).
    #[arg(long, value_parser = bounds::TEMPERATURE.parser())]
    pub temperature: Option<f64>,
    /// Draw cells until each level differs from every training layout of its size in at
    /// least N cells, 0 to 12 (default 3, as Generate; 0: the argmax with copies edited in
    /// one or two cells; the temperature, 1.1 or --temperature, rises when needed). With
    /// --validated, the levels validated generation proposes.
    #[arg(long, value_name = "N", value_parser = bounds::FRESH.parser::<u64>())]
    pub fresh: Option<u64>,
}

/// `train --model avalon|vanilla`: the cVAEs.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// --model, --out, --seed.
    #[command(flatten)]
    pub common: TrainCommon,
    /// Training data: a dataset folder.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Training epochs, 1 to 1,000,000, instead of the model's default.
    #[arg(long, value_parser = bounds::EPOCHS.parser::<usize>())]
    pub epochs: Option<usize>,
    /// Show each valid training level (median ≤ 20 moves) this many times per epoch, 1 to
    /// 100.
    #[arg(long, default_value_t = 1, value_parser = bounds::VALID_REPEATS.parser::<usize>())]
    pub valid_repeats: usize,
    /// Weight of the KL term in the loss, more than 0, at most 100.
    #[arg(long, default_value_t = 1.0, value_parser = bounds::KL_WEIGHT.parser())]
    pub kl_weight: f64,
    /// Free bits, nats per latent dimension the KL term does not charge for, 0 to 10.
    #[arg(long, default_value_t = 0.0, value_parser = bounds::FREE_BITS.parser())]
    pub free_bits: f64,
    /// Weight of a BLOCK or GAP cell in the reconstruction loss against a PLAYFIELD cell's
    /// 1, 1 to 100.
    #[arg(long, default_value_t = 1.0, value_parser = bounds::BLOCKED_WEIGHT.parser())]
    pub blocked_weight: f64,
    /// How many checkpoints the run scores (evenly spaced), 1 to 100.
    #[arg(long, default_value_t = 8, value_parser = bounds::CHECKPOINTS.parser::<usize>())]
    pub checkpoints: usize,
    /// Select only among checkpoints whose selection sweeps copy a training layout for at
    /// most this share of their raw levels, 0 to 1 (the best-scoring checkpoint when none
    /// does); by default every checkpoint may be selected.
    #[arg(long, value_name = "SHARE", value_parser = bounds::MAX_COPIES.parser())]
    pub max_copies: Option<f64>,
    /// Seeded 144-level sweeps averaged to score a checkpoint, 1 to 100.
    #[arg(long, default_value_t = 2, value_parser = bounds::SELECTION_SWEEPS.parser::<usize>())]
    pub selection_sweeps: usize,
    /// Do not train: write the length and hash of the existing weights at --out into their
    /// sidecar (for sidecars written before they carried one). Only for weights you trust.
    #[arg(long)]
    pub restamp: bool,
}

fn default_budget() -> u64 {
    crate::cvae::validated::default_budget(1) as u64
}

const EVAL_BOUNDS: &[Bound] = &[
    bound(&["eval"], "temperature", Range::Real(bounds::TEMPERATURE)),
    bound(&["eval"], "fresh", Range::Whole(bounds::FRESH)),
    bound(&["eval"], "budget", Range::Whole(bounds::VALIDATED_BUDGET)),
    bound(&["eval"], "margin", Range::Real(bounds::MARGIN)),
    bound(&["eval"], "limit-margin", Range::Real(bounds::LIMIT_MARGIN)),
];

const TRAIN_BOUNDS: &[Bound] = &[
    bound(&["train"], "epochs", Range::Whole(bounds::EPOCHS)),
    bound(
        &["train"],
        "valid-repeats",
        Range::Whole(bounds::VALID_REPEATS),
    ),
    bound(&["train"], "kl-weight", Range::Real(bounds::KL_WEIGHT)),
    bound(&["train"], "free-bits", Range::Real(bounds::FREE_BITS)),
    bound(
        &["train"],
        "blocked-weight",
        Range::Real(bounds::BLOCKED_WEIGHT),
    ),
    bound(&["train"], "checkpoints", Range::Whole(bounds::CHECKPOINTS)),
    bound(&["train"], "max-copies", Range::Real(bounds::MAX_COPIES)),
    bound(
        &["train"],
        "selection-sweeps",
        Range::Whole(bounds::SELECTION_SWEEPS),
    ),
];

const DATASET_BOUNDS: &[Bound] = &[bound(&["dataset"], "seed", Range::Seed)];

/// Adds match-3's `eval`, `train` and `dataset` to the command line.
pub fn commands(registry: &mut Registry) {
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Eval,
        models: &EVAL_MODELS,
        args: EvalArgs::augment_args,
        run: |m| {
            let args = EvalArgs::from_arg_matches(m)?;
            args.common.model()?;
            cvae::eval(&args)
        },
        bounds: EVAL_BOUNDS,
        example: &["eval", "--game", "match3", "--model", "avalon"],
    });
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Train,
        models: &MODELS,
        args: TrainArgs::augment_args,
        run: |m| cvae::train(&TrainArgs::from_arg_matches(m)?),
        bounds: TRAIN_BOUNDS,
        example: &["train", "--model", "avalon", "--out", "never.safetensors"],
    });
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Own {
            name: "dataset",
            about: "Regenerate the match-3 datasets under levels/match3 with the rule-based \
                    synthesiser",
        },
        models: &[],
        args: dataset::DatasetArgs::augment_args,
        run: |m| dataset::run(&dataset::DatasetArgs::from_arg_matches(m)?),
        bounds: DATASET_BOUNDS,
        example: &["dataset", "--out", "never"],
    });
}

#[cfg(test)]
mod tests {
    use studio_cli::bounds;

    #[test]
    fn the_command_lines_ranges_are_the_generators_own() {
        assert_eq!(bounds::FRESH.max, crate::generators::MAX_FRESH as u64);
        assert_eq!(
            bounds::TEMPERATURE.max,
            crate::generators::MAX_CELL_TEMPERATURE
        );
        assert_eq!(bounds::MOVES.max, crate::generators::MAX_TARGET_MOVES);
    }

    #[test]
    fn validated_eval_gives_each_condition_a_designers_budget() {
        // What "Validated only" and `generate --validate` give a request for one level.
        assert_eq!(super::default_budget(), 256);
        assert_eq!(
            super::default_budget() as usize,
            crate::cvae::validated::default_budget(1)
        );
    }
}
