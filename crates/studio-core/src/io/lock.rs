//! Write locks: one writer at a time onto a file (a pack, a model's weights and sidecar), so
//! that two processes saving the same file fail with a clear error instead of racing.
//!
//! A lock is an advisory `flock` on a hidden file beside the target (`.NAME.lock`), taken
//! without waiting: a second process gets [`LockError::Held`] at once. The kernel releases
//! the lock when its holder exits, even by kill -9, so a crash never leaves a file locked.
//! The lock file is removed on release; a taker checks after locking that the file it locked
//! is still the one at that name, so a removal racing with a new taker cannot give two
//! holders. Inside one process the lock is counted (a training that holds its model's lock
//! while it saves checkpoints takes it again for each save without deadlock).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Why a write lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock.
    #[error(
        "{path}: another Level Studio process is writing this file now (lock {lock}); \
         wait for it to finish, or write to another name"
    )]
    Held {
        /// The file being written.
        path: PathBuf,
        /// The lock file.
        lock: PathBuf,
    },
    /// The lock file could not be made.
    #[error("{path}: could not take the write lock {lock}: {error}")]
    Io {
        /// The file being written.
        path: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
}

/// A held write lock; released when dropped.
#[derive(Debug)]
pub struct WriteLock {
    key: PathBuf,
}

/// The locks this process holds: the lock file's open handle and how many guards share it.
struct Held {
    file: std::fs::File,
    lock_path: PathBuf,
    count: usize,
}

static HELD: Mutex<Option<HashMap<PathBuf, Held>>> = Mutex::new(None);

fn held() -> MutexGuard<'static, Option<HashMap<PathBuf, Held>>> {
    HELD.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The hidden lock file of `path`: `.NAME.lock` beside it (a long name is shortened and
/// keeps a hash of the whole, so it fits the file system's 255 bytes and stays distinct).
pub fn lock_path(path: &Path) -> PathBuf {
    let dir = super::folder_of(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "file".into());
    let name = if name.len() > 200 {
        format!(
            "{}~{}",
            super::truncate_name(&name, 180),
            super::fnv1a_hex(name.as_bytes())
        )
    } else {
        name
    };
    dir.join(format!(".{name}.lock"))
}

/// The key a lock is known by in this process: the target's folder made absolute, and its
/// name.
fn key_of(path: &Path) -> PathBuf {
    let dir = super::folder_of(path);
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    match path.file_name() {
        Some(name) => dir.join(name),
        None => dir,
    }
}

impl WriteLock {
    /// Takes the write lock of `path` (the file need not exist; its folder must), without
    /// waiting.
    ///
    /// # Errors
    /// [`LockError::Held`] when another process holds it; [`LockError::Io`] when the lock
    /// file cannot be made.
    pub fn acquire(path: &Path) -> Result<Self, LockError> {
        let key = key_of(path);
        let mut map = held();
        let map = map.get_or_insert_with(HashMap::new);
        if let Some(h) = map.get_mut(&key) {
            h.count += 1;
            return Ok(Self { key });
        }
        let lock = lock_path(path);
        let file = take(path, &lock)?;
        map.insert(
            key.clone(),
            Held {
                file,
                lock_path: lock,
                count: 1,
            },
        );
        Ok(Self { key })
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        let mut map = held();
        let Some(map) = map.as_mut() else {
            return;
        };
        let last = match map.get_mut(&self.key) {
            Some(h) => {
                h.count -= 1;
                h.count == 0
            }
            None => false,
        };
        if last {
            if let Some(h) = map.remove(&self.key) {
                // Removed while still locked, so no other taker can lock this file and find
                // it still at its name.
                let _ = std::fs::remove_file(&h.lock_path);
                drop(h.file);
            }
        }
    }
}

#[cfg(unix)]
fn take(path: &Path, lock: &Path) -> Result<std::fs::File, LockError> {
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::io::AsRawFd;
    let io = |error: std::io::Error| LockError::Io {
        path: path.to_path_buf(),
        lock: lock.to_path_buf(),
        error,
    };
    // A lock file removed between our open and our flock is retried; a few rounds are
    // plenty (each needs another process to release and remove it in that instant).
    for _ in 0..16 {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(lock)
            .map_err(io)?;
        // SAFETY: flock on a descriptor this function owns; no memory is shared.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if locked != 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() == std::io::ErrorKind::WouldBlock {
                return Err(LockError::Held {
                    path: path.to_path_buf(),
                    lock: lock.to_path_buf(),
                });
            }
            return Err(io(error));
        }
        let ours = file.metadata().map_err(io)?;
        match std::fs::symlink_metadata(lock) {
            Ok(now) if now.ino() == ours.ino() && now.dev() == ours.dev() => return Ok(file),
            _ => continue,
        }
    }
    Err(LockError::Held {
        path: path.to_path_buf(),
        lock: lock.to_path_buf(),
    })
}

#[cfg(unix)]
use std::os::unix::fs::OpenOptionsExt;

#[cfg(not(unix))]
fn take(path: &Path, lock: &Path) -> Result<std::fs::File, LockError> {
    // Without flock: an exclusive create; a lock file left by a crash must be removed by hand.
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(lock)
        .map_err(|error| {
            if error.kind() == std::io::ErrorKind::AlreadyExists {
                LockError::Held {
                    path: path.to_path_buf(),
                    lock: lock.to_path_buf(),
                }
            } else {
                LockError::Io {
                    path: path.to_path_buf(),
                    lock: lock.to_path_buf(),
                    error,
                }
            }
        })
}

/// Removes the lock file `lock` when no process holds it (it outlived a killed holder).
/// Takers check after locking that the file they locked is still the one at that name, so a
/// removal never gives two holders.
pub(crate) fn remove_if_free(lock: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let Ok(file) = std::fs::OpenOptions::new().read(true).open(lock) else {
            return;
        };
        // SAFETY: a valid open descriptor; the lock is released when `file` closes.
        let free = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        if free {
            let _ = std::fs::remove_file(lock);
        }
    }
    #[cfg(not(unix))]
    let _ = lock;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_is_counted_inside_a_process_and_removed_at_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("pack.ron");
        let a = WriteLock::acquire(&target).unwrap();
        let b = WriteLock::acquire(&target).unwrap();
        assert!(lock_path(&target).exists());
        drop(a);
        assert!(lock_path(&target).exists(), "still held by b");
        drop(b);
        assert!(!lock_path(&target).exists());
    }

    #[test]
    fn long_names_give_short_distinct_lock_files() {
        let a = "a".repeat(250);
        let b = format!("{}b", "a".repeat(249));
        let la = lock_path(Path::new(&a));
        let lb = lock_path(Path::new(&b));
        assert_ne!(la, lb);
        assert!(la.file_name().unwrap().len() <= 255);
    }
}
