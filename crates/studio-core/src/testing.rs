//! A stand-in game for the core's own unit tests (the core names no real game): `.` floor and
//! `#` wall on any grid up to 16 × 16, and one stored figure, a difficulty. Registered for the
//! unit tests only.

use crate::game::{
    registry, AnalyseOptions, Analysis, AsciiError, Game, GameId, LevelGenerator, SizeRules,
    TileInfo,
};
use crate::jobs::{Cancel, JobError};
use crate::level::{figures_reader, Figures, FiguresReader, GameFigures, Level};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The stand-in game's id.
pub const ID: GameId = GameId::new("floorplan");

/// Floor and wall, nothing else.
pub struct Floorplan;

/// The one figure the stand-in game stores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effort {
    /// How hard the level is.
    pub difficulty: f64,
}

impl GameFigures for Effort {
    fn tag(&self) -> &'static str {
        "Floorplan"
    }
    fn numbers(&self) -> Vec<(&'static str, f64)> {
        vec![("difficulty", self.difficulty)]
    }
}

/// A `width × height` level of floor, storing `difficulty` when given.
pub fn level(name: &str, width: usize, height: usize, difficulty: Option<f64>) -> Level {
    let mut level = Level::bare(ID, name, vec![".".repeat(width); height]);
    level.figures = difficulty.map(|difficulty| Figures::new(Effort { difficulty }));
    level
}

/// Registers the stand-in game (once; later calls do nothing).
pub fn register() {
    registry::register(&Floorplan);
}

impl Game for Floorplan {
    fn id(&self) -> GameId {
        ID
    }

    fn name(&self) -> &'static str {
        "Floor plan"
    }

    fn file_tag(&self) -> &'static str {
        "Floorplan"
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &[
            TileInfo {
                ascii: '.',
                name: "FLOOR",
                rgb: [230, 220, 200],
            },
            TileInfo {
                ascii: '#',
                name: "WALL",
                rgb: [60, 60, 70],
            },
        ]
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (1, 1),
            max: (16, 16),
            default: (8, 8),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        crate::game::tile_indices(self, rows)
            .map(|_| ())
            .map_err(AsciiError::rule)
    }

    fn blank(&self, width: usize, height: usize) -> Level {
        level("untitled", width, height, None)
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        let rows = crate::level::text_rows(text);
        self.check(&rows)?;
        Ok(Level::bare(ID, name, rows))
    }

    fn analyse(
        &self,
        _level: &Level,
        _options: &AnalyseOptions,
        _cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        Err(JobError::failed("the stand-in game has no analysis"))
    }

    fn figures_reader(&self) -> Option<FiguresReader> {
        Some(figures_reader::<Effort>())
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        level.figures_of::<Effort>().map(|f| f.difficulty)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        level.figures_of::<Effort>().map(|f| f.difficulty <= 20.0)
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        Vec::new()
    }
}

impl crate::game::GameView for Floorplan {}
