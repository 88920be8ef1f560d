//! Mario levels as a registered game: tiles, sizes, files, painting rules (one start, one
//! goal) and the analysis (A* playability, the human-like agent's trials, the rewards). The
//! root of the crate: only `lib.rs` imports it.

use super::analysis::{analyse_level, damage_overlay, explain_change};
use super::evaluate::{LevelEvaluation, DEFAULT_TRIALS};
use super::level::{
    self, to_level, MarioGame, MarioLevel, ID, MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS,
};
use super::tiles::{Tile, TILES};
use super::MarioFigures;
use std::sync::Arc;
use studio_core::game::{
    AnalyseOptions, Analysis, AsciiError, Game, GameId, LevelGenerator, Overlay, SizeRules,
    TileInfo, TileMark,
};
use studio_core::grid::Grid;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;

impl Game for MarioGame {
    fn id(&self) -> GameId {
        ID
    }

    fn name(&self) -> &'static str {
        "Mario"
    }

    fn file_tag(&self) -> &'static str {
        "Mario"
    }

    fn figures_reader(&self) -> Option<studio_core::level::FiguresReader> {
        Some(studio_core::level::figures_reader::<super::MarioFigures>())
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &TILES
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (MIN_COLUMNS, MIN_ROWS),
            max: (MAX_COLUMNS, MAX_ROWS),
            default: (48, 15),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        MarioLevel::from_rows(rows)
            .map(|_| ())
            .map_err(AsciiError::rule)
    }

    fn blank(&self, width: usize, height: usize) -> Level {
        let cells = level::blank(width, height);
        Level::bare(
            ID,
            format!("{}x{}", cells.width(), cells.height()),
            cells.to_rows(),
        )
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        let rows = studio_core::level::text_rows(text);
        MarioLevel::from_rows(&rows)
            .map(|l| to_level(&l, name))
            .map_err(|e| match e {
                super::LevelError::Grid(g) => AsciiError::Grid(g),
                other => AsciiError::Level(other.to_string()),
            })
    }

    /// A model's Mario level has whole pipes and cannons and enemies standing
    /// ([`crate::decode::structure_decode`]).
    fn score_decoder(&self) -> Option<studio_core::game::ScoreDecoder> {
        Some(crate::decode::structure_decode)
    }

    fn analyse(
        &self,
        level: &Level,
        options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        let mario =
            MarioLevel::from_rows(&level.cells).map_err(|e| JobError::failed(e.to_string()))?;
        analyse_level(&mario, options, cancel)
    }

    fn default_games(&self) -> u32 {
        DEFAULT_TRIALS
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        level
            .figures_of::<MarioFigures>()
            .filter(|f| f.playable)
            .map(|f| f.total_damage)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        level.figures_of::<MarioFigures>().map(|f| f.playable)
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        vec![
            Arc::new(super::generators::RandomPatterns),
            Arc::new(super::generators::CganRandom),
            Arc::new(super::generators::Td3Generator { id: "td3" }),
            Arc::new(super::generators::Td3Generator { id: "vs-td3" }),
        ]
    }

    fn difficulty_text(&self, difficulty: f64) -> String {
        format!("damage {difficulty:.2}")
    }

    fn sheet_columns(&self) -> usize {
        2
    }

    fn difficulty_name(&self) -> &'static str {
        "total damage"
    }
}

impl studio_core::game::GameView for MarioGame {
    fn side_scrolling(&self) -> bool {
        true
    }

    /// What the human-like trials did at the patterns just edited, before and after.
    fn explain_change(
        &self,
        before: &Analysis,
        after: &Analysis,
        changed: &[(usize, usize)],
    ) -> Option<String> {
        let (e0, e1) = (
            before.detail::<LevelEvaluation>()?,
            after.detail::<LevelEvaluation>()?,
        );
        Some(explain_change(e0, e1, changed))
    }

    fn tile_mark(&self, tile: u8) -> TileMark {
        match Tile::from_index(tile) {
            Some(Tile::Start) => TileMark::Avatar,
            Some(Tile::Goomba) => TileMark::Monster(2),
            Some(Tile::Koopa) => TileMark::Monster(1),
            Some(Tile::Goal) => TileMark::Glyph('F'),
            Some(Tile::ItemBox) => TileMark::Glyph('+'),
            Some(Tile::CoinBox) => TileMark::Glyph('?'),
            Some(Tile::CoinBrick) => TileMark::Glyph('$'),
            Some(Tile::Coin) => TileMark::Glyph('o'),
            Some(Tile::Block) => TileMark::Hatched,
            Some(Tile::Spiky) => TileMark::Glyph('y'),
            Some(Tile::WingedSpiky) => TileMark::Glyph('Y'),
            Some(Tile::WingedGoomba) => TileMark::Glyph('G'),
            Some(Tile::WingedKoopa) => TileMark::Glyph('K'),
            Some(Tile::RedKoopa) => TileMark::Monster(1),
            Some(Tile::WingedRedKoopa) => TileMark::Glyph('R'),
            Some(Tile::PiranhaPipe) => TileMark::Glyph('T'),
            Some(Tile::HiddenLifeBlock) => TileMark::Glyph('1'),
            Some(Tile::HiddenCoinBlock) => TileMark::Glyph('2'),
            Some(Tile::LifeBrick) => TileMark::Glyph('L'),
            Some(Tile::MushroomBrick) => TileMark::Glyph('U'),
            Some(Tile::Platform) => TileMark::Hatched,
            _ => TileMark::Plain,
        }
    }

    fn default_brush(&self) -> u8 {
        Tile::Ground.index()
    }

    fn unique_tile(&self) -> Option<u8> {
        Some(Tile::Start.index())
    }

    /// Mario's start and the goal are one each: painting one moves it (its old cell becomes
    /// sky).
    fn paint(&self, cells: &mut Grid<u8>, x: usize, y: usize, tile: u8) -> bool {
        if tile == Tile::Start.index() || tile == Tile::Goal.index() {
            for c in cells.cells_mut() {
                if *c == tile {
                    *c = Tile::Empty.index();
                }
            }
        }
        cells.set(x, y, tile);
        true
    }

    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("walk", "Left / Right arrows"),
            ("jump (hold for height)", "Space, Up or S"),
            ("run", "Shift or A (held)"),
            ("duck", "Down"),
            ("pause / resume", "P"),
            ("one tick while paused", "N"),
            ("start again", "R"),
        ]
    }

    fn overlay_name(&self) -> Option<&'static str> {
        Some("Damage & A* path")
    }

    fn overlay_help(&self) -> &'static str {
        "Where the human-like trials took virtual damage (white: 1 trial, green: 2-3, yellow: \
         4 or more; the thesis's Fig. 6.12) over the A* agent's path (blue)"
    }

    /// No overlay from the cells alone: it needs the analysis.
    fn overlay(&self, _rows: &[String]) -> Option<Overlay> {
        None
    }

    /// The thesis's Fig. 6.12 on the canvas: the cells where the human-like trials took
    /// virtual damage (by how many trials), over the A* agent's path.
    fn analysis_overlay(&self, analysis: &Analysis) -> Option<Overlay> {
        let eval = analysis.detail::<LevelEvaluation>()?;
        Some(damage_overlay(eval))
    }

    fn symmetry_of(&self, _rows: &[String]) -> studio_core::symmetry::Symmetry {
        studio_core::symmetry::Symmetry::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_core::game::{registry, GameView};
    #[test]
    fn the_game_is_registered_and_its_palette_matches_the_tiles() {
        let game = registry::find("mario").unwrap();
        assert_eq!(game.id(), ID);
        for (info, tile) in game.tiles().iter().zip(Tile::ALL) {
            assert_eq!(info.ascii, tile.ascii());
        }
        let blank = game.blank(40, 15);
        assert!(game.check(&blank.cells).is_ok());
        assert!(game.check(&["XX".to_string()]).is_err());
    }

    #[test]
    fn painting_a_second_start_or_goal_moves_it() {
        let game = MarioGame;
        let blank = game.blank(20, 14);
        let mut cells: Grid<u8> = Grid::filled(20, 14, 0);
        for (y, row) in blank.cells.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                cells.set(x, y, Tile::from_ascii(c).unwrap().index());
            }
        }
        for tile in [Tile::Start, Tile::Goal] {
            game.paint(&mut cells, 7, 3, tile.index());
            let count = cells.cells().iter().filter(|&&t| t == tile.index()).count();
            assert_eq!(count, 1);
            assert_eq!(cells.get(7, 3), tile.index());
        }
    }
}
