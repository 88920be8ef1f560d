//! `import`: levels from other formats into a pack (GVGAI Zelda text, the VGLC Zelda
//! dungeons). Nothing is written when nothing can be imported.

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
    /// gvgai-zelda (GVGAI Zelda level files) or vglc-zelda (a folder of VGLC Zelda dungeons,
    /// or its parent).
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
        other => bail!("unknown format {other:?} (gvgai-zelda, vglc-zelda)"),
    });
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
