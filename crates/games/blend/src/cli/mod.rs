//! `train --model blend-vglc-fc|blend-cte-fc|blend-pix-fc|blend-vglc-cnn|blend-cte-cnn|blend-pix-cnn`
//! and `eval --game blend`: the blend VAEs and Table II.

use crate::data::{self, Segment};
use crate::embed::{self, EmbedConfig};
use crate::eval::{report, vectors, BlendReport, PAPER};
use crate::lab;
use crate::vae::{self, BlendModel, BlendSidecar, Family, Repr, VaeConfig, LATENT};
use crate::{pixel_embed, pixels};
use anyhow::{anyhow, Result};
use clap::{Args, FromArgMatches};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use studio_cli::bounds::{self, bound, Bound, Range};
use studio_cli::{EvalCommon, GameCommand, RegisterCommands, Slot, TrainCommon};
use studio_core::datasets::vglc_dir;
use studio_core::export::chart::Chart;
use studio_core::game::registry::Registry;

/// The blend models `train` makes.
pub const MODELS: [&str; 6] = [
    "blend-vglc-fc",
    "blend-cte-fc",
    "blend-pix-fc",
    "blend-vglc-cnn",
    "blend-cte-cnn",
    "blend-pix-cnn",
];

/// The models `eval --game blend` knows (the VAEs, and `dataset`: the test split itself).
pub const EVAL_MODELS: [&str; 7] = [
    "cte-fc", "vglc-fc", "pix-fc", "cte-cnn", "vglc-cnn", "pix-cnn", "dataset",
];

/// The family and representation of a model name (`blend-cte-cnn`, `cte-cnn`, `pix-fc`):
/// `true` for a learned representation, from letters (`cte`) or pixels (`pix`).
pub fn model_kind(name: &str) -> (Family, bool) {
    let family = if name.ends_with("-cnn") {
        Family::Cnn
    } else {
        Family::Fc
    };
    let base = name.trim_start_matches("blend-");
    (family, base.starts_with("cte") || base.starts_with("pix"))
}

/// Whether a model name is on the representation learned from pixels (`blend-pix-fc`).
pub fn is_pixels(name: &str) -> bool {
    name.trim_start_matches("blend-").starts_with("pix")
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

fn train_model(args: &TrainArgs) -> Result<ExitCode> {
    if args.restamp {
        studio_ml::restamp::<BlendSidecar>(&args.common.out).map_err(|e| anyhow!(e))?;
        println!("restamped {}", args.common.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    // Settings first: a refused one is reported before the data is read.
    let (family, learned) = model_kind(&args.common.model);
    let pixels = is_pixels(&args.common.model);
    let neighbours = match args.neighbours.as_deref() {
        Some(_) if pixels => {
            return Err(anyhow!(
                "--neighbours is a setting of the tile representation learned from letters \
                 (blend-cte-fc, blend-cte-cnn); --model {} learns from the screenshots' pixels",
                args.common.model
            ))
        }
        Some(_) if !learned => {
            return Err(anyhow!(
                "--neighbours is a setting of the learned tile representation (blend-cte-fc, \
                 blend-cte-cnn); --model {} reads Table I's unified tiles",
                args.common.model
            ))
        }
        Some("tags") => embed::Neighbours::Tags,
        _ => embed::Neighbours::Tiles,
    };
    let paper_widths = match args.fc_widths.as_deref() {
        Some(_) if family == Family::Cnn => {
            return Err(anyhow!(
                "--fc-widths sets the FC-VAE's hidden layers (blend-vglc-fc, blend-cte-fc); \
                 --model {} is a CNN-VAE",
                args.common.model
            ))
        }
        Some("paper") => true,
        _ => false,
    };
    let by_occurrence = match args.table.as_deref() {
        Some(_) if !pixels => {
            return Err(anyhow!(
                "--table sets how the pixel representation's decode table is drawn \
                 (blend-pix-fc, blend-pix-cnn); --model {} is not learned from pixels",
                args.common.model
            ))
        }
        Some("occurrences") => true,
        _ => false,
    };
    let dir = data_dir(&args.data);
    let split = load_split(&dir)?;
    let mut config = VaeConfig::new(args.common.seed);
    if let Some(e) = args.epochs {
        config.epochs = e;
    }
    config.patience = args.patience;
    config.trace = args.trace;
    config.after_warm_up = args.after_warm_up;
    if paper_widths {
        config.fc_hidden = vae::PAPER_HIDDEN.to_vec();
    }
    eprintln!(
        "training {} on {} segments ({} epochs, seed {})",
        args.common.model,
        split.train.len(),
        config.epochs,
        config.seed
    );
    let (embed_map, embedding, embedding_curve) = if learned {
        let mut embed_config = EmbedConfig::new(args.common.seed);
        embed_config.neighbours = neighbours;
        embed_config.table_by_occurrence = by_occurrence;
        let trained = if pixels {
            let read: Vec<Segment> = split
                .train
                .iter()
                .chain(&split.validation)
                .cloned()
                .collect();
            let pictures = pixels::load(&dir, &read).map_err(|e| {
                anyhow!("{e} (the VGLC screenshots, */Original/ beside */Processed/)")
            })?;
            let worst = pictures
                .alignments
                .iter()
                .max_by(|a, b| a.residual.total_cmp(&b.residual));
            eprintln!(
                "screenshots: {} aligned with their text levels, worst colour residual {:.3}",
                pictures.alignments.len(),
                worst.map_or(0.0, |a| a.residual)
            );
            pixel_embed::train(&embed_config, &split.train, &split.validation, &pictures)
        } else {
            embed::train(&embed_config, &split.train)
        };
        let (map, e, curve) =
            trained.map_err(|e| anyhow!("training the tile representation failed: {e}"))?;
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
        architecture: if pixels {
            vae::pixel_architecture(family)
        } else {
            vae::architecture(family, learned)
        }
        .into(),
        latent: LATENT,
        embedding_curve,
        neighbours: (learned && !pixels).then_some(neighbours),
        fc_hidden: paper_widths.then(|| vae::PAPER_HIDDEN.to_vec()),
        table: by_occurrence.then(|| "occurrences".to_string()),
        after_warm_up: args.after_warm_up,
        segments: split.train.len(),
        data_hash: vae::data_hash(&split.train),
        seed: args.common.seed,
        epochs: config.epochs,
        train_seconds: t.seconds,
        curve: t.curve.clone(),
        validation_curve: t.validation_curve.clone(),
        kept_epoch: t.kept_epoch,
        reconstruction_accuracy: accuracy,
        command: format!(
            "level-studio train --model {} --epochs {} --patience {}{}{}{}{} --seed {} --out {}",
            args.common.model,
            config.epochs,
            config.patience,
            args.neighbours
                .as_ref()
                .map(|n| format!(" --neighbours {n}"))
                .unwrap_or_default(),
            if paper_widths {
                " --fc-widths paper"
            } else {
                ""
            },
            if by_occurrence {
                " --table occurrences"
            } else {
                ""
            },
            if args.after_warm_up {
                " --after-warm-up"
            } else {
                ""
            },
            args.common.seed,
            args.common.out.display()
        ),
        weights: None,
    };
    let embedding_parts = embed_map.as_ref().zip(embedding.as_ref());
    vae::save(&t.varmap, embedding_parts, &sidecar, &args.common.out).map_err(|e| anyhow!(e))?;
    println!(
        "wrote {} ({} epochs in {:.0} s, kept epoch {}; validation cells reconstructed {:.1} %)",
        args.common.out.display(),
        t.curve.len(),
        t.seconds,
        t.kept_epoch.unwrap_or(t.curve.len()),
        accuracy * 100.0
    );
    Ok(ExitCode::SUCCESS)
}

/// `eval --game blend`: Table II for `--model`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// --game, --model, --json, --seed.
    #[command(flatten)]
    pub common: EvalCommon,
    /// Model weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// The VGLC folder (default $VGLC_DIR).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Write a plot of the evaluation here (PNG).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Blends to draw, 2 to 10,000 (default 1,000).
    #[arg(long, value_parser = bounds::SWEEP_LEVELS.parser::<u64>())]
    pub count: Option<u64>,
}

/// `train --model blend-…`: the blend VAEs.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// --model, --out, --seed.
    #[command(flatten)]
    pub common: TrainCommon,
    /// The VGLC folder (default $VGLC_DIR).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Training epochs, 1 to 1,000,000, instead of the model's default.
    #[arg(long, value_parser = bounds::EPOCHS.parser::<usize>())]
    pub epochs: Option<usize>,
    /// Stop after this many epochs without a lower validation loss, 0 to 100,000 (0: train
    /// every epoch). The weights kept are always the lowest validation loss's.
    #[arg(long, default_value_t = 0, value_parser = bounds::PATIENCE.parser::<usize>())]
    pub patience: usize,
    /// Every 10 epochs, print the E-distance of this many blends drawn from the prior, 0 to
    /// 10,000 (0: never). A diagnostic; it chooses nothing.
    #[arg(long, default_value_t = 0, value_parser = bounds::TRACE.parser::<usize>())]
    pub trace: usize,
    /// blend-cte-fc / blend-cte-cnn: how the learned tile representation describes a tile's
    /// 8 neighbours: `tiles` (each neighbour's tags and own tile: the two games' contexts
    /// never coincide) or `tags` (their affordance tags only, so a Lode Runner and a Zelda
    /// tile can share surroundings). Default `tiles`.
    #[arg(long, value_parser = ["tiles", "tags"])]
    pub neighbours: Option<String>,
    /// blend-vglc-fc / blend-cte-fc: the hidden layers: `shipped` (512, 256) or `paper` (the
    /// paper's 1,024, 512, 256, 128, without its batch normalisation; recorded in the
    /// sidecar). Default `shipped`.
    #[arg(long, value_parser = ["shipped", "paper"])]
    pub fc_widths: Option<String>,
    /// blend-pix-fc / blend-pix-cnn: how the decode table is drawn from the training
    /// contexts: `distinct` (each distinct context alike) or `occurrences` (as often as each
    /// occurs, so rare tiles with varied surroundings are not over-represented; recorded in
    /// the sidecar). Default `distinct`.
    #[arg(long, value_parser = ["distinct", "occurrences"])]
    pub table: Option<String>,
    /// Keep no epoch of the first annealing cycle, where the KL term is off (1/20 of
    /// --epochs): the weights kept are the lowest validation loss's after it, and --patience
    /// counts from the first epoch kept (recorded in the sidecar).
    #[arg(long)]
    pub after_warm_up: bool,
    /// Do not train: write the length and hash of the existing weights at --out into their
    /// sidecar (for sidecars written before they carried one). Only for weights you trust.
    #[arg(long)]
    pub restamp: bool,
}

const EVAL_BOUNDS: &[Bound] = &[bound(
    &["eval"],
    "count",
    Range::Whole(bounds::SWEEP_LEVELS),
)];

const TRAIN_BOUNDS: &[Bound] = &[
    bound(&["train"], "epochs", Range::Whole(bounds::EPOCHS)),
    bound(&["train"], "patience", Range::Whole(bounds::PATIENCE)),
    bound(&["train"], "trace", Range::Whole(bounds::TRACE)),
];

/// Adds the blend game's `eval` and `train` to the command line.
pub fn commands(registry: &mut Registry) {
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Eval,
        models: &EVAL_MODELS,
        args: EvalArgs::augment_args,
        run: |m| {
            let args = EvalArgs::from_arg_matches(m)?;
            args.common.model()?;
            run(&args)
        },
        bounds: EVAL_BOUNDS,
        example: &["eval", "--game", "blend", "--model", "cte-fc"],
    });
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Train,
        models: &MODELS,
        args: TrainArgs::augment_args,
        run: |m| train_model(&TrainArgs::from_arg_matches(m)?),
        bounds: TRAIN_BOUNDS,
        example: &[
            "train",
            "--model",
            "blend-vglc-fc",
            "--out",
            "never.safetensors",
        ],
    });
}

fn rows_of(segments: &[Segment]) -> Vec<Vec<String>> {
    segments.iter().map(|s| s.rows.clone()).collect()
}

fn run(args: &EvalArgs) -> Result<ExitCode> {
    if !EVAL_MODELS.contains(&args.common.model.as_str()) {
        return Err(anyhow!(
            "the blend game has no model {:?} ({})",
            args.common.model,
            EVAL_MODELS.join(", ")
        ));
    }
    let count = args.count.unwrap_or(1_000) as usize;
    // The model first: a damaged or refused file is reported before the data is read.
    let model = if args.common.model == "dataset" {
        None
    } else {
        Some(BlendModel::load(&model_path(args)).map_err(|e| anyhow!(e))?)
    };
    let split = load_split(&data_dir(&args.data))?;
    let training = vectors(&rows_of(&split.train));
    let started = Instant::now();
    let blends = match &model {
        None => rows_of(&split.test),
        Some(model) => {
            vae::random_blends(model, count, args.common.seed).map_err(|e| anyhow!("{e}"))?
        }
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
        let curves = lab::curves(
            model,
            &split.test,
            CURVE_WALKS,
            CURVE_STEPS,
            args.common.seed,
        )
        .map_err(|e| anyhow!(e))?;
        if !args.common.json {
            print_curves(&curves);
        }
        plot_curves(&curves, &args.common.model, path)?;
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
        .unwrap_or_else(|| PathBuf::from(weights_file(&args.common.model)))
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
    for (k, name) in crate::eval::metric_names().iter().enumerate() {
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
    for (k, name) in crate::eval::metric_names().iter().enumerate() {
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
            + 2 * studio_core::export::font::ADVANCE
            + crate::eval::metric_names()[..k]
                .iter()
                .map(|n| {
                    studio_core::export::font::width(n) + 3 * studio_core::export::font::ADVANCE
                })
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
    let paper = PAPER.iter().find(|p| p.0 == args.common.model);
    let names = crate::eval::metric_names();
    if args.common.json {
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
                "model": args.common.model,
                "count": r.count,
                "seed": args.common.seed,
                "e_distance": r.e_distance,
                "lr_playable": r.lr_playable,
                "lr_playable_vacuous": r.lr_playable_vacuous,
                "loz_playable": r.loz_playable,
                "loz_playable_without_specks": r.loz_playable_without_specks,
                "lr_like": r.lr_like,
                "letters": r.letters,
                "metrics": metrics,
                "seconds": seconds,
                "paper": paper.map(|p| json!({"e_distance": p.1, "lr_playable": p.2 / 100.0, "loz_playable": p.3 / 100.0})),
            })
        );
        return;
    }
    println!(
        "{} — {} segments (seed {}), {:.1} s",
        args.common.model, r.count, args.common.seed, seconds
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
        "  LR A*, no gold ok {:<18}  (the other reading of a segment without gold)",
        format!("{:.1} %", r.lr_playable_vacuous * 100.0),
    );
    println!(
        "  LoZ A* playable   {:<18}  {} %",
        format!("{:.1} %", r.loz_playable * 100.0),
        p(paper.map(|x| x.3), 1.0, 1)
    );
    println!(
        "  LoZ A*, no specks {:<18}  (corners on walkable regions of {} cells or more)",
        format!("{:.1} %", r.loz_playable_without_specks * 100.0),
        crate::eval::SPECK + 1
    );
    println!("  LR-like           {:.1} %", r.lr_like * 100.0);
    let letters: Vec<String> = r
        .letters
        .iter()
        .map(|(c, s)| format!("{c} {:.1} %", s * 100.0))
        .collect();
    println!("  letters           {}", letters.join(", "));
    for (k, name) in names.iter().enumerate() {
        println!(
            "  {name:<17} {:.3} ± {:.3}   E-distance alone {:.4}",
            r.mean[k], r.std[k], r.e_distance_by_metric[k]
        );
    }
}
