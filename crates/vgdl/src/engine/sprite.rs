//! A sprite and its rectangle: what a level is made of, as plain data.

use crate::rules::{Dir, Kind};

/// A rectangle in pixels (`java.awt.Rectangle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left.
    pub x: i32,
    /// Top.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

impl Rect {
    /// Overlap with area (touching edges do not count), as `Rectangle.intersects`.
    pub fn intersects(&self, o: &Rect) -> bool {
        self.w > 0
            && self.h > 0
            && o.w > 0
            && o.h > 0
            && o.x < self.x + self.w
            && o.y < self.y + self.h
            && self.x < o.x + o.w
            && self.y < o.y + o.h
    }
}

/// One sprite.
#[derive(Clone, Debug)]
pub struct Sprite {
    /// Its type.
    pub kind: Kind,
    /// Its number, in the order sprites were made.
    pub id: u32,
    /// Where it is.
    pub rect: Rect,
    /// Where it was before this tick's moves.
    pub last: Rect,
    /// Its direction.
    pub orientation: Dir,
    /// Whether it has a direction.
    pub oriented: bool,
    /// Ticks since it last moved.
    pub lastmove: i32,
    /// True until its first update.
    pub first_tick: bool,
    /// Disabled (a dead avatar: GVGAI keeps it, out of play).
    pub disabled: bool,
    /// Killed this tick (removed at the end of it).
    pub dead: bool,
    /// Health points, their maximum and their limit.
    pub hp: i32,
    /// The most health points it has had.
    pub max_hp: i32,
    /// Resources held: (resource type, amount), by type.
    pub resources: Vec<(Kind, i32)>,
    /// A flicker's age; a spawn point's count of spawns; a random mover's repeat count.
    pub counter: i32,
    /// A spawn point's first tick (-1 before its first update).
    pub start: i32,
    /// A random mover's last direction.
    pub prev: Dir,
    /// Ticks left to live (-1: no end).
    pub ttl: i32,
    /// Its speed in cells a move (its type's, unless a rule set it: `setSpeedForAll`).
    pub speed: f64,
    /// Whether a random move has set `prev` yet.
    pub prev_set: bool,
}

impl Sprite {
    /// The amount of `resource` held.
    pub fn resource(&self, resource: Kind) -> i32 {
        self.resources
            .iter()
            .find(|(k, _)| *k == resource)
            .map_or(0, |(_, n)| *n)
    }

    pub(super) fn set_resource(&mut self, resource: Kind, amount: i32) {
        match self.resources.iter_mut().find(|(k, _)| *k == resource) {
            Some(slot) => slot.1 = amount,
            None => {
                self.resources.push((resource, amount));
                self.resources.sort_by_key(|(k, _)| *k);
            }
        }
    }

    /// GVGAI's `modifyResource`: never under 0.
    pub(super) fn modify_resource(&mut self, resource: Kind, delta: i32) {
        let next = (self.resource(resource) + delta).max(0);
        self.set_resource(resource, next);
    }

    pub(super) fn last_direction(&self) -> Dir {
        Dir {
            x: f64::from(self.rect.x - self.last.x),
            y: f64::from(self.rect.y - self.last.y),
        }
    }
}
