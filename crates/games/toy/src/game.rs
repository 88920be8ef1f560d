//! The toy as a studio game: `impl Game` and `impl GameView`, and nothing else (only lib.rs
//! names this module).

use crate::analysis::analyse_level;
use crate::generators::Stripes;
use crate::level::{crates, toy_level, ToyGame, TILES, TOY};
use crate::rules::ClearCrates;
use std::sync::Arc;
use studio_core::game::{
    self, AnalyseOptions, Analysis, AsciiError, Game, GameId, GameView, LevelGenerator, PlayRules,
    SizeRules, TileInfo,
};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;

impl Game for ToyGame {
    fn id(&self) -> GameId {
        TOY
    }

    fn name(&self) -> &'static str {
        "Toy"
    }

    fn file_tag(&self) -> &'static str {
        "Toy"
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &TILES
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (1, 1),
            max: (6, 6),
            default: (3, 3),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        game::tile_indices(self, rows)
            .map(|_| ())
            .map_err(AsciiError::rule)
    }

    fn blank(&self, width: usize, height: usize) -> Level {
        toy_level("blank", vec!["o".repeat(width); height])
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        let rows: Vec<String> = text.lines().map(str::to_string).collect();
        self.check(&rows)?;
        Ok(toy_level(name, rows))
    }

    fn analyse(
        &self,
        level: &Level,
        _options: &AnalyseOptions,
        _cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        analyse_level(level)
    }

    fn stored_difficulty(&self, _level: &Level) -> Option<f64> {
        None
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        Some(crates(level) > 0)
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        vec![Arc::new(Stripes)]
    }

    fn has_state_graph(&self) -> bool {
        true
    }

    fn play(&self, level: &Level, _seed: u64) -> Option<Result<Box<dyn PlayRules>, AsciiError>> {
        Some(Ok(Box::new(ClearCrates {
            rows: level.cells.clone(),
            moves: 0,
        })))
    }
}

impl GameView for ToyGame {}
