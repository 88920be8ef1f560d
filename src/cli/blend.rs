//! `train --model blend-vglc-fc|blend-cte-fc|blend-vglc-cnn|blend-cte-cnn` and `eval --game
//! blend`: the blend VAEs and Table II.

use super::eval::EvalArgs;
use super::train::TrainArgs;
use crate::blend::data::{self, Segment};
use crate::blend::embed::{self, EmbedConfig};
use crate::blend::eval::{report, vectors, BlendReport, PAPER};
use crate::blend::lab;
use crate::blend::vae::{self, BlendModel, BlendSidecar, Family, Repr, VaeConfig, LATENT};
use crate::datasets::vglc_dir;
use crate::export::chart::Chart;
use anyhow::{anyhow, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The blend models `train` makes.
pub const MODELS: [&str; 4] = [
    "blend-vglc-fc",
    "blend-cte-fc",
    "blend-vglc-cnn",
    "blend-cte-cnn",
];

/// The models `eval --game blend` knows (the VAEs, and `dataset`: the test split itself).
pub const EVAL_MODELS: [&str; 5] = ["cte-fc", "vglc-fc", "cte-cnn", "vglc-cnn", "dataset"];

/// The family and representation of a model name (`blend-cte-cnn`, `cte-cnn`).
pub fn model_kind(name: &str) -> (Family, bool) {
    let family = if name.ends_with("-cnn") {
        Family::Cnn
    } else {
        Family::Fc
    };
    (family, name.trim_start_matches("blend-").starts_with("cte"))
}

/// The shipped weights of an eval model name.
pub fn weights_file(model: &str) -> String {
    format!("models/blend-{model}.safetensors")
}

fn data_dir(given: &Option<PathBuf>) -> PathBuf {
    given.clone().unwrap_or_else(vglc_dir)
}

fn load_split(dir: &Path) -> Result<data::Split> {
    let all = data::load(dir)
        .map_err(|e| anyhow!("{e} (the VGLC text levels: pass --data DIR or set VGLC_DIR)"))?;
    Ok(data::split(all, 0))
}

/// Trains a blend model, when `--model` is one.
pub fn train(args: &TrainArgs) -> Option<Result<ExitCode>> {
    MODELS
        .contains(&args.model.as_str())
        .then(|| train_model(args))
}

fn train_model(args: &TrainArgs) -> Result<ExitCode> {
    if args.restamp {
        crate::ml::restamp::<BlendSidecar>(&args.out).map_err(|e| anyhow!(e))?;
        println!("restamped {}", args.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let dir = data_dir(&args.data);
    let split = load_split(&dir)?;
    let mut config = VaeConfig::new(args.seed);
    if let Some(e) = args.epochs {
        config.epochs = e;
    }
    config.patience = args.patience;
    config.trace = args.trace;
    eprintln!(
        "training {} on {} segments ({} epochs, seed {})",
        args.model,
        split.train.len(),
        config.epochs,
        config.seed
    );
    let (family, learned) = model_kind(&args.model);
    let (embed_map, embedding, embedding_curve) = if learned {
        let (map, e, curve) = embed::train(&EmbedConfig::new(args.seed), &split.train)
            .map_err(|e| anyhow!("training the tile representation failed: {e}"))?;
        eprintln!(
            "tile representation: loss {:.3} → {:.3}, decode table of {} embeddings",
            curve.first().copied().unwrap_or(0.0),
            curve.last().copied().unwrap_or(0.0),
            e.table.len()
        );
        (Some(map), Some(e), curve)
    } else {
        (None, None, Vec::new())
    };
    let repr = embedding.as_ref().map_or(Repr::Unified, Repr::Learned);
    let t = vae::train(
        &config,
        family,
        &split.train,
        &split.validation,
        &repr,
        &mut |p| {
            if p.epoch % 10 == 0 || p.epoch == p.epochs {
                eprintln!(
                    "[{:>3.0} %] epoch {} of {}: reconstruction {:.2}, KL {:.2} (weight {:.4}); \
                     validation {:.2} (lowest at epoch {}){}",
                    100.0 * p.epoch as f64 / p.epochs as f64,
                    p.epoch,
                    p.epochs,
                    p.reconstruction,
                    p.kl,
                    p.kl_weight,
                    p.validation.unwrap_or(f64::NAN),
                    p.kept_epoch.unwrap_or(0),
                    p.e_distance
                        .map(|e| format!("; E-distance {e:.4}"))
                        .unwrap_or_default()
                );
            }
            true
        },
    )
    .map_err(|e| anyhow!("training failed: {e}"))?;
    let accuracy = vae::reconstruction_accuracy(&t.model, &repr, &split.validation)
        .map_err(|e| anyhow!("{e}"))?;
    let sidecar = BlendSidecar {
        architecture: vae::architecture(family, learned).into(),
        latent: LATENT,
        embedding_curve,
        segments: split.train.len(),
        data_hash: vae::data_hash(&split.train),
        seed: args.seed,
        epochs: config.epochs,
        train_seconds: t.seconds,
        curve: t.curve.clone(),
        validation_curve: t.validation_curve.clone(),
        kept_epoch: t.kept_epoch,
        reconstruction_accuracy: accuracy,
        command: format!(
            "level-studio train --model {} --epochs {} --patience {} --seed {} --out {}",
            args.model,
            config.epochs,
            config.patience,
            args.seed,
            args.out.display()
        ),
        weights: None,
    };
    let embedding_parts = embed_map.as_ref().zip(embedding.as_ref());
    vae::save(&t.varmap, embedding_parts, &sidecar, &args.out).map_err(|e| anyhow!(e))?;
    println!(
        "wrote {} ({} epochs in {:.0} s, kept epoch {}; validation cells reconstructed {:.1} %)",
        args.out.display(),
        t.curve.len(),
        t.seconds,
        t.kept_epoch.unwrap_or(t.curve.len()),
        accuracy * 100.0
    );
    Ok(ExitCode::SUCCESS)
}

/// Table II for `--model`, when `--game` is the blend game.
pub fn eval(args: &EvalArgs) -> Option<Result<ExitCode>> {
    (args.game == crate::blend::ID).then(|| run(args))
}

fn rows_of(segments: &[Segment]) -> Vec<Vec<String>> {
    segments.iter().map(|s| s.rows.clone()).collect()
}

fn run(args: &EvalArgs) -> Result<ExitCode> {
    if !EVAL_MODELS.contains(&args.model.as_str()) {
        return Err(anyhow!(
            "the blend game has no model {:?} ({})",
            args.model,
            EVAL_MODELS.join(", ")
        ));
    }
    let count = args.count.unwrap_or(1_000) as usize;
    // The model first: a damaged or refused file is reported before the data is read.
    let model = if args.model == "dataset" {
        None
    } else {
        Some(BlendModel::load(&model_path(args)).map_err(|e| anyhow!(e))?)
    };
    let split = load_split(&data_dir(&args.data))?;
    let training = vectors(&rows_of(&split.train));
    let started = Instant::now();
    let blends = match &model {
        None => rows_of(&split.test),
        Some(model) => vae::random_blends(model, count, args.seed).map_err(|e| anyhow!("{e}"))?,
    };
    let r = report(&blends, &training);
    let seconds = started.elapsed().as_secs_f64();
    print_report(args, &r, seconds);
    if let Some(path) = &args.plot {
        let Some(model) = &model else {
            return Err(anyhow!(
                "--plot draws a model's blend-percentage curves; the dataset has none"
            ));
        };
        let curves = lab::curves(model, &split.test, CURVE_WALKS, CURVE_STEPS, args.seed)
            .map_err(|e| anyhow!(e))?;
        if !args.json {
            print_curves(&curves);
        }
        plot_curves(&curves, &args.model, path)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Walks of the blend-percentage curves (Lode Runner test segment to Zelda test room).
pub const CURVE_WALKS: usize = 100;
/// In-betweens per walk (the curves also take both ends' reconstructions).
pub const CURVE_STEPS: usize = 9;

fn model_path(args: &EvalArgs) -> PathBuf {
    args.weights
        .clone()
        .unwrap_or_else(|| PathBuf::from(weights_file(&args.model)))
}

/// Colours of the five metrics' curves.
const CURVE_COLOURS: [[u8; 3]; 5] = [
    [40, 80, 190],
    [235, 130, 20],
    [200, 40, 40],
    [40, 160, 80],
    [140, 60, 170],
];

fn print_curves(c: &lab::Curves) {
    println!(
        "blend-percentage curves: {} walks, {} segments; mean metric by Lode Runner share",
        c.walks, c.segments
    );
    print!("  {:<17}", "LR share");
    for bin in 0..lab::BINS {
        print!(" {:>5}", format!("{}%", bin * 10));
    }
    println!();
    print!("  {:<17}", "segments");
    for n in c.counts {
        print!(" {n:>5}");
    }
    println!();
    for (k, name) in crate::blend::eval::metric_names().iter().enumerate() {
        print!("  {name:<17}");
        for v in c.means[k] {
            print!(" {:>5}", v.map_or("–".into(), |v| format!("{v:.2}")));
        }
        println!();
    }
}

/// The curves as a PNG: x the Lode Runner share of a segment's single-game tiles (bin
/// centres), y each metric's mean; a legend in the curves' colours.
fn plot_curves(c: &lab::Curves, model: &str, path: &Path) -> Result<()> {
    let mut chart = Chart::new(640, 420, 50.0, (0.0, 1.0), (0.0, 1.0));
    for (k, name) in crate::blend::eval::metric_names().iter().enumerate() {
        let points: Vec<Option<(f64, f64)>> = c.means[k]
            .iter()
            .enumerate()
            .map(|(bin, v)| v.map(|v| ((bin as f64 + 0.5) / lab::BINS as f64, v)))
            .collect();
        chart.line(&points, CURVE_COLOURS[k]);
        for p in points.into_iter().flatten() {
            chart.dot(p, 3, CURVE_COLOURS[k]);
        }
        let x = 50
            + 2 * crate::export::font::ADVANCE
            + crate::blend::eval::metric_names()[..k]
                .iter()
                .map(|n| crate::export::font::width(n) + 3 * crate::export::font::ADVANCE)
                .sum::<u32>();
        chart.label(x, 34, name, CURVE_COLOURS[k]);
    }
    for (y, text) in [(367, "0"), (207, "0.5"), (47, "1")] {
        chart.label(26, y, text, [80, 80, 80]);
    }
    chart.label(
        50,
        20,
        &format!("{model}: tile metrics against the Lode Runner share"),
        [0, 0, 0],
    );
    chart.label(50, 385, "0% LODE RUNNER (ZELDA)", [80, 80, 80]);
    chart.label(470, 385, "100% LODE RUNNER", [80, 80, 80]);
    chart.save(path).map_err(|e| anyhow!(e))?;
    eprintln!("wrote {} (blend-percentage curves)", path.display());
    Ok(())
}

fn print_report(args: &EvalArgs, r: &BlendReport, seconds: f64) {
    let paper = PAPER.iter().find(|p| p.0 == args.model);
    let names = crate::blend::eval::metric_names();
    if args.json {
        let mut metrics = serde_json::Map::new();
        for (k, name) in names.iter().enumerate() {
            metrics.insert(
                (*name).into(),
                json!({"mean": r.mean[k], "std": r.std[k], "e_distance": r.e_distance_by_metric[k]}),
            );
        }
        println!(
            "{}",
            json!({
                "game": "blend",
                "model": args.model,
                "count": r.count,
                "seed": args.seed,
                "e_distance": r.e_distance,
                "lr_playable": r.lr_playable,
                "loz_playable": r.loz_playable,
                "lr_like": r.lr_like,
                "metrics": metrics,
                "seconds": seconds,
                "paper": paper.map(|p| json!({"e_distance": p.1, "lr_playable": p.2 / 100.0, "loz_playable": p.3 / 100.0})),
            })
        );
        return;
    }
    println!(
        "{} — {} segments (seed {}), {:.1} s",
        args.model, r.count, args.seed, seconds
    );
    println!("  metric            ours                paper");
    let p = |v: Option<f64>, scale: f64, digits: usize| {
        v.map_or("–".to_string(), |v| format!("{:.*}", digits, v * scale))
    };
    println!(
        "  E-distance        {:<18.4}  {}",
        r.e_distance,
        p(paper.map(|x| x.1), 1.0, 4)
    );
    println!(
        "  LR A* playable    {:<18}  {} %",
        format!("{:.1} %", r.lr_playable * 100.0),
        p(paper.map(|x| x.2), 1.0, 1)
    );
    println!(
        "  LoZ A* playable   {:<18}  {} %",
        format!("{:.1} %", r.loz_playable * 100.0),
        p(paper.map(|x| x.3), 1.0, 1)
    );
    println!("  LR-like           {:.1} %", r.lr_like * 100.0);
    for (k, name) in names.iter().enumerate() {
        println!(
            "  {name:<17} {:.3} ± {:.3}   E-distance alone {:.4}",
            r.mean[k], r.std[k], r.e_distance_by_metric[k]
        );
    }
}
