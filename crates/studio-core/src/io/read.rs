//! Reading files: only regular files, opened without blocking, with a size cap.

use super::{io_err, FileError};
use std::path::Path;

/// The largest file the studio reads: a pack of several hundred thousand levels fits, and
/// `/dev/zero` or a runaway file is refused instead of filling the memory.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Reads a file the user named (a level, a pack, training data, weights) of at most
/// [`MAX_FILE_BYTES`]: only a regular file, opened without blocking and checked before a byte
/// is read, so a FIFO, device, socket or folder is refused at once instead of blocking or
/// streaming; a file that grows past the cap is refused once the cap is passed.
///
/// # Errors
/// [`FileError::NotRegular`]; [`FileError::Io`]; [`FileError::TooLarge`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, FileError> {
    read_bytes_capped(path, MAX_FILE_BYTES)
}

/// As [`read_bytes`] with a cap of `limit` bytes.
///
/// # Errors
/// [`FileError::NotRegular`]; [`FileError::Io`]; [`FileError::TooLarge`].
pub fn read_bytes_capped(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    use std::io::Read;
    let file = open_without_blocking(path).map_err(io_err(path))?;
    let meta = file.metadata().map_err(io_err(path))?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(&meta.file_type()),
        });
    }
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

// Files the window reads at start (settings, session, recovery, the packs it reopens): as
// `read_text`, and also refused by their size before they are opened.

/// Reads a text file as [`read_text`] does, but only a regular file of at most
/// [`MAX_FILE_BYTES`]: a FIFO, device, socket or folder is refused before a byte is read (the
/// file is opened without blocking, then checked), and an oversized file by its size, so a
/// start-up file can neither stop the window nor fill the memory.
///
/// # Errors
/// [`FileError::NotRegular`]; [`FileError::TooLarge`]; [`FileError::Io`]; [`FileError::Parse`]
/// at the first byte that is not UTF-8.
pub fn read_regular_text(path: &Path) -> Result<String, FileError> {
    // Refused by a look first (an oversized file by its size, without opening it); the read
    // checks again what it opened, since the path may change between the two.
    regular_within_cap(path, &std::fs::metadata(path).map_err(io_err(path))?)?;
    read_text(path)
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
