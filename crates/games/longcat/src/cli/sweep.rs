//! Longcat sub-commands: generate, eval and train (owned by the Longcat engine).

use super::EvalArgs;

use super::TrainArgs;
use crate::eval::{evaluate, EvalConfig};
use crate::ridge::training::{
    generated_training_set, playtest_training_set, DEFAULT_ALPHA, TRAINING_ATTEMPTS,
};
use crate::{RandomGenerator, DEFAULT_BUDGET};
use anyhow::{bail, Result};
use std::process::ExitCode;
use studio_core::io;

/// The default board size of the Longcat generators (the thesis's 8×8).
const DEFAULT_SIZE: (usize, usize) = (8, 8);

fn generator(model: &str) -> Result<RandomGenerator> {
    if model == "longcat-dqn" {
        bail!("the Longcat DQN generator is not available yet (puzzle-up, solution-down)");
    }
    Ok(RandomGenerator::from_name(model)?)
}

pub fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let generator = generator(&args.common.model)?;
    if args.weights.is_some() || args.data.is_some() {
        bail!(
            "--weights and --data do not apply to the {} generator",
            generator.name()
        );
    }
    let (width, height) = args.size.unwrap_or(DEFAULT_SIZE);
    let config = EvalConfig {
        generator,
        width,
        height,
        attempts: args.attempts,
        seed: args.common.seed,
        budget: DEFAULT_BUDGET,
    };
    let report = evaluate(&config)?;
    if args.common.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{}", report.to_table());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn train(args: &TrainArgs) -> Result<ExitCode> {
    if args.common.model != "longcat-ridge" {
        bail!("unknown model {:?} (longcat-ridge)", args.common.model);
    }
    if args.epochs.is_some() || args.size.is_some() {
        bail!("--epochs and --size do not apply to longcat-ridge");
    }
    let (set, label, provenance) = match &args.data {
        Some(csv) => {
            eprintln!("reading playtests from {}", csv.display());
            let set = playtest_training_set(csv)?;
            let how = format!(
                "level-studio train --model longcat-ridge --data {} --out {}",
                csv.display(),
                args.common.out.display()
            );
            (set, "mean seconds", how)
        }
        None => {
            eprintln!(
                "labelling generated levels with the player model (seed {})…",
                args.common.seed
            );
            let set = generated_training_set(args.common.seed);
            let how = format!(
                "level-studio train --model longcat-ridge --seed {} --out {}: ridge (alpha {DEFAULT_ALPHA}, standardised features) on the player-model difficulty of the unique solvable levels from {TRAINING_ATTEMPTS} solution-down and {TRAINING_ATTEMPTS} puzzle-up attempts at each of 5x5, 6x6, 7x7, 8x8, 9x9, 10x10",
                args.common.seed,
                args.common.out.display()
            );
            (set, "player-model difficulty", how)
        }
    };
    let model = set.fit(DEFAULT_ALPHA, label, &provenance)?;
    io::write_atomic(&args.common.out, model.to_ron()?.as_bytes())?;
    println!(
        "fitted longcat-ridge on {} levels: training MSE {:.3}, R² {:.3}; wrote {}",
        model.rows,
        model.training_mse,
        model.training_r2,
        args.common.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
