//! `list --vgdl DIR [--json]`: which of a folder's VGDL games the engine runs (each loads its
//! first level and plays 1,000 ticks of random actions), and what the others lack.

use crate::agents::{Agent, RandomAgent};
use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use vgdl::State;

/// `list --vgdl`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// A folder of VGDL games (GVGAI's `gridphysics/`: `GAME.txt` and `GAME_lvlN.txt`).
    #[arg(long, value_name = "DIR")]
    pub vgdl: PathBuf,
    /// Print one JSON object: {"games": [{"name", "runs", "missing"}]}.
    #[arg(long)]
    pub json: bool,
}

/// One game of the folder: whether it runs and, if not, what it lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The game's name (its file without `.txt`).
    pub name: String,
    /// Whether it loads and plays 1,000 ticks of random actions.
    pub runs: bool,
    /// What it lacks, each with its line (`FILE:LINE: what`).
    pub missing: Vec<String>,
}

/// The games of `dir`: every `NAME.txt` that is no level (`_lvlN`) and has a `NAME_lvl0.txt`.
///
/// # Errors
/// A folder that cannot be read.
pub fn games_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut games: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("{}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
            p.extension().is_some_and(|e| e == "txt")
                && stem.is_some_and(|s| {
                    !s.contains("_lvl") && dir.join(format!("{s}_lvl0.txt")).is_file()
                })
        })
        .collect();
    games.sort();
    Ok(games)
}

/// Checks one game: reads it, lists what it lacks, and plays its first level.
pub fn check(path: &Path) -> Listed {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let fail = |missing: Vec<String>| Listed {
        name: name.clone(),
        runs: false,
        missing,
    };
    // The checks every other reader has: a FIFO, a device or a file past the size cap is
    // refused before it is read (F31: a FIFO blocked the listing, /dev/zero took 2 GB).
    let text = match studio_core::io::read_regular_text(path) {
        Ok(t) => t,
        Err(e) => return fail(vec![e.to_string()]),
    };
    let file = path.display().to_string();
    let desc = match vgdl::parse(&text, &file) {
        Ok(d) => d,
        Err(e) => return fail(vec![e.to_string()]),
    };
    let missing: Vec<String> = vgdl::rules::missing(&desc, &file)
        .iter()
        .map(ToString::to_string)
        .collect();
    if !missing.is_empty() {
        return fail(missing);
    }
    let run = || -> Result<()> {
        let game = crate::load::game(path)?;
        let level_path = path.with_file_name(format!("{name}_lvl0.txt"));
        let level = crate::load::level(&game, &level_path)?;
        let mut state = State::new(game.rules.clone(), &level, 0)?;
        let mut agent = RandomAgent::new(1);
        let (bounds, started) = (crate::agents::Bounds::default(), std::time::Instant::now());
        for _ in 0..1000 {
            let action = agent.act(&state);
            state.step(action);
            if bounds.check(&mut state, started) {
                // Too slow a game (its sprites multiply): said, not waited for (F34).
                let why = state.stopped().map(|l| l.to_string()).unwrap_or_default();
                anyhow::bail!("{why} at game tick {}", state.tick);
            }
        }
        Ok(())
    };
    match run() {
        Ok(()) => Listed {
            name,
            runs: true,
            missing: Vec::new(),
        },
        Err(e) => fail(vec![format!("{e:#}")]),
    }
}

/// Runs `list --vgdl`.
///
/// # Errors
/// A folder that cannot be read.
pub fn run(args: &ListArgs) -> Result<ExitCode> {
    let listed: Vec<Listed> = games_in(&args.vgdl)?.iter().map(|p| check(p)).collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        let games: Vec<_> = listed
            .iter()
            .map(|l| json!({"name": l.name, "runs": l.runs, "missing": l.missing}))
            .collect();
        writeln!(out, "{}", json!({ "games": games }))?;
    } else {
        for l in &listed {
            if l.runs {
                writeln!(out, "{:24} runs", l.name)?;
            } else {
                writeln!(out, "{:24} lacks {}", l.name, l.missing.join("; "))?;
            }
        }
        let runs = listed.iter().filter(|l| l.runs).count();
        writeln!(out, "{runs} of {} games run", listed.len())?;
    }
    Ok(ExitCode::SUCCESS)
}
