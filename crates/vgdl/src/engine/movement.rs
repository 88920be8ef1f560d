//! How the sprites that are not the avatar update themselves each tick: GVGAI's grid physics
//! (passive and active moves), random movers, chasers, spawn points, flickers and spreaders.

use super::{Action, At, Rect, State};
use crate::rules::{Class, Dir, Kind};

impl State {
    pub(super) fn update_all(&mut self, action: Action) {
        if let Some(at) = self.avatar_at() {
            if !self.groups[at.0][at.1].disabled {
                self.pre_movement(at);
                self.update_avatar(at, action);
            }
        }
        let rules = self.rules.clone();
        let stale = self.fixed_last_stale;
        for &kind in rules.order.iter().rev() {
            let class = rules.types[kind].class;
            if class.is_some_and(Class::is_avatar) {
                continue;
            }
            if rules.fixed[kind]
                && rules.types[kind].proto.ttl == -1
                && matches!(
                    class,
                    None | Some(Class::Immovable | Class::Door | Class::Portal)
                )
            {
                // Nothing to update, nor to do before moving: a sprite that never moves stays
                // where it was (GVGAI's `lastrect = rect`), unless it was made this tick from
                // a moving one and took that one's place before the tick.
                if self.fixed_last_stale {
                    for s in self.groups[kind].iter_mut() {
                        s.last = s.rect;
                    }
                }
                continue;
            }
            if self.frozen_npcs
                && matches!(
                    class,
                    Some(Class::RandomNPC | Class::Chaser | Class::Fleeing)
                )
            {
                continue;
            }
            let mut i = 0;
            while i < self.groups[kind].len() {
                if !self.groups[kind][i].disabled {
                    self.pre_movement((kind, i));
                    self.update((kind, i), class);
                }
                i += 1;
            }
        }
        if stale {
            self.fixed_last_stale = false;
        }
    }

    fn pre_movement(&mut self, at: At) {
        let s = &mut self.groups[at.0][at.1];
        s.last = s.rect;
        s.lastmove += 1;
    }

    /// GVGAI's `_updatePos`: a move of `speed` pixels when the cooldown allows.
    pub(super) fn update_pos(&mut self, at: At, dir: Dir, speed: i32) -> bool {
        let cooldown = self.rules.types[at.0].proto.cooldown;
        let s = &mut self.groups[at.0][at.1];
        let speed = if speed == 0 {
            let own = s.speed as i32;
            if own == 0 {
                return false;
            }
            own
        } else {
            speed
        };
        if cooldown <= s.lastmove && dir.x.abs() + dir.y.abs() != 0.0 {
            s.rect.x += (dir.x * f64::from(speed)) as i32;
            s.rect.y += (dir.y * f64::from(speed)) as i32;
            s.lastmove = 0;
            return true;
        }
        false
    }

    /// GVGAI's grid physics, passive: an oriented sprite with a speed moves on.
    pub(super) fn passive_movement(&mut self, at: At) {
        let p = &self.rules.types[at.0].proto;
        if p.is_static {
            return;
        }
        let s = &mut self.groups[at.0][at.1];
        if s.first_tick {
            s.first_tick = false;
            return;
        }
        let speed = if s.speed == -1.0 { 1.0 } else { s.speed };
        if speed != 0.0 && s.oriented {
            let dir = s.orientation;
            let px = (speed * f64::from(self.block)) as i32;
            self.update_pos(at, dir, px);
        }
    }

    /// GVGAI's grid physics, active: a move in `dir` at `speed` cells (0: the sprite's own).
    /// Returns 0 for still, 1 for a move, 2 for a turn.
    pub(super) fn active_movement(&mut self, at: At, dir: Dir, speed: f64) -> u8 {
        let p = &self.rules.types[at.0].proto;
        let own = self.groups[at.0][at.1].speed;
        let speed = if speed == 0.0 {
            if own <= 0.0 {
                1.0
            } else {
                own
            }
        } else {
            speed
        };
        if speed != 0.0 && !dir.is_none() {
            if p.rotate_in_place {
                let s = &mut self.groups[at.0][at.1];
                if s.oriented && s.orientation != dir {
                    s.orientation = dir;
                    return 2;
                }
            }
            let px = (speed * f64::from(self.block)) as i32;
            if self.update_pos(at, dir, px) {
                return 1;
            }
        }
        0
    }

    /// GVGAI's `VGDLSprite.update`: the passive move, then the time to live.
    fn default_update(&mut self, at: At) {
        self.passive_movement(at);
        let s = &mut self.groups[at.0][at.1];
        if s.ttl > -1 {
            if s.ttl > 0 {
                s.ttl -= 1;
            } else {
                self.kill(at, false);
            }
        }
    }

    fn update(&mut self, at: At, class: Option<Class>) {
        use Class::*;
        let Some(class) = class else {
            self.default_update(at);
            return;
        };
        match class {
            Flicker | OrientedFlicker | Spreader => {
                self.default_update(at);
                let limit = self.rules.types[at.0].proto.limit;
                if self.groups[at.0][at.1].counter > limit {
                    self.kill(at, false);
                }
                self.groups[at.0][at.1].counter += 1;
                if class == Spreader && self.groups[at.0][at.1].counter == 2 {
                    let p = &self.rules.types[at.0].proto;
                    let (what, chance) = (p.stype.unwrap_or(at.0), p.spread_prob);
                    let last = self.groups[at.0][at.1].last;
                    for d in Dir::BASE {
                        if self.rng.next_double() < chance {
                            let pos = (
                                (f64::from(last.x) + d.x * f64::from(last.w)) as i32,
                                (f64::from(last.y) + d.y * f64::from(last.h)) as i32,
                            );
                            self.add(what, pos, false);
                        }
                    }
                }
            }
            RandomNPC => {
                self.passive_movement(at);
                let dir = self.random_move(at);
                let speed = self.groups[at.0][at.1].speed;
                self.active_movement(at, dir, speed);
            }
            Chaser | Fleeing | LOSChaser => self.chase(at, class),
            SpawnPointMultiSprite => {
                let kinds = self.rules.types[at.0].proto.missiles.clone();
                self.spawn_many(at, &kinds);
            }
            SpawnPoint | Bomber => self.spawn_point(at, self.rules.types[at.0].proto.stype),
            RandomBomber => {
                let dir = Dir::BASE[self.rng.next_int(4) as usize];
                let speed = self.groups[at.0][at.1].speed;
                self.active_movement(at, dir, speed);
                self.spawn_point(at, self.rules.types[at.0].proto.stype);
            }
            BomberRandomMissile => {
                let n = self.rules.types[at.0].proto.missiles.len();
                let pick = self.rng.next_int(n.max(1) as i32) as usize;
                let what = self.rules.types[at.0].proto.missiles.get(pick).copied();
                self.spawn_point(at, what);
            }
            RandomMissile => {
                if self.groups[at.0][at.1].orientation == Dir::NIL {
                    self.groups[at.0][at.1].orientation = Dir::BASE[self.rng.next_int(4) as usize];
                }
                self.passive_movement(at);
            }
            _ => self.default_update(at),
        }
    }

    /// GVGAI's `SpawnPoint.update`: a die rolled every update; on the cooldown's beat and
    /// under `prob`, a sprite of `what` where it stands; then the default update, and death
    /// after `total` spawns.
    fn spawn_point(&mut self, at: At, what: Option<Kind>) {
        self.spawn_many(at, what.as_slice());
    }

    /// GVGAI's `SpawnPointMultiSprite.update` (and a spawn point's, with one kind): each of
    /// `kinds` spawned in turn on the beat.
    fn spawn_many(&mut self, at: At, kinds: &[Kind]) {
        let p = &self.rules.types[at.0].proto;
        let (cooldown, prob, total, spawn_orientation) =
            (p.cooldown, p.prob, p.total, p.spawn_orientation);
        if self.groups[at.0][at.1].start == -1 {
            self.groups[at.0][at.1].start = self.tick;
        }
        let roll = self.rng.next_float();
        let start = self.groups[at.0][at.1].start;
        if (start + self.tick) % cooldown == 0 && f64::from(roll) < prob {
            for &what in kinds {
                let r = self.groups[at.0][at.1].rect;
                if let Some(new) = self.add(what, (r.x, r.y), false) {
                    self.groups[at.0][at.1].counter += 1;
                    let own = self.groups[at.0][at.1].orientation;
                    let n = &mut self.groups[new.0][new.1];
                    if !spawn_orientation.is_none() {
                        n.orientation = spawn_orientation;
                    } else if n.orientation.is_none() {
                        n.orientation = own;
                    }
                }
            }
        }
        self.default_update(at);
        if total > 0 && self.groups[at.0][at.1].counter >= total {
            self.kill(at, false);
        }
    }

    /// RandomNPC's move: its last direction again while the repeat count lasts, else a
    /// random base direction.
    fn random_move(&mut self, at: At) -> Dir {
        let cons = self.rules.types[at.0].proto.value;
        let s = &mut self.groups[at.0][at.1];
        if s.counter < cons {
            s.counter += 1;
            s.prev
        } else {
            let d = Dir::BASE[self.rng.next_int(4) as usize];
            let s = &mut self.groups[at.0][at.1];
            s.prev = d;
            s.prev_set = true;
            s.counter = 0;
            d
        }
    }

    fn chase(&mut self, at: At, class: Class) {
        let fleeing = class == Class::Fleeing;
        self.passive_movement(at);
        let p = &self.rules.types[at.0].proto;
        let Some(target) = p.stype else {
            return;
        };
        let max_distance = p.max_distance;
        let me = self.groups[at.0][at.1].rect;
        let distance = |a: &Rect, b: &Rect| (a.y - b.y).abs() + (a.x - b.x).abs();
        // The nearest targets: the type's own sprites, else its subtypes' (GVGAI's order).
        let extra: &[Kind] = if self.groups[target].is_empty() {
            &self.rules.subtypes[target]
        } else {
            &[]
        };
        let kinds = || std::iter::once(target).chain(extra.iter().copied());
        // A LOSChaser sees only along its last direction, and nothing before its first
        // random move (GVGAI compares the unset direction by identity).
        let los = class == Class::LOSChaser;
        let (prev, prev_set) = {
            let s = &self.groups[at.0][at.1];
            (s.prev, s.prev_set)
        };
        let sees = |r: &Rect| -> bool {
            if !los {
                return true;
            }
            if !prev_set {
                return false;
            }
            if prev == Dir::DOWN {
                r.x == me.x && r.y >= me.y
            } else if prev == Dir::UP {
                r.x == me.x && r.y <= me.y
            } else if prev == Dir::LEFT {
                r.x <= me.x && r.y == me.y
            } else if prev == Dir::RIGHT {
                r.x >= me.x && r.y == me.y
            } else {
                false
            }
        };
        let best = kinds()
            .flat_map(|k| self.groups[k].iter())
            .filter(|s| sees(&s.rect))
            .map(|s| distance(&me, &s.rect))
            .min();
        let mut moves = std::mem::take(&mut self.scratch);
        moves.clear();
        if let Some(best) = best {
            let within = max_distance == -1.0 || f64::from(best) <= max_distance;
            for t in kinds().flat_map(|k| self.groups[k].iter()) {
                if !within || !sees(&t.rect) || distance(&me, &t.rect) != best {
                    continue;
                }
                for dir in Dir::BASE {
                    let r = Rect {
                        x: me.x + dir.x as i32,
                        y: me.y + dir.y as i32,
                        ..me
                    };
                    let nd = distance(&r, &t.rect);
                    if (fleeing && best < nd) || (!fleeing && best > nd) {
                        moves.push(dir);
                    }
                }
            }
        }
        let dir = if moves.is_empty() {
            self.random_move(at)
        } else {
            moves[self.rng.next_int(moves.len() as i32) as usize]
        };
        self.scratch = moves;
        let speed = self.groups[at.0][at.1].speed;
        self.active_movement(at, dir, speed);
    }
}
