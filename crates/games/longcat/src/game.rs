//! Longcat as a registered game: tiles, sizes, files, the state-graph analysis and its
//! generators (the two random ones of the thesis and the DQN).

use super::inspect::{self, LongcatAnalysis};
use super::level::MAX_SIDE;
use super::rules::BoardCell;
use super::LongcatFigures;
use super::{is_non_trivial, LevelError, LongcatLevel, NodeClass, RidgeModel, DEFAULT_BUDGET};
use serde_json::json;
use std::sync::Arc;
use studio_core::game::explore::{legend_index, CLASS_STYLES};
use studio_core::game::{
    AnalyseOptions, Analysis, AsciiError, Game, GameId, Gauge, LevelGenerator, SizeRules, TileInfo,
    TileMark, Verdict,
};
use studio_core::game::{CellLook, ClassStyle, GraphLayout, StateGraphView, StatePicture};
use studio_core::grid::Grid;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::{Figures, Level};

/// The id of Longcat levels.
pub const ID: GameId = GameId::new("longcat");

/// Longcat, the one-cat sliding puzzle.
#[derive(Clone, Copy, Debug, Default)]
pub struct LongcatGame;

const TILES: [TileInfo; 3] = [
    TileInfo {
        ascii: '#',
        name: "WALL",
        rgb: [74, 60, 86],
    },
    TileInfo {
        ascii: '.',
        name: "EMPTY",
        rgb: [240, 234, 226],
    },
    TileInfo {
        ascii: '@',
        name: "HEAD",
        rgb: [244, 162, 97],
    },
];

/// The graph analysis as the gauge, the level file and `validate` show it.
pub fn analysis_of(a: LongcatAnalysis) -> Analysis {
    let v = &a.variables;
    let start = a.graph.node(a.graph.start()).state;
    let (width, height) = (start.width(), start.height());
    let counts = a.class_counts();
    let non_trivial = is_non_trivial(a.difficulty);
    let verdict = match a.difficulty {
        None => Verdict {
            pass: false,
            weak: false,
            label: "UNSOLVABLE".into(),
            reason: "no sequence of moves fills every cell".into(),
        },
        Some(d) if non_trivial => Verdict {
            pass: true,
            weak: false,
            label: "NON-TRIVIAL".into(),
            reason: format!("difficulty {d:.1} ≥ {}", a.non_trivial_threshold),
        },
        Some(d) => Verdict {
            pass: false,
            weak: true,
            label: "TRIVIAL".into(),
            reason: format!("difficulty {d:.1} < {}", a.non_trivial_threshold),
        },
    };
    let fields = json!({
        "width": width,
        "height": height,
        "states": v.states,
        "size": v.size,
        "branches": v.branches,
        "solutions": v.solutions,
        "fails": v.fails,
        "shortest_solution": v.shortest_solution,
        "solution_branches": v.solution_branches,
        "non_dead": v.non_dead,
        "dead": v.dead,
        "indeterminate": v.indeterminate,
        "indeterminate_branches": v.indeterminate_branches,
        "solution_states": counts[NodeClass::Solution as usize],
        "solvable": a.solvable(),
        "difficulty": a.difficulty,
        "predicted_difficulty": a.predicted,
        "success_chance": a.success_chance,
        "expected_charge": a.expected_charge,
        "non_trivial": non_trivial,
        "moves": a.shortest,
    });
    let solved = match (a.difficulty, v.shortest_solution) {
        (Some(d), Some(s)) => format!("solvable in {s} moves, difficulty {d:.2}"),
        _ => "UNSOLVABLE".to_string(),
    };
    let summary = format!(
        "{width}x{height}, {} states, {solved} (predicted {:.2})\n  classes: success {}, fail {}, dead {}, solution {}, indeterminate {}\n  branches {} (solution {}, indeterminate {}), non-dead {}",
        v.states,
        a.predicted.unwrap_or(0.0),
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4],
        v.branches,
        v.solution_branches,
        v.indeterminate_branches,
        v.non_dead
    );
    let threshold = a.non_trivial_threshold;
    let shortest_text = v.shortest_solution.map_or("none".into(), |s| s.to_string());
    let mut notes = vec![format!(
        "Predicted (ridge) {} · one random attempt succeeds {:.1} %",
        a.predicted.map_or("-".into(), |p| format!("{p:.2}")),
        a.success_chance * 100.0
    )];
    if let Some(s) = &a.shortest {
        notes.push(format!("Shortest solution: {} moves  {s}", s.len()));
    }
    let gauge = Gauge {
        title: "Difficulty".into(),
        headline: a
            .difficulty
            .map_or("Unsolvable".into(), |d| format!("Difficulty {d:.2}")),
        value: a.difficulty,
        scale: (
            0.0,
            (threshold * 3.0)
                .max(a.difficulty.unwrap_or(0.0) * 1.15)
                .max(1.0),
        ),
        threshold: Some((threshold, "non-trivial".into())),
        good_below: false,
        band: None,
        notes,
        histogram: None,
        curve: None,
        rates: None,
        tables: vec![(
            "Graph variables".into(),
            [
                ("states", v.states.to_string()),
                ("size", v.size.to_string()),
                ("branches", v.branches.to_string()),
                ("solutions", v.solutions.to_string()),
                ("fails", v.fails.to_string()),
                ("shortest_solution", shortest_text),
                ("solution_branches", v.solution_branches.to_string()),
                ("non_dead", v.non_dead.to_string()),
                ("dead", v.dead.to_string()),
                ("indeterminate", v.indeterminate.to_string()),
                (
                    "indeterminate_branches",
                    v.indeterminate_branches.to_string(),
                ),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        )],
    };
    let figures = a.figures();
    let a = Arc::new(a);
    Analysis {
        difficulty: a.difficulty,
        figures: Some(Figures::new(figures)),
        verdict,
        gauge,
        fields: match fields {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        },
        summary,
        graph: Some(a.clone()),
        graph_note: None,
        detail: Some(a),
    }
}

fn ascii_error(e: LevelError) -> AsciiError {
    match e {
        LevelError::Grid(g) => AsciiError::Grid(g),
        other => AsciiError::Level(other.to_string()),
    }
}

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

/// Index of EMPTY in the palette.
const EMPTY: u8 = 1;
/// Index of HEAD in the palette.
const HEAD: u8 = 2;

/// The colour of the cat's body in graph states.
const BODY_RGB: [u8; 3] = [233, 196, 106];

/// How a cell of a Longcat state looks in the viewer, the canvas and the playtest.
pub fn cell_look(cell: BoardCell) -> CellLook {
    let tile = |i: usize| CellLook {
        rgb: TILES[i].rgb,
        mark: TileMark::Plain,
    };
    match cell {
        BoardCell::Wall => tile(0),
        BoardCell::Empty => tile(1),
        BoardCell::Head => CellLook {
            rgb: TILES[2].rgb,
            mark: TileMark::Avatar,
        },
        BoardCell::Body => CellLook {
            rgb: BODY_RGB,
            mark: TileMark::Plain,
        },
    }
}

impl StateGraphView for LongcatAnalysis {
    fn node_count(&self) -> usize {
        self.graph.len()
    }

    fn start(&self) -> usize {
        self.graph.start()
    }

    fn layout(&self) -> &GraphLayout {
        &self.layout
    }

    fn classes(&self) -> &'static [ClassStyle] {
        &CLASS_STYLES
    }

    fn class_of(&self, node: usize) -> usize {
        self.graph.legend_class(node)
    }

    fn solution_rgb(&self) -> [u8; 3] {
        CLASS_STYLES[legend_index(NodeClass::Solution)].rgb
    }

    fn to_dot(&self, title: &str) -> String {
        super::analysis::dot_of(&self.graph, title)
    }

    fn state(&self, node: usize) -> Option<StatePicture> {
        self.graph.picture(node)
    }
}
