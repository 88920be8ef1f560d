//! `generate --vgdl GAME.txt --model fi2pop --fitness alpha|beta` (the pattern GA's levels of
//! any GVGAI game, into a pack) and `eval --vgdl GAME.txt --model fi2pop --profile ALPHA
//! BETA` (the relative performance profiles of the paper's eight controllers on them).

use crate::agents::Outcome;
use crate::evolve::{self, VgdlEvolution};
use crate::level::{self, VgdlGame};
use crate::profiles::{self, PROFILE_AGENTS};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use studio_cli::bounds;
use studio_core::evolve::pattern::Fitness;
use studio_core::evolve::{self as ga, Settings};
use studio_core::files::{self, Loaded};
use studio_core::grid::Grid;
use studio_core::jobs::Cancel;
use studio_core::level::Pack;

/// `generate --vgdl`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The game's VGDL description (GVGAI's `GAME.txt`).
    #[arg(long, value_name = "GAME.txt")]
    pub vgdl: PathBuf,
    /// The level whose size and border the GA keeps (default: GAME_lvl0.txt beside the
    /// description, else a 13 x 9 level walled in).
    #[arg(long, value_name = "LEVEL.txt")]
    pub level: Option<PathBuf>,
    /// The generator: fi2pop (the pattern GA).
    #[arg(long, default_value = "fi2pop", value_parser = ["fi2pop"])]
    pub model: String,
    /// α (sprites in groups) or β (isolated sprites, the paper's inverse fitness).
    #[arg(long, default_value = "alpha", value_parser = ["alpha", "beta"])]
    pub fitness: String,
    /// Levels to make, one GA run each (seeds SEED, SEED + 1, …), 1 to 100.
    #[arg(long, default_value_t = 3, value_parser = bounds::ROOMS.parser::<u32>())]
    pub count: u32,
    /// The first run's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Levels per generation, 4 to 200 (the paper: 50).
    #[arg(long, default_value_t = 50, value_parser = bounds::POPULATION.parser::<usize>())]
    pub population: usize,
    /// Generations after the initial one, 0 to 500.
    #[arg(long, default_value_t = 20, value_parser = bounds::GENERATIONS.parser::<usize>())]
    pub generations: usize,
    /// The pack to write.
    #[arg(long, value_name = "PACK.ron")]
    pub out: PathBuf,
}

/// `eval --vgdl`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The game's VGDL description (GVGAI's `GAME.txt`).
    #[arg(long, value_name = "GAME.txt")]
    pub vgdl: PathBuf,
    /// The model whose levels are profiled: fi2pop.
    #[arg(long, default_value = "fi2pop", value_parser = ["fi2pop"])]
    pub model: String,
    /// The α and β packs to profile.
    #[arg(long, num_args = 2, value_names = ["ALPHA", "BETA"], required = true)]
    pub profile: Vec<PathBuf>,
    /// Games each agent plays on each level, 1 to 1,000.
    #[arg(long, default_value_t = 5, value_parser = bounds::AGENT_GAMES.parser::<u32>())]
    pub games: u32,
    /// The searching agents' iterations (or evaluated plans) a tick, 1 to 10,000 (default:
    /// their own, 200).
    #[arg(long, value_parser = BUDGET.parser::<usize>())]
    pub budget: Option<usize>,
    /// The first game's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `eval --vgdl --budget`.
pub const BUDGET: bounds::Whole = bounds::Whole::new(1, 10_000);

fn open_game(path: &Path) -> Result<&'static VgdlGame> {
    let text = crate::load::read_text(path)?;
    level::open(&path.display().to_string(), &text).map_err(|e| anyhow!(e))
}

/// The template level: `--level`, else `GAME_lvl0.txt` beside the description, else blank.
fn template(g: &VgdlGame, game_path: &Path, level: Option<&Path>) -> Result<Grid<u8>> {
    let beside = game_path.with_file_name(format!(
        "{}_lvl0.txt",
        game_path
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned())
    ));
    let path = match level {
        Some(p) => Some(p.to_path_buf()),
        // Only a missing file falls back on the blank template; anything else there (a FIFO,
        // a device) is read, and so refused in words (F38).
        None => std::fs::symlink_metadata(&beside).is_ok().then_some(beside),
    };
    let rows = match path {
        Some(p) => {
            let text = crate::load::read_text(&p)?;
            let (rows, note) = g.rows_from_gvgai(&text);
            if let Some(note) = note {
                eprintln!("{}: {note}", p.display());
            }
            studio_core::game::Game::check(g, &rows)
                .map_err(|e| anyhow!("{}: {e}", p.display()))?;
            rows
        }
        None => studio_core::game::Game::blank(g, 13, 9).cells,
    };
    evolve::tiles_of(g, &rows).map_err(|e| anyhow!(e))
}

/// Runs `generate --vgdl`.
///
/// # Errors
/// A game or level that does not load, a pack that cannot be written, or no run finding a
/// feasible level.
pub fn generate(args: &GenerateArgs) -> Result<ExitCode> {
    let g = open_game(&args.vgdl)?;
    let fitness = if args.fitness == "beta" {
        Fitness::Beta
    } else {
        Fitness::Alpha
    };
    let template = template(g, &args.vgdl, args.level.as_deref())?;
    let mut out = studio_cli::pack_out::PackOut::new(&args.out)?;
    let ga = VgdlEvolution::new(g, template, fitness);
    let mut pack = Pack::new(format!(
        "{} fi2pop {}",
        studio_core::game::Game::name(g),
        fitness.name()
    ));
    pack.description = format!(
        "The best feasible level of each of {} FI2Pop runs ({}, population {}, {} \
         generations), seeds {} on",
        args.count,
        fitness.letter(),
        args.population,
        args.generations,
        args.seed
    );
    let mut failed = Vec::new();
    for i in 0..u64::from(args.count) {
        let settings = Settings {
            population: args.population,
            generations: args.generations,
            seed: args.seed.wrapping_add(i),
            ..Settings::default()
        };
        eprintln!(
            "run {} of {}: {} x {} generations, seed {}",
            i + 1,
            args.count,
            settings.population,
            settings.generations,
            settings.seed
        );
        let run = ga::evolve(&ga, &settings, &Cancel::default(), &mut |s| {
            eprintln!(
                "  generation {}: {} feasible, best {}",
                s.generation,
                s.feasible,
                s.best_feasible
                    .map_or("none yet".into(), |b| format!("{b:.3}"))
            );
        });
        let Some(best) = run.feasible.into_iter().next() else {
            let nearest = run
                .infeasible
                .first()
                .map(|i| i.evaluation.failed().join("; "))
                .unwrap_or_default();
            eprintln!("  no feasible level (nearest: {nearest})");
            failed.push(settings.seed);
            continue;
        };
        eprintln!(
            "  kept: fitness {:.3}, mean group size {:.2}",
            best.evaluation.fitness(),
            evolve::mean_group_size(g, std::slice::from_ref(&best.cells))
        );
        let mut level = g.level(
            format!("{} {}", fitness.name(), i + 1),
            evolve::rows_of(g, &best.cells),
        );
        level.tags = vec![
            "generated".into(),
            format!("fi2pop-{}", fitness.name()),
            format!("seed {}", settings.seed),
            format!("fitness {:.3}", best.evaluation.fitness()),
        ];
        for t in &best.evaluation.terms {
            level.tags.push(format!("{}: {}", t.name, t.text));
        }
        pack.levels.push(level);
        // Each run's level is on disk as soon as it is found.
        out.save(&pack)?;
    }
    if pack.levels.is_empty() {
        bail!(
            "no run found a feasible level (seeds {failed:?}); nothing was written — try more \
             generations or a larger population"
        );
    }
    eprintln!(
        "wrote {} levels to {}{}",
        pack.levels.len(),
        out.path().display(),
        if failed.is_empty() {
            String::new()
        } else {
            format!(" (no feasible level with seeds {failed:?})")
        }
    );
    Ok(ExitCode::SUCCESS)
}

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

/// Mean and the half-width of a normal 95 % interval of a sample.
fn mean_ci(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    if n < 2.0 {
        return (mean, f64::NAN);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// The most levels a pack may bring to `eval --profile`.
pub const MAX_PROFILE_LEVELS: usize = 100;

/// Runs `eval --vgdl`.
///
/// # Errors
/// A game or pack that does not load, or a level that does not play.
pub fn eval(args: &EvalArgs) -> Result<ExitCode> {
    let g = open_game(&args.vgdl)?;
    let [a, b] = args.profile.as_slice() else {
        bail!("--profile takes two packs: ALPHA.ron BETA.ron");
    };
    // The packs name their game by its description: open it first (done above), so a
    // pack written by `generate --vgdl` of this description reads.
    let (alpha, beta) = (levels_of(g, a)?, levels_of(g, b)?);
    check_profile_sizes([(a, &alpha), (b, &beta)])?;
    let started = std::time::Instant::now();
    let (alpha_games, beta_games) = (
        play_profile_pack(g, args, "alpha", &alpha, started)?,
        play_profile_pack(g, args, "beta", &beta, started)?,
    );
    let alpha = ProfileSide::new(g, &alpha, alpha_games);
    let beta = ProfileSide::new(g, &beta, beta_games);
    let pairs = alpha.levels.len() * beta.levels.len();
    let close = alpha
        .levels
        .iter()
        .flat_map(|x| beta.levels.iter().map(move |y| distance(x, y)))
        .filter(|&d| d <= 5)
        .count();
    let differences = profile_differences(&alpha, &beta);
    if args.json {
        print_profiles_json(g, args, &alpha, &beta, (close, pairs), &differences);
    } else {
        print_profiles_table(g, args, &alpha, &beta, (close, pairs), &differences);
    }
    Ok(ExitCode::SUCCESS)
}

/// Each level plays every agent's full games: a bound, and a line a level (F35: 200 + 200
/// levels printed nothing for an hour).
fn check_profile_sizes(packs: [(&PathBuf, &Vec<Vec<String>>); 2]) -> Result<()> {
    for (pack, levels) in packs {
        if levels.len() > MAX_PROFILE_LEVELS {
            bail!(
                "{}: {} levels; a profile takes at most {MAX_PROFILE_LEVELS} a pack (each plays \
                 {} agents × --games full games)",
                pack.display(),
                levels.len(),
                PROFILE_AGENTS.len()
            );
        }
    }
    Ok(())
}

/// Every profile agent's games on each level of one pack, a line a level on stderr.
fn play_profile_pack(
    g: &VgdlGame,
    args: &EvalArgs,
    name: &str,
    levels: &[Vec<String>],
    started: std::time::Instant,
) -> Result<Vec<Vec<Vec<Outcome>>>> {
    let cancel = Cancel::default();
    let mut all = Vec::with_capacity(levels.len());
    for (i, level) in levels.iter().enumerate() {
        let one = profiles::profile_games(
            g,
            std::slice::from_ref(level),
            &PROFILE_AGENTS,
            args.games,
            args.seed,
            args.budget,
            &cancel,
        )
        .map_err(|e| anyhow!("{e}"))?;
        all.extend(one);
        eprintln!(
            "{name}: level {}/{} played by {} agents ({:.0} s)",
            i + 1,
            levels.len(),
            PROFILE_AGENTS.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(all)
}

/// One pack's side of a profile: its levels, each agent's games on them, the per-level
/// (win rate, normalised score) and the mean group size.
struct ProfileSide<'a> {
    levels: &'a [Vec<String>],
    games: Vec<Vec<Vec<Outcome>>>,
    per_level: Vec<Vec<(f64, f64)>>,
    size: f64,
}

impl<'a> ProfileSide<'a> {
    fn new(g: &VgdlGame, levels: &'a [Vec<String>], games: Vec<Vec<Vec<Outcome>>>) -> Self {
        let per_level = profiles::per_level(&games);
        let tiles: Vec<Grid<u8>> = levels
            .iter()
            .filter_map(|l| evolve::tiles_of(g, l).ok())
            .collect();
        let size = evolve::mean_group_size(g, &tiles);
        ProfileSide {
            levels,
            games,
            per_level,
            size,
        }
    }

    /// Agent `a`'s win rate and normalised score, with their 95 % intervals.
    fn agent_json(&self, a: usize) -> serde_json::Value {
        let outcomes: Vec<f64> = self
            .games
            .iter()
            .flat_map(|l| l[a].iter().map(|o| if o.won { 1.0 } else { 0.0 }))
            .collect();
        let norm: Vec<f64> = self.per_level.iter().map(|l| l[a].1).collect();
        let (win, win_ci) = mean_ci(&outcomes);
        let (score, score_ci) = mean_ci(&norm);
        json!({
            "win_rate": win,
            "win_rate_ci95": win_ci,
            "normalised_score": score,
            "normalised_score_ci95": score_ci,
            "per_level_normalised_score": norm,
        })
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "rooms": self.levels.len(),
            "mean_group_size": self.size,
            "profiles": PROFILE_AGENTS
                .iter()
                .enumerate()
                .map(|(i, name)| ((*name).to_string(), self.agent_json(i)))
                .collect::<serde_json::Map<_, _>>(),
        })
    }
}

/// An agent's α − β: the win rates' difference with its 95 % half-width, the normalised
/// scores' difference with its.
type Difference = (String, f64, f64, f64, f64);

/// α − β per agent: the win rates' difference with a normal 95 % interval over games.
fn profile_differences(alpha: &ProfileSide, beta: &ProfileSide) -> Vec<Difference> {
    PROFILE_AGENTS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let rate = |games: &[Vec<Vec<Outcome>>]| {
                let all: Vec<bool> = games
                    .iter()
                    .flat_map(|l| l[i].iter().map(|o| o.won))
                    .collect();
                let p = all.iter().filter(|&&w| w).count() as f64 / all.len().max(1) as f64;
                (p, all.len().max(1) as f64)
            };
            let ((p1, n1), (p2, n2)) = (rate(&alpha.games), rate(&beta.games));
            let half = 1.96 * (p1 * (1.0 - p1) / n1 + p2 * (1.0 - p2) / n2).sqrt();
            let s1: Vec<f64> = alpha.per_level.iter().map(|l| l[i].1).collect();
            let s2: Vec<f64> = beta.per_level.iter().map(|l| l[i].1).collect();
            let (m1, c1) = mean_ci(&s1);
            let (m2, c2) = mean_ci(&s2);
            (
                (*name).to_string(),
                p1 - p2,
                half,
                m1 - m2,
                (c1.powi(2) + c2.powi(2)).sqrt(),
            )
        })
        .collect()
}

/// `eval --vgdl … --profile … --json`: the profiles as one JSON object.
fn print_profiles_json(
    g: &VgdlGame,
    args: &EvalArgs,
    alpha: &ProfileSide,
    beta: &ProfileSide,
    (close, pairs): (usize, usize),
    differences: &[Difference],
) {
    println!(
        "{}",
        json!({
            "game": g.file(),
            "games": args.games,
            "seed": args.seed,
            "budget": args.budget.unwrap_or(crate::planners::MCTS_ITERATIONS),
            "agents": "gvgai",
            "alpha": alpha.json(),
            "beta": beta.json(),
            "pairs": pairs,
            "pairs_within_5_cells": close,
            "alpha_minus_beta": differences
                .iter()
                .map(|(n, w, wc, s, sc)| ((n.clone()), json!({
                    "win_rate": w, "win_rate_ci95": wc,
                    "normalised_score": s, "normalised_score_ci95": sc,
                })))
                .collect::<serde_json::Map<_, _>>(),
        })
    );
}

/// `eval --vgdl … --profile …`: the profiles as a table.
fn print_profiles_table(
    g: &VgdlGame,
    args: &EvalArgs,
    alpha: &ProfileSide,
    beta: &ProfileSide,
    (close, pairs): (usize, usize),
    differences: &[Difference],
) {
    let (alpha_size, beta_size) = (alpha.size, beta.size);
    println!(
        "Relative performance profiles on {}: {} games per agent and level (seed {}, budget {})",
        g.file(),
        args.games,
        args.seed,
        args.budget.unwrap_or(crate::planners::MCTS_ITERATIONS)
    );
    println!(
        "α: {} levels, mean group size {alpha_size:.2}    β: {} levels, mean group size \
         {beta_size:.2}    α/β pairs within 5 cells: {close} of {pairs}",
        alpha.levels.len(),
        beta.levels.len()
    );
    println!(
        "{:<10} {:>7} {:>7} {:>16} {:>8} {:>8} {:>16}",
        "agent", "α win", "β win", "α−β win (95 %)", "α norm", "β norm", "α−β norm (95 %)"
    );
    let (alpha_levels, beta_levels) = (&alpha.per_level, &beta.per_level);
    let n_a = alpha_levels.len().max(1) as f64;
    let n_b = beta_levels.len().max(1) as f64;
    for (i, (name, w, wc, s, sc)) in differences.iter().enumerate() {
        let wa = alpha_levels.iter().map(|l| l[i].0).sum::<f64>() / n_a;
        let wb = beta_levels.iter().map(|l| l[i].0).sum::<f64>() / n_b;
        let na = alpha_levels.iter().map(|l| l[i].1).sum::<f64>() / n_a;
        let nb = beta_levels.iter().map(|l| l[i].1).sum::<f64>() / n_b;
        println!(
            "{name:<10} {:>6.0}% {:>6.0}% {:>+7.2} ± {:<6.2} {na:>8.3} {nb:>8.3} {s:>+7.2} ± {sc:<6.2}",
            wa * 100.0,
            wb * 100.0,
            w,
            wc
        );
    }
}
