//! A cVAE's training set: the levels of a dataset folder's split with their validated moves
//! and the file's fingerprint, which training records in the sidecar and a loaded model checks
//! before measuring fresh levels against the layouts it saw.

use super::encoding::{MoveRange, Sample};
use super::error::{ModelError, Result};
use super::sidecar::data_hash;
use crate::layout::Layout;
use std::path::{Path, PathBuf};

/// A training set loaded from a dataset folder.
#[derive(Clone, Debug)]
pub struct TrainingSet {
    /// The folder.
    pub dir: PathBuf,
    /// The levels with their validated moves.
    pub samples: Vec<Sample>,
    /// Fingerprint of `train.ron`.
    pub hash: String,
}

impl TrainingSet {
    /// Loads `dir/train.ron`.
    ///
    /// # Errors
    /// [`ModelError::Dataset`] when the file is missing, malformed or has no usable level.
    pub fn load(dir: &Path) -> Result<Self> {
        Self::load_split(dir, "train")
    }

    /// Loads `dir/<split>.ron`.
    ///
    /// # Errors
    /// As [`TrainingSet::load`].
    pub fn load_split(dir: &Path, split: &str) -> Result<Self> {
        let path = dir.join(format!("{split}.ron"));
        let err = |reason: String| ModelError::Dataset {
            path: path.clone(),
            reason,
        };
        let bytes = studio_core::io::read_bytes(&path).map_err(|e| err(e.to_string()))?;
        let pack = studio_core::files::load_pack(&path).map_err(|e| err(e.to_string()))?;
        let samples = pack
            .levels
            .iter()
            .map(|l| Sample::from_level(l, None))
            .collect::<Result<Vec<_>>>()?;
        if samples.is_empty() {
            return Err(err("no levels".into()));
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            samples,
            hash: data_hash(&bytes),
        })
    }

    /// The layouts only (plagiarism and tile-distribution references).
    pub fn layouts(&self) -> Vec<Layout> {
        self.samples.iter().map(|s| s.layout.clone()).collect()
    }

    /// The training set's range of validated moves.
    pub fn move_range(&self) -> MoveRange {
        let min = self
            .samples
            .iter()
            .map(|s| s.moves)
            .fold(f64::INFINITY, f64::min);
        let max = self
            .samples
            .iter()
            .map(|s| s.moves)
            .fold(f64::NEG_INFINITY, f64::max);
        MoveRange { min, max }
    }
}
