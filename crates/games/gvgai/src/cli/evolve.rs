//! `generate --vgdl GAME.txt --model fi2pop --fitness alpha|beta` (the pattern GA's levels of
//! any GVGAI game, into a pack), and the GA runs that `eval --vgdl … --levels N` shares
//! ([`crate::cli::profile`]).

use crate::agents::Length;
use crate::evolve::{self, Judging, PatternTerm, VgdlEvolution};
use crate::level::{self, VgdlGame};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use studio_cli::bounds;
use studio_core::evolve::pattern::Fitness;
use studio_core::evolve::{self as ga, Settings};
use studio_core::generation::Shard;
use studio_core::grid::Grid;
use studio_core::jobs::Cancel;
use studio_core::level::{Level, Pack};

/// `generate --vgdl`.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The game's VGDL description (GVGAI's `GAME.txt`).
    #[arg(long, value_name = "GAME.txt")]
    pub vgdl: PathBuf,
    /// The level whose size and border the GA keeps (default: GAME_lvl0.txt beside the
    /// description, else a 13 x 9 level walled in).
    #[arg(long, value_name = "LEVEL.txt")]
    pub level: Option<PathBuf>,
    /// The generator: fi2pop (the pattern GA).
    #[arg(long, default_value = "fi2pop", value_parser = ["fi2pop"])]
    pub model: String,
    /// α (sprites in groups) or β (isolated sprites, the paper's inverse fitness).
    #[arg(long, default_value = "alpha", value_parser = ["alpha", "beta"])]
    pub fitness: String,
    /// Levels to make, one GA run each (seeds SEED, SEED + 1, …), 1 to 100.
    #[arg(long, default_value_t = 3, value_parser = bounds::ROOMS.parser::<u32>())]
    pub count: u32,
    /// The first run's seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Levels per generation, 4 to 200 (the paper: 50).
    #[arg(long, default_value_t = 50, value_parser = bounds::POPULATION.parser::<usize>())]
    pub population: usize,
    /// Generations after the initial one, 0 to 500.
    #[arg(long, default_value_t = 20, value_parser = bounds::GENERATIONS.parser::<usize>())]
    pub generations: usize,
    /// Caps the GA's games at this many ticks, 40 to 2,000 (default: each game to its own
    /// end — a `Timeout` or GVGAI's 2,000 ticks —, the paper's reading). Profile the levels
    /// with the same `--ticks`, so they are judged on the games they are profiled on.
    #[arg(long, value_parser = TICKS.parser::<u32>())]
    pub ticks: Option<u32>,
    /// The ablation: harmful sprites earn nothing for grouping (FPattern leaves them out).
    #[arg(long)]
    pub ablate_harmful: bool,
    /// The pack to write.
    #[arg(long, value_name = "PACK.ron")]
    pub out: PathBuf,
    /// This process's part of the runs, I/N (I from 1 to N): the I-th of N consecutive blocks
    /// of the --count runs, each with its own seed as in the one-process run. The N parts
    /// joined in order with `pack merge` are the one-process run's pack, byte for byte.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

/// `eval --vgdl --budget`.
pub const BUDGET: bounds::Whole = bounds::Whole::new(1, 10_000);
/// `--ticks`: a cap under 40 ticks leaves no feasible level (the strong agent's solution and
/// do-nothing's survival both need 40), and GVGAI ends every game by 2,000.
pub const TICKS: bounds::Whole = bounds::Whole::new(
    evolve::MIN_SOLUTION_TICKS as u64,
    vgdl::engine::MAX_TICKS as u64,
);

/// The games' length `--ticks` asks for.
pub fn length(ticks: Option<u32>) -> Length {
    ticks.map_or(Length::Full, |t| {
        Length::Capped(i32::try_from(t).unwrap_or(vgdl::engine::MAX_TICKS))
    })
}

/// What FPattern counts under `--ablate-harmful`.
pub fn pattern_term(ablate_harmful: bool) -> PatternTerm {
    if ablate_harmful {
        PatternTerm::WithoutHarmful
    } else {
        PatternTerm::Every
    }
}

pub(crate) fn open_game(path: &Path) -> Result<&'static VgdlGame> {
    let text = crate::load::read_text(path)?;
    level::open(&path.display().to_string(), &text).map_err(|e| anyhow!(e))
}

/// The template level: `--level`, else `GAME_lvl0.txt` beside the description, else blank.
pub(crate) fn template(g: &VgdlGame, game_path: &Path, level: Option<&Path>) -> Result<Grid<u8>> {
    let beside = game_path.with_file_name(format!(
        "{}_lvl0.txt",
        game_path
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned())
    ));
    let path = match level {
        Some(p) => Some(p.to_path_buf()),
        // Only a missing file falls back on the blank template; anything else there (a FIFO,
        // a device) is read, and so refused in words (F38).
        None => std::fs::symlink_metadata(&beside).is_ok().then_some(beside),
    };
    let rows = match path {
        Some(p) => {
            let text = crate::load::read_text(&p)?;
            let (rows, note) = g.rows_from_gvgai(&text);
            if let Some(note) = note {
                eprintln!("{}: {note}", p.display());
            }
            studio_core::game::Game::check(g, &rows)
                .map_err(|e| anyhow!("{}: {e}", p.display()))?;
            rows
        }
        None => studio_core::game::Game::blank(g, 13, 9).cells,
    };
    evolve::tiles_of(g, &rows).map_err(|e| anyhow!(e))
}

/// One fitness's GA runs: how many, from which seed, at what size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Runs {
    /// Runs, one level each.
    pub count: u32,
    /// The first run's seed (then SEED + 1, …).
    pub seed: u64,
    /// Levels per generation.
    pub population: usize,
    /// Generations after the initial one.
    pub generations: usize,
}

/// The best feasible level of each of `runs`' GA runs numbered `which` (from 0; all of them
/// but for a shard), into a pack named and described as the whole run's (saved by `save`
/// after each level, so a long run's levels are on disk as they come), and the seeds that
/// found none.
///
/// # Errors
/// What `save` returns.
pub(crate) fn evolve_pack(
    g: &'static VgdlGame,
    ga: &VgdlEvolution,
    runs: Runs,
    which: std::ops::Range<u64>,
    save: &mut dyn FnMut(&Pack) -> Result<()>,
) -> Result<(Pack, Vec<u64>)> {
    let fitness = ga.fitness;
    let mut pack = Pack::new(format!(
        "{} fi2pop {}",
        studio_core::game::Game::name(g),
        fitness.name()
    ));
    let length = match ga.judging.length {
        Length::Full => "games to their own end".to_string(),
        Length::Capped(t) => format!("games capped at {t} ticks"),
    };
    let pattern = match ga.judging.pattern {
        PatternTerm::Every => "FPattern over every sprite",
        PatternTerm::WithoutHarmful => "FPattern without harmful sprites (the ablation)",
    };
    pack.description = format!(
        "The best feasible level of each of {} FI2Pop runs ({}, population {}, {} \
         generations, {length}, {pattern}), seeds {} on",
        runs.count,
        fitness.letter(),
        runs.population,
        runs.generations,
        runs.seed
    );
    let mut failed = Vec::new();
    // Asked to stop shortly before a --time-limit: the run ends after its generation, and no
    // other run starts.
    let cancel = Cancel::default();
    studio_cli::time_limit::stop_before_limit(&cancel);
    for i in which {
        if cancel.is_stopping() {
            break;
        }
        let settings = Settings {
            population: runs.population,
            generations: runs.generations,
            seed: runs.seed.wrapping_add(i),
            ..Settings::default()
        };
        eprintln!(
            "{} run {} of {}: {} x {} generations, seed {}",
            fitness.letter(),
            i + 1,
            runs.count,
            settings.population,
            settings.generations,
            settings.seed
        );
        // Each better level is written at once, tagged unfinished, in the place the run's
        // level takes: a run stopped at its time limit, or killed, keeps the best it found.
        let mut unfinished_save = None;
        let run = ga::evolve_keeping_best(
            ga,
            &settings,
            &cancel,
            &mut |s| {
                eprintln!(
                    "  generation {}: {} feasible, best {}",
                    s.generation,
                    s.feasible,
                    s.best_feasible
                        .map_or("none yet".into(), |b| format!("{b:.3}"))
                );
            },
            &mut |generation, best| {
                if unfinished_save.is_some() {
                    return;
                }
                let mut so_far = pack.clone();
                let mut level = run_level(g, fitness, i, settings.seed, best);
                level.tags.insert(
                    1,
                    format!(
                        "unfinished: the best after generation {generation} of {}",
                        settings.generations
                    ),
                );
                so_far.levels.push(level);
                if let Err(e) = save(&so_far) {
                    unfinished_save = Some(e);
                }
            },
        );
        if let Some(e) = unfinished_save {
            return Err(e);
        }
        let Some(best) = run.feasible.into_iter().next() else {
            let nearest = run
                .infeasible
                .first()
                .map(|i| i.evaluation.failed().join("; "))
                .unwrap_or_default();
            eprintln!("  no feasible level (nearest: {nearest})");
            failed.push(settings.seed);
            continue;
        };
        eprintln!(
            "  kept: fitness {:.3}, mean group size {:.2}",
            best.evaluation.fitness(),
            evolve::mean_group_size(g, std::slice::from_ref(&best.cells))
        );
        let mut level = run_level(g, fitness, i, settings.seed, &best);
        if run.stopped {
            let last = run.history.last().map_or(0, |h| h.generation);
            level.tags.insert(
                1,
                format!(
                    "unfinished: stopped after generation {last} of {} (time limit)",
                    settings.generations
                ),
            );
        }
        pack.levels.push(level);
        save(&pack)?;
    }
    Ok((pack, failed))
}

/// The level run `i` (from 0) keeps, named and tagged with its seed, fitness and terms.
fn run_level(
    g: &'static VgdlGame,
    fitness: Fitness,
    i: u64,
    seed: u64,
    best: &ga::Individual<u8>,
) -> Level {
    let mut level = g.level(
        format!("{} {}", fitness.name(), i + 1),
        evolve::rows_of(g, &best.cells),
    );
    level.tags = vec![
        "generated".into(),
        format!("fi2pop-{}", fitness.name()),
        format!("seed {seed}"),
        format!("fitness {:.3}", best.evaluation.fitness()),
    ];
    for t in &best.evaluation.terms {
        level.tags.push(format!("{}: {}", t.name, t.text));
    }
    level
}

/// Runs `generate --vgdl`.
///
/// # Errors
/// A game or level that does not load, a pack that cannot be written, or no run finding a
/// feasible level.
pub fn generate(args: &GenerateArgs) -> Result<ExitCode> {
    let g = open_game(&args.vgdl)?;
    let fitness = if args.fitness == "beta" {
        Fitness::Beta
    } else {
        Fitness::Alpha
    };
    let template = template(g, &args.vgdl, args.level.as_deref())?;
    let mut out = studio_cli::pack_out::PackOut::new(&args.out)?;
    let mut ga = VgdlEvolution::new(g, template, fitness);
    ga.judging = Judging {
        length: length(args.ticks),
        pattern: pattern_term(args.ablate_harmful),
        ..Judging::default()
    };
    let runs = Runs {
        count: args.count,
        seed: args.seed,
        population: args.population,
        generations: args.generations,
    };
    let which = match args.shard {
        Some(shard) => {
            if shard.of > args.count as usize {
                bail!(
                    "--shard {}/{}: more parts than the {} runs asked (--count)",
                    shard.index,
                    shard.of,
                    args.count
                );
            }
            let block = shard.block(args.count as usize);
            block.start as u64..block.end as u64
        }
        None => 0..u64::from(args.count),
    };
    // Each run's level is on disk as soon as it is found.
    let (pack, failed) = evolve_pack(g, &ga, runs, which, &mut |p| {
        out.save(p)?;
        Ok(())
    })?;
    if let (Some(shard), true) = (args.shard, pack.levels.is_empty()) {
        // The merge needs every part: an empty one joins as nothing.
        out.save(&pack)?;
        eprintln!(
            "part {}/{}: no run found a feasible level (seeds {failed:?}); wrote the empty part \
             {} so the parts still merge",
            shard.index,
            shard.of,
            out.path().display()
        );
        return Ok(if studio_cli::time_limit::stopped() {
            ExitCode::from(studio_cli::time_limit::EXIT)
        } else {
            ExitCode::SUCCESS
        });
    }
    if pack.levels.is_empty() {
        bail!(
            "no run found a feasible level (seeds {failed:?}); nothing was written — try more \
             generations or a larger population"
        );
    }
    eprintln!(
        "wrote {} levels to {}{}",
        pack.levels.len(),
        out.path().display(),
        if failed.is_empty() {
            String::new()
        } else {
            format!(" (no feasible level with seeds {failed:?})")
        }
    );
    if studio_cli::time_limit::stopped() {
        eprintln!("stopped at its time limit (--time-limit): what was made is written");
        return Ok(ExitCode::from(studio_cli::time_limit::EXIT));
    }
    Ok(ExitCode::SUCCESS)
}
