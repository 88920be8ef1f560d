//! Validation of a layout by seeded bot games: the median, spread and histogram of the moves
//! the bot needs, and whether the layout is valid under the designers' move limit.

use super::bot::{play_game, BotKind};
use super::layout::Layout;
use super::rules::Geometry;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How a validation is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationConfig {
    /// Number of seeded games.
    pub games: u32,
    /// The designers' move limit; games get `2 × limit − 1` moves and a failure records
    /// `2 × limit`.
    pub limit: u32,
    /// Base seed; game `i` plays with a stream derived from it.
    pub seed: u64,
    /// Who plays.
    pub bot: BotKind,
}

impl Default for ValidationConfig {
    fn default() -> Self {
        Self {
            games: 30,
            limit: 20,
            seed: 0,
            bot: BotKind::Greedy,
        }
    }
}

impl ValidationConfig {
    /// Moves a game may use.
    pub fn max_moves(&self) -> u32 {
        2 * self.limit - 1
    }

    /// What a game that does not reach the goal records.
    pub fn failure_moves(&self) -> u32 {
        2 * self.limit
    }
}

/// The figures of one validation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Validation {
    /// Median of the recorded moves.
    pub median_moves: f64,
    /// Population standard deviation of the recorded moves.
    pub std_moves: f64,
    /// Games played.
    pub games: u32,
    /// Games that reached the goal within the allowed moves.
    pub solved: u32,
    /// True when the median is within the limit.
    pub valid: bool,
    /// The move limit used.
    pub limit: u32,
    /// Base seed used.
    pub seed: u64,
    /// `histogram[i]` = games that recorded `i + 1` moves (length `2 × limit`).
    pub histogram: Vec<u32>,
    /// The recorded moves of each game, in game order.
    pub moves: Vec<u32>,
}

/// Why a layout cannot be validated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// Every game started without a legal move, even after reshuffling.
    #[error("no legal move: the layout has no swap that can ever make a line of three (stuck after {tries} reshuffles in every game)")]
    NoLegalMove {
        /// Reshuffles each game tried.
        tries: u32,
    },
    /// The configuration asks for nothing.
    #[error("a validation needs at least one game and a move limit of at least 1")]
    EmptyConfig,
}

/// Plays `config.games` seeded games on `layout` in parallel and summarises them.
///
/// # Errors
/// [`ValidationError::NoLegalMove`] when no game could make a single move.
pub fn validate(layout: &Layout, config: &ValidationConfig) -> Result<Validation, ValidationError> {
    if config.games == 0 || config.limit == 0 {
        return Err(ValidationError::EmptyConfig);
    }
    let geometry = Geometry::new(layout);
    let results: Vec<_> = (0..config.games as u64)
        .into_par_iter()
        .map(|i| {
            play_game(
                &geometry,
                config.bot,
                studio_core::rng::Rng::derive(config.seed, i).next_u64(),
                config.max_moves(),
            )
        })
        .collect();
    if results.iter().all(|r| r.stuck && r.moves == 0) {
        return Err(ValidationError::NoLegalMove {
            tries: super::rules::RESHUFFLE_TRIES,
        });
    }
    let moves: Vec<u32> = results
        .iter()
        .map(|r| r.solved_in.unwrap_or(config.failure_moves()))
        .collect();
    Ok(summarise(moves, config))
}

/// Median, spread, histogram and validity of recorded moves.
pub fn summarise(moves: Vec<u32>, config: &ValidationConfig) -> Validation {
    let n = moves.len().max(1) as f64;
    let median_moves = median(&moves);
    let mean = moves.iter().map(|&m| m as f64).sum::<f64>() / n;
    let var = moves
        .iter()
        .map(|&m| (m as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    let mut histogram = vec![0; config.failure_moves() as usize];
    for &m in &moves {
        let bin = (m.max(1) as usize - 1).min(histogram.len() - 1);
        histogram[bin] += 1;
    }
    Validation {
        median_moves,
        std_moves: var.sqrt(),
        games: moves.len() as u32,
        solved: moves
            .iter()
            .filter(|&&m| m < config.failure_moves())
            .count() as u32,
        valid: median_moves <= config.limit as f64,
        limit: config.limit,
        seed: config.seed,
        histogram,
        moves,
    }
}

/// The median of a list of move counts (mean of the middle two for an even count).
pub fn median(values: &[u32]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_figures() {
        let cfg = ValidationConfig {
            games: 4,
            ..Default::default()
        };
        let v = summarise(vec![10, 12, 40, 14], &cfg);
        assert_eq!(v.median_moves, 13.0);
        assert!(v.valid);
        assert_eq!(v.solved, 3);
        assert_eq!(v.histogram.len(), 40);
        assert_eq!(
            v.histogram[9] + v.histogram[11] + v.histogram[13] + v.histogram[39],
            4
        );
        assert!((v.std_moves - 12.2066).abs() < 0.01);
    }

    #[test]
    fn same_seed_same_result_and_different_seed_differs() {
        let layout = Layout::open(7, 8).unwrap();
        let cfg = ValidationConfig::default();
        let a = validate(&layout, &cfg).unwrap();
        let b = validate(&layout, &cfg).unwrap();
        assert_eq!(a, b);
        let c = validate(&layout, &ValidationConfig { seed: 99, ..cfg }).unwrap();
        assert_ne!(a.moves, c.moves);
    }

    #[test]
    fn a_layout_with_no_possible_move_is_an_error() {
        let layout = Layout::parse_ascii(".#.#\n#.#.\n.#.#\n#.#.\n").unwrap();
        assert!(matches!(
            validate(&layout, &ValidationConfig::default()),
            Err(ValidationError::NoLegalMove { .. })
        ));
    }
}
