//! Dungeon rooms as a registered game: tiles, sizes, files, the analysis (in `analysis`: the
//! skeleton graph and the agent ladder's games), the playtest and the random and
//! constructive generators.

use super::agents::AgentKind;
pub use super::analysis::{analyse_room, DEFAULT_GAMES};
use super::evolve::{ProfileAgents, RoomBreeder};
use super::generators::{constructive_room, random_room, GenerateError};
use super::room::{Cell, Room, RoomError, Speed, MAX_SIDE};
use super::rules::{Action, Dir, Outcome, Play, TICK_LIMIT};
use super::DungeonFigures;
use std::sync::Arc;
use studio_core::evolve::generator::Fi2PopGenerator;
use studio_core::evolve::pattern::Fitness;
use studio_core::game::{
    AgentProfile, AnalyseOptions, Analysis, AsciiError, CellLook, ConditionKind, ConditionSpec,
    ConditionValue, Game, GameId, GenRequest, GenerationContext, Heading, LevelGenerator,
    LevelSink, PlayInput, PlayMove, PlayRules, PlayStatus, SizeRules, TileInfo, TileMark,
};
use studio_core::grid::{AsciiCell, Grid};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;
use studio_core::rng::Rng;

/// The id of dungeon rooms.
pub const ID: GameId = GameId::new("dungeon");

/// Zelda-like dungeon rooms.
#[derive(Clone, Copy, Debug, Default)]
pub struct DungeonGame;

/// The palette, in tile order (a level's cells are stored by letter).
const CELLS: [Cell; 10] = [
    Cell::Wall,
    Cell::Floor,
    Cell::Block,
    Cell::Water,
    Cell::Avatar,
    Cell::Key,
    Cell::Exit,
    Cell::Monster(Speed::Quick),
    Cell::Monster(Speed::Normal),
    Cell::Monster(Speed::Slow),
];

const fn tile(ascii: char, name: &'static str, rgb: [u8; 3]) -> TileInfo {
    TileInfo { ascii, name, rgb }
}

const TILES: [TileInfo; 10] = [
    tile('w', "WALL", [84, 74, 66]),
    tile('.', "FLOOR", [228, 216, 186]),
    tile('B', "BLOCK", [146, 112, 78]),
    tile('~', "WATER", [64, 124, 204]),
    tile('A', "AVATAR", [62, 168, 84]),
    tile('+', "KEY", [240, 196, 40]),
    tile('g', "EXIT", [150, 64, 172]),
    tile('1', "QUICK MONSTER", [232, 70, 60]),
    tile('2', "MONSTER", [206, 106, 40]),
    tile('3', "SLOW MONSTER", [150, 60, 64]),
];

const FLOOR: u8 = 1;
const AVATAR: u8 = 4;
const KEY: u8 = 5;
const EXIT: u8 = 6;

fn ascii_error(e: RoomError) -> AsciiError {
    match e {
        RoomError::Grid(g) => AsciiError::Grid(g),
        other => AsciiError::Level(other.to_string()),
    }
}

/// A stored level of a room.
pub fn to_level(room: &Room, name: impl Into<String>) -> Level {
    Level {
        game: ID,
        name: name.into(),
        cells: room.to_rows(),
        symmetry: studio_core::symmetry::detect(room.cells()),
        tags: Vec::new(),
        figures: None,
        playtests: Vec::new(),
    }
}

/// The room width and height conditions (walls included), from `min` to [`MAX_SIDE`],
/// 13 × 9 by default.
pub fn size_conditions(min: i64) -> Vec<ConditionSpec> {
    let side = |key, label, default, help| ConditionSpec {
        key,
        label,
        kind: ConditionKind::Int {
            min,
            max: MAX_SIDE as i64,
        },
        default: ConditionValue::Int(default),
        required: false,
        help,
    };
    vec![
        side("width", "Width", 13, "room width, walls included"),
        side("height", "Height", 9, "room height, walls included"),
    ]
}

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
        let room = Room::from_rows(&level.cells).map_err(|e| JobError::Failed(e.to_string()))?;
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
                JobError::Failed(format!(
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
            return Err(JobError::Failed(
                "no dungeon room among the levels to profile".into(),
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

/// The tile index of a cell (its place in the palette).
pub fn tile_of(cell: Cell) -> u8 {
    CELLS.iter().position(|&c| c == cell).unwrap_or(0) as u8
}

/// The letter of a tile index.
pub fn letter_of(tile: u8) -> char {
    CELLS.get(usize::from(tile)).map_or('w', |c| c.to_ascii())
}

/// The two plain generators, as the registry lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomGenerator {
    /// Uniform sprites in a walled room.
    Random,
    /// GVGAI's constructive generator.
    Constructive,
}

impl RoomGenerator {
    fn make(self, w: usize, h: usize, seed: u64) -> Result<Room, GenerateError> {
        match self {
            RoomGenerator::Random => random_room(w, h, seed),
            RoomGenerator::Constructive => constructive_room(w, h, seed),
        }
    }
}

impl LevelGenerator for RoomGenerator {
    fn id(&self) -> &'static str {
        match self {
            RoomGenerator::Random => "random",
            RoomGenerator::Constructive => "constructive",
        }
    }

    fn label(&self) -> &'static str {
        match self {
            RoomGenerator::Random => "Random",
            RoomGenerator::Constructive => "Constructive",
        }
    }

    fn description(&self) -> &'static str {
        match self {
            RoomGenerator::Random => "every inside cell a random sprite: the naive baseline",
            RoomGenerator::Constructive => {
                "GVGAI's constructive generator: solid corridors keeping the floor connected, \
                 monsters far from the avatar, the exit farthest"
            }
        }
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        size_conditions(4)
    }

    fn validated_help(&self) -> &'static str {
        "Keep only rooms the planner wins at least half its games in"
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let (w, h) = request.conditions.size().unwrap_or((13, 9));
        for attempt in 0u64.. {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let seed = studio_core::rng::Rng::derive(request.seed, attempt).next_u64();
            let room = self
                .make(w, h, seed)
                .map_err(|e| JobError::Failed(e.to_string()))?;
            if !sink.offer(to_level(&room, "generated")) {
                return Ok(());
            }
        }
        Ok(())
    }
}

/// A playtest: one tick a key (arrows or WASD move, Space swings the sword, `.` waits), the
/// monsters moved by the seeded dice; every tick can be taken back.
pub struct DungeonPlay {
    room: Room,
    play: Play,
    rng: Rng,
    history: Vec<(Play, Rng)>,
    message: String,
}

impl DungeonPlay {
    /// A game of `room` whose monsters roll `seed`'s dice.
    pub fn new(room: Room, seed: u64) -> Self {
        Self {
            play: Play::start(&room),
            room,
            rng: Rng::new(seed),
            history: Vec::new(),
            message: "Arrows or WASD move, Space swings the sword, . waits".into(),
        }
    }
}

impl PlayRules for DungeonPlay {
    fn view(&self) -> Grid<CellLook> {
        let mut cells = Grid::filled(self.room.width(), self.room.height(), CellLook::default());
        for (x, y, cell) in self.room.cells().iter() {
            let shown = match cell {
                Cell::Avatar | Cell::Monster(_) => Cell::Floor,
                Cell::Key if self.play.key => Cell::Floor,
                other => other,
            };
            cells.set(x, y, look(shown, self.play.facing));
        }
        if self.play.outcome != Outcome::Won {
            let (x, y) = self.play.avatar;
            cells.set(x, y, look(Cell::Avatar, self.play.facing));
        }
        // Monsters last: the one that got the avatar is shown on its cell, not hidden under it.
        for m in self.play.monsters.iter().filter(|m| m.alive) {
            cells.set(
                m.pos.0,
                m.pos.1,
                look(Cell::Monster(m.speed), self.play.facing),
            );
        }
        cells
    }

    fn input(&self) -> PlayInput {
        PlayInput::Directions
    }

    fn apply(&mut self, mv: PlayMove) -> bool {
        let action = match mv {
            PlayMove::Go(h) => Action::Move(match h {
                Heading::Up => Dir::Up,
                Heading::Down => Dir::Down,
                Heading::Left => Dir::Left,
                Heading::Right => Dir::Right,
            }),
            PlayMove::Act => Action::Sword,
            PlayMove::Wait => Action::Wait,
            PlayMove::Swap(..) | PlayMove::Click(..) => return false,
        };
        if self.play.outcome != Outcome::Playing {
            return false;
        }
        self.history.push((self.play.clone(), self.rng.clone()));
        let events = self
            .play
            .tick(&self.room, action, &mut self.rng, TICK_LIMIT);
        self.message = match self.play.outcome {
            Outcome::Won => format!("Out with the key in {} ticks!", self.play.tick),
            Outcome::Died => "A monster got you.".into(),
            Outcome::TimedOut => format!("Out of time ({TICK_LIMIT} ticks)."),
            Outcome::Playing if events.killed => "Got one! (+2)".into(),
            Outcome::Playing if events.took_key => "You have the key (+1): now the exit".into(),
            Outcome::Playing if events.bumped => "Blocked".into(),
            Outcome::Playing if events.turned => "Turned: the same way again moves".into(),
            Outcome::Playing => String::new(),
        };
        true
    }

    fn status(&self) -> PlayStatus {
        let facing = match self.play.facing {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        };
        PlayStatus {
            moves: self.play.tick,
            outcome: match self.play.outcome {
                Outcome::Playing => None,
                Outcome::Won => Some(true),
                Outcome::Died | Outcome::TimedOut => Some(false),
            },
            message: self.message.clone(),
            counters: vec![
                ("Tick".into(), format!("{} / {TICK_LIMIT}", self.play.tick)),
                ("Score".into(), self.play.score.to_string()),
                (
                    "Key".into(),
                    if self.play.key { "yes" } else { "no" }.into(),
                ),
                ("Facing".into(), facing.into()),
                (
                    "Monsters".into(),
                    self.play
                        .monsters
                        .iter()
                        .filter(|m| m.alive)
                        .count()
                        .to_string(),
                ),
            ],
        }
    }

    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((play, rng)) => {
                self.play = play;
                self.rng = rng;
                self.message = "Took back a tick".into();
                true
            }
            None => false,
        }
    }
}

fn look(cell: Cell, facing: Dir) -> CellLook {
    CellLook {
        rgb: super::room::rgb(cell),
        mark: mark(cell, facing),
    }
}

/// How a cell is marked on the board: the avatar with its sword on the side it faces, a
/// monster with one pip per speed step (slow 1, normal 2, quick 3).
pub fn mark(cell: Cell, facing: Dir) -> TileMark {
    match cell {
        Cell::Avatar => TileMark::Facing(match facing {
            Dir::Up => Heading::Up,
            Dir::Down => Heading::Down,
            Dir::Left => Heading::Left,
            Dir::Right => Heading::Right,
        }),
        Cell::Monster(Speed::Quick) => TileMark::Monster(3),
        Cell::Monster(Speed::Normal) => TileMark::Monster(2),
        Cell::Monster(Speed::Slow) => TileMark::Monster(1),
        _ => TileMark::Plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_playtest_plays_ticks_strikes_wins_and_takes_ticks_back() {
        let room = Room::parse_ascii("wwwwwww\nwA.1+gw\nwwwwwww\n").unwrap();
        let mut p = DungeonPlay::new(room, 0);
        assert!(p.apply(PlayMove::Go(Heading::Right)));
        // Facing the slow monster from the next cell: the sword kills it.
        assert!(p.apply(PlayMove::Act));
        assert_eq!(p.status().message, "Got one! (+2)");
        assert!(p.undo());
        assert_eq!(p.status().moves, 1);
        assert!(p.apply(PlayMove::Act));
        for _ in 0..3 {
            assert!(p.apply(PlayMove::Go(Heading::Right)));
        }
        let s = p.status();
        assert_eq!((s.outcome, s.moves), (Some(true), 5));
        assert!(!p.apply(PlayMove::Wait), "the game is over");
        assert!(!p.apply(PlayMove::Click(1, 1)));
        let blank = DungeonGame.blank(4, 4);
        assert!(DungeonGame.check(&blank.cells).is_ok());
    }

    /// Issue 31, D22: the monster that got the avatar is shown on its cell at the end.
    #[test]
    fn the_monster_that_got_the_avatar_is_shown() {
        let room = Room::parse_ascii(
            "wwwwwww
wA.1+gw
wwwwwww
",
        )
        .unwrap();
        let mut p = DungeonPlay::new(room, 0);
        let monster = p.play.monsters[0].pos;
        p.play.avatar = monster;
        p.play.outcome = Outcome::Died;
        let view = p.view();
        assert!(matches!(
            view.get(monster.0, monster.1).mark,
            TileMark::Monster(_)
        ));
    }
}
