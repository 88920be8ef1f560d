//! The learning plumbing every model family shares: which device models run on, where a
//! weights file's sidecar lives, and saving weights with their sidecar so that a crash
//! mid-save never leaves a half-written pair (each file goes to a temporary name and is
//! renamed). The sidecar carries a [`WeightsStamp`] of its weights (length and hash), written
//! last and checked on load, so damaged weights, a swapped file or a pair from two runs are
//! refused. The models themselves live in their games (`match3/cvae/`, `longcat/dqn/`,
//! `longcat/ridge/`).

use candle_core::{Device, Tensor};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// FNV-1a 64 of `bytes` as 16 hex digits: a cheap fingerprint of a file.
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// What a sidecar records about its weights file, so a loader can tell that the two belong
/// together and that the weights are the ones training wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeightsStamp {
    /// The weights file's length in bytes.
    pub bytes: u64,
    /// FNV-1a 64 of the weights file, hex.
    pub fnv1a: String,
}

impl WeightsStamp {
    /// The stamp of a weights file's bytes.
    pub fn of(bytes: &[u8]) -> Self {
        Self {
            bytes: bytes.len() as u64,
            fnv1a: fnv1a_hex(bytes),
        }
    }
}

/// A sidecar that carries the stamp of its weights.
pub trait Stamped {
    /// The stamp it carries (`None`: written before sidecars carried one).
    fn stamp(&self) -> Option<&WeightsStamp>;
    /// Sets the stamp.
    fn set_stamp(&mut self, stamp: WeightsStamp);
}

/// Reads a weights file whose sidecar (at `sidecar`) carries `stamp`, and checks that the
/// bytes are the ones the stamp describes.
///
/// # Errors
/// Why the pair does not match, in words naming both files.
pub fn read_stamped(
    weights: &Path,
    sidecar: &Path,
    stamp: Option<&WeightsStamp>,
) -> Result<Vec<u8>, String> {
    let Some(stamp) = stamp else {
        return Err(format!(
            "its sidecar {} records no length and hash of the weights (written by an older \
             build); run `level-studio train --restamp --model ... --out {}` if you trust \
             these weights",
            sidecar.display(),
            weights.display()
        ));
    };
    let bytes = std::fs::read(weights).map_err(|e| e.to_string())?;
    let found = WeightsStamp::of(&bytes);
    if found != *stamp {
        return Err(format!(
            "the file ({} bytes, hash {}) is not the one its sidecar {} describes ({} bytes, \
             hash {}): the weights are damaged, or the two files come from different runs",
            found.bytes,
            found.fnv1a,
            sidecar.display(),
            stamp.bytes,
            stamp.fnv1a
        ));
    }
    Ok(bytes)
}

/// The tensors of checked safetensors bytes; every value must be finite.
///
/// # Errors
/// The reader's error, or the name of a tensor holding NaN or infinity.
pub fn tensors_from(bytes: &[u8], device: &Device) -> Result<HashMap<String, Tensor>, String> {
    let tensors =
        candle_core::safetensors::load_buffer(bytes, device).map_err(|e| e.to_string())?;
    let mut names: Vec<&String> = tensors.keys().collect();
    names.sort();
    for name in names {
        let values = tensors[name]
            .flatten_all()
            .and_then(|t| t.to_dtype(candle_core::DType::F32))
            .and_then(|t| t.to_vec1::<f32>())
            .map_err(|e| e.to_string())?;
        if values.iter().any(|v| !v.is_finite()) {
            return Err(format!("tensor {name:?} holds NaN or infinite values"));
        }
    }
    Ok(tensors)
}

/// Writes the stamp of the weights at `weights` into their sidecar, for sidecars written
/// before they carried one (`train --restamp`). The sidecar must parse as `S`.
///
/// # Errors
/// A missing or unreadable file, or one that cannot be written.
pub fn restamp<S: Serialize + DeserializeOwned + Stamped>(weights: &Path) -> Result<(), String> {
    let side = sidecar_path(weights);
    let text = crate::files::read_text(&side).map_err(|e| e.to_string())?;
    let mut sidecar: S = crate::files::from_ron(&side, &text).map_err(|e| e.to_string())?;
    let bytes = std::fs::read(weights).map_err(|e| format!("{}: {e}", weights.display()))?;
    candle_core::safetensors::load_buffer(&bytes, &Device::Cpu)
        .map_err(|e| format!("{}: not safetensors: {e}", weights.display()))?;
    sidecar.set_stamp(WeightsStamp::of(&bytes));
    let text = crate::files::to_ron(&sidecar).map_err(|e| e.to_string())?;
    crate::files::write_atomic(&side, text.as_bytes()).map_err(|e| e.to_string())
}

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

/// Reads and parses the sidecar of `weights`; the error names both files.
///
/// # Errors
/// A missing or malformed sidecar, in words.
pub fn read_sidecar<S: serde::de::DeserializeOwned>(
    weights: &Path,
) -> Result<(PathBuf, S), String> {
    let side = sidecar_path(weights);
    let text = crate::files::read_text(&side).map_err(|e| {
        format!(
            "{}: {e} (the sidecar of {})",
            side.display(),
            weights.display()
        )
    })?;
    let sidecar = crate::files::from_ron(&side, &text).map_err(|e| e.to_string())?;
    Ok((side, sidecar))
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

/// Saves named tensors as safetensors at `weights` and `sidecar` as RON beside it, stamped
/// with the weights' length and hash, each through a temporary file that is renamed into
/// place (the weights first, the sidecar last); creates the folder when missing. A reader
/// that finds new weights beside an old sidecar refuses the pair by the stamp.
///
/// # Errors
/// [`WriteError`] naming the file that could not be written.
pub fn save_model<S: Serialize + Clone + Stamped>(
    tensors: &HashMap<String, Tensor>,
    sidecar: &S,
    weights: &Path,
) -> Result<(), WriteError> {
    let failed = |path: &Path, reason: String| WriteError {
        path: path.to_path_buf(),
        reason,
    };
    let dir = weights
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| failed(dir, e.to_string()))?;
    // candle writes safetensors to a path only: a scratch file of our temporary naming,
    // read back and removed, then written in place like any other file.
    let scratch = crate::files::temp_path(weights);
    let bytes = candle_core::safetensors::save(tensors, &scratch)
        .map_err(|e| e.to_string())
        .and_then(|()| std::fs::read(&scratch).map_err(|e| e.to_string()));
    let _ = std::fs::remove_file(&scratch);
    let bytes = bytes.map_err(|reason| failed(weights, reason))?;
    let mut stamped = sidecar.clone();
    stamped.set_stamp(WeightsStamp::of(&bytes));
    let side = sidecar_path(weights);
    let text = crate::files::to_ron(&stamped).map_err(|e| failed(&side, e.to_string()))?;
    crate::files::write_atomic(weights, &bytes).map_err(|e| failed(weights, e.to_string()))?;
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
