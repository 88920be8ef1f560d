//! `interpolate A B --model M --steps N [--validate] --out PACK`: the latent walk of the
//! window's Interpolation window, headless. A and B are level
//! files (RON, JSON, ASCII) or one level of a pack, `pack.ron#name` or `pack.ron#3`.

use crate::level_ref::resolve;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use studio_core::files;
use studio_core::game::{self, GameId, LevelGenerator, ModelCache};
use studio_core::generation;
use studio_core::jobs::Cancel;
use studio_core::level::Pack;

#[derive(Args, Debug)]
pub struct InterpolateArgs {
    /// Level A: a level file, or `PACK#NAME` / `PACK#N` (1-based) for one level of a pack.
    pub a: String,
    /// Level B, as A.
    pub b: String,
    /// A generator of A's game with a latent space (`avalon`, `vglc-fc`, `cte-cnn`, …), or a
    /// level VAE file (`FILE.safetensors`).
    #[arg(long)]
    pub model: String,
    /// In-between levels, 1 to 100.
    #[arg(long, default_value_t = 5, value_parser = super::bounds::STEPS.parser::<u64>())]
    pub steps: u64,
    /// Analyse every level (bots, agents) and keep the figures with it.
    #[arg(long)]
    pub validate: bool,
    /// Output pack (.ron): the model's A, the in-betweens, the model's B.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs the walk and writes the pack.
///
/// # Errors
/// Unreadable levels, levels of two games, a generator without a latent space, a model that
/// cannot be loaded, or a pack that cannot be written.
pub fn run(args: &InterpolateArgs) -> Result<ExitCode> {
    let (a, b) = (resolve(&args.a)?, resolve(&args.b)?);
    if a.game != b.game {
        bail!(
            "A is a {} level and B a {} level: a walk stays in one game",
            a.game,
            b.game
        );
    }
    let game_id: GameId = a.game;
    let game = game_id.game().map_err(|e| anyhow!("{e}"))?;
    let model = if crate::level_vae::is_model_file(&args.model) {
        crate::level_vae::register_model(Path::new(&args.model))?
            .id()
            .to_string()
    } else {
        args.model.clone()
    };
    let generator = game::generator_of(game, &model).map_err(|e| anyhow!(e))?;
    if !generator.has_latent() {
        let latent: Vec<&str> = game::generators_of(game)
            .iter()
            .filter(|g| g.has_latent())
            .map(|g| g.id())
            .collect();
        bail!(
            "{} has no latent space to walk; {} generators with one: {}",
            generator.label(),
            game.name(),
            if latent.is_empty() {
                "none".to_string()
            } else {
                latent.join(", ")
            }
        );
    }
    let models = ModelCache::new(Path::new("models"));
    let walk = generator
        .interpolate(&a, &b, args.steps as usize, &models)
        .map_err(|e| anyhow!("{e}"))?;
    let mut levels = vec![walk.start];
    levels.extend(walk.between);
    levels.push(walk.end);
    let cancel = Cancel::default();
    let mut pack = Pack::new(format!("{} to {}", a.name, b.name));
    pack.description = format!(
        "{} steps from {} to {} through {}'s latent space",
        args.steps,
        a.name,
        b.name,
        generator.label()
    );
    let n = levels.len();
    for (i, level) in levels.into_iter().enumerate() {
        let t = i as f64 / (n - 1) as f64;
        let name = level.name.clone();
        let level = if args.validate {
            let c = generation::candidate(game_id, generator.id(), level, name, &cancel)
                .map_err(|e| anyhow!("{e}"))?;
            println!(
                "t = {t:.2}  {:<10} {}",
                c.verdict.label,
                c.difficulty
                    .map_or(String::new(), |d| game.difficulty_text(d))
            );
            c.level
        } else {
            level
        };
        pack.levels.push(level);
    }
    files::save_pack(&args.out, &pack)?;
    println!(
        "wrote {} levels (the model's A, {} in-betweens, the model's B) to {}",
        pack.levels.len(),
        args.steps,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
