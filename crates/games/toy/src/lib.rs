//! The toy game: the template a new game copies, and the game the tests that show games are
//! plug-ins register. Two tiles (`o` open, `x` crate), an analysis that counts crates and
//! draws the state graph of clearing them (through the core's generic explorer), a generator
//! of random rows, and a playtest in which a click clears a crate. It is never in `GAMES`:
//! tests register it at run time (`tests/registry.rs`, `tests/ui_toy.rs`).
//!
//! A new game copies this crate: its `Game`, its levels' figures (the toy keeps none), its
//! generators and playtest, and `plugin`, then adds one line to `GAMES` in the binary's
//! `src/lib.rs`.

use std::sync::Arc;
use studio_core::game::explore::{GraphPicture, StateGraph, StateSpace};
use studio_core::game::{
    self, AnalyseOptions, Analysis, AsciiError, CellLook, ConditionKind, ConditionSpec,
    ConditionValue, Conditions, Game, GameId, Gauge, GenRequest, GenerationContext, LevelGenerator,
    LevelSink, PlayInput, PlayMove, PlayRules, PlayStatus, SizeRules, TileInfo, TileMark, Verdict,
};
use studio_core::grid::Grid;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Level;
use studio_core::rng::Rng;

/// The toy's id.
pub const TOY: GameId = GameId::new("toy");

/// A 2-tile toy: `o` open, `x` crate; a level passes when it has at least one crate.
pub struct ToyGame;

const TILES: [TileInfo; 2] = [
    TileInfo {
        ascii: 'o',
        name: "OPEN",
        rgb: [200, 200, 200],
    },
    TileInfo {
        ascii: 'x',
        name: "CRATE",
        rgb: [120, 60, 20],
    },
];

/// A toy level of these rows.
pub fn toy_level(name: &str, rows: Vec<String>) -> Level {
    Level {
        game: TOY,
        name: name.into(),
        cells: rows,
        symmetry: Default::default(),
        tags: Vec::new(),
        figures: None,
        playtests: Vec::new(),
    }
}

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
        let crates = level.cells.concat().matches('x').count();
        let mut fields = serde_json::Map::new();
        fields.insert("crates".into(), crates.into());
        Ok(Analysis {
            difficulty: Some(crates as f64),
            verdict: Verdict {
                pass: crates > 0,
                weak: false,
                label: if crates > 0 { "CRATES" } else { "EMPTY" }.into(),
                reason: format!("{crates} crates"),
            },
            figures: None,
            gauge: Gauge::default(),
            fields,
            summary: format!("{crates} crates"),
            graph: Some(Arc::new(GraphPicture::new(
                StateGraph::<Clearing, MAX_CELLS>::explore((), Clearing::start(level), 4096)
                    .map_err(|e| JobError::failed(e.to_string()))?,
            ))),
            graph_note: None,
            detail: None,
        })
    }

    fn stored_difficulty(&self, _level: &Level) -> Option<f64> {
        None
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        Some(level.cells.concat().contains('x'))
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

impl studio_core::game::GameView for ToyGame {}

/// Most cells a toy level has (6×6).
pub const MAX_CELLS: usize = 36;

/// The toy's positions for the generic explorer: which crates are left (a bit per cell) on a
/// board of the level's size; a move clears one crate.
pub struct Clearing;

/// Crates left, and the board's width and height.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Crates {
    /// A bit per cell that still holds a crate.
    left: u64,
    /// Board width.
    width: u8,
    /// Board height.
    height: u8,
}

impl Clearing {
    fn start(level: &Level) -> Crates {
        let width = level.cells.first().map_or(0, |r| r.len());
        let left = level
            .cells
            .concat()
            .chars()
            .enumerate()
            .filter(|&(_, c)| c == 'x')
            .fold(0u64, |m, (i, _)| m | 1 << i);
        Crates {
            left,
            width: width as u8,
            height: level.cells.len() as u8,
        }
    }
}

impl StateSpace<MAX_CELLS> for Clearing {
    type State = Crates;
    type Key = u64;
    type Move = usize;
    type Context = ();
    fn moves() -> [usize; MAX_CELLS] {
        std::array::from_fn(|i| i)
    }
    fn key(s: &Crates) -> u64 {
        s.left
    }
    fn step(_: &(), s: &Crates, i: usize) -> Option<Crates> {
        (s.left & 1 << i != 0).then_some(Crates {
            left: s.left & !(1 << i),
            ..*s
        })
    }
    fn is_success(_: &(), s: &Crates) -> bool {
        s.left == 0
    }
    fn progress(s: &Crates) -> u32 {
        64 - s.left.count_ones()
    }
    fn cells(_: &(), s: &Crates) -> usize {
        usize::from(s.width) * usize::from(s.height)
    }
    fn look(_: &(), s: &Crates) -> Grid<CellLook> {
        let (w, h) = (usize::from(s.width), usize::from(s.height));
        let mut g = Grid::filled(w, h, CellLook::default());
        for i in 0..w * h {
            let tile = usize::from(s.left & 1 << i != 0);
            g.set(
                i % w,
                i / w,
                CellLook {
                    rgb: TILES[tile].rgb,
                    mark: TileMark::Plain,
                },
            );
        }
        g
    }
}

/// The toy's playtest: click a crate to clear it; solved when none is left.
struct ClearCrates {
    rows: Vec<String>,
    moves: u32,
}

impl ClearCrates {
    fn crates(&self) -> usize {
        self.rows.concat().matches('x').count()
    }
}

impl PlayRules for ClearCrates {
    fn view(&self) -> Grid<CellLook> {
        let (w, h) = (self.rows[0].len(), self.rows.len());
        let mut g = Grid::filled(w, h, CellLook::default());
        for (y, row) in self.rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let tile = usize::from(c == 'x');
                g.set(
                    x,
                    y,
                    CellLook {
                        rgb: TILES[tile].rgb,
                        mark: TileMark::Plain,
                    },
                );
            }
        }
        g
    }
    fn input(&self) -> PlayInput {
        PlayInput::Click
    }
    fn apply(&mut self, mv: PlayMove) -> bool {
        let PlayMove::Click(x, y) = mv else {
            return false;
        };
        let Some(row) = self.rows.get_mut(y) else {
            return false;
        };
        if row.as_bytes().get(x) != Some(&b'x') {
            return false;
        }
        row.replace_range(x..=x, "o");
        self.moves += 1;
        true
    }
    fn status(&self) -> PlayStatus {
        let left = self.crates();
        PlayStatus {
            moves: self.moves,
            outcome: (left == 0).then_some(true),
            message: if left == 0 {
                format!("Cleared in {} clicks", self.moves)
            } else {
                "Click the crates".into()
            },
            counters: vec![("Crates left".into(), left.to_string())],
        }
    }
}

/// Random rows of crates.
struct Stripes;

impl LevelGenerator for Stripes {
    fn id(&self) -> &'static str {
        "stripes"
    }
    fn label(&self) -> &'static str {
        "Stripes"
    }
    fn description(&self) -> &'static str {
        "random crates"
    }
    fn conditions(&self) -> Vec<ConditionSpec> {
        vec![ConditionSpec {
            key: "width",
            label: "Width",
            kind: ConditionKind::Int { min: 1, max: 6 },
            default: ConditionValue::Int(4),
            required: false,
            help: "row length",
        }]
    }
    fn validated_help(&self) -> &'static str {
        "keep levels with crates"
    }
    fn generate(
        &self,
        request: &GenRequest,
        _ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let width = request.conditions.usize("width").unwrap_or(4);
        let mut rng = Rng::new(request.seed);
        loop {
            let rows = (0..2)
                .map(|_| {
                    (0..width)
                        .map(|_| if rng.chance(0.3) { 'x' } else { 'o' })
                        .collect()
                })
                .collect();
            if !sink.offer(toy_level("made", rows)) {
                return Ok(());
            }
        }
    }
}

/// The plug-in: adds the toy to a registry.
pub fn plugin(registry: &mut game::registry::Registry) {
    registry.add_game(&ToyGame);
}

/// Adds the toy to the studio's registry at run time (once; later calls do nothing).
pub fn register_toy() {
    game::register(&ToyGame);
}

/// A request for `count` validated levels from the toy's generator.
pub fn toy_request(count: usize, seed: u64) -> GenRequest {
    GenRequest {
        game: TOY,
        generator: "stripes",
        conditions: Conditions::default(),
        count,
        seed,
        validated_only: true,
        weights: None,
    }
}
