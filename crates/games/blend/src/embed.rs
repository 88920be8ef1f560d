//! The learned tile representation — our stand-in for CTE (Clustering-based Tile Embeddings),
//! whose trained model is not public. It is learned from each game's **own** tiles: Lode
//! Runner's eight VGLC letters and Zelda's ten are kept apart ([`OWN`]: Lode Runner's rope and
//! Zelda's void, its spawn and Zelda's monster, its ground and Zelda's block are different
//! tiles), and no Table I letter or tag is an input. Per tile occurrence in a segment, its
//! context: for the tile and each of its 8 neighbours, the tile's affordance tags *in its own
//! game* ([`own_tags`], from the VGLC tile keys: `Loderunner.json` and Zelda's
//! `Processed/README.txt`) and its own-tile one-hot (the stand-in for the tile's sprite, which
//! is what sets tiles with the same affordances apart in CTE's pixels; zeros outside the
//! segment; with [`Neighbours::Tags`] a neighbour gives its tags only), and 4 edge bits (on the
//! top, bottom, left, right border) → an autoencoder
//! [`Neighbours::width`] → 64 → [`EMBED`] → 64 → the same width, with a clustering term (each embedding's
//! squared distance to the mean embedding of its own tile in the batch, weighted
//! [`EmbedConfig::cluster_weight`]) → a 16-d vector per cell.
//!
//! Decoding a vector: the nearest embedding of the decode table (Manhattan distance), whose own
//! tile it becomes — a Lode Runner or a Zelda tile — and then that tile's Table I letter, which
//! is what the agents and metrics judge (Table I is the yardstick, not an input). The table
//! holds the embeddings of the training data's distinct contexts, at most [`TABLE`] of them (a
//! seeded sample keeping every own tile), so decoding a segment is 256 × [`TABLE`] distances.
//!
//! A training segment's letters are its own game's ([`Segment::source`]); a segment of unknown
//! origin (a blend, a pasted level) reads the letters both games write (`B`, `-`, `M`) in the
//! sense of the game it is like ([`super::metrics::likeness`]).

use super::data::{Segment, Source, SIDE};
use super::metrics::{likeness, Likeness};
use super::tiles::{origin, Origin};
use candle_core::{DType, Device, Tensor, D};
use candle_nn::{linear, Linear, Module, Optimizer, VarBuilder, VarMap};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use studio_core::rng::Rng;

/// Names of the learned representation's tensors in a model file.
pub const EMBED_PREFIX: &str = "embed";

/// Each game's own tiles: Lode Runner's VGLC letters, then Zelda's.
pub const OWN: [(Source, char); 18] = [
    (Source::LodeRunner, 'B'),
    (Source::LodeRunner, 'b'),
    (Source::LodeRunner, '.'),
    (Source::LodeRunner, '-'),
    (Source::LodeRunner, '#'),
    (Source::LodeRunner, 'G'),
    (Source::LodeRunner, 'E'),
    (Source::LodeRunner, 'M'),
    (Source::Zelda, 'F'),
    (Source::Zelda, 'B'),
    (Source::Zelda, 'M'),
    (Source::Zelda, 'P'),
    (Source::Zelda, 'O'),
    (Source::Zelda, 'I'),
    (Source::Zelda, 'D'),
    (Source::Zelda, 'S'),
    (Source::Zelda, 'W'),
    (Source::Zelda, '-'),
];

/// Affordance tags per own tile: solid, passable, climbable, diggable, collectable, damaging,
/// element, openable, spawn, void.
pub const TAGS: usize = 10;
/// Numbers a cell of the context gives: its own tile's tags and one-hot.
pub const CELL: usize = TAGS + OWN.len();
/// Context width with [`Neighbours::Tiles`]: own and 8 neighbours' cells, 4 edge bits.
pub const CONTEXT: usize = CELL * 9 + 4;

/// How a context describes the 8 neighbours of its tile (the tile itself always gives its
/// tags and its own-tile one-hot).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Neighbours {
    /// Each neighbour's tags and own-tile one-hot ([`CONTEXT`] numbers a context): two
    /// games' contexts never coincide, since every neighbour names its game's tile.
    #[default]
    Tiles,
    /// Each neighbour's affordance tags only (the tile's own identity stays): a Lode Runner
    /// ladder between solid tiles and a Zelda stair between walls can share their
    /// surroundings, so the two games' contexts can coincide.
    Tags,
}

impl Neighbours {
    /// The name `train --neighbours` takes and the sidecar records.
    pub fn name(self) -> &'static str {
        match self {
            Self::Tiles => "tiles",
            Self::Tags => "tags",
        }
    }

    /// Numbers a neighbour gives.
    pub fn cell(self) -> usize {
        match self {
            Self::Tiles => CELL,
            Self::Tags => TAGS,
        }
    }

    /// Numbers a context gives: the tile's cell, 8 neighbours, 4 edge bits.
    pub fn width(self) -> usize {
        CELL + 8 * self.cell() + 4
    }
}
/// Embedding width.
pub const EMBED: usize = 16;
/// Largest decode table.
pub const TABLE: usize = 1024;
const HIDDEN: usize = 64;

/// The own tile (an index into [`OWN`]) that `letter` is in a segment of `game`: a letter only
/// one game has is that game's; `B`, `-` and `M` are `game`'s. `None` for a letter neither
/// game has.
pub fn own_tile(game: Source, letter: char) -> Option<usize> {
    let game = match origin(letter) {
        Origin::LodeRunner => Source::LodeRunner,
        Origin::Zelda => Source::Zelda,
        Origin::Both => game,
    };
    OWN.iter().position(|&t| t == (game, letter))
}

/// An own tile's affordance tags in its own game (the VGLC keys: Lode Runner's
/// `Loderunner.json`, Zelda's `Processed/README.txt`, read in the game's own view — Zelda is
/// seen from above, so its floor is walked on, not stood on).
pub fn own_tags(tile: usize) -> [f32; TAGS] {
    // solid, passable, climbable, diggable, collectable, damaging, element, openable, spawn, void
    let on: &[usize] = match OWN.get(tile) {
        Some((Source::LodeRunner, c)) => match c {
            'B' => &[0],    // solid, ground
            'b' => &[0, 3], // solid, diggable, ground
            '.' => &[1],    // passable, empty
            '-' => &[1, 2], // passable, climbable, rope
            '#' => &[1, 2], // passable, climbable, ladder
            'G' => &[1, 4], // passable, pickupable, gold
            'E' => &[5],    // damaging, enemy
            _ => &[1, 8],   // M: passable, spawn
        },
        Some((Source::Zelda, c)) => match c {
            'F' => &[1],       // floor
            'B' | 'W' => &[0], // block, wall
            'M' => &[5],       // monster
            'P' => &[6],       // element (lava, water)
            'O' => &[1, 6],    // element + floor
            'I' => &[0, 6],    // element + block
            'D' => &[1, 7],    // door
            'S' => &[1, 2],    // stair
            _ => &[9],         // - : void
        },
        None => &[],
    };
    let mut tags = [0.0; TAGS];
    for &k in on {
        tags[k] = 1.0;
    }
    tags
}

/// The game whose sense a segment's shared letters take: its source when known, else the game
/// it is like.
pub fn game_of(rows: &[String], source: Option<Source>) -> Source {
    source.unwrap_or_else(|| match likeness(rows) {
        Likeness::LodeRunner => Source::LodeRunner,
        Likeness::Zelda => Source::Zelda,
    })
}

/// The own tiles of a segment's cells, row-major (`None` for a letter neither game has).
pub fn own_tiles(rows: &[String], game: Source) -> Vec<Option<usize>> {
    rows.iter()
        .flat_map(|r| r.chars())
        .map(|c| own_tile(game, c))
        .collect()
}

/// The contexts of a segment's 256 cells, row-major (`256 × neighbours.width()`), its shared
/// letters read as `game`'s.
pub fn contexts(rows: &[String], game: Source, neighbours: Neighbours) -> Vec<f32> {
    let tiles = own_tiles(rows, game);
    let width = rows.first().map_or(0, |r| r.chars().count()) as i64;
    let height = rows.len() as i64;
    let mut out = Vec::with_capacity(SIDE * SIDE * neighbours.width());
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
                let tile = (nx >= 0 && ny >= 0 && nx < width && ny < height)
                    .then(|| tiles.get((ny * width + nx) as usize).copied().flatten())
                    .flatten();
                let centre = dx == 0 && dy == 0;
                let identity = centre || neighbours == Neighbours::Tiles;
                match tile {
                    Some(k) => {
                        out.extend(own_tags(k));
                        if identity {
                            out.extend((0..OWN.len()).map(|t| f32::from(u8::from(t == k))));
                        }
                    }
                    None if identity => out.extend([0.0; CELL]),
                    None => out.extend([0.0; TAGS]),
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
    /// How its contexts describe the neighbours (letter contexts; a pixel representation
    /// keeps the default and never reads it).
    pub neighbours: Neighbours,
    /// Numbers a context gives.
    pub width: usize,
}

impl TileEncoder {
    /// Builds (or loads) it under `vb`, for contexts of `neighbours`' width.
    ///
    /// # Errors
    /// A missing or misshapen tensor.
    pub fn new(vb: VarBuilder, neighbours: Neighbours) -> candle_core::Result<Self> {
        Self::with_width(vb, neighbours.width(), neighbours)
    }

    /// Builds (or loads) it under `vb` for contexts of `width` numbers (the pixel contexts of
    /// [`super::pixel_embed`]).
    ///
    /// # Errors
    /// A missing or misshapen tensor.
    pub fn with_width(
        vb: VarBuilder,
        width: usize,
        neighbours: Neighbours,
    ) -> candle_core::Result<Self> {
        Ok(Self {
            e1: linear(width, HIDDEN, vb.pp("e1"))?,
            e2: linear(HIDDEN, EMBED, vb.pp("e2"))?,
            d1: linear(EMBED, HIDDEN, vb.pp("d1"))?,
            d2: linear(HIDDEN, width, vb.pp("d2"))?,
            neighbours,
            width,
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

    /// The device its weights are on.
    pub fn device(&self) -> Device {
        self.e1.weight().device().clone()
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
    /// How a context describes the neighbours.
    pub neighbours: Neighbours,
    /// Fill the decode table by occurrences (a context drawn as often as it occurs in the
    /// data) instead of by distinct contexts, which over-represent tiles whose surroundings
    /// vary (the pixel representation's `--table occurrences`).
    pub table_by_occurrence: bool,
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
            neighbours: Neighbours::Tiles,
            table_by_occurrence: false,
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
    /// The own tile (an index into [`OWN`]) of each table entry.
    pub tiles: Vec<usize>,
    /// The Table I letter of each table entry's own tile.
    pub letters: Vec<char>,
    /// The sprites of a representation learned from pixels (`None`: from letters).
    pub pixels: Option<super::pixels::PixelTiles>,
}

/// The distinct (context, own tile) pairs of `segments`, in a fixed order.
pub fn distinct_contexts(segments: &[Segment], neighbours: Neighbours) -> Vec<(Vec<f32>, usize)> {
    let width = neighbours.width();
    let mut seen: BTreeMap<Vec<u8>, usize> = BTreeMap::new();
    for s in segments {
        let ctx = contexts(&s.rows, s.source, neighbours);
        for (i, tile) in own_tiles(&s.rows, s.source).into_iter().enumerate() {
            let Some(tile) = tile else { continue };
            let key: Vec<u8> = ctx[i * width..(i + 1) * width]
                .iter()
                .map(|&v| v as u8)
                .collect();
            seen.entry(key).or_insert(tile);
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
    let data = distinct_contexts(segments, config.neighbours);
    let once = vec![1; data.len()];
    fit(config, data, &once, config.neighbours.width())
}

/// Trains the autoencoder with its clustering term on distinct (context, own tile) pairs of
/// `width` numbers, and samples the decode table from them (by their `occurrences` in the
/// data when [`EmbedConfig::table_by_occurrence`]); returns its weights, the model (without
/// pixels) and the loss per epoch.
///
/// # Errors
/// A candle error.
pub fn fit(
    config: &EmbedConfig,
    data: Vec<(Vec<f32>, usize)>,
    occurrences: &[usize],
    width: usize,
) -> candle_core::Result<(VarMap, Embedding, Vec<f64>)> {
    let device = studio_ml::device();
    let varmap = VarMap::new();
    let encoder = TileEncoder::with_width(
        VarBuilder::from_varmap(&varmap, DType::F32, &device).pp(EMBED_PREFIX),
        width,
        config.neighbours,
    )?;
    studio_ml::seeded_init(&varmap, config.seed)
        .map_err(|e| candle_core::Error::Msg(e.to_string()))?;
    let mut opt = studio_ml::adam(varmap.all_vars(), config.learning_rate)?;
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
            let x = Tensor::from_vec(x, (b, width), &device)?;
            let onehot: Vec<f32> = idx
                .iter()
                .flat_map(|&i| {
                    let k = data[i].1;
                    (0..OWN.len()).map(move |t| f32::from(u8::from(t == k)))
                })
                .collect();
            let onehot = Tensor::from_vec(onehot, (b, OWN.len()), &device)?;
            let e = encoder.encode(&x)?;
            let rec = (encoder.decode(&e)? - &x)?
                .sqr()?
                .sum(D::Minus1)?
                .mean_all()?;
            // Per-tile means of the batch, and each embedding's distance to its tile's.
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
    // The decode table: a seeded sample of the distinct contexts, every own tile kept.
    let mut picks: Vec<usize> = (0..data.len()).collect();
    if picks.len() > TABLE {
        let mut by_tile: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, (_, t)) in data.iter().enumerate() {
            by_tile.entry(*t).or_default().push(i);
        }
        let mut chosen: Vec<usize> = Vec::new();
        for list in by_tile.values_mut() {
            rng.shuffle(list);
            chosen.extend(list.iter().take(8));
        }
        if config.table_by_occurrence {
            // Each context as often as it occurs, shuffled; its first draw counts.
            let mut draws: Vec<usize> = (0..data.len())
                .flat_map(|i| std::iter::repeat_n(i, occurrences.get(i).copied().unwrap_or(1)))
                .collect();
            rng.shuffle(&mut draws);
            let mut taken = vec![false; data.len()];
            for &i in &chosen {
                taken[i] = true;
            }
            for i in draws {
                if chosen.len() >= TABLE {
                    break;
                }
                if !taken[i] {
                    taken[i] = true;
                    chosen.push(i);
                }
            }
        } else {
            let mut rest: Vec<usize> = (0..data.len()).filter(|i| !chosen.contains(i)).collect();
            rng.shuffle(&mut rest);
            chosen.extend(rest.into_iter().take(TABLE.saturating_sub(chosen.len())));
        }
        chosen.sort_unstable();
        picks = chosen;
    }
    let x: Vec<f32> = picks
        .iter()
        .flat_map(|&i| data[i].0.iter().copied())
        .collect();
    let e = encoder
        .encode(&Tensor::from_vec(x, (picks.len(), width), &device)?)?
        .to_vec2::<f32>()?;
    let table = e
        .into_iter()
        .map(|r| {
            let mut a = [0.0f32; EMBED];
            a.copy_from_slice(&r[..EMBED]);
            a
        })
        .collect();
    let tiles: Vec<usize> = picks.iter().map(|&i| data[i].1).collect();
    let letters = tiles.iter().map(|&t| OWN[t].1).collect();
    Ok((
        varmap,
        Embedding {
            encoder,
            table,
            tiles,
            letters,
            pixels: None,
        },
        curve,
    ))
}

impl Embedding {
    /// A segment as `256 × EMBED` numbers, its shared letters read as `source`'s (or, for
    /// `None`, as the game it is like's).
    ///
    /// # Errors
    /// A candle error.
    pub fn encode_segment(
        &self,
        rows: &[String],
        source: Option<Source>,
    ) -> candle_core::Result<Vec<f32>> {
        let game = game_of(rows, source);
        let neighbours = self.encoder.neighbours;
        let context = match &self.pixels {
            Some(p) => p.segment_contexts(rows, game),
            None => contexts(rows, game, neighbours),
        };
        let x = Tensor::from_vec(
            context,
            (SIDE * SIDE, self.encoder.width),
            &self.encoder.device(),
        )?;
        self.encoder.encode(&x)?.flatten_all()?.to_vec1::<f32>()
    }

    /// The own tile (an index into [`OWN`]) of the table entry nearest `v` (Manhattan).
    pub fn decode_tile(&self, v: &[f32]) -> usize {
        let mut best = (f32::INFINITY, 2);
        for (e, &t) in self.table.iter().zip(&self.tiles) {
            let d: f32 = e.iter().zip(v).map(|(a, b)| (a - b).abs()).sum();
            if d < best.0 {
                best = (d, t);
            }
        }
        best.1
    }

    /// The own tiles of `256 × EMBED` numbers, row-major.
    pub fn decode_tiles(&self, cells: &[f32]) -> Vec<usize> {
        cells.chunks(EMBED).map(|v| self.decode_tile(v)).collect()
    }

    /// A segment from `256 × EMBED` numbers, in Table I letters.
    pub fn decode_segment(&self, cells: &[f32]) -> Vec<String> {
        self.decode_tiles(cells)
            .into_iter()
            .map(|t| OWN[t].1)
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
        let letters: Vec<f32> = self.tiles.iter().map(|&t| t as f32).collect();
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
        let tiles: Vec<usize> = letters
            .to_vec1::<f32>()?
            .into_iter()
            .map(|k| k as usize)
            .collect();
        if rows.len() != tiles.len()
            || rows.iter().any(|r| r.len() != EMBED)
            || tiles.iter().any(|&t| t >= OWN.len())
        {
            return Err(candle_core::Error::Msg(
                "the decode table and its tiles do not match".into(),
            ));
        }
        let letters = tiles.iter().map(|&t| OWN[t].1).collect();
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
            tiles,
            letters,
            pixels: None,
        })
    }
}
