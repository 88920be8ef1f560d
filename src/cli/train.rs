//! `train`: train a model with progress and checkpoints, by the game that owns the model.

use super::bounds;
use anyhow::{bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// avalon, vanilla (match-3 cVAEs), longcat-ridge (difficulty predictor), longcat-dqn,
    /// course-ddpg, course-vs-ddpg.
    #[arg(long)]
    pub model: String,
    /// Training data: a dataset folder (match-3) or a playtest CSV (longcat-ridge).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Where to write the trained weights.
    #[arg(long)]
    pub out: PathBuf,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Training epochs (episodes for the course's RL models, steps for longcat-dqn), 1 to
    /// 1,000,000, instead of the model's default.
    #[arg(long, value_parser = bounds::EPOCHS.parser::<usize>())]
    pub epochs: Option<usize>,
    /// Level size as WxH, each side 1 to 64 cells (longcat-dqn: 2x2 to 10x10).
    #[arg(long, value_parser = bounds::parse_size, allow_hyphen_values = true)]
    pub size: Option<(usize, usize)>,
    /// Match-3 cVAEs: show each valid training level (median ≤ 20 moves) this many times
    /// per epoch, 1 to 100.
    #[arg(long, default_value_t = 1, value_parser = bounds::VALID_REPEATS.parser::<usize>())]
    pub valid_repeats: usize,
    /// Match-3 cVAEs: weight of the KL term in the loss, more than 0, at most 100.
    #[arg(long, default_value_t = 1.0, value_parser = bounds::KL_WEIGHT.parser())]
    pub kl_weight: f64,
    /// Match-3 cVAEs: free bits, nats per latent dimension the KL term does not charge for,
    /// 0 to 10.
    #[arg(long, default_value_t = 0.0, value_parser = bounds::FREE_BITS.parser())]
    pub free_bits: f64,
    /// Match-3 cVAEs: how many checkpoints the run scores (evenly spaced), 1 to 100.
    #[arg(long, default_value_t = 8, value_parser = bounds::CHECKPOINTS.parser::<usize>())]
    pub checkpoints: usize,
    /// Match-3 cVAEs: seeded 144-level sweeps averaged to score a checkpoint, 1 to 100.
    #[arg(long, default_value_t = 2, value_parser = bounds::SELECTION_SWEEPS.parser::<usize>())]
    pub selection_sweeps: usize,
    /// Course actors: events per course, 9 or 12.
    #[arg(long, default_value_t = 9, value_parser = bounds::parse_events)]
    pub events: usize,
    /// longcat-dqn: virtual completions per step, 0 to 100 (virtual simulation; 0: the
    /// shipped rewards).
    #[arg(long, default_value_t = 0, value_parser = bounds::VIRTUAL_COMPLETIONS.parser::<usize>())]
    pub virtual_completions: usize,
    /// Blend VAEs: stop after this many epochs without a lower validation loss, 0 to 100,000
    /// (0: train every epoch). The weights kept are always the lowest validation loss's.
    #[arg(long, default_value_t = 0, value_parser = bounds::PATIENCE.parser::<usize>())]
    pub patience: usize,
    /// Blend VAEs: every 10 epochs, print the E-distance of this many blends drawn from the
    /// prior, 0 to 10,000 (0: never). A diagnostic; it chooses nothing.
    #[arg(long, default_value_t = 0, value_parser = bounds::TRACE.parser::<usize>())]
    pub trace: usize,
    /// Do not train: write the length and hash of the existing weights at --out into their
    /// sidecar (for sidecars written before they carried one). Only for weights you trust.
    #[arg(long)]
    pub restamp: bool,
}

pub fn run(args: &TrainArgs) -> Result<ExitCode> {
    // One writer onto a model at a time: a second training onto the same --out fails now,
    // not after hours of training (the lock is counted, so the run's own saves take it too).
    if let Some(folder) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| anyhow::anyhow!("{}: {e}", folder.display()))?;
    }
    let _lock = crate::io::lock::WriteLock::acquire(&args.out)?;
    super::GAME_COMMANDS
        .iter()
        .find_map(|g| (g.train)(args))
        .unwrap_or_else(|| {
            let known: Vec<&str> = super::GAME_COMMANDS
                .iter()
                .flat_map(|g| g.models.iter().copied())
                .collect();
            bail!("unknown model {:?} ({})", args.model, known.join(", "))
        })
}

/// Refuses a model written over one of the command's own inputs (its weights or their
/// sidecar), however the two paths are spelled: a training that replaced the model it reads
/// would leave nothing that loads.
///
/// # Errors
/// The output and the input it would replace, named.
pub(super) fn refuse_writing_over(
    out: &std::path::Path,
    inputs: &[&std::path::Path],
) -> Result<()> {
    let files =
        |weights: &std::path::Path| [weights.to_path_buf(), crate::ml::sidecar_path(weights)];
    for written in files(out) {
        let Some(written_at) = resolved(&written) else {
            continue;
        };
        for input in inputs.iter().flat_map(|i| files(i)) {
            if resolved(&input).is_some_and(|read_at| read_at == written_at) {
                bail!(
                    "--out {}: it would write over {}, which this command reads; write the \
                     model to another name",
                    out.display(),
                    input.display()
                );
            }
        }
    }
    Ok(())
}

/// Where a path points once `..`, `.` and links are followed: the file itself when it exists,
/// else its folder's real path and its name.
fn resolved(path: &std::path::Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let name = path.file_name()?;
    let folder = crate::io::folder_of(path);
    std::fs::canonicalize(folder).ok().map(|f| f.join(name))
}
