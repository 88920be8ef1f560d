//! `play --vgdl GAME.txt LEVEL.txt`: a button script with GVGAI's action names (`--actions
//! RIGHT*10,USE,NIL*5`, with `--trace` one line a tick in the layout of GVGAI's reference
//! traces), or an agent's games as statistics (`--agent random --games 100 --json`).

use crate::agents::{self, play_out, Outcome};
use crate::load;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use studio_cli::bounds::AGENT_GAMES;
use vgdl::engine::parse_script;
use vgdl::trace::{line, Over};
use vgdl::State;

/// `play --vgdl`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game's VGDL description (GVGAI's `GAME.txt`).
    #[arg(long, value_name = "GAME.txt")]
    pub vgdl: PathBuf,
    /// The level (GVGAI's `GAME_lvlN.txt`).
    #[arg(value_name = "LEVEL.txt")]
    pub level: PathBuf,
    /// The player's actions, a comma list of ACTION*N with GVGAI's names LEFT RIGHT UP DOWN
    /// USE NIL, e.g. RIGHT*10,USE,NIL*5 (the game stops where the script ends).
    #[arg(long, conflicts_with = "agent")]
    pub actions: Option<String>,
    /// With --actions: one line a tick from t = 0 (the state after t cycles), GVGAI's
    /// reference-trace columns: t avatar TYPE cell_x cell_y px_x px_y orient hp HP/MAX res
    /// score over winner act hash counts.
    #[arg(long, requires = "actions")]
    pub trace: bool,
    /// An agent plays instead: donothing, random (GVGAI's sample random controller), onestep
    /// (its one-step lookahead with the simple heuristic), rs and rhea (its random search and
    /// rolling-horizon evolution, 200 ten-move plans a move), mcts (its sample MCTS, 200
    /// iterations a move), flatmcts (UCB1 over the first action, 200 rollouts) or olets (its
    /// open-loop expectimax tree search, 200 iterations).
    #[arg(long)]
    pub agent: Option<String>,
    /// With --agent: how many games, 1 to 1,000 (game i is seeded SEED + i).
    #[arg(long, value_parser = AGENT_GAMES.parser::<usize>())]
    pub games: Option<usize>,
    /// The seed of the game's random numbers (GVGAI's `new Random(seed)`, the seed's 64 bits
    /// as Java's long); the random agent draws from its own generator seeded from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search for the shortest win instead (breadth-first over the game's states), printed
    /// as a script --actions takes; with --frozen the random movers and chasers stand still
    /// (what makes a game like Zelda deterministic).
    #[arg(long, conflicts_with_all = ["actions", "agent"])]
    pub shortest: bool,
    /// With --shortest: the random movers and chasers stand still.
    #[arg(long, requires = "shortest")]
    pub frozen: bool,
    /// With --shortest: the most states searched, 1 to 10,000,000 (default 1,000,000). The
    /// search holds at most 1 GiB: about 50 bytes a state seen, and the waiting states whole
    /// while they fit (tens of KB each); the others are replayed from the start when their turn
    /// comes, which is slower. It says which budget ran out, states or memory.
    #[arg(long, value_parser = SEARCH_STATES.parser::<usize>())]
    pub budget: Option<usize>,
    /// Print the outcome as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `play --vgdl --shortest`'s budget when none is given: states a search may see.
const DEFAULT_BUDGET: usize = 1_000_000;

/// `play --vgdl --shortest --budget`: states a search may see.
pub const SEARCH_STATES: studio_cli::bounds::Whole = studio_cli::bounds::Whole::new(1, 10_000_000);

/// A script in `--actions`' form, runs of one action written `ACTION*N`.
pub fn script_text(actions: &[vgdl::Action]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < actions.len() {
        let mut j = i;
        while j < actions.len() && actions[j] == actions[i] {
            j += 1;
        }
        let name = actions[i].name();
        parts.push(if j - i == 1 {
            name.to_string()
        } else {
            format!("{name}*{}", j - i)
        });
        i = j;
    }
    parts.join(",")
}

/// Mean and sample standard deviation.
fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    let var = if values.len() > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, var.sqrt())
}

/// The agent's seed for game seed `seed`: its own stream, apart from the game's.
pub fn agent_seed(seed: i64) -> i64 {
    seed.wrapping_mul(31).wrapping_add(1_000_003)
}

/// Runs `play --vgdl`.
///
/// # Errors
/// Files that do not read, a game the engine does not run yet, a level without an avatar, a
/// script or agent that is not one.
pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    check_modes(args)?;
    let games = args.games.unwrap_or(1);
    let budget = args.budget.unwrap_or(DEFAULT_BUDGET);
    let game = load::game(&args.vgdl)?;
    let level = load::level(&game, &args.level)?;
    let fresh = |seed: i64| -> Result<State> { Ok(State::new(game.rules.clone(), &level, seed)?) };
    let mut out = std::io::stdout().lock();
    if let Some(script) = &args.actions {
        play_script(args, script, &fresh, &mut out)?;
    } else if args.shortest {
        shortest(args, budget, fresh(args.seed as i64)?, &mut out)?;
    } else {
        agent_games(args, &game, games, &fresh, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A flag of another mode is refused, not ignored (F38).
fn check_modes(args: &PlayArgs) -> Result<()> {
    let misplaced = [
        (
            args.trace && args.actions.is_none(),
            "--trace goes with --actions",
        ),
        (
            args.frozen && !args.shortest,
            "--frozen goes with --shortest",
        ),
        (
            args.budget.is_some() && !args.shortest,
            "--budget goes with --shortest",
        ),
        (
            args.games.is_some() && args.agent.is_none(),
            "--games goes with --agent",
        ),
    ];
    if let Some((_, why)) = misplaced.iter().find(|(wrong, _)| *wrong) {
        bail!("{why}");
    }
    Ok(())
}

/// `--actions`: the script played from the seed's start, with `--trace` a line a tick, else the outcome.
fn play_script(
    args: &PlayArgs,
    script: &str,
    fresh: &dyn Fn(i64) -> Result<State>,
    out: &mut impl Write,
) -> Result<()> {
    let actions = parse_script(script).map_err(|e| anyhow!("--actions: {e}"))?;
    let mut state = fresh(args.seed as i64)?;
    let (bounds, started) = (agents::Bounds::default(), std::time::Instant::now());
    let mut t = 0;
    loop {
        if state.is_over() {
            if args.trace {
                writeln!(out, "{}", line(&state, t, None, Over::Yes))?;
            }
            break;
        }
        let Some(&action) = actions.get(t) else {
            if args.trace {
                writeln!(out, "{}", line(&state, t, None, Over::Truncated))?;
            }
            break;
        };
        if args.trace {
            writeln!(out, "{}", line(&state, t, Some(action), Over::No))?;
        }
        state.step(action);
        bounds.check(&mut state, started);
        t += 1;
    }
    if !args.trace {
        let winner = match state.winner {
            vgdl::Winner::None => "running".to_string(),
            vgdl::Winner::Wins => "won".to_string(),
            vgdl::Winner::Loses => "lost".to_string(),
            vgdl::Winner::Stopped(limit) => limit.to_string(),
        };
        if args.json {
            let outcome = if state.stopped().is_some() {
                "stopped"
            } else {
                &winner
            };
            let mut row = json!({"ticks": state.tick, "score": state.score, "outcome": outcome});
            if state.stopped().is_some() {
                row["why"] = json!(winner);
            }
            writeln!(out, "{row}")?;
        } else {
            writeln!(
                out,
                "{winner} after {} cycles (game tick {}), score {}",
                t, state.tick, state.score
            )?;
        }
    }
    Ok(())
}

/// `--shortest`: the shortest win from `state` within `budget` states, or why there is none.
fn shortest(args: &PlayArgs, budget: usize, mut state: State, out: &mut impl Write) -> Result<()> {
    state.freeze_npcs(args.frozen);
    let found = vgdl::search::shortest_win(&state, budget);
    use vgdl::search::{Budget, Found};
    let (verdict, path, ran_out) = match &found {
        Found::Win(path) => ("win", Some(path), None),
        Found::NoWin => ("no win", None, None),
        Found::OutOfBudget(which, seen) => ("out of budget", None, Some((*which, *seen))),
    };
    if args.json {
        writeln!(
            out,
            "{}",
            json!({
                "found": verdict,
                "length": path.map(Vec::len),
                "actions": path.map(|p| script_text(p)),
                "budget": ran_out.map(|(which, _)| match which {
                    Budget::States => "states",
                    Budget::Memory => "memory",
                }),
                "states": ran_out.map(|(_, seen)| seen),
            })
        )?;
    } else {
        match (path, ran_out) {
            (Some(p), _) => writeln!(out, "shortest win, {} actions: {}", p.len(), script_text(p))?,
            (None, Some((Budget::States, _))) => {
                writeln!(out, "no win found within {} states (--budget)", budget)?
            }
            (None, Some((Budget::Memory, seen))) => writeln!(
                out,
                "no win found within the search's memory budget ({} MiB, reached after {} \
                 states)",
                vgdl::search::SEARCH_MEMORY >> 20,
                seen
            )?,
            (None, None) => writeln!(out, "no win: every reachable state was seen")?,
        }
    }
    Ok(())
}

/// `--agent`: `games` seeded games of the agent, as statistics.
fn agent_games(
    args: &PlayArgs,
    game: &load::Game,
    games: usize,
    fresh: &dyn Fn(i64) -> Result<State>,
    out: &mut impl Write,
) -> Result<()> {
    let Some(agent_name) = &args.agent else {
        bail!("play --vgdl needs --actions SCRIPT, --agent AGENT or --shortest");
    };
    agents::named(agent_name, 0, game).map_err(|e| anyhow!("--agent: {e}"))?;
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(games);
    for i in 0..games {
        let seed = args.seed.wrapping_add(i as u64) as i64;
        let mut agent = agents::named(agent_name, agent_seed(seed), game)
            .map_err(|e| anyhow!("--agent: {e}"))?;
        outcomes.push(play_out(fresh(seed)?, agent.as_mut()));
    }
    let wins = outcomes.iter().filter(|o| o.won).count();
    let scores: Vec<f64> = outcomes.iter().map(|o| o.score).collect();
    let ticks: Vec<f64> = outcomes.iter().map(|o| f64::from(o.ticks)).collect();
    let (mean_score, sd_score) = mean_sd(&scores);
    let (mean_ticks, sd_ticks) = mean_sd(&ticks);
    if args.json {
        writeln!(
            out,
            "{}",
            json!({
                "games": games,
                "wins": wins,
                "mean_score": mean_score,
                "sd_score": sd_score,
                "mean_ticks": mean_ticks,
                "sd_ticks": sd_ticks,
                "stopped": outcomes.iter().filter(|o| o.stopped.is_some()).count(),
                "stopped_note": agents::stopped_note(&outcomes),
            })
        )?;
    } else {
        writeln!(
            out,
            "{} games, {wins} won; score {mean_score:.3} ± {sd_score:.3}; ticks {mean_ticks:.1} ± \
             {sd_ticks:.1}{}",
            games,
            agents::stopped_note(&outcomes)
                .map(|n| format!("; {n}"))
                .unwrap_or_default()
        )?;
    }
    Ok(())
}
