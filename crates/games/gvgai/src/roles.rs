//! Each sprite type's role for the pattern GA (the pattern-based FI2Pop paper's categories:
//! solid, collectible, harmful, goal, other), read from the game's interaction set and
//! terminations, so any VGDL game gets them without a hand-written table:
//!
//! - **goal**: a winning termination counts it (`SpriteCounter stype=T win=True`: the level is
//!   won when they are gone, e.g. Zelda's exit, Sokoban's boxes);
//! - **harmful**: the avatar meeting it is killed or hurt (`avatar T > killSprite`,
//!   `subtractHealthPoints`, …);
//! - **collectible**: the avatar takes it (`T avatar > killSprite` / `collectResource`, or
//!   `avatar T > … killSecond=True`);
//! - **solid**: it stops the avatar (`avatar T > stepBack` / `undoAll`);
//! - **other**: anything else (floors, pushable boxes, spawners the avatar passes).
//!
//! A type with several roles takes the first of that list.

use crate::load::Game;
use studio_core::evolve::pattern::Category;
use vgdl::rules::{Effect, Kind, Term};

/// The role of each sprite type (GVGAI's numbering); the avatar's types are `Other`.
pub fn roles(game: &Game) -> Vec<Category> {
    let rules = &game.rules;
    let n = rules.types.len();
    let avatar_kinds: Vec<bool> = (0..n)
        .map(|k| rules.types[k].class.is_some_and(|c| c.is_avatar()))
        .collect();
    let is_avatar_group = |k: Kind| rules.subtypes[k].iter().any(|&s| avatar_kinds[s]);
    let (mut goal, mut harmful, mut collectible, mut solid) = (
        vec![false; n],
        vec![false; n],
        vec![false; n],
        vec![false; n],
    );
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
