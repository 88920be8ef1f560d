//! Reading a game and a level from files, every problem named with its file and line.

use anyhow::{Context, Result};
use std::path::Path;
use std::sync::Arc;
use vgdl::{GameDesc, LevelDesc, Rules};

/// A game ready to run: its description, compiled rules and the file it came from.
#[derive(Clone, Debug)]
pub struct Game {
    /// The description as read.
    pub desc: GameDesc,
    /// The rules the engine runs.
    pub rules: Arc<Rules>,
}

/// The largest description or level file read (GVGAI's biggest are a few kilobytes).
const MAX_FILE: u64 = 1 << 20;

/// A description or level file's text (at most 1 MiB, a regular file).
///
/// # Errors
/// A file that cannot be read, is not a regular file or is larger than that.
pub fn read_text(path: &Path) -> Result<String> {
    let meta = std::fs::metadata(path).with_context(|| format!("{}", path.display()))?;
    anyhow::ensure!(meta.is_file(), "{}: not a regular file", path.display());
    anyhow::ensure!(
        meta.len() <= MAX_FILE,
        "{}: {} bytes is more than a VGDL file holds (at most {MAX_FILE})",
        path.display(),
        meta.len()
    );
    std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))
}

/// Reads and compiles the game description at `path`.
///
/// # Errors
/// A file that cannot be read, a description that does not read (`FILE:LINE: why`), or a
/// feature the engine does not run yet (`FILE:LINE: which`).
pub fn game(path: &Path) -> Result<Game> {
    let text = read_text(path)?;
    let file = path.display().to_string();
    let desc = vgdl::parse(&text, &file)?;
    let rules = Arc::new(vgdl::compile(&desc, &file)?);
    Ok(Game { desc, rules })
}

/// Reads the level at `path` for `game`.
///
/// # Errors
/// A file that cannot be read or holds no row.
pub fn level(game: &Game, path: &Path) -> Result<LevelDesc> {
    let text = read_text(path)?;
    Ok(vgdl::read_level(
        &game.desc,
        &text,
        &path.display().to_string(),
    )?)
}
