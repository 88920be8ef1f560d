//! The dungeon's own sub-command: `eval --game dungeon --model fi2pop`, the relative
//! performance profiles of the agent ladder on α rooms against β rooms
//! (pattern-based-ga-generator's Table 1).

use crate::agents::AgentKind;
use crate::evolve::{self, Profile, ProfileAgents, RoomEvolution};
use crate::room::to_level;
use crate::Room;
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, FromArgMatches};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use studio_cli::bounds::{self, bound, Bound, Range};
use studio_cli::{EvalCommon, GameCommand, RegisterCommands, Slot};
use studio_core::evolve::pattern::Fitness;
use studio_core::evolve::{self as ga, Settings};
use studio_core::files::{self, Loaded};
use studio_core::game::registry::Registry;
use studio_core::jobs::Cancel;
use studio_core::level::Pack;

/// The models `eval` profiles (the dungeon trains none).
pub const EVAL_MODELS: [&str; 3] = ["fi2pop", "fi2pop-alpha", "fi2pop-beta"];

/// `eval --game dungeon --model fi2pop`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// --game, --model, --json, --seed.
    #[command(flatten)]
    pub common: EvalCommon,
    /// Room size when it evolves its own rooms: WxH, each side 1 to 64 cells (default 13x9).
    #[arg(long, value_parser = bounds::parse_size)]
    pub size: Option<(usize, usize)>,
    /// The α and β packs to profile (without it, 3 + 3 rooms are evolved first).
    #[arg(long, num_args = 2, value_names = ["ALPHA", "BETA"])]
    pub profile: Vec<PathBuf>,
    /// The agents profiled: gvgai (do-nothing, random and GVGAI-like one-step and MCTS that
    /// value only the score, as the paper's controllers), studio (the studio's ladder, whose
    /// one-step and MCTS know the way to the key) or all.
    #[arg(long, default_value = "gvgai", value_parser = ["gvgai", "studio", "all"])]
    pub agents: String,
    /// Games each agent plays on each room, 1 to 1,000 (default 30).
    #[arg(long, value_parser = bounds::AGENT_GAMES.parser::<u32>())]
    pub games: Option<u32>,
    /// Generations when it evolves its own rooms, 0 to 500 (default 20).
    #[arg(long, value_parser = bounds::GENERATIONS.parser::<usize>())]
    pub generations: Option<usize>,
    /// Population when it evolves its own rooms, 4 to 200 (default 50).
    #[arg(long, value_parser = bounds::POPULATION.parser::<usize>())]
    pub population: Option<usize>,
    /// Rooms it evolves per fitness, one run each, 1 to 100 (default 3, as the paper).
    #[arg(long, default_value_t = 3, value_parser = bounds::ROOMS.parser::<u32>())]
    pub rooms: u32,
    /// Write the rooms it evolved to DIR/alpha.ron and DIR/beta.ron.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
}

const EVAL_BOUNDS: &[Bound] = &[
    bound(&["eval"], "size", Range::Size),
    bound(&["eval"], "games", Range::Whole(bounds::AGENT_GAMES)),
    bound(&["eval"], "generations", Range::Whole(bounds::GENERATIONS)),
    bound(&["eval"], "population", Range::Whole(bounds::POPULATION)),
    bound(&["eval"], "rooms", Range::Whole(bounds::ROOMS)),
];

/// Adds the dungeon's `eval` (the agent profiles) to the command line.
pub fn commands(registry: &mut Registry) {
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Eval,
        models: &EVAL_MODELS,
        args: EvalArgs::augment_args,
        run: |m| eval(&EvalArgs::from_arg_matches(m)?),
        bounds: EVAL_BOUNDS,
        example: &["eval", "--game", "dungeon", "--model", "fi2pop"],
    });
}

/// The profiles.
fn eval(args: &EvalArgs) -> Result<ExitCode> {
    match args.common.model()? {
        "fi2pop" | "fi2pop-alpha" | "fi2pop-beta" => profile(args),
        other => Err(anyhow!(
            "the dungeon has no sweep of {other:?}; `eval --game dungeon --model fi2pop` \
             profiles the agents on α and β rooms"
        )),
    }
}

fn rooms_of(path: &Path) -> Result<Vec<Room>> {
    let levels = match files::load_pack_or_level(path)? {
        Loaded::Pack(p) => p.levels,
        Loaded::Level(l) => vec![*l],
    };
    let mut rooms = Vec::new();
    for level in levels {
        if level.game != crate::ID {
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
            seed: args.common.seed.wrapping_add(i),
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
                keep(dir, &rooms.0, Fitness::Alpha, args.common.seed)?;
                keep(dir, &rooms.1, Fitness::Beta, args.common.seed)?;
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
    let alpha_profiles =
        evolve::profiles(&alpha, agents, games, args.common.seed, &Cancel::default())
            .map_err(|e| anyhow!("{e}"))?;
    let beta_profiles =
        evolve::profiles(&beta, agents, games, args.common.seed, &Cancel::default())
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
    if args.common.json {
        println!(
            "{}",
            json!({
                "games": games,
                "seed": args.common.seed,
                "agents": set.name(),
                "alpha": side(&alpha, &alpha_profiles),
                "beta": side(&beta, &beta_profiles),
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "Relative performance profiles, {games} games per agent and room (seed {}, agents {})",
        args.common.seed,
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
