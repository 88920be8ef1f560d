//! How the avatar takes the player's action: its class's moves, shots and flak.

use super::{Action, At, State};
use crate::rules::Class;

impl State {
    pub(super) fn update_avatar(&mut self, at: At, action: Action) {
        let Some(class) = self.rules.types[at.0].class else {
            return;
        };
        let action = if action == Action::Nil || self.actions().contains(&action) {
            action
        } else {
            Action::Nil
        };
        match class {
            Class::MissileAvatar => {
                self.passive_movement(at);
                return;
            }
            Class::OngoingTurningAvatar => {
                let dir = action.dir();
                let s = &mut self.groups[at.0][at.1];
                let o = s.orientation;
                if !dir.is_none() && dir.x * o.x + dir.y * o.y == 0.0 && s.oriented {
                    s.orientation = dir;
                }
                self.passive_movement(at);
                let s = &self.groups[at.0][at.1];
                if !s.rect.intersects(&s.last) {
                    let (pos, behind) = ((s.last.x, s.last.y), self.rules.types[at.0].proto.behind);
                    self.add(behind, pos, false);
                }
                return;
            }
            Class::OngoingAvatar | Class::OngoingShootAvatar => {
                let dir = action.dir();
                if !dir.is_none() {
                    let s = &mut self.groups[at.0][at.1];
                    if s.oriented {
                        s.orientation = dir;
                    }
                }
                self.passive_movement(at);
                if class == Class::OngoingShootAvatar && dir.is_none() && action == Action::Use {
                    self.shoot(at);
                }
                return;
            }
            _ => {}
        }
        let speed = self.groups[at.0][at.1].speed;
        let moved = self.active_movement(at, action.dir(), speed);
        if moved == 1 && matches!(class, Class::OrientedAvatar | Class::ShootAvatar) {
            let s = &mut self.groups[at.0][at.1];
            s.orientation = s.last_direction().normalised();
        }
        if moved == 0 && action == Action::Use {
            match class {
                Class::ShootAvatar => self.shoot(at),
                Class::FlakAvatar => self.flak(at),
                _ => {}
            }
        }
    }

    fn has_ammo(&self, at: At) -> bool {
        match self.rules.types[at.0].proto.ammo {
            None => true,
            Some(ammo) => self.groups[at.0][at.1].resource(ammo) > 0,
        }
    }

    fn spend_ammo(&mut self, at: At) {
        if let Some(ammo) = self.rules.types[at.0].proto.ammo {
            let s = &mut self.groups[at.0][at.1];
            if s.resources.iter().any(|(k, _)| *k == ammo) {
                let n = s.resource(ammo);
                s.set_resource(ammo, n - 1);
            }
        }
    }

    fn shoot(&mut self, at: At) {
        if !self.has_ammo(at) {
            return;
        }
        let Some(what) = self.rules.types[at.0].proto.stype else {
            return;
        };
        let s = &self.groups[at.0][at.1];
        let dir = s.orientation.normalised();
        let pos = (
            (f64::from(s.rect.x) + dir.x * f64::from(s.last.w)) as i32,
            (f64::from(s.rect.y) + dir.y * f64::from(s.last.h)) as i32,
        );
        if let Some(new) = self.add(what, pos, false) {
            let n = &mut self.groups[new.0][new.1];
            if n.oriented {
                n.orientation = dir;
            }
            self.spend_ammo(at);
        }
    }

    fn flak(&mut self, at: At) {
        // FlakAvatar's own test: more than `minAmmo` (when set), else more than none.
        let p = &self.rules.types[at.0].proto;
        let (min_ammo, cost) = (p.min_ammo, p.ammo_cost);
        if let Some(ammo) = p.ammo {
            let s = &self.groups[at.0][at.1];
            let held = s
                .resources
                .iter()
                .find(|(k, _)| *k == ammo)
                .map(|(_, n)| *n);
            let enough = match held {
                None => false,
                Some(n) if min_ammo > -1 => n > min_ammo,
                Some(n) => n > 0,
            };
            if !enough {
                return;
            }
        }
        let Some(what) = self.rules.types[at.0].proto.stype else {
            return;
        };
        let s = &self.groups[at.0][at.1];
        let pos = (s.rect.x, s.rect.y);
        if self.add(what, pos, false).is_some() {
            if let Some(ammo) = self.rules.types[at.0].proto.ammo {
                let s = &mut self.groups[at.0][at.1];
                if let Some(slot) = s.resources.iter_mut().find(|(k, _)| *k == ammo) {
                    slot.1 -= cost;
                }
            }
        }
    }
}
