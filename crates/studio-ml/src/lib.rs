//! The learning plumbing every model family shares: which device models run on, where a
//! weights file's sidecar lives, and saving weights with their sidecar so that a crash
//! mid-save never leaves a half-written pair (each file goes to a temporary name and is
//! renamed). The sidecar carries a [`WeightsStamp`] of its weights (length and hash), written
//! last and checked on load, so damaged weights, a swapped file or a pair from two runs are
//! refused. Also here: the seeded initialiser, the one [`Mlp`], soft updates, and the
//! helpers of every step-by-step RL generator ([`rl`]) and the actor-critic training the
//! continuous-action ones share ([`actor_critic`]). The models themselves live in their
//! games. No game is named here.

pub mod actor_critic;
mod device;
pub mod level_vae;
pub mod rl;

pub use device::{
    cuda_built, cuda_devices, device, device_choice, device_name, name_of, set_device,
    DeviceChoice, DeviceError,
};

use candle_core::{DType, Device, Tensor};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a sidecar records about its weights file, so a loader can tell that the two belong
/// together and that the weights are the ones training wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeightsStamp {
    /// The weights file's length in bytes.
    pub bytes: u64,
    /// FNV-1a 64 of the weights file, hex.
    pub fnv1a: String,
    /// Where the weights are while a save is under way: a versioned file beside the usual
    /// one (`NAME.HASH.safetensors`); `None` (the usual case): the usual name. See
    /// [`save_model`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

impl WeightsStamp {
    /// The stamp of a weights file's bytes.
    pub fn of(bytes: &[u8]) -> Self {
        Self {
            bytes: bytes.len() as u64,
            fnv1a: studio_core::io::fnv1a_hex(bytes),
            file: None,
        }
    }

    /// Whether two stamps describe the same bytes (wherever they are kept).
    pub fn same_bytes(&self, other: &Self) -> bool {
        self.bytes == other.bytes && self.fnv1a == other.fnv1a
    }
}

/// A sidecar that carries the stamp of its weights.
pub trait Stamped {
    /// The stamp it carries (`None`: written before sidecars carried one).
    fn stamp(&self) -> Option<&WeightsStamp>;
    /// Sets the stamp.
    fn set_stamp(&mut self, stamp: WeightsStamp);
}

/// Why a model's weights or sidecar could not be read or written: missing, damaged, from
/// another run, or not numbers. A generator fails with it boxed, so a caller can tell
/// missing weights from a bad request ([`WeightsError::is_missing`]).
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The sidecar records no stamp (written by an older build).
    #[error(
        "its sidecar {sidecar} records no length and hash of the weights (written by an older \
         build); run `level-studio train --restamp --model ... --out {weights}` if you trust \
         these weights"
    )]
    Unstamped {
        /// The weights file.
        weights: PathBuf,
        /// Its sidecar.
        sidecar: PathBuf,
    },
    /// The weights file is missing or cannot be read (the message is the system's; the
    /// callers name the file).
    #[error("{error}")]
    Unreadable {
        /// The weights file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The weights are not a plain file.
    #[error(
        "{path} is not a regular file (a folder, FIFO, device, or a link to one); weights are \
         read from a plain file"
    )]
    NotRegular {
        /// The weights file.
        path: PathBuf,
    },
    /// The bytes are not the ones the sidecar's stamp describes.
    #[error(
        "the file ({bytes} bytes, hash {fnv1a}) is not the one its sidecar {sidecar} describes \
         ({} bytes, hash {}): the weights are damaged, or the two files come from different \
         runs", .expected.bytes, .expected.fnv1a
    )]
    Mismatch {
        /// The sidecar.
        sidecar: PathBuf,
        /// The file's length.
        bytes: u64,
        /// The file's hash (`not computed` when the length differs already).
        fnv1a: String,
        /// What the sidecar records.
        expected: Box<WeightsStamp>,
    },
    /// The sidecar cannot be read.
    #[error("{side}: {error} (the sidecar of {weights})")]
    Sidecar {
        /// The sidecar.
        side: PathBuf,
        /// The weights file.
        weights: PathBuf,
        /// Why.
        error: Box<studio_core::io::FileError>,
    },
    /// A file could not be read, parsed or written.
    #[error(transparent)]
    File(#[from] studio_core::io::FileError),
    /// The bytes are not safetensors, or a tensor cannot be read.
    #[error(transparent)]
    Tensors(Box<candle_core::Error>),
    /// The file named is not safetensors (`train --restamp`).
    #[error("{path}: not safetensors: {error}")]
    NotSafetensors {
        /// The weights file.
        path: PathBuf,
        /// The reader's error.
        error: Box<candle_core::Error>,
    },
    /// A tensor holds NaN or infinity.
    #[error("tensor {name:?} holds NaN or infinite values")]
    NotFinite {
        /// The tensor's name.
        name: String,
    },
    /// A training thread panicked while holding the var map.
    #[error("the var map is poisoned")]
    Poisoned,
    /// A weights file, with what is wrong with it (the error names the file first).
    #[error("{path}: {error}")]
    InFile {
        /// The weights file or its sidecar.
        path: PathBuf,
        /// What is wrong.
        error: Box<WeightsError>,
    },
    /// The weights or the sidecar could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A model's own refusal, in words naming the file (an architecture this build does not
    /// have, a figure that is not a number, weights that do not fit the networks).
    #[error("{0}")]
    Model(String),
}

impl From<candle_core::Error> for WeightsError {
    fn from(error: candle_core::Error) -> Self {
        WeightsError::Tensors(Box::new(error))
    }
}

impl From<&str> for WeightsError {
    fn from(refusal: &str) -> Self {
        WeightsError::Model(refusal.to_string())
    }
}

impl From<String> for WeightsError {
    fn from(refusal: String) -> Self {
        WeightsError::Model(refusal)
    }
}

impl WeightsError {
    /// `self` as an error of the file `path` (`PATH: …`).
    pub fn in_file(self, path: &Path) -> Self {
        WeightsError::InFile {
            path: path.to_path_buf(),
            error: Box::new(self),
        }
    }

    /// True when the weights or their sidecar are not there (not: damaged, or refused).
    pub fn is_missing(&self) -> bool {
        match self {
            WeightsError::Unreadable { error, .. } => error.kind() == std::io::ErrorKind::NotFound,
            WeightsError::Sidecar { error, .. } => matches!(
                &**error,
                studio_core::io::FileError::Io { error, .. }
                    if error.kind() == std::io::ErrorKind::NotFound
            ),
            WeightsError::File(studio_core::io::FileError::Io { error, .. }) => {
                error.kind() == std::io::ErrorKind::NotFound
            }
            WeightsError::InFile { error, .. } => error.is_missing(),
            _ => false,
        }
    }
}

/// Reads a weights file whose sidecar (at `sidecar`) carries `stamp`, and checks that the
/// bytes are the ones the stamp describes. The file at `weights` is tried first, then the
/// versioned file the stamp names (a save stopped between its steps leaves the new weights
/// there; see [`save_model`]). A file's length is compared with the stamp before it is read,
/// so a huge or endless file is never read whole; it must be a regular file (a link is
/// followed to one).
///
/// # Errors
/// [`WeightsError`]: why the pair does not match, in words naming both files.
pub fn read_stamped(
    weights: &Path,
    sidecar: &Path,
    stamp: Option<&WeightsStamp>,
) -> Result<Vec<u8>, WeightsError> {
    let Some(stamp) = stamp else {
        return Err(WeightsError::Unstamped {
            weights: weights.to_path_buf(),
            sidecar: sidecar.to_path_buf(),
        });
    };
    let versioned = stamp
        .file
        .as_ref()
        .filter(|f| is_versioned_name(weights, f))
        .map(|f| studio_core::io::folder_of(weights).join(f));
    let first = read_matching(weights, sidecar, stamp);
    match (first, versioned) {
        (Ok(bytes), _) => Ok(bytes),
        (Err(e), Some(other)) => read_matching(&other, sidecar, stamp).map_err(|_| e),
        (Err(e), None) => Err(e),
    }
}

/// The bytes of `weights` when they are the ones `stamp` describes.
fn read_matching(
    weights: &Path,
    sidecar: &Path,
    stamp: &WeightsStamp,
) -> Result<Vec<u8>, WeightsError> {
    let meta = std::fs::metadata(weights).map_err(|error| WeightsError::Unreadable {
        path: weights.to_path_buf(),
        error,
    })?;
    if !meta.is_file() {
        return Err(WeightsError::NotRegular {
            path: weights.to_path_buf(),
        });
    }
    let mismatch = |bytes: u64, fnv1a: &str| WeightsError::Mismatch {
        sidecar: sidecar.to_path_buf(),
        bytes,
        fnv1a: fnv1a.to_string(),
        expected: Box::new(stamp.clone()),
    };
    if meta.len() != stamp.bytes {
        return Err(mismatch(meta.len(), "not computed"));
    }
    let bytes = studio_core::io::read_bytes_capped(weights, stamp.bytes.min(MAX_WEIGHTS_BYTES))?;
    let found = WeightsStamp::of(&bytes);
    if !found.same_bytes(stamp) {
        return Err(mismatch(found.bytes, &found.fnv1a));
    }
    Ok(bytes)
}

/// The largest weights file read: the shipped models are well under a megabyte.
pub const MAX_WEIGHTS_BYTES: u64 = studio_core::io::MAX_FILE_BYTES;

/// Whether the weights file exists (as anything: a loader then says what is wrong with it),
/// or a save stopped between its steps left its sidecar naming a versioned file.
pub fn weights_present(weights: &Path) -> bool {
    std::fs::symlink_metadata(weights).is_ok() || sidecar_path(weights).is_file()
}

/// The versioned name of new weights while a save is under way: `NAME.HASH.safetensors`.
fn versioned_name(weights: &Path, stamp: &WeightsStamp) -> String {
    format!("{}.{}.safetensors", weights_stem(weights), stamp.fnv1a)
}

/// The name of `weights` without its extension, shortened to leave room for a hash.
fn weights_stem(weights: &Path) -> String {
    let stem = weights
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "weights".into());
    studio_core::io::truncate_name(&stem, 200).to_string()
}

/// Whether `name` is a versioned name of `weights` (and no other path).
fn is_versioned_name(weights: &Path, name: &str) -> bool {
    name.strip_prefix(weights_stem(weights).as_str())
        .and_then(|r| r.strip_prefix('.'))
        .and_then(|r| r.strip_suffix(".safetensors"))
        .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The tensors of checked safetensors bytes; every value must be finite.
///
/// # Errors
/// [`WeightsError::Tensors`], the reader's error, or [`WeightsError::NotFinite`] naming a
/// tensor holding NaN or infinity.
pub fn tensors_from(
    bytes: &[u8],
    device: &Device,
) -> Result<HashMap<String, Tensor>, WeightsError> {
    let tensors = candle_core::safetensors::load_buffer(bytes, device)?;
    let mut names: Vec<&String> = tensors.keys().collect();
    names.sort();
    for name in names {
        let values = tensors[name]
            .flatten_all()
            .and_then(|t| t.to_dtype(candle_core::DType::F32))
            .and_then(|t| t.to_vec1::<f32>())?;
        if values.iter().any(|v| !v.is_finite()) {
            return Err(WeightsError::NotFinite { name: name.clone() });
        }
    }
    Ok(tensors)
}

/// Writes the stamp of the weights at `weights` into their sidecar, for sidecars written
/// before they carried one (`train --restamp`). The sidecar must parse as `S`.
///
/// # Errors
/// A [`WeightsError`]: a missing or unreadable file, or one that cannot be written.
pub fn restamp<S: Serialize + DeserializeOwned + Stamped>(
    weights: &Path,
) -> Result<(), WeightsError> {
    let side = sidecar_path(weights);
    let text = studio_core::io::read_text(&side)?;
    let mut sidecar: S = studio_core::io::from_ron(&side, &text)?;
    let bytes = studio_core::io::read_bytes_capped(weights, MAX_WEIGHTS_BYTES)?;
    candle_core::safetensors::load_buffer(&bytes, &Device::Cpu).map_err(|error| {
        WeightsError::NotSafetensors {
            path: weights.to_path_buf(),
            error: Box::new(error),
        }
    })?;
    sidecar.set_stamp(WeightsStamp::of(&bytes));
    let text = studio_core::io::to_ron(&sidecar)?;
    Ok(studio_core::io::write_atomic(&side, text.as_bytes())?)
}

/// The sidecar of a weights file: the same name with `.ron` (architecture, training data,
/// metrics).
pub fn sidecar_path(weights: &Path) -> PathBuf {
    weights.with_extension("ron")
}

/// Reads and parses the sidecar of `weights`; the error names both files.
///
/// # Errors
/// [`WeightsError::Sidecar`] for a missing or unreadable sidecar, [`WeightsError::File`] for
/// a malformed one.
pub fn read_sidecar<S: serde::de::DeserializeOwned>(
    weights: &Path,
) -> Result<(PathBuf, S), WeightsError> {
    let side = sidecar_path(weights);
    let text = studio_core::io::read_text(&side).map_err(|error| WeightsError::Sidecar {
        side: side.clone(),
        weights: weights.to_path_buf(),
        error: Box::new(error),
    })?;
    let sidecar = studio_core::io::from_ron(&side, &text)?;
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
/// with the weights' length and hash, so that a crash at any moment leaves the old pair or
/// the new pair, never a mix:
///
/// 1. the new weights go to a versioned file beside the old (`NAME.HASH.safetensors`);
/// 2. the sidecar, naming that file, replaces the old sidecar (the moment the new pair
///    counts);
/// 3. the versioned file is renamed over `NAME.safetensors`;
/// 4. the sidecar is written again without the versioned name.
///
/// Every file is written through a temporary name and renamed. A loader tries
/// `NAME.safetensors` and then the versioned file, and takes the one the sidecar's stamp
/// describes. The save holds the model's [`WriteLock`](studio_core::io::lock::WriteLock), so a
/// second process writing the same model fails with a clear error. Versioned files that a
/// stopped save left are removed. Creates the folder when missing.
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
    check_sidecar_free(weights)?;
    let dir = studio_core::io::folder_of(weights);
    std::fs::create_dir_all(&dir).map_err(|e| failed(&dir, e.to_string()))?;
    let _lock = studio_core::io::lock::WriteLock::acquire(weights)
        .map_err(|e| failed(weights, e.to_string()))?;
    // candle writes safetensors to a path only: a scratch file of our temporary naming
    // (made exclusively), read back and removed.
    let bytes = studio_core::io::create_temp(weights)
        .map_err(|e| e.to_string())
        .and_then(|(scratch, file)| {
            drop(file);
            let bytes = candle_core::safetensors::save(tensors, &scratch)
                .map_err(|e| e.to_string())
                .and_then(|()| studio_core::io::read_bytes(&scratch).map_err(|e| e.to_string()));
            let _ = std::fs::remove_file(&scratch);
            bytes
        })
        .map_err(|reason| failed(weights, reason))?;
    let stamp = WeightsStamp::of(&bytes);
    let side = sidecar_path(weights);
    let write_sidecar = |file: Option<String>| {
        let mut stamped = sidecar.clone();
        stamped.set_stamp(WeightsStamp {
            file,
            ..stamp.clone()
        });
        let text = studio_core::io::to_ron(&stamped).map_err(|e| failed(&side, e.to_string()))?;
        studio_core::io::write_atomic(&side, text.as_bytes())
            .map_err(|e| failed(&side, e.to_string()))
    };
    let versioned_file = versioned_name(weights, &stamp);
    let versioned = dir.join(&versioned_file);
    studio_core::io::write_atomic(&versioned, &bytes)
        .map_err(|e| failed(&versioned, e.to_string()))?;
    studio_core::io::crash_point("model-versioned");
    write_sidecar(Some(versioned_file))?;
    studio_core::io::crash_point("model-sidecar");
    std::fs::rename(&versioned, weights).map_err(|e| failed(weights, e.to_string()))?;
    studio_core::io::crash_point("model-renamed");
    write_sidecar(None)?;
    remove_versioned(weights);
    Ok(())
}

/// Refuses a model file whose sidecar would replace a level pack (`--pack levels.ron --out
/// levels.safetensors` names the pack as the sidecar): the pack is kept and nothing written.
///
/// # Errors
/// [`WriteError`] naming the pack.
pub fn check_sidecar_free(weights: &Path) -> Result<(), WriteError> {
    let side = sidecar_path(weights);
    if side.is_file() && studio_core::files::load_pack(&side).is_ok() {
        return Err(WriteError {
            path: side.clone(),
            reason: format!(
                "is a level pack, and the model {} would write its sidecar there: name the \
                 model otherwise (nothing was written)",
                weights.display()
            ),
        });
    }
    Ok(())
}

/// Removes the versioned weights files of `weights` that stopped saves left (once the
/// sidecar names none of them).
fn remove_versioned(weights: &Path) {
    let Ok(entries) = std::fs::read_dir(studio_core::io::folder_of(weights)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if is_versioned_name(weights, &name) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Moves every weight of `to` a share `tau` towards the weight of the same name in `from`
/// (a target network's soft update; `tau` 1 copies).
///
/// # Errors
/// A poisoned var map or a tensor failure.
pub fn soft_update(
    from: &candle_nn::VarMap,
    to: &candle_nn::VarMap,
    tau: f64,
) -> candle_core::Result<()> {
    let poisoned = || candle_core::Error::Msg("a var map is poisoned".into());
    let src = from.data().lock().map_err(|_| poisoned())?;
    let dst = to.data().lock().map_err(|_| poisoned())?;
    for (name, var) in src.iter() {
        if let Some(t) = dst.get(name) {
            let mixed = ((var.as_tensor() * tau)? + (t.as_tensor() * (1.0 - tau))?)?;
            t.set(&mixed)?;
        }
    }
    Ok(())
}

/// A fingerprint of every weight of a var map, bit for bit (FNV-1a over the names in order
/// and their `f32` bits): equal fingerprints, equal weights. Tests use it to show that a
/// refactor of a training loop leaves the trained weights exactly as they were.
///
/// # Errors
/// A poisoned var map or a tensor failure.
pub fn weights_digest(varmap: &candle_nn::VarMap) -> candle_core::Result<u64> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("a var map is poisoned".into()))?;
    let mut names: Vec<&String> = data.keys().collect();
    names.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            hash = (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for name in names {
        eat(name.as_bytes());
        let values = data[name]
            .as_tensor()
            .flatten_all()?
            .to_dtype(DType::F32)?
            .to_vec1::<f32>()?;
        for v in values {
            eat(&v.to_bits().to_le_bytes());
        }
    }
    Ok(hash)
}

/// The tensors of a var map by name (what [`save_model`] writes).
///
/// # Errors
/// [`WeightsError::Poisoned`]: a training thread panicked while holding the var map.
pub fn tensors_of(varmap: &candle_nn::VarMap) -> Result<HashMap<String, Tensor>, WeightsError> {
    let data = varmap.data().lock().map_err(|_| WeightsError::Poisoned)?;
    Ok(data
        .iter()
        .map(|(k, v)| (k.clone(), v.as_tensor().clone()))
        .collect())
}

/// Fills every variable from our seeded generator (uniform ±1/√fan-in, as PyTorch does), in
/// name order, so a seed fixes the initial weights on every platform.
///
/// # Errors
/// A tensor failure.
pub fn seeded_init(varmap: &candle_nn::VarMap, seed: u64) -> candle_core::Result<()> {
    let data = varmap
        .data()
        .lock()
        .map_err(|_| candle_core::Error::Msg("poisoned var map".into()))?;
    let mut names: Vec<&String> = data.keys().collect();
    names.sort();
    let mut rng = studio_core::rng::Rng::derive(seed, 0x1417);
    for name in names {
        let var = &data[name];
        let weight_name = name.replace(".bias", ".weight");
        let dims = data
            .get(&weight_name)
            .map_or_else(|| var.dims().to_vec(), |w| w.dims().to_vec());
        let fan_in: usize = dims.iter().skip(1).product::<usize>().max(1);
        let bound = 1.0 / (fan_in as f64).sqrt();
        let values: Vec<f32> = (0..var.elem_count())
            .map(|_| ((rng.unit() * 2.0 - 1.0) * bound) as f32)
            .collect();
        var.set(&Tensor::from_vec(values, var.dims(), var.device())?)?;
    }
    Ok(())
}

/// A fully connected network: linear layers `l1`, `l2`, … between the given widths, ReLU
/// between them and a linear output (the one MLP every model family builds on; the layer
/// names are the safetensors keys).
#[derive(Clone, Debug)]
pub struct Mlp {
    layers: Vec<candle_nn::Linear>,
}

impl Mlp {
    /// The layers under `vb`, from `widths[0]` inputs through the hidden widths to the last
    /// width's outputs (`[input, 128, 128, output]` is two hidden layers).
    ///
    /// # Errors
    /// A weight missing or of the wrong shape.
    pub fn new(widths: &[usize], vb: candle_nn::VarBuilder) -> candle_core::Result<Self> {
        let layers = widths
            .windows(2)
            .enumerate()
            .map(|(i, w)| candle_nn::linear(w[0], w[1], vb.pp(format!("l{}", i + 1))))
            .collect::<candle_core::Result<_>>()?;
        Ok(Self { layers })
    }

    /// The device its weights are on (where its inputs must be made); the CPU for a network
    /// of no layers.
    pub fn device(&self) -> Device {
        self.layers
            .first()
            .map_or(Device::Cpu, |l| l.weight().device().clone())
    }

    /// The output for a batch of inputs.
    ///
    /// # Errors
    /// A tensor failure.
    pub fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        use candle_nn::Module;
        let mut x = x.clone();
        let last = self.layers.len().saturating_sub(1);
        for (i, layer) in self.layers.iter().enumerate() {
            x = layer.forward(&x)?;
            if i < last {
                x = x.relu()?;
            }
        }
        Ok(x)
    }
}

/// AdamW at learning rate `lr` with no weight decay (candle's other defaults): the optimiser
/// every model here trains with unless it says otherwise.
///
/// # Errors
/// A tensor failure.
pub fn adam(vars: Vec<candle_core::Var>, lr: f64) -> candle_core::Result<candle_nn::AdamW> {
    use candle_nn::Optimizer;
    candle_nn::AdamW::new(
        vars,
        candle_nn::ParamsAdamW {
            lr,
            weight_decay: 0.0,
            ..Default::default()
        },
    )
}

/// The replay memory of an off-policy learner (DQN, DDPG, TD3): the last `capacity`
/// transitions, the oldest overwritten first, sampled uniformly with the learner's seeded
/// generator.
#[derive(Clone, Debug)]
pub struct ReplayMemory<T> {
    items: Vec<T>,
    capacity: usize,
    written: usize,
}

impl<T> ReplayMemory<T> {
    /// An empty memory that keeps at most `capacity` transitions (at least one).
    pub fn new(capacity: usize) -> Self {
        Self {
            items: Vec::with_capacity(capacity.clamp(1, 1 << 16)),
            capacity: capacity.max(1),
            written: 0,
        }
    }

    /// Keeps `transition`, in place of the oldest once the memory is full.
    pub fn push(&mut self, transition: T) {
        if self.items.len() < self.capacity {
            self.items.push(transition);
        } else {
            self.items[self.written % self.capacity] = transition;
        }
        self.written += 1;
    }

    /// Transitions kept now.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True before the first transition.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Transitions pushed since the start (kept or since overwritten).
    pub fn written(&self) -> usize {
        self.written
    }

    /// `batch` transitions drawn uniformly, with replacement, one `rng.index` each in order.
    pub fn sample(&self, batch: usize, rng: &mut studio_core::rng::Rng) -> Vec<&T> {
        (0..batch)
            .map(|_| &self.items[rng.index(self.items.len())])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_memory_overwrites_its_oldest_transition_first() {
        let mut memory = ReplayMemory::new(3);
        for t in 0..5 {
            memory.push(t);
        }
        assert_eq!((memory.len(), memory.written()), (3, 5));
        // 0, 1, 2 kept, then 3 and 4 in place of 0 and 1.
        let mut rng = studio_core::rng::Rng::new(1);
        let mut seen: Vec<i32> = memory.sample(200, &mut rng).into_iter().copied().collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen, [2, 3, 4]);
    }

    #[test]
    fn one_mlp_names_its_layers_for_the_weights_file() {
        let varmap = candle_nn::VarMap::new();
        let vb = candle_nn::VarBuilder::from_varmap(
            &varmap,
            candle_core::DType::F32,
            &candle_core::Device::Cpu,
        );
        let mlp = Mlp::new(&[4, 8, 8, 2], vb).unwrap();
        let mut names: Vec<String> = varmap.data().lock().unwrap().keys().cloned().collect();
        names.sort();
        assert_eq!(
            names,
            [
                "l1.bias",
                "l1.weight",
                "l2.bias",
                "l2.weight",
                "l3.bias",
                "l3.weight"
            ]
        );
        seeded_init(&varmap, 3).unwrap();
        let out = mlp
            .forward(
                &Tensor::zeros((5, 4), candle_core::DType::F32, &candle_core::Device::Cpu).unwrap(),
            )
            .unwrap();
        assert_eq!(out.dims(), [5, 2]);
    }
}
