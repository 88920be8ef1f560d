//! `validate FILE…`: analyse every level with its game's bots, solver or evaluator (looked up
//! in the registry) and print its figures.

use crate::evolve::pattern::{self, Fitness, Group};
use crate::files;
use crate::game::{AnalyseOptions, GameId};
use crate::jobs::Cancel;
use crate::level::Level;
use anyhow::{anyhow, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Level files (.ron, .json, or ASCII .txt) or packs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Read ASCII files as levels of this game (needed when their characters are tiles of
    /// several games: ASCII art does not say which).
    #[arg(long)]
    pub game: Option<GameId>,
    /// Print one JSON object per level, one per line.
    #[arg(long)]
    pub json: bool,
    /// Base seed of the games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of games per level, 1 to 10,000 (default: the game's own, 30 for match-3 bots
    /// and dungeon agents, 10 human-like trials for Mario).
    #[arg(long, value_parser = super::bounds::BOT_GAMES.parser::<u32>())]
    pub games: Option<u32>,
    /// The designers' move limit (match-3: valid when the median is at most this), 1 to 1,000.
    #[arg(long, default_value_t = 20, value_parser = super::bounds::MOVE_LIMIT.parser::<u32>())]
    pub limit: u32,
    /// Largest state graph to explore (Longcat), 1 to 50,000,000 states.
    #[arg(long, value_parser = super::bounds::STATE_BUDGET.parser::<u64>())]
    pub budget: Option<u64>,
    /// Play with the naive baseline (match-3: the random bot) instead of the validation bot.
    #[arg(long)]
    pub random_bot: bool,
}

pub fn run(args: &ValidateArgs) -> Result<ExitCode> {
    let options = AnalyseOptions {
        seed: args.seed,
        games: args.games,
        limit: Some(args.limit),
        budget: args
            .budget
            .map(|b| usize::try_from(b).unwrap_or(usize::MAX)),
        baseline: args.random_bot,
        predictor: None,
    };
    let mut failed = Vec::new();
    for path in &args.files {
        let levels = match files::load_levels_as(path, args.game) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: {e}");
                failed.push(path.display().to_string());
                continue;
            }
        };
        let many = levels.len() > 1;
        for level in &levels {
            if let Err(e) = report(path, level, many, &options, args.json) {
                eprintln!("error: {}: level {:?}: {e}", path.display(), level.name);
                failed.push(format!("{} ({})", path.display(), level.name));
            }
        }
    }
    if failed.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "{} of the inputs failed: {}",
            failed.len(),
            failed.join(", ")
        );
        Ok(ExitCode::FAILURE)
    }
}

fn report(
    path: &Path,
    level: &Level,
    many: bool,
    options: &AnalyseOptions,
    as_json: bool,
) -> Result<()> {
    let game = level.game.game()?;
    let analysis = game
        .analyse(level, options, &Cancel::default())
        .map_err(|e| anyhow!("{e}"))?;
    if as_json {
        let mut obj = serde_json::Map::new();
        obj.insert("file".into(), path.display().to_string().into());
        obj.insert("level".into(), level.name.clone().into());
        obj.insert("game".into(), game.id().as_str().into());
        obj.extend(analysis.fields);
        if let Some(groups) = game.pattern_groups(&level.cells) {
            obj.entry("patterns")
                .or_insert_with(|| patterns_json(&groups));
        }
        println!("{}", serde_json::Value::Object(obj));
    } else {
        let label = if many {
            format!("{} [{}]", path.display(), level.name)
        } else {
            path.display().to_string()
        };
        println!("{label}: {}", analysis.summary);
    }
    Ok(())
}

/// The pattern GA's view of a level: its groups, their mean size and FPattern under α and β.
fn patterns_json(groups: &[Group]) -> serde_json::Value {
    serde_json::json!({
        "groups": groups.len(),
        "mean_group_size": pattern::mean_group_size(groups),
        "f_pattern_alpha": pattern::f_pattern(groups, Fitness::Alpha),
        "f_pattern_beta": pattern::f_pattern(groups, Fitness::Beta),
    })
}
