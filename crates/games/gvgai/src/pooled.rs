//! The statistics of the relative performance profiles over levels: each game's scores
//! normalised over all its α and β levels together (so α − β is absolute), the per-level rank
//! kept beside them, Nielsen's spread (the advanced controllers' mean less the naive ones'),
//! and 95 % intervals from a seeded bootstrap over levels, per game and pooled over games.
//!
//! Levels are the unit: the games an agent plays on one level share its layout, so they are
//! not independent draws; the bootstrap resamples levels with replacement, within each game
//! and side (α, β), and recomputes every figure.

use crate::agents::Outcome;
use studio_core::rng::Rng;

/// The controllers Nielsen's spread counts as naive (the paper's Table 1 ranks them first).
pub const NAIVE_AGENTS: [&str; 3] = ["donothing", "random", "onestep"];
/// The controllers the spread counts as advanced: the paper's "intelligent algorithms"
/// (flat MCTS, MCTS, RHEA, OLETS). Random search, which the paper sets apart, is in neither.
pub const ADVANCED_AGENTS: [&str; 4] = ["flatmcts", "mcts", "rhea", "olets"];
/// Bootstrap resamples by default.
pub const RESAMPLES: usize = 2_000;

/// One level's games, per agent: the win rate, the mean raw score, the lowest and highest
/// score of any game played on it, and the agents' rank there (min–max over the agents'
/// mean scores: 0 the worst, 1 the best, 0.5 where all score alike).
#[derive(Clone, Debug, PartialEq)]
pub struct LevelGames {
    /// Each agent's share of its games won.
    pub win_rate: Vec<f64>,
    /// Each agent's mean score.
    pub mean_score: Vec<f64>,
    /// Each agent's rank on this level (the profiles' old "normalised score").
    pub rank: Vec<f64>,
    /// The lowest and highest score of any game on this level.
    pub range: (f64, f64),
}

impl LevelGames {
    /// The figures of one level's games, `[agent][game]`.
    pub fn of(games: &[Vec<Outcome>]) -> Self {
        let mean = |o: &[Outcome]| o.iter().map(|g| g.score).sum::<f64>() / o.len().max(1) as f64;
        let mean_score: Vec<f64> = games.iter().map(|o| mean(o)).collect();
        let win_rate = games
            .iter()
            .map(|o| o.iter().filter(|g| g.won).count() as f64 / o.len().max(1) as f64)
            .collect();
        let (lo, hi) = min_max(mean_score.iter().copied());
        let rank = mean_score.iter().map(|&m| scaled(m, (lo, hi))).collect();
        let range = min_max(games.iter().flatten().map(|g| g.score));
        LevelGames {
            win_rate,
            mean_score,
            rank,
            range,
        }
    }
}

fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    })
}

/// `value` min–max scaled into `(lo, hi)`; 0.5 when the range is empty.
fn scaled(value: f64, (lo, hi): (f64, f64)) -> f64 {
    if hi > lo {
        (value - lo) / (hi - lo)
    } else {
        0.5
    }
}

/// One side (α or β) of one game: per level, each agent's win rate, score normalised over
/// the game's α and β levels together, and rank on the level.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// `[level][agent]` win rates.
    pub win: Vec<Vec<f64>>,
    /// `[level][agent]` scores normalised over every game played on the game's α and β
    /// levels (the lowest score 0, the highest 1).
    pub score: Vec<Vec<f64>>,
    /// `[level][agent]` ranks on the level.
    pub rank: Vec<Vec<f64>>,
}

/// One game's α and β sides, normalised together.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSides {
    /// The game's name (its description's file).
    pub game: String,
    /// The α levels.
    pub alpha: Side,
    /// The β levels.
    pub beta: Side,
}

impl GameSides {
    /// Normalises one game's levels: the lowest and highest score of any game on any of its
    /// α or β levels bound the scale.
    pub fn new(game: impl Into<String>, alpha: &[LevelGames], beta: &[LevelGames]) -> Self {
        let range = min_max(
            alpha
                .iter()
                .chain(beta)
                .flat_map(|l| [l.range.0, l.range.1]),
        );
        let side = |levels: &[LevelGames]| Side {
            win: levels.iter().map(|l| l.win_rate.clone()).collect(),
            score: levels
                .iter()
                .map(|l| l.mean_score.iter().map(|&m| scaled(m, range)).collect())
                .collect(),
            rank: levels.iter().map(|l| l.rank.clone()).collect(),
        };
        GameSides {
            game: game.into(),
            alpha: side(alpha),
            beta: side(beta),
        }
    }
}

/// A figure and its bootstrap 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// On the levels as played.
    pub value: f64,
    /// The 2.5 and 97.5 percentiles over the resamples.
    pub ci95: (f64, f64),
}

/// One agent's row of a table: α, β and α − β of the win rate, the normalised score and
/// the rank.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentRow {
    /// The agent.
    pub agent: String,
    /// `[α, β, α − β]` win rates.
    pub win: [Figure; 3],
    /// `[α, β, α − β]` normalised scores.
    pub score: [Figure; 3],
    /// `[α, β, α − β]` per-level ranks.
    pub rank: [Figure; 3],
}

/// A table over some games: a row per agent, Nielsen's spread, and how it was resampled.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// A row per agent, in the order given.
    pub rows: Vec<AgentRow>,
    /// Nielsen's spread of the win rate, `[α, β, α − β]`.
    pub spread_win: [Figure; 3],
    /// Nielsen's spread of the normalised score, `[α, β, α − β]`.
    pub spread_score: [Figure; 3],
    /// α and β levels over every game.
    pub levels: (usize, usize),
    /// Bootstrap resamples.
    pub resamples: usize,
}

/// Which of a side's `[level][agent]` tables a figure reads.
type Measure = fn(&Side) -> &Vec<Vec<f64>>;

fn win_of(s: &Side) -> &Vec<Vec<f64>> {
    &s.win
}

fn score_of(s: &Side) -> &Vec<Vec<f64>> {
    &s.score
}

fn rank_of(s: &Side) -> &Vec<Vec<f64>> {
    &s.rank
}

/// The figures of one draw of levels, laid out as [`Table`] reads them: per agent nine
/// (win, score, rank × α, β, α − β), then the spread's six.
fn figures(games: &[GameSides], draw: &[[Vec<usize>; 2]], agents: &[&str]) -> Vec<f64> {
    // Mean over every drawn level of every game of `pick(side)[level][agent]`.
    let mean = |side: usize, pick: Measure, a: usize| {
        let (mut sum, mut n) = (0.0, 0usize);
        for (g, d) in games.iter().zip(draw) {
            let s = if side == 0 { &g.alpha } else { &g.beta };
            for &l in &d[side] {
                sum += pick(s)[l][a];
                n += 1;
            }
        }
        sum / n.max(1) as f64
    };
    let mut out = Vec::with_capacity(agents.len() * 9 + 6);
    for a in 0..agents.len() {
        for pick in [win_of as Measure, score_of, rank_of] {
            let (x, y) = (mean(0, pick, a), mean(1, pick, a));
            out.extend([x, y, x - y]);
        }
    }
    let group_mean = |names: &[&str], side: usize, pick: Measure| {
        let idx: Vec<usize> = (0..agents.len())
            .filter(|&a| names.contains(&agents[a]))
            .collect();
        idx.iter().map(|&a| mean(side, pick, a)).sum::<f64>() / idx.len().max(1) as f64
    };
    for pick in [win_of as Measure, score_of] {
        let spread =
            |side| group_mean(&ADVANCED_AGENTS, side, pick) - group_mean(&NAIVE_AGENTS, side, pick);
        let (x, y) = (spread(0), spread(1));
        out.extend([x, y, x - y]);
    }
    out
}

/// The `q` quantile of sorted `values` (linear between the nearest two).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = q * (sorted.len() - 1) as f64;
    let (i, frac) = (at.floor() as usize, at.fract());
    let next = sorted[(i + 1).min(sorted.len() - 1)];
    sorted[i] + frac * (next - sorted[i])
}

/// The table of `agents` over `games`, with 95 % intervals from `resamples` bootstrap draws
/// of levels (within each game and side), seeded by `seed`: the same seed, the same
/// intervals.
pub fn table(games: &[GameSides], agents: &[&str], resamples: usize, seed: u64) -> Table {
    let all: Vec<[Vec<usize>; 2]> = games
        .iter()
        .map(|g| {
            [
                (0..g.alpha.win.len()).collect(),
                (0..g.beta.win.len()).collect(),
            ]
        })
        .collect();
    let observed = figures(games, &all, agents);
    let mut rng = Rng::derive(seed, 0xB007);
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); observed.len()];
    for _ in 0..resamples {
        let draw: Vec<[Vec<usize>; 2]> = all
            .iter()
            .map(|sides| {
                sides
                    .clone()
                    .map(|levels| levels.iter().map(|_| rng.index(levels.len())).collect())
            })
            .collect();
        for (k, v) in figures(games, &draw, agents).into_iter().enumerate() {
            draws[k].push(v);
        }
    }
    let figure = |k: usize| {
        let mut d = draws[k].clone();
        d.sort_by(f64::total_cmp);
        Figure {
            value: observed[k],
            ci95: (quantile(&d, 0.025), quantile(&d, 0.975)),
        }
    };
    let three = |k: usize| [figure(k), figure(k + 1), figure(k + 2)];
    let rows = agents
        .iter()
        .enumerate()
        .map(|(a, name)| AgentRow {
            agent: (*name).to_string(),
            win: three(a * 9),
            score: three(a * 9 + 3),
            rank: three(a * 9 + 6),
        })
        .collect();
    let base = agents.len() * 9;
    Table {
        rows,
        spread_win: three(base),
        spread_score: three(base + 3),
        levels: (
            games.iter().map(|g| g.alpha.win.len()).sum(),
            games.iter().map(|g| g.beta.win.len()).sum(),
        ),
        resamples,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(scores: &[f64], wins: usize) -> Vec<Outcome> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &score)| Outcome {
                won: i < wins,
                score,
                ticks: 10,
                stopped: None,
            })
            .collect()
    }

    /// Two agents: on the α level they score 2 and 4 (each the mean of two games), on the β
    /// level 10 and 20; the game's scores span 1 (α's lowest game) to 20.
    fn hand_made() -> GameSides {
        let alpha = LevelGames::of(&[games(&[1.0, 3.0], 0), games(&[4.0, 4.0], 1)]);
        let beta = LevelGames::of(&[games(&[10.0, 10.0], 2), games(&[20.0, 20.0], 2)]);
        GameSides::new("hand", &[alpha], &[beta])
    }

    #[test]
    fn scores_are_normalised_over_the_games_alpha_and_beta_levels_together() {
        let g = hand_made();
        // (2 − 1) / 19, (4 − 1) / 19; (10 − 1) / 19, (20 − 1) / 19.
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(g.alpha.score[0][0], 1.0 / 19.0), "{:?}", g.alpha);
        assert!(close(g.alpha.score[0][1], 3.0 / 19.0));
        assert!(close(g.beta.score[0][0], 9.0 / 19.0));
        assert!(close(g.beta.score[0][1], 1.0));
        // The rank on each level is its own column: the better agent 1, the worse 0, alike
        // on both sides, where the normalised score tells β was easier for both.
        assert_eq!(g.alpha.rank[0], vec![0.0, 1.0]);
        assert_eq!(g.beta.rank[0], vec![0.0, 1.0]);
        assert_eq!(g.alpha.win[0], vec![0.0, 0.5]);
        assert_eq!(g.beta.win[0], vec![1.0, 1.0]);
        let t = table(&[g], &["a", "b"], 50, 1);
        assert!(close(t.rows[0].score[2].value, 1.0 / 19.0 - 9.0 / 19.0));
        assert_eq!(t.rows[1].rank[2].value, 0.0);
        assert_eq!(t.rows[1].win[2].value, -0.5);
    }

    /// A game of three α and three β levels, two agents: the first naive, the second
    /// advanced.
    fn three_a_side() -> GameSides {
        let level = |a: f64, b: f64| LevelGames::of(&[games(&[a], 0), games(&[b], 1)]);
        let alpha = [level(0.0, 5.0), level(1.0, 3.0), level(2.0, 8.0)];
        let beta = [level(1.0, 2.0), level(0.0, 1.0), level(4.0, 4.0)];
        GameSides::new("three", &alpha, &beta)
    }

    #[test]
    fn the_bootstrap_is_seeded_and_its_interval_holds_the_observed_figure() {
        let g = [three_a_side()];
        let agents = ["random", "olets"];
        let one = table(&g, &agents, 400, 7);
        assert_eq!(one, table(&g, &agents, 400, 7), "same seed, same table");
        // Another seed draws other levels (few resamples, so the percentiles move).
        assert_ne!(table(&g, &agents, 30, 7), table(&g, &agents, 30, 8));
        for row in &one.rows {
            for f in row.win.iter().chain(&row.score).chain(&row.rank) {
                assert!(f.ci95.0 <= f.value && f.value <= f.ci95.1, "{row:?}");
            }
        }
        // Win rates are one level's own: olets wins every level, random none; so the
        // intervals of the win rate have no width.
        assert_eq!(one.rows[1].win[0].ci95, (1.0, 1.0));
        assert_eq!(one.rows[0].win[2].ci95, (0.0, 0.0));
        assert_eq!(one.levels, (3, 3));
    }

    #[test]
    fn nielsens_spread_is_the_advanced_mean_less_the_naive_mean() {
        let g = [three_a_side()];
        let t = table(&g, &["random", "olets"], 10, 0);
        // Scores span 0 to 8: α random 1/8, olets 16/24; β random 5/24, olets 7/24.
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        let (a, b) = (16.0 / 24.0 - 1.0 / 8.0, 7.0 / 24.0 - 5.0 / 24.0);
        assert!(close(t.spread_score[0].value, a), "{:?}", t.spread_score);
        assert!(close(t.spread_score[1].value, b));
        assert!(close(t.spread_score[2].value, a - b));
        assert_eq!(t.spread_win.map(|f| f.value), [1.0, 1.0, 0.0]);
    }

    #[test]
    fn pooling_weighs_every_level_of_every_game_alike() {
        let (one, two) = (hand_made(), three_a_side());
        let agents = ["donothing", "olets"];
        let pooled = table(&[one.clone(), two.clone()], &agents, 10, 0);
        let sum = |s: &Side| s.score.iter().map(|l| l[1]).sum::<f64>();
        let want = (sum(&one.alpha) + sum(&two.alpha)) / 4.0;
        assert!((pooled.rows[1].score[0].value - want).abs() < 1e-12);
        assert_eq!(pooled.levels, (4, 4));
    }

    #[test]
    fn quantiles_interpolate_between_neighbours() {
        let v = [0.0, 1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.5), 2.0);
        assert!((quantile(&v, 0.025) - 0.1).abs() < 1e-12);
        assert_eq!(quantile(&v, 1.0), 4.0);
    }
}
