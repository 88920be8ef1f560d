//! The blend lab's work, GUI-free: walking a VAE's latent space from segment A to segment B,
//! the share of each game in a segment, the blend-percentage curves (tile metrics against the
//! Lode Runner share along walks between Lode Runner and Zelda segments) and the 2-D
//! projection of the learned tile embeddings.

use super::data::Segment;
use super::embed::{Embedding, EMBED};
use super::metrics::{origin_counts, tile_metrics};
use super::tiles::{origin, Origin};
use super::vae::{BlendModel, CELLS, LATENT};
use candle_core::Tensor;
use studio_core::rng::Rng;

/// The means μ of segments' latent codes.
///
/// # Errors
/// A candle error (a segment of the wrong size never reaches here: callers check rows).
pub fn latent(model: &BlendModel, segments: &[Vec<String>]) -> candle_core::Result<Vec<Vec<f32>>> {
    let repr = model.repr();
    let mut x = Vec::with_capacity(segments.len() * CELLS * repr.width());
    for rows in segments {
        repr.encode(rows, None, &mut x)?;
    }
    let x = Tensor::from_vec(
        x,
        (segments.len(), CELLS * repr.width()),
        &model.model.device(),
    )?;
    model.model.encode(&x)?.0.to_vec2::<f32>()
}

/// Segments decoded from latent points.
///
/// # Errors
/// A candle error.
pub fn decode(model: &BlendModel, points: &[Vec<f32>]) -> candle_core::Result<Vec<Vec<String>>> {
    let flat: Vec<f32> = points.iter().flatten().copied().collect();
    let z = Tensor::from_vec(flat, (points.len(), LATENT), &model.model.device())?;
    model.repr().decode(&model.model.decode(&z)?)
}

/// The walk from `a` to `b`: `steps + 2` segments decoded at evenly spaced points of the
/// line between their latent means — the model's reconstruction of A first, of B last.
///
/// # Errors
/// A candle error.
pub fn interpolate(
    model: &BlendModel,
    a: &[String],
    b: &[String],
    steps: usize,
) -> candle_core::Result<Vec<Vec<String>>> {
    let z = latent(model, &[a.to_vec(), b.to_vec()])?;
    let n = steps + 1;
    let points: Vec<Vec<f32>> = (0..=n)
        .map(|i| {
            let t = i as f32 / n as f32;
            z[0].iter()
                .zip(&z[1])
                .map(|(p, q)| p + t * (q - p))
                .collect()
        })
        .collect();
    decode(model, &points)
}

/// The share of Lode Runner among a segment's single-game tiles (`None` when it has only
/// tiles both games use).
pub fn lode_runner_share(rows: &[String]) -> Option<f64> {
    let (lr, zelda) = origin_counts(rows);
    (lr + zelda > 0).then(|| lr as f64 / (lr + zelda) as f64)
}

/// Which game each cell's tile comes from, row by row (the lab's tint).
pub fn origins(rows: &[String]) -> Vec<Vec<Origin>> {
    rows.iter()
        .map(|r| r.chars().map(origin).collect())
        .collect()
}

/// Bins of the blend-percentage curves (Lode Runner share 0–10 %, …, 90–100 %).
pub const BINS: usize = 10;

/// The blend-percentage curves of one model.
#[derive(Clone, Debug, PartialEq)]
pub struct Curves {
    /// Segments per bin of Lode Runner share.
    pub counts: [usize; BINS],
    /// Mean of each tile metric ([`TileMetrics::NAMES`] order) per bin; `None` for an empty bin.
    pub means: [[Option<f64>; BINS]; 5],
    /// Walks taken.
    pub walks: usize,
    /// Segments measured (the walks' points with at least one single-game tile).
    pub segments: usize,
}

/// The curves along `walks` walks of `steps` in-betweens, each from a Lode Runner segment to
/// a Zelda room of `pool` drawn with `seed` (both ends' reconstructions included): every
/// decoded segment goes to the bin of its Lode Runner share.
///
/// # Errors
/// A pool without both games, or a candle error.
pub fn curves(
    model: &BlendModel,
    pool: &[Segment],
    walks: usize,
    steps: usize,
    seed: u64,
) -> Result<Curves, String> {
    use super::data::Source;
    let of = |s: Source| -> Vec<&Segment> { pool.iter().filter(|x| x.source == s).collect() };
    let (lr, zelda) = (of(Source::LodeRunner), of(Source::Zelda));
    if lr.is_empty() || zelda.is_empty() {
        return Err("the curves need Lode Runner and Zelda segments".into());
    }
    let mut rng = Rng::new(seed);
    let mut sums = [[0.0f64; BINS]; 5];
    let mut counts = [0usize; BINS];
    let mut segments = 0;
    for _ in 0..walks {
        let a = &lr[rng.index(lr.len())].rows;
        let b = &zelda[rng.index(zelda.len())].rows;
        for rows in interpolate(model, a, b, steps).map_err(|e| e.to_string())? {
            let Some(share) = lode_runner_share(&rows) else {
                continue;
            };
            let bin = ((share * BINS as f64) as usize).min(BINS - 1);
            for (k, v) in tile_metrics(&rows).vector().iter().enumerate() {
                sums[k][bin] += v;
            }
            counts[bin] += 1;
            segments += 1;
        }
    }
    let mut means = [[None; BINS]; 5];
    for k in 0..5 {
        for bin in 0..BINS {
            means[k][bin] = (counts[bin] > 0).then(|| sums[k][bin] / counts[bin] as f64);
        }
    }
    Ok(Curves {
        counts,
        means,
        walks,
        segments,
    })
}

/// The learned tile embeddings of the decode table projected on their first two principal
/// components, each with its own tile (an index into [`super::embed::OWN`]); the axes' shares
/// of the variance.
pub fn projection(embedding: &Embedding) -> (Vec<([f64; 2], usize)>, [f64; 2]) {
    let n = embedding.table.len();
    if n == 0 {
        return (Vec::new(), [0.0; 2]);
    }
    let mut mean = [0.0f64; EMBED];
    for e in &embedding.table {
        for (m, v) in mean.iter_mut().zip(e) {
            *m += f64::from(*v) / n as f64;
        }
    }
    let centred: Vec<[f64; EMBED]> = embedding
        .table
        .iter()
        .map(|e| std::array::from_fn(|i| f64::from(e[i]) - mean[i]))
        .collect();
    let mut cov = [[0.0f64; EMBED]; EMBED];
    for c in &centred {
        for i in 0..EMBED {
            for j in 0..EMBED {
                cov[i][j] += c[i] * c[j] / n as f64;
            }
        }
    }
    let total: f64 = (0..EMBED).map(|i| cov[i][i]).sum();
    let mut axes = [[0.0f64; EMBED]; 2];
    let mut shares = [0.0f64; 2];
    for k in 0..2 {
        // Power iteration from a fixed start; the first axis is deflated out for the second.
        let mut v: [f64; EMBED] = std::array::from_fn(|i| 1.0 + i as f64 * 0.1);
        let mut value = 0.0;
        for _ in 0..200 {
            let mut w = [0.0f64; EMBED];
            for i in 0..EMBED {
                w[i] = (0..EMBED).map(|j| cov[i][j] * v[j]).sum();
            }
            let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm < 1e-12 {
                break;
            }
            value = norm;
            v = w.map(|x| x / norm);
        }
        for i in 0..EMBED {
            for j in 0..EMBED {
                cov[i][j] -= value * v[i] * v[j];
            }
        }
        axes[k] = v;
        shares[k] = if total > 0.0 { value / total } else { 0.0 };
    }
    let points = centred
        .iter()
        .zip(&embedding.tiles)
        .map(|(c, &l)| {
            let dot = |a: &[f64; EMBED]| a.iter().zip(c).map(|(x, y)| x * y).sum::<f64>();
            ([dot(&axes[0]), dot(&axes[1])], l)
        })
        .collect();
    (points, shares)
}
