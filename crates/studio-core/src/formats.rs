//! Formats other tools write and read, added by the games that own them: an [`Importer`]
//! turns files into levels of a pack (`import --format`), an [`Exporter`] writes a pack out
//! (`export --format`). A game's plug-in adds them to the registry
//! ([`Registry::add`](crate::game::registry::Registry::add)); the command line (and the
//! window's File menu) list [`importers`] and [`exporters`] without naming a game.

use crate::game::registry;
use crate::level::{Level, Pack};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What an import is asked for.
#[derive(Clone, Debug)]
pub struct ImportRequest {
    /// The files or folders named.
    pub paths: Vec<PathBuf>,
    /// Seed of anything the import places by chance.
    pub seed: u64,
}

/// What an import made.
#[derive(Clone, Debug, Default)]
pub struct Imported {
    /// The levels, in the order of the files.
    pub levels: Vec<Level>,
    /// The pack's title ("Imported rooms (seed 3)").
    pub title: String,
    /// What one level is called in the summary ("rooms", "segments").
    pub noun: String,
    /// Files or parts left out, each with why (printed, not fatal).
    pub skipped: Vec<String>,
}

/// A format a game reads levels from.
#[derive(Clone, Copy, Debug)]
pub struct Importer {
    /// Its name on the command line (`gvgai-text`).
    pub format: &'static str,
    /// Its name in the window's menus ("GVGAI Zelda levels").
    pub label: &'static str,
    /// What it reads, for help texts ("level files or their folder").
    pub help: &'static str,
    /// A File menu item of its own besides File > Import ("Open GVGAI game…"), for a format
    /// that brings a whole game with it.
    pub menu: Option<&'static str>,
    /// Reads the files.
    pub import: fn(&ImportRequest) -> Result<Imported, String>,
}

/// A format a game writes a pack to.
#[derive(Clone, Copy, Debug)]
pub struct Exporter {
    /// Its name on the command line (`level-text`).
    pub format: &'static str,
    /// Its name in the window's menus ("VGLC Super Mario Bros levels").
    pub label: &'static str,
    /// What it writes, for help texts.
    pub help: &'static str,
    /// Writes `pack` to the folder or file `out`; answers what was written, in words
    /// ("12 level files").
    pub export: fn(&Path, &Pack) -> Result<String, String>,
}

/// The importers the installed games add, in the order they were added.
pub fn importers() -> Vec<Arc<Importer>> {
    registry::entries::<Importer>()
}

/// The exporters the installed games add, in the order they were added.
pub fn exporters() -> Vec<Arc<Exporter>> {
    registry::entries::<Exporter>()
}

/// The importer named `format`.
///
/// # Errors
/// No importer has that name: the error lists the known ones.
pub fn importer(format: &str) -> Result<Arc<Importer>, String> {
    let all = importers();
    all.iter()
        .find(|i| i.format == format)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|i| i.format).collect();
            format!("unknown format {format:?} ({})", names.join(", "))
        })
}

/// The files an import reads: each path that is a file, and the files of each folder whose
/// name ends in `.extension` (sorted by name).
///
/// # Errors
/// A folder that cannot be listed, named.
pub fn files_in(paths: &[PathBuf], extension: &str) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == extension))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// A file's name without its extension, as a level name (`fallback` when it has none).
pub fn stem(path: &Path, fallback: &str) -> String {
    path.file_stem()
        .map_or(fallback.into(), |s| s.to_string_lossy().into_owned())
}
