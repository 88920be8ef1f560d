//! Games as plug-ins: the trait family a game implements and the registry that lists them.
//!
//! A game is a crate of its own (`crates/games/<game>`) that implements [`Game`]: its tiles
//! (ASCII, name, colour), size rules, checking and printing levels, a blank level, its stored
//! figures, one [`Analysis`] of a level (bots, solver or evaluator), and its
//! [`LevelGenerator`]s; its `plugin` adds it to the [`registry`]. The window, the command
//! line, files, packs and exports know games only through the registry; nothing here depends
//! on a GUI crate or names a game (the examples in these docs are the shipped games).

mod analysis;
mod conditions;
mod edit;
pub mod explore;
mod generator;
mod graph;
mod id;
mod models;
mod play;
pub mod registry;
mod scores;

pub use analysis::{
    AgentProfile, AnalyseOptions, Analysis, Gauge, GaugeBand, GaugeCurve, GaugeHistogram, Verdict,
};
pub use conditions::{ConditionError, ConditionKind, ConditionSpec, ConditionValue, Conditions};
pub use edit::{Area, Markers, Overlay, ParamStrip, StripEvent, StripParam, TileMark};
pub use explore::{GraphError, GraphVariables, NodeClass, PlayerModel, StateSpace};
pub use generator::{
    Chart, Feasibility, GenRequest, GenerationContext, LatentWalk, LevelGenerator, LevelSink,
    Suggestion,
};
pub use graph::{CellLook, ClassStyle, GraphLayout, StateGraphView, StatePicture};
pub use id::GameId;
pub(crate) use id::Tag;
pub use models::{ModelCache, ModelError};
pub use play::{Heading, PlayInput, PlayMove, PlayRules, PlayStatus};
pub use registry::{find, games, register, UnknownGame};
pub use scores::{ScoreDecoder, TileScores};

use crate::grid::{Grid, GridError};
use crate::jobs::{Cancel, JobError};
use crate::level::Level;
use crate::symmetry::{self, Symmetry};
use std::sync::Arc;

/// One tile of a game's palette: how files write it, what designers call it, how it looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileInfo {
    /// The character level files use.
    pub ascii: char,
    /// The name designers use (`PLAYFIELD`, `WALL`).
    pub name: &'static str,
    /// Its colour in the canvas, thumbnails and PNG sheets.
    pub rgb: [u8; 3],
}

/// The sizes a game's levels may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeRules {
    /// Smallest width and height.
    pub min: (usize, usize),
    /// Largest width and height.
    pub max: (usize, usize),
    /// The size a new level gets.
    pub default: (usize, usize),
}

impl SizeRules {
    /// True when `width × height` is allowed.
    pub fn allows(&self, width: usize, height: usize) -> bool {
        (self.min.0..=self.max.0).contains(&width) && (self.min.1..=self.max.1).contains(&height)
    }

    /// The nearest allowed size.
    pub fn clamp(&self, width: usize, height: usize) -> (usize, usize) {
        (
            width.clamp(self.min.0, self.max.0),
            height.clamp(self.min.1, self.max.1),
        )
    }
}

/// Why ASCII text is not a level of a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AsciiError {
    /// A character the game does not use, or ragged rows (with the position).
    #[error(transparent)]
    Grid(#[from] GridError),
    /// The cells parse but break the game's rules (a size, a missing cat head).
    #[error("{0}")]
    Level(String),
}

impl AsciiError {
    /// The rule a level breaks, in the words of the game's own error (`Layout::from_rows`'s,
    /// `Room::from_rows`'s).
    pub fn rule(error: impl std::fmt::Display) -> Self {
        Self::Level(error.to_string())
    }
}

/// A game has no generator of that name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {game} generator {id:?} ({})", known.join(", "))]
pub struct UnknownGenerator {
    /// The game's name (`Toy`).
    pub game: &'static str,
    /// The name asked for.
    pub id: String,
    /// The game's generators.
    pub known: Vec<&'static str>,
}

/// A character that is not one of a game's tiles.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("row {row}, column {column}: {ch:?} is not a {game} tile")]
pub struct UnknownTile {
    /// Its row, counted from 1.
    pub row: usize,
    /// Its column, counted from 1.
    pub column: usize,
    /// The character.
    pub ch: char,
    /// The game's name.
    pub game: &'static str,
}

/// The description a game was made from at run time (a GVGAI game's VGDL text): packs of
/// its levels carry it, so they open where the game was never opened.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSource {
    /// Which loader reads it (`vgdl`): a [`registry::SourceLoader`]'s kind.
    pub kind: String,
    /// The file name it was read from (`zelda.txt`), for messages.
    pub file: String,
    /// The description's text.
    pub text: String,
}

/// What a game provides to the studio. One implementation per game crate, added to the
/// registry by the crate's `plugin`.
pub trait Game: GameView + Send + Sync + 'static {
    /// The id used by files, JSON and the command line (`toy`).
    fn id(&self) -> GameId;

    /// The name designers read (`Toy`).
    fn name(&self) -> &'static str;

    /// How level files name the game (`Toy`: `game: Toy`).
    fn file_tag(&self) -> &'static str;

    /// The palette, in the order the sidebar lists it.
    fn tiles(&self) -> &'static [TileInfo];

    /// The sizes levels may take.
    fn size_rules(&self) -> SizeRules;

    /// Checks that rows of ASCII make a level of this game.
    ///
    /// # Errors
    /// [`AsciiError::Grid`] for a character or row shape the game does not take,
    /// [`AsciiError::Level`] for a broken rule ([`AsciiError::rule`] wraps the game's own
    /// error).
    fn check(&self, rows: &[String]) -> Result<(), AsciiError>;

    /// A new, empty level of the given size (clamped to the size rules).
    fn blank(&self, width: usize, height: usize) -> Level;

    /// A level from ASCII art.
    ///
    /// # Errors
    /// [`AsciiError`] with the position of a bad character, or the broken rule.
    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError>;

    /// Analyses a level: bots, solver or evaluator, in one [`Analysis`].
    ///
    /// # Errors
    /// [`JobError::Failed`] with the problem in words ("graph too large", …);
    /// [`JobError::Cancelled`] when `cancel` is raised.
    fn analyse(
        &self,
        level: &Level,
        options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError>;

    /// How this game's stored figures are read from a file (`figures: Some(Tag(…))`, the tag
    /// being [`Game::file_tag`]); `None` when the game stores no figures.
    fn figures_reader(&self) -> Option<crate::level::FiguresReader> {
        None
    }

    /// Games (bot games, agent games, trials) an analysis plays unless told otherwise.
    fn default_games(&self) -> u32 {
        30
    }

    /// The difficulty recorded in a level's stored figures (for sorting without analysing).
    fn stored_difficulty(&self, level: &Level) -> Option<f64>;

    /// Whether the stored figures say the level passes (valid / non-trivial).
    fn stored_verdict(&self, level: &Level) -> Option<bool>;

    /// Whether the stored figures say the level works but is not worth keeping (a solvable,
    /// trivial level): shown softer than a failure.
    fn stored_weak(&self, _level: &Level) -> bool {
        false
    }

    /// The generators, in the order the sidebar lists them.
    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>>;

    /// A difficulty number in words ("18 moves", "difficulty 5.1").
    fn difficulty_text(&self, difficulty: f64) -> String {
        format!("difficulty {difficulty:.1}")
    }

    /// What the difficulty number is, for the pack's difficulty-curve axis: the same measure
    /// [`Game::difficulty_text`] labels on each card and sheet.
    fn difficulty_name(&self) -> &'static str {
        "difficulty"
    }

    /// The figure a candidate or pack card shows for `level` (whose difficulty is
    /// `difficulty`): by default the difficulty in words; a game whose verdict rests on
    /// another figure shows that one first, so the card agrees with its badge.
    fn card_text(&self, level: &crate::level::Level, difficulty: f64) -> String {
        let _ = level;
        self.difficulty_text(difficulty)
    }

    /// Levels a row in a PNG sheet.
    fn sheet_columns(&self) -> usize {
        12
    }

    /// A game of `level` to play in the playtest window (`seed` deals games with chance);
    /// `None` when the game has no playtest through these rules.
    ///
    /// # Errors
    /// Why the level cannot be played: the rule it breaks.
    fn play(&self, _level: &Level, _seed: u64) -> Option<Result<Box<dyn PlayRules>, AsciiError>> {
        None
    }

    /// True when [`Game::analyse`] returns a state graph (the window then shows the viewer).
    fn has_state_graph(&self) -> bool {
        false
    }

    /// True when the game has a ladder of game-playing agents ([`Game::agent_profiles`]).
    fn has_agents(&self) -> bool {
        false
    }

    /// The sets of agents [`Game::agent_profiles`] can play, as (name, what it is), the
    /// default first; empty when the game has one ladder only.
    fn agent_sets(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// The relative performance profiles of the agents of set `agents` (a name from
    /// [`Game::agent_sets`]; `""` for the default) on `levels` (levels of other games are
    /// skipped): every agent plays each level `games` seeded times.
    ///
    /// # Errors
    /// The game has no agents or no such set, no level is one of its levels, or the job was
    /// cancelled.
    fn agent_profiles(
        &self,
        _levels: &[Level],
        _agents: &str,
        _games: u32,
        _seed: u64,
        _cancel: &Cancel,
    ) -> Result<Vec<AgentProfile>, JobError> {
        Err(JobError::failed(format!(
            "{} has no game-playing agents to profile",
            self.name()
        )))
    }

    /// The groups the pattern GA's FPattern scores (4-connected same-category sprites, in
    /// grid coordinates), when the game has a pattern GA.
    fn pattern_groups(&self, _rows: &[String]) -> Option<Vec<crate::evolve::pattern::Group>> {
        None
    }

    /// The description this game was made from at run time; `None` for a built-in game.
    fn source(&self) -> Option<GameSource> {
        None
    }

    /// How the game builds a level from a model's tile scores under its own rules, for a
    /// game whose levels a cell-by-cell decoding almost never gets right (a Longcat level is
    /// a walk: one wrong wall and it cannot be solved); `None`: a model takes each cell's
    /// likeliest tile (the default).
    fn score_decoder(&self) -> Option<ScoreDecoder> {
        None
    }
}

/// What the window asks of a game beyond its rules: how the editor paints and marks its
/// tiles, the overlays and strips it draws over the canvas, how the playtest names its keys.
/// Every method has a default that suits a game whose every cell is free to paint, so a new
/// game writes `impl GameView for MyGame {}` and overrides what it needs.
pub trait GameView {
    /// The level is played side-scrolling: the canvas fits it to its height, scrolls it
    /// sideways and shows a minimap of the whole level.
    fn side_scrolling(&self) -> bool {
        false
    }

    /// One line under the gauge on why its figures moved after an edit: what the game's
    /// agents did at the edited cells (`changed`, `(x, y)`), from the analysis of the level
    /// before (`before`) and after it (`after`). `None`: nothing to say (the default).
    fn explain_change(
        &self,
        before: &Analysis,
        after: &Analysis,
        changed: &[(usize, usize)],
    ) -> Option<String> {
        let _ = (before, after, changed);
        None
    }

    /// The playtest's keys and gestures as the help sheet lists them: (action, keys). Empty
    /// for a game without a playtest.
    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// How tile `tile` (an index into [`Game::tiles`]) is marked beyond its colour.
    fn tile_mark(&self, _tile: u8) -> TileMark {
        TileMark::Plain
    }

    /// The tile a new brush paints (an index into [`Game::tiles`]).
    fn default_brush(&self) -> u8 {
        0
    }

    /// The tile a level holds exactly once (the player): painting it moves it, and a
    /// mirrored brush paints it in one cell only.
    fn unique_tile(&self) -> Option<u8> {
        None
    }

    /// Paints tile `tile` into cell `(x, y)` of a level under edit (in range, and different
    /// from what is there); returns false when the game's rules refuse the change (the last
    /// playable cell of a layout).
    fn paint(&self, cells: &mut Grid<u8>, x: usize, y: usize, tile: u8) -> bool {
        cells.set(x, y, tile);
        true
    }

    /// The name of the overlay the game can lay over the canvas ("Patterns"), if any.
    fn overlay_name(&self) -> Option<&'static str> {
        None
    }

    /// What the overlay shows, for its menu entry's tooltip.
    fn overlay_help(&self) -> &'static str {
        "Walls and blocks outlined by the size of the group they belong to: alone, in a pair, \
         or in a group of 3 or more touching tiles. This is what the pattern GA's FPattern \
         scores (α rewards groups, β lone tiles); nothing here is an error. The key, the exit \
         and the monsters are not outlined: how they group is not what shapes a room."
    }

    /// The overlay of a level (its rows as the editor holds them, perhaps mid-edit), when the
    /// game draws its own; [`overlay_of`] falls back on the pattern groups.
    fn overlay(&self, _rows: &[String]) -> Option<Overlay> {
        None
    }

    /// The overlay drawn from a finished analysis of the level (virtual damage places
    /// and A* path), when the game draws one that way; it replaces [`GameView::overlay`] while
    /// the analysis is of the level shown.
    fn analysis_overlay(&self, _analysis: &Analysis) -> Option<Overlay> {
        None
    }

    /// The level as a strip of events with parameter sliders, for games edited that way
    /// (courses); `None` for tile games or rows that are not a level of the game.
    fn parameter_strip(&self, _rows: &[String]) -> Option<ParamStrip> {
        None
    }

    /// The play area inside the canvas, when the game has one (the canvas draws it and mirrors
    /// within it); `None` when the whole grid is played.
    fn play_area(&self, _rows: &[String]) -> Option<Area> {
        None
    }

    /// Cells the canvas marks (spawners).
    fn markers(&self, _rows: &[String]) -> Markers {
        Markers::default()
    }

    /// The size designers read (the longest playable runs, say); the grid by default.
    fn level_size(&self, rows: &[String]) -> (usize, usize) {
        (rows.first().map_or(0, |r| r.chars().count()), rows.len())
    }

    /// The symmetry of a level (of its play area where it has one).
    fn symmetry_of(&self, rows: &[String]) -> Symmetry {
        let (width, height) = (rows.first().map_or(0, |r| r.chars().count()), rows.len());
        if rows.iter().any(|r| r.chars().count() != width) {
            return Symmetry::None;
        }
        let mut grid = Grid::filled(width, height, ' ');
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                grid.set(x, y, c);
            }
        }
        symmetry::detect(&grid)
    }
}

impl std::fmt::Debug for dyn Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Game({})", self.id())
    }
}

/// The overlay the canvas lays over a level of `game`: the game's own
/// ([`GameView::overlay`]), else its pattern groups tinted by size class.
pub fn overlay_of(game: &dyn Game, rows: &[String]) -> Option<Overlay> {
    game.overlay(rows).or_else(|| {
        game.pattern_groups(rows)
            .map(|g| crate::evolve::pattern::overlay(&g))
    })
}

/// Every generator of a game: its own ([`Game::generators`]), then those made at run time
/// (level VAEs trained on a pack, [`registry::add_learned`]).
pub fn generators_of(game: &dyn Game) -> Vec<Arc<dyn LevelGenerator>> {
    let mut all = game.generators();
    all.extend(registry::learned(game.id()));
    all
}

/// The generator `id` of a game (its own or one made at run time).
///
/// # Errors
/// [`UnknownGenerator`], listing the game's generators.
pub fn generator_of(
    game: &dyn Game,
    id: &str,
) -> Result<Arc<dyn LevelGenerator>, UnknownGenerator> {
    let all = generators_of(game);
    all.iter()
        .find(|g| g.id() == id || g.aliases().contains(&id))
        .cloned()
        .ok_or_else(|| UnknownGenerator {
            game: game.name(),
            id: id.to_string(),
            known: all.iter().map(|g| g.id()).collect(),
        })
}

/// Reads rows of ASCII as tile indices into a game's palette.
///
/// # Errors
/// [`UnknownTile`]: the first character the palette does not have, with its row and column.
pub fn tile_indices(game: &dyn Game, rows: &[String]) -> Result<Vec<Vec<u8>>, UnknownTile> {
    let tiles = game.tiles();
    rows.iter()
        .enumerate()
        .map(|(y, row)| {
            row.chars()
                .enumerate()
                .map(|(x, c)| {
                    tiles
                        .iter()
                        .position(|t| t.ascii == c)
                        .map(|i| i as u8)
                        .ok_or_else(|| UnknownTile {
                            row: y + 1,
                            column: x + 1,
                            ch: c,
                            game: game.name(),
                        })
                })
                .collect()
        })
        .collect()
}
