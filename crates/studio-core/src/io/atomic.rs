//! Atomic saves: a temporary file beside the target, then a rename; folders swapped whole.

use super::{folder_of, io_err, truncate_name, FileError};
use std::io::Write;
use std::path::{Path, PathBuf};

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
        let mixed = super::fnv1a_hex(format!("{count}.{nanos}").as_bytes());
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
/// permissions. The write holds the target's [`WriteLock`](super::WriteLock), so a
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
    let _lock = super::WriteLock::acquire(path)?;
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

/// Removes from `dir` what saves and exports killed mid-write (power loss, kill -9) left
/// behind, once older than a day: `.NAME.PID.N.tmp` files (and the older `.NAME.PID.tmp`),
/// candle's own `.tmpXXXXXX` scratch of a model save, `.NAME.PID.N.export` folders of a
/// folder export, and `.NAME.lock` files no process holds. Errors are ignored: this is
/// housekeeping.
pub(crate) fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let day = std::time::Duration::from_secs(24 * 3600);
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > day);
        if !old {
            continue;
        }
        let path = entry.path();
        if meta.is_file() && (is_temp_name(name) || is_scratch_name(name)) {
            let _ = std::fs::remove_file(&path);
        } else if meta.is_dir() && super::is_export_temp_name(name) {
            let _ = std::fs::remove_dir_all(&path);
        } else if meta.is_file() && name.starts_with('.') && name.ends_with(".lock") {
            super::lock::remove_if_free(&path);
        }
    }
}

/// Whether `name` is candle's (the `tempfile` crate's) scratch naming: `.tmp` and six
/// letters or digits.
fn is_scratch_name(name: &str) -> bool {
    name.strip_prefix(".tmp")
        .is_some_and(|rest| rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Whether `name` is of [`create_temp`]'s naming: `.NAME.PID.N.tmp` (or the older
/// `.NAME.PID.tmp`).
pub fn is_temp_name(name: &str) -> bool {
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
