//! Dungeon rooms as a registered game: tiles, sizes, files, the analysis (in `analysis`: the
//! skeleton graph and the agent ladder's games), the playtest (`play`) and the random and
//! constructive generators. The root of the crate: only `lib.rs` imports it.

use super::agents::AgentKind;
use super::analysis::analyse_room;
use super::evolve::{ProfileAgents, RoomBreeder};
use super::generators::RoomGenerator;
use super::play::{mark, DungeonPlay};
use super::room::{
    ascii_error, to_level, Cell, DungeonGame, Room, AVATAR, CELLS, EXIT, FLOOR, ID, KEY, MAX_SIDE,
    TILES,
};
use super::rules::Dir;
use super::DungeonFigures;
use std::sync::Arc;
use studio_core::evolve::generator::Fi2PopGenerator;
use studio_core::evolve::pattern::Fitness;
use studio_core::game::{
    AgentProfile, AnalyseOptions, Analysis, AsciiError, Game, GameId, LevelGenerator, PlayRules,
    SizeRules, TileInfo, TileMark,
};
use studio_core::grid::Grid;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;

impl Game for DungeonGame {
    fn id(&self) -> GameId {
        ID
    }

    fn name(&self) -> &'static str {
        "Dungeon"
    }

    fn file_tag(&self) -> &'static str {
        "Dungeon"
    }

    fn figures_reader(&self) -> Option<studio_core::level::FiguresReader> {
        Some(studio_core::level::figures_reader::<super::DungeonFigures>())
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &TILES
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (4, 4),
            max: (MAX_SIDE, MAX_SIDE),
            default: (13, 9),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        Room::from_rows(rows).map(|_| ()).map_err(AsciiError::rule)
    }

    fn blank(&self, width: usize, height: usize) -> Level {
        let (w, h) = self.size_rules().clamp(width, height);
        let mut g = super::generators::walled(w, h);
        g.set(1, 1, Cell::Avatar);
        g.set(w - 2, 1, Cell::Key);
        g.set(w - 2, h - 2, Cell::Exit);
        Level {
            game: ID,
            name: format!("{w}x{h}"),
            cells: g.to_rows(),
            symmetry: Default::default(),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        }
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        Room::parse_ascii(text)
            .map(|room| to_level(&room, name))
            .map_err(ascii_error)
    }

    fn analyse(
        &self,
        level: &Level,
        options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        let room = Room::from_rows(&level.cells).map_err(|e| JobError::failed(e.to_string()))?;
        analyse_room(&room, options, cancel)
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        level
            .figures_of::<DungeonFigures>()
            .filter(|f| f.solvable || f.agents.iter().any(|a| a.win_rate > 0.0))
            .map(|f| f.virtual_damage)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        level.figures_of::<DungeonFigures>().map(|f| {
            f.agents
                .iter()
                .any(|a| a.agent == AgentKind::Planner.name() && a.win_rate >= 0.5)
        })
    }

    fn stored_weak(&self, level: &Level) -> bool {
        level.figures_of::<DungeonFigures>().is_some_and(|f| {
            // Winnable, or not known to be unsolvable (the skeleton passed its budget).
            f.solvable || f.graph_budget.is_some() || f.agents.iter().any(|a| a.win_rate > 0.0)
        }) && self.stored_verdict(level) == Some(false)
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        vec![
            Arc::new(RoomGenerator::Random),
            Arc::new(RoomGenerator::Constructive),
            Arc::new(Fi2PopGenerator::new(Fitness::Alpha, RoomBreeder)),
            Arc::new(Fi2PopGenerator::new(Fitness::Beta, RoomBreeder)),
        ]
    }

    fn difficulty_name(&self) -> &'static str {
        "damage"
    }

    fn difficulty_text(&self, difficulty: f64) -> String {
        format!("damage {difficulty:.2}")
    }

    fn has_state_graph(&self) -> bool {
        true
    }

    fn has_agents(&self) -> bool {
        true
    }

    fn agent_sets(&self) -> Vec<(&'static str, &'static str)> {
        ProfileAgents::ALL
            .into_iter()
            .map(|set| {
                let help = match set {
                    ProfileAgents::Gvgai => {
                        "do-nothing, random and GVGAI-like one-step and MCTS that value only \
                         the score (the pattern GA paper's kind of controllers)"
                    }
                    ProfileAgents::Studio => {
                        "the studio's ladder, whose one-step and MCTS know the way to the key \
                         and the exit"
                    }
                    ProfileAgents::All => "both sets",
                };
                (set.name(), help)
            })
            .collect()
    }

    fn agent_profiles(
        &self,
        levels: &[Level],
        agents: &str,
        games: u32,
        seed: u64,
        cancel: &Cancel,
    ) -> Result<Vec<AgentProfile>, JobError> {
        let set = if agents.is_empty() {
            ProfileAgents::default()
        } else {
            ProfileAgents::from_name(agents).ok_or_else(|| {
                JobError::failed(format!(
                    "no agent set {agents:?}; choose gvgai, studio or all"
                ))
            })?
        };
        let rooms: Vec<Room> = levels
            .iter()
            .filter(|l| l.game == ID)
            .filter_map(|l| Room::from_rows(&l.cells).ok())
            .collect();
        if rooms.is_empty() {
            return Err(JobError::failed(
                "no dungeon room among the levels to profile",
            ));
        }
        Ok(
            super::evolve::profiles(&rooms, set.agents(), games, seed, cancel)?
                .into_iter()
                .map(|p| AgentProfile {
                    agent: p.agent.name().into(),
                    win_rate: p.win_rate,
                    normalised_score: p.normalised_score,
                })
                .collect(),
        )
    }

    fn play(&self, level: &Level, seed: u64) -> Option<Result<Box<dyn PlayRules>, AsciiError>> {
        Some(
            Room::from_rows(&level.cells)
                .map(|room| Box::new(DungeonPlay::new(room, seed)) as Box<dyn PlayRules>)
                .map_err(AsciiError::rule),
        )
    }

    /// Sprite groups inside the border (what the GA's FPattern scores).
    fn pattern_groups(&self, rows: &[String]) -> Option<Vec<studio_core::evolve::pattern::Group>> {
        let cells = Grid::<Cell>::from_rows(rows).ok()?;
        Some(super::evolve::room_groups(&cells))
    }
}

impl studio_core::game::GameView for DungeonGame {
    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("move (a new direction first turns)", "arrows or WASD"),
            ("swing the sword", "Space"),
            ("wait a tick", "."),
            ("take back a tick", "Backspace or U"),
        ]
    }

    fn tile_mark(&self, tile: u8) -> TileMark {
        CELLS
            .get(usize::from(tile))
            .map_or(TileMark::Plain, |&c| mark(c, Dir::Down))
    }

    fn default_brush(&self) -> u8 {
        0
    }

    fn unique_tile(&self) -> Option<u8> {
        Some(AVATAR)
    }

    fn overlay_name(&self) -> Option<&'static str> {
        Some("Patterns")
    }

    /// The avatar, the key and the exit are one each: painting one moves it (its old cell
    /// becomes floor).
    fn paint(&self, cells: &mut Grid<u8>, x: usize, y: usize, tile: u8) -> bool {
        if matches!(tile, AVATAR | KEY | EXIT) {
            for c in cells.cells_mut() {
                if *c == tile {
                    *c = FLOOR;
                }
            }
        }
        cells.set(x, y, tile);
        true
    }
}
