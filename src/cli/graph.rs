//! `graph FILE [--json] [--dot OUT]`: Longcat state graph figures (owned by the Longcat engine).

use crate::level::Level;
use anyhow::{bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct GraphArgs {
    /// A Longcat level file.
    pub file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the graph in Graphviz DOT format here.
    #[arg(long)]
    pub dot: Option<PathBuf>,
    /// Largest number of states to explore before giving up.
    #[arg(long, default_value_t = 200_000)]
    pub budget: usize,
}

pub fn run(args: &GraphArgs) -> Result<ExitCode> {
    bail!("{}: the Longcat graph is not available yet", args.file.display())
}

/// Prints the graph figures of a Longcat level (used by `validate`).
pub fn report_level(path: &Path, _level: &Level, _many: bool, _as_json: bool) -> Result<()> {
    bail!("{}: Longcat levels are not supported yet", path.display())
}
