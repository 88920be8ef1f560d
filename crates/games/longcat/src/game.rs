//! Longcat as a registered game: what the studio asks of it (tiles, sizes, files, the
//! state-graph analysis, its generators: the two random ones of the thesis and the DQN) and
//! what the window asks. The root of the crate: only `lib.rs` imports it.

use super::inspect::{self, analysis_of};
use super::level::{ascii_error, LongcatGame, EMPTY, HEAD, ID, MAX_SIDE, TILES};
use super::LongcatFigures;
use super::{is_non_trivial, LongcatLevel, RidgeModel, DEFAULT_BUDGET};
use std::sync::Arc;
use studio_core::game::{
    AnalyseOptions, Analysis, AsciiError, Game, GameId, LevelGenerator, SizeRules, TileInfo,
    TileMark,
};
use studio_core::grid::Grid;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;

impl Game for LongcatGame {
    fn id(&self) -> GameId {
        ID
    }

    fn name(&self) -> &'static str {
        "Longcat"
    }

    fn file_tag(&self) -> &'static str {
        "Longcat"
    }

    fn figures_reader(&self) -> Option<studio_core::level::FiguresReader> {
        Some(studio_core::level::figures_reader::<super::LongcatFigures>())
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &TILES
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (3, 3),
            max: (MAX_SIDE, MAX_SIDE),
            default: (6, 6),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        super::check_cells(rows).map_err(AsciiError::rule)
    }

    fn blank(&self, width: usize, height: usize) -> Level {
        let (w, h) = self.size_rules().clamp(width, height);
        let mut g = Grid::filled(w, h, super::Cell::Empty);
        g.set(0, 0, super::Cell::Head);
        match LongcatLevel::new(g) {
            Ok(level) => level.to_level(format!("{w}x{h}")),
            Err(_) => Level {
                game: ID,
                name: format!("{w}x{h}"),
                cells: vec!["@".to_string()],
                symmetry: Default::default(),
                tags: Vec::new(),
                figures: None,
                playtests: Vec::new(),
            },
        }
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        super::level_from_ascii(name, text).map_err(ascii_error)
    }

    /// A model's Longcat level is the walk of its own solution (solvable by construction).
    fn score_decoder(&self) -> Option<studio_core::game::ScoreDecoder> {
        Some(|scores| super::decode::walk_decode(scores).map(|level| level.to_level("").cells))
    }

    fn analyse(
        &self,
        level: &Level,
        options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        let cat = LongcatLevel::from_rows(&level.cells).map_err(|e| e.to_string())?;
        let budget = options.budget.unwrap_or(DEFAULT_BUDGET);
        let custom = match &options.predictor {
            Some(path) => Some(RidgeModel::load(path).map_err(|e| e.to_string())?),
            None => None,
        };
        let predictor = custom.as_ref().or_else(|| inspect::shipped_model());
        inspect::analyse_with(&cat, budget, predictor, cancel).map(analysis_of)
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        level
            .figures_of::<LongcatFigures>()
            .and_then(|f| f.difficulty)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        level
            .figures_of::<LongcatFigures>()
            .map(|f| is_non_trivial(f.difficulty))
    }

    fn stored_weak(&self, level: &Level) -> bool {
        level
            .figures_of::<LongcatFigures>()
            .is_some_and(|f| f.solvable && !is_non_trivial(f.difficulty))
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        super::generate::all()
    }

    fn sheet_columns(&self) -> usize {
        10
    }

    fn has_state_graph(&self) -> bool {
        true
    }

    /// Wall groups (what the GA's FPattern scores).
    fn pattern_groups(&self, rows: &[String]) -> Option<Vec<studio_core::evolve::pattern::Group>> {
        let level = super::level::LongcatLevel::from_rows(rows).ok()?;
        Some(super::evolve::wall_groups(level.cells()))
    }
}

impl studio_core::game::GameView for LongcatGame {
    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("slide the cat", "arrows or WASD, or swipe with the mouse"),
            ("take back a move", "Backspace or U"),
        ]
    }

    fn tile_mark(&self, tile: u8) -> TileMark {
        if tile == HEAD {
            TileMark::Avatar
        } else {
            TileMark::Plain
        }
    }

    fn overlay_name(&self) -> Option<&'static str> {
        Some("Patterns")
    }

    fn unique_tile(&self) -> Option<u8> {
        Some(HEAD)
    }

    fn paint(&self, cells: &mut Grid<u8>, x: usize, y: usize, tile: u8) -> bool {
        if tile == HEAD {
            for c in cells.cells_mut() {
                if *c == HEAD {
                    *c = EMPTY;
                }
            }
        }
        cells.set(x, y, tile);
        true
    }
}
