//! The datasets the studio reads from a folder the user names: the VGLC text levels (Lode
//! Runner, Super Mario Bros, The Legend of Zelda). Readers here give the files' own letters;
//! each game turns them into its levels.

pub mod zelda;

use std::path::PathBuf;

/// Where the VGLC levels are when `$VGLC_DIR` is not set: beside the repository.
pub const DEFAULT_DIR: &str = "../shared/data/vglc";

/// The VGLC folder: `$VGLC_DIR`, else [`DEFAULT_DIR`] (beside the repository).
pub fn vglc_dir() -> PathBuf {
    std::env::var_os("VGLC_DIR").map_or_else(|| PathBuf::from(DEFAULT_DIR), PathBuf::from)
}

/// Why VGLC text could not be read.
#[derive(Debug, thiserror::Error)]
pub enum VglcError {
    /// A VGLC file is not a grid of rooms, or holds a letter VGLC does not use.
    #[error("{path}:{line}:{column}: {message}")]
    Text {
        /// The file.
        path: PathBuf,
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The folder has no dungeon file.
    #[error("{0}: no VGLC Zelda dungeon files (tloz*.txt) here or in its Processed/ folder")]
    NoDungeons(PathBuf),
}
