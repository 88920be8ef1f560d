//! The one Longcat analysis the studio runs: build the state graph, measure difficulty and the
//! graph variables, predict difficulty, and lay the graph out by depth for the viewer. It runs
//! on a worker (the window) or inline (the command line); the UI thread only draws.

use super::difficulty::{PlayerModel, NON_TRIVIAL_DIFFICULTY};
use super::graph::StateGraph;
use super::ridge::RidgeModel;
use super::variables::GraphVariables;
use super::LongcatLevel;
use super::{is_non_trivial, NodeClass};
use crate::LongcatGraph;
use serde_json::json;
use std::sync::Arc;
use std::sync::OnceLock;
use studio_core::game::explore::{legend_index, CLASS_STYLES};
pub use studio_core::game::GraphLayout;
use studio_core::game::{Analysis, ClassStyle, Gauge, StateGraphView, StatePicture, Verdict};
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::Figures;

pub use studio_core::game::explore::{COLUMN_GAP, ROW_GAP};

/// Everything the gauge and the graph viewer show for one Longcat board.
#[derive(Clone, Debug)]
pub struct LongcatAnalysis {
    /// The full state graph.
    pub graph: StateGraph,
    /// The graph variables of SPEC §2.2.
    pub variables: GraphVariables,
    /// The player-model difficulty, `None` when unsolvable.
    pub difficulty: Option<f64>,
    /// Chance one random attempt succeeds.
    pub success_chance: f64,
    /// The player model's expected charge of one attempt from the start.
    pub expected_charge: f64,
    /// The ridge predictor's difficulty, when the shipped model loads.
    pub predicted: Option<f64>,
    /// The threshold above which a level counts as non-trivial.
    pub non_trivial_threshold: f64,
    /// The shortest solution as move letters.
    pub shortest: Option<String>,
    /// Where the viewer draws each node.
    pub layout: GraphLayout,
}

/// The shipped ridge predictor, loaded once (`None` when its file is missing or damaged).
pub fn shipped_model() -> Option<&'static RidgeModel> {
    static MODEL: OnceLock<Option<RidgeModel>> = OnceLock::new();
    MODEL.get_or_init(|| RidgeModel::shipped().ok()).as_ref()
}

/// Builds and measures the graph of a Longcat level, exploring at most `budget` states.
///
/// # Errors
/// "graph too large: …" and the like, in words; [`JobError::Cancelled`] when superseded.
pub fn analyse(
    level: &LongcatLevel,
    budget: usize,
    cancel: &Cancel,
) -> Result<LongcatAnalysis, JobError> {
    analyse_with(level, budget, shipped_model(), cancel)
}

/// [`analyse`] with a chosen difficulty predictor (`None`: no prediction).
///
/// # Errors
/// As [`analyse`].
pub fn analyse_with(
    level: &LongcatLevel,
    budget: usize,
    predictor: Option<&RidgeModel>,
    cancel: &Cancel,
) -> Result<LongcatAnalysis, JobError> {
    let graph = StateGraph::build(level, budget).map_err(|e| e.to_string())?;
    if cancel.is_cancelled() {
        return Err(JobError::Cancelled);
    }
    let variables = GraphVariables::of(&graph);
    let model = PlayerModel::of(&graph);
    let predicted = predictor.map(|m| m.predict(&variables));
    let shortest = graph
        .shortest_solution()
        .map(|moves| moves.iter().map(|d| d.letter()).collect());
    if cancel.is_cancelled() {
        return Err(JobError::Cancelled);
    }
    let layout = layout(&graph);
    Ok(LongcatAnalysis {
        difficulty: model.difficulty(),
        success_chance: model.start_success_chance(),
        expected_charge: model.start_expected_charge(),
        predicted,
        non_trivial_threshold: NON_TRIVIAL_DIFFICULTY,
        shortest,
        variables,
        layout,
        graph,
    })
}

pub use studio_core::game::explore::layout;

impl LongcatAnalysis {
    /// True when a success is reachable from the start.
    pub fn solvable(&self) -> bool {
        self.graph.solvable()
    }

    /// The figures stored with a level (the predicted difficulty is 0 without a predictor).
    pub fn figures(&self) -> super::LongcatFigures {
        super::analysis::figures_of(
            &self.variables,
            self.solvable(),
            self.difficulty,
            self.predicted.unwrap_or(0.0),
        )
    }

    /// Nodes per class, in [`NodeClass`](super::NodeClass) order.
    pub fn class_counts(&self) -> [usize; 5] {
        let mut counts = [0; 5];
        for node in self.graph.nodes() {
            counts[node.class as usize] += 1;
        }
        counts
    }
}

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
