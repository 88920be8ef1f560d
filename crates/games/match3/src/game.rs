//! Match-3 as a registered game: tiles, sizes, files, the bot analysis and its generators.
//! The root of the crate: only `lib.rs` imports it.

use super::analysis::analysis_of;
use super::layout::{
    Match3Game, BLOCK, CANVAS_HEIGHT, CANVAS_WIDTH, GAP, HEIGHTS, ID, PLAYFIELD, TILES, WIDTHS,
};
use super::Match3Figures;
use super::{validate, BotKind, Layout, LayoutError, ValidationConfig};
use crate::Match3Level;
use std::sync::Arc;
use studio_core::game::{
    AnalyseOptions, Analysis, Area, AsciiError, Game, GameId, LevelGenerator, Markers, SizeRules,
    TileInfo, TileMark,
};
use studio_core::grid::Grid;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;
use studio_core::symmetry::Symmetry;

impl Game for Match3Game {
    fn id(&self) -> GameId {
        ID
    }

    fn name(&self) -> &'static str {
        "Match-3"
    }

    fn file_tag(&self) -> &'static str {
        "Match3"
    }

    fn figures_reader(&self) -> Option<studio_core::level::FiguresReader> {
        Some(studio_core::level::figures_reader::<super::Match3Figures>())
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &TILES
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (*WIDTHS.start(), *HEIGHTS.start()),
            max: (*WIDTHS.end(), *HEIGHTS.end()),
            default: (7, 9),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        Layout::from_rows(rows)
            .map(|_| ())
            .map_err(AsciiError::rule)
    }

    fn blank(&self, width: usize, height: usize) -> Level {
        let (w, h) = self.size_rules().clamp(width, height);
        match Layout::open(w, h) {
            Ok(layout) => Level::from_layout(format!("{w}x{h}"), &layout),
            // Unreachable for clamped sizes; an all-BLOCK canvas is still a level file.
            Err(_) => Level {
                game: ID,
                name: format!("{w}x{h}"),
                cells: vec!["#".repeat(CANVAS_WIDTH); CANVAS_HEIGHT],
                symmetry: Default::default(),
                tags: Vec::new(),
                figures: None,
                playtests: Vec::new(),
            },
        }
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        let layout = Layout::parse_ascii(text).map_err(|e| match e {
            LayoutError::Grid(g) => AsciiError::Grid(g),
            other => AsciiError::Level(other.to_string()),
        })?;
        Ok(Level::from_layout(name, &layout))
    }

    fn analyse(
        &self,
        level: &Level,
        options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        let layout = level.layout().map_err(|e| e.to_string())?;
        if cancel.is_cancelled() {
            return Err(JobError::Cancelled);
        }
        let defaults = ValidationConfig::default();
        let config = ValidationConfig {
            games: options.games.unwrap_or(defaults.games),
            limit: options.limit.unwrap_or(defaults.limit),
            seed: options.seed,
            bot: if options.baseline {
                BotKind::Random
            } else {
                BotKind::Greedy
            },
        };
        let v = validate(&layout, &config).map_err(|e| e.to_string())?;
        Ok(analysis_of(&layout, v))
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        level.figures_of::<Match3Figures>().map(|f| f.median_moves)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        level.figures_of::<Match3Figures>().map(|f| f.valid)
    }

    fn difficulty_name(&self) -> &'static str {
        "median moves"
    }

    fn difficulty_text(&self, moves: f64) -> String {
        if moves.fract() == 0.0 {
            format!("{moves:.0} moves")
        } else {
            format!("{moves:.1} moves")
        }
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        super::generators::all()
    }

    /// BLOCK and GAP groups inside the play area, placed on the canvas.
    fn pattern_groups(&self, rows: &[String]) -> Option<Vec<studio_core::evolve::pattern::Group>> {
        let layout = Layout::from_rows(rows).ok()?;
        let a = layout.play_area();
        let mut groups = super::evolve::area_groups(&layout.area_cells());
        for g in &mut groups {
            for c in &mut g.cells {
                *c = (c.0 + a.x, c.1 + a.y);
            }
        }
        Some(groups)
    }
}

impl studio_core::game::GameView for Match3Game {
    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("swap two tiles", "click one, then a neighbour; or drag"),
            ("skip the cascade animation", "Space or a click"),
        ]
    }

    fn default_brush(&self) -> u8 {
        BLOCK
    }

    fn tile_mark(&self, tile: u8) -> TileMark {
        if tile == GAP {
            TileMark::Hatched
        } else {
            TileMark::Plain
        }
    }

    fn paint(&self, cells: &mut Grid<u8>, x: usize, y: usize, tile: u8) -> bool {
        let old = cells.get(x, y);
        cells.set(x, y, tile);
        if !cells.cells().contains(&PLAYFIELD) {
            cells.set(x, y, old);
            return false;
        }
        true
    }

    fn overlay_name(&self) -> Option<&'static str> {
        Some("Patterns")
    }

    fn play_area(&self, rows: &[String]) -> Option<Area> {
        let a = Layout::from_rows(rows).ok()?.play_area();
        Some(Area {
            x: a.x,
            y: a.y,
            width: a.width,
            height: a.height,
        })
    }

    fn markers(&self, rows: &[String]) -> Markers {
        Markers {
            name: "spawner",
            cells: Layout::from_rows(rows)
                .map(|l| l.spawners())
                .unwrap_or_default(),
        }
    }

    fn level_size(&self, rows: &[String]) -> (usize, usize) {
        Layout::from_rows(rows).map_or((0, 0), |l| l.size())
    }

    fn symmetry_of(&self, rows: &[String]) -> Symmetry {
        Layout::from_rows(rows).map_or(Symmetry::None, |l| l.symmetry())
    }
}
