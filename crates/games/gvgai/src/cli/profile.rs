//! `eval --vgdl GAME.txt … --model fi2pop [--profile ALPHA BETA …] [--levels N]`: the
//! relative performance profiles of the pattern GA paper's eight controllers on α and β levels
//! of one or more games — each game's table and one pooled over the games given
//! ([`crate::pooled`]). Without `--profile`, the GA evolves `--levels` levels per fitness per
//! game first, with games as long as the profiles'.

use super::profile_shards::{self as shards, Unit};
use crate::agents::Outcome;
use crate::cli::evolve::{self as generate, Runs, BUDGET, TICKS};
use crate::evolve::{self, Judging, VgdlEvolution};
use crate::level::VgdlGame;
use crate::pooled::{self, Figure, GameSides, LevelGames, Table};
use crate::profiles::{self, ProfileGames, PROFILE_AGENTS};
use anyhow::{anyhow, bail, Result};
use clap::{ArgAction, Args};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use studio_cli::bounds;
use studio_core::evolve::pattern::Fitness;
use studio_core::files::{self, Loaded};
use studio_core::generation::Shard;
use studio_core::grid::Grid;
use studio_core::jobs::Cancel;

/// `eval --vgdl`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// A game's VGDL description (GVGAI's `GAME.txt`); repeat for more games, pooled in one
    /// table.
    #[arg(long, value_name = "GAME.txt", required = true, action = ArgAction::Append)]
    pub vgdl: Vec<PathBuf>,
    /// The model whose levels are profiled: fi2pop.
    #[arg(long, default_value = "fi2pop", value_parser = ["fi2pop"])]
    pub model: String,
    /// The α and β packs to profile, one `--profile ALPHA BETA` per `--vgdl`, in its order
    /// (without it, the GA evolves `--levels` levels per fitness per game).
    #[arg(long, num_args = 2, value_names = ["ALPHA", "BETA"], action = ArgAction::Append)]
    pub profile: Vec<PathBuf>,
    /// Levels the GA evolves per fitness per game when no `--profile` is given, 1 to 100
    /// (default 3; the paper-style table wants at least 10). Run i's seed is SEED + i.
    #[arg(long, value_parser = LEVELS.parser::<u32>(), conflicts_with = "profile")]
    pub levels: Option<u32>,
    /// The GA's levels per generation, 4 to 200 (default 50, the paper's).
    #[arg(long, value_parser = bounds::POPULATION.parser::<usize>(), conflicts_with = "profile")]
    pub population: Option<usize>,
    /// The GA's generations after the initial one, 0 to 500 (default 20).
    #[arg(long, value_parser = bounds::GENERATIONS.parser::<usize>(), conflicts_with = "profile")]
    pub generations: Option<usize>,
    /// The GA's ablation: harmful sprites earn nothing for grouping.
    #[arg(long, conflicts_with = "profile")]
    pub ablate_harmful: bool,
    /// A folder for the evolved packs (`GAME_alpha.ron`, `GAME_beta.ron`).
    #[arg(long, value_name = "DIR", conflicts_with = "profile")]
    pub keep: Option<PathBuf>,
    /// Caps every game at this many ticks, 40 to 2,000, the GA's and the profiles' alike
    /// (default: each game to its own end, a `Timeout` or GVGAI's 2,000 ticks). Give the
    /// `--ticks` the levels were generated with.
    #[arg(long, value_parser = TICKS.parser::<u32>())]
    pub ticks: Option<u32>,
    /// Games each agent plays on each level, 1 to 1,000.
    #[arg(long, default_value_t = 5, value_parser = bounds::AGENT_GAMES.parser::<u32>())]
    pub games: u32,
    /// The searching agents' iterations (or evaluated plans) a tick, 1 to 10,000 (default:
    /// their own, 200).
    #[arg(long, value_parser = BUDGET.parser::<usize>())]
    pub budget: Option<usize>,
    /// The first game's seed (and the GA's first run's, and the bootstrap's).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Bootstrap resamples of the levels for the 95 % intervals, 100 to 100,000.
    #[arg(long, default_value_t = pooled::RESAMPLES, value_parser = RESAMPLES.parser::<usize>())]
    pub resamples: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// This process's part of a profile, I/N (I from 1 to N): it plays the I-th of N
    /// consecutive blocks of the levels (game by game, α then β) and writes their figures to
    /// --out; `--merge` then makes the one-process run's table from the N parts.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, requires = "out")]
    pub shard: Option<Shard>,
    /// The part file a `--shard` run writes.
    #[arg(long, value_name = "PART", requires = "shard")]
    pub out: Option<PathBuf>,
    /// Makes the table from the parts of a `--shard` run instead of playing (with the flags
    /// the parts were played with; `--resamples` and `--json` may differ).
    #[arg(long, value_name = "PART", num_args = 1.., conflicts_with = "shard")]
    pub merge: Vec<PathBuf>,
}

/// `eval --vgdl --levels`: as many as a pack may bring.
pub const LEVELS: bounds::Whole = bounds::Whole::new(1, MAX_PROFILE_LEVELS as u64);
/// `eval --vgdl --resamples`.
pub const RESAMPLES: bounds::Whole = bounds::Whole::new(100, 100_000);
/// The most levels a pack may bring to `eval --profile`.
pub const MAX_PROFILE_LEVELS: usize = 100;
/// The most games one `eval --vgdl` profiles.
pub const MAX_GAMES: usize = 10;

fn levels_of(g: &VgdlGame, path: &Path) -> Result<Vec<Vec<String>>> {
    let levels = match files::load_pack_or_level(path)? {
        Loaded::Pack(p) => p.levels,
        Loaded::Level(l) => vec![*l],
    };
    let id = studio_core::game::Game::id(g);
    let mut out = Vec::new();
    for level in levels {
        if level.game != id {
            bail!(
                "{}: level {:?} is a {} level, not one of {}",
                path.display(),
                level.name,
                level.game,
                g.file()
            );
        }
        out.push(level.cells);
    }
    if out.is_empty() {
        bail!("{} holds no level", path.display());
    }
    if out.len() > MAX_PROFILE_LEVELS {
        bail!(
            "{}: {} levels; a profile takes at most {MAX_PROFILE_LEVELS} a pack (each plays {} \
             agents × --games full games)",
            path.display(),
            out.len(),
            PROFILE_AGENTS.len()
        );
    }
    Ok(out)
}

/// Cells in which two levels of one size differ (`usize::MAX` for levels of two sizes).
fn distance(a: &[String], b: &[String]) -> usize {
    if a.len() != b.len() || a.iter().zip(b).any(|(x, y)| x.len() != y.len()) {
        return usize::MAX;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| x.chars().zip(y.chars()).filter(|(p, q)| p != q).count())
        .sum()
}

/// Refuses, in words, what the flags cannot mean together.
fn check_args(args: &EvalArgs) -> Result<()> {
    if args.vgdl.len() > MAX_GAMES {
        bail!(
            "{} games given; one eval profiles at most {MAX_GAMES}",
            args.vgdl.len()
        );
    }
    if !args.profile.is_empty() && args.profile.len() != 2 * args.vgdl.len() {
        bail!(
            "{} --vgdl games but {} --profile pairs: give one --profile ALPHA BETA per game, in \
             the order of --vgdl",
            args.vgdl.len(),
            args.profile.len() / 2
        );
    }
    if args.profile.is_empty() && (args.shard.is_some() || !args.merge.is_empty()) {
        bail!(
            "--shard and --merge split the playing of given levels: give --profile ALPHA BETA \
             (evolve them first with `generate --vgdl`, or with `eval --keep DIR`)"
        );
    }
    Ok(())
}

/// One game's α and β levels: its packs from `--profile`, else evolved.
fn levels_for(
    g: &'static VgdlGame,
    args: &EvalArgs,
    index: usize,
) -> Result<[Vec<Vec<String>>; 2]> {
    if !args.profile.is_empty() {
        let (a, b) = (&args.profile[2 * index], &args.profile[2 * index + 1]);
        return Ok([levels_of(g, a)?, levels_of(g, b)?]);
    }
    let path = &args.vgdl[index];
    let template = generate::template(g, path, None)?;
    let runs = Runs {
        count: args.levels.unwrap_or(3),
        seed: args.seed,
        population: args.population.unwrap_or(50),
        generations: args.generations.unwrap_or(20),
    };
    let stem = path
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    let mut sides = [Vec::new(), Vec::new()];
    for (side, fitness) in sides.iter_mut().zip([Fitness::Alpha, Fitness::Beta]) {
        let mut ga = VgdlEvolution::new(g, template.clone(), fitness);
        ga.judging = Judging {
            length: generate::length(args.ticks),
            pattern: generate::pattern_term(args.ablate_harmful),
            ..Judging::default()
        };
        let mut out = match &args.keep {
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| anyhow!("{}: cannot make the folder: {e}", dir.display()))?;
                let file = dir.join(format!("{stem}_{}.ron", fitness.name()));
                Some(studio_cli::pack_out::PackOut::new(&file)?)
            }
            None => None,
        };
        let (pack, failed) =
            generate::evolve_pack(g, &ga, runs, 0..u64::from(runs.count), &mut |p| {
                if let Some(out) = out.as_mut() {
                    out.save(p)?;
                }
                Ok(())
            })?;
        if pack.levels.is_empty() {
            bail!(
                "{}: no {} run found a feasible level (seeds {failed:?}) — try more generations \
                 or a larger population",
                g.file(),
                fitness.letter()
            );
        }
        *side = pack.levels.into_iter().map(|l| l.cells).collect();
    }
    Ok(sides)
}

/// Every profile agent's games on each of `units`, a line a level on stderr.
fn play_units(
    games: &[&'static VgdlGame],
    levels: &[[Vec<Vec<String>>; 2]],
    plan: &ProfileGames,
    units: &[Unit],
    started: std::time::Instant,
) -> Result<Vec<LevelGames>> {
    let cancel = Cancel::default();
    let mut all = Vec::with_capacity(units.len());
    for unit in units {
        let (g, side) = (games[unit.game], &levels[unit.game][unit.side]);
        let one: Vec<Vec<Vec<Outcome>>> = profiles::profile_games(
            g,
            std::slice::from_ref(&side[unit.level]),
            &PROFILE_AGENTS,
            plan,
            &cancel,
        )
        .map_err(|e| anyhow!("{e}"))?;
        all.extend(one.iter().map(|l| LevelGames::of(l)));
        eprintln!(
            "{} {}: level {}/{} played by {} agents ({:.0} s)",
            g.file(),
            ["alpha", "beta"][unit.side],
            unit.level + 1,
            side.len(),
            PROFILE_AGENTS.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(all)
}

/// One game's profile: its levels, their figures and its own table.
struct GameProfile {
    file: String,
    levels: [Vec<Vec<String>>; 2],
    sides: GameSides,
    sizes: [f64; 2],
    close: usize,
    table: Table,
}

/// Runs `eval --vgdl`.
///
/// # Errors
/// A game or pack that does not load, flags that do not go together, a level that does not
/// play, or a GA that finds no feasible level.
pub fn eval(args: &EvalArgs) -> Result<ExitCode> {
    check_args(args)?;
    let plan = ProfileGames {
        games: args.games,
        seed: args.seed,
        budget: args.budget,
        length: generate::length(args.ticks),
    };
    let started = std::time::Instant::now();
    let mut games = Vec::new();
    let mut levels = Vec::new();
    for (index, path) in args.vgdl.iter().enumerate() {
        // The packs name their game by its description: open it first, so a pack written by
        // `generate --vgdl` of this description reads.
        let g = generate::open_game(path)?;
        levels.push(levels_for(g, args, index)?);
        games.push(g);
    }
    let units = shards::units(&levels);
    let run = || {
        shards::run_key(
            &args.vgdl,
            &levels,
            plan.games,
            plan.seed,
            args.budget.unwrap_or(crate::planners::MCTS_ITERATIONS),
            &plan.length.label(),
        )
    };
    let figures = if !args.merge.is_empty() {
        shards::merge(&args.merge, &run()?, &units)?
    } else if let (Some(shard), Some(out)) = (args.shard, &args.out) {
        shards::check_parts(shard, units.len())?;
        let mine = &units[shard.block(units.len())];
        let played = play_units(&games, &levels, &plan, mine, started)?;
        let pairs: Vec<(Unit, LevelGames)> = mine.iter().copied().zip(played).collect();
        shards::write_part(out, shard, &run()?, &pairs)?;
        println!(
            "part {}/{}: {} of the {} levels played, written to {} (merge the {} parts with \
             --merge)",
            shard.index,
            shard.of,
            mine.len(),
            units.len(),
            out.display(),
            shard.of
        );
        return Ok(ExitCode::SUCCESS);
    } else {
        play_units(&games, &levels, &plan, &units, started)?
    };
    let mut figures = figures.into_iter();
    let mut profiled = Vec::new();
    for (g, levels) in games.into_iter().zip(levels) {
        let mut side = |n: usize| figures.by_ref().take(n).collect::<Vec<LevelGames>>();
        let played = [side(levels[0].len()), side(levels[1].len())];
        let sides = GameSides::new(g.file(), &played[0], &played[1]);
        let size = |side: &[Vec<String>]| {
            let tiles: Vec<Grid<u8>> = side
                .iter()
                .filter_map(|l| evolve::tiles_of(g, l).ok())
                .collect();
            evolve::mean_group_size(g, &tiles)
        };
        let close = levels[0]
            .iter()
            .flat_map(|x| levels[1].iter().map(move |y| distance(x, y)))
            .filter(|&d| d <= 5)
            .count();
        let table = pooled::table(
            std::slice::from_ref(&sides),
            &PROFILE_AGENTS,
            args.resamples,
            args.seed,
        );
        profiled.push(GameProfile {
            file: g.file().to_string(),
            sizes: [size(&levels[0]), size(&levels[1])],
            levels,
            sides,
            close,
            table,
        });
    }
    let all: Vec<GameSides> = profiled.iter().map(|p| p.sides.clone()).collect();
    let pooled = pooled::table(&all, &PROFILE_AGENTS, args.resamples, args.seed);
    if args.json {
        println!("{}", profiles_json(args, &profiled, &pooled));
    } else {
        for p in &profiled {
            print_table(
                &format!(
                    "{}: α {} levels (mean group size {:.2}), β {} levels ({:.2}), α/β pairs \
                     within 5 cells: {} of {}",
                    p.file,
                    p.levels[0].len(),
                    p.sizes[0],
                    p.levels[1].len(),
                    p.sizes[1],
                    p.close,
                    p.levels[0].len() * p.levels[1].len()
                ),
                &p.table,
            );
            print_per_level(p);
        }
        print_table(
            &format!(
                "Pooled over {} (games per agent and level {}, seed {}, budget {}, games {} \
                 ticks, {} resamples)",
                profiled
                    .iter()
                    .map(|p| p.file.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                args.games,
                args.seed,
                args.budget.unwrap_or(crate::planners::MCTS_ITERATIONS),
                plan.length.label(),
                args.resamples
            ),
            &pooled,
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn figure_json(f: &Figure) -> Value {
    json!({"value": f.value, "ci95": [f.ci95.0, f.ci95.1]})
}

/// `[α, β, α − β]` as JSON.
fn three_json(f: &[Figure; 3]) -> Value {
    json!({
        "alpha": figure_json(&f[0]),
        "beta": figure_json(&f[1]),
        "alpha_minus_beta": figure_json(&f[2]),
    })
}

/// A table's rows and spread as JSON.
fn table_json(t: &Table) -> Value {
    json!({
        "levels": [t.levels.0, t.levels.1],
        "agents": t.rows.iter().map(|r| (r.agent.clone(), json!({
            "win_rate": three_json(&r.win),
            "normalised_score": three_json(&r.score),
            "rank": three_json(&r.rank),
        }))).collect::<serde_json::Map<_, _>>(),
        "spread": {
            "naive": pooled::NAIVE_AGENTS,
            "advanced": pooled::ADVANCED_AGENTS,
            "win_rate": three_json(&t.spread_win),
            "normalised_score": three_json(&t.spread_score),
        },
    })
}

/// One side of one game: its levels, group size, and each agent's figures with the
/// per-level win rates, normalised scores and ranks.
fn side_json(p: &GameProfile, side: usize) -> Value {
    let s = if side == 0 {
        &p.sides.alpha
    } else {
        &p.sides.beta
    };
    let column = |m: &[Vec<f64>], a: usize| m.iter().map(|l| l[a]).collect::<Vec<f64>>();
    json!({
        "rooms": p.levels[side].len(),
        "mean_group_size": p.sizes[side],
        "profiles": p.table.rows.iter().enumerate().map(|(a, r)| (r.agent.clone(), json!({
            "win_rate": r.win[side].value,
            "win_rate_ci95": [r.win[side].ci95.0, r.win[side].ci95.1],
            "normalised_score": r.score[side].value,
            "normalised_score_ci95": [r.score[side].ci95.0, r.score[side].ci95.1],
            "rank": r.rank[side].value,
            "per_level_win_rate": column(&s.win, a),
            "per_level_normalised_score": column(&s.score, a),
            "per_level_rank": column(&s.rank, a),
        }))).collect::<serde_json::Map<_, _>>(),
    })
}

/// `eval --vgdl … --json`: each game's profiles and the pooled table as one JSON object.
fn profiles_json(args: &EvalArgs, profiled: &[GameProfile], pooled: &Table) -> Value {
    let per_game: Vec<Value> = profiled
        .iter()
        .map(|p| {
            json!({
                "game": p.file,
                "alpha": side_json(p, 0),
                "beta": side_json(p, 1),
                "pairs": p.levels[0].len() * p.levels[1].len(),
                "pairs_within_5_cells": p.close,
                "alpha_minus_beta": p.table.rows.iter().map(|r| (r.agent.clone(), json!({
                    "win_rate": r.win[2].value,
                    "win_rate_ci95": [r.win[2].ci95.0, r.win[2].ci95.1],
                    "normalised_score": r.score[2].value,
                    "normalised_score_ci95": [r.score[2].ci95.0, r.score[2].ci95.1],
                    "rank": r.rank[2].value,
                }))).collect::<serde_json::Map<_, _>>(),
                "table": table_json(&p.table),
            })
        })
        .collect();
    let mut pooled_json = table_json(pooled);
    pooled_json["games"] = json!(profiled.iter().map(|p| p.file.clone()).collect::<Vec<_>>());
    pooled_json["mean_group_size"] = json!({
        "alpha": profiled.iter().map(|p| p.sizes[0]).sum::<f64>() / profiled.len().max(1) as f64,
        "beta": profiled.iter().map(|p| p.sizes[1]).sum::<f64>() / profiled.len().max(1) as f64,
    });
    json!({
        "games": args.games,
        "seed": args.seed,
        "budget": args.budget.unwrap_or(crate::planners::MCTS_ITERATIONS),
        "ticks": generate::length(args.ticks).label(),
        "resamples": args.resamples,
        "agents": "gvgai",
        "per_game": per_game,
        "pooled": pooled_json,
    })
}

/// Each agent's win rate on each α and β level of one game.
fn print_per_level(p: &GameProfile) {
    let rates = |m: &[Vec<f64>], a: usize| {
        m.iter()
            .map(|l| format!("{:.2}", l[a]))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("per-level win rates (α | β):");
    for (a, name) in PROFILE_AGENTS.iter().enumerate() {
        println!(
            "  {:<13} {} | {}",
            profiles::display_name(name),
            rates(&p.sides.alpha.win, a),
            rates(&p.sides.beta.win, a)
        );
    }
    println!();
}

/// `eval --vgdl …`: one table, a row per agent, then the spread (the name column as wide as
/// the longest agent's name, "random search").
fn print_table(title: &str, t: &Table) {
    println!("{title}");
    println!(
        "{:<13} {:>6} {:>6} {:>22} {:>6} {:>6} {:>22} {:>6}",
        "agent",
        "α win",
        "β win",
        "α−β win (95 %)",
        "α norm",
        "β norm",
        "α−β norm (95 %)",
        "α−β rank"
    );
    let ci = |f: &Figure| format!("{:+.2} [{:+.2}, {:+.2}]", f.value, f.ci95.0, f.ci95.1);
    for r in &t.rows {
        println!(
            "{:<13} {:>6.2} {:>6.2} {:>22} {:>6.3} {:>6.3} {:>22} {:>+8.2}",
            profiles::display_name(&r.agent),
            r.win[0].value,
            r.win[1].value,
            ci(&r.win[2]),
            r.score[0].value,
            r.score[1].value,
            ci(&r.score[2]),
            r.rank[2].value
        );
    }
    println!(
        "{:<13} {:>6.2} {:>6.2} {:>22} {:>6.3} {:>6.3} {:>22}",
        "spread",
        t.spread_win[0].value,
        t.spread_win[1].value,
        ci(&t.spread_win[2]),
        t.spread_score[0].value,
        t.spread_score[1].value,
        ci(&t.spread_score[2])
    );
    println!();
}
