//! What the network sees and says: conditions, the masked one-hot encoder input, the
//! decoder's condition vector, and logits turned back into symmetric layouts.

use super::arch::{ModelKind, CLASSES, HEIGHT_CLASSES, WIDTH_CLASSES};
use super::error::{ModelError, Result};
use crate::layout::{
    area_origin, Cell, Layout, CANVAS_CELLS, CANVAS_HEIGHT, CANVAS_WIDTH, HEIGHTS, WIDTHS,
};
use crate::Match3Figures;
use crate::Match3Level;
use candle_core::{Device, Tensor};
use serde::{Deserialize, Serialize};
use studio_core::grid::Grid;
use studio_core::level::Level;
use studio_core::symmetry::{self, Symmetry};

/// The most moves a validation can record (a failed game records `2 × 20`).
pub const MAX_RECORDED_MOVES: f64 = 40.0;

/// What a designer asks for: a play-area size, a symmetry and (Avalon) a move count.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Condition {
    /// Play-area width, 4..=9.
    pub width: usize,
    /// Play-area height, 4..=11.
    pub height: usize,
    /// The symmetry the levels are mirrored to.
    pub symmetry: Symmetry,
    /// Target median moves (Avalon); ignored by Vanilla.
    pub moves: Option<f64>,
}

impl Condition {
    /// A condition; checked when used.
    pub fn new(width: usize, height: usize, symmetry: Symmetry, moves: Option<f64>) -> Self {
        Self {
            width,
            height,
            symmetry,
            moves,
        }
    }

    /// Checks the size and moves ranges.
    ///
    /// # Errors
    /// [`ModelError::SizeOutOfRange`], [`ModelError::MovesOutOfRange`].
    pub fn check(&self) -> Result<()> {
        if !WIDTHS.contains(&self.width) || !HEIGHTS.contains(&self.height) {
            return Err(ModelError::SizeOutOfRange {
                width: self.width,
                height: self.height,
            });
        }
        if let Some(m) = self.moves {
            if !(1.0..=MAX_RECORDED_MOVES).contains(&m) || m.is_nan() {
                return Err(ModelError::MovesOutOfRange {
                    moves: m,
                    max: MAX_RECORDED_MOVES,
                });
            }
        }
        Ok(())
    }
}

/// The training set's move range, used to normalise moves to `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRange {
    /// Fewest median moves in the training set (maps to 0).
    pub min: f64,
    /// Most median moves in the training set (maps to 1).
    pub max: f64,
}

impl MoveRange {
    /// `moves` mapped to `[0, 1]` (clamped).
    pub fn normalise(&self, moves: f64) -> f64 {
        let span = (self.max - self.min).max(1e-9);
        ((moves - self.min) / span).clamp(0.0, 1.0)
    }
}

/// True at canvas cells that the loss and the encoder keep: the play area of `width × height`
/// restricted to the symmetry mask. Row-major over the 9×11 canvas.
pub fn kept_cells(width: usize, height: usize, symmetry: Symmetry) -> [bool; CANVAS_CELLS] {
    let mut kept = [false; CANVAS_CELLS];
    let (x0, y0) = area_origin(width, height);
    let mask = symmetry::mask(width, height, symmetry);
    for (x, y, k) in mask.iter() {
        kept[(y0 + y) * CANVAS_WIDTH + x0 + x] = k;
    }
    kept
}

/// True inside the centred `width × height` play area.
pub fn size_mask(width: usize, height: usize) -> [bool; CANVAS_CELLS] {
    kept_cells(width, height, Symmetry::None)
}

/// One training level in the network's terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The level's cells.
    pub layout: Layout,
    /// Size as the game defines it (longest PLAYFIELD runs): the size condition.
    pub width: usize,
    /// See `width`.
    pub height: usize,
    /// Detected symmetry of the play area.
    pub symmetry: Symmetry,
    /// The bots' median moves.
    pub moves: f64,
}

impl Sample {
    /// A sample from a stored level (its layout, detected symmetry and validated moves).
    ///
    /// # Errors
    /// [`ModelError::BadLevel`] when the cells are not a layout or the size is out of range.
    pub fn from_level(level: &Level, moves: Option<f64>) -> Result<Self> {
        let bad = |reason: String| ModelError::BadLevel {
            name: level.name.clone(),
            reason,
        };
        let layout = level.layout().map_err(|e| bad(e.to_string()))?;
        let (width, height) = layout.size();
        Condition::new(width, height, Symmetry::None, None)
            .check()
            .map_err(|e| bad(e.to_string()))?;
        let moves = moves
            .or_else(|| level.figures_of::<Match3Figures>().map(|f| f.median_moves))
            .unwrap_or(MAX_RECORDED_MOVES);
        if !moves.is_finite() || moves < 0.0 {
            return Err(bad(format!(
                "its median moves ({moves}) is not a number of moves; validate the level again"
            )));
        }
        Ok(Self {
            symmetry: layout.symmetry(),
            layout,
            width,
            height,
            moves,
        })
    }

    /// The sample's own condition.
    pub fn condition(&self) -> Condition {
        Condition::new(self.width, self.height, self.symmetry, Some(self.moves))
    }
}

/// Encoder inputs `[N, C, 11, 9]`, one-hot targets `[N, 3, 11, 9]` and loss masks `[N, 11, 9]`
/// for a batch of samples.
///
/// # Errors
/// Tensor construction failures.
pub fn encoder_batch(
    kind: ModelKind,
    samples: &[&Sample],
    range: &MoveRange,
    device: &Device,
) -> Result<(Tensor, Tensor, Tensor)> {
    let n = samples.len();
    let channels = kind.encoder_channels();
    let mut x = vec![0f32; n * channels * CANVAS_CELLS];
    let mut target = vec![0f32; n * CLASSES * CANVAS_CELLS];
    let mut mask = vec![0f32; n * CANVAS_CELLS];
    for (i, s) in samples.iter().enumerate() {
        let kept = kept_cells(s.width, s.height, s.symmetry);
        let inside = size_mask(s.width, s.height);
        let d = range.normalise(s.moves) as f32;
        for (c, &cell) in s.layout.canvas().cells().iter().enumerate() {
            let class = cell as usize;
            target[(i * CLASSES + class) * CANVAS_CELLS + c] = 1.0;
            if kept[c] {
                x[(i * channels + class) * CANVAS_CELLS + c] = 1.0;
                mask[i * CANVAS_CELLS + c] = 1.0;
            }
            x[(i * channels + CLASSES) * CANVAS_CELLS + c] = f32::from(u8::from(inside[c]));
            if kind.uses_moves() {
                x[(i * channels + CLASSES + 1) * CANVAS_CELLS + c] = d;
            }
        }
    }
    let x = Tensor::from_vec(x, (n, channels, CANVAS_HEIGHT, CANVAS_WIDTH), device)?;
    let target = Tensor::from_vec(target, (n, CLASSES, CANVAS_HEIGHT, CANVAS_WIDTH), device)?;
    let mask = Tensor::from_vec(mask, (n, CANVAS_HEIGHT, CANVAS_WIDTH), device)?;
    Ok((x, target, mask))
}

/// The decoder's condition vector `[one-hot W, one-hot H, d]` (no `d` for Vanilla).
pub fn condition_vector(
    kind: ModelKind,
    width: usize,
    height: usize,
    moves: Option<f64>,
    range: &MoveRange,
) -> Vec<f32> {
    let mut v = vec![0f32; WIDTH_CLASSES + HEIGHT_CLASSES];
    v[width - WIDTHS.start()] = 1.0;
    v[WIDTH_CLASSES + height - HEIGHTS.start()] = 1.0;
    if kind.uses_moves() {
        v.push(range.normalise(moves.unwrap_or(MAX_RECORDED_MOVES)) as f32);
    }
    v
}

/// Conditions `[N, 14 (+1)]` for a batch of samples.
///
/// # Errors
/// Tensor construction failures.
pub fn condition_batch(
    kind: ModelKind,
    conditions: &[Condition],
    range: &MoveRange,
    device: &Device,
) -> Result<Tensor> {
    let rows: Vec<f32> = conditions
        .iter()
        .flat_map(|c| condition_vector(kind, c.width, c.height, c.moves, range))
        .collect();
    let width = rows.len() / conditions.len().max(1);
    Ok(Tensor::from_vec(rows, (conditions.len(), width), device)?)
}

/// Turns decoder logits (`[N, 3, 11, 9]`, flattened row-major) into layouts: argmax per cell
/// inside the requested play area (BLOCK outside), then mirrored by the requested symmetry.
/// An area with no PLAYFIELD gets one at the kept cell that most wants it.
///
/// # Errors
/// [`ModelError::SizeOutOfRange`] for a condition whose play area is empty or does not fit
/// the canvas.
pub fn layouts_from_logits(logits: &[f32], conditions: &[Condition]) -> Result<Vec<Layout>> {
    conditions
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let kept = kept_scores(logits, i, c);
            let classes: Vec<usize> = kept.iter().map(|k| argmax(&k.scores)).collect();
            layout_from_classes(c, &kept, &classes)
        })
        .collect()
}

/// The decoder's most likely layout for level `index` of a batch that is not `known` and
/// keeps the requested size: the argmax layout with the one or two kept cells changed whose
/// change costs the least logit margin (mirrored cells follow). `None` when no such edit
/// exists (every nearby layout of that size is known).
pub fn novel_layout_from_logits(
    logits: &[f32],
    index: usize,
    condition: &Condition,
    known: impl Fn(&Layout) -> bool,
) -> Option<Layout> {
    /// How many of the cheapest single changes are combined into pairs.
    const PAIRED: usize = 24;
    let kept = kept_scores(logits, index, condition);
    let best: Vec<usize> = kept.iter().map(|k| argmax(&k.scores)).collect();
    // Every single change (cell, new class) with its cost, cheapest first.
    let mut singles: Vec<(f32, usize, usize)> = Vec::with_capacity(kept.len() * 2);
    for (j, k) in kept.iter().enumerate() {
        for class in (0..CLASSES).filter(|&class| class != best[j]) {
            singles.push((k.scores[best[j]] - k.scores[class], j, class));
        }
    }
    singles.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut pairs: Vec<(f32, [(usize, usize); 2])> = Vec::new();
    let head = &singles[..singles.len().min(PAIRED)];
    for (a, &(ca, ja, ka)) in head.iter().enumerate() {
        for &(cb, jb, kb) in &head[a + 1..] {
            if ja != jb {
                pairs.push((ca + cb, [(ja, ka), (jb, kb)]));
            }
        }
    }
    // Singles and pairs interleaved by cost: a cheap pair beats a dear single.
    let mut edits: Vec<(f32, Vec<(usize, usize)>)> = singles
        .iter()
        .map(|&(cost, j, k)| (cost, vec![(j, k)]))
        .chain(pairs.into_iter().map(|(cost, e)| (cost, e.to_vec())))
        .collect();
    edits.sort_by(|a, b| a.0.total_cmp(&b.0));
    let size = (condition.width, condition.height);
    edits.into_iter().find_map(|(_, edit)| {
        let mut classes = best.clone();
        for (j, k) in edit {
            classes[j] = k;
        }
        let layout = layout_from_classes(condition, &kept, &classes).ok()?;
        (layout.size() == size && !known(&layout)).then_some(layout)
    })
}

/// A layout drawn from the decoder's per-cell distributions for level `index` of a batch:
/// each kept cell's class from the softmax of its scores divided by `temperature` (mirrored
/// cells follow, so the symmetry holds), drawn with `rng`. Temperature 1 draws from the
/// decoder's own probabilities; towards 0 it approaches the argmax.
///
/// # Errors
/// [`ModelError::SizeOutOfRange`] as [`layouts_from_logits`].
pub fn sampled_layout_from_logits(
    logits: &[f32],
    index: usize,
    condition: &Condition,
    temperature: f32,
    rng: &mut studio_core::rng::Rng,
) -> Result<Layout> {
    let classes = sampled_classes_from_logits(logits, index, condition, temperature, rng);
    layout_from_classes(condition, &kept_scores(logits, index, condition), &classes)
}

/// The classes of [`sampled_layout_from_logits`], one per kept cell (the cells the symmetry
/// keeps, in mask order), for [`pushed_layout_from_logits`] to start from.
pub fn sampled_classes_from_logits(
    logits: &[f32],
    index: usize,
    condition: &Condition,
    temperature: f32,
    rng: &mut studio_core::rng::Rng,
) -> Vec<usize> {
    let kept = kept_scores(logits, index, condition);
    let t = temperature.max(1e-3);
    kept.iter()
        .map(|k| {
            let top = k.scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let weights = k.scores.map(|s| f64::from(((s - top) / t).exp()));
            let mut u = rng.unit() * weights.iter().sum::<f64>();
            for (class, w) in weights.iter().enumerate() {
                if u < *w {
                    return class;
                }
                u -= w;
            }
            CLASSES - 1
        })
        .collect()
}

/// The layout of kept-cell `classes` (as [`sampled_classes_from_logits`] gives them) for
/// level `index` of a batch, mirrored by the condition's symmetry.
///
/// # Errors
/// [`ModelError::SizeOutOfRange`] as [`layouts_from_logits`].
pub fn layout_of_classes(
    logits: &[f32],
    index: usize,
    condition: &Condition,
    classes: &[usize],
) -> Result<Layout> {
    layout_from_classes(condition, &kept_scores(logits, index, condition), classes)
}

/// Kept-cell `start` classes pushed, one mirrored cell at a time, until the layout lies at
/// least `min_distance` from what `distance` measures (the nearest training layout of its
/// size; `None`: no layout of that size, so any is far enough): each step makes the change
/// of requested size that lies farthest, the one costing the least logit margin among
/// equals. `None` when `max_changes` steps do not get there.
pub fn pushed_layout_from_logits(
    logits: &[f32],
    index: usize,
    condition: &Condition,
    start: &[usize],
    min_distance: usize,
    max_changes: usize,
    distance: impl Fn(&Layout) -> Option<usize>,
) -> Option<Layout> {
    let kept = kept_scores(logits, index, condition);
    let size = (condition.width, condition.height);
    let mut classes = start.to_vec();
    let reached = |d: Option<usize>| d.is_none_or(|d| d >= min_distance);
    let current = layout_from_classes(condition, &kept, &classes).ok()?;
    if current.size() == size && reached(distance(&current)) {
        return Some(current);
    }
    for _ in 0..max_changes {
        // (distance, cost, cell, class, layout) of the best change so far.
        let mut best: Option<(usize, f32, usize, usize, Layout)> = None;
        for (j, k) in kept.iter().enumerate() {
            let was = classes[j];
            for class in (0..CLASSES).filter(|&class| class != was) {
                classes[j] = class;
                let layout = layout_from_classes(condition, &kept, &classes);
                classes[j] = was;
                let Ok(layout) = layout else { continue };
                if layout.size() != size {
                    continue;
                }
                let d = distance(&layout).unwrap_or(usize::MAX);
                let cost = k.scores[was] - k.scores[class];
                let better = best
                    .as_ref()
                    .is_none_or(|b| d > b.0 || (d == b.0 && cost < b.1));
                if better {
                    best = Some((d, cost, j, class, layout));
                }
            }
        }
        let (d, _, j, class, layout) = best?;
        classes[j] = class;
        if d >= min_distance {
            return Some(layout);
        }
    }
    None
}

/// A kept cell of the play area with the decoder's three class scores.
struct KeptCell {
    x: usize,
    y: usize,
    scores: [f32; CLASSES],
}

fn kept_scores(logits: &[f32], index: usize, c: &Condition) -> Vec<KeptCell> {
    let base = index * CLASSES * CANVAS_CELLS;
    let (x0, y0) = area_origin(c.width, c.height);
    let logit = |class: usize, x: usize, y: usize| {
        logits[base + class * CANVAS_CELLS + (y0 + y) * CANVAS_WIDTH + x0 + x]
    };
    symmetry::mask(c.width, c.height, c.symmetry)
        .iter()
        .filter(|&(_, _, k)| k)
        .map(|(x, y, _)| KeptCell {
            x,
            y,
            scores: [logit(0, x, y), logit(1, x, y), logit(2, x, y)],
        })
        .collect()
}

fn argmax(scores: &[f32; CLASSES]) -> usize {
    (0..CLASSES).fold(0, |b, k| if scores[k] > scores[b] { k } else { b })
}

/// The mirrored layout with `classes[j]` at kept cell `j`; an area without PLAYFIELD gets
/// one at the kept cell that most wants it.
///
/// # Errors
/// [`ModelError::SizeOutOfRange`] when the area is too large for the canvas, or has no kept
/// cell to hold a PLAYFIELD (an empty area).
fn layout_from_classes(c: &Condition, kept: &[KeptCell], classes: &[usize]) -> Result<Layout> {
    let mut area = Grid::filled(c.width, c.height, Cell::Block);
    for (k, &class) in kept.iter().zip(classes) {
        area.set(k.x, k.y, Cell::ALL[class]);
    }
    if !area.cells().contains(&Cell::Playfield) {
        let margin = |k: &KeptCell| k.scores[2] - k.scores[0].max(k.scores[1]);
        // The first kept cell with the highest margin.
        let mut best: Option<&KeptCell> = None;
        for k in kept {
            if best.is_none_or(|b| margin(k) > margin(b)) {
                best = Some(k);
            }
        }
        if let Some(k) = best {
            area.set(k.x, k.y, Cell::Playfield);
        }
    }
    let area = symmetry::mirror(&area, c.symmetry);
    Layout::from_area(&area).map_err(|_| ModelError::SizeOutOfRange {
        width: c.width,
        height: c.height,
    })
}
