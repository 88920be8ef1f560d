//! The effects that kill: a sprite, both sprites, every sprite of a type, or a sprite when
//! a condition holds (how it met the other, what it or the other holds).

use super::Score;
use crate::engine::{At, State};
use crate::rules::{Dir, Kind};

impl State {
    /// `killSprite`.
    pub(super) fn kill_sprite(&mut self, s1: At) -> Score {
        self.kill(s1, false);
        Score::Rule
    }

    /// `killBoth`.
    pub(super) fn kill_both(&mut self, s1: At, s2: Option<At>) -> Score {
        self.kill(s1, false);
        if let Some(s2) = s2 {
            self.kill(s2, false);
        }
        Score::Rule
    }

    /// `killAll`: every sprite of `what` (of its own list, not its subtypes').
    pub(super) fn kill_all(&mut self, what: Kind) -> Score {
        for i in 0..self.groups[what].len() {
            self.kill((what, i), false);
        }
        Score::Rule
    }

    /// `killIfFrontal` (`frontal`) and `killIfNotFrontal`: dies when it did not move, or when
    /// it met the other head on (or not).
    pub(super) fn kill_if_frontal(&mut self, s1: At, s2: Option<At>, frontal: bool) -> Score {
        let Some(s2) = s2 else {
            return Score::Nothing;
        };
        let first = self.groups[s1.0][s1.1].last_direction().normalised();
        let other = self.groups[s2.0][s2.1].last_direction().normalised();
        let head_on = Dir {
            x: first.x + other.x,
            y: first.y + other.y,
        }
        .is_none();
        let dies = first.is_none() || head_on == frontal;
        if dies {
            self.kill(s1, false);
        }
        Score::when(dies)
    }

    /// `killIfFromAbove`: dies when the other came down on it from above.
    pub(super) fn kill_if_from_above(&mut self, s1: At, s2: Option<At>) -> Score {
        let Some(s2) = s2 else {
            return Score::Nothing;
        };
        let (a, b) = (&self.groups[s1.0][s1.1], &self.groups[s2.0][s2.1]);
        let other_higher = a.last.y > b.last.y + b.rect.h / 2;
        let going_down = b.rect.y > b.last.y;
        let dies = other_higher && going_down;
        if dies {
            self.kill(s1, false);
        }
        Score::when(dies)
    }

    /// `killIfHasMore`: dies holding at least `limit` of `resource`.
    pub(super) fn kill_if_has_more(&mut self, s1: At, resource: Kind, limit: i32) -> Score {
        let dies = self.groups[s1.0][s1.1].resource(resource) >= limit;
        if dies {
            self.kill(s1, false);
        }
        Score::when(dies)
    }

    /// `killIfHasLess`: dies holding at most `limit` of `resource`.
    pub(super) fn kill_if_has_less(&mut self, s1: At, resource: Kind, limit: i32) -> Score {
        let dies = self.groups[s1.0][s1.1].resource(resource) <= limit;
        if dies {
            self.kill(s1, false);
        }
        Score::when(dies)
    }

    /// `killIfOtherHasMore`: dies when the other holds at least `limit` of `resource`, which
    /// the other then spends with `subtract`.
    pub(super) fn kill_if_other_has_more(
        &mut self,
        s1: At,
        s2: Option<At>,
        resource: Kind,
        limit: i32,
        subtract: bool,
    ) -> Score {
        let Some(s2) = s2 else {
            return Score::Nothing;
        };
        let dies = self.groups[s2.0][s2.1].resource(resource) >= limit;
        if dies {
            self.kill(s1, false);
            if subtract {
                let o = &mut self.groups[s2.0][s2.1];
                let n = (o.resource(resource) - limit).max(0);
                o.set_resource(resource, n);
            }
        }
        Score::when(dies)
    }
}
