//! `pack merge A.ron B.ron … --out ALL.ron`: packs joined in the order given, such as the
//! parts of a run split with `generate --shard I/N` (joined in order 1 to N, they are the
//! one-process run's pack). Packs of different games, or carrying different descriptions of
//! a game the studio does not build in (a GVGAI game's VGDL), are refused in words.

use super::pack_out::PackOut;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use studio_core::files;
use studio_core::level::Pack;

#[derive(Args, Debug)]
pub struct PackArgs {
    #[command(subcommand)]
    pub action: PackAction,
}

/// What `pack` does.
#[derive(Subcommand, Debug)]
pub enum PackAction {
    /// Join packs in the order given into one (the first pack's name and description).
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The packs, in order (two or more).
    #[arg(required = true, num_args = 2..)]
    pub packs: Vec<PathBuf>,
    /// The merged pack (.ron); never one of the packs merged.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &PackArgs) -> Result<ExitCode> {
    match &args.action {
        PackAction::Merge(m) => merge(m),
    }
}

fn merge(args: &MergeArgs) -> Result<ExitCode> {
    let same_file = |a: &PathBuf| {
        std::fs::canonicalize(a)
            .ok()
            .zip(std::fs::canonicalize(&args.out).ok())
            .is_some_and(|(a, b)| a == b)
    };
    if let Some(p) = args.packs.iter().find(|p| same_file(p)) {
        bail!(
            "--out {} is one of the packs merged: write the merge to a new file",
            p.display()
        );
    }
    let mut packs = Vec::new();
    for path in &args.packs {
        let pack = files::load_regular_pack(path)
            .with_context(|| format!("reading {}", path.display()))?;
        packs.push((path, pack));
    }
    let merged = join(&packs)?;
    let mut out = PackOut::new(&args.out)?;
    out.save(&merged)?;
    println!(
        "merged {} packs, {} levels, into {}",
        packs.len(),
        merged.levels.len(),
        out.path().display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The packs joined, or why they cannot be: every level of one game, and the same
/// descriptions of games the studio does not build in.
pub fn join(packs: &[(&PathBuf, Pack)]) -> Result<Pack> {
    let Some((first_path, first)) = packs.first() else {
        bail!("no pack to merge");
    };
    let game_of = |pack: &Pack| {
        let mut games: Vec<_> = pack.levels.iter().map(|l| l.game).collect();
        games.sort();
        games.dedup();
        games
    };
    if let Some((path, pack)) = packs.iter().find(|(_, p)| game_of(p).len() > 1) {
        bail!(
            "{} holds levels of {} games; merge packs of one game",
            path.display(),
            game_of(pack).len()
        );
    }
    // The game of the first pack with levels (an empty part holds none).
    let (first_path, games) = packs
        .iter()
        .map(|(path, p)| (*path, game_of(p)))
        .find(|(_, g)| !g.is_empty())
        .unwrap_or((*first_path, Vec::new()));
    // The descriptions every pack with levels must carry (an empty part carries none).
    let with_levels = packs.iter().find(|(_, p)| !p.levels.is_empty());
    let mut merged = first.clone();
    for (path, pack) in &packs[1..] {
        let theirs = game_of(pack);
        if !theirs.is_empty() && !games.is_empty() && theirs != games {
            bail!(
                "{} is a pack of {}, {} of {}: merge packs of one game",
                path.display(),
                theirs
                    .iter()
                    .map(|g| g.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                first_path.display(),
                games
                    .iter()
                    .map(|g| g.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if let Some((with_path, with)) = with_levels {
            if !pack.levels.is_empty() && pack.sources != with.sources {
                bail!(
                    "{} and {} carry different game descriptions (a VGDL file changed \
                     between the runs?): their levels are not of one game",
                    path.display(),
                    with_path.display()
                );
            }
        }
        merged.levels.extend(pack.levels.iter().cloned());
    }
    Ok(merged)
}
