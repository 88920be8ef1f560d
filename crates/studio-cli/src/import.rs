//! `import`: levels from other formats into a pack, through the importers the games add
//! ([`studio_core::formats`]). Nothing is written when nothing can be imported.

use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use studio_core::files;
use studio_core::formats::{self, ImportRequest};
use studio_core::level::Pack;

#[derive(Args, Debug)]
#[command(after_help = formats_help())]
pub struct ImportArgs {
    /// The format (listed below).
    #[arg(long)]
    pub format: String,
    /// The files or folders to read.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Seed of anything the import places by chance (the avatar, key and exit of a room).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The pack to write (.ron).
    #[arg(long)]
    pub out: PathBuf,
}

/// The importers, one per line, for `import --help`.
fn formats_help() -> String {
    let mut text = String::from("Formats:");
    for importer in formats::importers() {
        text.push_str(&format!("\n  {:<18} {}", importer.format, importer.help));
    }
    text
}

pub fn run(args: &ImportArgs) -> Result<ExitCode> {
    let importer = formats::importer(&args.format).map_err(|e| anyhow!(e))?;
    let imported = (importer.import)(&ImportRequest {
        paths: args.paths.clone(),
        seed: args.seed,
    })
    .map_err(|e| anyhow!(e))?;
    for skipped in &imported.skipped {
        eprintln!("skipped {skipped}");
    }
    if imported.levels.is_empty() {
        bail!(
            "no {} could be imported from {}; nothing was written",
            imported.noun,
            args.format
        );
    }
    let mut pack = Pack::new(imported.title);
    pack.levels = imported.levels;
    files::save_pack(&args.out, &pack)?;
    println!(
        "wrote {} {} to {}{}",
        pack.levels.len(),
        imported.noun,
        args.out.display(),
        if imported.skipped.is_empty() {
            String::new()
        } else {
            format!(" ({} skipped)", imported.skipped.len())
        }
    );
    Ok(ExitCode::SUCCESS)
}
