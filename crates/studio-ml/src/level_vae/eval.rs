//! What a level VAE is worth, on its held-out levels: the share of raw generated levels the
//! game's own analysis passes, copies of training levels, distinct levels, the E-distance
//! between generated and held-out levels (over each level's share of every palette tile),
//! the share of held-out cells decoded back exactly, and the decoding time.

use super::data;
use super::model::{LevelVae, LevelVaeError};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;
use studio_core::game::AnalyseOptions;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;
use studio_core::rng::Rng;

/// The report `eval --model FILE.safetensors --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalReport {
    /// The model's game.
    pub game: String,
    /// Raw levels generated.
    pub count: usize,
    /// Share the game's own analysis passes (a level the game refuses counts as failing).
    pub playable: f64,
    /// Share the game's rules accept at all (`check`).
    pub legal: f64,
    /// Share whose analysis says `solvable` (a game whose verdict asks more than a solution,
    /// such as Longcat's non-trivial, reports this too); `None` when the game's analysis has
    /// no such field.
    pub solvable: Option<f64>,
    /// Share identical to a training level; for a side-scroller's model, the share of the
    /// generated levels' window-wide parts identical to a window of a training level.
    pub copies: f64,
    /// Share of distinct levels among those generated.
    pub distinct: f64,
    /// Energy distance between generated and held-out levels' tile shares.
    pub e_distance: f64,
    /// Share of held-out cells decoded back exactly (μ, argmax).
    pub reconstruction: f64,
    /// Milliseconds to decode one level.
    pub ms_per_level: f64,
    /// How the levels were made from the model's scores: `"game"` where the game builds
    /// them under its own rules (a Longcat level as the walk of its solution), `"cells"`
    /// where each cell takes its own tile.
    pub decoding: &'static str,
    /// The cell temperature the levels were drawn at (0: each cell its likeliest tile).
    pub temperature: f64,
}

/// One level's verdicts: the game's rules accept it (`legal`), its analysis passes it
/// (`playable`), and its analysis's `solvable` field, where it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdicts {
    /// The game's rules accept it.
    pub legal: bool,
    /// Its analysis passes it.
    pub playable: bool,
    /// Its analysis's `solvable` field, where it has one.
    pub solvable: Option<bool>,
}

/// Generates `count` raw levels (`width` columns for a side-scroller's windows, else the
/// training sizes in turn) with `seed` at cell `temperature` (0: argmax) and measures them.
///
/// # Errors
/// A tensor failure, or a cancelled run.
pub fn evaluate(
    model: &LevelVae,
    count: usize,
    seed: u64,
    width: Option<usize>,
    temperature: f64,
    cancel: &Cancel,
) -> Result<EvalReport, LevelVaeError> {
    let (levels, ms_per_level) = draw(model, count, seed, width, temperature, cancel)?;
    let verdicts = judge(model, &levels, 0..count, seed, cancel)?;
    report(model, &levels, &verdicts, ms_per_level, temperature)
}

/// The `count` raw levels [`evaluate`] judges, in its order, and the milliseconds each took
/// to decode. The draws are one seeded stream, so any process makes the same levels.
///
/// # Errors
/// A tensor failure, or a cancelled run.
pub fn draw(
    model: &LevelVae,
    count: usize,
    seed: u64,
    width: Option<usize>,
    temperature: f64,
    cancel: &Cancel,
) -> Result<(Vec<Vec<String>>, f64), LevelVaeError> {
    let game = model.game()?;
    let side = &model.sidecar;
    let mut rng = Rng::derive(seed, 0xe7a1);
    let started = Instant::now();
    let mut levels: Vec<Vec<String>> = Vec::with_capacity(count);
    for i in 0..count {
        if cancel.is_cancelled() {
            return Err(LevelVaeError::Cancelled);
        }
        let rows = match side.window {
            Some(w) => model.generate_long(
                width.unwrap_or(w.width * 4),
                temperature,
                game.unique_tile().map(usize::from),
                &mut rng,
                8,
            )?,
            None => {
                let size = side.sizes[i % side.sizes.len().max(1)];
                let z = model.prior(&mut rng, 1.0);
                let logits = model.logits(&[z], size, None)?;
                model.rows_from_logits(&logits[0], size, temperature, Some(&mut rng))
            }
        };
        levels.push(rows);
    }
    let ms_per_level = started.elapsed().as_secs_f64() * 1000.0 / count.max(1) as f64;
    Ok((levels, ms_per_level))
}

/// The verdicts on the levels numbered `which` of `levels` (the game's analysis, in
/// parallel, level i with seed `seed + i` wherever it is judged): the slow part of an eval,
/// which `eval --shard` splits.
///
/// # Errors
/// A model of no registered game, or a cancelled run.
pub fn judge(
    model: &LevelVae,
    levels: &[Vec<String>],
    which: std::ops::Range<usize>,
    seed: u64,
    cancel: &Cancel,
) -> Result<Vec<Verdicts>, LevelVaeError> {
    let game = model.game()?;
    let refused = Verdicts {
        legal: false,
        playable: false,
        solvable: None,
    };
    levels[which.clone()]
        .par_iter()
        .zip(which)
        .map(|(rows, i)| {
            if game.check(rows).is_err() {
                return Ok(refused);
            }
            let level = Level::bare(game.id(), format!("eval-{i}"), rows.clone());
            let options = AnalyseOptions {
                seed: seed.wrapping_add(i as u64),
                ..Default::default()
            };
            match game.analyse(&level, &options, cancel) {
                Ok(a) => Ok(Verdicts {
                    legal: true,
                    playable: a.verdict.pass,
                    solvable: a.fields.get("solvable").and_then(|v| v.as_bool()),
                }),
                Err(JobError::Cancelled) => Err(LevelVaeError::Cancelled),
                Err(JobError::Failed(_)) => Ok(Verdicts {
                    legal: true,
                    ..refused
                }),
            }
        })
        .collect()
}

/// The report on `levels` (as [`draw`] made them) with their `verdicts`.
///
/// # Errors
/// A tensor failure reconstructing the held-out levels.
pub fn report(
    model: &LevelVae,
    levels: &[Vec<String>],
    verdicts: &[Verdicts],
    ms_per_level: f64,
    temperature: f64,
) -> Result<EvalReport, LevelVaeError> {
    let side = &model.sidecar;
    let count = levels.len();
    let n = count.max(1) as f64;
    let share = |f: &dyn Fn(&Verdicts) -> bool| verdicts.iter().filter(|v| f(v)).count() as f64 / n;
    let solvable = verdicts
        .iter()
        .any(|v| v.solvable.is_some())
        .then(|| share(&|v| v.solvable == Some(true)));
    let copies = levels.iter().map(|r| side.copied_share(r)).sum::<f64>() / n;
    let mut distinct = levels.to_vec();
    distinct.sort();
    distinct.dedup();
    let palette = side.palette();
    let shares = |set: &[Vec<String>]| -> Vec<Vec<f64>> {
        set.iter().map(|r| data::tile_shares(r, &palette)).collect()
    };
    let (mut right, mut cells) = (0usize, 0usize);
    for rows in &side.holdout {
        let back = model.reconstruct(rows)?;
        for (a, b) in rows.iter().zip(&back) {
            right += a.chars().zip(b.chars()).filter(|(p, q)| p == q).count();
            cells += a.chars().count();
        }
    }
    Ok(EvalReport {
        game: side.game.clone(),
        count,
        playable: share(&|v| v.playable),
        legal: share(&|v| v.legal),
        solvable,
        copies,
        distinct: distinct.len() as f64 / n,
        e_distance: data::energy_distance(&shares(levels), &shares(&side.holdout)),
        reconstruction: right as f64 / cells.max(1) as f64,
        ms_per_level,
        decoding: if model.score_decoder().is_some() {
            "game"
        } else {
            "cells"
        },
        temperature,
    })
}
