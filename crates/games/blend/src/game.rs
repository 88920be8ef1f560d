//! Blend segments as a registered game: 16 × 16 cells in Table I's unified tiles, analysed by
//! which game they are like, both playability agents and the five tile metrics. The root of
//! the crate: only `lib.rs` imports it.

use super::analysis::{analysis_of, figures, lr_share};
use super::data::SIDE;
use super::level::{check_rows, BlendGame, ID, TILES};
use super::BlendFigures;
use std::sync::Arc;
use studio_core::game::{
    AnalyseOptions, Analysis, AsciiError, Game, GameId, LevelGenerator, PlayRules, SizeRules,
    TileInfo,
};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;

impl Game for BlendGame {
    fn id(&self) -> GameId {
        ID
    }

    fn name(&self) -> &'static str {
        "Blend"
    }

    fn file_tag(&self) -> &'static str {
        "Blend"
    }

    fn figures_reader(&self) -> Option<studio_core::level::FiguresReader> {
        Some(studio_core::level::figures_reader::<super::BlendFigures>())
    }

    fn tiles(&self) -> &'static [TileInfo] {
        TILES.as_slice()
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (SIDE, SIDE),
            max: (SIDE, SIDE),
            default: (SIDE, SIDE),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        check_rows(rows).map_err(AsciiError::rule)
    }

    /// An empty segment with a floor of solid blocks.
    fn blank(&self, _width: usize, _height: usize) -> Level {
        let mut cells = vec![".".repeat(SIDE); SIDE - 1];
        cells.push("B".repeat(SIDE));
        Level {
            game: ID,
            name: "segment".into(),
            cells,
            symmetry: Default::default(),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        }
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        let rows = studio_core::level::text_rows(text);
        check_rows(&rows).map_err(AsciiError::Level)?;
        Ok(Level::bare(ID, name, rows))
    }

    fn analyse(
        &self,
        level: &Level,
        _options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        check_rows(&level.cells)?;
        if cancel.is_cancelled() {
            return Err(JobError::Cancelled);
        }
        Ok(analysis_of(&figures(&level.cells)))
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        level.figures_of::<BlendFigures>().map(lr_share)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        level.figures_of::<BlendFigures>().map(|f| {
            if f.lode_runner_like {
                f.lr_playable
            } else {
                f.loz_playable
            }
        })
    }

    fn difficulty_name(&self) -> &'static str {
        "Lode Runner share"
    }

    fn difficulty_text(&self, difficulty: f64) -> String {
        format!("{:.0} % LR", difficulty * 100.0)
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        super::generators::all()
    }

    fn play(&self, level: &Level, _seed: u64) -> Option<Result<Box<dyn PlayRules>, AsciiError>> {
        Some(
            super::play::BlendPlay::new(&level.cells)
                .map(|p| Box::new(p) as Box<dyn PlayRules>)
                .map_err(AsciiError::rule),
        )
    }
}

impl studio_core::game::GameView for BlendGame {
    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            (
                "walk, climb (Lode Runner-like); step (Zelda-like)",
                "arrows or WASD",
            ),
            ("dig the brick below ahead (Lode Runner-like)", "Space"),
            ("take back a move", "Backspace or U"),
        ]
    }
}
