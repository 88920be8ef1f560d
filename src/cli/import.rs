//! `import`: levels from other formats into a pack (GVGAI Zelda text, the VGLC Zelda
//! dungeons as rooms, VGLC Lode Runner levels as blend segments). Nothing is written when
//! nothing can be imported.

use crate::dungeon::game::to_level;
use crate::dungeon::import::{gvgai_room, vglc_dir};
use crate::files;
use crate::level::Pack;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// gvgai-zelda (GVGAI Zelda level files), vglc-zelda (a folder of VGLC Zelda dungeons, or
    /// its parent) or vglc-lode-runner (VGLC Lode Runner level files or their folder: each
    /// level's four 16 × 16 quadrants as blend segments).
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
        other => bail!("unknown format {other:?} (gvgai-zelda, vglc-zelda, vglc-lode-runner)"),
    });
    if args.format == "vglc-lode-runner" {
        return lode_runner(args, pack);
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
        let text = files::read_text(path)?;
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
