//! `eval --game course`: the quality and diversity of a course generator (rl-quality-diversity
//! §5.2): mean evaluation, the share above 0.9 and the tries one such course takes, parameter
//! ASD and different winning strategies between pairs.

use super::eval::EvalArgs;
use super::train::TrainArgs;
use crate::course::ddpg::{self, DdpgConfig, VIRTUAL_COMPLETIONS};
use crate::course::generators::{random_course, rl_courses, RlCourse};
use crate::course::model::{greedy_mean, save, CourseSidecar, ARCHITECTURE};
use crate::course::{evaluate, Course, Structure};
use crate::rng::Rng;
use anyhow::{anyhow, Result};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// The course models `train` makes.
pub const MODELS: [&str; 2] = ["course-ddpg", "course-vs-ddpg"];

/// The course sweep, when `--game` is the course.
pub fn eval(args: &EvalArgs) -> Option<Result<ExitCode>> {
    (args.game == crate::course::ID).then(|| run(args))
}

/// Trains a course actor, when `--model` is one.
pub fn train(args: &TrainArgs) -> Option<Result<ExitCode>> {
    let vs = match args.model.as_str() {
        "course-ddpg" => 0,
        "course-vs-ddpg" => VIRTUAL_COMPLETIONS,
        _ => return None,
    };
    Some(train_actor(args, vs))
}

fn train_actor(args: &TrainArgs, virtual_completions: usize) -> Result<ExitCode> {
    if args.restamp {
        crate::ml::restamp::<CourseSidecar>(&args.out).map_err(|e| anyhow!(e))?;
        println!("restamped {}", args.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let structure = Structure::of_events(args.events).map_err(|e| anyhow!(e))?;
    let mut config = DdpgConfig::new(structure, virtual_completions, args.seed);
    if let Some(e) = args.epochs {
        config.episodes = e.max(1);
    }
    let trained = ddpg::train(&config, &mut |p| {
        eprintln!(
            "[{:>3.0} %] episode {} of {}: mean evaluation {:.3} ({:.0} s)",
            100.0 * p.episode as f64 / p.episodes as f64,
            p.episode,
            p.episodes,
            p.mean_evaluation,
            p.seconds
        );
        true
    })
    .map_err(|e| anyhow!("training failed: {e}"))?;
    let greedy = greedy_mean(&trained.actor, structure, 200, 1, 0).map_err(|e| anyhow!("{e}"))?;
    let sidecar = CourseSidecar {
        architecture: ARCHITECTURE.into(),
        events: args.events,
        hidden: ddpg::HIDDEN,
        virtual_completions,
        seed: args.seed,
        episodes: config.episodes,
        train_seconds: trained.seconds,
        curve: trained.curve.clone(),
        greedy_mean_evaluation: greedy,
        command: format!(
            "level-studio train --model {} --events {} --epochs {} --seed {} --out {}",
            args.model,
            args.events,
            config.episodes,
            args.seed,
            args.out.display()
        ),
        weights: None,
    };
    save(&trained, &sidecar, &args.out).map_err(|e| anyhow!(e))?;
    println!(
        "wrote {} ({} episodes in {:.0} s; greedy mean evaluation {greedy:.3})",
        args.out.display(),
        config.episodes,
        trained.seconds
    );
    Ok(ExitCode::SUCCESS)
}

/// Diversity of a set of courses, over every pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Diversity {
    /// Mean over pairs of Σ over the matrix's entries of the squared difference.
    pub asd: f64,
    /// Mean over pairs of the winning strategies that win in one course and not the other.
    pub different_wins: f64,
}

/// Parameter ASD and different winning strategies over every pair of `courses` (same
/// structure).
pub fn diversity(courses: &[(Course, Vec<u32>)]) -> Diversity {
    let (mut asd, mut diff, mut pairs) = (0.0, 0.0, 0usize);
    for (i, (a, wa)) in courses.iter().enumerate() {
        for (b, wb) in &courses[i + 1..] {
            asd += a
                .columns()
                .iter()
                .zip(b.columns())
                .flat_map(|(x, y)| x.iter().zip(y).map(|(p, q)| (p - q) * (p - q)))
                .sum::<f64>();
            let only_a = wa.iter().filter(|s| wb.binary_search(s).is_err()).count();
            let only_b = wb.iter().filter(|s| wa.binary_search(s).is_err()).count();
            diff += (only_a + only_b) as f64;
            pairs += 1;
        }
    }
    let n = pairs.max(1) as f64;
    Diversity {
        asd: asd / n,
        different_wins: diff / n,
    }
}

fn run(args: &EvalArgs) -> Result<ExitCode> {
    let structure = Structure::of_events(args.events).map_err(|e| anyhow!(e))?;
    let count = args.count.unwrap_or(200) as usize;
    if let Some(path) = &args.plot {
        plot_training(args, path)?;
    }
    if !args.ri.is_empty() {
        return randomized_initialization(args, structure, count);
    }
    let started = Instant::now();
    let courses: Vec<Course> = match args.model.as_str() {
        "random" => {
            let mut rng = Rng::new(args.seed);
            (0..count)
                .map(|_| random_course(structure, &mut rng))
                .collect()
        }
        id @ ("ddpg" | "vs-ddpg") => {
            let model = actor(
                if id == "ddpg" { "ddpg" } else { "vs-ddpg" },
                args,
                args.weights.as_deref(),
            )?;
            let mut rng = Rng::new(args.seed);
            rl_courses(&model.actor, structure, 1, count, &mut rng).map_err(|e| anyhow!(e))?
        }
        other => {
            return Err(anyhow!(
                "the course has no generator {other:?} (random, ddpg, vs-ddpg)"
            ))
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let judged: Vec<(Course, Vec<u32>, f64)> = courses
        .into_iter()
        .map(|c| {
            let e = evaluate(&c);
            (c, e.winning, e.value)
        })
        .collect();
    let values: Vec<f64> = judged.iter().map(|j| j.2).collect();
    let mean = values.iter().sum::<f64>() / count as f64;
    let std = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / count as f64).sqrt();
    let above = values.iter().filter(|&&v| v > 0.9).count();
    let pairs: Vec<(Course, Vec<u32>)> = judged.into_iter().map(|j| (j.0, j.1)).collect();
    let d = diversity(&pairs);
    let tries = (above > 0).then(|| count as f64 / above as f64);
    if args.json {
        println!(
            "{}",
            json!({
                "game": "course",
                "model": args.model,
                "events": args.events,
                "count": count,
                "seed": args.seed,
                "mean_evaluation": mean,
                "std_evaluation": std,
                "above_0_9": above as f64 / count as f64,
                "tries_per_above_0_9": tries,
                "asd": d.asd,
                "different_winning_strategies": d.different_wins,
                "seconds_per_course": seconds / count as f64,
            })
        );
    } else {
        println!(
            "{} on {}-event courses, {count} courses (seed {}):",
            args.model, args.events, args.seed
        );
        println!("  mean evaluation     {mean:.3} ± {std:.3}");
        println!(
            "  above 0.9           {:.2} % ({})",
            100.0 * above as f64 / count as f64,
            tries.map_or("none found".into(), |t| format!("one per {t:.0} tries"))
        );
        println!("  parameter ASD       {:.3} (mean over pairs)", d.asd);
        println!(
            "  different wins      {:.2} strategies (mean over pairs)",
            d.different_wins
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The actor of generator `id` for `--events`: the weights given, or the shipped ones.
fn actor(
    id: &'static str,
    args: &EvalArgs,
    weights: Option<&std::path::Path>,
) -> Result<std::sync::Arc<crate::course::model::CourseModel>> {
    let models = crate::game::ModelCache::new(std::path::Path::new("models"));
    RlCourse { id }
        .model(&models, weights, args.events)
        .map_err(|e| anyhow!(e))
}

/// `--ri c1,c2,…`: for each c, `count` courses with c random first columns completed by the
/// actor: mean evaluation and parameter ASD (the thesis's Table 5.3).
fn randomized_initialization(
    args: &EvalArgs,
    structure: Structure,
    count: usize,
) -> Result<ExitCode> {
    let id = match args.model.as_str() {
        "ddpg" => "ddpg",
        "vs-ddpg" => "vs-ddpg",
        other => {
            return Err(anyhow!(
                "--ri applies to the RL generators (ddpg, vs-ddpg), not {other:?}"
            ))
        }
    };
    let model = actor(id, args, args.weights.as_deref())?;
    let mut rows = Vec::new();
    for &c in &args.ri {
        if c == 0 || c >= structure.columns() {
            return Err(anyhow!(
                "--ri {c}: a {}-event course has {} columns; randomize 1 to {}",
                structure.events(),
                structure.columns(),
                structure.columns() - 1
            ));
        }
        let mut rng = Rng::new(args.seed);
        let courses =
            rl_courses(&model.actor, structure, c, count, &mut rng).map_err(|e| anyhow!(e))?;
        let judged: Vec<(Course, Vec<u32>)> = courses
            .into_iter()
            .map(|k| {
                let e = evaluate(&k);
                (k, e.winning)
            })
            .collect();
        let mean = judged.iter().map(|(k, _)| evaluate(k).value).sum::<f64>() / count as f64;
        let d = diversity(&judged);
        rows.push((c, d, mean));
    }
    if args.json {
        let ri: Vec<serde_json::Value> = rows
            .iter()
            .map(|(c, d, mean)| {
                json!({
                    "c": c,
                    "asd": d.asd,
                    "different_winning_strategies": d.different_wins,
                    "mean_evaluation": mean,
                })
            })
            .collect();
        println!(
            "{}",
            json!({
                "game": "course",
                "model": args.model,
                "events": args.events,
                "count": count,
                "seed": args.seed,
                "ri": ri,
            })
        );
    } else {
        println!(
            "{} on {}-event courses, randomized initialization, {count} courses per row (seed {}):",
            args.model, args.events, args.seed
        );
        println!("   c    ASD   mean evaluation   different wins");
        for (c, d, mean) in rows {
            println!(
                "  {c:>2}  {:>5.3}  {mean:>15.3}  {:>15.2}",
                d.asd, d.different_wins
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--plot PATH`: the training curves (mean evaluation per 50 episodes, with exploration) of
/// the shipped DDPG (orange) and VS-DDPG (blue) actors for `--events`, over a grey line at
/// random courses' mean evaluation; gridlines every 0.1 and every 10 % of the run.
fn plot_training(args: &EvalArgs, path: &std::path::Path) -> Result<()> {
    let structure = Structure::of_events(args.events).map_err(|e| anyhow!(e))?;
    let mut curves = Vec::new();
    for (id, rgb) in [("ddpg", [235u8, 130, 20]), ("vs-ddpg", [40, 80, 190])] {
        curves.push((actor(id, args, None)?.sidecar.curve.clone(), rgb));
    }
    let mut rng = Rng::new(args.seed);
    let random = (0..2_000)
        .map(|_| evaluate(&random_course(structure, &mut rng)).value)
        .sum::<f64>()
        / 2_000.0;
    const W: u32 = 640;
    const H: u32 = 400;
    const M: f64 = 40.0;
    let mut img = image::RgbImage::from_pixel(W, H, image::Rgb([255, 255, 255]));
    let longest = curves.iter().map(|c| c.0.len()).max().unwrap_or(1).max(2);
    let to_px = |x: f64, y: f64| -> (i64, i64) {
        (
            (M + x * (f64::from(W) - 2.0 * M)).round() as i64,
            (f64::from(H) - M - y * (f64::from(H) - 2.0 * M)).round() as i64,
        )
    };
    let mut put = |x: i64, y: i64, c: [u8; 3]| {
        if x >= 0 && y >= 0 && x < i64::from(W) && y < i64::from(H) {
            img.put_pixel(x as u32, y as u32, image::Rgb(c));
        }
    };
    for k in 0..=10 {
        let shade = if k == 0 { [0, 0, 0] } else { [225, 225, 225] };
        let (x, _) = to_px(f64::from(k) / 10.0, 0.0);
        let (_, y) = to_px(0.0, f64::from(k) / 10.0);
        for t in M as i64..=(i64::from(H) - M as i64) {
            put(x, t, shade);
        }
        for t in M as i64..=(i64::from(W) - M as i64) {
            put(t, y, shade);
        }
    }
    let (_, ry) = to_px(0.0, random);
    for t in M as i64..=(i64::from(W) - M as i64) {
        put(t, ry, [120, 120, 120]);
        put(t, ry + 1, [120, 120, 120]);
    }
    for (curve, rgb) in &curves {
        let points: Vec<(f64, f64)> = curve
            .iter()
            .enumerate()
            .map(|(i, &v)| (i as f64 / (longest - 1) as f64, v))
            .collect();
        for pair in points.windows(2) {
            for s in 0..=20 {
                let t = f64::from(s) / 20.0;
                let (x, y) = to_px(
                    pair[0].0 + t * (pair[1].0 - pair[0].0),
                    pair[0].1 + t * (pair[1].1 - pair[0].1),
                );
                for (dx, dy) in [(0, 0), (1, 0), (0, 1)] {
                    put(x + dx, y + dy, *rgb);
                }
            }
        }
    }
    let mut bytes = Vec::new();
    img.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .map_err(|e| anyhow!("{e}"))?;
    crate::files::write_atomic(path, &bytes)?;
    eprintln!(
        "wrote {} (training curves; random courses' mean {random:.3})",
        path.display()
    );
    Ok(())
}
