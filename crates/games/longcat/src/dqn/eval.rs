//! The thesis's evaluation of the DQN generator: many levels per setting, at temperatures
//! 0.0–1.0 and a small grid of diversity-aware settings, beside the random solution-down
//! baseline measured in the same run; a table and a PNG plot of non-trivial share against
//! duplicate share.

use super::env::level_difficulty;
use super::model::{DqnError, DqnModel};
use super::policy::{generate, Policy};
use crate::eval::HISTOGRAM_EDGES;
use crate::generators::RandomGenerator;
use crate::{LongcatLevel, NON_TRIVIAL_DIFFICULTY};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;
use studio_core::rng::Rng;

/// The diversity-aware settings evaluated: (n candidates, distance d, noise rate p).
pub const DIVERSE_GRID: [(usize, u32, f64); 4] =
    [(2, 4, 0.1), (3, 8, 0.1), (3, 4, 0.2), (3, 8, 0.2)];

/// The figures of one setting.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// `random`, `T=0.3`, `DAGP n=4 d=2`, …
    pub setting: String,
    /// Levels generated.
    pub levels: usize,
    /// Share of levels identical to an earlier one.
    pub duplicate_share: f64,
    /// Distinct levels with difficulty ≥ the threshold, over all levels (the thesis's share).
    pub non_trivial_share: f64,
    /// Mean difficulty over all levels.
    pub mean_difficulty: f64,
    /// Counts of distinct levels per difficulty bin (edges [`HISTOGRAM_EDGES`], last open).
    pub histogram: Vec<usize>,
    /// Seconds for generation and scoring.
    pub seconds: f64,
}

/// A whole evaluation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Board width, in cells (the model's).
    pub width: usize,
    /// Board height, in cells.
    pub height: usize,
    /// Levels generated for each setting.
    pub levels_per_setting: usize,
    /// Seed of every setting's generation.
    pub seed: u64,
    /// The difficulty from which a level counts as non-trivial.
    pub non_trivial_threshold: f64,
    /// One row a setting, the random baseline first.
    pub rows: Vec<Row>,
}

/// Scores a list of levels.
pub fn summarise(setting: &str, levels: &[LongcatLevel], started: Instant) -> Row {
    let difficulties: Vec<f64> = levels.par_iter().map(level_difficulty).collect();
    let mut seen = HashSet::new();
    let (mut duplicates, mut non_trivial) = (0, 0);
    let mut histogram = vec![0usize; HISTOGRAM_EDGES.len() + 1];
    for (level, &d) in levels.iter().zip(&difficulties) {
        if !seen.insert(level.clone()) {
            duplicates += 1;
            continue;
        }
        if d >= NON_TRIVIAL_DIFFICULTY {
            non_trivial += 1;
        }
        histogram[HISTOGRAM_EDGES
            .iter()
            .position(|&e| d < e)
            .unwrap_or(HISTOGRAM_EDGES.len())] += 1;
    }
    let n = levels.len().max(1) as f64;
    Row {
        setting: setting.into(),
        levels: levels.len(),
        duplicate_share: duplicates as f64 / n,
        non_trivial_share: non_trivial as f64 / n,
        mean_difficulty: difficulties.iter().sum::<f64>() / n,
        histogram,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Evaluates the random baseline, eleven temperatures and the diversity-aware grid.
///
/// # Errors
/// [`DqnError`] on tensor failures.
pub fn run(
    model: &DqnModel,
    count: usize,
    seed: u64,
    progress: &mut dyn FnMut(&str),
) -> Result<Report, DqnError> {
    let shape = model.sidecar.shape;
    let mut rows = Vec::new();
    progress("random solution-down");
    let started = Instant::now();
    let random: Vec<LongcatLevel> = (0..count)
        .into_par_iter()
        .map(|i| {
            RandomGenerator::SolutionDown
                .attempt(shape.width, shape.height, &mut Rng::derive(seed, i as u64))
                .map(|mut v| v.remove(0))
        })
        .collect::<Result<_, _>>()
        .map_err(|e| DqnError::BadParameter(e.to_string()))?;
    rows.push(summarise("random", &random, started));
    let mut policies: Vec<Policy> = (0..=10)
        .map(|t| Policy::Temperature(t as f64 / 10.0))
        .collect();
    policies.extend(
        DIVERSE_GRID
            .iter()
            .map(|&(n, d, p)| Policy::Diverse { n, d, p }),
    );
    for policy in policies {
        let label = policy.label();
        progress(&label);
        let started = Instant::now();
        let levels = generate(model, policy, count, seed)?;
        rows.push(summarise(&label, &levels, started));
    }
    Ok(Report {
        width: shape.width,
        height: shape.height,
        levels_per_setting: count,
        seed,
        non_trivial_threshold: NON_TRIVIAL_DIFFICULTY,
        rows,
    })
}

impl Report {
    /// The report as a Markdown table.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Longcat {}x{}, {} levels per setting, seed {}, non-trivial = difficulty ≥ {}",
            self.width, self.height, self.levels_per_setting, self.seed, self.non_trivial_threshold
        );
        let _ = writeln!(
            s,
            "| setting | duplicates | non-trivial | mean difficulty | seconds |"
        );
        let _ = writeln!(s, "|---|---:|---:|---:|---:|");
        for r in &self.rows {
            let _ = writeln!(
                s,
                "| {} | {:.1} % | {:.1} % | {:.2} | {:.1} |",
                r.setting,
                100.0 * r.duplicate_share,
                100.0 * r.non_trivial_share,
                r.mean_difficulty,
                r.seconds
            );
        }
        s
    }
}

/// Writes a PNG scatter plot: x = duplicate share, y = non-trivial share (both 0–100 %, grid
/// every 10 %); grey square = random baseline, blue line = temperatures 0.0→1.0 (bigger dot at
/// 0.0), orange dots = diversity-aware settings.
///
/// # Errors
/// [`DqnError`] when the file cannot be written.
pub fn plot(report: &Report, path: &Path) -> Result<(), DqnError> {
    const W: u32 = 640;
    const H: u32 = 480;
    const M: f64 = 50.0;
    let mut img = image::RgbImage::from_pixel(W, H, image::Rgb([255, 255, 255]));
    let max_y = report
        .rows
        .iter()
        .map(|r| r.non_trivial_share)
        .fold(0.1, f64::max)
        .min(1.0);
    let y_top = ((max_y * 10.0).ceil() / 10.0).max(0.1);
    let to_px = |dup: f64, nt: f64| -> (i64, i64) {
        let x = M + dup * (W as f64 - 2.0 * M);
        let y = H as f64 - M - nt / y_top * (H as f64 - 2.0 * M);
        (x.round() as i64, y.round() as i64)
    };
    let put = |img: &mut image::RgbImage, x: i64, y: i64, c: [u8; 3]| {
        if x >= 0 && y >= 0 && x < W as i64 && y < H as i64 {
            img.put_pixel(x as u32, y as u32, image::Rgb(c));
        }
    };
    for k in 0..=10 {
        let (x, _) = to_px(k as f64 / 10.0, 0.0);
        let (_, y) = to_px(0.0, y_top * k as f64 / 10.0);
        let shade = if k == 0 { [0, 0, 0] } else { [225, 225, 225] };
        for t in M as i64..=(H as i64 - M as i64) {
            put(&mut img, x, t, shade);
        }
        for t in M as i64..=(W as i64 - M as i64) {
            put(&mut img, t, y, shade);
        }
    }
    let dot = |img: &mut image::RgbImage, (x, y): (i64, i64), r: i64, c: [u8; 3]| {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx * dx + dy * dy <= r * r {
                    put(img, x + dx, y + dy, c);
                }
            }
        }
    };
    let temps: Vec<(i64, i64)> = report
        .rows
        .iter()
        .filter(|r| r.setting.starts_with("T="))
        .map(|r| to_px(r.duplicate_share, r.non_trivial_share))
        .collect();
    for pair in temps.windows(2) {
        let steps = 200;
        for s in 0..=steps {
            let t = s as f64 / steps as f64;
            let x = pair[0].0 as f64 + t * (pair[1].0 - pair[0].0) as f64;
            let y = pair[0].1 as f64 + t * (pair[1].1 - pair[0].1) as f64;
            dot(
                &mut img,
                (x.round() as i64, y.round() as i64),
                1,
                [70, 110, 200],
            );
        }
    }
    for (i, &p) in temps.iter().enumerate() {
        dot(&mut img, p, if i == 0 { 7 } else { 4 }, [40, 80, 190]);
    }
    for r in &report.rows {
        let p = to_px(r.duplicate_share, r.non_trivial_share);
        if r.setting.starts_with("DAGP") {
            dot(&mut img, p, 5, [235, 130, 20]);
        } else if r.setting == "random" {
            for dy in -5..=5 {
                for dx in -5..=5 {
                    put(&mut img, p.0 + dx, p.1 + dy, [110, 110, 110]);
                }
            }
        }
    }
    let mut bytes = Vec::new();
    img.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .map_err(|e| DqnError::BadParameter(e.to_string()))?;
    studio_core::io::write_atomic(path, &bytes)?;
    Ok(())
}

/// One row of the randomized-initialization table: levels whose first `c` steps are random,
/// the greedy policy doing the rest.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RiRow {
    /// Random first steps.
    pub c: usize,
    /// Levels generated.
    pub levels: usize,
    /// Share of levels identical to an earlier one.
    pub duplicate_share: f64,
    /// Distinct non-trivial levels over all levels.
    pub non_trivial_share: f64,
    /// Mean difficulty over all levels.
    pub mean_difficulty: f64,
    /// Mean over pairs of levels of the cells in which they differ (walls and the start).
    pub different_cells: f64,
    /// Mean over pairs of levels of the symmetric KL divergence between their 2×2 wall-pattern
    /// distributions (see [`pattern_distribution`]).
    pub kl_patterns: f64,
    /// Seconds.
    pub seconds: f64,
}

/// A level's distribution of 2×2 wall patterns: each of the (w−1)(h−1) windows is one of 16
/// patterns (a bit per wall cell; the head counts as open); counts + 0.5 each, normalised
/// (the thesis's KL measure over tile patterns, on Longcat's walls).
pub fn pattern_distribution(level: &LongcatLevel) -> [f64; 16] {
    let cells = level.cells();
    let wall = |x: usize, y: usize| usize::from(cells.get(x, y) == crate::Cell::Wall);
    let mut counts = [0.5f64; 16];
    for y in 0..level.height().saturating_sub(1) {
        for x in 0..level.width().saturating_sub(1) {
            let p =
                wall(x, y) | wall(x + 1, y) << 1 | wall(x, y + 1) << 2 | wall(x + 1, y + 1) << 3;
            counts[p] += 1.0;
        }
    }
    let total: f64 = counts.iter().sum();
    counts.map(|c| c / total)
}

/// ½ (KL(p‖q) + KL(q‖p)).
pub fn symmetric_kl(p: &[f64; 16], q: &[f64; 16]) -> f64 {
    0.5 * p
        .iter()
        .zip(q)
        .map(|(a, b)| a * (a / b).ln() + b * (b / a).ln())
        .sum::<f64>()
}

/// Cells in which two levels of the same size differ (walls, and where the cat starts).
pub fn different_cells(a: &LongcatLevel, b: &LongcatLevel) -> usize {
    a.cells()
        .cells()
        .iter()
        .zip(b.cells().cells())
        .filter(|(x, y)| x != y)
        .count()
}

/// The randomized-initialization table: for each c, `count` levels (start cells in turn, as
/// [`generate`]) with c random first steps and the greedy policy after.
///
/// # Errors
/// [`DqnError`] on tensor failures.
pub fn ri_table(
    model: &DqnModel,
    cs: &[usize],
    count: usize,
    seed: u64,
) -> Result<Vec<RiRow>, DqnError> {
    let mut rows = Vec::new();
    for &c in cs {
        let started = Instant::now();
        let levels =
            super::policy::generate_randomized(model, Policy::Temperature(0.0), count, seed, c)?;
        let row = summarise(&format!("c={c}"), &levels, started);
        let dists: Vec<[f64; 16]> = levels.par_iter().map(pattern_distribution).collect();
        let (cells, kl, pairs) = (0..levels.len())
            .into_par_iter()
            .map(|i| {
                let (mut cells, mut kl) = (0usize, 0.0);
                for j in i + 1..levels.len() {
                    cells += different_cells(&levels[i], &levels[j]);
                    kl += symmetric_kl(&dists[i], &dists[j]);
                }
                (cells, kl, levels.len() - i - 1)
            })
            .reduce(|| (0, 0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
        let pairs = pairs.max(1) as f64;
        rows.push(RiRow {
            c,
            levels: levels.len(),
            duplicate_share: row.duplicate_share,
            non_trivial_share: row.non_trivial_share,
            mean_difficulty: row.mean_difficulty,
            different_cells: cells as f64 / pairs,
            kl_patterns: kl / pairs,
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    Ok(rows)
}

/// The randomized-initialization table as text.
pub fn ri_text(rows: &[RiRow]) -> String {
    let mut out = String::from(
        "   c  levels  duplicates  non-trivial  mean difficulty  different cells  KL patterns\n",
    );
    for r in rows {
        let _ = writeln!(
            out,
            "  {:>2}  {:>6}  {:>9.1} %  {:>9.1} %  {:>15.2}  {:>15.2}  {:>11.3}",
            r.c,
            r.levels,
            100.0 * r.duplicate_share,
            100.0 * r.non_trivial_share,
            r.mean_difficulty,
            r.different_cells,
            r.kl_patterns
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_distributions_and_their_kl() {
        let open = LongcatLevel::parse_ascii("@..\n...\n...").unwrap();
        let walled = LongcatLevel::parse_ascii("@.#\n.##\n###").unwrap();
        let p = pattern_distribution(&open);
        let q = pattern_distribution(&walled);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // Four open windows and 16 × 0.5 smoothing: the open pattern holds 4.5 of 12.
        assert!((p[0] - 4.5 / 12.0).abs() < 1e-12);
        assert_eq!(symmetric_kl(&p, &p), 0.0);
        assert!(symmetric_kl(&p, &q) > 0.1);
        assert!((symmetric_kl(&p, &q) - symmetric_kl(&q, &p)).abs() < 1e-12);
        assert_eq!(different_cells(&open, &walled), 6);
    }

    #[test]
    fn randomized_walks_are_seeded_and_start_where_the_greedy_ones_do() {
        let model = DqnModel::load(Path::new(super::super::model::SHIPPED_WEIGHTS)).unwrap();
        let greedy = generate(&model, Policy::Temperature(0.0), 64, 3).unwrap();
        let zero =
            super::super::policy::generate_randomized(&model, Policy::Temperature(0.0), 64, 3, 0)
                .unwrap();
        assert_eq!(greedy, zero);
        let ri = |seed| {
            super::super::policy::generate_randomized(&model, Policy::Temperature(0.0), 64, seed, 4)
                .unwrap()
        };
        let a = ri(3);
        assert_eq!(a, ri(3));
        assert_ne!(a, greedy);
        // Three walks from each of the 64 start cells: greedy ones repeat, random starts less.
        let rows = ri_table(&model, &[0, 4], 192, 3).unwrap();
        assert!(
            rows[1].duplicate_share < rows[0].duplicate_share,
            "{rows:?}"
        );
    }
}
