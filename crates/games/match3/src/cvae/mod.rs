//! The match-3 layout models of SPEC §3: the Avalon conditional VAE (size + moves) and
//! Vanilla (size only), in candle, with training, evaluation and validated generation.
//!
//! # The API the window calls
//!
//! ```no_run
//! use match3::cvae::{Condition, CvaeModel, ValidatedRequest, generate_validated};
//! use studio_core::symmetry::Symmetry;
//! # fn main() -> Result<(), match3::cvae::ModelError> {
//! let avalon = CvaeModel::load(std::path::Path::new("models/avalon-main.safetensors"))?;
//! let want = Condition::new(7, 9, Symmetry::Vertical, Some(15.0));
//! // Warn before generating when the training set never met this condition.
//! if let match3::cvae::Feasibility::Infeasible { reason, .. } = avalon.feasibility(&want) {
//!     eprintln!("warning: {reason}");
//! }
//! let layouts = avalon.generate(&want, 16, 42)?;            // batched, seeded
//! let report = generate_validated(&avalon, &ValidatedRequest::new(want, 4, 42), None)?;
//! let pack = studio_core::files::load_pack("levels/match3/main/test.ron".as_ref()).unwrap();
//! let (a, b) = (&pack.levels[0], &pack.levels[1]);
//! let z = avalon.encode(a)?;                                 // latent point of a Level
//! let walk = avalon.interpolate(a, b, 5)?;                   // start, 5 between, end
//! # Ok(()) }
//! ```
//!
//! - [`CvaeModel`]: a loaded model (`Send + Sync`: load once, share it with worker threads
//!   through an `Arc`; on CPU it decodes through [`fast::FastDecoder`]). `load` (typed [`ModelError`]s for missing, truncated or
//!   mismatched weights and sidecars of another architecture), `generate(condition, count,
//!   seed)`, `generate_each(conditions, seed)`, `encode(level) → z`, `decode(z, conditions)`,
//!   `interpolate(a, b, steps)`, `feasibility(condition)`.
//! - [`generate_validated`]: generate + validate with the bots until enough levels are valid
//!   and within a tolerance of the requested moves, or a budget is spent; cancellable.
//! - [`train()`](train::train), [`run_sweep`], [`dataset_baseline`]: what `level-studio train` and `eval` run.
//! - [`TrainingSet`]: a dataset folder's split with its fingerprint, which training records and
//!   a loaded model checks.
//! - Files: `NAME.safetensors` (layer names `enc1`…`dec3` are the keys) and `NAME.ron`
//!   ([`Sidecar`]: architecture, move normalisation, data hash, seed, epochs, metrics at
//!   selection, per-size move coverage).

pub mod arch;
pub mod encoding;
pub mod error;
pub mod fast;
pub mod generator;
pub mod metrics;
pub mod screen;
pub mod sidecar;
pub mod sweep;
pub mod train;
pub mod training_set;
pub mod validated;

pub use arch::{Cvae, ModelKind};
pub use encoding::{Condition, MoveRange, Sample};
pub use error::{ModelError, Result};
pub use generator::{CvaeModel, Decoding, Interpolation};
pub use metrics::SweepMetrics;
pub use sidecar::{Feasibility, Sidecar};
pub use sweep::{dataset_baseline, run_sweep, SweepReport};
pub use train::{train, CvaeProgress, CvaeTrainConfig, Trained};
pub use training_set::TrainingSet;
pub use validated::{
    generate_validated, generate_validated_pooled, validated_sweep, CandidatePool, ValidatedReport,
    ValidatedRequest, ValidatedSweep,
};
