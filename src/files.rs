//! Reading and writing levels and packs: RON, JSON export and ASCII input. Saves are atomic
//! (a temporary file in the same folder, then a rename), and every parse error names the file,
//! line and column.

use crate::game::AsciiError;
use crate::grid::GridError;
use crate::level::{Game, Level, Pack};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What went wrong with a file, always naming it.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error (not a `source`: the message already says it, and a
        /// chain would print it twice).
        error: std::io::Error,
    },
    /// The RON or JSON text is malformed or has the wrong shape.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line of the error, counted from 1.
        line: usize,
        /// The column of the error, counted from 1.
        column: usize,
        /// What the parser expected or found.
        message: String,
    },
    /// The cells of a level are not a valid level of its game.
    #[error("{path}: level {level:?}: {message}")]
    Level {
        /// The file.
        path: PathBuf,
        /// The level's name.
        level: String,
        /// What is wrong with its cells.
        message: String,
    },
    /// The pack was written by a newer studio; it is refused and never rewritten.
    #[error("{path}: pack format {found} is newer than this studio reads (up to {supported}); open it with a newer Level Studio")]
    NewerFormat {
        /// The pack file.
        path: PathBuf,
        /// The format version written in the file.
        found: u32,
        /// The newest format version this studio reads.
        supported: u32,
    },
    /// The file's extension says nothing the studio can read here.
    #[error("{path}: unknown file type (expected {expected})")]
    UnknownType {
        /// The file.
        path: PathBuf,
        /// The extensions that are read here, in words (".ron or .json").
        expected: &'static str,
    },
    /// The file is larger than the studio reads.
    #[error("{path}: larger than {} MiB; not a level, pack or model file the studio reads", limit / (1024 * 1024))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// A file read at start (settings, session, recovery, a pack reopened) that is not a
    /// regular file: a FIFO could block the start and a device never end, so it is not read.
    #[error("{path}: not read: it is {kind}, not a regular file")]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead, in words ("a FIFO (named pipe)", "a device", "a folder").
        kind: &'static str,
    },
    /// A save target that must not be replaced (a link, a device, a read-only file).
    #[error("{path}: not replaced: {reason}")]
    Refused {
        /// The target.
        path: PathBuf,
        /// Why, in words.
        reason: String,
    },
    /// A value could not be written as RON or JSON (a number the format cannot hold).
    #[error("could not write the data: {0}")]
    Serialise(String),
    /// Another process is writing the same file (see [`crate::lock`]).
    #[error(transparent)]
    Locked(#[from] crate::lock::LockError),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
    move |error| FileError::Io {
        path: path.to_path_buf(),
        error,
    }
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Pretty RON for levels and packs: one row of cells a line, short lists on one line.
///
/// # Errors
/// [`FileError::Serialise`] when RON cannot hold a value.
pub fn to_ron<T: Serialize>(value: &T) -> Result<String, FileError> {
    let config = ron::ser::PrettyConfig::new()
        .compact_arrays(true)
        .struct_names(false)
        .indentor("  ");
    let mut s = ron::ser::to_string_pretty(value, config)
        .map_err(|e| FileError::Serialise(e.to_string()))?;
    s.push('\n');
    Ok(s)
}

/// Parses RON text, mapping errors to the file's line and column.
///
/// # Errors
/// [`FileError::Parse`].
pub fn from_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    ron::from_str(text).map_err(|e| FileError::Parse {
        path: path.to_path_buf(),
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    })
}

/// Parses JSON text, mapping errors to the file's line and column.
///
/// # Errors
/// [`FileError::Parse`].
pub fn from_json<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    serde_json::from_str(text).map_err(|e| FileError::Parse {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

/// The folder a file is in (`.` for a bare name).
pub fn folder_of(path: &Path) -> PathBuf {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// The first `max` bytes of `name`, cut at a character boundary.
pub fn truncate_name(name: &str, max: usize) -> &str {
    let mut end = max.min(name.len());
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Counts temporary files made by this process, so each has a name of its own.
static TEMP_COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Makes the temporary file a save of `path` writes first: hidden, beside it, named after it,
/// this process and a number no other process can foresee (`.NAME.PID.N.tmp`; a long NAME is shortened so the name fits
/// the file system's 255 bytes). It is created exclusively (`O_EXCL`, and `O_NOFOLLOW` on
/// Unix): a file or symbolic link already at that name is never opened, followed or
/// replaced; another name is tried.
///
/// # Errors
/// The operating system's error.
pub fn create_temp(path: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "file".into());
    let name = truncate_name(&name, 200);
    let mut last = None;
    for _ in 0..64 {
        // A counter mixed with the clock: names another process cannot plant in advance.
        let count = TEMP_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let mixed = crate::ml::fnv1a_hex(format!("{count}.{nanos}").as_bytes());
        let n = u64::from_str_radix(&mixed[..12], 16).unwrap_or(count);
        let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
        }
        match options.open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Writes bytes atomically: a temporary file beside the target (made by [`create_temp`]),
/// flushed and synced, then renamed over it, so a crash mid-save leaves the old file whole.
/// An existing target must be a plain, writable file with no other hard link (a symbolic
/// link, FIFO, device or folder is refused, never replaced); the new file keeps its
/// permissions. The write holds the target's [`WriteLock`](crate::lock::WriteLock), so a
/// second process saving the same file is refused instead of racing. The temporary file is
/// removed on every error, and temporary files of this naming older than a day (left by a
/// killed save) are removed from the folder.
///
/// # Errors
/// [`FileError::Io`]; [`FileError::Refused`] for a target that must not be replaced;
/// [`FileError::Locked`] when another process is writing it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let dir = folder_of(path);
    let existing = replaceable(path)?;
    std::fs::create_dir_all(&dir).map_err(io_err(path))?;
    let _lock = crate::lock::WriteLock::acquire(path)?;
    // Checked again under the lock: another writer may have changed it meanwhile.
    let existing = match existing {
        Some(_) => replaceable(path)?,
        None => None,
    };
    remove_stale_temps(&dir);
    let (tmp, mut f) = create_temp(path).map_err(io_err(path))?;
    let result = (|| {
        f.write_all(bytes)?;
        if let Some(meta) = &existing {
            f.set_permissions(meta.permissions())?;
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io_err(path))
}

/// What a file on disk was when a save last wrote it (or when a run first looked): its
/// length, modification time and identity, to tell whether someone else wrote it since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileState {
    len: u64,
    modified: Option<std::time::SystemTime>,
    identity: (u64, u64),
}

impl FileState {
    /// The state of the file at `path` now (`None`: there is none).
    pub fn of(path: &Path) -> Option<Self> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        #[cfg(unix)]
        let identity = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let identity = (0, 0);
        Some(Self {
            len: meta.len(),
            modified: meta.modified().ok(),
            identity,
        })
    }
}

/// A sibling name for a file whose own name is taken by someone else's work: `NAME-2.EXT`,
/// `NAME-3.EXT`, … (the first that does not exist).
pub fn sibling_name(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "file".into());
    let ext = path.extension().map(|e| e.to_string_lossy().to_string());
    let dir = folder_of(path);
    (2u32..)
        .map(|n| {
            let name = match &ext {
                Some(e) => format!("{stem}-{n}.{e}"),
                None => format!("{stem}-{n}"),
            };
            dir.join(name)
        })
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .unwrap_or_else(|| path.to_path_buf())
}

/// Puts the folder `fresh` (a finished export, beside `target`) in place of the folder
/// `target`, so a reader sees the old folder or the new one, never a mix: on Linux the two
/// are exchanged in one step (`renameat2` with `RENAME_EXCHANGE`), elsewhere the old folder
/// is moved aside first. The old contents are then removed.
///
/// # Errors
/// The operating system's error, naming the folder; `fresh` is removed on error and
/// `target` is then the old folder.
pub fn swap_in_folder(fresh: &Path, target: &Path) -> Result<(), FileError> {
    let exists = std::fs::symlink_metadata(target).is_ok();
    let result = if exists {
        exchange(fresh, target).and_then(|()| std::fs::remove_dir_all(fresh))
    } else {
        std::fs::rename(fresh, target)
    };
    if result.is_err() {
        let _ = std::fs::remove_dir_all(fresh);
    }
    result.map_err(io_err(target))
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::other("a path holds a NUL byte"))
    };
    let (ca, cb) = (c(a)?, c(b)?);
    // SAFETY: two valid NUL-terminated paths relative to the working folder.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    // Two renames: `b` is briefly missing, never mixed.
    let aside = a.with_extension("old");
    std::fs::rename(b, &aside)?;
    if let Err(e) = std::fs::rename(a, b) {
        let _ = std::fs::rename(&aside, b);
        return Err(e);
    }
    std::fs::rename(&aside, a)
}

/// A place where a save may be stopped for a test of what a crash there leaves: when the
/// environment variable `LEVEL_STUDIO_CRASH_AT` names `point`, the process aborts at once
/// (as kill -9 would stop it). Unset, it does nothing.
pub fn crash_point(point: &str) {
    if std::env::var_os("LEVEL_STUDIO_CRASH_AT").is_some_and(|v| v == point) {
        std::process::abort();
    }
}

/// The metadata of an existing save target, or why it must not be replaced.
fn replaceable(path: &Path) -> Result<Option<std::fs::Metadata>, FileError> {
    let refuse = |reason: String| FileError::Refused {
        path: path.to_path_buf(),
        reason,
    };
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(path)(e)),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return Err(refuse(
            "it is a symbolic link; write to the file it points to by its own path".into(),
        ));
    }
    if kind.is_dir() {
        return Err(refuse("it is a folder".into()));
    }
    if !kind.is_file() {
        return Err(refuse(
            "it is not a regular file (a FIFO, socket or device)".into(),
        ));
    }
    if meta.permissions().readonly() {
        return Err(refuse(
            "it is read-only; make it writable first if it should change".into(),
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(refuse(format!(
                "it has {} hard links, and a save would break them",
                meta.nlink()
            )));
        }
    }
    Ok(Some(meta))
}

/// Removes `.NAME.PID.N.tmp` (and the older `.NAME.PID.tmp`) files older than a day from `dir`: what saves killed mid-write
/// (power loss, kill -9) left behind. Errors are ignored: this is housekeeping.
fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let day = std::time::Duration::from_secs(24 * 3600);
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if !is_temp_name(name) {
            continue;
        }
        let old = entry
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > day);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether `name` is of [`create_temp`]'s naming: `.NAME.PID.N.tmp` (or the older
/// `.NAME.PID.tmp`).
fn is_temp_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    match rest.rsplit_once('.') {
        Some((stem, pid)) => {
            !stem.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// The largest file the studio reads: a pack of several hundred thousand levels fits, and
/// `/dev/zero` or a runaway file is refused instead of filling the memory.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Reads a file of at most [`MAX_FILE_BYTES`] (training data to hash, weights): a larger
/// file, `/dev/zero` or a runaway stream is refused once the cap is passed, never read whole.
///
/// # Errors
/// [`FileError::Io`]; [`FileError::TooLarge`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, FileError> {
    read_bytes_capped(path, MAX_FILE_BYTES)
}

/// As [`read_bytes`] with a cap of `limit` bytes.
///
/// # Errors
/// [`FileError::Io`]; [`FileError::TooLarge`].
pub fn read_bytes_capped(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(io_err(path))?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_err(path))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// Reads a text file of at most [`MAX_FILE_BYTES`], without a leading UTF-8 byte-order mark.
///
/// # Errors
/// [`FileError::Io`]; [`FileError::Parse`] at the first byte that is not UTF-8;
/// [`FileError::TooLarge`].
pub fn read_text(path: &Path) -> Result<String, FileError> {
    text_of_bytes(path, read_bytes(path)?)
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
        Ok(game) => game.check(&level.cells).err(),
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
/// several games (a Longcat level without its head is also a match-3 layout) is refused with
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
    let pack: Pack = if extension(path) == "json" {
        from_json(path, text)?
    } else {
        from_ron(path, text)?
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
    let parse_pack = |text: &str| -> Result<Pack, FileError> {
        let pack = if json {
            from_json(path, text)?
        } else {
            from_ron(path, text)?
        };
        let pack = migrate(path, pack)?;
        for level in &pack.levels {
            check_level(path, level)?;
        }
        Ok(pack)
    };
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

// Files the window reads at start (settings, session, recovery, the packs it reopens): only
// regular files, opened without blocking, never more than MAX_FILE_BYTES. `read_text` stays
// as it is for the command line, which reads what it is given (a FIFO included).

/// Reads a text file as [`read_text`] does, but only a regular file of at most
/// [`MAX_FILE_BYTES`]: a FIFO, device, socket or folder is refused before a byte is read (the
/// file is opened without blocking, then checked), and an oversized file by its size, so a
/// start-up file can neither stop the window nor fill the memory.
///
/// # Errors
/// [`FileError::NotRegular`]; [`FileError::TooLarge`]; [`FileError::Io`]; [`FileError::Parse`]
/// at the first byte that is not UTF-8.
pub fn read_regular_text(path: &Path) -> Result<String, FileError> {
    use std::io::Read;
    regular_within_cap(path, &std::fs::metadata(path).map_err(io_err(path))?)?;
    let file = open_without_blocking(path).map_err(io_err(path))?;
    // The path may have changed between the look and the open: check what was opened.
    let meta = file.metadata().map_err(io_err(path))?;
    regular_within_cap(path, &meta)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_err(path))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FILE_BYTES,
        });
    }
    text_of_bytes(path, bytes)
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

/// `Ok` for a regular file of at most [`MAX_FILE_BYTES`]; otherwise why it is not read.
fn regular_within_cap(path: &Path, meta: &std::fs::Metadata) -> Result<(), FileError> {
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(&meta.file_type()),
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FILE_BYTES,
        });
    }
    Ok(())
}

/// What a file that is not a regular file is, in words.
fn kind_of(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    "something other than a file"
}

/// Opens a file for reading without waiting: on unix a FIFO with no writer opens at once
/// (`O_NONBLOCK`) and a terminal does not become the studio's (`O_NOCTTY`).
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// The text of a file's bytes, without a leading UTF-8 byte-order mark (as [`read_text`]).
fn text_of_bytes(path: &Path, bytes: Vec<u8>) -> Result<String, FileError> {
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[start..]).chars().count() + 1;
        FileError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: "not UTF-8 text".into(),
        }
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}
