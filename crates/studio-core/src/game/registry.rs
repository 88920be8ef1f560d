//! The registry: the games the studio knows. The window's game switch, the generator sidebar,
//! the command line's `--game` and `--model`, file loading, exports and sorting all iterate
//! it. Nothing here names a game: the binary installs its one list of plug-ins
//! ([`install`]), and each plug-in adds its game through a [`Registry`]. Tests add games the
//! same way (or one at a time with [`register`]).

use super::{
    AnalyseOptions, Analysis, AsciiError, Game, GameId, LevelGenerator, SizeRules, TileInfo,
};
use crate::jobs::{Cancel, JobError};
use crate::level::Level;
use std::sync::{Arc, RwLock};

/// What a plug-in adds to the studio, handed to its `plugin(&mut Registry)` function.
#[derive(Default)]
pub struct Registry {
    games: Vec<&'static dyn Game>,
}

impl Registry {
    /// Adds a game; a game whose id is already there is ignored.
    pub fn add_game(&mut self, game: &'static dyn Game) {
        if !self.games.iter().any(|g| g.id() == game.id()) {
            self.games.push(game);
        }
    }
}

/// A plug-in: one function that adds a game (and what comes with it) to the registry.
pub type Plugin = fn(&mut Registry);

static INSTALLED: RwLock<Vec<&'static dyn Game>> = RwLock::new(Vec::new());

/// Runs each plug-in, in order, and adds what they register to the studio's registry (after
/// what is there already; a game registered twice is kept once). The binary calls it once
/// with its list of games before anything reads a level.
pub fn install(plugins: &[Plugin]) {
    let mut registry = Registry { games: games() };
    for plugin in plugins {
        plugin(&mut registry);
    }
    if let Ok(mut installed) = INSTALLED.write() {
        *installed = registry.games;
    }
}

/// No registered game has this name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?} (registered: {registered})")]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
    /// The registered ids, comma-separated.
    pub registered: String,
}

/// Every registered game, in the order they were installed.
pub fn games() -> Vec<&'static dyn Game> {
    INSTALLED.read().map(|g| g.clone()).unwrap_or_default()
}

/// The first registered game: what the window shows when nothing else is chosen (a
/// placeholder with no tiles when nothing is registered).
pub fn first() -> &'static dyn Game {
    games().first().copied().unwrap_or(&NoGame)
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

/// Adds one game at run time (tests register a toy game this way). A game whose id is
/// already registered is ignored, so registering twice is harmless.
pub fn register(game: &'static dyn Game) {
    if let Ok(mut installed) = INSTALLED.write() {
        if !installed.iter().any(|g| g.id() == game.id()) {
            installed.push(game);
        }
    }
}

/// What [`first`] returns when no game is registered: a game with no tiles that nothing can
/// be made of, so a misconfigured build shows an empty studio instead of crashing.
struct NoGame;

impl Game for NoGame {
    fn id(&self) -> GameId {
        GameId::new("none")
    }
    fn name(&self) -> &'static str {
        "No game registered"
    }
    fn file_tag(&self) -> &'static str {
        "None"
    }
    fn tiles(&self) -> &'static [TileInfo] {
        &[]
    }
    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (1, 1),
            max: (1, 1),
            default: (1, 1),
        }
    }
    fn check(&self, _rows: &[String]) -> Result<(), String> {
        Err("no game is registered in this build".into())
    }
    fn blank(&self, _width: usize, _height: usize) -> Level {
        Level::bare(self.id(), "untitled", Vec::new())
    }
    fn level_from_ascii(&self, _name: &str, _text: &str) -> Result<Level, AsciiError> {
        Err(AsciiError::Level(
            "no game is registered in this build".into(),
        ))
    }
    fn analyse(
        &self,
        _level: &Level,
        _options: &AnalyseOptions,
        _cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        Err(JobError::Failed(
            "no game is registered in this build".into(),
        ))
    }
    fn stored_difficulty(&self, _level: &Level) -> Option<f64> {
        None
    }
    fn stored_verdict(&self, _level: &Level) -> Option<bool> {
        None
    }
    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        Vec::new()
    }
}
