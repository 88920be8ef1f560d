//! The match-3 datasets: layouts from the rule-based synthesiser, each labelled by the bots,
//! split into train / validation / test. Same seed, byte-identical files.

use super::layout::{Layout, HEIGHTS, WIDTHS};
use super::synth;
use super::validate::{validate, ValidationConfig};
use super::Match3Figures;
use crate::Match3Level;
use rayon::prelude::*;
use std::collections::HashSet;
use studio_core::level::{Figures, Level, Pack};
use studio_core::rng::Rng;
use studio_core::symmetry::Symmetry;

/// The three datasets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatasetKind {
    /// Dense: every size, a spread of difficulties, ≥1,500 training levels.
    Main,
    /// The paper's split sizes (170 / 15 / 13).
    Paper,
    /// One 2×2 BLOCK pattern at a random place, no symmetry, paper split sizes.
    Stylized,
}

impl DatasetKind {
    /// Every dataset.
    pub const ALL: [DatasetKind; 3] =
        [DatasetKind::Main, DatasetKind::Paper, DatasetKind::Stylized];

    /// The folder name under `levels/match3/`.
    pub fn name(self) -> &'static str {
        match self {
            DatasetKind::Main => "main",
            DatasetKind::Paper => "paper",
            DatasetKind::Stylized => "stylized",
        }
    }
}

/// Levels per size in the main dataset, and how they split.
pub const MAIN_PER_SIZE: usize = 40;
const MAIN_SPLIT: [usize; 3] = [34, 3, 3];
const PAPER_SPLIT: [usize; 3] = [170, 15, 13];
/// Split names, in file order.
pub const SPLITS: [&str; 3] = ["train", "validation", "test"];

/// Every (width, height) a layout may have, widths outer.
pub fn all_sizes() -> Vec<(usize, usize)> {
    WIDTHS.flat_map(|w| HEIGHTS.map(move |h| (w, h))).collect()
}

/// Builds one dataset's three splits, labelled by the bots.
pub fn build(kind: DatasetKind, seed: u64) -> [Pack; 3] {
    let mut splits: [Vec<Level>; 3] = Default::default();
    match kind {
        DatasetKind::Main => {
            let per_size: Vec<Vec<Level>> = all_sizes()
                .par_iter()
                .enumerate()
                .map(|(i, &(w, h))| main_size(w, h, Rng::derive(seed, i as u64)))
                .collect();
            for mut levels in per_size {
                for (s, n) in MAIN_SPLIT.iter().enumerate() {
                    let take = (*n).min(levels.len());
                    splits[s].extend(levels.drain(..take));
                }
            }
        }
        DatasetKind::Paper | DatasetKind::Stylized => {
            let total: usize = PAPER_SPLIT.iter().sum();
            let mut rng = Rng::derive(seed, 1000 + kind as u64);
            let sizes = all_sizes();
            let mut seen = HashSet::new();
            let mut levels = Vec::new();
            while levels.len() < total {
                let (w, h) = sizes[rng.index(sizes.len())];
                let layout = match kind {
                    DatasetKind::Stylized => synth::stylized(w, h, &mut rng),
                    _ => {
                        let sym = synth::designer_symmetry(&mut rng);
                        let features = rng.index(2 + w * h / 10);
                        synth::synthesise(w, h, sym, features, &mut rng)
                    }
                };
                if let Some(layout) = layout {
                    if seen.insert(layout.clone()) {
                        levels.push(layout);
                    }
                }
            }
            let mut levels: Vec<Level> = levels.par_iter().map(labelled).collect();
            let mut start = 0;
            for (s, n) in PAPER_SPLIT.iter().enumerate() {
                splits[s].extend(levels.drain(..*n));
                start += n;
            }
            debug_assert_eq!(start, total);
        }
    }
    std::array::from_fn(|s| {
        let mut pack = Pack::new(format!("match3 {} {}", kind.name(), SPLITS[s]));
        pack.description = format!(
            "Rule-based synthesiser layouts labelled by the greedy bot (30 games, limit 20); dataset {}, seed {seed}.",
            kind.name()
        );
        for (i, mut level) in std::mem::take(&mut splits[s]).into_iter().enumerate() {
            level.name = format!("{}-{}-{:04}", kind.name(), SPLITS[s], i + 1);
            level.tags = vec!["synth".into(), kind.name().into(), SPLITS[s].into()];
            pack.levels.push(level);
        }
        pack
    })
}

/// An unnamed level of `layout` with the bots' figures (none when validation fails).
fn labelled(layout: &Layout) -> Level {
    let mut level = Level::from_layout("", layout);
    if let Ok(v) = validate(layout, &ValidationConfig::default()) {
        level.figures = Some(Figures::new(Match3Figures::from(&v)));
    }
    level
}

/// The levels of one size: distinct layouts of rising busyness, shuffled, then labelled.
fn main_size(w: usize, h: usize, mut rng: Rng) -> Vec<Level> {
    let mut seen = HashSet::new();
    let mut levels = Vec::new();
    let max_features = 1 + w * h / 16;
    let mut tries = 0;
    while levels.len() < MAIN_PER_SIZE && tries < 20 * MAIN_PER_SIZE {
        tries += 1;
        let sym = synth::designer_symmetry(&mut rng);
        let features = (levels.len() * max_features) / MAIN_PER_SIZE + rng.index(2);
        let sym = if w * h <= 20 && rng.chance(0.5) {
            Symmetry::None
        } else {
            sym
        };
        if let Some(layout) = synth::synthesise(w, h, sym, features, &mut rng) {
            if seen.insert(layout.clone()) {
                levels.push(layout);
            }
        }
    }
    rng.shuffle(&mut levels);
    levels.iter().map(labelled).collect()
}
