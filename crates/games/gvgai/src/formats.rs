//! GVGAI's own files: `import --format gvgai-vgdl` (and the window's File → Open GVGAI game…)
//! reads a game's description and every level beside it into a pack; `export --format
//! gvgai-vgdl` writes a pack of one GVGAI game back as GVGAI lays a game out, the description
//! and `NAME_lvlN.txt` level files, which GVGAI's engine runs as they are.

use crate::level::{self, open, VgdlGame};
use studio_core::formats::{Exporter, FormatError, ImportRequest, Imported, Importer};
use studio_core::level::Pack;

/// Imports a GVGAI game: its description and every level beside it (`NAME_lvlN.txt`).
///
/// # Errors
/// [`FormatError::Refused`] for a description that does not load (`FILE:LINE: why`),
/// [`FormatError::Io`] for a folder that cannot be listed, a level file that cannot be read.
pub fn import_game(path: &std::path::Path) -> Result<(Pack, Vec<String>), FormatError> {
    let text = crate::load::read_text(path).map_err(|e| FormatError::refused(format!("{e:#}")))?;
    let file = path.display().to_string();
    let game = open(&file, &text).map_err(FormatError::game)?;
    let stem = path
        .file_stem()
        .map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let folder = studio_core::io::folder_of(path);
    let mut levels: Vec<(usize, std::path::PathBuf)> = std::fs::read_dir(&folder)
        .map_err(FormatError::io(&folder))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let name = p.file_stem()?.to_string_lossy().into_owned();
            let n = name.strip_prefix(&format!("{stem}_lvl"))?.parse().ok()?;
            (p.extension().is_some_and(|x| x == "txt")).then_some((n, p))
        })
        .collect();
    levels.sort();
    let mut pack = Pack::new(studio_core::game::Game::name(game));
    pack.description = format!("{} and its levels, from {}", game.file(), folder.display());
    let mut notes = Vec::new();
    for (n, level_path) in levels {
        let text = crate::load::read_text(&level_path)
            .map_err(|e| FormatError::refused(format!("{e:#}")))?;
        let (rows, note) = game.rows_from_gvgai(&text);
        if let Some(note) = note {
            notes.push(format!("{}: {note}", level_path.display()));
        }
        if let Err(e) = game.check_rows(&rows) {
            notes.push(format!("{}: left out: {e}", level_path.display()));
            continue;
        }
        pack.levels.push(game.level(format!("level {n}"), rows));
    }
    Ok((pack, notes))
}

/// Reads each description named (a `GAME.txt` with its `GAME_lvlN.txt` levels beside it).
fn import(request: &ImportRequest) -> Result<Imported, FormatError> {
    let mut levels = Vec::new();
    let mut skipped = Vec::new();
    let mut title = String::new();
    if request.paths.is_empty() {
        return Err(FormatError::refused(
            "name a GVGAI game description (GAME.txt)",
        ));
    }
    for path in &request.paths {
        if path.is_dir() {
            return Err(FormatError::refused(format!(
                "{}: a folder; name the game's description (GAME.txt), whose levels \
                 (GAME_lvl0.txt, …) are read from beside it",
                path.display()
            )));
        }
        let (pack, notes) = import_game(path)?;
        if pack.levels.is_empty() {
            skipped.push(format!(
                "{}: no level file beside it (GAME_lvl0.txt, …): open a blank level of the \
                 game with File → New",
                path.display()
            ));
        }
        if title.is_empty() {
            title = pack.name.clone();
        }
        levels.extend(pack.levels);
        skipped.extend(notes);
    }
    Ok(Imported {
        levels,
        title,
        noun: "GVGAI levels".into(),
        skipped,
    })
}

/// Whether a file of this name is one the export writes (a `.txt`).
fn owns(name: &str) -> bool {
    name.ends_with(".txt")
}

/// Writes `pack` (levels of one GVGAI game) to the folder `dir`: the description as
/// `NAME.txt` and each level as `NAME_lvlN.txt`, N from 0.
///
/// # Errors
/// [`FormatError::Refused`] for a pack with no level, with levels of another game or of two
/// GVGAI games; a [`FormatError::File`] for a folder that cannot be written.
pub fn export_pack(dir: &std::path::Path, pack: &Pack) -> Result<usize, FormatError> {
    let first = pack
        .levels
        .first()
        .ok_or_else(|| FormatError::refused("the pack has no level to export"))?;
    let Some(g) = level::opened(first.game.as_str()) else {
        return Err(FormatError::refused(format!(
            "level 1 ({:?}) is a {} level: only levels of a GVGAI game export as gvgai-vgdl",
            first.name, first.game
        )));
    };
    for (i, level) in pack.levels.iter().enumerate() {
        if level.game != first.game {
            return Err(FormatError::refused(format!(
                "level {} ({:?}) is a {} level where level 1 is {}: a GVGAI export holds one \
                 game",
                i + 1,
                level.name,
                level.game,
                studio_core::game::Game::name(g)
            )));
        }
    }
    let stem = stem_of(g);
    let mut texts = vec![(format!("{stem}.txt"), description(g))];
    for (i, level) in pack.levels.iter().enumerate() {
        let mut text = level.cells.join("\n");
        text.push('\n');
        texts.push((format!("{stem}_lvl{i}.txt"), text));
    }
    let kind = studio_core::io::FolderExport {
        what: "GVGAI export",
        owns,
    };
    studio_core::io::export_folder(dir, kind, |fresh| {
        for (name, text) in &texts {
            studio_core::io::write_new(&fresh.join(name), text.as_bytes())?;
        }
        Ok(texts.len() - 1)
    })
}

fn stem_of(g: &VgdlGame) -> String {
    std::path::Path::new(g.file())
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned())
}

fn description(g: &VgdlGame) -> String {
    studio_core::game::Game::source(g).map_or(String::new(), |s| s.text)
}

/// The GVGAI importer.
pub const IMPORTER: Importer = Importer {
    format: "gvgai-vgdl",
    label: "GVGAI game (VGDL description and its levels)",
    help: "a GVGAI game's description, GAME.txt; its levels GAME_lvl0.txt, … are read from \
           beside it",
    menu: Some("Open GVGAI game…"),
    import,
};

/// The GVGAI exporter.
pub const EXPORTER: Exporter = Exporter {
    format: "gvgai-vgdl",
    label: "GVGAI game (VGDL description and its levels)",
    help: "a folder holding the game's description and its levels as GAME_lvlN.txt (packs of \
           one GVGAI game)",
    export: |dir, pack| {
        export_pack(dir, pack).map(|n| format!("{n} GVGAI level files and the description"))
    },
};
