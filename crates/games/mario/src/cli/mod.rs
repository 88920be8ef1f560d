//! The Mario sub-commands: `eval --game mario --table62`, the thesis's Table 6.2 (the
//! human-like agent's indicators on the VGLC levels) beside the thesis's figures; the
//! generator sweeps; `train`; and `play --game mario` (a button script, traced tick by tick).

use crate::evaluate::{evaluate, mean_sd, DEFAULT_TRIALS};
use crate::formats::{read_vglc, vglc_level_text, vglc_levels_dir, without_piranha_plants};
use anyhow::{anyhow, bail, Result};
use clap::{Args, FromArgMatches};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use studio_cli::bounds::{self, bound, Bound, Range};
use studio_cli::{EvalCommon, GameCommand, RegisterCommands, Slot, TrainCommon};
use studio_core::game::registry::Registry;
use studio_core::jobs::Cancel;

pub mod play;

/// The Mario models `train` knows.
pub const MODELS: [&str; 3] = ["mario-cgan", "mario-td3", "mario-vs-td3"];

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

/// How many of Table 6.2's levels have indicator `i` (0 jumps, 1 enemy damage, 2 hole damage,
/// 3 long presses) within max(the thesis's sd, 25 % of its mean) of the thesis's mean: issue
/// 44's per-level target. `means` holds each level's four means, in the table's order.
pub fn table62_levels_within(means: &[[f64; 4]], i: usize) -> usize {
    means
        .iter()
        .zip(TABLE_6_2.iter())
        .filter(|(r, (_, t))| (r[i] - t[i].0).abs() <= t[i].1.max(0.25 * t[i].0))
        .count()
}

/// Table 6.2's level `name` as the thesis played it: the VGLC level with its piranha plants
/// taken out ([`without_piranha_plants`]; the thesis excluded them).
///
/// # Errors
/// The VGLC level is not there (the error names the folder and `VGLC_DIR`) or does not read.
pub fn table62_level(name: &str) -> Result<crate::MarioLevel> {
    let text = vglc_level_text(name).ok_or_else(|| {
        anyhow!(
            "the VGLC level mario-{name}.txt is not in {} (set VGLC_DIR)",
            vglc_levels_dir().display()
        )
    })?;
    let (text, _) = without_piranha_plants(&text);
    read_vglc(&text).map_err(|e| anyhow!("mario-{name}.txt: {e}"))
}

/// The indicators' names, in table order.
const INDICATORS: [&str; 4] = ["jumps", "enemy_damage", "hole_damage", "long_presses"];

/// The models `eval` sweeps.
pub const EVAL_MODELS: [&str; 4] = ["random-patterns", "cgan", "td3", "vs-td3"];

/// `eval --game mario`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// --game, --model, --json, --seed.
    #[command(flatten)]
    pub common: EvalCommon,
    /// The thesis's Table 6.2 (the human-like agent's four indicators, mean ± sd over
    /// --games trials, default 10) on the VGLC levels it names, beside the thesis's figures.
    #[arg(long)]
    pub table62: bool,
    /// With --table62: trials per level, 1 to 1,000 (default 10).
    #[arg(long, value_parser = bounds::AGENT_GAMES.parser::<u32>())]
    pub games: Option<u32>,
    /// The VGLC folder (default $VGLC_DIR).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Model weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Write a plot here (PNG; cgan: its latent map).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// cgan: only the latent map of Fig. 6.9 (z₁ = 0, z₂ and z₃ over 101 × 101 points after
    /// 1-1's first three patterns): its distinct raw and matched patterns
    /// (`map_raw_distinct`, `map_matched_distinct`), no levels.
    #[arg(long)]
    pub map: bool,
    /// TD3 actors: randomized initialization, one row per number of random first patterns
    /// ("1,2,3"), each 0 to 99 (Mario takes 1 to 10), at most 100 values.
    #[arg(long, value_delimiter = ',', value_parser = bounds::RI.parser::<usize>())]
    pub ri: Vec<usize>,
    /// TD3 actors: the diversity-aware greedy policy, "n,d" (n 1 to 1,000, d at least 0, p 0
    /// to 1; Mario draws 1 to 50 candidates).
    #[arg(long, value_name = "N,D", value_parser = bounds::parse_dagp)]
    pub dagp: Option<String>,
    /// Levels to generate, 2 to 10,000 (default 200).
    #[arg(long, value_parser = bounds::SWEEP_LEVELS.parser::<u64>())]
    pub count: Option<u64>,
}

/// `train --model mario-cgan|mario-td3|mario-vs-td3`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// --model, --out, --seed.
    #[command(flatten)]
    pub common: TrainCommon,
    /// The VGLC folder (default $VGLC_DIR).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Training epochs (mario-cgan) or episodes (TD3 actors), 1 to 1,000,000, instead of
    /// the model's default (TD3 30,000, VS-TD3 1,000: the thesis's).
    #[arg(long, value_parser = bounds::EPOCHS.parser::<usize>())]
    pub epochs: Option<usize>,
    /// mario-vs-td3: the Gaussian noise on the virtual completions' z, 0 to 1 (default: the
    /// actor's exploration noise at that episode, 0.2 falling to 0.05; 0: the actor's own z).
    #[arg(long, value_parser = bounds::COMPLETION_NOISE.parser())]
    pub completion_noise: Option<f64>,
    /// mario-td3 / mario-vs-td3: the actor's learning rate, more than 0, at most 1 (default
    /// the thesis's 5e-6; before issue 66 1e-4).
    #[arg(long, value_parser = bounds::LEARNING_RATE.parser())]
    pub actor_lr: Option<f64>,
    /// mario-td3 / mario-vs-td3: the critics' learning rate, more than 0, at most 1 (default
    /// the thesis's 5e-5; before issue 66 1e-3).
    #[arg(long, value_parser = bounds::LEARNING_RATE.parser())]
    pub critic_lr: Option<f64>,
    /// mario-td3 / mario-vs-td3: the targets' soft update rate, more than 0, at most 1
    /// (default the thesis's 5e-5; before issue 66 0.005).
    #[arg(long, value_parser = bounds::TAU.parser())]
    pub tau: Option<f64>,
    /// mario-td3 / mario-vs-td3: patterns placed between rounds of gradient updates, 1 to 100
    /// (default 1, TD3's one round a pattern; before issue 66 2).
    #[arg(long, value_parser = TRAIN_EVERY.parser::<usize>())]
    pub train_every: Option<usize>,
    /// mario-td3 / mario-vs-td3: gradient updates in each round, 1 to 100 (default 1).
    /// VS-TD3's episodes cost 36 evaluations each, so more updates a round learn more from
    /// each.
    #[arg(long, value_parser = bounds::UPDATES_PER_STEP.parser::<usize>())]
    pub updates_per_step: Option<usize>,
    /// mario-td3 / mario-vs-td3: episodes between test phases, 1 to 100,000 (default 250,
    /// VS-TD3 25 as the thesis, at most a quarter of the run). The actor of the best test phase is kept.
    #[arg(long, value_parser = bounds::TEST_EVERY.parser::<usize>())]
    pub test_every: Option<usize>,
    /// mario-td3 / mario-vs-td3: levels each test phase makes from its fixed starts, 1 to
    /// 1,000 (default 25). More levels choose the kept actor with less luck.
    #[arg(long, value_parser = bounds::TEST_LEVELS.parser::<usize>())]
    pub test_levels: Option<usize>,
    /// mario-td3 / mario-vs-td3: at each test phase also test the target actor (the live
    /// actor's soft-updated average, which moves less from phase to phase) and keep it when it
    /// tests best.
    #[arg(long)]
    pub test_average: bool,
    /// mario-td3 / mario-vs-td3: stop after this episode and its test phase, 1 to 1,000,000,
    /// at most --epochs; the exploration schedule stays that of --epochs, so a run stopped
    /// here is the same every time.
    #[arg(long, value_parser = bounds::EPOCHS.parser::<usize>())]
    pub stop_after: Option<usize>,
    /// mario-vs-td3: how an episode's steps are judged and rewarded. All but `live` freeze
    /// the actor for the episode and judge its 36 levels at once on every core. `value`
    /// (default): a remembered step keeps TD3's reward (the levels' own), and the
    /// completions' mean return is the step's value, learnt right after the episode and not
    /// remembered; `mean`: the completions' mean is the remembered reward (the thesis's);
    /// `live`: the earlier loop, each step judged by the actor of that moment (reproduces the
    /// actors trained before).
    #[arg(long, value_parser = ["value", "mean", "live"])]
    pub vs_reward: Option<String>,
    /// Do not train: write the length and hash of the existing weights at --out into their
    /// sidecar (for sidecars written before they carried one). Only for weights you trust.
    #[arg(long)]
    pub restamp: bool,
}

const EVAL_BOUNDS: &[Bound] = &[
    bound(&["eval"], "games", Range::Whole(bounds::AGENT_GAMES)),
    bound(&["eval"], "ri", Range::Whole(bounds::RI)),
    bound(&["eval"], "dagp", Range::Dagp),
    bound(&["eval"], "count", Range::Whole(bounds::SWEEP_LEVELS)),
];

/// `train --train-every` (Mario's TD3 actors): patterns placed between rounds of updates.
const TRAIN_EVERY: bounds::Whole = bounds::Whole::new(1, 100);

const TRAIN_BOUNDS: &[Bound] = &[
    bound(&["train"], "epochs", Range::Whole(bounds::EPOCHS)),
    bound(
        &["train"],
        "completion-noise",
        Range::Real(bounds::COMPLETION_NOISE),
    ),
    bound(&["train"], "actor-lr", Range::Real(bounds::LEARNING_RATE)),
    bound(&["train"], "critic-lr", Range::Real(bounds::LEARNING_RATE)),
    bound(&["train"], "tau", Range::Real(bounds::TAU)),
    bound(&["train"], "train-every", Range::Whole(TRAIN_EVERY)),
    bound(
        &["train"],
        "updates-per-step",
        Range::Whole(bounds::UPDATES_PER_STEP),
    ),
    bound(&["train"], "test-every", Range::Whole(bounds::TEST_EVERY)),
    bound(&["train"], "test-levels", Range::Whole(bounds::TEST_LEVELS)),
    bound(&["train"], "stop-after", Range::Whole(bounds::EPOCHS)),
];

/// Adds Mario's `eval` (Table 6.2 and the generator sweeps) and `train` to the command line.
pub fn commands(registry: &mut Registry) {
    registry.add_command(GameCommand {
        game: crate::level::ID,
        slot: Slot::Eval,
        models: &EVAL_MODELS,
        args: EvalArgs::augment_args,
        run: |m| {
            let args = EvalArgs::from_arg_matches(m)?;
            bounds::check_ri_rows(&args.ri)?;
            if args.table62 {
                table62(&args)
            } else {
                args.common.model()?;
                eval_model(&args)
            }
        },
        bounds: EVAL_BOUNDS,
        example: &["eval", "--game", "mario", "--model", "cgan"],
    });
    registry.add_command(GameCommand {
        game: crate::level::ID,
        slot: Slot::Play,
        models: &[],
        args: play::PlayArgs::augment_args,
        run: |m| play::run(&play::PlayArgs::from_arg_matches(m)?),
        bounds: &[],
        example: &["play", "--game", "mario", "level.txt", "--actions", "R*10"],
    });
    registry.add_command(GameCommand {
        game: crate::level::ID,
        slot: Slot::Train,
        models: &MODELS,
        args: TrainArgs::augment_args,
        run: |m| {
            let args = TrainArgs::from_arg_matches(m)?;
            match args.common.model.as_str() {
                "mario-cgan"
                    if args.completion_noise.is_some()
                        || args.actor_lr.is_some()
                        || args.critic_lr.is_some()
                        || args.tau.is_some()
                        || args.train_every.is_some()
                        || args.updates_per_step.is_some()
                        || args.test_every.is_some()
                        || args.test_levels.is_some()
                        || args.test_average
                        || args.stop_after.is_some()
                        || args.vs_reward.is_some() =>
                {
                    Err(anyhow!(
                        "--completion-noise, --actor-lr, --critic-lr, --tau, --train-every, \
                         --updates-per-step, --test-every, --test-levels, --test-average, --stop-after and \
                         --vs-reward are settings of the TD3 actors; --model mario-cgan does \
                         not take them"
                    ))
                }
                "mario-cgan" => train_cgan(&args),
                _ => train_td3(&args),
            }
        },
        bounds: TRAIN_BOUNDS,
        example: &[
            "train",
            "--model",
            "mario-td3",
            "--out",
            "never.safetensors",
        ],
    });
}

/// The CGAN the TD3 actors steer: `models/mario-cgan.safetensors`, or `--weights`-like
/// `$MARIO_CGAN`.
fn cgan_path() -> std::path::PathBuf {
    std::env::var_os("MARIO_CGAN").map_or_else(
        || std::path::Path::new("models").join(crate::cgan::file::WEIGHTS_FILE),
        std::path::PathBuf::from,
    )
}

fn train_td3(args: &TrainArgs) -> Result<ExitCode> {
    use crate::generators::load_cgan_model;
    use crate::patterns::PatLegal;
    use crate::td3::run::Td3Run;
    use crate::td3::train::Td3Config;
    use crate::td3::VIRTUAL_COMPLETIONS;
    if let Some(n) = args.stop_after {
        let vs = args.common.model == "mario-vs-td3";
        let episodes = args
            .epochs
            .unwrap_or(Td3Config::new(if vs { VIRTUAL_COMPLETIONS } else { 0 }, 0).episodes);
        if n > episodes {
            return Err(anyhow!(
                "--stop-after {n} is past the run's {episodes} episodes (--epochs)"
            ));
        }
    }
    if args.restamp {
        studio_ml::restamp::<crate::td3::file::Td3Sidecar>(&args.common.out)
            .map_err(|e| anyhow!(e))?;
        println!("restamped {}", args.common.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    // Small matrices: one thread for candle keeps the summation order (and so the weights)
    // the same on every machine; the evaluations run on every core by themselves.
    if std::env::var_os("RAYON_NUM_THREADS").is_none() {
        std::env::set_var("RAYON_NUM_THREADS", "1");
    }
    let vs = args.common.model == "mario-vs-td3";
    let kind = if vs { "vs-td3" } else { "td3" };
    for (flag, given) in [
        ("--completion-noise", args.completion_noise.is_some()),
        ("--vs-reward", args.vs_reward.is_some()),
    ] {
        if given && !vs {
            return Err(anyhow!(
                "{flag} is a setting of mario-vs-td3; --model {} does not take it",
                args.common.model
            ));
        }
    }
    let cgan_file = cgan_path();
    studio_cli::refuse_writing_over(&args.common.out, &[&cgan_file])?;
    let cgan = load_cgan_model(&cgan_file)
        .map_err(|e| anyhow!("{e} (the actor steers the CGAN: train it first)"))?;
    let pat = match &args.data {
        Some(dir) => PatLegal::vglc(dir),
        None => PatLegal::default_set(),
    }
    .map_err(|e| anyhow!("{e} (the VGLC levels: pass --data DIR or set VGLC_DIR)"))?;
    let config = td3_config(args, vs);
    eprintln!(
        "training {kind}: {} episodes, {} virtual completions a step, seed {}, steering {} \
         ({} legal patterns)",
        config.episodes,
        config.virtual_completions,
        config.seed,
        cgan_file.display(),
        pat.len()
    );
    let command = td3_command(args, &config);
    let run = Td3Run {
        kind,
        config: &config,
        cgan: &cgan.generator,
        cgan_stamp: cgan.sidecar.weights.clone(),
        pat: &pat,
        command: &command,
        out: &args.common.out,
    };
    // The judgements run on a pool of every core; candle inside it stays on one thread.
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow!("could not start {threads} threads for the judgements: {e}"))?;
    let trained = pool
        .install(|| {
            run.train_to_file(&mut |p| {
                eprintln!(
                "[{:>3.0} %] {} of {}: training mean {:.3}, test {:.3}{} (best {:.3}{}), {:.0} s",
                100.0 * p.episode as f64 / p.episodes as f64,
                p.episode,
                p.episodes,
                p.mean_evaluation,
                p.test_evaluation,
                p.average_evaluation
                    .map(|a| format!(", target actor {a:.3}"))
                    .unwrap_or_default(),
                p.best_test,
                if p.best_is_average {
                    ", the target actor's"
                } else {
                    ""
                },
                p.seconds
            );
                true
            })
        })
        .map_err(|e| anyhow!(e))?;
    println!(
        "wrote {} ({} in {:.0} s; kept the {}actor of episode {}, test mean {:.3})",
        args.common.out.display(),
        match config.stop_after {
            Some(n) if n < config.episodes => format!("{n} of {} episodes", config.episodes),
            _ => format!("{} episodes", config.episodes),
        },
        trained.seconds,
        if trained.kept_average { "target " } else { "" },
        trained.best.0,
        trained.best.1
    );
    Ok(ExitCode::SUCCESS)
}

/// The TD3 run's settings: the thesis's recipe (`Td3Config::new`), with what the flags
/// change.
fn td3_config(args: &TrainArgs, vs: bool) -> crate::td3::train::Td3Config {
    use crate::td3::train::{Td3Config, VsReward};
    use crate::td3::VIRTUAL_COMPLETIONS;
    let mut config = Td3Config::new(if vs { VIRTUAL_COMPLETIONS } else { 0 }, args.common.seed);
    if let Some(e) = args.epochs {
        config.episodes = e;
        config.test_every = config.test_every.min(e.div_ceil(4).max(1));
    }
    config.completion_noise = args.completion_noise;
    if let Some(lr) = args.actor_lr {
        config.actor_lr = lr;
    }
    if let Some(lr) = args.critic_lr {
        config.critic_lr = lr;
    }
    if let Some(tau) = args.tau {
        config.tau = tau;
    }
    if let Some(n) = args.train_every {
        config.train_every = n;
    }
    if let Some(n) = args.updates_per_step {
        config.updates = n;
    }
    if let Some(n) = args.test_every {
        config.test_every = n;
    }
    if let Some(n) = args.test_levels {
        config.test_levels = n;
    }
    config.test_average = args.test_average;
    config.stop_after = args.stop_after;
    if let Some(v) = args.vs_reward.as_deref().and_then(VsReward::from_name) {
        config.vs_reward = v;
    }
    config
}

/// The command that repeats the run: the settings given on the command line, in the
/// order `--help` lists them.
fn td3_command(args: &TrainArgs, config: &crate::td3::train::Td3Config) -> String {
    let settings: String = [
        (
            "--completion-noise",
            args.completion_noise.map(|v| v.to_string()),
        ),
        ("--actor-lr", args.actor_lr.map(|v| v.to_string())),
        ("--critic-lr", args.critic_lr.map(|v| v.to_string())),
        ("--tau", args.tau.map(|v| v.to_string())),
        ("--train-every", args.train_every.map(|v| v.to_string())),
        (
            "--updates-per-step",
            args.updates_per_step.map(|v| v.to_string()),
        ),
        ("--test-every", args.test_every.map(|v| v.to_string())),
        ("--test-levels", args.test_levels.map(|v| v.to_string())),
        ("--test-average", args.test_average.then(String::new)),
        ("--stop-after", args.stop_after.map(|v| v.to_string())),
        ("--vs-reward", args.vs_reward.clone()),
    ]
    .into_iter()
    .filter_map(|(flag, value)| Some(format!(" {flag} {}", value?).trim_end().to_string()))
    .collect();
    format!(
        "level-studio train --model {} --seed {} --epochs {}{settings} --out {}",
        args.common.model,
        args.common.seed,
        config.episodes,
        args.common.out.display()
    )
}

/// Epochs of the shipped CGAN.
pub const CGAN_EPOCHS: usize = 30;
/// Levels held out of the CGAN's training.
pub const CGAN_TEST_LEVELS: usize = 3;

fn train_cgan(args: &TrainArgs) -> Result<ExitCode> {
    use crate::cgan::file::{save, CganSidecar, ARCHITECTURE};
    use crate::cgan::model::WIDTHS;
    use crate::cgan::{train, CganConfig, CganData};
    if args.restamp {
        studio_ml::restamp::<CganSidecar>(&args.common.out).map_err(|e| anyhow!(e))?;
        println!("restamped {}", args.common.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let dir = args.data.clone().unwrap_or_else(vglc_levels_dir);
    let data = CganData::load(&dir, args.common.seed, CGAN_TEST_LEVELS)
        .map_err(|e| anyhow!("{e} (the VGLC levels: pass --data DIR or set VGLC_DIR)"))?;
    let config = CganConfig {
        seed: args.common.seed,
        epochs: args.epochs.unwrap_or(CGAN_EPOCHS),
        ..CganConfig::default()
    };
    let names = |levels: &[crate::cgan::Level]| -> Vec<String> {
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
        if p.epoch == 1 || p.epoch % 5 == 0 || p.epoch == config.epochs {
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
        widths: WIDTHS.to_vec(),
        seed: config.seed,
        epochs: config.epochs,
        learning_rate: config.learning_rate,
        batch_size: config.batch_size,
        mode_seeking: config.mode_seeking,
        train_levels: names(&data.train_levels),
        test_levels: names(&data.test_levels),
        train_seconds: seconds,
        curve,
        command: format!(
            "level-studio train --model mario-cgan --seed {} --epochs {} --out {}",
            config.seed,
            config.epochs,
            args.common.out.display()
        ),
        weights: None,
    };
    save(&varmap, &sidecar, &args.common.out).map_err(|e| anyhow!(e))?;
    println!(
        "wrote {} ({} epochs, {:.0} s)",
        args.common.out.display(),
        config.epochs,
        seconds
    );
    Ok(ExitCode::SUCCESS)
}

/// `eval --game mario --model M --count N --seed S`: N levels of 10 patterns, each evaluated
/// (A* + 10 human-like trials), and their diversity; with `--plot PNG` and the CGAN, also the
/// latent map of Fig. 6.9 after the first three patterns of 1-1, and with a TD3 model the
/// training curves. TD3 models take `--ri 1,2,…` (a row per c) and `--dagp n,d` (a row with
/// DAGP on the 4th–6th patterns after 2 random ones).
fn eval_model(args: &EvalArgs) -> Result<ExitCode> {
    use crate::generators::{cgan_level, load_cgan_model, random_patterns};
    use crate::patterns::{PatLegal, LEVEL_PATTERNS};
    use studio_core::rng::Rng;
    let count = args.count.unwrap_or(200) as usize;
    // Refused before the VGLC patterns are read: the answer does not depend on them.
    if let Some(c) = args
        .ri
        .iter()
        .find(|&&c| !(1..=LEVEL_PATTERNS).contains(&c))
    {
        bail!(
            "--ri {c}: randomized initialization places 1 to {LEVEL_PATTERNS} of a Mario \
             level's {LEVEL_PATTERNS} patterns at random; ask for 1 to {LEVEL_PATTERNS}"
        );
    }
    if let Some(text) = &args.dagp {
        check_dagp(text)?;
    }
    if args.map && args.common.model != "cgan" {
        bail!(
            "--map is the CGAN's latent map (Fig. 6.9); use it with --model cgan, not {:?}",
            args.common.model
        );
    }
    let started = std::time::Instant::now();
    let pat = PatLegal::default_set().map_err(|e| anyhow!(e))?;
    let mut rows: Vec<(serde_json::Value, Vec<crate::MarioLevel>)> = Vec::new();
    match args.common.model.as_str() {
        "random-patterns" => rows.push((
            json!({}),
            (0..count as u64)
                .filter_map(|i| {
                    random_patterns(&pat, LEVEL_PATTERNS, &mut Rng::derive(args.common.seed, i))
                })
                .collect(),
        )),
        "cgan" => {
            let path = args.weights.clone().unwrap_or_else(|| {
                std::path::Path::new("models").join(crate::cgan::file::WEIGHTS_FILE)
            });
            let model = load_cgan_model(&path).map_err(|e| anyhow!(e))?;
            if args.map || args.plot.is_some() {
                let map = latent_map_of_1_1(&model.generator, &pat)?;
                if let Some(png) = &args.plot {
                    crate::cgan::write_png(&map, png)
                        .map_err(|e| anyhow!("{}: {e}", png.display()))?;
                    eprintln!("wrote {}", png.display());
                }
                if args.map {
                    return print_map(args, &map, started.elapsed().as_secs_f64());
                }
                eprintln!(
                    "latent map (z1 = 0, after 1-1's first three patterns): {} distinct raw \
                     patterns, {} after Matching",
                    map.distinct_raw, map.distinct_matched
                );
            }
            let mut out = Vec::new();
            for i in 0..count as u64 {
                if let Some(l) = cgan_level(
                    &model.generator,
                    &pat,
                    LEVEL_PATTERNS,
                    &mut Rng::derive(args.common.seed, i),
                )
                .map_err(|e| anyhow!(e))?
                {
                    out.push(l);
                }
            }
            rows.push((json!({}), out));
        }
        "td3" | "vs-td3" => rows = td3_rows(args, &pat, count)?,
        other => bail!("unknown Mario model {other:?} (random-patterns, cgan, td3, vs-td3)"),
    }
    let mut results = Vec::new();
    for (setting, levels) in &rows {
        let mut row = measure(levels, args.common.seed)?;
        if let (Some(r), Some(s)) = (row.as_object_mut(), setting.as_object()) {
            r.extend(s.clone());
        }
        if !args.common.json {
            print_row(&args.common.model, &row);
        }
        results.push(row);
    }
    if args.common.json {
        let mut top = results.first().cloned().unwrap_or_else(|| json!({}));
        if let Some(t) = top.as_object_mut() {
            t.insert("game".into(), json!("mario"));
            t.insert("model".into(), json!(args.common.model));
            t.insert("seed".into(), json!(args.common.seed));
            t.insert("rows".into(), json!(results));
            t.insert("seconds".into(), json!(started.elapsed().as_secs_f64()));
        }
        println!("{}", serde_json::to_string_pretty(&top)?);
    } else {
        println!("{:.1} s", started.elapsed().as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}

/// Mario's `--dagp` as Generate takes it: 1 to 50 candidates (Generate's "DAGP candidates"),
/// and no noise rate, since Mario applies DAGP at every one of its DAGP patterns.
fn check_dagp(text: &str) -> Result<()> {
    let dagp = studio_ml::rl::Dagp::parse(text).map_err(|e| anyhow!("--dagp {e}"))?;
    if dagp.n > MAX_DAGP_CANDIDATES {
        bail!(
            "--dagp {text}: Mario's DAGP draws 1 to {MAX_DAGP_CANDIDATES} candidates (as \
             Generate), not {}",
            dagp.n
        );
    }
    // Generate's `diverse_d` range, 0 to 1 in KL_pattern (F23: 1e308 was taken here and
    // refused there).
    if !(0.0..=1.0).contains(&dagp.d) {
        bail!(
            "--dagp {text}: Mario's DAGP distance is 0 to 1 (as Generate), not {:?}",
            dagp.d
        );
    }
    if text.split(',').count() == 3 {
        bail!(
            "--dagp {text}: Mario's DAGP has no noise rate (it acts at every one of its \
             patterns); give \"n,d\""
        );
    }
    Ok(())
}

/// The most DAGP candidates a Mario request draws (Generate's "DAGP candidates" range).
const MAX_DAGP_CANDIDATES: usize = 50;

/// The levels of a TD3 model for each asked setting (`--ri` rows, a `--dagp` row, or the
/// default: 2 random patterns, no DAGP); `--plot` draws the training curves.
fn td3_rows(
    args: &EvalArgs,
    pat: &crate::patterns::PatLegal,
    count: usize,
) -> Result<Vec<(serde_json::Value, Vec<crate::MarioLevel>)>> {
    use crate::generators::load_td3_bundle;
    use crate::td3::{make_levels, Making, RANDOM_START};
    let path = args.weights.clone().unwrap_or_else(|| {
        std::path::Path::new("models").join(crate::td3::file::weights_file(&args.common.model))
    });
    let bundle = load_td3_bundle(&path).map_err(|e| anyhow!(e))?;
    if let Some(png) = &args.plot {
        plot_td3(&path, png)?;
    }
    let gen = bundle.rl(pat);
    let mut settings: Vec<(serde_json::Value, Making)> = args
        .ri
        .iter()
        .map(|&c| {
            (
                json!({ "ri": c }),
                Making {
                    random: c,
                    dagp: None,
                },
            )
        })
        .collect();
    if let Some(d) = &args.dagp {
        let dagp = studio_ml::rl::Dagp::parse(d).map_err(|e| anyhow!("--dagp {e}"))?;
        settings.push((
            json!({ "ri": RANDOM_START, "dagp": { "n": dagp.n, "d": dagp.d } }),
            Making {
                random: RANDOM_START,
                dagp: Some(dagp),
            },
        ));
    }
    if settings.is_empty() {
        settings.push((json!({ "ri": RANDOM_START }), Making::default()));
    }
    settings
        .into_iter()
        .map(|(setting, making)| {
            let builds =
                make_levels(&gen, count, args.common.seed, making).map_err(|e| anyhow!(e))?;
            let levels = builds
                .iter()
                .map(|b| b.level().map_err(|e| anyhow!(e)))
                .collect::<Result<Vec<_>>>()?;
            Ok((setting, levels))
        })
        .collect()
}

/// The figures of one row: every level evaluated (A* and 10 human-like trials, seeded by
/// `seed` and the level's index), and the diversity between them.
fn measure(levels: &[crate::MarioLevel], seed: u64) -> Result<serde_json::Value> {
    use crate::patterns::diversity;
    use rayon::prelude::*;
    let evals: Vec<_> = levels
        .par_iter()
        .enumerate()
        .map(|(i, level)| evaluate(level, seed ^ i as u64, DEFAULT_TRIALS, &Cancel::default()))
        .collect::<Result<_, _>>()
        .map_err(|e| anyhow!("{e}"))?;
    let n = evals.len().max(1) as f64;
    let mean =
        |f: &dyn Fn(&crate::evaluate::LevelEvaluation) -> f64| evals.iter().map(f).sum::<f64>() / n;
    let values: Vec<f64> = evals.iter().map(|e| e.evaluation()).collect();
    let (_, sd) = mean_sd(&values);
    let (kl_level, different_tiles) = diversity(levels, seed);
    Ok(json!({
        "count": evals.len(),
        "mean_evaluation": mean(&|e| e.evaluation()),
        "sd_evaluation": sd,
        "mean_r_diff": mean(&|e| e.r_diff()),
        "mean_r_mono": mean(&|e| if e.playable() { e.r_mono } else { 0.0 }),
        "mean_total_damage": mean(&|e| if e.playable() { e.total_damage() } else { 0.0 }),
        "unplayable": evals.iter().filter(|e| !e.playable()).count(),
        "kl_level": kl_level,
        "different_tiles": different_tiles,
    }))
}

fn print_row(model: &str, row: &serde_json::Value) {
    let f = |k: &str| {
        row.get(k)
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(0.0)
    };
    let setting = match (row.get("ri"), row.get("dagp")) {
        (_, Some(d)) => format!(" RI 2 + DAGP {d}"),
        (Some(c), None) => format!(" RI {c}"),
        _ => String::new(),
    };
    println!(
        "{model}{setting}: {} levels, mean evaluation {:.3} ± {:.3} (r_diff {:.3}, r_mono \
         {:.3}); unplayable {}; KL_level {:.3}, different tiles {:.1}",
        f("count"),
        f("mean_evaluation"),
        f("sd_evaluation"),
        f("mean_r_diff"),
        f("mean_r_mono"),
        f("unplayable"),
        f("kl_level"),
        f("different_tiles"),
    );
}

/// The training curves of the TD3 model at `path` and of its sibling (TD3 / VS-TD3) when
/// present: each run's test means (thick) and training means, x the share of its run.
fn plot_td3(path: &std::path::Path, png: &std::path::Path) -> Result<()> {
    use crate::td3::file::{load, weights_file};
    let dir = studio_core::io::folder_of(path);
    let runs: Vec<(&str, [u8; 3], _)> = [("td3", [235u8, 130, 20]), ("vs-td3", [40, 80, 190])]
        .into_iter()
        .filter_map(|(id, rgb)| Some((id, rgb, load(&dir.join(weights_file(id))).ok()?.sidecar)))
        .collect();
    // y from 0 to the highest mean rounded up to a tenth (at least 0.3).
    let top = runs
        .iter()
        .flat_map(|(_, _, s)| {
            s.curve
                .iter()
                .chain(s.test_curve.iter().chain(&s.average_curve).map(|(_, v)| v))
        })
        .fold(0.3f64, |m, &v| m.max((v * 10.0).ceil() / 10.0));
    let mut chart = studio_core::export::chart::Chart::new(640, 400, 40.0, (0.0, 1.0), (0.0, top));
    for (id, rgb, side) in runs {
        if let Some((mean, first, last)) = side.last_fifth_test_mean() {
            eprintln!(
                "{id}: mean of the last 20 % of test phases (episodes {first}–{last}) {mean:.3}; \
                 kept the actor of episode {} (test {:.3})",
                side.kept.0, side.kept.1
            );
        }
        if let Some((mean, first, last)) = side.last_fifth_average_mean() {
            eprintln!(
                "{id}: the target actor's mean of the last 20 % of test phases (episodes \
                 {first}–{last}) {mean:.3}{}",
                if side.kept_average {
                    "; the kept actor is a target actor"
                } else {
                    ""
                }
            );
        }
        let train: Vec<Option<(f64, f64)>> = side
            .curve
            .iter()
            .enumerate()
            .map(|(i, &v)| Some((i as f64 / (side.curve.len().max(2) - 1) as f64, v)))
            .collect();
        chart.line(&train, rgb.map(|c| c / 2 + 100));
        let episodes = side.episodes.max(1) as f64;
        let test: Vec<Option<(f64, f64)>> = side
            .test_curve
            .iter()
            .map(|&(e, v)| Some((e as f64 / episodes, v)))
            .collect();
        chart.line(&test, rgb);
        let average: Vec<Option<(f64, f64)>> = side
            .average_curve
            .iter()
            .map(|&(e, v)| Some((e as f64 / episodes, v)))
            .collect();
        chart.line(&average, rgb.map(|c| c / 2));
    }
    chart.save(png).map_err(|e| anyhow!(e))?;
    eprintln!(
        "wrote {} (TD3 orange, VS-TD3 blue: test means, training means light, the target \
         actor's test means darkest where tested; y 0..{top:.1})",
        png.display()
    );
    Ok(())
}

/// Fig. 6.9: the 101 × 101 latent map after the first three patterns of 1-1 (z₁ fixed at 0),
/// before and after Matching.
fn latent_map_of_1_1(
    generator: &crate::cgan::Generator,
    pat: &crate::patterns::PatLegal,
) -> Result<crate::cgan::LatentMap> {
    use crate::patterns::pattern_at;
    let text =
        vglc_level_text("1-1").ok_or_else(|| anyhow!("the VGLC's 1-1 is needed for the map"))?;
    let level = read_vglc(&text).map_err(|e| anyhow!("mario-1-1.txt: {e}"))?;
    let context = [0, 4, 8].map(|x| pattern_at(&level, x).unwrap_or([0; crate::patterns::CELLS]));
    crate::cgan::latent_map(generator, &context, 0.0, pat, 101).map_err(|e| anyhow!("{e}"))
}

/// `eval --model cgan --map`: the map's counts beside the thesis's (3,190 raw, 45 matched).
fn print_map(args: &EvalArgs, map: &crate::cgan::LatentMap, seconds: f64) -> Result<ExitCode> {
    if args.common.json {
        println!(
            "{}",
            json!({
                "game": "mario",
                "model": "cgan",
                "map_points": map.size * map.size,
                "map_raw_distinct": map.distinct_raw,
                "map_matched_distinct": map.distinct_matched,
                "thesis_raw_distinct": 3190,
                "thesis_matched_distinct": 45,
                "seconds": seconds,
            })
        );
    } else {
        println!(
            "CGAN latent map (z1 = 0, z2 and z3 over {n} x {n} points after 1-1's first three \
             patterns): {} distinct raw patterns, {} after Matching (the thesis: 3,190 and 45)",
            map.distinct_raw,
            map.distinct_matched,
            n = map.size
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn table62(args: &EvalArgs) -> Result<ExitCode> {
    let trials = args.games.unwrap_or(DEFAULT_TRIALS).max(1);
    let mut rows = Vec::new();
    for (name, thesis) in TABLE_6_2 {
        let level = table62_level(name)?;
        let eval = evaluate(&level, args.common.seed, trials, &Cancel::default())
            .map_err(|e| anyhow!("{e}"))?;
        let ours = [
            mean_sd(&eval.jumps),
            mean_sd(&eval.enemy_damage),
            mean_sd(&eval.hole_damage),
            mean_sd(&eval.long_presses),
        ];
        rows.push((name, eval.playable(), eval.astar.ticks, ours, thesis));
    }
    if args.common.json {
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
                "trials": trials, "seed": args.common.seed, "levels": levels
            }))?
        );
    } else {
        println!(
            "Table 6.2: the human-like agent's indicators, mean ± sd over {trials} trials \
             (seed {}); the thesis's in brackets",
            args.common.seed
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
