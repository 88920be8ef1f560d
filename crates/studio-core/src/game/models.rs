//! The loaded models, shared by the window's workers and the command line: each weights
//! file loads once, on first use; a failure is kept with its message so the sidebar can say
//! why a generator is unavailable.

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

type Loaded = Result<Arc<dyn Any + Send + Sync>, ModelError>;

/// Why a model is not there to use; kept in the cache, so it is cloned to every caller.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ModelError {
    /// The loader's own error, with its type (missing weights, a damaged file).
    #[error(transparent)]
    Load(Arc<dyn std::error::Error + Send + Sync>),
    /// A thread panicked while loading a model.
    #[error("model cache poisoned")]
    Poisoned,
    /// The file was loaded as another kind of model.
    #[error("{path} holds another kind of model")]
    OtherKind {
        /// The weights file.
        path: PathBuf,
    },
    /// The file was loaded as another kind of model (asked without waiting).
    #[error("another kind of model")]
    OtherKindPeeked,
}

impl ModelError {
    /// The loader's error as type `E`, when it is one.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        match self {
            ModelError::Load(e) => e.downcast_ref::<E>(),
            _ => None,
        }
    }
}

/// Models by weights path, loaded on first use.
#[derive(Clone, Debug, Default)]
pub struct ModelCache {
    dir: PathBuf,
    loaded: Arc<Mutex<HashMap<PathBuf, Loaded>>>,
}

impl ModelCache {
    /// A cache reading shipped weights from `dir` (`models/`).
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
            loaded: Arc::default(),
        }
    }

    /// The folder of the shipped weights.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The model at `path`, loading it with `load` on first use (the lock is held while it
    /// loads, so two jobs never load one file twice).
    ///
    /// # Errors
    /// [`ModelError`]: why it cannot be loaded, the loader's error kept with its type (and
    /// kept in the cache: later calls answer the same without retrying).
    pub fn get_or_load<T: Any + Send + Sync, E>(
        &self,
        path: &Path,
        load: impl FnOnce(&Path) -> Result<T, E>,
    ) -> Result<Arc<T>, ModelError>
    where
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let mut map = self.loaded.lock().map_err(|_| ModelError::Poisoned)?;
        let entry = map.entry(path.to_path_buf()).or_insert_with(|| {
            load(path)
                .map(|m| Arc::new(m) as Arc<dyn Any + Send + Sync>)
                .map_err(|e| ModelError::Load(Arc::from(e.into())))
        });
        match entry {
            Ok(model) => model
                .clone()
                .downcast::<T>()
                .map_err(|_| ModelError::OtherKind {
                    path: path.to_path_buf(),
                }),
            Err(e) => Err(e.clone()),
        }
    }

    /// Forgets the model at `path` (loaded or failed), so the next use reads the file again:
    /// a model retrained or replaced on disk.
    pub fn forget(&self, path: &Path) {
        if let Ok(mut map) = self.loaded.lock() {
            map.remove(path);
        }
    }

    /// The model at `path` if it has been loaded, without waiting for a load in progress.
    pub fn peek<T: Any + Send + Sync>(&self, path: &Path) -> Option<Result<Arc<T>, ModelError>> {
        let map = self.loaded.try_lock().ok()?;
        Some(match map.get(path)? {
            Ok(model) => model
                .clone()
                .downcast::<T>()
                .map_err(|_| ModelError::OtherKindPeeked),
            Err(e) => Err(e.clone()),
        })
    }

    /// True once a load of `path` was tried (loaded or failed; never blocks).
    pub fn tried(&self, path: &Path) -> bool {
        self.loaded
            .try_lock()
            .map(|map| map.contains_key(path))
            .unwrap_or(true)
    }

    /// The load error of `path`, if a load was tried and failed (never blocks).
    pub fn load_error(&self, path: &Path) -> Option<String> {
        let map = self.loaded.try_lock().ok()?;
        map.get(path)
            .and_then(|r| r.as_ref().err().map(ToString::to_string))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forgotten_model_is_read_again_on_next_use() {
        let cache = ModelCache::new(Path::new("models"));
        let path = Path::new("m.safetensors");
        let first = cache.get_or_load(path, |_| Ok::<_, String>(1u32)).unwrap();
        // Loaded once: a second loader is not called.
        let again = cache.get_or_load(path, |_| Ok::<_, String>(2u32)).unwrap();
        assert_eq!((*first, *again), (1, 1));
        cache.forget(path);
        assert!(!cache.tried(path));
        assert_eq!(
            *cache.get_or_load(path, |_| Ok::<_, String>(3u32)).unwrap(),
            3
        );
    }
}
