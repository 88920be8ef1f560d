//! The agents' games on levels of a GVGAI game: the window's analysis (the gauge) and the
//! relative performance profiles of the pattern-based GA paper's eight controllers, each game
//! seeded and played to GVGAI's full length (or to the cap the GA judged its levels with).

use crate::agents;
use crate::figures::{AgentFigures, VgdlFigures};
use crate::level::VgdlGame;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use studio_core::game::{AgentProfile, AnalyseOptions, Analysis, Gauge, Verdict};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::{Figures, Level};

/// The paper's eight controllers, naive to advanced (its Table 1's order).
pub const PROFILE_AGENTS: [&str; 8] = agents::AGENTS;
/// The agents the window's analysis plays, naive to advanced.
pub const ANALYSIS_AGENTS: [&str; 4] = ["donothing", "random", "onestep", "olets"];
/// An agent's name for designers (`one-step`, `OLETS`).
pub fn display_name(agent: &str) -> &str {
    match agent {
        "donothing" => "do-nothing",
        "random" => "random",
        "onestep" => "one-step",
        "rs" => "random search",
        "flatmcts" => "flat MCTS",
        "mcts" => "MCTS",
        "rhea" => "RHEA",
        "olets" => "OLETS",
        other => other,
    }
}

/// Games per agent in the window's analysis.
pub const ANALYSIS_GAMES: u32 = 3;

/// Agents' games begun in this process, counted so tests and benches can tell that stored
/// figures spared the agents (a reopened pack, an export) from playing.
static GAMES_PLAYED: AtomicU64 = AtomicU64::new(0);

/// The agents' games begun in this process so far.
pub fn games_played() -> u64 {
    GAMES_PLAYED.load(Ordering::Relaxed)
}

/// How the profiles' games are played: how many per agent and level, from which seed, the
/// searching agents' budget and the games' length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfileGames {
    /// Games per agent and level.
    pub games: u32,
    /// The first game's seed.
    pub seed: u64,
    /// The searching agents' iterations a tick (their default when `None`).
    pub budget: Option<usize>,
    /// How long each game lasts.
    pub length: agents::Length,
}

/// One agent's games on one level, to the game's end or the length's cap.
fn full_games(
    game: &VgdlGame,
    rows: &[String],
    agent: &str,
    plan: &ProfileGames,
    cancel: &Cancel,
) -> Result<Vec<agents::Outcome>, JobError> {
    let ProfileGames {
        games,
        seed,
        budget,
        length,
    } = *plan;
    let state = game.state(rows, seed as i64).map_err(JobError::failed)?;
    (0..u64::from(games))
        .map(|g| {
            if cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let s = seed.wrapping_add(g) as i64;
            GAMES_PLAYED.fetch_add(1, Ordering::Relaxed);
            let mut state = state.clone();
            state.rng = vgdl::rng::JavaRandom::new(s);
            let mut a =
                agents::with_budget(agent, s, &game.game, budget).map_err(JobError::failed)?;
            // Stop acts within a tick, not only between games (F34).
            let bounds = agents::Bounds {
                length,
                ..agents::Bounds::cancelled_by(cancel)
            };
            let outcome = agents::play_out_within(state, a.as_mut(), &bounds);
            if outcome.stopped == Some(vgdl::Limit::Cancelled) {
                return Err(JobError::Cancelled);
            }
            Ok(outcome)
        })
        .collect()
}

/// Every agent's games on every level: `[level][agent]`, each as `plan` says. Levels and
/// agents run in parallel.
///
/// # Errors
/// [`JobError::Cancelled`] when cancelled; a level that does not play.
pub fn profile_games(
    game: &VgdlGame,
    levels: &[Vec<String>],
    agents: &[&str],
    plan: &ProfileGames,
    cancel: &Cancel,
) -> Result<Vec<Vec<Vec<agents::Outcome>>>, JobError> {
    let jobs: Vec<(usize, usize)> = (0..levels.len())
        .flat_map(|l| (0..agents.len()).map(move |a| (l, a)))
        .collect();
    let results: Vec<Result<Vec<agents::Outcome>, JobError>> = jobs
        .par_iter()
        .map(|&(l, a)| full_games(game, &levels[l], agents[a], plan, cancel))
        .collect();
    let mut per: Vec<Vec<Vec<agents::Outcome>>> =
        vec![vec![Vec::new(); agents.len()]; levels.len()];
    for (&(l, a), r) in jobs.iter().zip(results) {
        per[l][a] = r?;
    }
    Ok(per)
}

/// Each agent's min–max normalised mean score on each level (`[level][agent]`; 0.5 where
/// every agent scores alike), and its win rate there.
pub fn per_level(per: &[Vec<Vec<agents::Outcome>>]) -> Vec<Vec<(f64, f64)>> {
    per.iter()
        .map(|level| {
            let means: Vec<f64> = level
                .iter()
                .map(|o| o.iter().map(|g| g.score).sum::<f64>() / o.len().max(1) as f64)
                .collect();
            let (lo, hi) = means
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &m| {
                    (l.min(m), h.max(m))
                });
            level
                .iter()
                .enumerate()
                .map(|(a, o)| {
                    let rate = o.iter().filter(|g| g.won).count() as f64 / o.len().max(1) as f64;
                    let norm = if hi > lo {
                        (means[a] - lo) / (hi - lo)
                    } else {
                        0.5
                    };
                    (rate, norm)
                })
                .collect()
        })
        .collect()
}

/// The relative performance profiles of `agents` on levels (rows), as
/// [`profile_games`] plays them: each agent's win rate over every game and its normalised
/// score averaged over the levels.
///
/// # Errors
/// As [`profile_games`].
pub fn profiles(
    game: &VgdlGame,
    levels: &[Vec<String>],
    agents: &[&str],
    games: u32,
    seed: u64,
    budget: Option<usize>,
    cancel: &Cancel,
) -> Result<Vec<AgentProfile>, JobError> {
    let plan = ProfileGames {
        games,
        seed,
        budget,
        length: agents::Length::Full,
    };
    let per = per_level(&profile_games(game, levels, agents, &plan, cancel)?);
    let n = per.len().max(1) as f64;
    Ok(agents
        .iter()
        .enumerate()
        .map(|(a, name)| AgentProfile {
            agent: (*name).to_string(),
            win_rate: per.iter().map(|l| l[a].0).sum::<f64>() / n,
            normalised_score: per.iter().map(|l| l[a].1).sum::<f64>() / n,
        })
        .collect())
}

/// The window's analysis of a level: the agents' games ([`ANALYSIS_AGENTS`]), their win
/// rates on the gauge and their scores in a table. It passes when some agent wins.
///
/// # Errors
/// A level that does not play; [`JobError::Cancelled`].
pub fn analyse(
    game: &VgdlGame,
    level: &Level,
    options: &AnalyseOptions,
    cancel: &Cancel,
) -> Result<Analysis, JobError> {
    let games = options.games.unwrap_or(ANALYSIS_GAMES).max(1);
    game.state(&level.cells, options.seed as i64)
        .map_err(JobError::failed)?;
    let results: Vec<Result<Vec<agents::Outcome>, JobError>> = ANALYSIS_AGENTS
        .par_iter()
        .map(|a| {
            let plan = ProfileGames {
                games,
                seed: options.seed,
                budget: None,
                length: agents::Length::Full,
            };
            full_games(game, &level.cells, a, &plan, cancel)
        })
        .collect();
    let mut rates = Vec::new();
    let mut table = Vec::new();
    let mut fields = serde_json::Map::new();
    let mut best: Option<(&str, f64)> = None;
    let mut figures = VgdlFigures {
        game: studio_core::game::Game::file_tag(game),
        games,
        seed: options.seed,
        agents: Vec::new(),
    };
    let mut all: Vec<agents::Outcome> = Vec::new();
    for (name, r) in ANALYSIS_AGENTS.iter().zip(results) {
        let outcomes = r?;
        all.extend_from_slice(&outcomes);
        let n = outcomes.len().max(1) as f64;
        let rate = outcomes.iter().filter(|g| g.won).count() as f64 / n;
        let score = outcomes.iter().map(|g| g.score).sum::<f64>() / n;
        let ticks = outcomes.iter().map(|g| f64::from(g.ticks)).sum::<f64>() / n;
        rates.push((display_name(name).to_string(), rate));
        table.push((
            display_name(name).to_string(),
            format!("score {score:.1}, {ticks:.0} ticks"),
        ));
        figures.agents.push(AgentFigures {
            agent: (*name).to_string(),
            win_rate: rate,
            mean_score: score,
            mean_ticks: ticks,
        });
        fields.insert(
            (*name).to_string(),
            serde_json::json!({"win_rate": rate, "mean_score": score, "mean_ticks": ticks}),
        );
        if best.is_none_or(|(_, b)| rate > b) {
            best = Some((name, rate));
        }
    }
    let (best_name, best_rate) = best.unwrap_or(("none", 0.0));
    let pass = best_rate > 0.0;
    // A game won before any move is VGDL's rule (a win condition such as "no goal sprite
    // left" holds at the start), not an easy level: said, so it is not read as a bug.
    let at_start = pass
        && figures
            .agents
            .iter()
            .any(|a| a.win_rate >= 1.0 && a.mean_ticks <= 0.0);
    let start_note = at_start.then(|| {
        "won at tick 0: a win condition already holds at the start (e.g. no goal sprite \
         on the level), so VGDL ends the game as won before any move"
            .to_string()
    });
    let headline = if pass {
        format!(
            "{} wins {:.0} %",
            display_name(best_name),
            best_rate * 100.0
        )
    } else {
        "No agent wins".into()
    };
    let mut summary = format!(
        "{} ({})",
        headline,
        rates
            .iter()
            .map(|(n, r)| format!("{n} {:.0} %", r * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(note) = &start_note {
        summary = format!("{summary}; {note}");
    }
    // Games the engine's work bound or the time budget stopped count as not won, and say so.
    let stopped_note = agents::stopped_note(&all);
    if let Some(note) = &stopped_note {
        summary = format!("{summary}; {note}");
    }
    Ok(Analysis {
        difficulty: Some(1.0 - best_rate),
        verdict: Verdict {
            pass,
            weak: false,
            label: if pass { "WINNABLE" } else { "UNWON" }.into(),
            reason: summary.clone(),
        },
        figures: Some(Figures::new(figures)),
        gauge: Gauge {
            title: "Agents".into(),
            headline,
            value: Some(best_rate),
            scale: (0.0, 1.0),
            threshold: None,
            good_below: false,
            band: None,
            notes: start_note
                .into_iter()
                .chain(stopped_note)
                .chain(std::iter::once(format!(
                    "{games} games per agent, seed {}, up to {} ticks each",
                    options.seed,
                    vgdl::engine::MAX_TICKS
                )))
                .collect(),
            histogram: None,
            curve: None,
            rates: Some(("Agents' win rates".into(), rates)),
            tables: vec![("Agents' mean scores".into(), table)],
        },
        fields,
        summary,
        graph: None,
        graph_note: None,
        detail: None,
    })
}
