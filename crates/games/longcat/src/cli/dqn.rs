//! `train|generate|eval --model longcat-dqn`: the learned Longcat generator from the command line.

use super::EvalArgs;

use super::TrainArgs;
use crate::dqn::train::{train as train_dqn, DqnTrainConfig};
use crate::dqn::{eval, model, DqnModel};
use anyhow::{bail, Result};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

fn weights_path(given: &Option<PathBuf>) -> PathBuf {
    given
        .clone()
        .unwrap_or_else(|| PathBuf::from(model::SHIPPED_WEIGHTS))
}

pub fn train(args: &TrainArgs) -> Result<ExitCode> {
    if args.restamp {
        studio_ml::restamp::<model::DqnSidecar>(&args.common.out).map_err(anyhow::Error::msg)?;
        println!(
            "stamped {}",
            model::sidecar_path(&args.common.out).display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let (w, h) = args.size.unwrap_or((8, 8));
    if w < 2 || h < 2 || w > 10 || h > 10 {
        bail!("size {w}x{h} is outside Longcat's 2x2..10x10");
    }
    // Small matrices: one thread is faster than two that wait on each other, and it keeps
    // the summation order (and so the weights) the same on every machine.
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        std::env::set_var("RAYON_NUM_THREADS", "1");
    }
    let mut config = DqnTrainConfig::new(w, h, args.common.seed);
    // clap has checked --epochs (1 to 1,000,000) and --virtual-completions (0 to 100).
    if let Some(steps) = args.epochs {
        config.steps = steps;
    }
    config.virtual_completions = args.virtual_completions;
    config.checkpoint = Some(args.common.out.clone());
    eprintln!(
        "training longcat-dqn {w}x{h}: {} steps, seed {}",
        config.steps, config.seed
    );
    let (varmap, sidecar) = train_dqn(&config, &mut |p| {
        let done = p.step * 30 / p.steps.max(1);
        eprint!(
            "\r[{}{}] {:>6}/{} steps  {} episodes  ε {:.2}  mean difficulty {:.2}  loss {:.4}   ",
            "#".repeat(done),
            " ".repeat(30 - done),
            p.step,
            p.steps,
            p.episodes,
            p.epsilon,
            p.mean_difficulty,
            p.loss
        );
        let _ = std::io::stderr().flush();
        true
    })?;
    eprintln!();
    model::save(&varmap, &sidecar, &args.common.out)?;
    println!(
        "saved {} ({:.0} s): mean difficulty {:.2} in the last episodes vs {:.2} for random solution-down",
        args.common.out.display(),
        sidecar.train_seconds,
        sidecar.final_mean_difficulty,
        sidecar.random_mean_difficulty
    );
    Ok(ExitCode::SUCCESS)
}

/// Refuses `--ri` steps a walk on a `width` × `height` board cannot take: each step enters a
/// cell the cat has not filled, so a walk takes at most one step fewer than the board has cells.
fn check_ri(ri: &[usize], width: usize, height: usize) -> Result<()> {
    let longest = (width * height).saturating_sub(1);
    if let Some(c) = ri.iter().find(|&&c| c > longest) {
        bail!(
            "--ri {c}: a walk on the model's {width}x{height} board takes at most {longest} \
             steps; randomize 0 to {longest}"
        );
    }
    Ok(())
}

pub fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let path = weights_path(&args.weights);
    let dqn = DqnModel::load(&path)?;
    if !args.ri.is_empty() {
        check_ri(&args.ri, dqn.sidecar.shape.width, dqn.sidecar.shape.height)?;
        let count = args.count.unwrap_or(1_000) as usize;
        let rows = eval::ri_table(&dqn, &args.ri, count, args.common.seed)?;
        if args.common.json {
            println!(
                "{}",
                serde_json::json!({
                    "model": "longcat-dqn",
                    "weights": path.display().to_string(),
                    "levels_per_row": count,
                    "seed": args.common.seed,
                    "ri": rows,
                })
            );
        } else {
            println!(
                "longcat-dqn ({}), randomized initialization: {} levels per row, greedy after the random steps (seed {})",
                path.display(),
                count,
                args.common.seed
            );
            print!("{}", eval::ri_text(&rows));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = eval::run(&dqn, args.attempts, args.common.seed, &mut |label| {
        eprintln!("evaluating {label} …")
    })?;
    if args.common.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{}", report.table());
    }
    if let Some(plot) = &args.plot {
        eval::plot(&report, plot)?;
        println!("plot written to {}", plot.display());
    }
    Ok(ExitCode::SUCCESS)
}
