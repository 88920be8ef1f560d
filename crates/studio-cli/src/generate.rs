//! `generate`: new levels from any registered generator into a pack, through the same
//! generation service the window uses (same generator, conditions and seed: same levels).

use super::bounds;
use super::pack_out::PackOut;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use studio_core::game::{
    self, ConditionValue, Conditions, GameId, GenRequest, GenerationContext, LevelGenerator,
    ModelCache,
};
use studio_core::generation;
use studio_core::jobs::Cancel;
use studio_core::level::Pack;
use studio_core::symmetry::Symmetry;

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The game (`level-studio list` shows the registered games).
    #[arg(long, default_value_t = GameId::default())]
    pub game: GameId,
    /// The generator (`level-studio list` shows each game's generators and conditions), or a
    /// level VAE file (`FILE.safetensors`, trained by `train --model level-vae`): the game
    /// is then the model's.
    #[arg(long)]
    pub model: Option<String>,
    /// Regenerate a region of this level instead (a level file, or `PACK#N` / `PACK#NAME`):
    /// --count candidates that change only --region's cells and pass the game's analysis,
    /// from --model's latent neighbourhood when a level VAE file is given, else a seeded
    /// search over the region.
    #[arg(long, value_name = "LEVEL")]
    pub inpaint: Option<String>,
    /// With --inpaint: the cells to regenerate, X,Y,W,H (column and row from 0 at the
    /// top-left, width, height).
    #[arg(long, value_name = "X,Y,W,H")]
    pub region: Option<String>,
    /// With --inpaint: seconds to search, more than 0, at most 600 (default 2; a game whose
    /// analysis takes seconds, such as a GVGAI game's agents, needs more).
    #[arg(long, value_parser = bounds::INPAINT_SECONDS.parser())]
    pub seconds: Option<f64>,
    /// With --inpaint: print {"requested", "produced", "ms"} as JSON.
    #[arg(long)]
    pub json: bool,
    /// Level size as WxH, each side 1 to 64 cells (the `width` and `height` conditions).
    #[arg(long, value_parser = bounds::parse_size, allow_hyphen_values = true)]
    pub size: Option<(usize, usize)>,
    /// Symmetry (none, vertical, horizontal, quadrant).
    #[arg(long)]
    pub symmetry: Option<Symmetry>,
    /// Target median moves, 1 to 40 (the `moves` condition).
    #[arg(long, value_parser = bounds::MOVES.parser())]
    pub moves: Option<f64>,
    /// Any condition as KEY=VALUE (repeatable), e.g. `--set dagp_n=3`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Number of levels, 1 to 100,000 (the pack so far is saved every 10 s of a long run).
    #[arg(long, default_value_t = 10, value_parser = bounds::LEVELS.parser::<usize>())]
    pub count: usize,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Keep only levels the game's analysis passes (valid / non-trivial).
    #[arg(long)]
    pub validate: bool,
    /// This process's part of the run, I/N (I from 1 to N): the I-th of N consecutive
    /// blocks of the --count levels. The N parts joined in order with `pack merge` are the
    /// one-process run's pack, level for level (docs/files.md, "Sweeps split over
    /// processes").
    #[arg(long, value_name = "I/N", value_parser = generation::Shard::parse)]
    pub shard: Option<generation::Shard>,
    /// The `temperature` condition, 0 to 3: a decoder's cell temperature (0: 1.1 for fresh
    /// levels, the argmax with --fresh 0), or a policy's probability of a random action (0 to
    /// 1); `list` shows which generators take it.
    #[arg(long, value_parser = bounds::TEMPERATURE.parser())]
    pub temperature: Option<f64>,
    /// The `fresh` condition: every level differs from each training level of its size in at
    /// least N cells, 0 to 12 (default 3; 0: near copies of training levels allowed, each copy
    /// edited in one or two cells).
    #[arg(long, value_name = "N", value_parser = bounds::FRESH.parser::<u64>())]
    pub fresh: Option<u64>,
    /// Diversity-aware policy (DAGP), n 1 to 1,000, d at least 0, p 0 to 1: "n,d" or
    /// "n,d,p" (a walk generator's d in whole cells; a column generator's a distance between
    /// columns, e.g. 10,0.3); each generator narrows it.
    #[arg(long, value_parser = bounds::parse_dagp)]
    pub diverse: Option<String>,
    /// Model weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// FI2Pop (any game): the pattern fitness, alpha (grouped sprites) or beta (lone ones).
    #[arg(long, value_parser = ["alpha", "beta"])]
    pub fitness: Option<String>,
    /// FI2Pop: generations after the initial one, 0 to 500 (the `generations` condition).
    #[arg(long, value_parser = bounds::GENERATIONS.parser::<i64>())]
    pub generations: Option<i64>,
    /// FI2Pop: levels per generation, 4 to 200 (the `population` condition).
    #[arg(long, value_parser = bounds::POPULATION.parser::<i64>())]
    pub population: Option<i64>,
    /// Events per level, 9 or 12 (the `events` condition).
    #[arg(long, value_parser = bounds::parse_events)]
    pub events: Option<usize>,
    /// Output pack (.ron).
    #[arg(long)]
    pub out: PathBuf,
}

/// The conditions the flags give, each named by the flag that gave it.
fn flag_conditions(
    args: &GenerateArgs,
    specs: &[game::ConditionSpec],
) -> Result<Vec<(&'static str, &'static str, ConditionValue)>> {
    let mut given = Vec::new();
    if let Some((w, h)) = args.size {
        given.push(("size", "width", ConditionValue::Int(w as i64)));
        given.push(("size", "height", ConditionValue::Int(h as i64)));
    }
    if let Some(s) = args.symmetry {
        given.push(("symmetry", "symmetry", ConditionValue::Symmetry(s)));
    }
    if let Some(m) = args.moves {
        given.push(("moves", "moves", ConditionValue::Float(m)));
    }
    if args.temperature.is_some() && args.diverse.is_some() {
        bail!("give either --temperature or --diverse, not both");
    }
    if let Some(g) = args.generations {
        given.push(("generations", "generations", ConditionValue::Int(g)));
    }
    if let Some(p) = args.population {
        given.push(("population", "population", ConditionValue::Int(p)));
    }
    if let Some(e) = args.events {
        given.push(("events", "events", ConditionValue::Int(e as i64)));
    }
    if let Some(t) = args.temperature {
        given.push(("temperature", "temperature", ConditionValue::Float(t)));
    }
    if let Some(n) = args.fresh {
        given.push(("fresh", "fresh", ConditionValue::Int(n as i64)));
    }
    // Generators whose DAGP draws columns or patterns take "n,d" with d a real distance
    // (`diverse_n`, `diverse_d`); walk generators take whole cells (`dagp_n`, `dagp_d`, `dagp_p`).
    if let (Some(d), true) = (&args.diverse, specs.iter().any(|s| s.key == "diverse_n")) {
        let dagp = studio_ml::rl::Dagp::parse(d).map_err(|e| anyhow!("--diverse {e}"))?;
        given.push(("diverse", "diverse_n", ConditionValue::Int(dagp.n as i64)));
        given.push(("diverse", "diverse_d", ConditionValue::Float(dagp.d)));
    } else if let Some(d) = &args.diverse {
        let bad = || anyhow!("--diverse {d:?} is not \"n,d\" or \"n,d,p\" (e.g. 3,2,0.5)");
        let parts: Vec<&str> = d.split(',').map(str::trim).collect();
        if !(2..=3).contains(&parts.len()) {
            return Err(bad());
        }
        let n: i64 = parts[0].parse().map_err(|_| bad())?;
        let dist: i64 = parts[1].parse().map_err(|_| bad())?;
        if n < 1 {
            bail!("DAGP needs 1..=16 candidates, not {n}");
        }
        given.push(("diverse", "dagp_n", ConditionValue::Int(n)));
        given.push(("diverse", "dagp_d", ConditionValue::Int(dist)));
        if let Some(p) = parts.get(2) {
            let p: f64 = p.parse().map_err(|_| bad())?;
            given.push(("diverse", "dagp_p", ConditionValue::Float(p)));
        }
    }
    Ok(given)
}

/// Builds the request from the flags, refusing a flag the generator does not take.
fn request(args: &GenerateArgs) -> Result<GenRequest> {
    let Some(given) = args.model.as_deref() else {
        bail!(
            "generate needs --model MODEL (a generator: see `list`; or a level VAE file), or \
             --inpaint LEVEL --region X,Y,W,H"
        );
    };
    let (game, given) = if crate::level_vae::is_model_file(given) {
        let generator = crate::level_vae::register_model(Path::new(given))?;
        let game =
            studio_ml::level_vae::game_of(generator.sidecar()).map_err(|e| anyhow!("{e}"))?;
        (game, generator.id().to_string())
    } else {
        (args.game.game()?, given.to_string())
    };
    let model = match &args.fitness {
        Some(f) => {
            let id = format!("{given}-{f}");
            if game::generator_of(game, &id).is_err() {
                bail!("--fitness applies to the fi2pop generator (alpha or beta), not {given}");
            }
            id
        }
        None => given.clone(),
    };
    let generator = game::generator_of(game, &model).map_err(|e| anyhow!(e))?;
    let specs = generator.conditions();
    let mut conditions = Conditions::default();
    for (flag, key, value) in flag_conditions(args, &specs)? {
        let Some(spec) = specs.iter().find(|s| s.key == key) else {
            bail!("--{flag} does not apply to the {given} generator");
        };
        conditions.set(spec.key, value);
    }
    for pair in &args.set {
        let (key, text) = pair
            .split_once('=')
            .ok_or_else(|| anyhow!("--set {pair:?} is not KEY=VALUE"))?;
        let Some(spec) = specs.iter().find(|s| s.key == key.trim()) else {
            let keys: Vec<&str> = specs.iter().map(|s| s.key).collect();
            bail!(
                "the {given} generator has no condition {key:?} ({})",
                keys.join(", ")
            );
        };
        let value = spec
            .parse(text.trim())
            .map_err(|e| anyhow!("--set {pair}: {e}"))?;
        conditions.set(spec.key, value);
    }
    if args.weights.is_some() && generator.weights_file().is_none() {
        bail!("--weights does not apply to the {given} generator");
    }
    Ok(GenRequest {
        game: game.id(),
        generator: generator.id(),
        conditions,
        count: args.count,
        seed: args.seed,
        validated_only: args.validate,
        weights: args.weights.clone(),
    })
}

/// How often a long generation reports and saves what it made so far.
const SAVE_EVERY: Duration = Duration::from_secs(10);

pub fn run(args: &GenerateArgs) -> Result<ExitCode> {
    if let Some(level) = &args.inpaint {
        return crate::level_vae::run_inpaint(
            level,
            args.region.as_deref(),
            args.model.as_deref(),
            args.count,
            args.seed,
            args.json,
            args.seconds.unwrap_or(2.0),
            &args.out,
        );
    }
    check_inpaint_flags(args)?;
    let request = request(args)?;
    let (request, generator) = generation::prepare(&request).map_err(|e| anyhow!(e))?;
    check_shard(args, &request, generator.as_ref())?;
    let models = ModelCache::new(Path::new("models"));
    let cancel = Cancel::default();
    generator
        .preload(&models, request.weights.as_deref())
        .map_err(|e| anyhow!(e))?;
    let ctx = GenerationContext {
        models: &models,
        cancel: &cancel,
    };
    generator.check(&request, &ctx).map_err(|e| anyhow!(e))?;
    warn_infeasible(generator.as_ref(), &models, &request);
    let mut pack = new_pack(&request, generator.as_ref());
    // Progress on stderr: a bar redrawn in place on a terminal, otherwise a line every 10 s
    // (every generation of a search).
    let terminal = std::io::stderr().is_terminal();
    // A search (the GA) reports its generations however few levels it is asked for.
    let searching = request.conditions.get("generations").is_some();
    // A short run shows progress too once it has taken 10 s (a slow check per attempt).
    let show_progress = request.count >= 20 || searching;
    let started = Instant::now();
    let mut last_line = Instant::now();
    let mut progress = |fraction: f32, note: String| {
        let shown = show_progress || started.elapsed() >= SAVE_EVERY;
        if shown && terminal {
            eprint!("\r[{:>3.0} %] {note}   ", fraction * 100.0);
            let _ = std::io::stderr().flush();
        } else if shown && (searching || last_line.elapsed() >= SAVE_EVERY) {
            eprintln!("[{:>3.0} %] {note}", fraction * 100.0);
            last_line = Instant::now();
        }
    };
    // A long run saves the pack so far every 10 s, so stopping it keeps what it made; never
    // over an edit someone made to the file meanwhile.
    let mut out = PackOut::new(&args.out)?;
    let mut last_save = Instant::now();
    let mut save_error = None;
    // Ctrl-C stops the run and writes what it made (a search: the best it found); a second
    // Ctrl-C ends the program at once.
    let _interrupt = interrupt::stop_on_ctrl_c(&cancel);
    crate::time_limit::stop_before_limit(&cancel);
    let asked = args
        .shard
        .map_or(request.count, |s| s.block(request.count).len());
    let out_levels = &mut |c: generation::Candidate| {
        pack.levels.push(c.level);
        if last_save.elapsed() >= SAVE_EVERY && pack.levels.len() < asked {
            if let Err(e) = out.save(&pack) {
                save_error.get_or_insert(e);
                cancel.cancel();
            }
            last_save = Instant::now();
        }
    };
    let summary = generation::run_shard(
        &request,
        args.shard,
        &models,
        &cancel,
        &mut progress,
        out_levels,
    )
    .map_err(|e| anyhow!("{e}"))?;
    if (show_progress || started.elapsed() >= SAVE_EVERY) && terminal {
        eprintln!();
    }
    if let Some(e) = save_error {
        return Err(e.into());
    }
    // A part of a split run writes its pack even when empty: its run found no level in its
    // block, and the joined parts must still be the one-process run's pack.
    if pack.levels.is_empty() && args.shard.is_none() {
        bail!(
            "no level was found in {} attempts; nothing was written",
            summary.attempts
        );
    }
    out.save(&pack)?;
    report(&pack, &out, summary.attempts, asked);
    if crate::time_limit::stopped() {
        eprintln!("stopped at its time limit (--time-limit): what was made is written");
        return Ok(ExitCode::from(crate::time_limit::EXIT));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--region` and `--seconds` belong to `--inpaint`, which does not split into shards.
fn check_inpaint_flags(args: &GenerateArgs) -> Result<()> {
    if args.shard.is_some() && args.inpaint.is_some() {
        bail!("--shard splits a generated sweep; it does not go with --inpaint");
    }
    if args.region.is_some() || args.seconds.is_some() {
        bail!(
            "--region and --seconds go with --inpaint LEVEL (the level whose region to \
             regenerate)"
        );
    }
    Ok(())
}

/// `--shard` splits a sweep of levels drawn one by one, into no more parts than levels.
fn check_shard(
    args: &GenerateArgs,
    request: &GenRequest,
    generator: &dyn LevelGenerator,
) -> Result<()> {
    if let Some(shard) = args.shard {
        if request.conditions.get("generations").is_some() {
            bail!(
                "--shard {}/{}: {} is one search whose levels all come from one run; --shard \
                 splits sweeps of levels drawn one by one",
                shard.index,
                shard.of,
                generator.label()
            );
        }
        if shard.of > request.count {
            bail!(
                "--shard {}/{}: more parts than the {} levels asked (--count)",
                shard.index,
                shard.of,
                request.count
            );
        }
    }
    Ok(())
}

/// Warns when the conditions lie outside what the model's data covers, with its suggestions.
fn warn_infeasible(generator: &dyn LevelGenerator, models: &ModelCache, request: &GenRequest) {
    if let Some(f) = generator.feasibility(models, &request.conditions) {
        eprintln!(
            "warning: {}; the levels will likely miss the condition.",
            f.warning
        );
        for s in &f.suggestions {
            eprintln!("  {}", s.label);
        }
    }
}

/// The pack the levels go into, named and described after the generator and the request.
fn new_pack(request: &GenRequest, generator: &dyn LevelGenerator) -> Pack {
    let mut pack = Pack::new(match request.conditions.size() {
        Some((w, h)) => format!("{} {w}x{h}", generator.id()),
        None => generator.id().to_string(),
    });
    let described: Vec<String> = request
        .conditions
        .keys()
        .filter_map(|k| request.conditions.get(k).map(|v| format!("{k} {v}")))
        .collect();
    pack.description = format!(
        "{} levels: {}, seed {}",
        generator.label(),
        described.join(", "),
        request.seed
    );
    pack
}

/// What was written, where, and what fell short of the request.
fn report(pack: &Pack, out: &PackOut, attempts: usize, asked: usize) {
    println!(
        "wrote {} levels to {} ({} attempts)",
        pack.levels.len(),
        out.path().display(),
        attempts
    );
    if let Some(asked) = out.diverted_from() {
        eprintln!(
            "warning: {} changed during the run and was left as it is; the levels are in {}",
            asked.display(),
            out.path().display()
        );
    }
    if pack.levels.len() < asked {
        eprintln!(
            "warning: only {} of {} requested levels were found",
            pack.levels.len(),
            asked
        );
    }
}

/// Ctrl-C as "stop and keep what you have".
mod interrupt {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;
    use studio_core::jobs::Cancel;

    static RAISED: AtomicBool = AtomicBool::new(false);

    #[cfg(unix)]
    extern "C" fn on_interrupt(_: libc::c_int) {
        RAISED.store(true, Ordering::Relaxed);
        // SAFETY: `signal` is async-signal-safe; the next Ctrl-C gets the default action.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
        }
    }

    /// While alive, the first Ctrl-C calls [`Cancel::stop`] on `cancel`.
    pub struct Guard(Arc<AtomicBool>);

    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }

    /// Installs the handler and a thread that passes the signal on to `cancel`.
    pub fn stop_on_ctrl_c(cancel: &Cancel) -> Guard {
        let done = Arc::new(AtomicBool::new(false));
        #[cfg(unix)]
        // SAFETY: the handler only stores to an atomic and calls `signal`.
        unsafe {
            let handler: extern "C" fn(libc::c_int) = on_interrupt;
            libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        }
        let (cancel, finished) = (cancel.clone(), done.clone());
        let _ = std::thread::Builder::new()
            .name("ctrl-c".into())
            .spawn(move || {
                while !finished.load(Ordering::Relaxed) {
                    if RAISED.load(Ordering::Relaxed) {
                        eprintln!(
                            "\nstopping (Ctrl-C): writing what was made so far; \
                             Ctrl-C again quits at once"
                        );
                        cancel.stop();
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
            });
        Guard(done)
    }
}
