//! Longcat graph figures on the command line (filled in by the Longcat engine).

use crate::level::Level;
use anyhow::{bail, Result};
use std::path::Path;

/// Prints the graph figures of a Longcat level.
pub fn report_level(path: &Path, _level: &Level, _many: bool, _as_json: bool) -> Result<()> {
    bail!("{}: Longcat levels are not supported yet", path.display())
}
