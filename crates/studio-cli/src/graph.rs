//! `graph FILE [--json] [--dot OUT]`: the state graph of a level whose game has one (looked
//! up in the registry): its figures, and the graph in Graphviz DOT.

use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use studio_core::files;
use studio_core::game::{AnalyseOptions, Analysis, Game};
use studio_core::io;
use studio_core::jobs::Cancel;
use studio_core::level::Level;

#[derive(Args, Debug)]
pub struct GraphArgs {
    /// A level file (or a pack; see --level) of a game with a state graph.
    pub file: PathBuf,
    /// Print one JSON object (one per line for several levels).
    #[arg(long)]
    pub json: bool,
    /// Write the graph in Graphviz DOT format here.
    #[arg(long)]
    pub dot: Option<PathBuf>,
    /// Largest number of states to explore before giving up, 1 to 50,000,000.
    #[arg(long, default_value_t = 200_000, value_parser = super::bounds::STATE_BUDGET.parser::<u64>())]
    pub budget: u64,
    /// In a pack: the level's name, or its 1-based position.
    #[arg(long)]
    pub level: Option<String>,
    /// Difficulty predictor coefficients to use instead of the shipped ones.
    #[arg(long)]
    pub predictor: Option<PathBuf>,
}

pub fn run(args: &GraphArgs) -> Result<ExitCode> {
    let mut levels = files::load_levels(&args.file)?;
    if let Some(wanted) = &args.level {
        let position = wanted
            .parse::<usize>()
            .ok()
            .filter(|&i| i >= 1 && i <= levels.len())
            .map(|i| i - 1);
        let found = position.or_else(|| levels.iter().position(|l| &l.name == wanted));
        let Some(i) = found else {
            bail!("{}: no level named {wanted:?}", args.file.display())
        };
        levels = vec![levels.swap_remove(i)];
    }
    if args.dot.is_some() && levels.len() != 1 {
        bail!(
            "{}: holds {} levels; pick one with --level to write --dot",
            args.file.display(),
            levels.len()
        );
    }
    let options = AnalyseOptions {
        budget: Some(usize::try_from(args.budget).unwrap_or(usize::MAX)),
        predictor: args.predictor.clone(),
        ..AnalyseOptions::default()
    };
    let many = levels.len() > 1;
    for level in &levels {
        let analysis = analyse(&args.file, level, &options)?;
        print_report(&args.file, level, &analysis, many, args.json);
        if let (Some(out), Some(graph)) = (&args.dot, &analysis.graph) {
            io::write_atomic(out, graph.to_dot(&level.name).as_bytes())?;
            if !args.json {
                println!("wrote {} nodes to {}", graph.node_count(), out.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn analyse(path: &Path, level: &Level, options: &AnalyseOptions) -> Result<Analysis> {
    let context = |e: String| anyhow!("{}: level {:?}: {e}", path.display(), level.name);
    let game: &dyn Game = level.game.game().map_err(|e| context(e.to_string()))?;
    if !game.has_state_graph() {
        let with_graph: Vec<&str> = studio_core::game::games()
            .iter()
            .filter(|g| g.has_state_graph())
            .map(|g| g.name())
            .collect();
        return Err(context(format!(
            "{} levels have no state graph (games with one: {})",
            game.name(),
            with_graph.join(", ")
        )));
    }
    game.check(&level.cells)
        .map_err(|e| context(e.to_string()))?;
    let analysis = game
        .analyse(level, options, &Cancel::default())
        .map_err(|e| context(e.to_string()))?;
    // The rest of the analysis stands (`validate` prints it), but this command is the graph.
    if let (None, Some(note)) = (&analysis.graph, &analysis.graph_note) {
        return Err(context(format!(
            "{note}; raise --budget to explore further"
        )));
    }
    Ok(analysis)
}

fn print_report(path: &Path, level: &Level, analysis: &Analysis, many: bool, as_json: bool) {
    if as_json {
        let mut obj = serde_json::Map::new();
        obj.insert("file".into(), path.display().to_string().into());
        obj.insert("level".into(), level.name.clone().into());
        obj.insert("game".into(), level.game.as_str().into());
        obj.extend(analysis.fields.clone());
        println!("{}", serde_json::Value::Object(obj));
        return;
    }
    let label = if many {
        format!("{} [{}]", path.display(), level.name)
    } else {
        path.display().to_string()
    };
    println!("{label}: {}", analysis.summary);
}
