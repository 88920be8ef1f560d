//! `graph FILE [--json] [--dot OUT]`: Longcat state graph figures (owned by the Longcat engine).

use crate::files;
use crate::level::Level;
use crate::longcat::{Analysis, LongcatLevel, NodeClass, RidgeModel};
use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct GraphArgs {
    /// A Longcat level file (or a pack; see --level).
    pub file: PathBuf,
    /// Print one JSON object (one per line for several levels).
    #[arg(long)]
    pub json: bool,
    /// Write the graph in Graphviz DOT format here.
    #[arg(long)]
    pub dot: Option<PathBuf>,
    /// Largest number of states to explore before giving up.
    #[arg(long, default_value_t = 200_000)]
    pub budget: usize,
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
    let predictor = load_predictor(args.predictor.as_deref())?;
    let many = levels.len() > 1;
    for level in &levels {
        let analysis = analyse(&args.file, level, args.budget)?;
        print_report(&args.file, level, &analysis, &predictor, many, args.json);
        if let Some(out) = &args.dot {
            files::write_atomic(out, analysis.to_dot(&level.name).as_bytes())?;
            if !args.json {
                println!("wrote {} nodes to {}", analysis.graph.len(), out.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn load_predictor(path: Option<&Path>) -> Result<RidgeModel> {
    Ok(match path {
        Some(p) => RidgeModel::load(p)?,
        None => RidgeModel::shipped().context("the shipped Longcat predictor")?,
    })
}

fn analyse(path: &Path, level: &Level, budget: usize) -> Result<Analysis> {
    if level.game != crate::longcat::ID {
        bail!(
            "{}: level {:?} is a {} level, not Longcat",
            path.display(),
            level.name,
            level.game
        );
    }
    let cat = LongcatLevel::from_rows(&level.cells)
        .with_context(|| format!("{}: level {:?}", path.display(), level.name))?;
    Analysis::of(&cat, budget)
        .with_context(|| format!("{}: level {:?}", path.display(), level.name))
}

fn class_counts(analysis: &Analysis) -> [usize; 5] {
    let mut counts = [0; 5];
    for node in analysis.graph.nodes() {
        counts[node.class as usize] += 1;
    }
    counts
}

fn print_report(
    path: &Path,
    level: &Level,
    analysis: &Analysis,
    predictor: &RidgeModel,
    many: bool,
    as_json: bool,
) {
    let v = &analysis.variables;
    let start = analysis.graph.node(analysis.graph.start()).state;
    let predicted = predictor.predict(v);
    let counts = class_counts(analysis);
    if as_json {
        let solution: Option<String> = analysis
            .graph
            .shortest_solution()
            .map(|p| p.iter().map(|d| d.letter()).collect());
        let obj = json!({
            "file": path.display().to_string(),
            "level": level.name,
            "game": "longcat",
            "width": start.width(),
            "height": start.height(),
            "states": v.states,
            "size": v.size,
            "branches": v.branches,
            "solutions": v.solutions,
            "fails": v.fails,
            "shortest_solution": v.shortest_solution,
            "solution_branches": v.solution_branches,
            "non_dead": v.non_dead,
            "dead": v.dead,
            "indeterminate": v.indeterminate,
            "indeterminate_branches": v.indeterminate_branches,
            "solution_states": counts[NodeClass::Solution as usize],
            "solvable": analysis.solvable(),
            "difficulty": analysis.difficulty,
            "predicted_difficulty": predicted,
            "success_chance": analysis.player.start_success_chance(),
            "expected_charge": analysis.player.start_expected_charge(),
            "non_trivial": crate::longcat::is_non_trivial(analysis.difficulty),
            "moves": solution,
        });
        println!("{obj}");
        return;
    }
    let label = if many {
        format!("{} [{}]", path.display(), level.name)
    } else {
        path.display().to_string()
    };
    let verdict = match (analysis.difficulty, v.shortest_solution) {
        (Some(d), Some(s)) => format!("solvable in {s} moves, difficulty {d:.2}"),
        _ => "UNSOLVABLE".to_string(),
    };
    println!(
        "{label}: {}x{}, {} states, {verdict} (predicted {predicted:.2})",
        start.width(),
        start.height(),
        v.states
    );
    println!(
        "  classes: success {}, fail {}, dead {}, solution {}, indeterminate {}",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    );
    println!(
        "  branches {} (solution {}, indeterminate {}), non-dead {}",
        v.branches, v.solution_branches, v.indeterminate_branches, v.non_dead
    );
}
