//! The effects that move or turn a sprite: stepping back, undoing the tick's moves, being
//! bounced, pulled, aligned, turned, wrapped around the screen or teleported.

use super::Score;
use crate::engine::{At, Rect, Sprite, State};
use crate::rules::{Class, Dir, Kind, Rule};

impl State {
    /// `stepBack`: back where it was before this tick's moves (with `pixel_perfect`, just out
    /// of the other sprite when it moved straight into it).
    pub(super) fn step_back(&mut self, s1: At, s2: Option<At>, pixel_perfect: bool) -> Score {
        let back = match s2.filter(|_| pixel_perfect) {
            Some(s2) => {
                let other = self.groups[s2.0][s2.1].rect;
                pixel_perfect_back(&self.groups[s1.0][s1.1], &other)
            }
            None => self.groups[s1.0][s1.1].last,
        };
        self.groups[s1.0][s1.1].rect = back;
        self.moved = true;
        Score::Rule
    }

    /// `undoAll`: every sprite but those of `except` back where it was before this tick's
    /// moves.
    pub(super) fn undo_all(&mut self, except: &[Kind]) -> Score {
        self.moved = true;
        let rules = self.rules.clone();
        for &k in &rules.order {
            if except.contains(&k) {
                continue;
            }
            for s in &mut self.groups[k] {
                // A fixed sprite made this tick from a moving one may step back with
                // it: the grid of fixed sprites then follows.
                self.fixed_dirty |= rules.fixed[k] && s.rect != s.last;
                s.rect = s.last;
            }
        }
        Score::Rule
    }

    /// `bounceForward`: pushed on the way the other moved, at the other's speed.
    pub(super) fn bounce_forward(&mut self, s1: At, s2: Option<At>) -> Score {
        let Some(s2) = s2 else {
            return Score::Rule;
        };
        let pusher = &self.groups[s2.0][s2.1];
        let last = pusher.last_direction();
        let mut dir = last.normalised();
        if last.x * pusher.orientation.x < 0.0 {
            dir.x = -dir.x;
        }
        if last.y * pusher.orientation.y < 0.0 {
            dir.y = -dir.y;
        }
        let speed = self.groups[s2.0][s2.1].speed;
        self.active_movement(s1, dir, speed);
        self.groups[s1.0][s1.1].orientation = dir;
        self.moved = true;
        Score::Rule
    }

    /// `pullWithIt`: moved along with the other (a log carrying a frog), once a tick for each
    /// rule; with `pixel_perfect`, put right on it.
    pub(super) fn pull_with_it(
        &mut self,
        rule: &Rule,
        s1: At,
        s2: Option<At>,
        pixel_perfect: bool,
    ) -> Score {
        let Some(s2) = s2 else {
            return Score::Rule;
        };
        let me = (rule.line, s1.0, self.groups[s1.0][s1.1].id);
        if !self.pulled.contains(&me) {
            self.pulled.push(me);
            let puller = &self.groups[s2.0][s2.1];
            let v = puller.last_direction().normalised();
            let px = (puller.speed * f64::from(self.block)) as i32;
            let puller_rect = puller.rect;
            let before = self.groups[s1.0][s1.1].last;
            self.update_pos(s1, v, px);
            let s = &mut self.groups[s1.0][s1.1];
            s.last = before;
            if pixel_perfect {
                s.rect = puller_rect;
            }
            self.moved = true;
        }
        Score::Rule
    }

    /// `align`: moved onto the other (taking its direction with `orient`).
    pub(super) fn align(&mut self, s1: At, s2: Option<At>, orient: bool) -> Score {
        if let Some(s2) = s2 {
            let other = self.groups[s2.0][s2.1].clone();
            let s = &mut self.groups[s1.0][s1.1];
            if orient {
                s.orientation = other.orientation;
            }
            s.rect.x = other.rect.x;
            s.rect.y = other.rect.y;
            self.moved = true;
        }
        Score::Rule
    }

    /// `attractGaze`: takes the other's direction (both oriented, with the rule's
    /// probability), and with `align` its row or column.
    pub(super) fn attract_gaze(
        &mut self,
        rule: &Rule,
        s1: At,
        s2: Option<At>,
        align: bool,
    ) -> Score {
        let Some(s2) = s2 else {
            return Score::Rule;
        };
        let other = self.groups[s2.0][s2.1].clone();
        if self.groups[s1.0][s1.1].oriented && other.oriented && self.rng.next_double() < rule.prob
        {
            let s = &mut self.groups[s1.0][s1.1];
            s.orientation = other.orientation;
            if align {
                if s.orientation == Dir::LEFT || s.orientation == Dir::RIGHT {
                    s.rect.y = other.rect.y;
                } else {
                    s.rect.x = other.rect.x;
                }
                self.moved = true;
            }
        }
        Score::Rule
    }

    /// `reverseDirection`: turns back.
    pub(super) fn reverse_direction(&mut self, s1: At) -> Score {
        let s = &mut self.groups[s1.0][s1.1];
        s.orientation = Dir {
            x: -s.orientation.x,
            y: -s.orientation.y,
        };
        Score::Rule
    }

    /// `turnAround`: back where it was, two moves down (as its cooldown allows), then
    /// turned back.
    pub(super) fn turn_around(&mut self, s1: At) -> Score {
        self.moved = true;
        let s = &mut self.groups[s1.0][s1.1];
        s.rect = s.last;
        s.lastmove = self.rules.types[s1.0].proto.cooldown;
        let down = Dir::DOWN;
        self.active_movement(s1, down, 0.0);
        let s = &mut self.groups[s1.0][s1.1];
        s.lastmove = self.rules.types[s1.0].proto.cooldown;
        self.active_movement(s1, down, 0.0);
        let s = &mut self.groups[s1.0][s1.1];
        s.orientation = Dir {
            x: -s.orientation.x,
            y: -s.orientation.y,
        };
        Score::Rule
    }

    /// `flipDirection`: a random base direction.
    pub(super) fn flip_direction(&mut self, s1: At) -> Score {
        let d = Dir::BASE[self.rng.next_int(4) as usize];
        self.groups[s1.0][s1.1].orientation = d;
        Score::Rule
    }

    /// `wrapAround`: to the other side of the screen, the way it faces.
    pub(super) fn wrap_around(&mut self, s1: At) -> Score {
        self.moved = true;
        let (w, h) = (self.size.0 * self.block, self.size.1 * self.block);
        let s = &mut self.groups[s1.0][s1.1];
        let o = s.orientation;
        if o.x > 0.0 {
            s.rect.x = 0;
        } else if o.x < 0.0 {
            s.rect.x = w - s.rect.w;
        } else if o.y > 0.0 {
            s.rect.y = 0;
        } else if o.y < 0.0 {
            s.rect.y = h - s.rect.h;
        }
        s.lastmove = 0;
        Score::Rule
    }

    /// `teleportToExit`: sent to a random sprite of the type the other (a portal, a spawn
    /// point…) names; killed when there is none.
    pub(super) fn teleport_to_exit(&mut self, s1: At, s2: Option<At>) -> Score {
        let Some(s2) = s2 else {
            return Score::Rule;
        };
        let p = &self.rules.types[s2.0];
        let names_exit = matches!(
            p.class,
            Some(
                Class::Portal
                    | Class::SpawnPoint
                    | Class::Bomber
                    | Class::RandomBomber
                    | Class::Chaser
                    | Class::Fleeing
                    | Class::Spreader
            )
        );
        let Some(exit) = p.proto.stype.filter(|_| names_exit) else {
            return Score::Rule;
        };
        let exits = self.groups[exit].len();
        if exits > 0 {
            let pick = self.rng.next_int(exits as i32) as usize;
            let d = self.groups[exit][pick].clone();
            let s = &mut self.groups[s1.0][s1.1];
            s.rect = d.rect;
            s.lastmove = 0;
            if d.oriented {
                s.orientation = d.orientation;
            }
            self.moved = true;
        } else {
            self.kill(s1, false);
        }
        Score::Rule
    }
}

/// GVGAI's pixel-perfect step back: a sprite that moved straight into `other` stops at its
/// edge; any other way, back where it was.
fn pixel_perfect_back(s: &Sprite, other: &Rect) -> Rect {
    let centre = |r: &Rect| {
        (
            f64::from(r.x) + f64::from(r.w) / 2.0,
            f64::from(r.y) + f64::from(r.h) / 2.0,
        )
    };
    let (now, before) = (centre(&s.rect), centre(&s.last));
    let dir = Dir {
        x: now.0 - before.0,
        y: now.1 - before.1,
    }
    .normalised();
    let r = s.rect;
    if dir == Dir::DOWN {
        Rect {
            y: r.y - ((r.y + r.h) - other.y),
            ..r
        }
    } else if dir == Dir::RIGHT {
        Rect {
            x: r.x - ((r.x + r.w) - other.x),
            ..r
        }
    } else if dir == Dir::UP {
        Rect {
            y: other.y + other.h,
            ..r
        }
    } else if dir == Dir::LEFT {
        Rect {
            x: other.x + other.w,
            ..r
        }
    } else {
        s.last
    }
}
