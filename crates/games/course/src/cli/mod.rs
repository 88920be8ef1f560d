//! `eval --game course`: the quality and diversity of a course generator (rl-quality-diversity
//! §5.2): mean evaluation, the share above 0.9 and the tries one such course takes, parameter
//! ASD and different winning strategies between pairs.

use crate::ddpg::{self, DdpgConfig, DdpgProgress, VIRTUAL_COMPLETIONS};
use crate::dqn::{self, DqnConfig};
use crate::generators::{complete_starts, random_course, rl_courses, RlCourse, RL_IDS};
use crate::model::{
    greedy_mean, save, CourseModel, CoursePolicy, CourseSidecar, ARCHITECTURE, Q_ARCHITECTURE,
};
use crate::sl::{self, SlConfig};
use crate::{evaluate, Course, Structure};
use anyhow::{anyhow, Result};
use clap::{Args, FromArgMatches};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use studio_cli::bounds::{self, bound, Bound, Range};
use studio_cli::{EvalCommon, GameCommand, RegisterCommands, Slot, TrainCommon};
use studio_core::game::registry::Registry;
use studio_core::rng::Rng;
use studio_ml::rl::Dagp;

/// The course models `train` makes.
pub const MODELS: [&str; 4] = ["course-ddpg", "course-vs-ddpg", "course-dqn", "course-sl"];

/// The generators `eval` sweeps.
pub const EVAL_MODELS: [&str; 5] = ["random", "ddpg", "vs-ddpg", "dqn", "sl"];

/// `eval --game course`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// --game, --model, --json, --seed.
    #[command(flatten)]
    pub common: EvalCommon,
    /// Events per course, 9 or 12.
    #[arg(long, default_value_t = 9, value_parser = bounds::parse_events)]
    pub events: usize,
    /// Model weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Write a plot of the training curves here (PNG).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Randomized initialization, one row per number of random first columns ("1,2,3"),
    /// each 0 to 99 (1 to one less than the course has columns), at most 100 values.
    #[arg(long, value_delimiter = ',', value_parser = bounds::RI.parser::<usize>())]
    pub ri: Vec<usize>,
    /// The diversity-aware greedy policy, "n,d" (n random columns, kept when farther than d
    /// from the network's; the critic picks) from 20 initial courses; n 1 to 1,000, d at
    /// least 0, p 0 to 1.
    #[arg(long, value_name = "N,D", value_parser = bounds::parse_dagp)]
    pub dagp: Option<String>,
    /// Discard courses evaluated below this, 0 to 1, and keep drawing (tries are reported).
    #[arg(long, value_name = "V", value_parser = bounds::FILTER.parser())]
    pub filter: Option<f64>,
    /// Courses to generate, 2 to 10,000 (default 200).
    #[arg(long, value_parser = bounds::SWEEP_LEVELS.parser::<u64>())]
    pub count: Option<u64>,
}

/// `train --model course-ddpg|course-vs-ddpg|course-dqn|course-sl`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// --model, --out, --seed.
    #[command(flatten)]
    pub common: TrainCommon,
    /// Training episodes, 1 to 1,000,000, instead of the model's default.
    #[arg(long, value_parser = bounds::EPOCHS.parser::<usize>())]
    pub epochs: Option<usize>,
    /// Events per course, 9 or 12.
    #[arg(long, default_value_t = 9, value_parser = bounds::parse_events)]
    pub events: usize,
    /// course-vs-ddpg: virtual completions per step, 1 to 100 (default 5, the thesis's;
    /// none is course-ddpg).
    #[arg(long, value_parser = bounds::COURSE_VIRTUAL_COMPLETIONS.parser::<usize>())]
    pub virtual_completions: Option<usize>,
    /// course-vs-ddpg: the Gaussian noise of the virtual completions' actions, 0 to 1
    /// (default: the actor's exploration noise at that episode, 0.3 falling to 0.05; 0: the
    /// actor's own columns).
    #[arg(long, value_parser = bounds::COMPLETION_NOISE.parser())]
    pub completion_noise: Option<f64>,
    /// course-ddpg / course-vs-ddpg: the actor's learning rate, more than 0, at most 1 (default
    /// 1e-4; the thesis's 1e-5).
    #[arg(long, value_parser = bounds::LEARNING_RATE.parser())]
    pub actor_lr: Option<f64>,
    /// course-ddpg / course-vs-ddpg: the critic's learning rate, more than 0, at most 1 (default
    /// 1e-3; the thesis's 1e-4).
    #[arg(long, value_parser = bounds::LEARNING_RATE.parser())]
    pub critic_lr: Option<f64>,
    /// course-ddpg / course-vs-ddpg: the soft target update rate, more than 0, at most 1 (default
    /// 0.005; the thesis's 0.001).
    #[arg(long, value_parser = bounds::TAU.parser())]
    pub tau: Option<f64>,
    /// Do not train: write the length and hash of the existing weights at --out into their
    /// sidecar (for sidecars written before they carried one). Only for weights you trust.
    #[arg(long)]
    pub restamp: bool,
}

const EVAL_BOUNDS: &[Bound] = &[
    bound(&["eval"], "events", Range::Events),
    bound(&["eval"], "ri", Range::Whole(bounds::RI)),
    bound(&["eval"], "dagp", Range::Dagp),
    bound(&["eval"], "filter", Range::Real(bounds::FILTER)),
    bound(&["eval"], "count", Range::Whole(bounds::SWEEP_LEVELS)),
];

const TRAIN_BOUNDS: &[Bound] = &[
    bound(&["train"], "epochs", Range::Whole(bounds::EPOCHS)),
    bound(&["train"], "events", Range::Events),
    bound(
        &["train"],
        "virtual-completions",
        Range::Whole(bounds::COURSE_VIRTUAL_COMPLETIONS),
    ),
    bound(
        &["train"],
        "completion-noise",
        Range::Real(bounds::COMPLETION_NOISE),
    ),
    bound(&["train"], "actor-lr", Range::Real(bounds::LEARNING_RATE)),
    bound(&["train"], "critic-lr", Range::Real(bounds::LEARNING_RATE)),
    bound(&["train"], "tau", Range::Real(bounds::TAU)),
];

/// Adds the course's `eval` and `train` to the command line.
pub fn commands(registry: &mut Registry) {
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Eval,
        models: &EVAL_MODELS,
        args: EvalArgs::augment_args,
        run: |m| {
            let args = EvalArgs::from_arg_matches(m)?;
            bounds::check_ri_rows(&args.ri)?;
            args.common.model()?;
            run(&args)
        },
        bounds: EVAL_BOUNDS,
        example: &["eval", "--game", "course", "--model", "ddpg"],
    });
    registry.add_command(GameCommand {
        game: crate::ID,
        slot: Slot::Train,
        models: &MODELS,
        args: TrainArgs::augment_args,
        run: |m| train_model(&TrainArgs::from_arg_matches(m)?),
        bounds: TRAIN_BOUNDS,
        example: &[
            "train",
            "--model",
            "course-ddpg",
            "--out",
            "never.safetensors",
        ],
    });
}

fn progress(p: &DdpgProgress) -> bool {
    eprintln!(
        "[{:>3.0} %] {} of {}: mean evaluation {:.3} ({:.0} s)",
        100.0 * p.episode as f64 / p.episodes as f64,
        p.episode,
        p.episodes,
        p.mean_evaluation,
        p.seconds
    );
    true
}

fn train_model(args: &TrainArgs) -> Result<ExitCode> {
    if args.restamp {
        studio_ml::restamp::<CourseSidecar>(&args.common.out).map_err(|e| anyhow!(e))?;
        println!("restamped {}", args.common.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let structure = Structure::of_events(args.events).map_err(|e| anyhow!(e))?;
    // Small matrices: one thread is faster (273 s against 345 s for the 9-event DDPG) and
    // keeps the summation order, and so the weights, the same on every machine.
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        std::env::set_var("RAYON_NUM_THREADS", "1");
    }
    let failed = |e: candle_core::Error| anyhow!("training failed: {e}");
    let ddpg_only = [
        ("--actor-lr", args.actor_lr.is_some()),
        ("--critic-lr", args.critic_lr.is_some()),
        ("--tau", args.tau.is_some()),
    ];
    let vs_only = [
        ("--virtual-completions", args.virtual_completions.is_some()),
        ("--completion-noise", args.completion_noise.is_some()),
    ];
    let model = args.common.model.as_str();
    let refused = |flags: &[(&str, bool)], models: &str| {
        flags.iter().find(|f| f.1).map(|(flag, _)| {
            anyhow!("{flag} is a setting of {models}; --model {model} does not take it")
        })
    };
    if !matches!(model, "course-ddpg" | "course-vs-ddpg") {
        if let Some(e) = refused(&ddpg_only, "course-ddpg and course-vs-ddpg") {
            return Err(e);
        }
    }
    if model != "course-vs-ddpg" {
        if let Some(e) = refused(&vs_only, "course-vs-ddpg") {
            return Err(e);
        }
    }
    let (maps, curve, seconds, virtual_completions, episodes, architecture, greedy) =
        match args.common.model.as_str() {
            "course-dqn" => {
                let mut config = DqnConfig::new(structure, args.common.seed);
                if let Some(e) = args.epochs {
                    config.episodes = e;
                }
                let t = dqn::train(&config, &mut progress).map_err(failed)?;
                let model = CourseModel {
                    policy: CoursePolicy::Q(t.q),
                    sidecar: blank_sidecar(args, Q_ARCHITECTURE),
                };
                let greedy = model_greedy_mean(&model)?;
                (
                    vec![t.varmap],
                    t.curve,
                    t.seconds,
                    0,
                    config.episodes,
                    Q_ARCHITECTURE,
                    greedy,
                )
            }
            "course-sl" => {
                let mut config = SlConfig::new(structure, args.common.seed);
                if let Some(e) = args.epochs {
                    config.epochs = e;
                }
                let t = sl::train(&config, &mut progress).map_err(failed)?;
                let greedy =
                    greedy_mean(&t.actor, structure, 200, 1, 0).map_err(|e| anyhow!("{e}"))?;
                (
                    vec![t.varmap, t.critic_varmap],
                    t.curve,
                    t.seconds,
                    0,
                    config.epochs,
                    ARCHITECTURE,
                    greedy,
                )
            }
            vs => {
                let k = if vs == "course-vs-ddpg" {
                    args.virtual_completions.unwrap_or(VIRTUAL_COMPLETIONS)
                } else {
                    0
                };
                let mut config = DdpgConfig::new(structure, k, args.common.seed);
                if let Some(e) = args.epochs {
                    config.episodes = e;
                }
                config.completion_noise = args.completion_noise;
                config.actor_lr = args.actor_lr.unwrap_or(config.actor_lr);
                config.critic_lr = args.critic_lr.unwrap_or(config.critic_lr);
                config.tau = args.tau.unwrap_or(config.tau);
                let t = ddpg::train(&config, &mut progress).map_err(failed)?;
                let greedy =
                    greedy_mean(&t.actor, structure, 200, 1, 0).map_err(|e| anyhow!("{e}"))?;
                (
                    vec![t.varmap, t.critic_varmap],
                    t.curve,
                    t.seconds,
                    k,
                    config.episodes,
                    ARCHITECTURE,
                    greedy,
                )
            }
        };
    let mut sidecar = blank_sidecar(args, architecture);
    sidecar.virtual_completions = virtual_completions;
    sidecar.episodes = episodes;
    sidecar.train_seconds = seconds;
    sidecar.curve = curve;
    sidecar.greedy_mean_evaluation = greedy;
    sidecar.critic = maps.len() == 2;
    let settings: String = [
        (
            "virtual-completions",
            args.virtual_completions.map(|k| k.to_string()),
        ),
        (
            "completion-noise",
            args.completion_noise.map(|v| v.to_string()),
        ),
        ("actor-lr", args.actor_lr.map(|v| v.to_string())),
        ("critic-lr", args.critic_lr.map(|v| v.to_string())),
        ("tau", args.tau.map(|v| v.to_string())),
    ]
    .into_iter()
    .filter_map(|(flag, v)| v.map(|v| format!(" --{flag} {v}")))
    .collect();
    sidecar.command = format!(
        "level-studio train --model {} --events {} --epochs {episodes}{settings} --seed {} --out {}",
        args.common.model,
        args.events,
        args.common.seed,
        args.common.out.display()
    );
    let refs: Vec<&candle_nn::VarMap> = maps.iter().collect();
    save(&refs, &sidecar, &args.common.out).map_err(|e| anyhow!(e))?;
    println!(
        "wrote {} ({episodes} {} in {seconds:.0} s; greedy mean evaluation {greedy:.3})",
        args.common.out.display(),
        if args.common.model == "course-sl" {
            "epochs"
        } else {
            "episodes"
        },
    );
    Ok(ExitCode::SUCCESS)
}

fn blank_sidecar(args: &TrainArgs, architecture: &str) -> CourseSidecar {
    CourseSidecar {
        architecture: architecture.into(),
        events: args.events,
        hidden: ddpg::HIDDEN,
        virtual_completions: 0,
        seed: args.common.seed,
        episodes: 0,
        train_seconds: 0.0,
        curve: Vec::new(),
        greedy_mean_evaluation: 0.0,
        command: String::new(),
        critic: false,
        weights: None,
    }
}

/// The sidecar's greedy mean: 200 courses from one random column (seed 0).
fn model_greedy_mean(model: &CourseModel) -> Result<f64> {
    let courses = rl_courses(model, 1, 200, None, &mut Rng::new(0)).map_err(|e| anyhow!(e))?;
    Ok(courses.iter().map(|c| evaluate(c).value).sum::<f64>() / 200.0)
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

/// Initial courses (one random first column each) that `--dagp` completes several times.
pub const DAGP_STARTS: usize = 20;
/// Tries per kept course before `--filter` gives up (the thesis's 500).
pub const FILTER_TRIES: usize = 500;

/// Courses that one setting produced, grouped by the initial course they share (`--dagp`; one
/// group otherwise), and the tries they took.
struct Sample {
    groups: Vec<Vec<(Course, Vec<u32>, f64)>>,
    tries: usize,
    seconds: f64,
}

fn sample(args: &EvalArgs, structure: Structure, count: usize) -> Result<Sample> {
    // clap has checked --filter (0 to 1) and --dagp's numbers.
    let filter = args.filter.unwrap_or(0.0);
    let dagp = args
        .dagp
        .as_deref()
        .map(|t| Dagp::parse(t).map_err(|e| anyhow!("--dagp {e}")))
        .transpose()?;
    let started = Instant::now();
    let mut rng = Rng::new(args.common.seed);
    let model = match args.common.model.as_str() {
        "random" if dagp.is_some() => {
            return Err(anyhow!(
                "--dagp needs a learned model ({})",
                RL_IDS.join(", ")
            ))
        }
        "random" => None,
        id if RL_IDS.contains(&id) => {
            let id = RL_IDS.iter().copied().find(|&k| k == id).unwrap_or("ddpg");
            Some(actor(id, args, args.weights.as_deref())?)
        }
        other => {
            return Err(anyhow!(
                "the course has no generator {other:?} (random, {})",
                RL_IDS.join(", ")
            ))
        }
    };
    if let (Some(_), Some(m)) = (dagp, &model) {
        if !m.has_values() {
            return Err(anyhow!(
                "{} has no critic, and DAGP chooses by the critic: retrain it",
                args.common.model
            ));
        }
    }
    let (starts, per_group) = match dagp {
        Some(_) => (
            (0..DAGP_STARTS)
                .map(|_| ddpg::random_start(structure, 1, &mut rng))
                .collect::<Vec<_>>(),
            count.div_ceil(DAGP_STARTS),
        ),
        None => (vec![Vec::new()], count),
    };
    let mut groups = Vec::new();
    let mut tries = 0usize;
    for start in &starts {
        let mut kept: Vec<(Course, Vec<u32>, f64)> = Vec::new();
        let mut group_tries = 0usize;
        while kept.len() < per_group {
            if group_tries >= FILTER_TRIES * per_group {
                return Err(anyhow!(
                    "--filter {filter}: only {} of {per_group} courses in {group_tries} tries",
                    kept.len()
                ));
            }
            let want = (per_group - kept.len()).max(16);
            let batch: Vec<Course> = match &model {
                None => (0..want)
                    .map(|_| random_course(structure, &mut rng))
                    .collect(),
                Some(m) if dagp.is_some() => {
                    complete_starts(m, vec![start.clone(); want], 1, dagp, &mut rng)
                        .map_err(|e| anyhow!(e))?
                }
                Some(m) => rl_courses(m, 1, want, None, &mut rng).map_err(|e| anyhow!(e))?,
            };
            for c in batch {
                group_tries += 1;
                let e = evaluate(&c);
                if e.value >= filter && kept.len() < per_group {
                    kept.push((c, e.winning, e.value));
                }
            }
        }
        tries += group_tries;
        groups.push(kept);
    }
    Ok(Sample {
        groups,
        tries,
        seconds: started.elapsed().as_secs_f64(),
    })
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
    let s = sample(args, structure, count)?;
    let values: Vec<f64> = s.groups.iter().flatten().map(|j| j.2).collect();
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    let std = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
    let above = values.iter().filter(|&&v| v > 0.9).count();
    // Diversity within each group (courses from the same initial course under DAGP, as the
    // thesis's Fig. 5.10), averaged over the groups.
    let (mut asd, mut wins) = (0.0, 0.0);
    for g in &s.groups {
        let pairs: Vec<(Course, Vec<u32>)> = g.iter().map(|j| (j.0.clone(), j.1.clone())).collect();
        let d = diversity(&pairs);
        asd += d.asd;
        wins += d.different_wins;
    }
    let groups = s.groups.len().max(1) as f64;
    let d = Diversity {
        asd: asd / groups,
        different_wins: wins / groups,
    };
    let tries = (above > 0).then(|| s.tries as f64 / above as f64);
    let kept = values.len();
    let filter = args.filter.unwrap_or(0.0);
    if args.common.json {
        println!(
            "{}",
            json!({
                "game": "course",
                "model": args.common.model,
                "events": args.events,
                "count": kept,
                "seed": args.common.seed,
                "dagp": args.dagp,
                "initial_courses": s.groups.len(),
                "filter": filter,
                "tries": s.tries,
                "tries_per_kept": s.tries as f64 / kept.max(1) as f64,
                "mean_evaluation": mean,
                "std_evaluation": std,
                "above_0_9": above as f64 / n,
                "tries_per_above_0_9": tries,
                "asd": d.asd,
                "different_winning_strategies": d.different_wins,
                "seconds_per_course": s.seconds / kept.max(1) as f64,
            })
        );
    } else {
        println!(
            "{}{} on {}-event courses, {kept} courses (seed {}{}):",
            args.common.model,
            args.dagp
                .as_deref()
                .map_or(String::new(), |t| format!(" + DAGP {t}")),
            args.events,
            args.common.seed,
            if filter > 0.0 {
                format!(", evaluation ≥ {filter} kept: {} tries", s.tries)
            } else {
                String::new()
            }
        );
        if args.dagp.is_some() {
            println!(
                "  {} initial courses, {} each",
                s.groups.len(),
                kept / s.groups.len().max(1)
            );
        }
        println!("  mean evaluation     {mean:.3} ± {std:.3}");
        println!(
            "  above 0.9           {:.2} % ({})",
            100.0 * above as f64 / n,
            tries.map_or("none found".into(), |t| format!("one per {t:.1} tries"))
        );
        println!("  parameter ASD       {:.3} (mean over pairs)", d.asd);
        println!(
            "  different wins      {:.2} strategies (mean over pairs)",
            d.different_wins
        );
        println!(
            "  time                {:.3} ms per kept course",
            1000.0 * s.seconds / kept.max(1) as f64
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The model of generator `id` for `--events`: the weights given, or the shipped ones.
fn actor(
    id: &'static str,
    args: &EvalArgs,
    weights: Option<&std::path::Path>,
) -> Result<std::sync::Arc<CourseModel>> {
    let models = studio_core::game::ModelCache::new(std::path::Path::new("models"));
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
    let Some(&id) = RL_IDS.iter().find(|&&id| id == args.common.model) else {
        return Err(anyhow!(
            "--ri applies to the learned generators ({}), not {:?}",
            RL_IDS.join(", "),
            args.common.model
        ));
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
        let mut rng = Rng::new(args.common.seed);
        let courses = rl_courses(&model, c, count, None, &mut rng).map_err(|e| anyhow!(e))?;
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
    if args.common.json {
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
                "model": args.common.model,
                "events": args.events,
                "count": count,
                "seed": args.common.seed,
                "ri": ri,
            })
        );
    } else {
        println!(
            "{} on {}-event courses, randomized initialization, {count} courses per row (seed {}):",
            args.common.model, args.events, args.common.seed
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
/// the shipped DDPG (orange), VS-DDPG (blue) and DQN (green) for `--events`, over a grey line at
/// random courses' mean evaluation; x is the share of each model's own run (the DQN trains for
/// more episodes); gridlines every 0.1 and every 10 % of the run.
fn plot_training(args: &EvalArgs, path: &std::path::Path) -> Result<()> {
    let structure = Structure::of_events(args.events).map_err(|e| anyhow!(e))?;
    let mut curves = Vec::new();
    for (id, rgb) in [
        ("ddpg", [235u8, 130, 20]),
        ("vs-ddpg", [40, 80, 190]),
        ("dqn", [40, 160, 80]),
    ] {
        curves.push((actor(id, args, None)?.sidecar.curve.clone(), rgb));
    }
    let mut rng = Rng::new(args.common.seed);
    let random = (0..2_000)
        .map(|_| evaluate(&random_course(structure, &mut rng)).value)
        .sum::<f64>()
        / 2_000.0;
    let mut chart = studio_core::export::chart::Chart::new(640, 400, 40.0, (0.0, 1.0), (0.0, 1.0));
    chart.segment((0.0, random), (1.0, random), [120, 120, 120], 1);
    for (curve, rgb) in &curves {
        // Each curve across its own run: x is the share of that run's episodes.
        let points: Vec<Option<(f64, f64)>> = curve
            .iter()
            .enumerate()
            .map(|(i, &v)| Some((i as f64 / (curve.len().max(2) - 1) as f64, v)))
            .collect();
        chart.line(&points, *rgb);
    }
    chart.save(path).map_err(|e| anyhow!(e))?;
    eprintln!(
        "wrote {} (training curves; random courses' mean {random:.3})",
        path.display()
    );
    Ok(())
}
