//! A trained level VAE, loaded: its sidecar checked against the registered games, its
//! weights against the sidecar's stamp; then encoding a level, decoding latent points into
//! levels of any size the grid holds, sampling, walking between two levels, and making long
//! side-scrolling levels window by window.

use super::data::{self, DataError};
use super::net::Net;
use super::sidecar::{LevelVaeSidecar, KIND};
use candle_core::{DType, Device, Tensor};
use std::path::{Path, PathBuf};
use studio_core::game::{registry, Game, ScoreDecoder, TileScores};
use studio_core::rng::Rng;

/// Why a level VAE cannot be loaded or used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelVaeError {
    /// The sidecar is missing, unreadable or not a level VAE's.
    #[error("{path}: {reason}")]
    Sidecar {
        /// The weights file.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// The model's game is not one this studio has.
    #[error("the model is of the game {game:?}, which is not registered here ({known})")]
    UnknownGame {
        /// The model's game.
        game: String,
        /// The registered games.
        known: String,
    },
    /// The game's description changed since the model was trained.
    #[error(
        "the model was trained on {game}'s description as it was (hash {trained}); the game \
         open now has another description (hash {now}): retrain the model on a pack of this \
         description"
    )]
    DescriptionChanged {
        /// The game.
        game: String,
        /// The hash the model recorded.
        trained: String,
        /// The hash of the description open now.
        now: String,
    },
    /// A level of another game than the model's.
    #[error("the model is a {model} model; this is a {level} level")]
    OtherGame {
        /// The model's game.
        model: String,
        /// The level's game.
        level: String,
    },
    /// The weights do not load.
    #[error("{path}: {reason}")]
    Weights {
        /// The weights file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A level the model cannot read.
    #[error(transparent)]
    Level(#[from] DataError),
    /// Training was refused or failed, in words.
    #[error("{0}")]
    Training(String),
    /// The job was cancelled.
    #[error("cancelled")]
    Cancelled,
    /// A tensor failure.
    #[error("tensor failure: {0}")]
    Tensor(String),
}

impl From<candle_core::Error> for LevelVaeError {
    fn from(e: candle_core::Error) -> Self {
        Self::Tensor(e.to_string())
    }
}

/// A loaded level VAE.
pub struct LevelVae {
    /// What its sidecar says.
    pub sidecar: LevelVaeSidecar,
    /// The weights file it was loaded from.
    pub path: PathBuf,
    net: Net,
    device: Device,
    palette: Vec<char>,
    /// The game's decoding of scores under its rules, found once at load; `None` for a game
    /// without one or a model told [`LevelVae::cell_by_cell`].
    decoder: Option<ScoreDecoder>,
}

impl std::fmt::Debug for LevelVae {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LevelVae({})", self.path.display())
    }
}

/// Reads a weights file's sidecar as a level VAE's.
///
/// # Errors
/// [`LevelVaeError::Sidecar`]: missing, malformed, or another model's.
pub fn read_sidecar(weights: &Path) -> Result<LevelVaeSidecar, LevelVaeError> {
    let bad = |reason: String| LevelVaeError::Sidecar {
        path: weights.to_path_buf(),
        reason,
    };
    let side = crate::sidecar_path(weights);
    let text = studio_core::io::read_text(&side).map_err(|e| {
        bad(format!(
            "its sidecar {} cannot be read: {e}",
            side.display()
        ))
    })?;
    if !text.contains(&format!("kind: \"{KIND}\"")) {
        return Err(bad(format!(
            "its sidecar {} is not a level VAE's (train one with `train --model level-vae \
             --pack PACK.ron`)",
            side.display()
        )));
    }
    studio_core::io::from_ron(&side, &text).map_err(|e| bad(e.to_string()))
}

/// The registered game a sidecar names, registering a VGDL game from the description it
/// carries when it is not open; refuses a game whose open description differs.
///
/// # Errors
/// [`LevelVaeError::UnknownGame`] or [`LevelVaeError::DescriptionChanged`].
pub fn game_of(sidecar: &LevelVaeSidecar) -> Result<&'static dyn Game, LevelVaeError> {
    let unknown = || LevelVaeError::UnknownGame {
        game: sidecar.game.clone(),
        known: registry::names().join(", "),
    };
    let game = match registry::find(&sidecar.game) {
        Ok(game) => game,
        Err(_) => {
            let source = sidecar.source.as_ref().ok_or_else(unknown)?;
            registry::load_sources(std::slice::from_ref(source))
                .map_err(|e| LevelVaeError::Training(e.to_string()))?;
            registry::find(&sidecar.game).map_err(|_| unknown())?
        }
    };
    if let Some(trained) = &sidecar.source_hash {
        let now = game
            .source()
            .map(|s| studio_core::io::fnv1a_hex(s.text.as_bytes()))
            .unwrap_or_else(|| "none".into());
        if &now != trained {
            return Err(LevelVaeError::DescriptionChanged {
                game: game.name().to_string(),
                trained: trained.clone(),
                now,
            });
        }
    }
    Ok(game)
}

impl LevelVae {
    /// Loads the model at `weights` (its sidecar beside it).
    ///
    /// # Errors
    /// [`LevelVaeError`]: the sidecar, the game, or the weights, in words.
    pub fn load(weights: &Path) -> Result<Self, LevelVaeError> {
        let sidecar = read_sidecar(weights)?;
        game_of(&sidecar)?;
        let failed = |reason: String| LevelVaeError::Weights {
            path: weights.to_path_buf(),
            reason,
        };
        let bytes = crate::read_stamped(
            weights,
            &crate::sidecar_path(weights),
            sidecar.weights.as_ref(),
        )
        .map_err(|e| failed(e.to_string()))?;
        let device = crate::device();
        let tensors = crate::tensors_from(&bytes, &device).map_err(|e| failed(e.to_string()))?;
        let vb = candle_nn::VarBuilder::from_tensors(tensors, DType::F32, &device);
        let net = Net::new(sidecar.arch, sidecar.shape, vb)
            .map_err(|e| failed(format!("the weights do not fit the sidecar's network: {e}")))?;
        Ok(Self::from_parts(sidecar, weights, net, device))
    }

    /// A model from a network built in memory (training's last step).
    pub(super) fn from_parts(
        sidecar: LevelVaeSidecar,
        path: &Path,
        net: Net,
        device: Device,
    ) -> Self {
        let palette = sidecar.palette();
        let decoder = game_of(&sidecar).ok().and_then(|g| g.score_decoder());
        Self {
            sidecar,
            path: path.to_path_buf(),
            net,
            device,
            palette,
            decoder,
        }
    }

    /// The same model, making every level cell by cell (each cell its likeliest or drawn
    /// tile) even where its game decodes a model's scores under its own rules
    /// ([`Game::score_decoder`]): what `eval --cell-by-cell` measures.
    pub fn cell_by_cell(mut self) -> Self {
        self.decoder = None;
        self
    }

    /// The game's decoding of scores under its rules, when levels are made that way
    /// (neither a game without one nor a model told [`LevelVae::cell_by_cell`]).
    pub fn score_decoder(&self) -> Option<ScoreDecoder> {
        self.decoder
    }

    /// The model's game.
    ///
    /// # Errors
    /// [`LevelVaeError::UnknownGame`] when it is no longer registered.
    pub fn game(&self) -> Result<&'static dyn Game, LevelVaeError> {
        game_of(&self.sidecar)
    }

    /// Refuses a level of another game.
    ///
    /// # Errors
    /// [`LevelVaeError::OtherGame`].
    pub fn check_game(&self, level: &studio_core::level::Level) -> Result<(), LevelVaeError> {
        if level.game.as_str() != self.sidecar.game {
            return Err(LevelVaeError::OtherGame {
                model: self.sidecar.game.clone(),
                level: level.game.as_str().to_string(),
            });
        }
        Ok(())
    }

    /// Latent dimensions.
    pub fn latent(&self) -> usize {
        self.sidecar.shape.latent
    }

    /// The grid (width, height).
    pub fn grid(&self) -> (usize, usize) {
        self.sidecar.grid()
    }

    fn cond(&self, sizes: &[((usize, usize), Option<f64>)]) -> candle_core::Result<Tensor> {
        let grid = self.grid();
        let rows: Vec<f32> = sizes
            .iter()
            .flat_map(|&(size, figure)| {
                data::conditions(size, grid, figure, self.sidecar.figure_range())
            })
            .collect();
        let c = rows.len() / sizes.len().max(1);
        Tensor::from_vec(rows, (sizes.len(), c), &self.device)
    }

    /// μ and log σ² of a level's rows (`figure`: its conditioning figure, when the model
    /// takes one; the training median otherwise).
    ///
    /// # Errors
    /// A level the grid cannot hold or with a tile the palette lacks.
    pub fn encode(
        &self,
        rows: &[String],
        figure: Option<f64>,
    ) -> Result<(Vec<f32>, Vec<f32>), LevelVaeError> {
        let figure = figure.or(self.sidecar.condition.as_ref().map(|c| c.median));
        let example = data::encode(rows, &self.palette, self.grid(), figure)?;
        let b = data::batch(
            &[&example],
            self.palette.len(),
            self.grid(),
            self.sidecar.figure_range(),
            &self.device,
        )?;
        let (mu, logvar) = self.net.encode(&b.x, &b.cond)?;
        Ok((
            mu.flatten_all()?.to_vec1::<f32>()?,
            logvar.flatten_all()?.to_vec1::<f32>()?,
        ))
    }

    /// The logits `[cells · tiles]` of each latent point, decoded at `size` under `figure`.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn logits(
        &self,
        zs: &[Vec<f32>],
        size: (usize, usize),
        figure: Option<f64>,
    ) -> Result<Vec<Vec<f32>>, LevelVaeError> {
        if zs.is_empty() {
            return Ok(Vec::new());
        }
        let figure = figure.or(self.sidecar.condition.as_ref().map(|c| c.median));
        let flat: Vec<f32> = zs.iter().flatten().copied().collect();
        let z = Tensor::from_vec(flat, (zs.len(), self.latent()), &self.device)?;
        let cond = self.cond(&vec![(size, figure); zs.len()])?;
        let out = self
            .net
            .decode(&z, &cond)?
            .flatten_from(1)?
            .to_vec2::<f32>()?;
        Ok(out)
    }

    /// Rows of `size` from one latent point's logits: each cell its most likely tile (or a
    /// tile drawn at `temperature` > 0 with `rng`), and each tile every training level held
    /// exactly once put in exactly one cell, where the model most prefers it.
    /// Where the game decodes a model's scores under its own rules
    /// ([`Game::score_decoder`]), the game builds the level instead, from each cell's
    /// log-probabilities (perturbed by Gumbel noise scaled by `temperature`, so that a cell
    /// left free is drawn as the cell-by-cell decoding would draw it).
    pub fn rows_from_logits(
        &self,
        logits: &[f32],
        size: (usize, usize),
        temperature: f64,
        mut rng: Option<&mut Rng>,
    ) -> Vec<String> {
        if let Some(rows) = self.rows_by_game(logits, size, temperature, rng.as_deref_mut()) {
            return rows;
        }
        let region: Vec<(usize, usize)> = (0..size.1)
            .flat_map(|y| (0..size.0).map(move |x| (x, y)))
            .collect();
        let tiles = self.pick_tiles(logits, &region, &[], temperature, rng);
        let mut rows = vec![String::new(); size.1];
        for (&(_, y), &t) in region.iter().zip(&tiles) {
            rows[y].push(self.palette[t]);
        }
        rows
    }

    /// The game's own decoding of one latent point's logits at `size`
    /// ([`Game::score_decoder`]); `None` when the game has none, or the model decodes cell
    /// by cell ([`LevelVae::cell_by_cell`]).
    pub fn rows_by_game(
        &self,
        logits: &[f32],
        size: (usize, usize),
        temperature: f64,
        rng: Option<&mut Rng>,
    ) -> Option<Vec<String>> {
        self.rows_by_game_in(logits, self.grid().0, size, temperature, rng)
    }

    /// [`LevelVae::rows_by_game`] of logits laid out `grid_w` cells a row.
    fn rows_by_game_in(
        &self,
        logits: &[f32],
        grid_w: usize,
        size: (usize, usize),
        temperature: f64,
        mut rng: Option<&mut Rng>,
    ) -> Option<Vec<String>> {
        let decode = self.score_decoder()?;
        let k = self.palette.len();
        let mut scores = Vec::with_capacity(size.0 * size.1 * k);
        for y in 0..size.1 {
            for x in 0..size.0 {
                let cell = logits.get((y * grid_w + x) * k..(y * grid_w + x + 1) * k)?;
                let top = cell.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let sum: f32 = cell.iter().map(|l| (l - top).exp()).sum();
                let log_sum = top + sum.ln();
                for &l in cell {
                    let noise = match (temperature > 0.0, rng.as_deref_mut()) {
                        (true, Some(rng)) => temperature * gumbel(rng),
                        _ => 0.0,
                    };
                    scores.push(l - log_sum + noise as f32);
                }
            }
        }
        decode(&TileScores {
            width: size.0,
            height: size.1,
            palette: &self.palette,
            scores: &scores,
        })
    }

    /// The tile of every cell of `region` from the logits of the model's grid: singletons
    /// placed once each (those in `forbidden` nowhere), the rest by argmax or by a draw at
    /// `temperature`.
    pub(super) fn pick_tiles(
        &self,
        logits: &[f32],
        region: &[(usize, usize)],
        forbidden: &[usize],
        temperature: f64,
        mut rng: Option<&mut Rng>,
    ) -> Vec<usize> {
        let k = self.palette.len();
        let grid_w = self.grid().0;
        let singles: Vec<usize> = self
            .sidecar
            .singletons
            .chars()
            .filter_map(|c| self.palette.iter().position(|&p| p == c))
            .collect();
        let free = |t: usize| !singles.contains(&t) && !forbidden.contains(&t);
        let cell =
            |&(x, y): &(usize, usize)| &logits[(y * grid_w + x) * k..(y * grid_w + x + 1) * k];
        let mut out: Vec<Option<usize>> = vec![None; region.len()];
        for &s in singles.iter().filter(|s| !forbidden.contains(s)) {
            let best = region
                .iter()
                .enumerate()
                .filter(|(i, _)| out[*i].is_none())
                .map(|(i, c)| {
                    let l = cell(c);
                    let other = (0..k)
                        .filter(|&t| free(t))
                        .map(|t| l[t])
                        .fold(f32::NEG_INFINITY, f32::max);
                    (i, l[s] - other)
                })
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
            if let Some((i, _)) = best {
                out[i] = Some(s);
            }
        }
        region
            .iter()
            .zip(out)
            .map(|(c, fixed)| {
                fixed.unwrap_or_else(|| {
                    let l = cell(c);
                    let allowed: Vec<usize> = (0..k).filter(|&t| free(t)).collect();
                    if allowed.is_empty() {
                        return 0;
                    }
                    match (temperature > 0.0, rng.as_deref_mut()) {
                        (true, Some(rng)) => draw(l, &allowed, temperature, rng),
                        _ => *allowed
                            .iter()
                            .max_by(|&&a, &&b| l[a].total_cmp(&l[b]).then(b.cmp(&a)))
                            .unwrap_or(&allowed[0]),
                    }
                })
            })
            .collect()
    }

    /// Levels of `size` decoded from latent points by argmax.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn decode(
        &self,
        zs: &[Vec<f32>],
        size: (usize, usize),
        figure: Option<f64>,
    ) -> Result<Vec<Vec<String>>, LevelVaeError> {
        Ok(self
            .logits(zs, size, figure)?
            .iter()
            .map(|l| self.rows_from_logits(l, size, 0.0, None))
            .collect())
    }

    /// A latent point drawn from the prior, N(0, I), scaled by `spread`.
    pub fn prior(&self, rng: &mut Rng, spread: f64) -> Vec<f32> {
        (0..self.latent())
            .map(|_| (rng.normal() * spread) as f32)
            .collect()
    }

    /// The model's reconstruction of a level (its μ decoded at its size).
    ///
    /// # Errors
    /// A level the model cannot read.
    pub fn reconstruct(&self, rows: &[String]) -> Result<Vec<String>, LevelVaeError> {
        let size = data::size_of(rows).ok_or(DataError::Ragged)?;
        let (mu, _) = self.encode(rows, None)?;
        Ok(self.decode(&[mu], size, None)?.remove(0))
    }

    /// The walk from `a` to `b`: both ends' reconstructions and `steps` levels between,
    /// the latent point and the size moving in equal steps.
    ///
    /// # Errors
    /// A level the model cannot read.
    pub fn interpolate(
        &self,
        a: &[String],
        b: &[String],
        steps: usize,
    ) -> Result<Vec<Vec<String>>, LevelVaeError> {
        let sa = data::size_of(a).ok_or(DataError::Ragged)?;
        let sb = data::size_of(b).ok_or(DataError::Ragged)?;
        let (za, _) = self.encode(a, None)?;
        let (zb, _) = self.encode(b, None)?;
        let mut out = Vec::with_capacity(steps + 2);
        for i in 0..steps + 2 {
            let t = i as f64 / (steps + 1) as f64;
            let z: Vec<f32> = za
                .iter()
                .zip(&zb)
                .map(|(p, q)| p + (q - p) * t as f32)
                .collect();
            let lerp = |p: usize, q: usize| (p as f64 + (q as f64 - p as f64) * t).round() as usize;
            let size = (lerp(sa.0, sb.0), lerp(sa.1, sb.1));
            out.push(self.decode(&[z], size, None)?.remove(0));
        }
        Ok(out)
    }

    /// A side-scrolling level `width` columns long, window by window: the first window drawn
    /// from the prior; each next one chosen among `tries` draws as the one whose decoded
    /// overlap (the last half window) agrees most with the level so far, its overlap
    /// re-encoded so the new columns continue the old ones; the new columns appended.
    /// `unique` (the game's player tile) ends up in exactly one cell, in the first window.
    ///
    /// # Errors
    /// A model without windows, or a tensor failure.
    pub fn generate_long(
        &self,
        width: usize,
        temperature: f64,
        unique: Option<usize>,
        rng: &mut Rng,
        tries: usize,
    ) -> Result<Vec<String>, LevelVaeError> {
        let window = self.sidecar.window.ok_or_else(|| {
            LevelVaeError::Training("the model was not trained on windows".into())
        })?;
        let (ww, wh) = (window.width, window.height);
        let overlap = ww / 2;
        let z = self.prior(rng, 1.0);
        let first = &self.logits(&[z], (ww, wh), None)?[0];
        let mut rows = self.rows_from_logits(first, (ww, wh), temperature, Some(rng));
        let k = self.palette.len();
        // Each column's logits as chosen, for a game that decodes the whole level at the end.
        let mut columns: Vec<Vec<f32>> = (0..ww).map(|x| column(first, ww, wh, k, x)).collect();
        let mut placed = unique.is_some_and(|u| count(&rows, self.palette[u]) > 0);
        if let (Some(u), false) = (unique, placed) {
            place_best(&mut rows, first, self.grid().0, ww, &self.palette, u);
            placed = true;
        }
        while rows[0].chars().count() < width {
            let have = rows[0].chars().count();
            let tail: Vec<String> = rows
                .iter()
                .map(|r| r.chars().skip(have - overlap).collect())
                .collect();
            let zs: Vec<Vec<f32>> = (0..tries.max(1)).map(|_| self.prior(rng, 1.0)).collect();
            let drafts = self.logits(&zs, (ww, wh), None)?;
            // Each draft's new columns after the known overlap, re-encoded with it.
            let mut best: Option<(usize, Vec<f32>)> = None;
            let mut candidates = Vec::new();
            for d in &drafts {
                let draft = self.rows_from_logits(d, (ww, wh), 0.0, None);
                let joined: Vec<String> = tail
                    .iter()
                    .zip(&draft)
                    .map(|(t, r)| format!("{t}{}", r.chars().skip(overlap).collect::<String>()))
                    .collect();
                let (mu, _) = self.encode(&joined, None)?;
                candidates.push(mu);
            }
            let decoded = self.logits(&candidates, (ww, wh), None)?;
            for (l, _) in decoded.iter().zip(&candidates) {
                let r = self.rows_from_logits(l, (ww, wh), 0.0, None);
                let agree = (0..wh)
                    .map(|y| {
                        r[y].chars()
                            .zip(tail[y].chars())
                            .take(overlap)
                            .filter(|(p, q)| p == q)
                            .count()
                    })
                    .sum::<usize>();
                if best.as_ref().is_none_or(|(a, _)| agree > *a) {
                    best = Some((agree, l.clone()));
                }
            }
            let Some((_, logits)) = best else { break };
            let next = self.rows_from_logits(&logits, (ww, wh), temperature, Some(rng));
            let take = (ww - overlap).min(width - have);
            for (row, new) in rows.iter_mut().zip(&next) {
                row.extend(new.chars().skip(overlap).take(take));
            }
            columns.extend((overlap..overlap + take).map(|x| column(&logits, ww, wh, k, x)));
        }
        if self.score_decoder().is_some() {
            // Decoded window by window, a game's structures (a Mario pipe) would be cut at
            // the seams: the game builds the whole level from every column's scores at once.
            let long = columns.len();
            let mut all = vec![0.0f32; long * wh * k];
            for (x, col) in columns.iter().enumerate() {
                for y in 0..wh {
                    all[(y * long + x) * k..(y * long + x + 1) * k]
                        .copy_from_slice(&col[y * k..(y + 1) * k]);
                }
            }
            if let Some(whole) =
                self.rows_by_game_in(&all, long, (long, wh), temperature, Some(rng))
            {
                rows = whole;
                placed = unique.is_some();
                if let Some(u) = unique.filter(|&u| count(&rows, self.palette[u]) == 0) {
                    place_best(&mut rows, &all, long, ww, &self.palette, u);
                }
            }
        }
        if let Some(u) = unique.filter(|_| placed) {
            keep_first(&mut rows, self.palette[u], &self.palette, u);
        }
        Ok(rows)
    }
}

/// Column `x`'s logits, top to bottom, of a `w × h` grid of `k` tiles a cell.
fn column(logits: &[f32], w: usize, h: usize, k: usize, x: usize) -> Vec<f32> {
    (0..h)
        .flat_map(|y| logits[(y * w + x) * k..(y * w + x + 1) * k].iter().copied())
        .collect()
}

/// Draws one of `allowed` from the softmax of its logits at `temperature`.
fn draw(logits: &[f32], allowed: &[usize], temperature: f64, rng: &mut Rng) -> usize {
    let top = allowed
        .iter()
        .map(|&t| logits[t] as f64)
        .fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = allowed
        .iter()
        .map(|&t| ((logits[t] as f64 - top) / temperature).exp())
        .collect();
    let mut r = rng.unit() * weights.iter().sum::<f64>();
    for (&t, w) in allowed.iter().zip(&weights) {
        if r < *w {
            return t;
        }
        r -= w;
    }
    allowed[allowed.len() - 1]
}

/// A draw of the standard Gumbel distribution: the noise whose argmax with log-probabilities
/// is a draw from them.
fn gumbel(rng: &mut Rng) -> f64 {
    let u = rng.unit().clamp(1e-12, 1.0 - 1e-12);
    -(-u.ln()).ln()
}

/// How often `ch` occurs in rows.
fn count(rows: &[String], ch: char) -> usize {
    rows.iter()
        .flat_map(|r| r.chars())
        .filter(|&c| c == ch)
        .count()
}

/// Puts tile `u` in the cell of `rows`' first `upto` columns whose logit margin for it is
/// highest.
fn place_best(
    rows: &mut [String],
    logits: &[f32],
    grid_w: usize,
    upto: usize,
    palette: &[char],
    u: usize,
) {
    let k = palette.len();
    let mut best = (f32::NEG_INFINITY, 0, 0);
    for (y, row) in rows.iter().enumerate() {
        for x in 0..row.chars().count().min(upto) {
            let l = &logits[(y * grid_w + x) * k..(y * grid_w + x + 1) * k];
            let other = (0..k)
                .filter(|&t| t != u)
                .map(|t| l[t])
                .fold(f32::NEG_INFINITY, f32::max);
            if l[u] - other > best.0 {
                best = (l[u] - other, x, y);
            }
        }
    }
    let (_, x, y) = best;
    let mut chars: Vec<char> = rows[y].chars().collect();
    chars[x] = palette[u];
    rows[y] = chars.into_iter().collect();
}

/// Keeps the first occurrence (column by column) of `ch` and turns the others into the
/// palette's first tile other than it.
fn keep_first(rows: &mut [String], ch: char, palette: &[char], u: usize) {
    let filler = palette
        .iter()
        .enumerate()
        .find(|(i, _)| *i != u)
        .map_or(ch, |(_, &c)| c);
    let width = rows.first().map_or(0, |r| r.chars().count());
    let mut grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let mut seen = false;
    for x in 0..width {
        for row in grid.iter_mut() {
            if row[x] == ch {
                if seen {
                    row[x] = filler;
                }
                seen = true;
            }
        }
    }
    for (row, g) in rows.iter_mut().zip(grid) {
        *row = g.into_iter().collect();
    }
}
