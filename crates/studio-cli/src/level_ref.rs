//! Levels named on the command line: a level file (RON, JSON, ASCII), or one level of a pack
//! as `PACK#NAME` or `PACK#N` (1-based): the levels `interpolate` walks between and the level
//! `generate --inpaint` regenerates a region of.

use anyhow::{bail, Result};
use std::path::Path;
use studio_core::files;
use studio_core::level::Level;

/// Splits `PACK#WHICH` (a `#` after the file's extension) from a plain path.
fn split_ref(text: &str) -> (&str, Option<&str>) {
    match text.rsplit_once('#') {
        Some((path, which)) if !which.is_empty() && Path::new(path).extension().is_some() => {
            (path, Some(which))
        }
        _ => (text, None),
    }
}

/// The level a reference names.
///
/// # Errors
/// A file that cannot be read, a pack without the named level, or a pack given without `#`.
pub fn resolve(reference: &str) -> Result<Level> {
    let (path, which) = split_ref(reference);
    let mut levels = files::load_levels(Path::new(path))?;
    let Some(which) = which else {
        return match levels.len() {
            1 => Ok(levels.remove(0)),
            n => bail!("{path} holds {n} levels: name one as {path}#NAME or {path}#1…{n}"),
        };
    };
    if let Some(i) = levels.iter().position(|l| l.name == which) {
        return Ok(levels.remove(i));
    }
    match which.parse::<usize>() {
        Ok(k) if (1..=levels.len()).contains(&k) => Ok(levels.remove(k - 1)),
        _ => bail!(
            "{path} has no level named {which:?} (and {} levels by number)",
            levels.len()
        ),
    }
}
