//! Which sprites meet under which rule, each tick: the clock's rules, the edge rules, then
//! each pair's rules as GVGAI orders them, within the tick's and the game's budget of pairs.

use std::sync::Arc;

use super::fixed_grid::FixedGrid;
use super::{At, Limit, Rect, State};
use crate::rules::{Kind, Rule, Rules};

/// The collisions' working lists, kept between ticks to spare allocations; a clone of a state
/// starts with empty ones.
#[derive(Debug, Default)]
pub(super) struct Buffers {
    firsts: Vec<At>,
    hits: Vec<(usize, At)>,
    movers: Vec<(i32, At)>,
    rank: Vec<usize>,
    start_len: Vec<usize>,
}

impl Clone for Buffers {
    fn clone(&self) -> Buffers {
        Buffers::default()
    }
}

/// A tick's count of the pairs checked against its budget, and which second types
/// `Buffers::movers` lists (still right while no sprite moved or was made).
struct Sweep {
    work: u64,
    budget: u64,
    movers_for: Option<Kind>,
}

/// How one pass of a rule over its pairs went.
enum Pass {
    /// One side had no sprites: nothing was checked.
    Skipped,
    /// It met at least one pair.
    Met,
    /// It checked pairs but met none (a repeat of it would meet none either).
    MetNothing,
    /// The pairs checked passed the budget: the tick stops here.
    OverBudget,
}

impl State {
    fn at_edge(&self, r: &Rect) -> bool {
        let (w, h) = (self.size.0 * self.block, self.size.1 * self.block);
        !(r.x >= 0 && r.y >= 0 && r.x + r.w <= w && r.y + r.h <= h)
    }

    pub(super) fn collide(&mut self) {
        if !self.timers.is_empty() {
            self.run_timers();
        }
        let rules = self.rules.clone();
        self.edge_rules(&rules);
        // As GVGAI: for each rule, the sprites of both sides as they are when the rule starts;
        // for each first sprite, the second sprites it overlaps then (in their order), each
        // met while the two still overlap. Overlaps are found through a grid of cells when
        // the sides are large (same answers, without testing every pair).
        let mut buf = std::mem::take(&mut self.buffers);
        // Each kind's place among the rule's second types (usize::MAX: not one), and each
        // kind's count of sprites when the rule started.
        buf.rank.clear();
        buf.rank.resize(rules.types.len(), usize::MAX);
        buf.start_len.clear();
        buf.start_len.resize(rules.types.len(), 0);
        // The pairs checked: each rule's first sprites against the second sprites near them
        // (and the fixed sprites' overlaps when their grid is built); past the tick's budget
        // the game stops (F34: sprites that multiply made a tick quadratic).
        let mut sweep = Sweep {
            work: self.work,
            budget: self
                .work_budget
                .min(self.game_work_budget.saturating_sub(self.game_work)),
            movers_for: None,
        };
        'rules: for (a, b, list) in &rules.pairs {
            // A rule repeated (`repeat=10`) after a pass that met nothing would meet nothing
            // again: nothing changed in between.
            let mut idle: Option<&Rule> = None;
            for rule in list {
                if idle.is_some_and(|r| r == rule) {
                    continue;
                }
                if !self.shields.is_empty()
                    && self
                        .shields
                        .iter()
                        .any(|(x, y, e)| (*x, *y) == (*a, *b) && *e == rule.name)
                {
                    continue;
                }
                idle = None;
                match self.meet_pairs(&rules, rule, (*a, *b), &mut buf, &mut sweep) {
                    Pass::OverBudget => break 'rules,
                    Pass::MetNothing => idle = Some(rule),
                    Pass::Met | Pass::Skipped => {}
                }
            }
        }
        let work = sweep.work;
        self.work = work;
        self.game_work = self.game_work.saturating_add(work);
        if work > sweep.budget {
            self.stop(Limit::Work);
        }
        self.buffers = buf;
    }

    /// The rules at the screen's edge, on every sprite of their types outside the screen.
    fn edge_rules(&mut self, rules: &Rules) {
        for &kind in &rules.eos {
            for rule in &rules.eos_rules[kind] {
                for &k in &rules.subtypes[kind] {
                    let mut i = 0;
                    while i < self.groups[k].len() {
                        let s = &self.groups[k][i];
                        if self.at_edge(&s.rect) && !s.dead && !s.disabled {
                            self.apply(rule, (k, i), None);
                        }
                        i += 1;
                    }
                }
            }
        }
    }

    /// One pass of `rule` over the pair of types `(a, b)`: each sprite of `a`'s types meets
    /// the sprites of `b`'s types it overlaps, both sides as they stand when the pass starts.
    fn meet_pairs(
        &mut self,
        rules: &Rules,
        rule: &Rule,
        (a, b): (Kind, Kind),
        buf: &mut Buffers,
        sweep: &mut Sweep,
    ) -> Pass {
        buf.firsts.clear();
        for &k in &rules.subtypes[a] {
            buf.firsts.extend((0..self.groups[k].len()).map(|i| (k, i)));
        }
        if buf.firsts.is_empty() {
            return Pass::Skipped;
        }
        let seconds = &rules.subtypes[b];
        if seconds.iter().all(|&k| self.groups[k].is_empty()) {
            return Pass::Skipped;
        }
        let mut any_fixed = false;
        for (place, &k) in seconds.iter().enumerate() {
            buf.rank[k] = place;
            buf.start_len[k] = self.groups[k].len();
            any_fixed |= rules.fixed[k] && buf.start_len[k] > 0;
        }
        if any_fixed && !self.refresh_fixed(&mut sweep.work, sweep.budget) {
            return Pass::OverBudget;
        }
        let mut stale = sweep.movers_for != Some(b);
        let mut met = false;
        for n in 0..buf.firsts.len() {
            if sweep.work > sweep.budget {
                return Pass::OverBudget;
            }
            let s1 = buf.firsts[n];
            // Moving second sprites by their left edges (sorted again after an effect
            // moved a sprite); fixed ones through the grid.
            if stale || self.moved {
                self.sort_movers(rules, seconds, buf, &mut sweep.work);
                stale = false;
                self.moved = false;
                sweep.movers_for = Some(b);
            }
            self.find_hits(rules, s1, seconds, any_fixed, buf, &mut sweep.work);
            buf.hits.sort_unstable_by_key(|&(r, (_, i))| (r, i));
            for &(_, s2) in buf.hits.iter() {
                let one = &self.groups[s1.0][s1.1];
                if !one.dead && one.rect.intersects(&self.groups[s2.0][s2.1].rect) {
                    self.apply(rule, s1, Some(s2));
                    met = true;
                }
            }
        }
        for &k in seconds {
            buf.rank[k] = usize::MAX;
        }
        if met {
            Pass::Met
        } else {
            Pass::MetNothing
        }
    }

    /// Lists the moving sprites of the `seconds` types (those there when the pass started)
    /// by their left edges, counting them in `work`.
    fn sort_movers(&self, rules: &Rules, seconds: &[Kind], buf: &mut Buffers, work: &mut u64) {
        buf.movers.clear();
        for &k in seconds.iter().filter(|&&k| !rules.fixed[k]) {
            for (i, s) in self.groups[k][..buf.start_len[k]].iter().enumerate() {
                buf.movers.push((s.rect.x, (k, i)));
            }
        }
        buf.movers.sort_unstable_by_key(|&(x, _)| x);
        *work += buf.movers.len() as u64;
    }

    /// Fills `buf.hits` with the second sprites `s1` overlaps, each with its type's place
    /// among the `seconds`, counting the pairs checked in `work`.
    fn find_hits(
        &self,
        rules: &Rules,
        s1: At,
        seconds: &[Kind],
        any_fixed: bool,
        buf: &mut Buffers,
        work: &mut u64,
    ) {
        let Buffers {
            hits,
            movers,
            rank,
            start_len,
            ..
        } = buf;
        hits.clear();
        let r1 = self.groups[s1.0][s1.1].rect;
        let reach = self.block.max(r1.w);
        let from = movers.partition_point(|&(x, _)| x <= r1.x - reach);
        for &(x, (k, i)) in &movers[from..] {
            if x >= r1.x + reach {
                break;
            }
            *work += 1;
            if (k, i) != s1 && r1.intersects(&self.groups[k][i].rect) {
                hits.push((rank[k], (k, i)));
            }
        }
        if !any_fixed {
            return;
        }
        // A fixed first sprite meets the fixed sprites it overlaps, known since the grid
        // was built; a moving one looks around itself.
        if rules.fixed[s1.0] {
            for &(k, i) in self.fixed_grid.overlapping(s1) {
                *work += 1;
                let (k, i) = (k as usize, i as usize);
                if rank[k] != usize::MAX && i < start_len[k] {
                    hits.push((rank[k], (k, i)));
                }
            }
        } else {
            for &k in seconds {
                if !rules.fixed[k] || start_len[k] == 0 {
                    continue;
                }
                self.fixed_grid.each_near(k, self.block, &r1, |i| {
                    *work += 1;
                    if i < start_len[k] && (k, i) != s1 && r1.intersects(&self.groups[k][i].rect) {
                        hits.push((rank[k], (k, i)));
                    }
                });
            }
        }
    }

    /// Rebuilds the grid of fixed sprites when they changed (one was added or removed),
    /// counting the pairs it checks in `work`; false when that passed `budget` (the
    /// grid is then left as it was, and the game stops).
    fn refresh_fixed(&mut self, work: &mut u64, budget: u64) -> bool {
        if !self.fixed_dirty {
            return true;
        }
        let mut grid = FixedGrid::default();
        if !grid.build(self, work, budget) {
            return false;
        }
        self.fixed_grid = Arc::new(grid);
        self.fixed_dirty = false;
        true
    }
}
