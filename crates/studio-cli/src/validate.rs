//! `validate FILE…`: analyse every level with its game's bots, solver or evaluator (looked up
//! in the registry) and print its figures, in the file's order; the levels of a pack are
//! analysed on all cores.

use anyhow::{anyhow, Result};
use clap::Args;
use rayon::iter::{ParallelBridge, ParallelIterator};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use studio_core::evolve::pattern::{self, Fitness, Group};
use studio_core::files;
use studio_core::game::{AnalyseOptions, GameId};
use studio_core::jobs::Cancel;
use studio_core::level::Level;

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
    /// Number of games per level, 1 to 10,000 (default: the game's own, `list` shows it).
    #[arg(long, value_parser = super::bounds::BOT_GAMES.parser::<u32>())]
    pub games: Option<u32>,
    /// The designers' move limit (valid when the median is at most this), 1 to 1,000.
    #[arg(long, default_value_t = 20, value_parser = super::bounds::MOVE_LIMIT.parser::<u32>())]
    pub limit: u32,
    /// Largest state graph to explore (games with a state graph; past it a level is judged by
    /// its agents' games), 1 to 50,000,000 states.
    #[arg(long, value_parser = super::bounds::STATE_BUDGET.parser::<u64>())]
    pub budget: Option<u64>,
    /// Play with the naive baseline (the random bot) instead of the validation bot.
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
        in_order(
            &levels,
            |level| report(path, level, many, &options, args.json),
            |level, line| match line {
                Ok(line) => println!("{line}"),
                Err(e) => {
                    eprintln!("error: {}: level {:?}: {e}", path.display(), level.name);
                    failed.push(format!("{} ({})", path.display(), level.name));
                }
            },
        );
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

/// Runs `work` on every level on all cores (each analysis is seeded by the level alone, so
/// the figures do not depend on the threads) and hands each answer to `emit` in the levels'
/// order, as soon as it and every answer before it are in.
fn in_order<T: Send>(
    levels: &[Level],
    work: impl Fn(&Level) -> T + Sync,
    mut emit: impl FnMut(&Level, T),
) {
    let (sender, answers) = mpsc::channel();
    std::thread::scope(|scope| {
        let work = &work;
        scope.spawn(move || {
            // `par_bridge` takes the levels in their order, so answers arrive nearly in order
            // and are printed while the rest are still being analysed.
            levels
                .iter()
                .enumerate()
                .par_bridge()
                .for_each_with(sender, |sender, (i, level)| {
                    // The receiver outlives the workers: a send cannot fail.
                    let _ = sender.send((i, work(level)));
                });
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        for (i, answer) in answers {
            waiting.insert(i, answer);
            while let Some(answer) = waiting.remove(&next) {
                if let Some(level) = levels.get(next) {
                    emit(level, answer);
                }
                next += 1;
            }
        }
    });
}

/// The line `validate` prints for a level: its figures as JSON, or its label and summary.
fn report(
    path: &Path,
    level: &Level,
    many: bool,
    options: &AnalyseOptions,
    as_json: bool,
) -> Result<String> {
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
        Ok(serde_json::Value::Object(obj).to_string())
    } else {
        let label = if many {
            format!("{} [{}]", path.display(), level.name)
        } else {
            path.display().to_string()
        };
        Ok(format!("{label}: {}", analysis.summary))
    }
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
