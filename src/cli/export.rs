//! `export PACK --format json --out FILE`.

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
        other => bail!("unknown export format {other:?} (json)"),
    }
    println!(
        "exported {} levels to {}",
        pack.levels.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
