//! `train --model blend-vglc-fc|blend-cte-fc` and `eval --game blend`: the blend VAEs and
//! Table II.

use super::eval::EvalArgs;
use super::train::TrainArgs;
use crate::blend::data::{self, Segment};
use crate::blend::embed::{self, EmbedConfig};
use crate::blend::eval::{report, vectors, BlendReport, PAPER};
use crate::blend::generators::vglc_dir;
use crate::blend::vae::{
    self, BlendModel, BlendSidecar, Repr, VaeConfig, ARCHITECTURE, LATENT, LEARNED_ARCHITECTURE,
};
use anyhow::{anyhow, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The blend models `train` makes.
pub const MODELS: [&str; 2] = ["blend-vglc-fc", "blend-cte-fc"];

/// The models `eval --game blend` knows (the VAEs, and `dataset`: the test split itself).
pub const EVAL_MODELS: [&str; 3] = ["cte-fc", "vglc-fc", "dataset"];

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
        config.epochs = e.max(1);
    }
    eprintln!(
        "training {} on {} segments ({} epochs, seed {})",
        args.model,
        split.train.len(),
        config.epochs,
        config.seed
    );
    let learned = args.model == "blend-cte-fc";
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
    let t = vae::train(&config, &split.train, &repr, &mut |p| {
        if p.epoch % 10 == 0 || p.epoch == p.epochs {
            eprintln!(
                "[{:>3.0} %] epoch {} of {}: reconstruction {:.2}, KL {:.2} (weight {:.4})",
                100.0 * p.epoch as f64 / p.epochs as f64,
                p.epoch,
                p.epochs,
                p.reconstruction,
                p.kl,
                p.kl_weight
            );
        }
        true
    })
    .map_err(|e| anyhow!("training failed: {e}"))?;
    let accuracy = vae::reconstruction_accuracy(&t.model, &repr, &split.validation)
        .map_err(|e| anyhow!("{e}"))?;
    let sidecar = BlendSidecar {
        architecture: if learned {
            LEARNED_ARCHITECTURE
        } else {
            ARCHITECTURE
        }
        .into(),
        latent: LATENT,
        embedding_curve,
        segments: split.train.len(),
        data_hash: vae::data_hash(&split.train),
        seed: args.seed,
        epochs: config.epochs,
        train_seconds: t.seconds,
        curve: t.curve.clone(),
        reconstruction_accuracy: accuracy,
        command: format!(
            "level-studio train --model {} --epochs {} --seed {} --out {}",
            args.model,
            config.epochs,
            args.seed,
            args.out.display()
        ),
        weights: None,
    };
    let embedding_parts = embed_map.as_ref().zip(embedding.as_ref());
    vae::save(&t.varmap, embedding_parts, &sidecar, &args.out).map_err(|e| anyhow!(e))?;
    println!(
        "wrote {} ({} epochs in {:.0} s; validation cells reconstructed {:.1} %)",
        args.out.display(),
        config.epochs,
        t.seconds,
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
    let split = load_split(&data_dir(&args.data))?;
    let training = vectors(&rows_of(&split.train));
    let started = Instant::now();
    let blends = if args.model == "dataset" {
        rows_of(&split.test)
    } else {
        let path = args
            .weights
            .clone()
            .unwrap_or_else(|| PathBuf::from(weights_file(&args.model)));
        let model = BlendModel::load(&path).map_err(|e| anyhow!(e))?;
        vae::random_blends(&model, count, args.seed).map_err(|e| anyhow!("{e}"))?
    };
    let r = report(&blends, &training);
    let seconds = started.elapsed().as_secs_f64();
    print_report(args, &r, seconds);
    Ok(ExitCode::SUCCESS)
}

fn print_report(args: &EvalArgs, r: &BlendReport, seconds: f64) {
    let paper = PAPER.iter().find(|p| p.0 == args.model);
    let names = crate::blend::eval::metric_names();
    if args.json {
        let mut metrics = serde_json::Map::new();
        for (k, name) in names.iter().enumerate() {
            metrics.insert((*name).into(), json!({"mean": r.mean[k], "std": r.std[k]}));
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
        println!("  {name:<17} {:.3} ± {:.3}", r.mean[k], r.std[k]);
    }
}
