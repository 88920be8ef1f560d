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

/// The Mario models `train` knows.
pub const MODELS: [&str; 1] = ["mario-cgan"];

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

/// `train --model mario-cgan`: the pattern CGAN on the VGLC levels (`--data` or `$VGLC_DIR`).
pub fn train(args: &TrainArgs) -> Option<Result<ExitCode>> {
    (args.model == "mario-cgan").then(|| train_cgan(args))
}

/// Epochs of the shipped CGAN.
pub const CGAN_EPOCHS: usize = 1500;
/// Levels held out of the CGAN's training.
pub const CGAN_TEST_LEVELS: usize = 3;

fn train_cgan(args: &TrainArgs) -> Result<ExitCode> {
    use crate::mario::cgan::file::{save, CganSidecar, ARCHITECTURE};
    use crate::mario::cgan::model::{DISC_HIDDEN_1, DISC_HIDDEN_2, GEN_HIDDEN};
    use crate::mario::cgan::{train, CganConfig, CganData};
    let dir = args.data.clone().unwrap_or_else(vglc_levels_dir);
    let data = CganData::load(&dir, args.seed, CGAN_TEST_LEVELS)
        .map_err(|e| anyhow!("{e} (the VGLC levels: pass --data DIR or set VGLC_DIR)"))?;
    let config = CganConfig {
        seed: args.seed,
        epochs: args.epochs.unwrap_or(CGAN_EPOCHS),
        ..CganConfig::default()
    };
    let names = |levels: &[crate::mario::cgan::Level]| -> Vec<String> {
        levels.iter().map(|l| l.name.clone()).collect()
    };
    eprintln!(
        "training the Mario CGAN: {} training windows from {} levels, {} held out ({}), {} \
         epochs, seed {}",
        data.train.len(),
        data.train_levels.len(),
        data.test_levels.len(),
        names(&data.test_levels).join(", "),
        config.epochs,
        config.seed
    );
    let mut curve = Vec::new();
    let mut seconds = 0.0;
    let varmap = train(&data, &config, &mut |p| {
        seconds = p.seconds;
        if p.epoch == 1 || p.epoch % 50 == 0 || p.epoch == config.epochs {
            curve.push((p.epoch, p.d_loss, p.g_loss));
            eprintln!(
                "epoch {:>5}/{}: D loss {:.3}, G loss {:.3}, D(real) {:.2}, D(fake) {:.2}, {:.0} s",
                p.epoch, config.epochs, p.d_loss, p.g_loss, p.d_real, p.d_fake, p.seconds
            );
        }
        true
    })
    .map_err(|e| anyhow!("training failed: {e}"))?;
    let sidecar = CganSidecar {
        architecture: ARCHITECTURE.into(),
        hidden: [GEN_HIDDEN, DISC_HIDDEN_1, DISC_HIDDEN_2],
        seed: config.seed,
        epochs: config.epochs,
        learning_rate: config.learning_rate,
        batch_size: config.batch_size,
        train_levels: names(&data.train_levels),
        test_levels: names(&data.test_levels),
        train_seconds: seconds,
        curve,
        command: format!(
            "level-studio train --model mario-cgan --seed {} --epochs {} --out {}",
            config.seed,
            config.epochs,
            args.out.display()
        ),
        weights: None,
    };
    save(&varmap, &sidecar, &args.out).map_err(|e| anyhow!(e))?;
    println!(
        "wrote {} ({} epochs, {:.0} s)",
        args.out.display(),
        config.epochs,
        seconds
    );
    Ok(ExitCode::SUCCESS)
}

/// `eval --game mario --model M --count N --seed S`: N levels of 10 patterns, each evaluated
/// (A* + 10 human-like trials), and their diversity; with `--plot PNG` and the CGAN, also the
/// latent map of Fig. 6.9 after the first three patterns of 1-1.
fn eval_model(args: &EvalArgs) -> Result<ExitCode> {
    use crate::mario::generators::{cgan_level, load_cgan_model, random_patterns};
    use crate::mario::patterns::{diversity, PatLegal, LEVEL_PATTERNS};
    use crate::rng::Rng;
    use rayon::prelude::*;
    let count = args.count.unwrap_or(200) as usize;
    let started = std::time::Instant::now();
    let pat = PatLegal::default_set().map_err(|e| anyhow!(e))?;
    let levels: Vec<_> = match args.model.as_str() {
        "random-patterns" => (0..count as u64)
            .filter_map(|i| random_patterns(&pat, LEVEL_PATTERNS, &mut Rng::derive(args.seed, i)))
            .collect(),
        "cgan" => {
            let path = args.weights.clone().unwrap_or_else(|| {
                std::path::Path::new("models").join(crate::mario::cgan::file::WEIGHTS_FILE)
            });
            let model = load_cgan_model(&path).map_err(|e| anyhow!(e))?;
            if let Some(png) = &args.plot {
                latent_map_png(&model.generator, &pat, png)?;
            }
            let mut out = Vec::new();
            for i in 0..count as u64 {
                if let Some(l) = cgan_level(
                    &model.generator,
                    &pat,
                    LEVEL_PATTERNS,
                    &mut Rng::derive(args.seed, i),
                )
                .map_err(|e| anyhow!(e))?
                {
                    out.push(l);
                }
            }
            out
        }
        other => bail!(
            "unknown Mario model {other:?} (random-patterns, cgan; the TD3 generators are not \
             trained yet)"
        ),
    };
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

/// Fig. 6.9: the 101 × 101 latent map after the first three patterns of 1-1 (z₁ fixed at 0),
/// before and after Matching, as a PNG; prints the distinct pattern counts.
fn latent_map_png(
    generator: &crate::mario::cgan::Generator,
    pat: &crate::mario::patterns::PatLegal,
    png: &std::path::Path,
) -> Result<()> {
    use crate::mario::patterns::pattern_at;
    let text =
        vglc_level_text("1-1").ok_or_else(|| anyhow!("the VGLC's 1-1 is needed for the map"))?;
    let level = read_vglc(&text).map_err(|e| anyhow!("mario-1-1.txt: {e}"))?;
    let context =
        [0, 4, 8].map(|x| pattern_at(&level, x).unwrap_or([0; crate::mario::patterns::CELLS]));
    let map = crate::mario::cgan::latent_map(generator, &context, 0.0, pat, 101)
        .map_err(|e| anyhow!("{e}"))?;
    crate::mario::cgan::write_png(&map, png).map_err(|e| anyhow!("{}: {e}", png.display()))?;
    eprintln!(
        "latent map (z1 = 0, after 1-1's first three patterns): {} distinct raw patterns, {} \
         after Matching; wrote {}",
        map.distinct_raw,
        map.distinct_matched,
        png.display()
    );
    Ok(())
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
