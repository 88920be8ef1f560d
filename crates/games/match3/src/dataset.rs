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
    /// Shaped like the paper's main dataset: 81 designer-like and 117 rule-based layouts,
    /// 46 % of them valid, never the open rectangle; paper split sizes.
    PaperLike,
}

impl DatasetKind {
    /// Every dataset.
    pub const ALL: [DatasetKind; 4] = [
        DatasetKind::Main,
        DatasetKind::Paper,
        DatasetKind::Stylized,
        DatasetKind::PaperLike,
    ];

    /// The folder name under `levels/match3/`.
    pub fn name(self) -> &'static str {
        match self {
            DatasetKind::Main => "main",
            DatasetKind::Paper => "paper",
            DatasetKind::Stylized => "stylized",
            DatasetKind::PaperLike => "paperlike",
        }
    }
}

/// Levels per size in the main dataset, and how they split.
pub const MAIN_PER_SIZE: usize = 40;
const MAIN_SPLIT: [usize; 3] = [34, 3, 3];
const PAPER_SPLIT: [usize; 3] = [170, 15, 13];
/// The paper's main dataset: designer levels, rule-based levels, and how many of all its
/// levels are valid (46.15 % of 198, Table II's footnote).
const PAPER_DESIGNER: usize = 81;
const PAPER_RULE_BASED: usize = 117;
const PAPER_VALID: usize = 91;
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
        DatasetKind::PaperLike => {
            let mut levels = paper_like(seed);
            for (s, n) in PAPER_SPLIT.iter().enumerate() {
                splits[s].extend(levels.drain(..*n));
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
        pack.description = match kind {
            DatasetKind::PaperLike => format!(
                "Shaped like the Avalon paper's main dataset: {PAPER_DESIGNER} designer-like and {PAPER_RULE_BASED} rule-based layouts, {PAPER_VALID} of the 198 valid, labelled by the greedy bot (30 games, limit 20); dataset {}, seed {seed}.",
                kind.name()
            ),
            _ => format!(
                "Rule-based synthesiser layouts labelled by the greedy bot (30 games, limit 20); dataset {}, seed {seed}.",
                kind.name()
            ),
        };
        for (i, mut level) in std::mem::take(&mut splits[s]).into_iter().enumerate() {
            level.name = format!("{}-{}-{:04}", kind.name(), SPLITS[s], i + 1);
            let origin = if level.tags.is_empty() {
                "synth".to_string()
            } else {
                level.tags.remove(0)
            };
            level.tags = vec![origin, kind.name().into(), SPLITS[s].into()];
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

/// Whether a labelled level is valid (its median moves within the limit).
fn is_valid(level: &Level) -> bool {
    level.figures_of::<Match3Figures>().is_some_and(|f| f.valid)
}

/// A size as the paper-like dataset draws it: designer-like layouts mostly on the larger
/// boards designers make (widths 6–9, heights 6–11), one in five anywhere; rule-based
/// layouts anywhere.
fn paper_like_size(designer: bool, rng: &mut Rng) -> (usize, usize) {
    if designer && !rng.chance(0.2) {
        (6 + rng.index(4), 6 + rng.index(6))
    } else {
        let sizes = all_sizes();
        sizes[rng.index(sizes.len())]
    }
}

/// The paper-like dataset, shuffled: [`PAPER_DESIGNER`] designer-like layouts
/// ([`synth::designer_like`], tagged `designer`) and [`PAPER_RULE_BASED`] rule-based ones
/// (the synthesiser with at least one feature, tagged `synth`), distinct, none the open
/// rectangle, of which exactly [`PAPER_VALID`] are valid. Candidates are drawn from one seeded
/// stream, labelled a batch at a time, and taken in order while their group and their
/// validity still have room, so the result does not depend on the thread count.
fn paper_like(seed: u64) -> Vec<Level> {
    const BATCH: usize = 64;
    let total = PAPER_DESIGNER + PAPER_RULE_BASED;
    let mut rng = Rng::derive(seed, 1000 + DatasetKind::PaperLike as u64);
    let mut seen = HashSet::new();
    let mut room = [PAPER_DESIGNER, PAPER_RULE_BASED];
    let mut valid_room = [PAPER_VALID, total - PAPER_VALID];
    let mut levels = Vec::new();
    let mut batches = 0;
    while levels.len() < total {
        batches += 1;
        assert!(
            batches < 500,
            "the paper-like dataset found no room for {} more levels",
            total - levels.len()
        );
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            let designer = rng.chance(0.5);
            let (w, h) = paper_like_size(designer, &mut rng);
            let layout = if designer {
                synth::designer_like(w, h, &mut rng)
            } else {
                let sym = synth::designer_symmetry(&mut rng);
                let features = 1 + rng.index(1 + w * h / 10);
                synth::synthesise(w, h, sym, features, &mut rng)
            };
            let Some(layout) = layout else { continue };
            if Layout::open(w, h).is_ok_and(|open| open == layout) || !seen.insert(layout.clone()) {
                continue;
            }
            batch.push((designer, layout));
        }
        let labelled: Vec<Level> = batch.par_iter().map(|(_, l)| labelled(l)).collect();
        for ((designer, _), mut level) in batch.into_iter().zip(labelled) {
            let group = usize::from(!designer);
            let validity = usize::from(!is_valid(&level));
            if levels.len() < total && room[group] > 0 && valid_room[validity] > 0 {
                room[group] -= 1;
                valid_room[validity] -= 1;
                level.tags = vec![if designer { "designer" } else { "synth" }.into()];
                levels.push(level);
            }
        }
    }
    rng.shuffle(&mut levels);
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_like_dataset_has_the_papers_shape() {
        let levels = paper_like(2024);
        assert_eq!(levels.len(), PAPER_DESIGNER + PAPER_RULE_BASED);
        let designer = levels.iter().filter(|l| l.tags[0] == "designer").count();
        assert_eq!(designer, PAPER_DESIGNER);
        assert_eq!(levels.iter().filter(|l| is_valid(l)).count(), PAPER_VALID);
        let mut seen = HashSet::new();
        for level in &levels {
            let layout = level.layout().unwrap();
            let (w, h) = layout.size();
            assert!(
                WIDTHS.contains(&w) && HEIGHTS.contains(&h),
                "{}",
                level.name
            );
            assert_ne!(layout, Layout::open(w, h).unwrap(), "an open rectangle");
            assert!(seen.insert(layout), "a layout twice");
        }
        let again: Vec<Vec<String>> = paper_like(2024).into_iter().map(|l| l.cells).collect();
        let first: Vec<Vec<String>> = levels.into_iter().map(|l| l.cells).collect();
        assert_eq!(first, again, "the same seed gives the same dataset");
    }
}
