//! The dungeon's own sub-command: `eval --game dungeon --model fi2pop`, the relative
//! performance profiles of the agent ladder on α rooms against β rooms
//! (pattern-based-ga-generator's Table 1).

use super::eval::EvalArgs;
use super::train::TrainArgs;
use crate::dungeon::agents::AgentKind;
use crate::dungeon::evolve::{self, Profile, ProfileAgents, RoomEvolution};
use crate::dungeon::game::to_level;
use crate::dungeon::Room;
use crate::evolve::pattern::Fitness;
use crate::evolve::{self as ga, Settings};
use crate::files::{self, Loaded};
use crate::jobs::Cancel;
use crate::level::Pack;
use anyhow::{anyhow, bail, Context, Result};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// The dungeon trains no model.
pub const MODELS: [&str; 0] = [];

/// The profiles, when `--game` is the dungeon.
pub fn eval(args: &EvalArgs) -> Option<Result<ExitCode>> {
    (args.game == crate::dungeon::ID).then(|| match args.model.as_str() {
        "fi2pop" | "fi2pop-alpha" | "fi2pop-beta" => profile(args),
        other => Err(anyhow!(
            "the dungeon has no sweep of {other:?}; `eval --game dungeon --model fi2pop` \
             profiles the agents on α and β rooms"
        )),
    })
}

/// The dungeon has no training.
pub fn train(_args: &TrainArgs) -> Option<Result<ExitCode>> {
    None
}

fn rooms_of(path: &Path) -> Result<Vec<Room>> {
    let levels = match files::load_pack_or_level(path)? {
        Loaded::Pack(p) => p.levels,
        Loaded::Level(l) => vec![*l],
    };
    let mut rooms = Vec::new();
    for level in levels {
        if level.game != crate::dungeon::ID {
            bail!(
                "{}: level {:?} is a {} level, not a dungeon room",
                path.display(),
                level.name,
                level.game
            );
        }
        rooms.push(
            Room::from_rows(&level.cells)
                .with_context(|| format!("{}: level {:?}", path.display(), level.name))?,
        );
    }
    if rooms.is_empty() {
        bail!("{} holds no rooms", path.display());
    }
    Ok(rooms)
}

/// Evolves `--rooms` rooms of `fitness` (the best feasible of one run each, seeds apart).
fn own_rooms(args: &EvalArgs, fitness: Fitness) -> Result<Vec<Room>> {
    let (w, h) = args.size.unwrap_or((13, 9));
    let ga = RoomEvolution::new(w, h, fitness);
    let mut rooms = Vec::new();
    let count = args.rooms;
    for i in 0..u64::from(count) {
        let settings = Settings {
            population: args.population.unwrap_or(50),
            generations: args.generations.unwrap_or(20),
            seed: args.seed.wrapping_add(i),
            ..Settings::default()
        };
        eprintln!(
            "evolving {} room {} of {count} ({} x {} generations, seed {})",
            fitness.letter(),
            i + 1,
            settings.population,
            settings.generations,
            settings.seed
        );
        let run = ga::evolve(&ga, &settings, &Cancel::default(), &mut |_| {});
        let best = run.feasible.into_iter().next().ok_or_else(|| {
            anyhow!(
                "the {} run with seed {} found no feasible room; try more generations",
                fitness.name(),
                settings.seed
            )
        })?;
        rooms.push(Room::new(best.cells)?);
    }
    Ok(rooms)
}

/// Writes evolved rooms as `DIR/alpha.ron` or `DIR/beta.ron`.
fn keep(dir: &Path, rooms: &[Room], fitness: Fitness, seed: u64) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut pack = Pack::new(format!("fi2pop {}", fitness.name()));
    pack.description = format!(
        "The best feasible room of {} FI2Pop runs ({}), seeds {seed} on",
        rooms.len(),
        fitness.letter()
    );
    for (i, room) in rooms.iter().enumerate() {
        let mut level = to_level(room, format!("{} {}", fitness.name(), i + 1));
        level.tags = vec!["generated".into(), format!("fi2pop-{}", fitness.name())];
        pack.levels.push(level);
    }
    let path = dir.join(format!("{}.ron", fitness.name()));
    files::save_pack(&path, &pack)?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

fn profile(args: &EvalArgs) -> Result<ExitCode> {
    if !args.profile.is_empty() && args.keep.is_some() {
        bail!("--keep writes the rooms eval evolves itself; it does not go with --profile");
    }
    // clap has refused games outside 1 to 1,000 (bounds::AGENT_GAMES).
    let games = args.games.unwrap_or(30);
    let (alpha, beta) = match args.profile.as_slice() {
        [a, b] => (rooms_of(a)?, rooms_of(b)?),
        [] => {
            let rooms = (
                own_rooms(args, Fitness::Alpha)?,
                own_rooms(args, Fitness::Beta)?,
            );
            if let Some(dir) = &args.keep {
                keep(dir, &rooms.0, Fitness::Alpha, args.seed)?;
                keep(dir, &rooms.1, Fitness::Beta, args.seed)?;
            }
            rooms
        }
        _ => bail!("--profile takes two packs: ALPHA.ron BETA.ron"),
    };
    let set = ProfileAgents::from_name(&args.agents).ok_or_else(|| {
        anyhow!(
            "no agent set {:?}; choose gvgai, studio or all",
            args.agents
        )
    })?;
    let agents = set.agents();
    let alpha_profiles = evolve::profiles(&alpha, agents, games, args.seed, &Cancel::default())
        .map_err(|e| anyhow!("{e}"))?;
    let beta_profiles = evolve::profiles(&beta, agents, games, args.seed, &Cancel::default())
        .map_err(|e| anyhow!("{e}"))?;
    let side = |rooms: &[Room], profiles: &[Profile]| {
        json!({
            "rooms": rooms.len(),
            "mean_group_size": evolve::mean_group_size(rooms),
            "profiles": profiles
                .iter()
                .map(|p| {
                    (
                        p.agent.name().to_string(),
                        json!({"win_rate": p.win_rate, "normalised_score": p.normalised_score}),
                    )
                })
                .collect::<serde_json::Map<_, _>>(),
        })
    };
    if args.json {
        println!(
            "{}",
            json!({
                "games": games,
                "seed": args.seed,
                "agents": set.name(),
                "alpha": side(&alpha, &alpha_profiles),
                "beta": side(&beta, &beta_profiles),
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "Relative performance profiles, {games} games per agent and room (seed {}, agents {})",
        args.seed,
        set.name()
    );
    println!(
        "α: {} rooms, mean group size {:.2}    β: {} rooms, mean group size {:.2}",
        alpha.len(),
        evolve::mean_group_size(&alpha),
        beta.len(),
        evolve::mean_group_size(&beta)
    );
    println!(
        "{:<15} {:>10} {:>10} {:>12} {:>12}",
        "agent", "α win", "β win", "α norm.score", "β norm.score"
    );
    for (a, b) in alpha_profiles.iter().zip(&beta_profiles) {
        debug_assert_eq!(a.agent, b.agent);
        println!(
            "{:<15} {:>9.0}% {:>9.0}% {:>12.3} {:>12.3}",
            a.agent.name(),
            a.win_rate * 100.0,
            b.win_rate * 100.0,
            a.normalised_score,
            b.normalised_score
        );
    }
    let planning = [AgentKind::Planner, AgentKind::Mcts, AgentKind::GvgaiMcts];
    let score = |ps: &[Profile]| {
        let planners: Vec<f64> = ps
            .iter()
            .filter(|p| planning.contains(&p.agent))
            .map(|p| p.normalised_score)
            .collect();
        planners.iter().sum::<f64>() / planners.len().max(1) as f64
    };
    println!(
        "planning agents' mean normalised score: α {:.3}, β {:.3}",
        score(&alpha_profiles),
        score(&beta_profiles)
    );
    Ok(ExitCode::SUCCESS)
}
