//! Reading and writing levels and packs: RON, JSON export and ASCII input. Saves are atomic
//! (a temporary file in the same folder, then a rename), and every parse error names the file,
//! line and column.

use crate::game::AsciiError;
use crate::grid::GridError;
pub use crate::io::FileError;
use crate::io::{from_json, from_ron, read_regular_text, read_text, to_ron, write_atomic};
use crate::level::{Game, Level, Pack};
use std::path::Path;

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn read(path: &Path) -> Result<String, FileError> {
    read_text(path)
}

/// Checks that a level's cells make a level of its game (looked up in the registry).
///
/// # Errors
/// [`FileError::Level`] naming the level and the problem.
pub fn check_level(path: &Path, level: &Level) -> Result<(), FileError> {
    let problem = match level.game.game() {
        Ok(game) => game.check(&level.cells).err().map(|e| e.to_string()),
        Err(e) => Some(e.to_string()),
    }
    .or_else(|| level.non_finite_number());
    match problem {
        Some(message) => Err(FileError::Level {
            path: path.to_path_buf(),
            level: level.name.clone(),
            message,
        }),
        None => Ok(()),
    }
}

/// How many characters of `text` are not tiles of `game` (to pick which game's error to
/// report when no game reads the text).
fn foreign_chars(game: &dyn crate::game::Game, text: &str) -> usize {
    text.chars()
        .filter(|c| !c.is_whitespace() && !game.tiles().iter().any(|t| t.ascii == *c))
        .count()
}

/// Builds a level from ASCII art. With `game`, the text is read as that game's level;
/// without, the game is the one whose tiles the text uses. Text whose characters are tiles of
/// several games (a grid that reads as a level of two games) is refused with
/// the reason: ASCII carries no game, so it must be named (`--game`).
///
/// # Errors
/// [`FileError::Parse`] for a bad character or ragged rows (with line and column),
/// [`FileError::Level`] for a bad size or content, or text whose game is ambiguous.
pub fn level_from_ascii(path: &Path, text: &str, game: Option<Game>) -> Result<Level, FileError> {
    ascii_level(path, text, game, None)
}

/// As [`level_from_ascii`] without a named game, but text that fits several games is read as
/// `hint`'s when it is one of them (the window reads it as the game on the canvas).
///
/// # Errors
/// As [`level_from_ascii`].
pub fn level_from_ascii_hinted(path: &Path, text: &str, hint: Game) -> Result<Level, FileError> {
    ascii_level(path, text, None, Some(hint))
}

fn ascii_level(
    path: &Path,
    text: &str,
    game: Option<Game>,
    hint: Option<Game>,
) -> Result<Level, FileError> {
    if text.trim().is_empty() {
        return Err(FileError::Empty {
            path: path.to_path_buf(),
        });
    }
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("level")
        .to_string();
    let file_error = |e: AsciiError| match e {
        AsciiError::Grid(g) => {
            let (line, column) = match g {
                GridError::Ragged { line, .. } => (line, 1),
                GridError::UnknownChar { line, column, .. } => (line, column),
                GridError::Empty => (1, 1),
            };
            FileError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: g.to_string(),
            }
        }
        AsciiError::Level(message) => FileError::Level {
            path: path.to_path_buf(),
            level: name.clone(),
            message,
        },
    };
    let level_error = |message: String| FileError::Level {
        path: path.to_path_buf(),
        level: name.clone(),
        message,
    };
    if let Some(id) = game {
        let game = id.game().map_err(|e| level_error(e.to_string()))?;
        return game.level_from_ascii(&name, text).map_err(file_error);
    }
    let games = crate::game::games();
    // The games whose tiles are every character of the text.
    let fitting: Vec<_> = games
        .iter()
        .filter(|g| foreign_chars(**g, text) == 0)
        .collect();
    if fitting.len() > 1 {
        if let Some(g) = fitting.iter().find(|g| Some(g.id()) == hint) {
            return g.level_from_ascii(&name, text).map_err(file_error);
        }
        // Only a guess needs the game named: when no game takes the text, its error is
        // what the designer needs (a ragged row, a bad size).
        let results: Vec<_> = fitting
            .iter()
            .map(|g| g.level_from_ascii(&name, text))
            .collect();
        if results.iter().all(Result::is_err) {
            if let Some(Err(e)) = results.into_iter().next() {
                return Err(file_error(e));
            }
        }
        let mut used: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        used.sort_unstable();
        used.dedup();
        let names: Vec<&str> = fitting.iter().map(|g| g.id().as_str()).collect();
        return Err(level_error(format!(
            "its characters ({}) are tiles of several games ({}), and ASCII art does not say \
             which; name the game (--game {})",
            used.iter()
                .map(|c| format!("'{c}'"))
                .collect::<Vec<_>>()
                .join(" "),
            names.join(", "),
            names.join(" or --game ")
        )));
    }
    let tries: Vec<_> = games
        .iter()
        .map(|g| (*g, g.level_from_ascii(&name, text)))
        .collect();
    let best = tries
        .into_iter()
        .min_by_key(|(g, r)| (r.is_err(), foreign_chars(*g, text)));
    match best {
        Some((_, result)) => result.map_err(file_error),
        None => Err(level_error("no game is registered".into())),
    }
}

/// Loads one level: `.ron` (a level file), `.json`, or anything else as ASCII art.
///
/// # Errors
/// [`FileError`] naming the file, and the line and column where the text is malformed.
pub fn load_level(path: &Path) -> Result<Level, FileError> {
    load_level_hinted(path, None)
}

/// As [`load_level`]; ASCII art whose characters fit several games is read as `hint`'s when
/// it is one of them.
///
/// # Errors
/// As [`load_level`].
pub fn load_level_hinted(path: &Path, hint: Option<Game>) -> Result<Level, FileError> {
    let text = read(path)?;
    let level: Level = match extension(path).as_str() {
        "ron" => from_ron(path, &text)?,
        "json" => from_json(path, &text)?,
        _ => return ascii_level(path, &text, None, hint),
    };
    check_level(path, &level)?;
    Ok(level)
}

/// Loads a pack from RON (or from its JSON export).
///
/// # Errors
/// [`FileError`] naming the file, line and column, or the first bad level.
pub fn load_pack(path: &Path) -> Result<Pack, FileError> {
    pack_type(path)?;
    parse_pack(path, &read(path)?)
}

/// Refuses a file whose extension is not a pack's (`.ron` or `.json`).
fn pack_type(path: &Path) -> Result<(), FileError> {
    match extension(path).as_str() {
        "ron" | "json" => Ok(()),
        _ => Err(FileError::UnknownType {
            path: path.to_path_buf(),
            expected: ".ron or .json",
        }),
    }
}

/// A pack from its RON or JSON text (the extension of `path` says which), migrated and
/// checked level by level.
fn parse_pack(path: &Path, text: &str) -> Result<Pack, FileError> {
    read_pack(path, text, extension(path) == "json")
}

/// A pack file's fields with its levels still text: the first phase of reading a pack.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PackText<L> {
    #[serde(default = "Pack::format_version")]
    format: u32,
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    sources: Vec<crate::game::GameSource>,
    levels: L,
}

impl<L> PackText<L> {
    /// The same fields, the levels' text seen through `f`.
    fn map<M>(self, f: impl FnOnce(L) -> M) -> PackText<M> {
        PackText {
            format: self.format,
            name: self.name,
            description: self.description,
            sources: self.sources,
            levels: f(self.levels),
        }
    }
}

/// Reads a pack in three phases: its fields, with the levels kept as text; the games its
/// sources describe, registered; then the levels, whose games are known by then. Migrated
/// and checked level by level.
fn read_pack(path: &Path, text: &str, json: bool) -> Result<Pack, FileError> {
    let head: PackText<&str> = if json {
        let head: PackText<&serde_json::value::RawValue> = from_json(path, text)?;
        head.map(|raw| raw.get())
    } else {
        let head: PackText<&ron::value::RawValue> = from_ron(path, text)?;
        head.map(|raw| raw.get_ron())
    };
    crate::game::registry::load_sources(&head.sources).map_err(|error| FileError::Source {
        path: path.to_path_buf(),
        error: Box::new(error),
    })?;
    let pack = Pack {
        format: head.format,
        name: head.name,
        description: head.description,
        sources: head.sources,
        levels: crate::io::from_part(path, text, head.levels, json)?,
    };
    let pack = migrate(path, pack)?;
    for level in &pack.levels {
        check_level(path, level)?;
    }
    Ok(pack)
}

/// Brings a pack of an older format up to this one; refuses a newer one.
///
/// # Errors
/// [`FileError::NewerFormat`].
pub fn migrate(path: &Path, mut pack: Pack) -> Result<Pack, FileError> {
    let supported = Pack::format_version();
    if pack.format > supported {
        return Err(FileError::NewerFormat {
            path: path.to_path_buf(),
            found: pack.format,
            supported,
        });
    }
    // Format 0 (unversioned) and 1 hold the same fields: only the number changes.
    pack.format = supported;
    Ok(pack)
}

/// Loads the levels of a file that may be a pack or a single level (RON or JSON) or ASCII.
///
/// # Errors
/// As [`load_level`]; a RON file that is neither a pack nor a level reports the level parse
/// error.
pub fn load_levels(path: &Path) -> Result<Vec<Level>, FileError> {
    load_levels_as(path, None)
}

/// As [`load_levels`], reading ASCII art as a level of `game` when it is given.
///
/// # Errors
/// As [`load_levels`].
pub fn load_levels_as(path: &Path, game: Option<Game>) -> Result<Vec<Level>, FileError> {
    match extension(path).as_str() {
        "ron" | "json" => Ok(match load_pack_or_level(path)? {
            Loaded::Pack(pack) => pack.levels,
            Loaded::Level(level) => vec![*level],
        }),
        _ => level_from_ascii(path, &read(path)?, game).map(|l| vec![l]),
    }
}

/// What a RON or JSON file holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    /// A pack of levels.
    Pack(Pack),
    /// One level.
    Level(Box<Level>),
}

/// Loads a RON or JSON file that holds a pack or one level. A file with a `levels` field is a
/// pack, and its errors are reported as the pack's (the line and column of the bad value, as
/// `export` reports them); any other file is a level.
///
/// # Errors
/// [`FileError`] naming the file, line and column, or the first bad level.
pub fn load_pack_or_level(path: &Path) -> Result<Loaded, FileError> {
    parse_pack_or_level(path, &read(path)?)
}

/// As [`load_pack_or_level`] on text already read (`path` names it and its extension says
/// JSON or RON).
///
/// # Errors
/// As [`load_pack_or_level`].
pub fn parse_pack_or_level(path: &Path, text: &str) -> Result<Loaded, FileError> {
    let json = extension(path) == "json";
    let parse_pack = |text: &str| read_pack(path, text, json);
    let parse_level = |text: &str| -> Result<Level, FileError> {
        let level: Level = if json {
            from_json(path, text)?
        } else {
            from_ron(path, text)?
        };
        check_level(path, &level)?;
        Ok(level)
    };
    if has_levels_field(text) {
        match parse_pack(text) {
            Ok(pack) => Ok(Loaded::Pack(pack)),
            // A level whose text merely mentions "levels:" (in a name) is still a level.
            Err(pack_error) => parse_level(text)
                .map(|l| Loaded::Level(Box::new(l)))
                .map_err(|_| pack_error),
        }
    } else {
        parse_level(text).map(|l| Loaded::Level(Box::new(l)))
    }
}

/// Whether RON or JSON text has a `levels` field (`levels:` or `"levels":`).
fn has_levels_field(text: &str) -> bool {
    text.match_indices("levels").any(|(at, word)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].trim_start_matches('"').trim_start();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.starts_with(':')
    })
}

/// Saves a level as RON, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn save_level(path: &Path, level: &Level) -> Result<(), FileError> {
    write_atomic(path, to_ron(level)?.as_bytes())
}

/// Saves a pack as RON, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn save_pack(path: &Path, pack: &Pack) -> Result<(), FileError> {
    write_atomic(path, to_ron(pack)?.as_bytes())
}

/// Writes a pack's JSON export, atomically.
///
/// # Errors
/// [`FileError::Io`].
pub fn export_pack_json(path: &Path, pack: &Pack) -> Result<(), FileError> {
    // JSON has no NaN: serde would write `null`, which does not read back.
    for level in &pack.levels {
        if let Some(message) = level.non_finite_number() {
            return Err(FileError::Level {
                path: path.to_path_buf(),
                level: level.name.clone(),
                message: format!("{message}; validate the level again before exporting"),
            });
        }
    }
    let mut s =
        serde_json::to_string_pretty(pack).map_err(|e| FileError::Serialise(e.to_string()))?;
    s.push('\n');
    write_atomic(path, s.as_bytes())
}

/// Loads a pack as [`load_pack`] does, read with [`read_regular_text`]: the packs the window
/// reopens at start.
///
/// # Errors
/// As [`load_pack`] and [`read_regular_text`].
pub fn load_regular_pack(path: &Path) -> Result<Pack, FileError> {
    pack_type(path)?;
    parse_pack(path, &read_regular_text(path)?)
}
