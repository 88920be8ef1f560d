//! Each sprite type's role for the pattern GA (the pattern-based FI2Pop paper's categories:
//! solid, collectible, harmful, goal, other), read from the game's interaction set and
//! terminations, so any VGDL game gets them without a hand-written table:
//!
//! - **goal**: a winning termination counts it (`SpriteCounter stype=T win=True`: the level is
//!   won when they are gone, e.g. Zelda's exit, Sokoban's boxes);
//! - **harmful**: the avatar meeting it is killed or hurt (`avatar T > killSprite`,
//!   `subtractHealthPoints`, …), or it turns what it meets into a type a losing termination
//!   counts (Angels and Demons' bolt curses a citizen: `citizen bolt > transformTo
//!   stype=cursed`), or it spawns a harmful type (a demon drops bolts, a hell spawns
//!   zombies);
//! - **collectible**: the avatar takes it (`T avatar > killSprite` / `collectResource`, or
//!   `avatar T > … killSecond=True`);
//! - **solid**: it stops the avatar (`avatar T > stepBack` / `undoAll`);
//! - **other**: anything else (floors, pushable boxes, spawners the avatar passes).
//!
//! A type with several roles takes the first of that list.

use crate::load::Game;
use studio_core::evolve::pattern::Category;
use vgdl::rules::{Class, Effect, Kind, Rules, Term};

/// The role of each sprite type (GVGAI's numbering); the avatar's types are `Other`.
pub fn roles(game: &Game) -> Vec<Category> {
    let rules = &game.rules;
    let n = rules.types.len();
    let avatar_kinds: Vec<bool> = (0..n)
        .map(|k| rules.types[k].class.is_some_and(|c| c.is_avatar()))
        .collect();
    let goal = goal_kinds(rules);
    let (mut harmful, collectible, solid) = avatar_rule_roles(rules, &avatar_kinds);
    mark_cursing_harmful(rules, &avatar_kinds, &mut harmful);
    mark_harmful_spawners(rules, &avatar_kinds, &mut harmful);
    (0..n)
        .map(|k| {
            if avatar_kinds[k] {
                Category::Other
            } else if goal[k] {
                Category::Goal
            } else if harmful[k] {
                Category::Harmful
            } else if collectible[k] {
                Category::Collectible
            } else if solid[k] {
                Category::Solid
            } else {
                Category::Other
            }
        })
        .collect()
}

/// The types a winning termination counts (with their subtypes).
fn goal_kinds(rules: &Rules) -> Vec<bool> {
    let mut goal = vec![false; rules.types.len()];
    for t in &rules.terminations {
        let counted: Vec<Kind> = match t {
            Term::SpriteCounter {
                kind, win: true, ..
            } => vec![*kind],
            Term::MultiSpriteCounter {
                kinds, win: true, ..
            } => kinds.clone(),
            _ => Vec::new(),
        };
        for k in counted {
            for &s in &rules.subtypes[k] {
                goal[s] = true;
            }
        }
    }
    goal
}

/// What the avatar's own interactions make of each type: (harmful, collectible, solid).
fn avatar_rule_roles(rules: &Rules, avatar_kinds: &[bool]) -> (Vec<bool>, Vec<bool>, Vec<bool>) {
    let n = rules.types.len();
    let is_avatar_group = |k: Kind| rules.subtypes[k].iter().any(|&s| avatar_kinds[s]);
    let (mut harmful, mut collectible, mut solid) =
        (vec![false; n], vec![false; n], vec![false; n]);
    for (a, b, list) in &rules.pairs {
        for rule in list {
            let (actor_is_avatar, actee_is_avatar) = (is_avatar_group(*a), is_avatar_group(*b));
            let mark = |flags: &mut Vec<bool>, k: Kind| {
                for &s in &rules.subtypes[k] {
                    if !avatar_kinds[s] {
                        flags[s] = true;
                    }
                }
            };
            if actor_is_avatar {
                match &rule.effect {
                    Effect::KillSprite
                    | Effect::KillBoth
                    | Effect::SubtractHealthPoints { .. }
                    | Effect::KillIfOtherHasMore { .. }
                    | Effect::KillIfFrontal
                    | Effect::KillIfNotFrontal
                    | Effect::KillIfFromAbove => mark(&mut harmful, *b),
                    Effect::StepBack { .. } | Effect::UndoAll { .. } => mark(&mut solid, *b),
                    Effect::TransformTo {
                        kill_second: true, ..
                    }
                    | Effect::AddHealthPoints {
                        kill_second: true, ..
                    }
                    | Effect::AddHealthPointsToMax {
                        kill_second: true, ..
                    }
                    | Effect::ChangeResource {
                        kill_resource: true,
                        ..
                    } => mark(&mut collectible, *b),
                    _ => {}
                }
            }
            if actee_is_avatar
                && matches!(
                    rule.effect,
                    Effect::KillSprite
                        | Effect::CollectResource { .. }
                        | Effect::CollectResourceIfHeld { .. }
                )
            {
                mark(&mut collectible, *a);
            }
        }
    }
    (harmful, collectible, solid)
}

/// The leaf types under `k` (what a termination counting `k` counts).
fn leaves(rules: &Rules, k: Kind) -> impl Iterator<Item = Kind> + '_ {
    (0..rules.types.len())
        .filter(move |&s| rules.types[s].leaf && rules.types[s].itypes.contains(&k))
}

/// What turns a sprite into a type a losing termination counts is harmful (the avatar's
/// own loss is the avatar rules' business above). `subtypes` lists a type's ancestors
/// too, as GVGAI's does; what a termination counts is the leaves under its type.
fn mark_cursing_harmful(rules: &Rules, avatar_kinds: &[bool], harmful: &mut [bool]) {
    let mut lost = vec![false; rules.types.len()];
    for t in &rules.terminations {
        let counted: Vec<Kind> = match t {
            Term::SpriteCounter {
                kind, win: false, ..
            }
            | Term::SpriteCounterMore {
                kind, win: false, ..
            }
            | Term::MultiSpriteCounterSubTypes {
                kind, win: false, ..
            } => vec![*kind],
            Term::MultiSpriteCounter {
                kinds, win: false, ..
            } => kinds.clone(),
            _ => Vec::new(),
        };
        for k in counted {
            for s in leaves(rules, k) {
                lost[s] = !avatar_kinds[s];
            }
        }
    }
    for (_, b, list) in &rules.pairs {
        for rule in list {
            if let Effect::TransformTo { to, .. } = rule.effect {
                if leaves(rules, to).any(|s| lost[s]) {
                    for s in leaves(rules, *b) {
                        harmful[s] |= !avatar_kinds[s];
                    }
                }
            }
        }
    }
}

/// A spawner of something harmful is harmful, to any depth.
fn mark_harmful_spawners(rules: &Rules, avatar_kinds: &[bool], harmful: &mut [bool]) {
    let spawned = |k: Kind| -> Vec<Kind> {
        let proto = &rules.types[k].proto;
        match rules.types[k].class {
            Some(Class::SpawnPoint | Class::Bomber | Class::RandomBomber | Class::Spreader) => {
                proto.stype.into_iter().collect()
            }
            Some(Class::BomberRandomMissile | Class::SpawnPointMultiSprite) => {
                proto.missiles.clone()
            }
            _ => Vec::new(),
        }
    };
    loop {
        let mut changed = false;
        for k in 0..rules.types.len() {
            if harmful[k] || avatar_kinds[k] {
                continue;
            }
            let spawns_harm = spawned(k)
                .into_iter()
                .any(|t| leaves(rules, t).any(|s| harmful[s]));
            if spawns_harm {
                harmful[k] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// The role of each level character: its sprites' most telling role (goal, harmful,
/// collectible, solid, then other), in the mapping's order.
pub fn character_roles(game: &Game) -> Vec<(char, Category)> {
    let roles = roles(game);
    let rank = |c: Category| match c {
        Category::Goal => 0,
        Category::Harmful => 1,
        Category::Collectible => 2,
        Category::Solid => 3,
        Category::Other => 4,
    };
    game.desc
        .mapping
        .iter()
        .map(|(c, sprites)| {
            let role = sprites
                .iter()
                .filter_map(|s| game.rules.kind(s))
                .map(|k| roles[k])
                .min_by_key(|&r| rank(r))
                .unwrap_or(Category::Other);
            (*c, role)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A small game of our own: a cloud drops acid that spoils crops, and the game is lost
    /// when a crop spoils; a nest spawns clouds; the sun drops rain that does no harm.
    const ORCHARD: &str = "BasicGame
  SpriteSet
    crop > Immovable
    spoiled > Immovable
    acid > Missile orientation=DOWN speed=0.2
    rain > Missile orientation=DOWN speed=0.2
    cloud > Bomber stype=acid prob=0.1 cooldown=4 speed=0.5
    nest > SpawnPoint stype=cloud prob=0.05
    sun > Bomber stype=rain prob=0.1 cooldown=4 speed=0.5
    avatar > MovingAvatar
  InteractionSet
    crop acid > transformTo stype=spoiled killSecond=True
    avatar wall > stepBack
  TerminationSet
    SpriteCounter stype=spoiled limit=1 win=False
    Timeout limit=500 win=True
  LevelMapping
    c > crop
    d > cloud
    n > nest
    s > sun
";

    #[test]
    fn what_spawns_a_loss_is_harmful_to_any_depth() {
        let desc = vgdl::parse(ORCHARD, "orchard.txt").unwrap();
        let rules = Arc::new(vgdl::compile(&desc, "orchard.txt").unwrap());
        let game = Game { desc, rules };
        let roles: Vec<String> = character_roles(&game)
            .into_iter()
            .map(|(c, r)| format!("{c}:{}", r.name()))
            .collect();
        for expected in ["c:other", "d:harmful", "n:harmful", "s:other", "w:solid"] {
            assert!(
                roles.contains(&expected.to_string()),
                "{expected} in {roles:?}"
            );
        }
    }
}
