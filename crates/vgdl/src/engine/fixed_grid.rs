//! The fixed sprites by cell, so that a tick finds what overlaps them without testing every
//! pair; rebuilt only when a fixed sprite is made or removed.

use super::{At, Rect, State};
use crate::rules::Kind;

/// The fixed sprites by kind and grid cell: sprites are one cell in size, so two overlap only
/// when their cells are neighbours. Cells run from -1 to the level's size (a ring outside the
/// screen); sprites farther out are always candidates.
#[derive(Clone, Debug, Default)]
pub(super) struct FixedGrid {
    /// Columns and rows of the grid (the level's plus the ring).
    w: i32,
    h: i32,
    /// Each kind's row of cells in `starts` (`u32::MAX` for kinds that are not fixed).
    slot: Vec<u32>,
    /// Where each (kind, cell)'s sprites start in `entries`, one more at the end.
    starts: Vec<u32>,
    /// The sprites' places in their kind's list, by kind and cell.
    entries: Vec<u32>,
    /// The sprites outside the grid.
    outside: Vec<(u32, u32)>,
    /// Where each kind's sprites start among the fixed sprites' numbers.
    base: Vec<u32>,
    /// Where each fixed sprite's overlapping fixed sprites start in `overlaps`.
    overlap_starts: Vec<u32>,
    /// The fixed sprites each fixed sprite overlaps.
    overlaps: Vec<(u32, u32)>,
}

impl FixedGrid {
    fn cell(&self, block: i32, r: &Rect) -> Option<usize> {
        let cx = r.x.div_euclid(block) + 1;
        let cy = r.y.div_euclid(block) + 1;
        ((0..self.w).contains(&cx) && (0..self.h).contains(&cy))
            .then(|| (cy * self.w + cx) as usize)
    }

    /// Builds the grid of `state`'s fixed sprites, counting the pairs it checks in `work`;
    /// false as soon as that passes `budget` (the grid is then incomplete).
    pub(super) fn build(&mut self, state: &State, work: &mut u64, budget: u64) -> bool {
        self.w = state.size.0 + 2;
        self.h = state.size.1 + 2;
        let cells = (self.w * self.h) as usize;
        let kinds = state.groups.len();
        let rules = &state.rules;
        // Only the fixed types some rule names second are ever looked up.
        self.slot = vec![u32::MAX; kinds];
        let mut slots = 0u32;
        for k in 0..kinds {
            if rules.fixed[k] && rules.second_in_rules[k] {
                self.slot[k] = slots;
                slots += 1;
            }
        }
        let mut placed: Vec<(usize, u32)> = Vec::new();
        self.outside.clear();
        for (k, group) in state.groups.iter().enumerate() {
            if self.slot[k] == u32::MAX {
                continue;
            }
            let row = self.slot[k] as usize * cells;
            for (i, s) in group.iter().enumerate() {
                match self.cell(state.block, &s.rect) {
                    Some(c) => placed.push((row + c, i as u32)),
                    None => self.outside.push((k as u32, i as u32)),
                }
            }
        }
        placed.sort_unstable();
        let total = slots as usize * cells;
        self.starts = vec![0; total + 1];
        for &(c, _) in &placed {
            self.starts[c + 1] += 1;
        }
        for c in 0..total {
            self.starts[c + 1] += self.starts[c];
        }
        self.entries = placed.into_iter().map(|(_, i)| i).collect();
        // Which fixed sprites overlap which (never changing while the grid stands), for the
        // fixed types some rule names first.
        let firsts = |k: Kind| rules.fixed[k] && rules.first_in_rules[k];
        self.base = Vec::with_capacity(kinds);
        let mut numbers = 0u32;
        for (k, group) in state.groups.iter().enumerate() {
            self.base.push(numbers);
            if firsts(k) {
                numbers += group.len() as u32;
            }
        }
        self.overlap_starts = Vec::with_capacity(numbers as usize + 1);
        self.overlaps.clear();
        let seconds: Vec<Kind> = (0..kinds).filter(|&k| self.slot[k] != u32::MAX).collect();
        let mut found: Vec<(u32, u32)> = Vec::new();
        for (k, group) in state.groups.iter().enumerate() {
            if !firsts(k) {
                continue;
            }
            for (i, s) in group.iter().enumerate() {
                self.overlap_starts.push(self.overlaps.len() as u32);
                found.clear();
                for &k2 in &seconds {
                    self.each_near(k2, state.block, &s.rect, |i2| {
                        *work += 1;
                        if (k2, i2) != (k, i) && s.rect.intersects(&state.groups[k2][i2].rect) {
                            found.push((k2 as u32, i2 as u32));
                        }
                    });
                }
                if *work > budget {
                    return false;
                }
                self.overlaps.extend_from_slice(&found);
            }
        }
        self.overlap_starts.push(self.overlaps.len() as u32);
        true
    }

    /// Calls `f` with the place of each fixed sprite of `kind` that may overlap `r`: those of
    /// the three cells around it in each of three rows, and those outside the grid.
    #[inline]
    pub(super) fn each_near(&self, kind: Kind, block: i32, r: &Rect, mut f: impl FnMut(usize)) {
        let row = match self.slot.get(kind) {
            Some(&row) if row != u32::MAX => row as usize,
            _ => return,
        };
        let base = row * (self.w * self.h) as usize;
        let cx = r.x.div_euclid(block) + 1;
        let cy = r.y.div_euclid(block) + 1;
        let (x0, x1) = ((cx - 1).max(0), (cx + 1).min(self.w - 1));
        if x0 <= x1 {
            for y in (cy - 1).max(0)..=(cy + 1).min(self.h - 1) {
                let from = self.starts[base + (y * self.w + x0) as usize] as usize;
                let to = self.starts[base + (y * self.w + x1) as usize + 1] as usize;
                for &i in &self.entries[from..to] {
                    f(i as usize);
                }
            }
        }
        for &(k, i) in &self.outside {
            if k as usize == kind {
                f(i as usize);
            }
        }
    }

    /// About how many bytes the grid holds (what [`State::held_bytes`] counts).
    pub(super) fn held_bytes(&self) -> usize {
        use std::mem::size_of;
        (self.slot.capacity()
            + self.starts.capacity()
            + self.entries.capacity()
            + self.base.capacity()
            + self.overlap_starts.capacity())
            * size_of::<u32>()
            + (self.outside.capacity() + self.overlaps.capacity()) * size_of::<(u32, u32)>()
    }

    /// The fixed sprites that fixed sprite `at` overlaps.
    pub(super) fn overlapping(&self, at: At) -> std::slice::Iter<'_, (u32, u32)> {
        let number = self.base[at.0] as usize + at.1;
        let (from, to) = (
            self.overlap_starts[number] as usize,
            self.overlap_starts[number + 1] as usize,
        );
        self.overlaps[from..to].iter()
    }
}
