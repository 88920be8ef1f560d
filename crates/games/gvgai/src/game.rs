//! A GVGAI game as a studio game: its analysis is the agents' games, its playtest the engine
//! one tick a key, its generators the pattern GA (α and β). The root of the crate: only
//! `lib.rs` imports it.

use crate::evolve::{self, VgdlBreeder};
use crate::figures::VgdlFigures;
use crate::level::{opened, VgdlGame, MAX_SIDE, SOURCE_KIND};
use std::sync::Arc;
use studio_core::evolve::generator::Fi2PopGenerator;
use studio_core::evolve::pattern::{Fitness, Group};
use studio_core::game::{
    AgentProfile, AnalyseOptions, Analysis, AsciiError, Game, GameId, GameSource, GameView,
    LevelGenerator, PlayRules, SizeRules, TileInfo, TileMark,
};
use studio_core::grid::Grid;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;

impl Game for VgdlGame {
    fn id(&self) -> GameId {
        GameId::new(self.id)
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn file_tag(&self) -> &'static str {
        self.tag
    }

    fn tiles(&self) -> &'static [TileInfo] {
        self.tiles
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (3, 3),
            max: (MAX_SIDE, MAX_SIDE),
            default: (13, 9),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        self.check_rows(rows).map_err(AsciiError::Level)
    }

    fn blank(&self, width: usize, height: usize) -> Level {
        let (w, h) = self.size_rules().clamp(width, height);
        let mut g = Grid::filled(w, h, self.empty);
        if let Some(wall) = self.wall {
            for (x, y) in (0..w).flat_map(|x| (0..h).map(move |y| (x, y))) {
                if x == 0 || y == 0 || x + 1 == w || y + 1 == h {
                    g.set(x, y, wall);
                }
            }
        }
        if let Some(a) = self.avatar {
            g.set(1.min(w - 1), 1.min(h - 1), a);
        }
        let rows = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| self.tiles[usize::from(g.get(x, y))].ascii)
                    .collect()
            })
            .collect();
        self.level(format!("{w}x{h}"), rows)
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        let rows = studio_core::level::text_rows(text);
        self.check_rows(&rows).map_err(AsciiError::Level)?;
        Ok(self.level(name, rows))
    }

    fn analyse(
        &self,
        level: &Level,
        options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        crate::profiles::analyse(self, level, options, cancel)
    }

    fn default_games(&self) -> u32 {
        crate::profiles::ANALYSIS_GAMES
    }

    fn figures_reader(&self) -> Option<studio_core::level::FiguresReader> {
        Some(crate::figures::reader())
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        VgdlFigures::of(level, self.tag).map(VgdlFigures::difficulty)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        VgdlFigures::of(level, self.tag).map(VgdlFigures::winnable)
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        let Some(me) = opened(self.id) else {
            return Vec::new();
        };
        vec![
            Arc::new(Fi2PopGenerator::new(Fitness::Alpha, VgdlBreeder(me))),
            Arc::new(Fi2PopGenerator::new(Fitness::Beta, VgdlBreeder(me))),
        ]
    }

    /// The share of games the best agent loses (0: some agent always wins): the curve's
    /// axis; cards say it the other way round ("best agent wins 100 %").
    fn difficulty_name(&self) -> &'static str {
        "loss rate"
    }

    fn difficulty_text(&self, difficulty: f64) -> String {
        format!("best agent wins {:.0} %", (1.0 - difficulty) * 100.0)
    }

    fn has_agents(&self) -> bool {
        true
    }

    fn agent_sets(&self) -> Vec<(&'static str, &'static str)> {
        vec![(
            "gvgai",
            "the paper's eight controllers: do-nothing, random, one-step, random search, flat \
             MCTS, MCTS, RHEA and OLETS-like open-loop search, each on the forward model",
        )]
    }

    fn agent_profiles(
        &self,
        levels: &[Level],
        _agents: &str,
        games: u32,
        seed: u64,
        cancel: &Cancel,
    ) -> Result<Vec<AgentProfile>, JobError> {
        let rows: Vec<Vec<String>> = levels
            .iter()
            .filter(|l| l.game == self.id())
            .map(|l| l.cells.clone())
            .collect();
        if rows.is_empty() {
            return Err(JobError::failed(format!(
                "no {} level among the levels to profile",
                self.name
            )));
        }
        crate::profiles::profiles(
            self,
            &rows,
            &crate::profiles::PROFILE_AGENTS,
            games,
            seed,
            None,
            cancel,
        )
    }

    fn play(&self, level: &Level, seed: u64) -> Option<Result<Box<dyn PlayRules>, AsciiError>> {
        let me = opened(self.id)?;
        Some(
            me.state(&level.cells, seed as i64)
                .map(|state| Box::new(crate::play::VgdlPlay::new(me, state)) as Box<dyn PlayRules>)
                .map_err(AsciiError::Level),
        )
    }

    fn pattern_groups(&self, rows: &[String]) -> Option<Vec<Group>> {
        let tiles = studio_core::game::tile_indices(self, rows).ok()?;
        let (h, w) = (tiles.len(), tiles.first().map_or(0, Vec::len));
        let mut g = Grid::filled(w, h, 0u8);
        for (y, row) in tiles.iter().enumerate() {
            for (x, &t) in row.iter().enumerate().take(w) {
                g.set(x, y, t);
            }
        }
        Some(evolve::groups(self, &g))
    }

    fn source(&self) -> Option<GameSource> {
        Some(GameSource {
            kind: SOURCE_KIND.into(),
            file: self.file.clone(),
            text: self.text.clone(),
        })
    }
}

impl GameView for VgdlGame {
    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("move", "arrows or WASD"),
            ("use (the sword, a shot)", "Space"),
            ("let a tick pass", "."),
            ("take back a tick", "Backspace or U"),
        ]
    }

    fn tile_mark(&self, tile: u8) -> TileMark {
        if tile == self.empty {
            TileMark::Plain
        } else if Some(tile) == self.avatar {
            TileMark::Avatar
        } else {
            self.tiles
                .get(usize::from(tile))
                .map_or(TileMark::Plain, |t| TileMark::Glyph(t.ascii))
        }
    }

    fn default_brush(&self) -> u8 {
        self.wall.unwrap_or(self.empty)
    }

    fn unique_tile(&self) -> Option<u8> {
        self.avatar
    }

    fn overlay_name(&self) -> Option<&'static str> {
        Some("Patterns")
    }

    /// The avatar is one: painting it moves it (its old cell becomes empty).
    fn paint(&self, cells: &mut Grid<u8>, x: usize, y: usize, tile: u8) -> bool {
        if Some(tile) == self.avatar {
            for c in cells.cells_mut() {
                if *c == tile {
                    *c = self.empty;
                }
            }
        }
        cells.set(x, y, tile);
        true
    }
}
