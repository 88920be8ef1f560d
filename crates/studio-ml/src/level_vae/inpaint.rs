//! Regenerating a selected rectangle of a level (inpainting): candidates that change only the
//! rectangle's cells, each passing the game's own analysis, ranked by how close their
//! difficulty stays to the level's. With a level VAE of the game, proposals come from the
//! model's latent neighbourhood of the level (for a side-scroller, of the window around the
//! rectangle); without one, from a seeded random search over the rectangle that draws tiles
//! as often as the level itself uses them.

use super::model::{LevelVae, LevelVaeError};
use std::collections::HashSet;
use std::time::{Duration, Instant};
use studio_core::game::{AnalyseOptions, Verdict};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;
use studio_core::rng::Rng;

/// A rectangle of cells: column, row, width, height (from the top-left, from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Left column.
    pub x: usize,
    /// Top row.
    pub y: usize,
    /// Columns.
    pub w: usize,
    /// Rows.
    pub h: usize,
}

impl std::str::FromStr for Region {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let bad = || format!("--region {s:?} is not X,Y,W,H (four whole numbers, e.g. 2,3,4,4)");
        if parts.len() != 4 {
            return Err(bad());
        }
        let n: Vec<usize> = parts
            .iter()
            .map(|p| p.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            x: n[0],
            y: n[1],
            w: n[2],
            h: n[3],
        })
    }
}

impl std::fmt::Display for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{},{},{}", self.x, self.y, self.w, self.h)
    }
}

impl Region {
    /// The cells inside, row by row.
    pub fn cells(&self) -> Vec<(usize, usize)> {
        (self.y..self.y + self.h)
            .flat_map(|y| (self.x..self.x + self.w).map(move |x| (x, y)))
            .collect()
    }

    /// True when `(x, y)` is inside.
    pub fn contains(&self, x: usize, y: usize) -> bool {
        (self.x..self.x + self.w).contains(&x) && (self.y..self.y + self.h).contains(&y)
    }
}

/// Why a region cannot be regenerated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InpaintError {
    /// A region of no cells.
    #[error("the region {0} holds no cell: give a width and a height of at least 1")]
    Empty(Region),
    /// A region reaching outside the level.
    #[error("the region {region} reaches outside the {width}x{height} level")]
    Outside {
        /// The region.
        region: Region,
        /// The level's width.
        width: usize,
        /// The level's height.
        height: usize,
    },
    /// The game refuses the level itself.
    #[error("{game} refuses the level: {reason}")]
    Refused {
        /// The game's name.
        game: String,
        /// Its reason.
        reason: String,
    },
    /// The model cannot be used for this level.
    #[error(transparent)]
    Model(#[from] LevelVaeError),
    /// Cancelled.
    #[error("cancelled")]
    Cancelled,
}

/// How hard to look.
#[derive(Clone, Debug, PartialEq)]
pub struct InpaintConfig {
    /// Candidates wanted.
    pub count: usize,
    /// Seed of the draws (and of the analyses).
    pub seed: u64,
    /// Time after which the search stops with what it found.
    pub budget: Duration,
    /// Proposals after which the search stops.
    pub max_attempts: usize,
    /// Games (agent games, trials) each analysis plays: a few, so a request answers within
    /// its budget; the candidate opened in the editor is analysed again in full. `None`: the
    /// game's default.
    pub games: Option<u32>,
}

impl Default for InpaintConfig {
    fn default() -> Self {
        Self {
            count: 5,
            seed: 0,
            budget: Duration::from_secs(2),
            max_attempts: 400,
            games: Some(3),
        }
    }
}

/// One candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Inpainted {
    /// The level with the region regenerated (named, with its figures).
    pub level: Level,
    /// The game's verdict.
    pub verdict: Verdict,
    /// Its difficulty, when the game has one for it.
    pub difficulty: Option<f64>,
    /// Cells that differ from the level's.
    pub changed: usize,
}

/// What a search found, and how long it looked.
#[derive(Clone, Debug, PartialEq)]
pub struct InpaintResult {
    /// The candidates, best first.
    pub candidates: Vec<Inpainted>,
    /// Proposals made.
    pub attempts: usize,
    /// Where they came from: `model` or `search`.
    pub source: &'static str,
    /// Milliseconds until the first candidate was found (`None`: none was).
    pub first_ms: Option<f64>,
}

/// Checks a region against a level's size.
///
/// # Errors
/// [`InpaintError::Empty`] or [`InpaintError::Outside`].
pub fn check_region(region: Region, width: usize, height: usize) -> Result<(), InpaintError> {
    if region.w == 0 || region.h == 0 {
        return Err(InpaintError::Empty(region));
    }
    if region.x.saturating_add(region.w) > width || region.y.saturating_add(region.h) > height {
        return Err(InpaintError::Outside {
            region,
            width,
            height,
        });
    }
    Ok(())
}

/// Proposes the tiles of the region's cells, one proposal per call.
enum Proposer<'a> {
    Model {
        model: &'a LevelVae,
        mu: Vec<f32>,
        sigma: Vec<f32>,
        /// The window's left column in the level (0 for whole levels).
        x0: usize,
        size: (usize, usize),
        forbidden: Vec<usize>,
    },
    Search {
        weights: Vec<f64>,
        unique: Option<(usize, bool)>,
    },
}

/// Regenerates `region` of `level`: up to `config.count` distinct candidates that change only
/// the region's cells and pass the game's analysis, best first.
///
/// # Errors
/// [`InpaintError`]: an empty or outside region, a level the game refuses, a model of
/// another game, or a cancelled search.
pub fn inpaint(
    level: &Level,
    region: Region,
    model: Option<&LevelVae>,
    config: &InpaintConfig,
    cancel: &Cancel,
) -> Result<InpaintResult, InpaintError> {
    let started = Instant::now();
    let game = level.game.game().map_err(|e| InpaintError::Refused {
        game: level.game.as_str().to_string(),
        reason: e.to_string(),
    })?;
    let refused = |reason: String| InpaintError::Refused {
        game: game.name().to_string(),
        reason,
    };
    game.check(&level.cells)
        .map_err(|e| refused(e.to_string()))?;
    let (width, height) = super::data::size_of(&level.cells)
        .ok_or_else(|| refused("rows of different lengths".into()))?;
    check_region(region, width, height)?;
    let palette: Vec<char> = game.tiles().iter().map(|t| t.ascii).collect();
    let grid: Vec<Vec<usize>> = studio_core::game::tile_indices(game, &level.cells)
        .map_err(|e| refused(e.to_string()))?
        .into_iter()
        .map(|row| row.into_iter().map(usize::from).collect())
        .collect();
    let options = |i: u64| AnalyseOptions {
        seed: config.seed.wrapping_add(i),
        games: config.games,
        ..Default::default()
    };
    let analysed = |l: &Level, i: u64| match game.analyse(l, &options(i), cancel) {
        Ok(a) => Ok(Some(a)),
        Err(JobError::Cancelled) => Err(InpaintError::Cancelled),
        Err(JobError::Failed(_)) => Ok(None),
    };
    let unique = game.unique_tile().map(usize::from);
    let outside_has = |t: usize| {
        grid.iter().enumerate().any(|(y, row)| {
            row.iter()
                .enumerate()
                .any(|(x, &c)| c == t && !region.contains(x, y))
        })
    };
    let mut proposer = match model {
        Some(model) => Proposer::model(
            model,
            level,
            region,
            (width, height),
            &palette,
            unique,
            &outside_has,
        )?,
        None => Proposer::search(&grid, palette.len(), unique, &outside_has),
    };
    let source = match proposer {
        Proposer::Model { .. } => "model",
        Proposer::Search { .. } => "search",
    };
    let cells = region.cells();
    let mut rng = Rng::derive(config.seed, 0x1a9a);
    let mut seen: HashSet<Vec<usize>> = HashSet::new();
    seen.insert(cells.iter().map(|&(x, y)| grid[y][x]).collect());
    let mut found = Vec::new();
    let mut first_ms = None;
    let mut attempts = 0;
    while found.len() < config.count
        && attempts < config.max_attempts
        && started.elapsed() < config.budget
    {
        if cancel.is_cancelled() {
            return Err(InpaintError::Cancelled);
        }
        attempts += 1;
        let tiles = propose(&mut proposer, &cells, &grid, attempts, &mut rng)?;
        if !seen.insert(tiles.clone()) {
            continue;
        }
        let rows = fill_region(&grid, &cells, &tiles, &palette);
        if game.check(&rows).is_err() {
            continue;
        }
        let mut candidate = level.clone();
        candidate.cells = rows;
        candidate.figures = None;
        candidate.playtests.clear();
        let Some(analysis) = analysed(&candidate, attempts as u64)? else {
            continue;
        };
        if !analysis.verdict.pass {
            continue;
        }
        candidate.figures = analysis.figures;
        candidate.name = format!("{} (region {})", level.name, found.len() + 1);
        let changed = cells
            .iter()
            .zip(&tiles)
            .filter(|(&(x, y), &t)| grid[y][x] != t)
            .count();
        first_ms.get_or_insert(started.elapsed().as_secs_f64() * 1000.0);
        found.push(Inpainted {
            level: candidate,
            verdict: analysis.verdict,
            difficulty: analysis.difficulty,
            changed,
        });
    }
    // Closest difficulty to the level's first (a level the designer likes stays itself),
    // then the order found. The level's own difficulty: its stored figures', else analysed
    // now (after the search, so the budget goes to the candidates).
    let original = match game.stored_difficulty(level) {
        Some(d) => Some(d),
        None if found.len() > 1 => analysed(level, 0)?.and_then(|a| a.difficulty),
        None => None,
    };
    rank_by_difficulty(&mut found, original, &level.name);
    Ok(InpaintResult {
        candidates: found,
        attempts,
        source,
        first_ms,
    })
}

impl<'a> Proposer<'a> {
    /// The model's proposer: the level's window (the region's, for a side-scroller) encoded,
    /// its spread widened, and the tiles there may be one of kept out when the rest has one.
    fn model(
        model: &'a LevelVae,
        level: &Level,
        region: Region,
        (width, height): (usize, usize),
        palette: &[char],
        unique: Option<usize>,
        outside_has: &dyn Fn(usize) -> bool,
    ) -> Result<Self, InpaintError> {
        model.check_game(level)?;
        let (x0, size) = match model.sidecar.window {
            Some(w) => {
                if region.w > w.width {
                    return Err(LevelVaeError::Training(format!(
                        "the region is {} columns wide; the model's window is {}",
                        region.w, w.width
                    ))
                    .into());
                }
                let centre = region.x + region.w / 2;
                let x0 = centre
                    .saturating_sub(w.width / 2)
                    .min(width.saturating_sub(w.width));
                (x0, (w.width.min(width), height))
            }
            None => (0, (width, height)),
        };
        let window: Vec<String> = level
            .cells
            .iter()
            .map(|r| r.chars().skip(x0).take(size.0).collect())
            .collect();
        let (mu, logvar) = model.encode(&window, None)?;
        let sigma = logvar.iter().map(|lv| (0.5 * lv).exp().max(0.3)).collect();
        let mut singles: Vec<usize> = model
            .sidecar
            .singletons
            .chars()
            .filter_map(|c| palette.iter().position(|&p| p == c))
            .collect();
        singles.extend(unique);
        let forbidden = singles.into_iter().filter(|&t| outside_has(t)).collect();
        Ok(Proposer::Model {
            model,
            mu,
            sigma,
            x0,
            size,
            forbidden,
        })
    }

    /// The search's proposer: tiles drawn as often as the level has them (each a little at
    /// least), the unique tile apart.
    fn search(
        grid: &[Vec<usize>],
        tiles: usize,
        unique: Option<usize>,
        outside_has: &dyn Fn(usize) -> bool,
    ) -> Self {
        let mut weights = vec![0.02; tiles];
        for &t in grid.iter().flatten() {
            weights[t] += 1.0;
        }
        let unique = unique.map(|u| (u, outside_has(u)));
        if let Some((u, _)) = unique {
            weights[u] = 0.0;
        }
        Proposer::Search { weights, unique }
    }
}

/// The level's tiles with the region's cells set to `tiles`, as rows of text.
fn fill_region(
    grid: &[Vec<usize>],
    cells: &[(usize, usize)],
    tiles: &[usize],
    palette: &[char],
) -> Vec<String> {
    let mut rows = grid.to_vec();
    for (&(x, y), &t) in cells.iter().zip(tiles) {
        rows[y][x] = t;
    }
    rows.iter()
        .map(|r| r.iter().map(|&t| palette[t]).collect())
        .collect()
}

/// Closest difficulty to the level's own first, then the order found; names the
/// candidates in that order.
fn rank_by_difficulty(found: &mut [Inpainted], original: Option<f64>, name: &str) {
    let gap = |c: &Inpainted| match (c.difficulty, original) {
        (Some(d), Some(o)) => (d - o).abs(),
        _ => f64::INFINITY,
    };
    found.sort_by(|a, b| gap(a).total_cmp(&gap(b)));
    for (i, c) in found.iter_mut().enumerate() {
        c.level.name = format!("{} (region {})", name, i + 1);
    }
}

/// The region's tiles of one proposal.
fn propose(
    proposer: &mut Proposer<'_>,
    cells: &[(usize, usize)],
    grid: &[Vec<usize>],
    attempt: usize,
    rng: &mut Rng,
) -> Result<Vec<usize>, InpaintError> {
    match proposer {
        Proposer::Model {
            model,
            mu,
            sigma,
            x0,
            size,
            forbidden,
        } => {
            // Wider each few attempts; tiles drawn rather than argmax after the first ones.
            let spread = 0.4 + 0.15 * (attempt / 4) as f32;
            let z: Vec<f32> = mu
                .iter()
                .zip(sigma.iter())
                .map(|(m, s)| m + spread * s * rng.normal() as f32)
                .collect();
            let logits = model.logits(&[z], *size, None)?;
            let local: Vec<(usize, usize)> = cells.iter().map(|&(x, y)| (x - *x0, y)).collect();
            let temperature = if attempt <= 8 { 0.0 } else { 0.7 };
            Ok(model.pick_tiles(&logits[0], &local, forbidden, temperature, Some(rng)))
        }
        Proposer::Search { weights, unique } => {
            let p = (0.3 + 0.05 * attempt as f64).min(1.0);
            let total: f64 = weights.iter().sum();
            let mut tiles: Vec<usize> = cells
                .iter()
                .map(|&(x, y)| {
                    let keep = grid[y][x];
                    if unique.is_some_and(|(u, _)| u == keep) || !rng.chance(p) {
                        return keep;
                    }
                    let mut r = rng.unit() * total;
                    for (t, w) in weights.iter().enumerate() {
                        if r < *w {
                            return t;
                        }
                        r -= w;
                    }
                    keep
                })
                .collect();
            // The player's tile moves within the region now and then when it is there.
            if let Some((u, false)) = *unique {
                if let Some(i) = tiles.iter().position(|&t| t == u) {
                    if rng.chance(0.3) {
                        let j = rng.index(tiles.len());
                        tiles.swap(i, j);
                    }
                }
            }
            Ok(tiles)
        }
    }
}
