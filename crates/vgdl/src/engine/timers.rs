//! The clock's rules (GVGAI's time effects): a queue of rules due at a tick, run before any
//! collision, some planned again.

use std::sync::Arc;

use super::State;
use crate::rules::{Effect, Rule, Timed};

impl State {
    /// Queues a timed rule for tick `next`. GVGAI's queue orders by tick and puts a new
    /// entry before those already there for the same tick, so that one runs first.
    pub(super) fn plan(&mut self, next: i32, timed: Arc<Timed>) {
        let at = self.timers.partition_point(|(t, _)| *t < next);
        self.timers.insert(at, (next, timed));
    }

    /// The clock's rules due by this tick, as GVGAI runs them before any collision: each on
    /// every sprite of its type (or on none), then planned again `timer` ticks on when
    /// repeating.
    pub(super) fn run_timers(&mut self) {
        while self.timers.first().is_some_and(|(t, _)| *t <= self.tick) {
            let (_, timed) = self.timers.remove(0);
            match timed.kind {
                None => self.apply_without_sprites(&timed.rule),
                Some(kind) => {
                    let rules = self.rules.clone();
                    for &k in &rules.subtypes[kind] {
                        let len = self.groups[k].len();
                        for i in 0..len {
                            let s = &self.groups[k][i];
                            if !s.dead && !s.disabled {
                                self.apply_as(&timed.rule, (k, i), None, true);
                            }
                        }
                    }
                }
            }
            if timed.repeating {
                // At least one tick on, whatever the rule says: a clock that is due again
                // in the same tick would never let the tick end.
                let next = self.tick + timed.timer.max(1);
                self.plan(next, timed);
            }
        }
    }

    /// `addTimer`: `effect` planned `timer` ticks on as a clock's rule on no sprite (again
    /// every `timer` ticks when `repeating`), scoring as `rule` does.
    pub(super) fn add_timer(
        &mut self,
        rule: &Rule,
        timer: i32,
        repeating: bool,
        effect: &Effect,
        name: &str,
    ) {
        let timed = Timed {
            kind: None,
            rule: Rule {
                effect: effect.clone(),
                score: rule.score,
                prob: rule.prob,
                line: rule.line,
                name: name.to_string(),
                index: rule.index,
            },
            timer,
            repeating,
            next: self.tick + timer,
        };
        let next = timed.next;
        self.plan(next, Arc::new(timed));
    }
}
