//! `dataset`: regenerate the match-3 datasets (byte-identical for the same seed).

use crate::dataset::{self, DatasetKind, SPLITS};
use crate::Match3Figures;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use studio_core::files;

/// The seed the shipped datasets were made with.
pub const SHIPPED_SEED: u64 = 2024;

/// `dataset`: the flags.
#[derive(Args, Debug)]
pub struct DatasetArgs {
    /// Folder that receives main/, paper/, stylized/ and paperlike/.
    #[arg(long, default_value = "levels/match3")]
    pub out: PathBuf,
    /// Base seed.
    #[arg(long, default_value_t = SHIPPED_SEED)]
    pub seed: u64,
    /// Only this dataset (main, paper, stylized, paperlike).
    #[arg(long)]
    pub only: Option<String>,
}

/// Regenerates the datasets.
///
/// # Errors
/// An unknown `--only`, or a file that cannot be written.
pub fn run(args: &DatasetArgs) -> Result<ExitCode> {
    if let Some(only) = &args.only {
        if !DatasetKind::ALL.iter().any(|k| k.name() == only) {
            let names: Vec<&str> = DatasetKind::ALL.iter().map(|k| k.name()).collect();
            anyhow::bail!("--only {only:?} is not a dataset ({})", names.join(", "));
        }
    }
    for kind in DatasetKind::ALL {
        if args.only.as_deref().is_some_and(|o| o != kind.name()) {
            continue;
        }
        let started = std::time::Instant::now();
        let packs = dataset::build(kind, args.seed);
        let (mut all, mut all_valid) = (0, 0);
        for (pack, split) in packs.iter().zip(SPLITS) {
            let path = args.out.join(kind.name()).join(format!("{split}.ron"));
            files::save_pack(&path, pack)?;
            let valid = pack
                .levels
                .iter()
                .filter(|l| l.figures_of::<Match3Figures>().is_some_and(|f| f.valid))
                .count();
            println!(
                "{}: {} levels ({} valid, {:.1} %)",
                path.display(),
                pack.levels.len(),
                valid,
                share(valid, pack.levels.len())
            );
            all += pack.levels.len();
            all_valid += valid;
        }
        println!(
            "dataset {}: {all} levels, {all_valid} valid ({:.2} %), built in {:.1} s",
            kind.name(),
            share(all_valid, all),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `part` of `whole` in per cent (0 for an empty whole).
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}
