//! Courses as a registered game: the matrix as digit tiles, the exact evaluation in the gauge
//! and `validate`, the strategy tree in the state-graph viewer, and a playtest that chooses
//! attack or retreat per battle. The root of the crate: only `lib.rs` imports it.

use super::analysis::{analysis_of, GOOD_EVALUATION};
use super::matrix::{parameter_strip, Course, CourseGame, Structure, ID, TILES};
use super::play::CoursePlay;
use super::rules::{evaluate, MAX_ENEMIES};
use super::CourseFigures;
use std::sync::Arc;
use studio_core::game::{
    AnalyseOptions, Analysis, AsciiError, Game, GameId, LevelGenerator, ParamStrip, PlayRules,
    SizeRules, TileInfo, TileMark,
};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;

impl Game for CourseGame {
    fn id(&self) -> GameId {
        ID
    }

    fn name(&self) -> &'static str {
        "Course"
    }

    fn file_tag(&self) -> &'static str {
        "Course"
    }

    fn figures_reader(&self) -> Option<studio_core::level::FiguresReader> {
        Some(studio_core::level::figures_reader::<super::CourseFigures>())
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &TILES
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (4, 3),
            max: (2 * (MAX_ENEMIES + 1), 3),
            default: (2 * Structure::NINE.columns(), 3),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        Course::from_rows(rows)
            .map(|_| ())
            .map_err(AsciiError::rule)
    }

    /// A course of `width / 2` columns: enemies and a boss at the middle of their ranges, a
    /// recovery event of rate 0.5 after every second enemy.
    fn blank(&self, width: usize, height: usize) -> Level {
        let (w, _) = self.size_rules().clamp(width, height);
        let columns = (w / 2).max(2);
        let course = Course::new(
            (0..columns)
                .map(|i| {
                    let rate = if i % 2 == 1 && i + 1 < columns {
                        0.5
                    } else {
                        0.0
                    };
                    [0.5, 0.5, rate]
                })
                .collect(),
        );
        let cells = course.map_or_else(|_| vec!["5050".into(); 3], |c| c.to_rows());
        Level {
            game: ID,
            name: format!("{} events", cells[0].len() / 2),
            cells,
            symmetry: Default::default(),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        }
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        let rows = studio_core::level::text_rows(text);
        Course::from_rows(&rows).map_err(|e| AsciiError::Level(e.to_string()))?;
        Ok(Level::bare(ID, name, rows))
    }

    fn analyse(
        &self,
        level: &Level,
        _options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        let course = Course::from_rows(&level.cells).map_err(|e| e.to_string())?;
        if cancel.is_cancelled() {
            return Err(JobError::Cancelled);
        }
        Ok(analysis_of(&course, &evaluate(&course)))
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        level
            .figures_of::<CourseFigures>()
            .map(|f| 1.0 - f.win_rate)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        level
            .figures_of::<CourseFigures>()
            .map(|f| f.evaluation >= GOOD_EVALUATION)
    }

    fn stored_weak(&self, level: &Level) -> bool {
        level
            .figures_of::<CourseFigures>()
            .is_some_and(|f| f.wins > 0 && f.evaluation < GOOD_EVALUATION)
    }

    fn difficulty_name(&self) -> &'static str {
        "1 − win rate"
    }

    fn difficulty_text(&self, difficulty: f64) -> String {
        format!("wins {:.0} %", (1.0 - difficulty) * 100.0)
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        super::generators::all()
    }

    fn sheet_columns(&self) -> usize {
        4
    }

    fn has_state_graph(&self) -> bool {
        true
    }

    fn play(&self, level: &Level, _seed: u64) -> Option<Result<Box<dyn PlayRules>, AsciiError>> {
        Some(
            Course::from_rows(&level.cells)
                .map(|c| Box::new(CoursePlay::new(c)) as Box<dyn PlayRules>)
                .map_err(AsciiError::rule),
        )
    }

    fn card_text(&self, level: &Level, difficulty: f64) -> String {
        // The GOOD / WEAK badge is the evaluation's: the card shows it first.
        match level.figures_of::<CourseFigures>() {
            Some(f) => format!(
                "eval {:.2} · wins {:.0} %",
                f.evaluation,
                f.win_rate * 100.0
            ),
            None => self.difficulty_text(difficulty),
        }
    }
}

impl studio_core::game::GameView for CourseGame {
    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("attack the enemy", "Space or Right"),
            ("retreat", "Left or ."),
            ("take back a turn", "Backspace or U"),
        ]
    }

    fn tile_mark(&self, tile: u8) -> TileMark {
        TileMark::Glyph(char::from(b'0' + tile.min(9)))
    }

    fn default_brush(&self) -> u8 {
        5
    }

    fn parameter_strip(&self, rows: &[String]) -> Option<ParamStrip> {
        parameter_strip(&Course::from_rows(rows).ok()?)
    }
}
