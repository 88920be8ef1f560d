//! `export PACK --format json|png --out FILE`: the JSON export, or a labelled PNG sheet (the
//! bar under each level: green when its stored figures pass, red when they fail, grey when
//! it has none).

use crate::files;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The pack to export (.ron).
    pub pack: PathBuf,
    /// Output format.
    #[arg(long, default_value = "json")]
    pub format: String,
    /// Where to write.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &ExportArgs) -> Result<ExitCode> {
    let pack = files::load_pack(&args.pack)?;
    match args.format.as_str() {
        "json" => files::export_pack_json(&args.out, &pack)?,
        "png" => {
            let good = |i: usize| {
                let level = &pack.levels[i];
                level.game.game().ok()?.stored_verdict(level)
            };
            crate::export::export_png(&args.out, &pack, good).map_err(|e| anyhow::anyhow!(e))?
        }
        other => bail!("unknown export format {other:?} (json, png)"),
    }
    println!(
        "exported {} levels to {}",
        pack.levels.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
