//! The effects on what a sprite holds: resources (changed, collected within their limits)
//! and health points (gained up to their limit, lost down to death).

use super::Score;
use crate::engine::{At, State};
use crate::rules::{Class, Kind};

impl State {
    /// `changeResource`: `s1`'s amount of `resource` changes by `value` when that stays
    /// within the resource's limit (the other dies then, with `kill_resource`); scores only
    /// then.
    pub(super) fn change_resource(
        &mut self,
        s1: At,
        s2: Option<At>,
        resource: Kind,
        value: i32,
        kill_resource: bool,
    ) -> Score {
        let Some(s2) = s2 else {
            return Score::Nothing;
        };
        let n = self.groups[s1.0][s1.1].resource(resource);
        let changes = n + value <= self.rules.resource_limit[resource];
        if changes {
            self.groups[s1.0][s1.1].modify_resource(resource, value);
            if kill_resource {
                self.kill(s2, true);
            }
        }
        Score::when(changes)
    }

    /// `collectResource`: the other collects `s1`, a resource, up to its limit (`s1` dies
    /// then, with `kill_resource`); a resource scores only when collected, any other sprite
    /// always.
    pub(super) fn collect_resource(
        &mut self,
        s1: At,
        s2: Option<At>,
        kill_resource: bool,
    ) -> Score {
        let Some(s2) = s2 else {
            return Score::Rule;
        };
        let kind = s1.0;
        if self.rules.types[kind].class != Some(Class::Resource) {
            return Score::Rule;
        }
        let limit = self.rules.resource_limit[kind];
        let held = self.groups[s2.0][s2.1].resource(kind);
        let collected = held < limit;
        if collected {
            let value = self.rules.types[kind].proto.value;
            let topup = value.min(limit - held);
            self.groups[s2.0][s2.1].modify_resource(kind, topup);
            if kill_resource {
                self.kill(s1, true);
            }
        }
        Score::when(collected)
    }

    /// `collectResourceIfHeld`: the other, holding at least `value` of `held`, collects `s1`,
    /// a resource, when it has room for all of it (`s1` dies whenever the other holds
    /// enough, with `kill_resource`); a resource scores only when collected, any other
    /// sprite always.
    pub(super) fn collect_resource_if_held(
        &mut self,
        s1: At,
        s2: Option<At>,
        held: Kind,
        value: i32,
        kill_resource: bool,
    ) -> Score {
        let Some(s2) = s2 else {
            return Score::Rule;
        };
        let kind = s1.0;
        if self.rules.types[kind].class != Some(Class::Resource) {
            return Score::Rule;
        }
        if self.groups[s2.0][s2.1].resource(held) < value {
            return Score::Nothing;
        }
        let amount = self.rules.types[kind].proto.value;
        let has = self.groups[s2.0][s2.1].resource(kind);
        let collected = has + amount <= self.rules.resource_limit[kind];
        if collected {
            self.groups[s2.0][s2.1].modify_resource(kind, amount);
        }
        if kill_resource {
            self.kill(s1, false);
        }
        Score::when(collected)
    }

    /// `addHealthPoints`: `s1` gains `value` health points when that stays under its limit
    /// (the other dies then, with `kill_second`); scores only then.
    pub(super) fn add_health_points(
        &mut self,
        s1: At,
        s2: Option<At>,
        value: i32,
        kill_second: bool,
    ) -> Score {
        let s = &mut self.groups[s1.0][s1.1];
        let limit = self.rules.types[s1.0].proto.hp.2;
        let gains = s.hp + value < limit;
        if gains {
            s.hp += value;
            if s.hp > s.max_hp {
                s.max_hp = s.hp;
            }
            if kill_second {
                if let Some(s2) = s2 {
                    self.kill(s2, false);
                }
            }
        }
        Score::when(gains)
    }

    /// `addHealthPointsToMax`: `s1` gains `value` health points, up to its limit (the other
    /// dies, with `kill_second`).
    pub(super) fn add_health_points_to_max(
        &mut self,
        s1: At,
        s2: Option<At>,
        value: i32,
        kill_second: bool,
    ) -> Score {
        let limit = self.rules.types[s1.0].proto.hp.2;
        let s = &mut self.groups[s1.0][s1.1];
        s.hp = if s.hp + value < limit {
            s.hp + value
        } else {
            limit
        };
        if s.hp > s.max_hp {
            s.max_hp = s.hp;
        }
        if kill_second {
            if let Some(s2) = s2 {
                self.kill(s2, false);
            }
        }
        Score::Rule
    }

    /// `subtractHealthPoints`: `s1` (or, with `of`, the first sprite of `of`'s last subtype
    /// that has one) loses `value` health points and dies at or under `limit`, scoring
    /// `score_if_killed` instead of the rule's change then.
    pub(super) fn subtract_health_points(
        &mut self,
        s1: At,
        value: i32,
        limit: i32,
        score_if_killed: i32,
        of: Option<Kind>,
    ) -> Score {
        let target = match of {
            Some(kind) => self.rules.subtypes[kind]
                .iter()
                .rev()
                .find(|&&k| !self.groups[k].is_empty())
                .map(|&k| (k, 0)),
            None => Some(s1),
        };
        let Some(t) = target else {
            return Score::Rule;
        };
        let s = &mut self.groups[t.0][t.1];
        s.hp -= value;
        if s.hp <= limit {
            self.kill(t, false);
            return Score::Instead(score_if_killed);
        }
        Score::Rule
    }
}
