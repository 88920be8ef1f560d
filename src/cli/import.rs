//! `import`: levels from other formats into a pack (GVGAI Zelda text, the VGLC Zelda
//! dungeons as rooms, VGLC Lode Runner levels as blend segments). Nothing is written when
//! nothing can be imported.

use crate::dungeon::game::to_level;
use crate::dungeon::import::{gvgai_room, vglc_dir};
use crate::files;
use crate::io;
use crate::level::Pack;
use crate::mario::formats::{self as mario_formats, Format};
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// gvgai-zelda (GVGAI Zelda level files), vglc-zelda (a folder of VGLC Zelda dungeons, or
    /// its parent), vglc-lode-runner (VGLC Lode Runner level files or their folder: each
    /// level's four 16 × 16 quadrants as blend segments), vglc-mario (VGLC Super Mario Bros
    /// level files or their folder) or mario-ai (Mario AI Framework level files or a folder).
    #[arg(long)]
    pub format: String,
    /// The files (gvgai-zelda) or the folder (vglc-zelda).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Seed of the avatar, key and exit placement (vglc-zelda).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The pack to write (.ron).
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &ImportArgs) -> Result<ExitCode> {
    let mut pack = Pack::new(match args.format.as_str() {
        "gvgai-zelda" => "GVGAI Zelda".to_string(),
        "vglc-zelda" => format!("VGLC Zelda (seed {})", args.seed),
        "vglc-lode-runner" => "VGLC Lode Runner segments".to_string(),
        "vglc-mario" => "VGLC Super Mario Bros".to_string(),
        "mario-ai" => "Mario AI Framework levels".to_string(),
        other => bail!(
            "unknown format {other:?} (gvgai-zelda, vglc-zelda, vglc-lode-runner, vglc-mario, \
             mario-ai)"
        ),
    });
    match args.format.as_str() {
        "vglc-lode-runner" => return lode_runner(args, pack),
        "vglc-mario" => return mario(args, pack, Format::Vglc),
        "mario-ai" => return mario(args, pack, Format::MarioAi),
        _ => {}
    }
    let mut skipped = 0;
    match args.format.as_str() {
        "gvgai-zelda" => {
            for path in &args.paths {
                let room = gvgai_room(path)?;
                let name = path
                    .file_stem()
                    .map_or("room".into(), |s| s.to_string_lossy().into_owned());
                pack.levels.push(to_level(&room, name));
            }
        }
        _ => {
            let [dir] = args.paths.as_slice() else {
                bail!("vglc-zelda takes one folder");
            };
            for imported in vglc_dir(dir, args.seed)? {
                match imported.room {
                    Ok(room) => pack.levels.push(to_level(&room, imported.name)),
                    Err(e) => {
                        skipped += 1;
                        eprintln!("skipped {}: {e}", imported.name);
                    }
                }
            }
        }
    }
    if pack.levels.is_empty() {
        bail!("no room could be imported; nothing was written");
    }
    files::save_pack(&args.out, &pack)?;
    println!(
        "wrote {} rooms to {}{}",
        pack.levels.len(),
        args.out.display(),
        if skipped > 0 {
            format!(" ({skipped} without floor skipped)")
        } else {
            String::new()
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// Lode Runner levels (files, or folders holding "Level N.txt") as blend segments: each
/// level's four quadrants, top and bottom overlapping by 10 rows.
fn lode_runner(args: &ImportArgs, mut pack: Pack) -> Result<ExitCode> {
    use crate::blend::data::{lode_runner_files, lode_runner_segments};
    let mut files = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            files.extend(lode_runner_files(path)?);
        } else {
            files.push(path.clone());
        }
    }
    for path in &files {
        let text = io::read_text(path)?;
        for segment in lode_runner_segments(path, &text)? {
            pack.levels
                .push(crate::blend::generators::segment_level(&segment));
        }
    }
    if pack.levels.is_empty() {
        bail!("no Lode Runner level could be imported; nothing was written");
    }
    files::save_pack(&args.out, &pack)?;
    println!(
        "wrote {} segments of {} Lode Runner levels to {}",
        pack.levels.len(),
        files.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Mario levels (files, or folders of `.txt` files, sorted by name) in the VGLC's or the Mario
/// AI Framework's text. A file that is not a level is refused with its name, row and column,
/// and nothing is written.
fn mario(args: &ImportArgs, mut pack: Pack, format: Format) -> Result<ExitCode> {
    let mut paths = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect();
            found.sort();
            paths.extend(found);
        } else {
            paths.push(path.clone());
        }
    }
    for path in &paths {
        let text = io::read_text(path)?;
        let level = match format {
            Format::Vglc => mario_formats::read_vglc(&text),
            Format::MarioAi => mario_formats::read_mario_ai(&text),
        }
        .map_err(|e| anyhow::anyhow!("{}: {e}; nothing was written", path.display()))?;
        let name = path
            .file_stem()
            .map_or("level".into(), |s| s.to_string_lossy().into_owned());
        pack.levels.push(crate::mario::game::to_level(&level, name));
    }
    if pack.levels.is_empty() {
        bail!("no {} level found; nothing was written", format.name());
    }
    files::save_pack(&args.out, &pack)?;
    println!(
        "wrote {} Mario levels to {}",
        pack.levels.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
