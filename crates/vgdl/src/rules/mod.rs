//! A [`GameDesc`] compiled into what the engine runs: sprite types numbered as GVGAI numbers
//! them, each with its class and parameters read into values, the sprite order (the order
//! of updates), each type's subtypes, the interaction set grouped by pair of types as GVGAI
//! groups it, and the terminations. Everything the engine does not support is refused here,
//! as `FILE:LINE: what`, so a game either runs as GVGAI runs it or says why not.

//!
//! Here: the compiled game's types and the compiler's order of work; beside it, by part of
//! the description: `sprites` (with `class`), `effect`, `interactions`, `terminations`, and
//! `params` (reading a parameter as GVGAI converts it).

mod class;
mod effect;
mod interactions;
mod params;
mod sprites;
mod terminations;

use std::collections::{BTreeMap, HashMap};

use crate::description::{GameDesc, VgdlError};

pub use class::Class;
pub use effect::Effect;
use params::ParamReader;
pub use sprites::{Proto, TypeDef};

/// A sprite type's index (GVGAI's `itype`): `wall` 0, `avatar` 1, then the sprite set's
/// sprites in the order of the file.
pub type Kind = usize;

/// A direction (GVGAI's `Direction`: unit vectors, or none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dir {
    /// Right is +1.
    pub x: f64,
    /// Down is +1.
    pub y: f64,
}

impl Dir {
    /// No direction.
    pub const NONE: Dir = Dir { x: 0.0, y: 0.0 };
    /// Up.
    pub const UP: Dir = Dir { x: 0.0, y: -1.0 };
    /// Down.
    pub const DOWN: Dir = Dir { x: 0.0, y: 1.0 };
    /// Left.
    pub const LEFT: Dir = Dir { x: -1.0, y: 0.0 };
    /// Right.
    pub const RIGHT: Dir = Dir { x: 1.0, y: 0.0 };
    /// GVGAI's "not chosen yet" direction of a random missile.
    pub const NIL: Dir = Dir { x: -1.0, y: -1.0 };
    /// GVGAI's base directions in its order (random moves index this list).
    pub const BASE: [Dir; 4] = [Dir::UP, Dir::LEFT, Dir::DOWN, Dir::RIGHT];

    /// True for no direction.
    pub fn is_none(self) -> bool {
        self.x == 0.0 && self.y == 0.0
    }

    /// The vector scaled to length one (none stays none), as GVGAI's `normalise`.
    pub fn normalised(self) -> Dir {
        let m = (self.x * self.x + self.y * self.y).sqrt();
        if m == 0.0 {
            Dir::NONE
        } else {
            Dir {
                x: self.x / m,
                y: self.y / m,
            }
        }
    }

    fn named(word: &str) -> Option<Dir> {
        match word.to_ascii_uppercase().as_str() {
            "UP" => Some(Dir::UP),
            "DOWN" => Some(Dir::DOWN),
            "LEFT" => Some(Dir::LEFT),
            "RIGHT" => Some(Dir::RIGHT),
            "NONE" => Some(Dir::NONE),
            _ => None,
        }
    }
}

/// A rule as the engine applies it: the effect, its score change and its probability.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// What happens.
    pub effect: Effect,
    /// The score change for the player (`scoreChange`).
    pub score: i32,
    /// `prob` (the effects that read it draw a number even at 1, as GVGAI does).
    pub prob: f64,
    /// The rule's line.
    pub line: usize,
    /// The effect's name as written (`stepBack`: what `shieldFrom` names).
    pub name: String,
    /// The rule's place in the interaction set (0 for the first line): what
    /// [`crate::engine::State::fired`] records.
    pub index: usize,
}

/// A termination, compiled.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// Ends when the sprites of `kind` (not disabled) number at most `limit`.
    SpriteCounter {
        /// The type counted.
        kind: Kind,
        /// The count.
        limit: i32,
        /// Whether the player wins.
        win: bool,
    },
    /// Ends when the sprites of the types number exactly `limit` (or more, with `min`).
    MultiSpriteCounter {
        /// The types counted together.
        kinds: Vec<Kind>,
        /// The count.
        limit: i32,
        /// A lower bound instead of an exact count.
        min: bool,
        /// Whether the player wins.
        win: bool,
    },
    /// Ends when the sprites of `kind` (not disabled) number at least `limit`.
    SpriteCounterMore {
        /// The type counted.
        kind: Kind,
        /// The count.
        limit: i32,
        /// Whether the player wins.
        win: bool,
    },
    /// Ends when the sprites of `kind` number exactly `limit` and exactly `subtypes` of its
    /// types have sprites.
    MultiSpriteCounterSubTypes {
        /// The group counted.
        kind: Kind,
        /// The count.
        limit: i32,
        /// How many of its types must have sprites.
        subtypes: i32,
        /// Whether the player wins.
        win: bool,
    },
    /// Ends at tick `limit`.
    Timeout {
        /// The tick.
        limit: i32,
        /// Whether the player wins.
        win: bool,
    },
}

/// A game, compiled for the engine.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The file, as named.
    pub file: String,
    /// The sprite types in GVGAI's numbering.
    pub types: Vec<TypeDef>,
    /// The sprite order: updates run from its end to its start; `avatar` is last.
    pub order: Vec<Kind>,
    /// Each type's subtypes in GVGAI's order (what a rule naming the type applies to).
    pub subtypes: Vec<Vec<Kind>>,
    /// The rules between pairs of types, grouped by pair in the order each pair first
    /// appears, each pair's rules in the file's order.
    pub pairs: Vec<(Kind, Kind, Vec<Rule>)>,
    /// The types with rules at the screen's edge, one entry per rule line as GVGAI lists
    /// them, each with all of the type's edge rules.
    pub eos: Vec<Kind>,
    /// Each type's edge rules.
    pub eos_rules: Vec<Vec<Rule>>,
    /// The terminations in order.
    pub terminations: Vec<Term>,
    /// Each level character's types, in order.
    pub mapping: BTreeMap<char, Vec<Kind>>,
    /// The most of each resource type a sprite may hold (0 for types that are no resource).
    pub resource_limit: Vec<i32>,
    /// The game's `square_size`, when it sets one.
    pub square_size: Option<i32>,
    /// The types whose sprites never move: static classes that no rule moves (the engine
    /// finds their overlaps through a grid kept between ticks).
    pub fixed: Vec<bool>,
    /// The types some rule names first (directly or through a group), and second.
    pub first_in_rules: Vec<bool>,
    /// See `first_in_rules`.
    pub second_in_rules: Vec<bool>,
    /// The timed rules (`T TIME > effect timer=N`), in the file's order.
    pub timed: Vec<Timed>,
    /// Each type by its name (what [`Rules::kind`] looks up).
    by_name: HashMap<String, Kind>,
}

/// A rule run by the clock (GVGAI's `TimeEffect`): on every sprite of `kind` (or on none, for
/// one an `addTimer` started) at tick `next`, then every `timer` ticks when `repeating`.
#[derive(Clone, Debug, PartialEq)]
pub struct Timed {
    /// The sprites it runs on; `None` for none (only effects that need no sprite act).
    pub kind: Option<Kind>,
    /// The rule (its score change applies each time it runs).
    pub rule: Rule,
    /// Ticks between runs.
    pub timer: i32,
    /// Whether it runs again.
    pub repeating: bool,
    /// Its first tick (-1: the first cycle).
    pub next: i32,
}

impl Rules {
    /// The type named `name`.
    pub fn kind(&self, name: &str) -> Option<Kind> {
        self.by_name.get(name).copied()
    }

    /// The leaf types in GVGAI's numbering (the types a trace counts).
    pub fn leaves(&self) -> impl Iterator<Item = Kind> + '_ {
        (0..self.types.len()).filter(|&k| self.types[k].leaf)
    }
}

/// The most times one rule may repeat (`repeat=N`).
pub const MAX_REPEAT: i32 = 1_000;

/// Compiles a description for the engine.
///
/// # Errors
/// [`VgdlError`] at the line of the first sprite class, effect, termination or parameter the
/// engine does not run, or of a parameter whose value does not read.
pub fn compile(desc: &GameDesc, file: &str) -> Result<Rules, VgdlError> {
    let (rules, mut missing) = compile_all(desc, file)?;
    if missing.is_empty() {
        Ok(rules)
    } else {
        Err(missing.swap_remove(0))
    }
}

/// Everything in a description the engine does not run yet (each sprite class, effect,
/// termination and parameter, with its line), or the first value that does not read.
pub fn missing(desc: &GameDesc, file: &str) -> Vec<VgdlError> {
    match compile_all(desc, file) {
        Ok((_, missing)) => missing,
        Err(e) => vec![e],
    }
}

/// The rules, with every unsupported feature listed beside them (the rules then leave those
/// parts out); an error for a value that does not read.
fn compile_all(desc: &GameDesc, file: &str) -> Result<(Rules, Vec<VgdlError>), VgdlError> {
    let mut missing: Vec<VgdlError> = Vec::new();
    let set = sprites::compile(desc, file, &mut missing)?;
    let kind_of = |name: &str| set.by_name.get(name).copied();
    let found = interactions::compile(desc, file, &kind_of, set.types.len(), &mut missing)?;
    let terminations = terminations::compile(desc, file, &kind_of, &mut missing)?;
    let mapping = mapping(desc, file, &kind_of)?;
    let resource_limit = set
        .types
        .iter()
        .map(|t| {
            if t.class == Some(Class::Resource) {
                t.proto.limit
            } else {
                0
            }
        })
        .collect();
    let square_size = square_size(desc, file)?;
    check_game_params(desc, file, &mut missing);
    let fixed = fixed_types(&set.types, &set.subtypes, &found);
    let mut first_in_rules = vec![false; set.types.len()];
    let mut second_in_rules = vec![false; set.types.len()];
    for (a, b, _) in &found.pairs {
        for &k in &set.subtypes[*a] {
            first_in_rules[k] = true;
        }
        for &k in &set.subtypes[*b] {
            second_in_rules[k] = true;
        }
    }
    let rules = Rules {
        by_name: set.by_name,
        file: file.to_string(),
        types: set.types,
        order: set.order,
        subtypes: set.subtypes,
        pairs: found.pairs,
        eos: found.eos,
        eos_rules: found.eos_rules,
        terminations,
        mapping,
        resource_limit,
        square_size,
        fixed,
        first_in_rules,
        second_in_rules,
        timed: found.timed,
    };
    Ok((rules, missing))
}

/// An error at `line` of `file`.
fn error(file: &str, line: usize, message: String) -> VgdlError {
    VgdlError {
        file: file.to_string(),
        line,
        message,
    }
}

/// The type named `name`, or an error at `line` saying the game has no such sprite.
fn sprite_named(
    kind_of: &dyn Fn(&str) -> Option<Kind>,
    file: &str,
    line: usize,
    name: &str,
) -> Result<Kind, VgdlError> {
    kind_of(name).ok_or_else(|| error(file, line, format!("“{name}” is not a sprite of the game")))
}

/// Each level character's types.
fn mapping(
    desc: &GameDesc,
    file: &str,
    kind_of: &dyn Fn(&str) -> Option<Kind>,
) -> Result<BTreeMap<char, Vec<Kind>>, VgdlError> {
    let mut mapping = BTreeMap::new();
    for (c, sprites) in &desc.mapping {
        let kinds = sprites
            .iter()
            .map(|s| {
                kind_of(s).ok_or_else(|| {
                    error(
                        file,
                        1,
                        format!(
                            "the level character “{c}” places “{s}”, which the sprite set \
                             does not define"
                        ),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        mapping.insert(*c, kinds);
    }
    Ok(mapping)
}

/// The game's `square_size`, when it sets one.
fn square_size(desc: &GameDesc, file: &str) -> Result<Option<i32>, VgdlError> {
    let square_size: Option<i32> = desc
        .params
        .iter()
        .find(|p| p.key == "square_size")
        .and_then(|p| p.value.parse().ok());
    // Positions and speeds are measured in squares: 0 divides by zero in every step and a
    // negative size turns the game around (F32).
    if let Some(size) = square_size.filter(|&s| !(1..=10_000).contains(&s)) {
        return Err(error(
            file,
            1,
            format!("square_size={size}: a square is 1 to 10,000 pixels"),
        ));
    }
    Ok(square_size)
}

/// Lists the game parameters the engine does not run in `missing`.
fn check_game_params(desc: &GameDesc, file: &str, missing: &mut Vec<VgdlError>) {
    let game_reader = ParamReader {
        params: &desc.params,
        file,
        line: 1,
    };
    for p in &desc.params {
        // `obs` names the path finder's obstacles, which only the path chasers use.
        if !matches!(
            p.key.as_str(),
            "square_size" | "key_handler" | "no_players" | "obs"
        ) {
            missing.push(game_reader.err(format!(
                "the game parameter {}={} is not supported yet",
                p.key, p.value
            )));
        }
    }
}

/// The types whose sprites never move: a static class stays where it is unless a rule moves
/// it as its first sprite (stepping back, or undoing, leaves a sprite that never moved where
/// it is).
fn fixed_types(
    types: &[TypeDef],
    subtypes: &[Vec<Kind>],
    found: &interactions::Interactions,
) -> Vec<bool> {
    let moves = |e: &Effect| {
        matches!(
            e,
            Effect::BounceForward
                | Effect::TurnAround
                | Effect::WrapAround
                | Effect::StepBack {
                    pixel_perfect: true
                }
                | Effect::AttractGaze { align: true }
                | Effect::Align { .. }
                | Effect::TeleportToExit
                | Effect::PullWithIt { .. }
        )
    };
    let mut fixed: Vec<bool> = types.iter().map(|t| t.proto.is_static).collect();
    for (a, _, list) in &found.pairs {
        if list.iter().any(|r| moves(&r.effect)) {
            for &k in &subtypes[*a] {
                fixed[k] = false;
            }
        }
    }
    for &k in &found.eos {
        if found.eos_rules[k].iter().any(|r| moves(&r.effect)) {
            for &s in &subtypes[k] {
                fixed[s] = false;
            }
        }
    }
    fixed
}
