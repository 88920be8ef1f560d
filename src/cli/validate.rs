//! `validate FILE…`: bot figures for match-3 levels, graph figures for Longcat levels.

use crate::files;
use crate::level::{Game, Level};
use crate::match3::{self, BotKind, ValidationConfig};
use anyhow::Result;
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Level files (.ron, .json, or ASCII .txt) or packs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print one JSON object per level, one per line.
    #[arg(long)]
    pub json: bool,
    /// Base seed of the games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Number of games per level.
    #[arg(long, default_value_t = 30)]
    pub games: u32,
    /// The designers' move limit (valid when the median is at most this).
    #[arg(long, default_value_t = 20)]
    pub limit: u32,
    /// Play with the random bot instead of the greedy one (a sanity baseline).
    #[arg(long)]
    pub random_bot: bool,
}

pub fn run(args: &ValidateArgs) -> Result<ExitCode> {
    let config = ValidationConfig {
        games: args.games,
        limit: args.limit,
        seed: args.seed,
        bot: if args.random_bot {
            BotKind::Random
        } else {
            BotKind::Greedy
        },
    };
    let mut failed = Vec::new();
    for path in &args.files {
        let levels = match files::load_levels(path) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: {e}");
                failed.push(path.display().to_string());
                continue;
            }
        };
        let many = levels.len() > 1;
        for level in &levels {
            if let Err(e) = report(path, level, many, &config, args.json) {
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
    config: &ValidationConfig,
    as_json: bool,
) -> Result<()> {
    match level.game {
        Game::Match3 => {
            let layout = level.layout()?;
            let v = match3::validate(&layout, config)?;
            let (width, height) = layout.size();
            if as_json {
                let obj = json!({
                    "file": path.display().to_string(),
                    "level": level.name,
                    "game": "match3",
                    "width": width,
                    "height": height,
                    "symmetry": layout.symmetry().name(),
                    "spawners": layout.spawners().len(),
                    "median_moves": v.median_moves,
                    "std_moves": v.std_moves,
                    "games": v.games,
                    "solved": v.solved,
                    "valid": v.valid,
                    "limit": v.limit,
                    "seed": v.seed,
                    "histogram": v.histogram,
                });
                println!("{obj}");
            } else {
                let label = if many {
                    format!("{} [{}]", path.display(), level.name)
                } else {
                    path.display().to_string()
                };
                println!(
                    "{label}: {width}x{height} {sym}, median {med} moves (std {std:.2}), {solved}/{games} games solved, {verdict} (limit {limit})",
                    sym = layout.symmetry(),
                    med = v.median_moves,
                    std = v.std_moves,
                    solved = v.solved,
                    games = v.games,
                    verdict = if v.valid { "VALID" } else { "INVALID" },
                    limit = v.limit,
                );
            }
            Ok(())
        }
        Game::Longcat => super::graph::report_level(path, level, many, as_json),
    }
}
