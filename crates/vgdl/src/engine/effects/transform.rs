//! The effects that turn a sprite into one of another type (GVGAI's `transformTo` family):
//! the new sprite is made where the old one stands and takes over from it.

use super::Score;
use crate::engine::{At, State};
use crate::rules::{Class, Dir, Kind};
use std::ops::RangeInclusive;

/// What else a transformation does besides the new sprite taking the old one's place: the
/// other sprite of the meeting dies too (`killSecond`), the new sprite keeps the old one's
/// direction (`forceOrientation`).
#[derive(Clone, Copy)]
pub(super) struct Handover {
    other: Option<At>,
    kill_second: bool,
    force_orientation: bool,
}

impl Handover {
    /// The hand-over of a rule whose other sprite is `other` (none for the edge or the clock).
    pub(super) fn new(other: Option<At>, kill_second: bool, force_orientation: bool) -> Self {
        Handover {
            other,
            kill_second,
            force_orientation,
        }
    }
}

impl State {
    /// `transformTo`: `s1` becomes a sprite of `to` (not while disabled).
    pub(super) fn transform_to(&mut self, s1: At, to: Kind, how: Handover) -> Score {
        if !self.groups[s1.0][s1.1].disabled {
            let r = self.groups[s1.0][s1.1].rect;
            if let Some(new) = self.add(to, (r.x, r.y), false) {
                self.transform(new, s1, how);
            }
        }
        Score::Rule
    }

    /// `transformToAll`: every sprite of `from` (of its own list) becomes one of `to`.
    pub(super) fn transform_to_all(&mut self, from: Kind, to: Kind, how: Handover) -> Score {
        for i in 0..self.groups[from].len() {
            let r = self.groups[from][i].rect;
            if let Some(new) = self.add(to, (r.x, r.y), true) {
                self.transform(new, (from, i), how);
            }
        }
        Score::Rule
    }

    /// `transformIfCount`: `s1` becomes `to` when the sprites of `count` number within
    /// `within`, else `otherwise` (if any); it scores only in the first case.
    pub(super) fn transform_if_count(
        &mut self,
        s1: At,
        to: Kind,
        count: Kind,
        within: RangeInclusive<i32>,
        otherwise: Option<Kind>,
        how: Handover,
    ) -> Score {
        let n = self.count_all(count) as i32;
        let r = self.groups[s1.0][s1.1].rect;
        let counted = within.contains(&n);
        let into = if counted { Some(to) } else { otherwise };
        if let Some(into) = into {
            if let Some(new) = self.add(into, (r.x, r.y), true) {
                self.transform(new, s1, how);
            }
        }
        Score::when(counted)
    }

    /// `transformToRandomChild`: `s1` becomes a sprite of one of `of`'s subtypes, at random.
    pub(super) fn transform_to_random_child(&mut self, s1: At, of: Kind, how: Handover) -> Score {
        let choices: Vec<Kind> = self.rules.subtypes[of]
            .iter()
            .copied()
            .filter(|&k| k != of)
            .collect();
        if !choices.is_empty() {
            let pick = choices[self.rng.next_int(choices.len() as i32) as usize];
            let r = self.groups[s1.0][s1.1].rect;
            if let Some(new) = self.add(pick, (r.x, r.y), false) {
                self.transform(new, s1, how);
            }
        }
        Score::Rule
    }

    /// `transformToSingleton`: `s1` becomes the one sprite of `to`; the one there was becomes
    /// `back` again. With `take_orientation` the new one faces against the other's direction.
    pub(super) fn transform_to_singleton(
        &mut self,
        s1: At,
        s2: Option<At>,
        to: Kind,
        back: Kind,
        take_orientation: bool,
    ) -> Score {
        let Some(s2) = s2 else {
            return Score::Rule;
        };
        for i in 0..self.groups[to].len() {
            let r = self.groups[to][i].rect;
            if let Some(new) = self.add(back, (r.x, r.y), false) {
                self.take_place(new, (to, i));
            }
        }
        let r = self.groups[s1.0][s1.1].rect;
        if let Some(new) = self.add(to, (r.x, r.y), false) {
            self.take_place(new, s1);
            if take_orientation {
                let o = self.groups[s2.0][s2.1].orientation;
                let n = &mut self.groups[new.0][new.1];
                n.oriented = true;
                n.orientation = Dir { x: -o.x, y: -o.y };
            }
        }
        Score::Rule
    }

    /// GVGAI's `transformTo` once the new sprite is made: it takes the old one's direction
    /// (when asked, or when it has none of its own), place before the tick, resources and
    /// health; the avatar's part passes to it; the old one dies (and the other with
    /// `kill_second`).
    fn transform(&mut self, new: At, old_at: At, how: Handover) {
        let old = self.groups[old_at.0][old_at.1].clone();
        let n = &mut self.groups[new.0][new.1];
        if how.force_orientation || (n.oriented && old.oriented && n.orientation.is_none()) {
            n.orientation = old.orientation;
        }
        n.last = old.last;
        self.fixed_last_stale |= self.rules.fixed[new.0] && n.last != n.rect;
        for &(r, v) in &old.resources {
            n.modify_resource(r, v);
        }
        n.hp = old.hp;
        let new_is_avatar = self.rules.types[new.0].class.is_some_and(Class::is_avatar);
        let old_is_avatar = self.rules.types[old_at.0]
            .class
            .is_some_and(Class::is_avatar);
        let mut transformed = true;
        if old_is_avatar && self.avatar == Some((old_at.0, old.id)) {
            if new_is_avatar {
                self.avatar = Some((new.0, self.groups[new.0][new.1].id));
            } else {
                transformed = false;
            }
        }
        self.kill(old_at, transformed);
        if how.kill_second {
            if let Some(s2) = how.other {
                self.kill(s2, true);
            }
        }
    }

    /// `transformToSingleton`'s hand-over: the new sprite takes the old one's direction (when
    /// both have one), place before the tick, resources and the avatar's part; the old dies.
    fn take_place(&mut self, new: At, old_at: At) {
        let old = self.groups[old_at.0][old_at.1].clone();
        let n = &mut self.groups[new.0][new.1];
        if n.oriented && old.oriented {
            n.orientation = old.orientation;
        }
        n.last = old.last;
        self.fixed_last_stale |= self.rules.fixed[new.0] && n.last != n.rect;
        for &(r, v) in &old.resources {
            n.modify_resource(r, v);
        }
        let mut transformed = true;
        if self.rules.types[old_at.0]
            .class
            .is_some_and(Class::is_avatar)
            && self.avatar == Some((old_at.0, old.id))
        {
            if self.rules.types[new.0].class.is_some_and(Class::is_avatar) {
                self.avatar = Some((new.0, self.groups[new.0][new.1].id));
            } else {
                transformed = false;
            }
        }
        self.kill(old_at, transformed);
    }
}
