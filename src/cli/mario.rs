//! The Mario sub-commands: `eval --game mario --table62`, the thesis's Table 6.2 (the
//! human-like agent's indicators on the VGLC levels) beside the thesis's figures.

use super::eval::EvalArgs;
use super::train::TrainArgs;
use crate::jobs::Cancel;
use crate::mario::evaluate::{evaluate, mean_sd, DEFAULT_TRIALS};
use crate::mario::formats::{read_vglc, vglc_level_text, vglc_levels_dir};
use anyhow::{anyhow, bail, Result};
use serde_json::json;
use std::process::ExitCode;

/// Mario has no trained models yet.
pub const MODELS: [&str; 0] = [];

/// The thesis's Table 6.2 (mean, sd) for the VGLC levels it names: jumps, enemy damage,
/// hole damage, long presses.
pub const TABLE_6_2: [(&str, [(f64, f64); 4]); 8] = [
    ("1-1", [(33.0, 7.2), (3.5, 1.5), (1.5, 1.0), (36.5, 6.9)]),
    ("1-2", [(27.1, 2.4), (4.3, 1.0), (1.6, 0.5), (30.3, 1.7)]),
    ("2-1", [(23.4, 10.8), (4.2, 2.5), (1.6, 0.9), (27.1, 10.9)]),
    ("4-1", [(26.8, 8.5), (0.2, 0.4), (2.1, 0.7), (32.0, 9.6)]),
    ("5-1", [(19.0, 2.6), (5.1, 1.3), (2.0, 1.0), (25.8, 2.2)]),
    ("6-1", [(27.8, 10.3), (0.5, 0.5), (2.1, 1.3), (29.6, 10.0)]),
    ("6-2", [(20.3, 6.1), (0.6, 0.7), (1.0, 0.8), (23.4, 6.6)]),
    ("8-1", [(29.4, 11.4), (3.3, 1.6), (4.5, 2.5), (35.9, 14.0)]),
];

/// The indicators' names, in table order.
const INDICATORS: [&str; 4] = ["jumps", "enemy_damage", "hole_damage", "long_presses"];

/// `eval --game mario`.
pub fn eval(args: &EvalArgs) -> Option<Result<ExitCode>> {
    (args.game == crate::mario::game::ID).then(|| {
        if args.table62 {
            table62(args)
        } else {
            eval_model(args)
        }
    })
}

/// `train --model …` for Mario: none yet.
pub fn train(_args: &TrainArgs) -> Option<Result<ExitCode>> {
    None
}

/// `eval --game mario --model M --count N --seed S`: N levels of 10 patterns, each evaluated
/// (A* + 10 human-like trials), and their diversity.
fn eval_model(args: &EvalArgs) -> Result<ExitCode> {
    use crate::mario::generators::random_patterns;
    use crate::mario::patterns::{diversity, PatLegal, LEVEL_PATTERNS};
    use crate::rng::Rng;
    use rayon::prelude::*;
    if args.model != "random-patterns" {
        bail!(
            "unknown Mario model {:?} (random-patterns; the CGAN and TD3 generators are not \
             trained yet)",
            args.model
        );
    }
    let count = args.count.unwrap_or(200) as usize;
    let started = std::time::Instant::now();
    let pat = PatLegal::default_set().map_err(|e| anyhow!(e))?;
    let levels: Vec<_> = (0..count as u64)
        .filter_map(|i| random_patterns(&pat, LEVEL_PATTERNS, &mut Rng::derive(args.seed, i)))
        .collect();
    let evals: Vec<_> = levels
        .par_iter()
        .enumerate()
        .map(|(i, level)| {
            evaluate(
                level,
                args.seed ^ i as u64,
                DEFAULT_TRIALS,
                &Cancel::default(),
            )
        })
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow!("{e}"))?;
    let n = evals.len().max(1) as f64;
    let mean = |f: &dyn Fn(&crate::mario::evaluate::LevelEvaluation) -> f64| {
        evals.iter().map(f).sum::<f64>() / n
    };
    let mean_evaluation = mean(&|e| e.evaluation());
    let mean_r_diff = mean(&|e| e.r_diff());
    let mean_r_mono = mean(&|e| if e.playable() { e.r_mono } else { 0.0 });
    let unplayable = evals.iter().filter(|e| !e.playable()).count();
    let (kl_level, different_tiles) = diversity(&levels, args.seed);
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "game": "mario",
                "model": args.model,
                "count": evals.len(),
                "seed": args.seed,
                "mean_evaluation": mean_evaluation,
                "mean_r_diff": mean_r_diff,
                "mean_r_mono": mean_r_mono,
                "unplayable": unplayable,
                "kl_level": kl_level,
                "different_tiles": different_tiles,
                "seconds": seconds,
            }))?
        );
    } else {
        println!(
            "{}: {} levels of {LEVEL_PATTERNS} patterns (seed {}), {:.1} s",
            args.model,
            evals.len(),
            args.seed,
            seconds
        );
        println!(
            "mean evaluation {mean_evaluation:.3} (r_diff {mean_r_diff:.3}, r_mono \
             {mean_r_mono:.3}); unplayable {unplayable} of {}",
            evals.len()
        );
        println!("KL_level {kl_level:.3}, different tiles {different_tiles:.1} (mean over pairs)");
    }
    Ok(ExitCode::SUCCESS)
}

fn table62(args: &EvalArgs) -> Result<ExitCode> {
    let trials = args.games.unwrap_or(DEFAULT_TRIALS).max(1);
    let mut rows = Vec::new();
    for (name, thesis) in TABLE_6_2 {
        let text = vglc_level_text(name).ok_or_else(|| {
            anyhow!(
                "the VGLC level mario-{name}.txt is not in {} (set VGLC_DIR)",
                vglc_levels_dir().display()
            )
        })?;
        let level = read_vglc(&text).map_err(|e| anyhow!("mario-{name}.txt: {e}"))?;
        let eval =
            evaluate(&level, args.seed, trials, &Cancel::default()).map_err(|e| anyhow!("{e}"))?;
        let ours = [
            mean_sd(&eval.jumps),
            mean_sd(&eval.enemy_damage),
            mean_sd(&eval.hole_damage),
            mean_sd(&eval.long_presses),
        ];
        rows.push((name, eval.playable(), eval.astar.ticks, ours, thesis));
    }
    if args.json {
        let levels: Vec<serde_json::Value> = rows
            .iter()
            .map(|(name, playable, ticks, ours, thesis)| {
                let mut o = serde_json::Map::new();
                o.insert("level".into(), json!(name));
                o.insert("playable".into(), json!(playable));
                o.insert("astar_ticks".into(), json!(ticks));
                for (i, key) in INDICATORS.iter().enumerate() {
                    o.insert(
                        (*key).into(),
                        json!({"mean": ours[i].0, "sd": ours[i].1,
                               "thesis_mean": thesis[i].0, "thesis_sd": thesis[i].1}),
                    );
                }
                serde_json::Value::Object(o)
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "trials": trials, "seed": args.seed, "levels": levels
            }))?
        );
    } else {
        println!(
            "Table 6.2: the human-like agent's indicators, mean ± sd over {trials} trials \
             (seed {}); the thesis's in brackets",
            args.seed
        );
        println!(
            "{:<6}{:>22}{:>22}{:>22}{:>22}",
            "level", "jumps", "enemy damage", "hole damage", "long presses"
        );
        for (name, playable, _, ours, thesis) in &rows {
            let mut line = format!("{name:<6}");
            for i in 0..4 {
                line += &format!(
                    "{:>22}",
                    format!(
                        "{:.1}±{:.1} [{}±{}]",
                        ours[i].0, ours[i].1, thesis[i].0, thesis[i].1
                    )
                );
            }
            if !playable {
                line += "  (A* does not finish)";
            }
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
