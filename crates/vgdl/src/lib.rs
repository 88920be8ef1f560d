//! GVGAI's Video Game Description Language: the reader ([`description`]: a game and its
//! levels as their files state them), the compiler ([`rules::compile`]: what the engine runs,
//! or which class, effect or parameter it does not run yet) and the engine ([`engine::State`]:
//! GVGAI's semantics, tick by tick).
//!
//! The modules depend one way: `description` and `rng` on nothing, `rules` on `description`,
//! `engine` on both, `search` and `trace` on `engine`.

pub mod description;
pub mod engine;
pub mod rng;
pub mod rules;
pub mod search;
pub mod trace;

pub use description::{
    parse, read_level, GameDesc, Interaction, LevelDesc, Param, SpriteDef, Termination, VgdlError,
    DEFAULT_MAPPING, MAX_SPRITES_PER_CELL,
};
pub use engine::{Action, Limit, State, Winner};
pub use rules::{compile, Rules};
