//! Exports that write a whole folder (Tiled maps, level text files): one path for all of
//! them. The files are written into a fresh hidden folder beside the target and swapped in at
//! the end, so a reader sees the old export or the new one whole, and no file of an earlier,
//! longer export stays beside the new ones. The target is refused, untouched, when it is a
//! symbolic link, a file, a folder this process may not write (read-only, or someone
//! else's), or a folder holding anything the export does not write.

use super::{folder_of, io_err, lock::WriteLock, swap_in_folder, truncate_name, FileError};
use std::path::{Path, PathBuf};

/// What kind of folder export runs, for its checks and its words.
#[derive(Clone, Copy, Debug)]
pub struct FolderExport {
    /// What it is called in messages ("Tiled export").
    pub what: &'static str,
    /// Whether a file of this name is one the export writes: a folder holding anything else
    /// is not replaced.
    pub owns: fn(&str) -> bool,
}

/// Writes the export folder `dir`: `write` fills a fresh, empty folder (its argument), which
/// then replaces `dir` whole, keeping the old folder's permissions.
///
/// # Errors
/// Why `dir` is not replaced ([`FileError::Refused`], naming it and what to do), a
/// [`FileError`] of the folder, or `write`'s error; nothing of `dir` changes then.
pub fn export_folder<T, E: From<FileError>>(
    dir: &Path,
    kind: FolderExport,
    write: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<T, E> {
    let existing = std::fs::symlink_metadata(dir).ok();
    if let Some(meta) = &existing {
        check_replaceable(dir, meta, kind)?;
    }
    let parent = folder_of(dir);
    std::fs::create_dir_all(&parent).map_err(io_err(&parent))?;
    super::atomic::remove_stale_temps(&parent);
    let _lock = WriteLock::acquire(dir).map_err(FileError::from)?;
    let fresh = fresh_folder(dir)?;
    let written = match write(&fresh) {
        Ok(written) => written,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&fresh);
            return Err(e);
        }
    };
    if let Some(meta) = &existing {
        // The new folder keeps the old one's mode (the owner is this process's: only a
        // folder of its own is replaced).
        let _ = std::fs::set_permissions(&fresh, meta.permissions());
    }
    swap_in_folder(&fresh, dir)?;
    Ok(written)
}

/// Refuses a target that is not a folder this export may replace.
fn check_replaceable(
    dir: &Path,
    meta: &std::fs::Metadata,
    kind: FolderExport,
) -> Result<(), FileError> {
    let refused = |reason: String| FileError::Refused {
        path: dir.to_path_buf(),
        reason,
    };
    if meta.file_type().is_symlink() {
        return Err(refused(
            "it is a symbolic link; export to the folder it points to by its own path".into(),
        ));
    }
    if !meta.is_dir() {
        return Err(refused(format!(
            "a {} writes a folder, and this is a file; choose a new folder name",
            kind.what
        )));
    }
    if !writable_own_folder(dir, meta) {
        return Err(refused(
            "the folder is read-only or belongs to another user; export to a folder of your \
             own"
            .into(),
        ));
    }
    let entries = std::fs::read_dir(dir).map_err(io_err(dir))?;
    for entry in entries {
        let entry = entry.map_err(io_err(dir))?;
        let name = entry.file_name().to_string_lossy().to_string();
        let plain = entry.file_type().is_ok_and(|t| t.is_file());
        if !plain || !(kind.owns)(&name) {
            return Err(refused(format!(
                "the folder holds {name:?}, which a {} does not write; move it out, or export \
                 to a new folder",
                kind.what
            )));
        }
    }
    Ok(())
}

/// True when this process owns the folder and may write it.
#[cfg(unix)]
fn writable_own_folder(dir: &Path, meta: &std::fs::Metadata) -> bool {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path.
    let writable = unsafe { libc::access(path.as_ptr(), libc::W_OK) } == 0;
    meta.uid() == me && writable
}

#[cfg(not(unix))]
fn writable_own_folder(_dir: &Path, meta: &std::fs::Metadata) -> bool {
    !meta.permissions().readonly()
}

/// A new, empty hidden folder beside `dir` (`.NAME.PID.N.export`) for an export to be
/// written into.
fn fresh_folder(dir: &Path) -> Result<PathBuf, FileError> {
    let parent = folder_of(dir);
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "export".into());
    let name = truncate_name(&name, 200);
    let mut n = 0;
    loop {
        let fresh = parent.join(format!(".{name}.{}.{n}.export", std::process::id()));
        match std::fs::create_dir(&fresh) {
            Ok(()) => return Ok(fresh),
            Err(e) if n == 63 => return Err(io_err(&fresh)(e)),
            Err(_) => n += 1,
        }
    }
}

/// Whether `name` is of [`fresh_folder`]'s naming: `.NAME.PID.N.export`.
pub fn is_export_temp_name(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix('.')
        .and_then(|n| n.strip_suffix(".export"))
    else {
        return false;
    };
    let mut parts = rest.rsplitn(3, '.');
    let (n, pid) = (parts.next(), parts.next());
    let digits =
        |s: Option<&str>| s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    digits(n) && digits(pid) && parts.next().is_some_and(|stem| !stem.is_empty())
}

/// Writes a new file in an export's own fresh folder (never over an existing one).
///
/// # Errors
/// [`FileError::Io`]: the operating system's error, naming the file.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .map_err(io_err(path))
}
