//! A TD3 or VS-TD3 training run from the first episode to the file: the loop of `train`,
//! the best actor saved as a checkpoint whenever it improves, and the kept one saved at the
//! end with its curves. The command line parses the flags and prints; this owns the run.

use super::file::{save, Td3Sidecar, ARCHITECTURE};
use super::train::{train, Td3Config, Td3Progress, Trained};
use super::Td3Error;
use crate::cgan::Generator;
use crate::patterns::PatLegal;
use std::path::Path;
use studio_ml::{WeightsError, WeightsStamp};

/// What a training run is given.
pub struct Td3Run<'a> {
    /// The sidecar's kind: `td3` or `vs-td3`.
    pub kind: &'a str,
    /// The run's settings.
    pub config: &'a Td3Config,
    /// The CGAN the actor steers.
    pub cgan: &'a Generator,
    /// The CGAN's weights stamp, recorded in the sidecar.
    pub cgan_stamp: Option<WeightsStamp>,
    /// The legal patterns Matching picks from.
    pub pat: &'a PatLegal,
    /// The command that repeats the run, recorded in the sidecar.
    pub command: &'a str,
    /// Where the weights and the sidecar go.
    pub out: &'a Path,
}

/// Why a training run stopped.
#[derive(Debug, thiserror::Error)]
pub enum Td3RunError {
    /// The training loop failed.
    #[error("training failed: {0}")]
    Training(Td3Error),
    /// The kept actor could not be written.
    #[error(transparent)]
    Save(#[from] WeightsError),
}

impl Td3Run<'_> {
    /// Trains, saving the best actor so far as a checkpoint, then the kept actor with the
    /// run's curves; `report` hears each test phase (returning false stops the run).
    ///
    /// # Errors
    /// [`Td3RunError`]: the loop failed, or the weights could not be written.
    pub fn train_to_file(
        &self,
        report: &mut dyn FnMut(&Td3Progress) -> bool,
    ) -> Result<Trained, Td3RunError> {
        let trained = train(
            self.cgan,
            self.pat,
            self.config,
            report,
            &mut |actor, critic, p| {
                // A checkpoint: the best actor so far, saved whole, so a stopped run keeps it.
                let side = self.sidecar(
                    Vec::new(),
                    Vec::new(),
                    Vec::new(),
                    (p.episode, p.best_test),
                    p.best_is_average,
                    p.seconds,
                );
                save(actor, critic, &side, self.out)
            },
        )
        .map_err(Td3RunError::Training)?;
        let sidecar = self.sidecar(
            trained.curve.clone(),
            trained.test_curve.clone(),
            trained.average_curve.clone(),
            trained.best,
            trained.kept_average,
            trained.seconds,
        );
        save(&trained.actor_map, &trained.critic_map, &sidecar, self.out)?;
        Ok(trained)
    }

    /// The sidecar of the run's actor kept at `kept` (episode, test mean), with its curves.
    fn sidecar(
        &self,
        curve: Vec<f64>,
        test_curve: Vec<(usize, f64)>,
        average_curve: Vec<(usize, f64)>,
        kept: (usize, f64),
        kept_average: bool,
        seconds: f64,
    ) -> Td3Sidecar {
        Td3Sidecar {
            architecture: ARCHITECTURE.into(),
            widths: Td3Sidecar::expected_widths(),
            kind: self.kind.into(),
            virtual_completions: self.config.virtual_completions,
            seed: self.config.seed,
            episodes: self.config.episodes,
            cgan: self.cgan_stamp.clone(),
            train_seconds: seconds,
            curve,
            test_curve,
            kept,
            kept_average,
            average_curve,
            command: self.command.to_string(),
            weights: None,
        }
    }
}
