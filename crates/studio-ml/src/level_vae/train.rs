//! Training a level VAE on a pack: the levels (or a side-scroller's windows) read into the
//! game's palette, a seeded split into training and held-out levels, mini-batches of masked
//! cross-entropy plus a KL term warmed up over the first epochs, early stopping on the
//! held-out loss, checkpoints of the best weights, and the sidecar that says how it was made.

use super::data::{self, Example};
use super::model::{LevelVae, LevelVaeError};
use super::net::{Arch, Net, NetShape};
use super::sidecar::{
    FigureCondition, LevelVaeSidecar, TrainMetrics, Window, KIND, SAMPLE_TEMPERATURE,
    WINDOW_TEMPERATURE,
};
use candle_core::{DType, Tensor, D};
use candle_nn::{Optimizer, VarBuilder, VarMap};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};
use studio_core::game::{AnalyseOptions, Game};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;
use studio_core::rng::Rng;

/// How a level VAE is trained.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// The network.
    pub arch: Arch,
    /// Most epochs (early stopping may end sooner).
    pub epochs: usize,
    /// Share of the levels held out, 0 to 0.5.
    pub holdout: f64,
    /// Seed of the split, the initial weights, the batches and the noise.
    pub seed: u64,
    /// Latent dimensions.
    pub latent: usize,
    /// Levels a mini-batch.
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f64,
    /// The KL term's weight once warmed up.
    pub beta: f64,
    /// Epochs without a better held-out loss before training stops.
    pub patience: usize,
    /// Side-scrollers: train on windows of (width, height).
    pub window: Option<(usize, usize)>,
    /// The figure of the game's analysis to condition on (`shortest_win`).
    pub condition: Option<String>,
    /// Smallest time between two checkpoints.
    pub checkpoint_every: Duration,
}

impl Default for TrainConfig {
    fn default() -> Self {
        Self {
            arch: Arch::Fc,
            epochs: 300,
            holdout: 0.1,
            seed: 0,
            latent: 32,
            batch: 32,
            lr: 1e-3,
            beta: 1.0,
            patience: 30,
            window: None,
            condition: None,
            checkpoint_every: Duration::from_secs(20),
        }
    }
}

/// The largest grid side a level VAE takes, and the longest window.
pub const MAX_SIDE: usize = 64;
/// The most epochs a run may ask for.
pub const MAX_EPOCHS: usize = 100_000;
/// The most levels (or windows) one run reads.
pub const MAX_EXAMPLES: usize = 200_000;

/// One epoch's figures, for a progress bar and a loss curve.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainProgress {
    /// The epoch just finished, from 1.
    pub epoch: usize,
    /// The epoch budget.
    pub epochs: usize,
    /// Mean training loss per level.
    pub train_loss: f64,
    /// Held-out loss per level.
    pub holdout_loss: f64,
    /// Share of held-out cells decoded back exactly.
    pub holdout_cells: f64,
    /// The best epoch so far.
    pub best_epoch: usize,
    /// True when this epoch's weights were written as a checkpoint.
    pub checkpoint: bool,
}

/// What the training was asked to read, for the sidecar.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSource {
    /// The pack's path as given.
    pub pack: String,
    /// The command line (or the window's action) that started it.
    pub command: String,
}

fn refuse(reason: impl Into<String>) -> LevelVaeError {
    LevelVaeError::Training(reason.into())
}

/// Checks the settings before anything is read.
///
/// # Errors
/// A setting out of range, in words.
pub fn check_config(config: &TrainConfig) -> Result<(), LevelVaeError> {
    if config.epochs == 0 || config.epochs > MAX_EPOCHS {
        return Err(refuse(format!(
            "--epochs {}: 1 to {MAX_EPOCHS}",
            config.epochs
        )));
    }
    if !(0.0..=0.5).contains(&config.holdout) || config.holdout.is_nan() {
        return Err(refuse(format!(
            "--holdout {}: a share from 0 to 0.5",
            config.holdout
        )));
    }
    if !(config.beta > 0.0 && config.beta <= 10.0) {
        return Err(refuse(format!(
            "--beta {}: more than 0, at most 10",
            config.beta
        )));
    }
    if let Some((w, h)) = config.window {
        if !(1..=MAX_SIDE).contains(&w) || !(1..=MAX_SIDE).contains(&h) {
            return Err(refuse(format!(
                "--window {w}x{h}: each side 1 to {MAX_SIDE} cells"
            )));
        }
    }
    Ok(())
}

/// The value of figure `name` for a level: from its stored figures, else from an analysis.
fn figure_of(
    game: &dyn Game,
    level: &Level,
    name: &str,
    cancel: &Cancel,
) -> Result<f64, LevelVaeError> {
    let stored = level
        .figures
        .as_ref()
        .and_then(|f| f.numbers().into_iter().find(|(n, _)| *n == name));
    if let Some((_, v)) = stored {
        return Ok(v);
    }
    let analysis = game
        .analyse(level, &AnalyseOptions::default(), cancel)
        .map_err(|e| match e {
            JobError::Cancelled => LevelVaeError::Cancelled,
            other => refuse(format!("{}: {other}", level.name)),
        })?;
    let numbers = analysis
        .figures
        .as_ref()
        .map(|f| f.numbers())
        .unwrap_or_default();
    numbers
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .filter(|v| v.is_finite())
        .ok_or_else(|| {
            let known: Vec<&str> = numbers.iter().map(|(n, _)| *n).collect();
            refuse(format!(
                "--condition {name}: {} has no such figure for {} (its figures: {})",
                game.name(),
                level.name,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ))
        })
}

/// The examples of a set of levels: whole levels, or their windows.
struct Prepared {
    /// The training levels themselves (whole, before windows).
    train_levels: Vec<Vec<String>>,
    train: Vec<Example>,
    train_rows: Vec<Vec<String>>,
    holdout: Vec<Example>,
    holdout_rows: Vec<Vec<String>>,
    grid: (usize, usize),
    window: Option<Window>,
    figure: Option<FigureCondition>,
    singletons: String,
    sizes: Vec<(usize, usize)>,
}

/// Reads and splits the pack.
fn prepare(
    game: &dyn Game,
    levels: &[Level],
    config: &TrainConfig,
    cancel: &Cancel,
) -> Result<Prepared, LevelVaeError> {
    let palette: Vec<char> = game.tiles().iter().map(|t| t.ascii).collect();
    let mut figures = Vec::with_capacity(levels.len());
    for level in levels {
        if cancel.is_cancelled() {
            return Err(LevelVaeError::Cancelled);
        }
        figures.push(match &config.condition {
            Some(name) => Some(figure_of(game, level, name, cancel)?),
            None => None,
        });
    }
    // Each level's examples (itself, or its windows).
    let window = config.window.map(|(width, height)| Window {
        width,
        height,
        stride: (width / 4).max(1),
    });
    let mut per_level: Vec<Vec<Vec<String>>> = Vec::with_capacity(levels.len());
    for level in levels {
        let (w, h) = data::size_of(&level.cells)
            .ok_or_else(|| refuse(format!("{}: rows of different lengths", level.name)))?;
        match window {
            Some(win) => {
                if h > win.height {
                    return Err(refuse(format!(
                        "{} is {h} rows high; the window is {} rows (--window {}x{h} or more)",
                        level.name, win.height, win.width
                    )));
                }
                per_level.push(data::windows(&level.cells, win.width, win.stride));
            }
            None => {
                if w > MAX_SIDE || h > MAX_SIDE {
                    return Err(refuse(format!(
                        "{} is {w}x{h}; a level VAE takes up to {MAX_SIDE}x{MAX_SIDE} (a \
                         side-scroller trains on windows: --window WxH)",
                        level.name
                    )));
                }
                per_level.push(vec![level.cells.clone()]);
            }
        }
    }
    let examples: usize = per_level.iter().map(Vec::len).sum();
    if examples > MAX_EXAMPLES {
        return Err(refuse(format!(
            "{examples} examples; a run reads at most {MAX_EXAMPLES}"
        )));
    }
    let grid = match window {
        Some(win) => (win.width, win.height),
        None => per_level.iter().flatten().fold((1, 1), |acc, rows| {
            let (w, h) = data::size_of(rows).unwrap_or((1, 1));
            (acc.0.max(w), acc.1.max(h))
        }),
    };
    // The split is by level, so no held-out window shares columns with a training one.
    let mut order: Vec<usize> = (0..levels.len()).collect();
    Rng::derive(config.seed, 0x5917).shuffle(&mut order);
    let held = if config.holdout > 0.0 {
        ((levels.len() as f64 * config.holdout).round() as usize).clamp(1, levels.len() - 1)
    } else {
        0
    };
    let figure = config.condition.as_ref().map(|name| {
        let mut v: Vec<f64> = figures.iter().flatten().copied().collect();
        v.sort_by(f64::total_cmp);
        FigureCondition {
            name: name.clone(),
            min: v.first().copied().unwrap_or(0.0),
            max: v.last().copied().unwrap_or(1.0),
            median: v.get(v.len() / 2).copied().unwrap_or(0.0),
        }
    });
    let mut p = Prepared {
        train_levels: Vec::new(),
        train: Vec::new(),
        train_rows: Vec::new(),
        holdout: Vec::new(),
        holdout_rows: Vec::new(),
        grid,
        window,
        figure,
        singletons: String::new(),
        sizes: Vec::new(),
    };
    for (rank, &i) in order.iter().enumerate() {
        if rank >= held {
            p.train_levels.push(levels[i].cells.clone());
        }
        for rows in &per_level[i] {
            let example = data::encode(rows, &palette, grid, figures[i])
                .map_err(|e| refuse(format!("{}: {e}", levels[i].name)))?;
            if rank < held {
                p.holdout.push(example);
                p.holdout_rows.push(rows.clone());
            } else {
                p.sizes.push(example.size);
                p.train.push(example);
                p.train_rows.push(rows.clone());
            }
        }
    }
    p.sizes.sort_unstable();
    p.sizes.dedup();
    // Tiles every training level holds exactly once (never for windows: the player starts
    // in one window only).
    if window.is_none() {
        p.singletons = palette
            .iter()
            .filter(|&&c| {
                p.train_rows.iter().all(|rows| {
                    rows.iter()
                        .flat_map(|r| r.chars())
                        .filter(|&x| x == c)
                        .count()
                        == 1
                })
            })
            .collect();
    }
    Ok(p)
}

/// Cross-entropy over the level's cells (padding masked out) and the KL term, each per
/// level, and the share of level cells whose most likely tile is right.
fn losses(
    net: &Net,
    b: &data::Batch,
    noise: Option<&Tensor>,
) -> candle_core::Result<(Tensor, Tensor, Tensor)> {
    let n = b.x.dim(0)? as f64;
    let (mu, logvar) = net.encode(&b.x, &b.cond)?;
    let z = match noise {
        Some(eps) => (&mu + ((&logvar * 0.5)?.exp()? * eps)?)?,
        None => mu.clone(),
    };
    let logits = net.decode(&z, &b.cond)?;
    let logp = candle_nn::ops::log_softmax(&logits, D::Minus1)?;
    let ce = ((logp.broadcast_mul(&b.target)?.sum(D::Minus1)? * &b.mask)?.sum_all()? / -n)?;
    let kl = ((1.0 + &logvar)? - mu.sqr()? - logvar.exp()?)?;
    let kl = (kl.sum_all()? * (-0.5 / n))?;
    let right = logits
        .argmax(D::Minus1)?
        .eq(&b.target.argmax(D::Minus1)?)?
        .to_dtype(DType::F32)?;
    let right = (right * &b.mask)?.sum_all()?;
    Ok((ce, kl, right))
}

/// Deep copies of a var map's tensors (the best epoch's weights, kept aside).
fn snapshot(varmap: &VarMap) -> Result<HashMap<String, Tensor>, LevelVaeError> {
    crate::tensors_of(varmap)
        .map_err(|e| refuse(e.to_string()))?
        .into_iter()
        .map(|(k, t)| Ok((k, t.copy()?)))
        .collect()
}

/// Trains a level VAE on `levels` (one game's) and saves it at `out` with its sidecar;
/// `progress` hears every epoch. Checkpoints of the best weights so far are written at
/// `out` as training goes (at most every `checkpoint_every`), so a stopped run leaves the
/// best model it had.
///
/// # Errors
/// [`LevelVaeError`]: an empty or one-level pack, levels of two games, a bad setting, a
/// figure the game does not have, a file that cannot be written, or a cancelled run.
pub fn train(
    levels: &[Level],
    config: &TrainConfig,
    source: &TrainSource,
    out: &Path,
    cancel: &Cancel,
    progress: &mut dyn FnMut(&TrainProgress),
) -> Result<LevelVae, LevelVaeError> {
    check_config(config)?;
    let started = Instant::now();
    let first = check_pack(levels)?;
    let game = first
        .game
        .game()
        .map_err(|e| refuse(format!("the pack's game: {e}")))?;
    let p = prepare(game, levels, config, cancel)?;
    let palette: Vec<char> = game.tiles().iter().map(|t| t.ascii).collect();
    let shape = NetShape {
        width: p.grid.0,
        height: p.grid.1,
        tiles: palette.len(),
        conds: 2 + usize::from(p.figure.is_some()),
        latent: config.latent,
    };
    let device = crate::device();
    let varmap = VarMap::new();
    let net = Net::new(
        config.arch,
        shape,
        VarBuilder::from_varmap(&varmap, DType::F32, &device),
    )?;
    crate::seeded_init(&varmap, config.seed)?;
    let mut opt = crate::adam(varmap.all_vars(), config.lr)?;
    let range = p.figure.as_ref().map(|f| (f.min, f.max));
    let batch_of = |refs: &[&Example]| data::batch(refs, palette.len(), p.grid, range, &device);
    let holdout_batch = if p.holdout.is_empty() {
        None
    } else {
        let refs: Vec<&Example> = p.holdout.iter().collect();
        Some(batch_of(&refs)?)
    };
    let holdout_cells: f32 = p.holdout.iter().flat_map(|e| &e.mask).sum();
    let mut rng = Rng::derive(config.seed, 0x7a3e);
    // The KL weight rises over the first tenth of the run (at most 20 epochs).
    let warmup = (config.epochs / 10).clamp(1, 20);
    let mut order: Vec<usize> = (0..p.train.len()).collect();
    let mut sidecar = new_sidecar(game, &p, config, source, &palette, shape, levels.len());
    let mut best: Option<(f64, HashMap<String, Tensor>)> = None;
    let mut since_best = 0;
    let mut last_checkpoint = Instant::now();
    for epoch in 1..=config.epochs {
        if cancel.is_cancelled() {
            return Err(LevelVaeError::Cancelled);
        }
        rng.shuffle(&mut order);
        let beta = config.beta * (epoch as f64 / warmup as f64).min(1.0);
        let train_loss = train_epoch(
            &net,
            &mut opt,
            &p.train,
            &order,
            &batch_of,
            &mut rng,
            (config, beta),
        )?;
        let (holdout_loss, cells) =
            holdout_scores(&net, holdout_batch.as_ref(), holdout_cells, train_loss)?;
        if !train_loss.is_finite() {
            return Err(refuse(format!(
                "the training loss became {train_loss} at epoch {epoch}; try a smaller \
                 learning rate or another seed"
            )));
        }
        // The KL weight is still rising during the warm-up: only later epochs compete.
        let improved = epoch >= warmup && best.as_ref().is_none_or(|(l, _)| holdout_loss < *l);
        let mut checkpoint = false;
        if improved {
            best = Some((holdout_loss, snapshot(&varmap)?));
            since_best = 0;
            sidecar.metrics = TrainMetrics {
                epochs_run: epoch,
                best_epoch: epoch,
                holdout_loss,
                holdout_cells: cells,
                train_loss,
                seconds: started.elapsed().as_secs_f64(),
            };
            if last_checkpoint.elapsed() >= config.checkpoint_every {
                if let Some((_, tensors)) = &best {
                    crate::save_model(tensors, &sidecar, out).map_err(|e| refuse(e.to_string()))?;
                }
                last_checkpoint = Instant::now();
                checkpoint = true;
            }
        } else if epoch >= warmup {
            since_best += 1;
        }
        sidecar.metrics.epochs_run = epoch;
        progress(&TrainProgress {
            epoch,
            epochs: config.epochs,
            train_loss,
            holdout_loss,
            holdout_cells: cells,
            best_epoch: sidecar.metrics.best_epoch,
            checkpoint,
        });
        if since_best >= config.patience && config.holdout > 0.0 {
            break;
        }
    }
    let tensors = match best {
        Some((_, tensors)) => tensors,
        None => snapshot(&varmap)?,
    };
    let vb = VarBuilder::from_tensors(tensors.clone(), DType::F32, &device);
    let net = Net::new(config.arch, shape, vb)?;
    let mut model = LevelVae::from_parts(sidecar, out, net, device);
    model.sidecar.temperature = Some(default_temperature(&model, config.seed)?);
    model.sidecar.metrics.seconds = started.elapsed().as_secs_f64();
    crate::save_model(&tensors, &model.sidecar, out).map_err(|e| refuse(e.to_string()))?;
    Ok(model)
}

/// Temperatures a model's default is chosen from, lowest first.
const TEMPERATURES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, SAMPLE_TEMPERATURE];
/// Prior draws made at each temperature to count copies.
const TEMPERATURE_DRAWS: usize = 200;
/// The share of those draws that may copy a training level.
const TEMPERATURE_COPIES: f64 = 0.05;

/// The temperature a trained model draws its levels at unless told: the lowest of
/// [`TEMPERATURES`] at which at most [`TEMPERATURE_COPIES`] of [`TEMPERATURE_DRAWS`] prior
/// draws copy a training level, so levels stay as crisp as the argmax where that already
/// makes new ones (a few GVGAI levels) and are drawn where the argmax falls into repeated
/// training levels (12 % of the VGLC rooms' argmax draws are copies). A game that decodes
/// under its rules starts at [`SAMPLE_TEMPERATURE`]; a side-scroller's windows keep
/// theirs ([`WINDOW_TEMPERATURE`]).
fn default_temperature(model: &LevelVae, seed: u64) -> Result<f64, LevelVaeError> {
    let side = &model.sidecar;
    if side.window.is_some() {
        return Ok(WINDOW_TEMPERATURE);
    }
    let lowest = if model.score_decoder().is_some() {
        SAMPLE_TEMPERATURE
    } else {
        0.0
    };
    for t in TEMPERATURES.into_iter().filter(|&t| t >= lowest) {
        let mut rng = Rng::derive(seed, 0x7e3b);
        let mut copies = 0usize;
        for i in 0..TEMPERATURE_DRAWS {
            let size = side.sizes[i % side.sizes.len().max(1)];
            let z = model.prior(&mut rng, 1.0);
            let logits = model.logits(&[z], size, None)?;
            let rows = model.rows_from_logits(&logits[0], size, t, Some(&mut rng));
            copies += usize::from(side.is_training_copy(&rows));
        }
        if copies as f64 <= TEMPERATURE_COPIES * TEMPERATURE_DRAWS as f64 {
            return Ok(t);
        }
    }
    Ok(SAMPLE_TEMPERATURE)
}

/// The pack's first level, once the pack holds two levels or more, all of one game.
fn check_pack(levels: &[Level]) -> Result<&Level, LevelVaeError> {
    let Some(first) = levels.first() else {
        return Err(refuse("the pack holds no level to train on"));
    };
    if levels.len() < 2 {
        return Err(refuse(
            "the pack holds one level; a level VAE needs at least 2 (one to train on, one to \
             hold out), and many more to learn from",
        ));
    }
    if let Some(other) = levels.iter().find(|l| l.game != first.game) {
        let count = |g| levels.iter().filter(|l| l.game == g).count();
        return Err(refuse(format!(
            "the pack mixes games: {} {} levels and {} {} levels; a model learns one game \
             (split the pack)",
            count(first.game),
            first.game,
            count(other.game),
            other.game
        )));
    }
    Ok(first)
}

/// The sidecar saved beside the weights: the game, the data, the settings; its metrics
/// are filled in as training goes.
fn new_sidecar(
    game: &dyn Game,
    p: &Prepared,
    config: &TrainConfig,
    source: &TrainSource,
    palette: &[char],
    shape: NetShape,
    levels: usize,
) -> LevelVaeSidecar {
    LevelVaeSidecar {
        kind: KIND.into(),
        game: game.id().as_str().to_string(),
        source: game.source(),
        source_hash: game
            .source()
            .map(|s| studio_core::io::fnv1a_hex(s.text.as_bytes())),
        palette: palette.iter().collect(),
        arch: config.arch,
        shape,
        window: p.window,
        condition: p.figure.clone(),
        sizes: p.sizes.clone(),
        singletons: p.singletons.clone(),
        pack: source.pack.clone(),
        data_hash: studio_core::io::fnv1a_hex(
            p.train_rows
                .iter()
                .map(|r| r.join("\n"))
                .collect::<Vec<_>>()
                .join("\n\n")
                .as_bytes(),
        ),
        levels,
        trained_on: p.train.len(),
        holdout: p.holdout_rows.clone(),
        train_hashes: train_hashes(p),
        seed: config.seed,
        command: source.command.clone(),
        metrics: TrainMetrics::default(),
        weights: None,
        temperature: None,
    }
}

/// The hashes of what the model trained on, to tell a copy of a training level.
fn train_hashes(p: &Prepared) -> Vec<String> {
    // A side-scroller's: every window of the training levels, at every column.
    let mut h: Vec<String> = match p.window {
        Some(w) => p
            .train_levels
            .iter()
            .flat_map(|rows| data::windows(rows, w.width, 1))
            .map(|r| data::rows_hash(&r))
            .collect(),
        None => p.train_rows.iter().map(|r| data::rows_hash(r)).collect(),
    };
    h.sort();
    h.dedup();
    h
}

/// One pass over the training examples in `order`, a step a batch: the mean loss an
/// example. `beta` is this epoch's KL weight.
fn train_epoch(
    net: &Net,
    opt: &mut candle_nn::AdamW,
    train: &[Example],
    order: &[usize],
    batch_of: &dyn Fn(&[&Example]) -> candle_core::Result<data::Batch>,
    rng: &mut Rng,
    (config, beta): (&TrainConfig, f64),
) -> Result<f64, LevelVaeError> {
    let mut total = 0.0;
    for chunk in order.chunks(config.batch.max(1)) {
        let refs: Vec<&Example> = chunk.iter().map(|&i| &train[i]).collect();
        let b = batch_of(&refs)?;
        let eps: Vec<f32> = (0..refs.len() * config.latent)
            .map(|_| rng.normal() as f32)
            .collect();
        let eps = Tensor::from_vec(eps, (refs.len(), config.latent), b.x.device())?;
        let (ce, kl, _) = losses(net, &b, Some(&eps))?;
        let loss = (&ce + (&kl * beta)?)?;
        opt.backward_step(&loss)?;
        total += loss.to_scalar::<f32>()? as f64 * refs.len() as f64;
    }
    Ok(total / train.len().max(1) as f64)
}

/// The held-out examples' loss and the share of their cells decoded right (without a
/// holdout, the training loss and none).
fn holdout_scores(
    net: &Net,
    holdout_batch: Option<&data::Batch>,
    holdout_cells: f32,
    train_loss: f64,
) -> Result<(f64, f64), LevelVaeError> {
    Ok(match holdout_batch {
        Some(b) => {
            let (ce, _, right) = losses(net, b, None)?;
            (
                ce.to_scalar::<f32>()? as f64,
                right.to_scalar::<f32>()? as f64 / holdout_cells.max(1.0) as f64,
            )
        }
        None => (train_loss, 0.0),
    })
}
