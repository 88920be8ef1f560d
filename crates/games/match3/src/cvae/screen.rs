//! Early-stopped validation against a window of moves, for validated generation.
//!
//! A candidate only has to show that the median of its games lies inside a window
//! `[lo, hi]`, not what the median is. So each game stops at `⌊hi⌋` moves (a game not solved
//! by then is above the window, however long it would have taken), and a candidate's games
//! stop as soon as its median is decided: half of all its games fall on one side of the
//! window, or so many of those played so far that the rest are unlikely to turn it (a
//! one-sided sign test at z ≥ [`EARLY_Z`] after at least [`EARLY_MIN`] games). A candidate far
//! from its target costs a few short games instead of 30 long ones.
//!
//! A stopped game's moves are known only to exceed where it stopped, so the verdict takes the
//! median at its least and at its most: inside only when both are.

use crate::bot::play_game;
use crate::rules::Geometry;
use crate::ValidationConfig;
use studio_core::rng::Rng;

/// The sign test's z-score that stops a candidate's games early.
pub const EARLY_Z: f64 = 2.0;

/// Games played before the sign test may stop a candidate.
pub const EARLY_MIN: usize = 8;

/// True when `out` of `n` games on one side of the window make it unlikely (z ≥
/// [`EARLY_Z`]) that the median is inside it.
fn unlikely_inside(out: usize, n: usize) -> bool {
    n >= EARLY_MIN && (out as f64 - n as f64 / 2.0) >= EARLY_Z * (n as f64).sqrt() / 2.0
}

/// The accepted medians, inclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Fewest moves.
    pub lo: f64,
    /// Most moves.
    pub hi: f64,
}

impl Window {
    /// Moves a game needs to play to be judged against this window under `config`.
    fn cap(&self, config: &ValidationConfig) -> u32 {
        (self.hi.max(0.0).floor() as u32).min(config.max_moves())
    }
}

/// One game's outcome as far as it was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// Reached the goal in this many moves.
    Solved(u32),
    /// Not solved within this many moves (stopped there).
    NotWithin(u32),
}

/// Where a game lies against a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Below,
    Inside,
    Above,
    /// Stopped before the window's top: it may still have ended inside.
    Unknown,
}

impl Game {
    fn side(self, window: &Window) -> Side {
        match self {
            Game::Solved(m) if f64::from(m) < window.lo => Side::Below,
            Game::Solved(m) if f64::from(m) <= window.hi => Side::Inside,
            Game::Solved(_) => Side::Above,
            Game::NotWithin(m) if f64::from(m) >= window.hi.floor() => Side::Above,
            Game::NotWithin(_) => Side::Unknown,
        }
    }
}

/// Where a candidate's median lies against a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The median is inside the window, whatever the stopped games would have taken.
    Inside,
    /// The median is below the window's bottom (or, when the games stopped early, very likely
    /// is).
    Below,
    /// The median is above the window's top (or very likely is).
    Above,
    /// The stopped games leave it open.
    Undecided,
}

/// The median of `games`' moves with each stopped game at its least (`c + 1` moves) and at
/// its most (never): the lowest and highest the median can be.
pub fn median_bounds(games: &[Game]) -> (f64, f64) {
    let bound = |most: bool| {
        let mut v: Vec<f64> = games
            .iter()
            .map(|g| match *g {
                Game::Solved(m) => f64::from(m),
                Game::NotWithin(_) if most => f64::INFINITY,
                Game::NotWithin(c) => f64::from(c + 1),
            })
            .collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        }
    };
    (bound(false), bound(true))
}

/// The verdict over a complete record of `games` against `window`: where their median lies
/// (the median of a validation: the mean of the middle two for an even count).
pub fn judge(games: &[Game], window: &Window) -> Verdict {
    if games.is_empty() {
        return Verdict::Undecided;
    }
    let (least, most) = median_bounds(games);
    if most < window.lo {
        Verdict::Below
    } else if least > window.hi {
        Verdict::Above
    } else if least >= window.lo && most <= window.hi {
        Verdict::Inside
    } else {
        Verdict::Undecided
    }
}

/// Plays games `0..count` of `config` (the same seeded games [`crate::validate`]
/// plays) after `prior`, each stopped at the window's top, and stops as soon as the verdict
/// over all `prior.len() + count` games is decided against the window: more than half of
/// them on one side, or the sign test. Returns the games played (in order) and the verdict
/// over `prior` and them.
pub fn play_until_decided(
    geometry: &Geometry,
    config: &ValidationConfig,
    count: u32,
    window: &Window,
    prior: &[Game],
) -> (Vec<Game>, Verdict) {
    let half = (prior.len() + count as usize) / 2;
    let (mut below, mut above) = (0, 0);
    for g in prior {
        match g.side(window) {
            Side::Below => below += 1,
            Side::Above => above += 1,
            Side::Inside | Side::Unknown => {}
        }
    }
    let cap = window.cap(config);
    let mut played = Vec::with_capacity(count as usize);
    for i in 0..u64::from(count) {
        let n = prior.len() + played.len();
        if below > half || unlikely_inside(below, n) {
            return (played, Verdict::Below);
        }
        if above > half || unlikely_inside(above, n) {
            return (played, Verdict::Above);
        }
        let seed = Rng::derive(config.seed, i).next_u64();
        let result = play_game(geometry, config.bot, seed, cap);
        let game = match result.solved_in {
            Some(m) => Game::Solved(m),
            None => Game::NotWithin(cap),
        };
        match game.side(window) {
            Side::Below => below += 1,
            Side::Above | Side::Unknown => above += 1,
            Side::Inside => {}
        }
        played.push(game);
    }
    let verdict = judge(&[prior, played.as_slice()].concat(), window);
    (played, verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;
    use crate::validate;

    fn window(lo: f64, hi: f64) -> Window {
        Window { lo, hi }
    }

    #[test]
    fn the_verdict_is_where_the_median_lies_whatever_the_stopped_games_took() {
        let w = window(10.0, 14.0);
        let s = Game::Solved;
        assert_eq!(judge(&[s(9), s(11), s(15)], &w), Verdict::Inside);
        assert_eq!(judge(&[s(9), s(9), s(15)], &w), Verdict::Below);
        assert_eq!(
            judge(&[s(15), Game::NotWithin(14), s(12)], &w),
            Verdict::Above
        );
        // 4 games: the middle two are 9 and 15, whose mean 12 is inside.
        assert_eq!(judge(&[s(8), s(9), s(15), s(16)], &w), Verdict::Inside);
        // With the top two stopped at 14 the median could be anything from 12 up.
        assert_eq!(
            judge(&[s(8), s(9), Game::NotWithin(14), Game::NotWithin(14)], &w),
            Verdict::Undecided
        );
        // Games stopped at 12 moves cannot be judged against a top of 14 …
        assert_eq!(
            judge(&[s(11), Game::NotWithin(12), Game::NotWithin(12)], &w),
            Verdict::Undecided
        );
        // … but one away from the middle does not move the median.
        assert_eq!(
            judge(&[s(11), s(12), Game::NotWithin(12)], &w),
            Verdict::Inside
        );
        assert_eq!(judge(&[], &w), Verdict::Undecided);
    }

    #[test]
    fn early_stopped_games_agree_with_a_full_validation() {
        let layout = Layout::open(7, 8).unwrap();
        let config = ValidationConfig::default();
        let full = validate(&layout, &config).unwrap();
        let geometry = Geometry::new(&layout);
        let m = full.median_moves;
        // A window around the true median: every game is played, and the solved ones match.
        let around = window(m - 3.0, m + 3.0);
        let (games, verdict) = play_until_decided(&geometry, &config, 30, &around, &[]);
        assert_eq!(games.len(), 30);
        assert_eq!(verdict, Verdict::Inside);
        for (g, &moves) in games.iter().zip(&full.moves) {
            match *g {
                Game::Solved(k) => assert_eq!(k, moves),
                Game::NotWithin(cap) => assert!(moves > cap),
            }
        }
        // A window well below it is decided after about half the games.
        let easy = window(1.0, (m - 8.0).max(2.0));
        let (games, verdict) = play_until_decided(&geometry, &config, 30, &easy, &[]);
        assert_eq!(verdict, Verdict::Above);
        assert!(games.len() <= 16, "{} games", games.len());
        // And above it likewise.
        let hard = window(m + 8.0, m + 12.0);
        let (games, verdict) = play_until_decided(&geometry, &config, 30, &hard, &[]);
        assert_eq!(verdict, Verdict::Below);
        assert!(games.len() <= 16, "{} games", games.len());
    }

    #[test]
    fn prior_games_count_toward_the_verdict() {
        let layout = Layout::open(7, 8).unwrap();
        let config = ValidationConfig::default();
        let geometry = Geometry::new(&layout);
        let w = window(1.0, 3.0);
        // 20 prior games above the window out of 21: decided before any game is played.
        let prior = vec![Game::NotWithin(3); 20];
        let (games, verdict) = play_until_decided(&geometry, &config, 1, &w, &prior);
        assert!(games.is_empty());
        assert_eq!(verdict, Verdict::Above);
        // A prior game stopped below the window's top is not judged against it, but one
        // game away from the middle does not move the median.
        let (games, verdict) = play_until_decided(
            &geometry,
            &config,
            5,
            &window(1.0, 30.0),
            &[Game::NotWithin(3)],
        );
        assert_eq!(games.len(), 5);
        assert_eq!(verdict, Verdict::Inside);
    }
}
