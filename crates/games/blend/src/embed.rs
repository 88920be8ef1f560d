//! The learned tile representation — our stand-in for CTE (Clustering-based Tile Embeddings),
//! whose trained model is not public. Per tile occurrence in a segment, its context: the tile's
//! own affordance tags, its 8 neighbours' tags (zero outside the segment) and 4 edge bits (on
//! the top, bottom, left, right border) → an autoencoder 76 → 64 → [`EMBED`] → 64 → 76 with a
//! clustering term (each embedding's squared distance to the mean embedding of its tile letter
//! in the batch, weighted [`EmbedConfig::cluster_weight`]) → a 16-d vector per cell.
//!
//! Decoding a vector: the nearest embedding of the decode table (Manhattan distance), whose
//! letter it becomes. The table holds the embeddings of the training data's distinct contexts,
//! at most [`TABLE`] of them (a seeded sample keeping every letter), so decoding a segment is
//! 256 × [`TABLE`] distances.
//!
//! Tags are Table I's properties (solid, passable, climbable, diggable, gold, damaging,
//! element, door), not pixels: the VGLC has no sprites, and the tags are what the unified
//! representation encodes by hand, so the comparison is between a learned and a hand-made code
//! of the same information plus each tile's neighbourhood.

use super::data::{Segment, SIDE};
use super::tiles::{props, LETTERS};
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{linear, Linear, Module, Optimizer, VarBuilder, VarMap};
use std::collections::BTreeMap;
use studio_core::rng::Rng;

/// Tags per tile.
pub const TAGS: usize = 8;
/// Numbers a cell of the context gives: its tags and its letter's one-hot (the stand-in for
/// the tile's sprite, which sets every tile apart as CTE's pixels do).
pub const CELL: usize = TAGS + LETTERS.len();
/// Context width: own and 8 neighbours' cells, 4 edge bits.
pub const CONTEXT: usize = CELL * 9 + 4;
/// Embedding width.
pub const EMBED: usize = 16;
/// Largest decode table.
pub const TABLE: usize = 1024;
const HIDDEN: usize = 64;

/// A letter's tags.
pub fn tags(letter: char) -> [f32; TAGS] {
    let p = props(letter);
    let b =
        |f: fn(&super::tiles::Props) -> bool| p.as_ref().map_or(0.0, |p| f32::from(u8::from(f(p))));
    [
        b(|p| p.solid),
        b(|p| p.passable),
        b(|p| p.climbable),
        b(|p| p.diggable),
        b(|p| p.gold),
        b(|p| p.damaging),
        b(|p| p.element),
        b(|p| p.door),
    ]
}

/// The contexts of a segment's 256 cells, row-major (`256 × CONTEXT`).
pub fn contexts(rows: &[String]) -> Vec<f32> {
    let cells: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let mut out = Vec::with_capacity(SIDE * SIDE * CONTEXT);
    for y in 0..SIDE as i64 {
        for x in 0..SIDE as i64 {
            for (dx, dy) in [
                (0, 0),
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let (nx, ny) = (x + dx, y + dy);
                let letter = (nx >= 0 && ny >= 0)
                    .then(|| cells.get(ny as usize).and_then(|r| r.get(nx as usize)))
                    .flatten();
                match letter {
                    Some(&l) => {
                        out.extend(tags(l));
                        out.extend(LETTERS.iter().map(|&k| f32::from(u8::from(k == l))));
                    }
                    None => out.extend([0.0; CELL]),
                }
            }
            let last = SIDE as i64 - 1;
            out.extend([y == 0, y == last, x == 0, x == last].map(|e| f32::from(u8::from(e))));
        }
    }
    out
}

/// The autoencoder.
pub struct TileEncoder {
    e1: Linear,
    e2: Linear,
    d1: Linear,
    d2: Linear,
}

impl TileEncoder {
    /// Builds (or loads) it under `vb`.
    ///
    /// # Errors
    /// A missing or misshapen tensor.
    pub fn new(vb: VarBuilder) -> candle_core::Result<Self> {
        Ok(Self {
            e1: linear(CONTEXT, HIDDEN, vb.pp("e1"))?,
            e2: linear(HIDDEN, EMBED, vb.pp("e2"))?,
            d1: linear(EMBED, HIDDEN, vb.pp("d1"))?,
            d2: linear(HIDDEN, CONTEXT, vb.pp("d2"))?,
        })
    }

    /// Embeddings `[N, EMBED]` of contexts `[N, CONTEXT]`, each scaled to unit length: the
    /// VAE's squared error then weighs every direction alike, and the mean of two tiles'
    /// embeddings (what a VAE unsure between them outputs) stays nearer to those two than to
    /// a third tile lying between them in an unscaled space.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn encode(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let e = self.e2.forward(&self.e1.forward(x)?.relu()?)?;
        let norm = e
            .sqr()?
            .sum_keepdim(D::Minus1)?
            .sqrt()?
            .clamp(1e-6f32, f32::MAX)?;
        e.broadcast_div(&norm)
    }

    fn decode(&self, e: &Tensor) -> candle_core::Result<Tensor> {
        candle_nn::ops::sigmoid(&self.d2.forward(&self.d1.forward(e)?.relu()?)?)
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct EmbedConfig {
    /// Passes over the distinct contexts.
    pub epochs: usize,
    /// Batch size.
    pub batch: usize,
    /// Learning rate.
    pub learning_rate: f64,
    /// Weight of the clustering term.
    pub cluster_weight: f64,
    /// Seed.
    pub seed: u64,
}

impl EmbedConfig {
    /// Defaults.
    pub fn new(seed: u64) -> Self {
        Self {
            epochs: 40,
            batch: 256,
            learning_rate: 1e-3,
            cluster_weight: 1.0,
            seed,
        }
    }
}

/// A trained representation: the encoder and the decode table.
pub struct Embedding {
    /// The autoencoder (its encoder embeds segments).
    pub encoder: TileEncoder,
    /// Decode table: embeddings, `TABLE × EMBED` at most.
    pub table: Vec<[f32; EMBED]>,
    /// The letter of each table entry.
    pub letters: Vec<char>,
}

/// The distinct (context, letter) pairs of `segments`, in a fixed order.
pub fn distinct_contexts(segments: &[Segment]) -> Vec<(Vec<f32>, char)> {
    let mut seen: BTreeMap<Vec<u8>, char> = BTreeMap::new();
    for s in segments {
        let ctx = contexts(&s.rows);
        let letters: Vec<char> = s.rows.iter().flat_map(|r| r.chars()).collect();
        for (i, &l) in letters.iter().enumerate() {
            let key: Vec<u8> = ctx[i * CONTEXT..(i + 1) * CONTEXT]
                .iter()
                .map(|&v| v as u8)
                .collect();
            seen.entry(key).or_insert(l);
        }
    }
    seen.into_iter()
        .map(|(k, l)| (k.into_iter().map(f32::from).collect(), l))
        .collect()
}

/// Trains the representation on `segments`; returns its weights, the model and the loss per
/// epoch.
///
/// # Errors
/// A candle error.
pub fn train(
    config: &EmbedConfig,
    segments: &[Segment],
) -> candle_core::Result<(VarMap, Embedding, Vec<f64>)> {
    let device = Device::Cpu;
    let varmap = VarMap::new();
    let encoder = TileEncoder::new(
        VarBuilder::from_varmap(&varmap, DType::F32, &device).pp(super::vae::EMBED_PREFIX),
    )?;
    studio_ml::seeded_init(&varmap, config.seed)
        .map_err(|e| candle_core::Error::Msg(e.to_string()))?;
    let mut opt = studio_ml::adam(varmap.all_vars(), config.learning_rate)?;
    let data = distinct_contexts(segments);
    let mut rng = Rng::derive(config.seed, 0xe3b);
    let mut curve = Vec::new();
    for _ in 0..config.epochs {
        let mut order: Vec<usize> = (0..data.len()).collect();
        rng.shuffle(&mut order);
        let (mut sum, mut n) = (0.0, 0usize);
        for idx in order.chunks(config.batch) {
            let b = idx.len();
            let x: Vec<f32> = idx
                .iter()
                .flat_map(|&i| data[i].0.iter().copied())
                .collect();
            let x = Tensor::from_vec(x, (b, CONTEXT), &device)?;
            let onehot: Vec<f32> = idx
                .iter()
                .flat_map(|&i| {
                    let k = LETTERS.iter().position(|&l| l == data[i].1).unwrap_or(0);
                    (0..LETTERS.len()).map(move |t| f32::from(u8::from(t == k)))
                })
                .collect();
            let onehot = Tensor::from_vec(onehot, (b, LETTERS.len()), &device)?;
            let e = encoder.encode(&x)?;
            let rec = (encoder.decode(&e)? - &x)?
                .sqr()?
                .sum(D::Minus1)?
                .mean_all()?;
            // Per-letter means of the batch, and each embedding's distance to its letter's.
            let counts = onehot.sum(0)?.clamp(1.0f32, f32::MAX)?;
            let sums = onehot.t()?.matmul(&e)?;
            let means = sums.broadcast_div(&counts.unsqueeze(1)?)?;
            let centre = onehot.matmul(&means.detach())?;
            let cluster = (&e - centre)?.sqr()?.sum(D::Minus1)?.mean_all()?;
            let loss = (&rec + cluster.affine(config.cluster_weight, 0.0)?)?;
            opt.backward_step(&loss)?;
            sum += f64::from(loss.to_scalar::<f32>()?);
            n += 1;
        }
        curve.push(sum / n.max(1) as f64);
    }
    // The decode table: a seeded sample of the distinct contexts, every letter kept.
    let mut picks: Vec<usize> = (0..data.len()).collect();
    if picks.len() > TABLE {
        let mut by_letter: BTreeMap<char, Vec<usize>> = BTreeMap::new();
        for (i, (_, l)) in data.iter().enumerate() {
            by_letter.entry(*l).or_default().push(i);
        }
        let mut chosen: Vec<usize> = Vec::new();
        for list in by_letter.values_mut() {
            rng.shuffle(list);
            chosen.extend(list.iter().take(8));
        }
        let mut rest: Vec<usize> = (0..data.len()).filter(|i| !chosen.contains(i)).collect();
        rng.shuffle(&mut rest);
        chosen.extend(rest.into_iter().take(TABLE.saturating_sub(chosen.len())));
        chosen.sort_unstable();
        picks = chosen;
    }
    let x: Vec<f32> = picks
        .iter()
        .flat_map(|&i| data[i].0.iter().copied())
        .collect();
    let e = encoder
        .encode(&Tensor::from_vec(x, (picks.len(), CONTEXT), &device)?)?
        .to_vec2::<f32>()?;
    let table = e
        .into_iter()
        .map(|r| {
            let mut a = [0.0f32; EMBED];
            a.copy_from_slice(&r[..EMBED]);
            a
        })
        .collect();
    let letters = picks.iter().map(|&i| data[i].1).collect();
    Ok((
        varmap,
        Embedding {
            encoder,
            table,
            letters,
        },
        curve,
    ))
}

impl Embedding {
    /// A segment as `256 × EMBED` numbers.
    ///
    /// # Errors
    /// A candle error.
    pub fn encode_segment(&self, rows: &[String]) -> candle_core::Result<Vec<f32>> {
        let x = Tensor::from_vec(contexts(rows), (SIDE * SIDE, CONTEXT), &Device::Cpu)?;
        self.encoder.encode(&x)?.flatten_all()?.to_vec1::<f32>()
    }

    /// The letter of the table entry nearest `v` (Manhattan).
    pub fn decode_cell(&self, v: &[f32]) -> char {
        let mut best = (f32::INFINITY, '.');
        for (e, &l) in self.table.iter().zip(&self.letters) {
            let d: f32 = e.iter().zip(v).map(|(a, b)| (a - b).abs()).sum();
            if d < best.0 {
                best = (d, l);
            }
        }
        best.1
    }

    /// A segment from `256 × EMBED` numbers.
    pub fn decode_segment(&self, cells: &[f32]) -> Vec<String> {
        cells
            .chunks(EMBED)
            .map(|v| self.decode_cell(v))
            .collect::<Vec<char>>()
            .chunks(SIDE)
            .map(|r| r.iter().collect())
            .collect()
    }

    /// The table and letters as tensors (saved beside the encoder).
    ///
    /// # Errors
    /// A candle error.
    pub fn table_tensors(&self) -> candle_core::Result<(Tensor, Tensor)> {
        let flat: Vec<f32> = self.table.iter().flatten().copied().collect();
        let letters: Vec<f32> = self
            .letters
            .iter()
            .map(|l| LETTERS.iter().position(|x| x == l).unwrap_or(0) as f32)
            .collect();
        Ok((
            Tensor::from_vec(flat, (self.table.len(), EMBED), &Device::Cpu)?,
            Tensor::from_vec(letters, self.letters.len(), &Device::Cpu)?,
        ))
    }

    /// Rebuilds a representation from its encoder and saved table tensors.
    ///
    /// # Errors
    /// A tensor of the wrong shape.
    pub fn from_parts(
        encoder: TileEncoder,
        table: &Tensor,
        letters: &Tensor,
    ) -> candle_core::Result<Self> {
        let rows = table.to_vec2::<f32>()?;
        let letters: Vec<char> = letters
            .to_vec1::<f32>()?
            .into_iter()
            .map(|k| LETTERS[(k as usize).min(LETTERS.len() - 1)])
            .collect();
        if rows.len() != letters.len() || rows.iter().any(|r| r.len() != EMBED) {
            return Err(candle_core::Error::Msg(
                "the decode table and its letters do not match".into(),
            ));
        }
        Ok(Self {
            encoder,
            table: rows
                .into_iter()
                .map(|r| {
                    let mut a = [0.0f32; EMBED];
                    a.copy_from_slice(&r);
                    a
                })
                .collect(),
            letters,
        })
    }
}
