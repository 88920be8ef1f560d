//! The registry: the one list of games. The window's game switch, the generator sidebar, the
//! command line's `--game` and `--model`, file loading, exports and sorting all iterate it.
//!
//! Adding a game = one folder implementing [`Game`] + one line in `builtin()` (this file).
//! Tests (and, later, plug-ins loaded at run time) add games with [`register`].

use super::Game;
use std::sync::RwLock;

/// The games that ship, one line each, in the order menus list them.
fn builtin() -> [&'static dyn Game; 6] {
    [
        &crate::match3::Match3Game,
        &crate::longcat::LongcatGame,
        &crate::dungeon::DungeonGame,
        &crate::course::CourseGame,
        &crate::blend::BlendGame,
        &crate::mario::game::MarioGame,
    ]
}

static EXTRA: RwLock<Vec<&'static dyn Game>> = RwLock::new(Vec::new());

/// No registered game has this name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?} (registered: {registered})")]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
    /// The registered ids, comma-separated.
    pub registered: String,
}

/// Every registered game: the shipped ones, then those added with [`register`].
pub fn games() -> Vec<&'static dyn Game> {
    let mut all: Vec<&'static dyn Game> = builtin().to_vec();
    if let Ok(extra) = EXTRA.read() {
        all.extend(extra.iter().copied());
    }
    all
}

/// The first shipped game: what the window shows when nothing else is chosen.
pub fn first() -> &'static dyn Game {
    builtin()[0]
}

/// The ids of the registered games.
pub fn names() -> Vec<&'static str> {
    games().iter().map(|g| g.id().as_str()).collect()
}

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The game with this id or file tag (any case; `-` and `_` ignored: `match-3` is `match3`).
///
/// # Errors
/// [`UnknownGame`] listing the registered ids.
pub fn find(name: &str) -> Result<&'static dyn Game, UnknownGame> {
    let wanted = normalise(name);
    games()
        .into_iter()
        .find(|g| normalise(g.id().as_str()) == wanted || normalise(g.file_tag()) == wanted)
        .ok_or_else(|| UnknownGame {
            name: name.to_string(),
            registered: names().join(", "),
        })
}

/// Adds a game at run time (tests register a toy game this way). A game whose id is already
/// registered is ignored, so registering twice is harmless.
pub fn register(game: &'static dyn Game) {
    if find(game.id().as_str()).is_ok() {
        return;
    }
    if let Ok(mut extra) = EXTRA.write() {
        extra.push(game);
    }
}
