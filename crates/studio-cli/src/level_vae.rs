//! The level VAE on the command line, for every game: `train --model level-vae --pack PACK`,
//! `eval --model FILE.safetensors`, and region regeneration (`generate --inpaint LEVEL
//! --region X,Y,W,H`). `generate` and `interpolate` take a model file as `--model` through
//! [`register_model`].

use crate::bounds;
use anyhow::{anyhow, bail, Result};
use clap::Parser;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;
use studio_core::files;
use studio_core::generation::Shard;
use studio_core::jobs::Cancel;
use studio_core::level::Pack;
use studio_core::parts::{self, PartKind};
use studio_ml::level_vae::{self, inpaint, LevelVaeGenerator};

/// The model name `train` takes for a level VAE.
pub const MODEL: &str = "level-vae";

/// True when `--model` names a model file rather than a generator.
pub fn is_model_file(model: &str) -> bool {
    model.ends_with(".safetensors")
}

/// Loads the level VAE at `path` and adds it to its game's generators.
///
/// # Errors
/// The model does not load, in words.
pub fn register_model(path: &Path) -> Result<Arc<LevelVaeGenerator>> {
    if !path.exists() {
        bail!("{}: no such model file", path.display());
    }
    level_vae::register(path).map_err(|e| anyhow!("{e}"))
}

/// `train --model level-vae`.
#[derive(Parser, Debug)]
#[command(name = "train", bin_name = "level-studio train")]
struct TrainArgs {
    /// `level-vae`.
    #[arg(long)]
    model: String,
    /// The pack to learn from (RON or JSON; any game's, a GVGAI game's included).
    #[arg(long)]
    pack: PathBuf,
    /// The network: fc (fully connected) or cnn (convolutional).
    #[arg(long, default_value = "fc", value_parser = ["fc", "cnn"])]
    arch: String,
    /// Most epochs, 1 to 100,000 (early stopping on the held-out levels may end sooner).
    #[arg(long, default_value_t = 300, value_parser = bounds::VAE_EPOCHS.parser::<usize>())]
    epochs: usize,
    /// Share of the levels held out for early stopping and `eval`, 0 to 0.5.
    #[arg(long, default_value_t = 0.1, value_parser = bounds::HOLDOUT.parser())]
    holdout: f64,
    /// Latent dimensions, 2 to 256.
    #[arg(long, default_value_t = 32, value_parser = bounds::LATENT.parser::<usize>())]
    latent: usize,
    /// The KL term's weight once warmed up, more than 0, at most 10 (lower: the latent space
    /// carries more of each level, samples stray further from the data).
    #[arg(long, default_value_t = 1.0, value_parser = bounds::VAE_BETA.parser())]
    beta: f64,
    /// Side-scrollers: train on windows of WxH, each side 1 to 64 cells, and generate window
    /// by window.
    #[arg(long, value_parser = bounds::parse_size)]
    window: Option<(usize, usize)>,
    /// Condition on one figure of the game's analysis too (`validate --json` lists a level's
    /// figures), read from the levels' stored figures or analysed.
    #[arg(long, value_name = "FIGURE")]
    condition: Option<String>,
    /// Seed of the split, weights, batches and noise.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where to write the weights (`.safetensors`; the sidecar goes beside it as `.ron`).
    #[arg(long)]
    out: PathBuf,
}

/// Runs `train --model level-vae` on its words.
///
/// # Errors
/// A pack that cannot be read or trained on, or an output that cannot be written.
pub fn train(words: &[OsString]) -> Result<ExitCode> {
    let parsed = std::iter::once(OsString::from("train")).chain(words.iter().cloned());
    let args = match parse::<TrainArgs>(parsed) {
        Ok(args) => args,
        Err(e) => return Ok(crate::clap_exit(&e)),
    };
    if args.out.extension().and_then(|e| e.to_str()) != Some("safetensors") {
        bail!(
            "--out {}: a model is written as FILE.safetensors (its sidecar beside it as \
             FILE.ron)",
            args.out.display()
        );
    }
    let config = level_vae::TrainConfig {
        arch: args.arch.parse().map_err(|e: String| anyhow!(e))?,
        epochs: args.epochs,
        holdout: args.holdout,
        seed: args.seed,
        latent: args.latent,
        beta: args.beta,
        window: args.window,
        condition: args.condition.clone(),
        ..Default::default()
    };
    level_vae::check_config(&config).map_err(|e| anyhow!("{e}"))?;
    studio_ml::check_sidecar_free(&args.out).map_err(|e| anyhow!("--out: {e}"))?;
    let pack = files::load_pack(&args.pack)?;
    if let Some(folder) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|e| anyhow!("{}: {e}", folder.display()))?;
    }
    let _lock = studio_core::io::lock::WriteLock::acquire(&args.out)?;
    let command = std::iter::once("level-studio train".to_string())
        .chain(words.iter().map(|w| w.to_string_lossy().into_owned()))
        .collect::<Vec<_>>()
        .join(" ");
    let source = level_vae::TrainSource {
        pack: args.pack.display().to_string(),
        command,
    };
    eprintln!(
        "training a {} level VAE on {} levels of {} (device: {})",
        config.arch,
        pack.levels.len(),
        args.pack.display(),
        studio_ml::device_name()
    );
    let cancel = Cancel::default();
    let started = Instant::now();
    let model = level_vae::train(
        &pack.levels,
        &config,
        &source,
        &args.out,
        &cancel,
        &mut |p| {
            if p.epoch == 1 || p.epoch % 10 == 0 || p.checkpoint || p.epoch == p.epochs {
                eprintln!(
                "epoch {:>5}/{}  train {:>9.3}  held-out {:>9.3}  cells {:>5.1} %  best epoch {}{}",
                p.epoch,
                p.epochs,
                p.train_loss,
                p.holdout_loss,
                p.holdout_cells * 100.0,
                p.best_epoch,
                if p.checkpoint { "  (checkpoint)" } else { "" }
            );
            }
        },
    )
    .map_err(|e| anyhow!("{e}"))?;
    let m = &model.sidecar.metrics;
    println!(
        "wrote {} ({} epochs of {}, kept epoch {}: held-out cells {:.1} %, draws at \
         temperature {}, {:.0} s)",
        args.out.display(),
        m.epochs_run,
        config.epochs,
        m.best_epoch,
        m.holdout_cells * 100.0,
        model.sidecar.default_temperature(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// `A`'s flags read from `words`, with `--device` in its help (the shell has taken the flag
/// out of the words already).
fn parse<A: clap::Parser>(words: impl IntoIterator<Item = OsString>) -> clap::error::Result<A> {
    let mut matches = crate::device::with_device_flag(A::command()).try_get_matches_from(words)?;
    A::from_arg_matches_mut(&mut matches)
}

/// The level VAE's `train` and `eval` as clap commands, under the bounds table's names
/// (`train level-vae`): what the tests check every numeric flag of.
pub fn commands() -> Vec<(String, clap::Command)> {
    use clap::CommandFactory;
    vec![
        (
            "train level-vae".into(),
            crate::device::with_device_flag(TrainArgs::command()),
        ),
        (
            "eval level-vae".into(),
            crate::device::with_device_flag(EvalArgs::command()),
        ),
    ]
}

/// `eval --model FILE.safetensors`.
#[derive(Parser, Debug)]
#[command(name = "eval", bin_name = "level-studio eval")]
struct EvalArgs {
    /// The model file.
    #[arg(long)]
    model: PathBuf,
    /// Raw levels to generate and judge, 1 to 10,000.
    #[arg(long, default_value_t = 100, value_parser = bounds::VAE_LEVELS.parser::<usize>())]
    count: usize,
    /// Columns of each level of a side-scroller model, 2 to 1,000 (default: four windows).
    #[arg(long, value_parser = bounds::COLUMNS.parser::<usize>())]
    width: Option<usize>,
    /// Cell temperature, 0 to 3 (0: each cell its most likely tile), as `generate
    /// --temperature` draws them (default: the model's generator's, 0.8 for a
    /// side-scroller's windows and 1 for every other model).
    #[arg(long, value_parser = bounds::TEMPERATURE.parser())]
    temperature: Option<f64>,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Make every level cell by cell, even for a game that builds a model's levels under
    /// its own rules (Longcat walks its solution): the plain decoder's figures.
    #[arg(long)]
    cell_by_cell: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// This process's part of the eval, I/N (I from 1 to N): it draws every level (cheap) but
    /// judges only the I-th of N consecutive blocks (the game's analysis, the slow part) and
    /// writes their verdicts to --out; `--merge` then makes the one-process run's report.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, requires = "out")]
    shard: Option<Shard>,
    /// The part file a `--shard` run writes.
    #[arg(long, value_name = "PART", requires = "shard")]
    out: Option<PathBuf>,
    /// Makes the report from the parts of a `--shard` run (with the flags the parts were made
    /// with; `--json` may differ) instead of judging.
    #[arg(long, value_name = "PART", num_args = 1.., conflicts_with = "shard")]
    merge: Vec<PathBuf>,
}

/// A level VAE eval's part files.
const EVAL_PART: PartKind = PartKind {
    format: "level-studio level-vae eval part",
    version: 1,
    what: "a level VAE eval part",
    written_by: "`eval --model FILE.safetensors … --shard I/N --out PART`",
    flags: "--model, --count, --seed, --width, --temperature and --cell-by-cell",
};

/// What an eval's verdicts depend on: the weights (their stamp), the levels asked for and how
/// they were drawn. Compared whole at the merge.
fn eval_key(model: &level_vae::LevelVae, args: &EvalArgs, temperature: f64) -> serde_json::Value {
    serde_json::json!({
        "weights": model.sidecar.weights.as_ref().map(|w| format!("{} bytes, {}", w.bytes, w.fnv1a)),
        "count": args.count,
        "seed": args.seed,
        "width": args.width,
        "temperature": temperature.to_bits(),
        "cell_by_cell": args.cell_by_cell,
    })
}

/// How another eval's key differs from this one's, in words.
fn eval_difference(theirs: &serde_json::Value, ours: &serde_json::Value) -> String {
    for (key, flag) in [
        ("weights", "--model (its weights)"),
        ("count", "--count"),
        ("seed", "--seed"),
        ("width", "--width"),
        ("temperature", "--temperature"),
        ("cell_by_cell", "--cell-by-cell"),
    ] {
        if theirs.get(key) != ours.get(key) {
            let shown = |v: Option<&serde_json::Value>| match (key, v) {
                ("temperature", Some(t)) => t
                    .as_u64()
                    .map_or("?".into(), |b| f64::from_bits(b).to_string()),
                (_, Some(v)) => v.to_string(),
                (_, None) => "?".into(),
            };
            return format!(
                "it was made with {flag} {}, this run has {}",
                shown(theirs.get(key)),
                shown(ours.get(key))
            );
        }
    }
    "its run differs".into()
}

/// The verdicts of every level, from the N parts of this very eval.
fn merged_verdicts(
    args: &EvalArgs,
    key: &serde_json::Value,
) -> Result<Vec<level_vae::eval::Verdicts>> {
    let parts: Vec<(PathBuf, Shard, Vec<level_vae::eval::Verdicts>)> =
        parts::read_all(&args.merge, EVAL_PART, key, &eval_difference)
            .map_err(|e| anyhow!("{e}"))?;
    let mut all = Vec::with_capacity(args.count);
    for (path, shard, verdicts) in parts {
        let block = shard.block(args.count);
        if verdicts.len() != block.len() {
            bail!(
                "{}: it holds {} verdicts, part {}/{} of {} levels has {} (damaged, or edited)",
                path.display(),
                verdicts.len(),
                shard.index,
                shard.of,
                args.count,
                block.len()
            );
        }
        all.extend(verdicts);
    }
    Ok(all)
}

/// Runs `eval --model FILE.safetensors` on its words.
///
/// # Errors
/// A model that does not load.
pub fn eval(words: &[OsString]) -> Result<ExitCode> {
    let parsed = std::iter::once(OsString::from("eval")).chain(words.iter().cloned());
    let args = match parse::<EvalArgs>(parsed) {
        Ok(args) => args,
        Err(e) => return Ok(crate::clap_exit(&e)),
    };
    register_model(&args.model)?;
    let mut model = level_vae::LevelVae::load(&args.model).map_err(|e| anyhow!("{e}"))?;
    if args.cell_by_cell {
        model = model.cell_by_cell();
    }
    let temperature = args
        .temperature
        .unwrap_or_else(|| model.sidecar.default_temperature());
    let cancel = Cancel::default();
    let key = eval_key(&model, &args, temperature);
    if let Some(shard) = args.shard {
        if shard.of > args.count {
            bail!(
                "--shard {}/{}: more parts than the {} levels asked (--count)",
                shard.index,
                shard.of,
                args.count
            );
        }
    }
    let (levels, ms_per_level) = level_vae::eval::draw(
        &model,
        args.count,
        args.seed,
        args.width,
        temperature,
        &cancel,
    )
    .map_err(|e| anyhow!("{e}"))?;
    let verdicts = match (args.shard, &args.out) {
        (Some(shard), Some(out)) => {
            let block = shard.block(args.count);
            let verdicts =
                level_vae::eval::judge(&model, &levels, block.clone(), args.seed, &cancel)
                    .map_err(|e| anyhow!("{e}"))?;
            parts::write(out, EVAL_PART, shard, &key, &verdicts).map_err(|e| anyhow!("{e}"))?;
            println!(
                "part {}/{}: judged levels {} to {} of {}; wrote {}",
                shard.index,
                shard.of,
                block.start + 1,
                block.end,
                args.count,
                out.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        _ if !args.merge.is_empty() => merged_verdicts(&args, &key)?,
        _ => level_vae::eval::judge(&model, &levels, 0..args.count, args.seed, &cancel)
            .map_err(|e| anyhow!("{e}"))?,
    };
    let report = level_vae::eval::report(&model, &levels, &verdicts, ms_per_level, temperature)
        .map_err(|e| anyhow!("{e}"))?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        println!(
            "{} level VAE {}: {} raw levels, seed {}",
            report.game,
            args.model.display(),
            report.count,
            args.seed
        );
        println!(
            "  playable (the game's analysis) {:>6.1} %",
            report.playable * 100.0
        );
        println!(
            "  legal (the game's rules)       {:>6.1} %",
            report.legal * 100.0
        );
        println!(
            "  copies of training levels      {:>6.1} %",
            report.copies * 100.0
        );
        println!(
            "  distinct                       {:>6.1} %",
            report.distinct * 100.0
        );
        println!(
            "  E-distance to held-out levels  {:>8.4}",
            report.e_distance
        );
        println!(
            "  held-out cells reconstructed   {:>6.1} %",
            report.reconstruction * 100.0
        );
        println!(
            "  decoding ({:<5})               {:>8.2} ms a level",
            report.decoding, report.ms_per_level
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `generate --inpaint LEVEL --region X,Y,W,H [--model FILE] --count K [--seconds S] --out
/// PACK`.
///
/// # Errors
/// A level that cannot be read or that its game refuses, a region of no cells or outside
/// the level, a model of another game, or a pack that cannot be written.
#[allow(clippy::too_many_arguments)]
pub fn run_inpaint(
    reference: &str,
    region: Option<&str>,
    model: Option<&str>,
    count: usize,
    seed: u64,
    json: bool,
    seconds: f64,
    out: &Path,
) -> Result<ExitCode> {
    let region: inpaint::Region = region
        .ok_or_else(|| anyhow!("--inpaint needs --region X,Y,W,H (the cells to regenerate)"))?
        .parse()
        .map_err(|e: String| anyhow!(e))?;
    let level = crate::level_ref::resolve(reference)?;
    let model = match model {
        Some(m) if is_model_file(m) => {
            register_model(Path::new(m))?;
            Some(level_vae::LevelVae::load(Path::new(m)).map_err(|e| anyhow!("{e}"))?)
        }
        Some(m) => bail!(
            "--model {m}: regenerating a region takes a level VAE file (FILE.safetensors), or \
             no --model for a search over the region"
        ),
        None => None,
    };
    let config = inpaint::InpaintConfig {
        count,
        seed,
        budget: std::time::Duration::from_secs_f64(seconds),
        ..Default::default()
    };
    let started = Instant::now();
    let result = inpaint::inpaint(&level, region, model.as_ref(), &config, &Cancel::default())
        .map_err(|e| anyhow!("{e}"))?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let produced = result.candidates.len();
    if produced > 0 {
        let mut pack = Pack::new(format!("{} region {region}", level.name));
        pack.description = format!(
            "region {region} of {} regenerated ({}, seed {seed})",
            level.name, result.source
        );
        pack.levels = result.candidates.into_iter().map(|c| c.level).collect();
        files::save_pack(out, &pack)?;
    }
    if json {
        println!(
            "{}",
            serde_json::json!({"requested": count, "produced": produced, "ms": ms})
        );
    } else if produced > 0 {
        println!(
            "wrote {produced} of {count} candidates to {} ({} attempts by {}, {ms:.0} ms)",
            out.display(),
            result.attempts,
            result.source
        );
    }
    if produced == 0 {
        bail!(
            "no candidate passed {}'s analysis in {} attempts ({ms:.0} ms); nothing was \
             written: try a larger region or another seed",
            level.game,
            result.attempts
        );
    }
    Ok(ExitCode::SUCCESS)
}
