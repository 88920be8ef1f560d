//! Match-3 model sub-commands: generate, eval and train for the Avalon and Vanilla cVAEs.

use super::EvalArgs;
use studio_cli::bounds;

use super::TrainArgs;
use crate::cvae::{
    self, CvaeModel, CvaeProgress, CvaeTrainConfig, ModelKind, SweepMetrics, TrainingSet,
};
use crate::ValidationConfig;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The default dataset.
const MAIN_DATA: &str = "levels/match3/main";

/// The shipped weights of a model name (avalon, vanilla, avalon-stylized, vanilla-stylized,
/// avalon-main, vanilla-main).
fn shipped_weights(name: &str) -> Result<PathBuf> {
    let file = match name {
        "avalon" | "avalon-paperlike" => "avalon-paperlike",
        "vanilla" | "vanilla-paperlike" => "vanilla-paperlike",
        "avalon-stylized" => "avalon-stylized",
        "vanilla-stylized" => "vanilla-stylized",
        "avalon-main" => "avalon-main",
        "vanilla-main" => "vanilla-main",
        other => bail!("unknown match-3 model {other:?} (synth, avalon, vanilla, avalon-stylized, vanilla-stylized, avalon-main, vanilla-main)"),
    };
    Ok(PathBuf::from(format!("models/{file}.safetensors")))
}

fn load_generator(name: &str, weights: Option<&PathBuf>) -> Result<CvaeModel> {
    let path = match weights {
        Some(p) => p.clone(),
        None => shipped_weights(name)?,
    };
    Ok(CvaeModel::load(&path)?)
}

pub fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let config = ValidationConfig {
        seed: args.common.seed,
        ..Default::default()
    };
    let started = Instant::now();
    // As the window's conditions: fresh levels unless --fresh 0; temperature 0 is the default.
    let temperature = args.temperature.filter(|&t| t > 0.0);
    let given_fresh = args.fresh.filter(|&n| n > 0);
    let decoding = if args.raw {
        cvae::Decoding::Raw
    } else {
        cvae::Decoding::chosen(args.fresh.map(|n| n as usize), temperature)
    };
    if args.validated {
        if temperature.is_some() || args.raw {
            bail!("--validated sweeps fresh levels (or --fresh N); it takes no --temperature or --raw");
        }
        return eval_validated(args, decoding);
    }
    if temperature.is_some() && args.raw {
        bail!("--temperature draws cells; --raw measures the decoder alone: give one of them");
    }
    if given_fresh.is_some() && args.raw {
        bail!("--fresh draws new levels; --raw measures the decoder alone: give one of them");
    }
    let (label, metrics) = if args.common.model == "dataset" {
        let dir = args
            .data
            .clone()
            .unwrap_or_else(|| PathBuf::from(MAIN_DATA));
        let train = TrainingSet::load(&dir)?;
        let test = TrainingSet::load_split(&dir, "test")?;
        let report = cvae::dataset_baseline(&test.samples, &train.samples, &config);
        (
            format!("dataset {} (test split)", dir.display()),
            report.metrics,
        )
    } else {
        let generator = load_generator(&args.common.model, args.weights.as_ref())?;
        let dir = args
            .data
            .clone()
            .unwrap_or_else(|| PathBuf::from(&generator.sidecar().training.data));
        let train = TrainingSet::load(&dir)?;
        // Fresh levels are measured against the same training set as the metrics.
        generator.set_training(&train.samples);
        let report = cvae::sweep::run_sweep_with(
            &generator,
            &train.samples,
            args.common.seed,
            &config,
            decoding,
        )?;
        (
            match decoding {
                cvae::Decoding::Raw => format!("{} (decoder alone)", args.common.model),
                cvae::Decoding::Sampled { temperature } => {
                    format!("{} (cells drawn at temperature {temperature})", args.common.model)
                }
                cvae::Decoding::Fresh {
                    min_distance,
                    temperature,
                } => format!(
                    "{} (cells drawn from temperature {temperature} until {min_distance} cells from the training set)",
                    args.common.model
                ),
                cvae::Decoding::Novel => {
                    format!("{} (argmax, copies edited in one or two cells)", args.common.model)
                }
            },
            report.metrics,
        )
    };
    if args.common.json {
        println!("{}", serde_json::to_string(&metrics)?);
    } else {
        print_table(&label, &metrics, started.elapsed().as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}

/// Validated generation over the sweep conditions: what share of what it hands out is valid
/// at the requested moves, and what each accepted level costs.
fn eval_validated(args: &EvalArgs, decoding: cvae::Decoding) -> Result<ExitCode> {
    let generator = load_generator(&args.common.model, args.weights.as_ref())?;
    generator.check_decoding(decoding)?;
    // clap has checked --budget, --margin (below the tolerance) and --limit-margin.
    let (budget, tolerance) = (args.budget as usize, bounds::SWEEP_TOLERANCE);
    let r = cvae::validated_sweep(
        &generator,
        args.common.seed,
        budget,
        tolerance,
        args.margin,
        args.limit_margin,
        decoding,
    )?;
    if args.common.json {
        println!("{}", serde_json::to_string(&r)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}: validated generation over the {} sweep conditions (budget {budget}, tolerance ±{tolerance} moves)", args.common.model, r.conditions);
    println!("  outside the training coverage    {} (moved to the nearest covered moves, or skipped when no level of that size is valid)", r.infeasible);
    println!("  skipped (no valid layout at that size)  {}", r.skipped);
    println!(
        "  no level of the size promisable  {} (the size's easiest known layout takes more moves than a promised level may; not generated)",
        r.unpromisable
    );
    println!(
        "  beyond the margin                {} (moves too near the limit of {} to promise; moved down to the most that can be)",
        r.beyond_margin,
        crate::ValidationConfig::default().limit
    );
    let promisable = r.conditions - r.skipped - r.unpromisable;
    println!(
        "  conditions fulfilled             {} of {} ({} of the {} not skipped; {:.1} % of the {promisable} whose size has a level that can be promised)",
        r.fulfilled,
        r.conditions,
        r.fulfilled,
        r.conditions - r.skipped,
        100.0 * r.fulfilled as f64 / promisable.max(1) as f64
    );
    println!(
        "  accepted / generated             {} / {} ({} bot games, early-stopped)",
        r.accepted, r.attempts, r.games
    );
    println!(
        "  re-validated (bot seed {}, one 30-game validation): valid {:.2} %, valid and within ±{tolerance} moves {:.2} %",
        args.common.seed + 1000,
        100.0 * r.revalidated_valid,
        100.0 * r.revalidated_on_target
    );
    println!(
        "  … with 120 games (as many as accepted them)  valid {:.2} %, valid and within ±{tolerance} moves {:.2} %",
        100.0 * r.revalidated_valid_long,
        100.0 * r.revalidated_on_target_long
    );
    println!(
        "  cost per accepted level          {:.1} ms",
        r.ms_per_accepted
    );
    Ok(ExitCode::SUCCESS)
}

fn print_table(label: &str, m: &SweepMetrics, seconds: f64) {
    let pct = |x: f64| format!("{:6.2} %", 100.0 * x);
    println!(
        "{label}: {} levels, bots validating every level ({seconds:.1} s)",
        m.levels
    );
    println!("  size accuracy               {}", pct(m.size_accuracy));
    println!("  diversity (distinct pairs)  {}", pct(m.diversity));
    match m.plagiarism_raw {
        Some(raw) => println!(
            "  plagiarism                  {}   (decoder alone, before copies are made novel: {})",
            pct(m.plagiarism),
            pct(raw).trim()
        ),
        None => println!("  plagiarism                  {}", pct(m.plagiarism)),
    }
    match (
        m.difficulty_accuracy,
        m.difficulty_mean_distance,
        m.difficulty_std_distance,
    ) {
        (Some(a), Some(mean), Some(std)) => {
            println!("  difficulty accuracy         {}   |condition - validated| {mean:.2} ± {std:.2} moves", pct(a))
        }
        _ => println!("  difficulty accuracy            n/a"),
    }
    println!("  valid share                 {}", pct(m.valid));
    println!(
        "  tile-distribution accuracy  {}",
        pct(m.tile_distribution_accuracy)
    );
    println!(
        "  ms per level (batch of {})  {:8.4}",
        m.levels, m.ms_per_level
    );
    if let Some(v) = m.variety {
        println!(
            "  variety within a condition  {}   (distinct levels among {} per condition; decoder alone {}; not in the paper)",
            pct(v),
            cvae::metrics::VARIETY_SAMPLES,
            m.variety_raw.map_or("n/a".into(), |r| pct(r).trim().to_string())
        );
    }
    if let Some(d) = m.nearest_training_distance_median {
        println!(
            "  nearest training layout     {d:.1} cells (median; decoder alone {}; not in the paper)",
            m.nearest_training_distance_median_raw
                .map_or("n/a".into(), |r| format!("{r:.1}"))
        );
    }
    if let Some(h) = &m.nearest_training_distance_histogram {
        let bins: Vec<String> = h
            .iter()
            .enumerate()
            .map(|(k, n)| {
                if k == 10 {
                    format!("≥10:{n}")
                } else {
                    format!("{k}:{n}")
                }
            })
            .collect();
        println!("  … distances (cells: levels)  {}", bins.join(" "));
    }
    if let (Some(b), Some(bt), Some(o), Some(ot)) = (
        m.blocked_share_median,
        m.blocked_share_median_training,
        m.nearly_open_share,
        m.nearly_open_share_training,
    ) {
        println!(
            "  blocked share (median)      {}   (training layouts of the same sizes: {})",
            pct(b),
            pct(bt).trim()
        );
        println!(
            "  nearly open (≤ 5 % blocked) {}   (training layouts of the same sizes: {})",
            pct(o),
            pct(ot).trim()
        );
    }
}

pub fn train(args: &TrainArgs) -> Result<ExitCode> {
    let kind: ModelKind = args.common.model.parse().map_err(anyhow::Error::msg)?;
    if args.restamp {
        studio_ml::restamp::<crate::cvae::Sidecar>(&args.common.out).map_err(anyhow::Error::msg)?;
        println!(
            "stamped {}",
            studio_ml::sidecar_path(&args.common.out).display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let dir = args
        .data
        .clone()
        .unwrap_or_else(|| PathBuf::from(MAIN_DATA));
    let set = TrainingSet::load(&dir)?;
    let mut config = CvaeTrainConfig::for_set(kind, args.common.seed, set.samples.len());
    // clap has checked every number against its range in `bounds`.
    if let Some(e) = args.epochs {
        config.epochs = e;
    }
    config.checkpoint_every = (config.epochs / args.checkpoints).max(1);
    config.selection_sweeps = args.selection_sweeps;
    config.valid_repeats = args.valid_repeats;
    config.kl_weight = args.kl_weight;
    config.free_bits = args.free_bits;
    config.blocked_weight = args.blocked_weight;
    config.max_copies = args.max_copies;
    let stem = args
        .common
        .out
        .file_stem()
        .map_or_else(|| "model".into(), |s| s.to_string_lossy().into_owned());
    config.checkpoint_dir = Some(Path::new("checkpoints").join(&stem));
    eprintln!(
        "training {kind} on {} ({} levels, valid ones ×{}, KL weight {}, BLOCK/GAP weight {}): {} epochs, batch {}, AdamW lr {}, seed {}; checkpoints every {} epochs in {}",
        dir.display(),
        set.samples.len(),
        config.valid_repeats,
        config.kl_weight,
        config.blocked_weight,
        config.epochs,
        config.batch_size,
        config.learning_rate,
        config.seed,
        config.checkpoint_every,
        Path::new("checkpoints").join(&stem).display()
    );
    let started = Instant::now();
    let trained = cvae::train(&config, &set, |p| match p {
        CvaeProgress::Epoch { epoch, epochs, loss, reconstruction, kl } => {
            let filled = epoch * 30 / epochs;
            eprint!(
                "\r[{}{}] epoch {epoch}/{epochs}  loss {loss:.3} (ce {reconstruction:.3}, kl {kl:.3})  {:.0} s ",
                "#".repeat(filled),
                " ".repeat(30 - filled),
                started.elapsed().as_secs_f64()
            );
            let _ = std::io::stderr().flush();
        }
        CvaeProgress::Checkpoint { epoch, metrics, score, best } => {
            eprintln!(
                "\n  checkpoint {epoch}: score {score:.3}  size {:.3} diversity {:.3} tiles {:.3} difficulty {} valid {:.3} copies {:.3}{}",
                metrics.size_accuracy,
                metrics.diversity,
                metrics.tile_distribution_accuracy,
                metrics.difficulty_accuracy.map_or("-".into(), |d| format!("{d:.3}")),
                metrics.valid,
                metrics.plagiarism,
                if best { "  (best so far)" } else { "" }
            );
        }
    })
    .context("training failed")?;
    trained.save(&args.common.out)?;
    let t = &trained.sidecar.training;
    println!(
        "wrote {} (+ .ron): selected epoch {} of {}, {:.0} s, selection score {:.3}",
        args.common.out.display(),
        t.selected_epoch,
        t.epochs,
        t.seconds,
        trained.sidecar.metrics.selection_score()
    );
    Ok(ExitCode::SUCCESS)
}
