//! The learning plumbing every model family shares: which device models run on, where a
//! weights file's sidecar lives, and saving weights with their sidecar so that a crash
//! mid-save never leaves a half-written pair (each file goes to a temporary name and is
//! renamed). The models themselves live in their games (`match3/cvae/`, `longcat/dqn/`,
//! `longcat/ridge/`).

use candle_core::{Device, Tensor};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The device models run on: the first CUDA device when built with the `cuda` feature and
/// one is present, the CPU otherwise.
pub fn device() -> Device {
    #[cfg(feature = "cuda")]
    if let Ok(d) = Device::new_cuda(0) {
        return d;
    }
    Device::Cpu
}

/// The sidecar of a weights file: the same name with `.ron` (architecture, training data,
/// metrics).
pub fn sidecar_path(weights: &Path) -> PathBuf {
    weights.with_extension("ron")
}

/// A weights file or its sidecar could not be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct WriteError {
    /// The file (or folder) that failed.
    pub path: PathBuf,
    /// Why, in words.
    pub reason: String,
}

/// Saves named tensors as safetensors at `weights` and `sidecar` as RON beside it, each
/// through a temporary file that is renamed into place; creates the folder when missing.
///
/// # Errors
/// [`WriteError`] naming the file that could not be written.
pub fn save_model(
    tensors: &HashMap<String, Tensor>,
    sidecar: &impl Serialize,
    weights: &Path,
) -> Result<(), WriteError> {
    let failed = |path: &Path, reason: String| WriteError {
        path: path.to_path_buf(),
        reason,
    };
    if let Some(dir) = weights.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| failed(dir, e.to_string()))?;
    }
    let tmp = weights.with_extension("safetensors.tmp");
    candle_core::safetensors::save(tensors, &tmp).map_err(|e| failed(&tmp, e.to_string()))?;
    std::fs::rename(&tmp, weights).map_err(|e| failed(weights, e.to_string()))?;
    let side = sidecar_path(weights);
    let text = crate::files::to_ron(sidecar).map_err(|e| failed(&side, e.to_string()))?;
    crate::files::write_atomic(&side, text.as_bytes()).map_err(|e| failed(&side, e.to_string()))
}

/// The tensors of a var map by name (what [`save_model`] writes).
///
/// # Errors
/// A poisoned var map (a training thread panicked while holding it).
pub fn tensors_of(varmap: &candle_nn::VarMap) -> Result<HashMap<String, Tensor>, String> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| "the var map is poisoned".to_string())?;
    Ok(data
        .iter()
        .map(|(k, v)| (k.clone(), v.as_tensor().clone()))
        .collect())
}
