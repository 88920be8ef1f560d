//! The effects that make sprites: a copy of a sprite, or a sprite of another type on it,
//! behind or beside the other sprite, some only while a sprite holds enough (or little) of a
//! resource. Those that read `prob` draw a number even at 1, as GVGAI does.

use super::Score;
use crate::engine::{At, State};
use crate::rules::{Dir, Kind, Rule};

impl State {
    /// `cloneSprite`: a copy of `s1` where it is.
    pub(super) fn clone_sprite(&mut self, s1: At) -> Score {
        let r = self.groups[s1.0][s1.1].rect;
        self.add(s1.0, (r.x, r.y), false);
        Score::Rule
    }

    /// `spawn`: a sprite of `what` on `s1`, with the rule's probability.
    pub(super) fn spawn(&mut self, rule: &Rule, s1: At, what: Kind) -> Score {
        if self.rng.next_double() < rule.prob {
            let r = self.groups[s1.0][s1.1].rect;
            self.add(what, (r.x, r.y), false);
        }
        Score::Rule
    }

    /// `spawnIfHasLess`: a sprite of `what` on `s1` when it holds at most `limit` of
    /// `resource` (and the rule's probability allows); scores only then.
    pub(super) fn spawn_if_has_less(
        &mut self,
        rule: &Rule,
        s1: At,
        resource: Kind,
        limit: i32,
        what: Kind,
    ) -> Score {
        let spawns = self.rng.next_double() < rule.prob
            && self.groups[s1.0][s1.1].resource(resource) <= limit;
        if spawns {
            let r = self.groups[s1.0][s1.1].rect;
            self.add(what, (r.x, r.y), false);
        }
        Score::when(spawns)
    }

    /// `spawnIfHasMore`: a sprite of `what` on `s1` when it holds at least `limit` of
    /// `resource` (and the rule's probability allows), spending `spend` of it; scores only
    /// then.
    pub(super) fn spawn_if_has_more(
        &mut self,
        rule: &Rule,
        s1: At,
        resource: Kind,
        limit: i32,
        what: Kind,
        spend: i32,
    ) -> Score {
        let spawns = self.rng.next_double() < rule.prob
            && self.groups[s1.0][s1.1].resource(resource) >= limit;
        if spawns {
            let r = self.groups[s1.0][s1.1].rect;
            self.add(what, (r.x, r.y), false);
            self.groups[s1.0][s1.1].modify_resource(resource, -spend);
        }
        Score::when(spawns)
    }

    /// `spawnBehind`: a sprite of `what` where the other was before it moved (when it moved
    /// off that place).
    pub(super) fn spawn_behind(&mut self, rule: &Rule, s2: Option<At>, what: Kind) -> Score {
        if let Some(s2) = s2 {
            if self.rng.next_double() < rule.prob {
                let o = &self.groups[s2.0][s2.1];
                if !o.last.intersects(&o.rect) {
                    let at = (o.last.x, o.last.y);
                    self.add(what, at, false);
                }
            }
        }
        Score::Rule
    }

    /// `spawnAbove`, `spawnBelow`, `spawnLeft`, `spawnRight`: a sprite of `what` one cell in
    /// `dir` from the other (from where it was before it moved, with `step_back`).
    pub(super) fn spawn_beside(
        &mut self,
        rule: &Rule,
        s2: Option<At>,
        what: Kind,
        dir: Dir,
        step_back: bool,
    ) -> Score {
        let Some(s2) = s2 else {
            return Score::Rule;
        };
        if self.rng.next_double() < rule.prob {
            let o = &self.groups[s2.0][s2.1];
            let from = if step_back {
                (!o.last.intersects(&o.rect)).then_some((o.last.x, o.last.y))
            } else {
                Some((o.rect.x, o.rect.y))
            };
            if let Some((x, y)) = from {
                let b = f64::from(self.block);
                let at = (
                    (f64::from(x) + dir.x * b) as i32,
                    (f64::from(y) + dir.y * b) as i32,
                );
                self.add(what, at, false);
            }
        }
        Score::Rule
    }
}
