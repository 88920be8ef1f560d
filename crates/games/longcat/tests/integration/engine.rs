//! The Longcat engine through its public API: generators checked by the solver, the ridge
//! predictor on synthetic data, bad input and the state budget.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[longcat::plugin]);
}

use longcat::eval::{evaluate, EvalConfig};
use longcat::generators::{puzzle_up, solution_down};
use longcat::ridge::training::playtest_training_set;
use longcat::ridge::{parse_playtest_csv, solve};
use longcat::solver;
use longcat::LongcatGraph;
use longcat::{
    Cell, GraphAnalysis, GraphError, GraphVariables, LevelError, LongcatLevel, PredictorError,
    RandomGenerator, RidgeModel, State, StateGraph, DEFAULT_BUDGET,
};
use std::path::Path;
use studio_core::grid::Grid;
use studio_core::rng::Rng;

#[test]
fn solution_down_levels_are_all_solvable() {
    for (w, h) in [(3, 3), (5, 4), (8, 8), (10, 10), (1, 6)] {
        for i in 0..300 {
            let level = solution_down(w, h, &mut Rng::derive(11, i)).unwrap();
            let graph = StateGraph::build(&level, DEFAULT_BUDGET).unwrap();
            assert!(
                graph.solvable(),
                "unsolvable solution-down level:\n{level:?}"
            );
            assert!(solver::is_solvable(State::start(&level), DEFAULT_BUDGET).unwrap());
        }
    }
}

#[test]
fn puzzle_up_keeps_only_solvable_levels() {
    let mut kept = 0;
    for i in 0..400 {
        for level in puzzle_up(6, 6, &mut Rng::derive(5, i)).unwrap() {
            kept += 1;
            let graph = StateGraph::build(&level, DEFAULT_BUDGET).unwrap();
            assert!(graph.solvable(), "unsolvable puzzle-up level:\n{level:?}");
            let walls = level.cells().iter().filter(|c| c.2 == Cell::Wall).count();
            assert!((1..=10).contains(&walls));
        }
    }
    assert!(kept > 0, "400 attempts found nothing");
}

#[test]
fn evaluation_counts_add_up() {
    let config = EvalConfig {
        generator: RandomGenerator::SolutionDown,
        width: 6,
        height: 6,
        attempts: 500,
        seed: 3,
        budget: DEFAULT_BUDGET,
    };
    let r = evaluate(&config).unwrap();
    assert_eq!(r.solvable_attempts, 500);
    assert_eq!(r.levels, 500);
    assert_eq!(r.unique + r.duplicates, 500);
    assert_eq!(
        r.histogram.iter().map(|b| b.count).sum::<usize>() + r.over_budget,
        r.unique
    );
    assert!(r.non_trivial <= r.unique);
    let again = evaluate(&config).unwrap();
    assert_eq!(
        (again.unique, again.non_trivial, again.histogram.clone()),
        (r.unique, r.non_trivial, r.histogram.clone())
    );
}

#[test]
fn ridge_recovers_known_coefficients() {
    // y = 3 + 2·x0 − 0.5·x1 + 0·x2 + 4·x3, exactly, on well-spread random rows.
    let truth = [2.0, -0.5, 0.0, 4.0];
    let mut rng = Rng::new(17);
    let x: Vec<Vec<f64>> = (0..400)
        .map(|_| (0..4).map(|_| rng.unit() * 100.0).collect())
        .collect();
    let y: Vec<f64> = x
        .iter()
        .map(|r| 3.0 + r.iter().zip(truth).map(|(a, b)| a * b).sum::<f64>())
        .collect();
    let model = RidgeModel::fit(&["a", "b", "c", "d"], &x, &y, 1e-9).unwrap();
    let (raw, intercept) = model.raw_coefficients();
    for (got, want) in raw.iter().zip(truth) {
        assert!((got - want).abs() < 1e-6, "{raw:?}");
    }
    assert!((intercept - 3.0).abs() < 1e-5, "{intercept}");
    assert!(model.training_r2 > 0.999_999);
    // A real penalty shrinks the coefficient vector towards zero.
    let shrunk = RidgeModel::fit(&["a", "b", "c", "d"], &x, &y, 50.0).unwrap();
    let norm = |c: &[f64]| c.iter().map(|v| v * v).sum::<f64>();
    assert!(norm(&shrunk.coefficients) < norm(&model.coefficients));
    // Noise does not move them far.
    let noisy: Vec<f64> = y.iter().map(|v| v + (rng.unit() - 0.5)).collect();
    let fit = RidgeModel::fit(&["a", "b", "c", "d"], &x, &noisy, 1e-6).unwrap();
    let (raw, _) = fit.raw_coefficients();
    for (got, want) in raw.iter().zip(truth) {
        assert!((got - want).abs() < 0.01, "{raw:?}");
    }
}

#[test]
fn ridge_refuses_bad_training_data() {
    assert!(matches!(
        RidgeModel::fit(&["a"], &[vec![1.0]], &[1.0], 1.0),
        Err(PredictorError::TooFewRows { .. })
    ));
    assert!(matches!(
        RidgeModel::fit(&["a"], &[vec![1.0], vec![1.0, 2.0]], &[1.0, 2.0], 1.0),
        Err(PredictorError::RowLength { row: 2, .. })
    ));
    assert!(matches!(
        RidgeModel::fit(&["a"], &[vec![1.0], vec![f64::NAN]], &[1.0, 2.0], 1.0),
        Err(PredictorError::NotFinite { row: 2 })
    ));
    // Two identical columns with no penalty: singular.
    let x = vec![vec![1.0, 1.0], vec![2.0, 2.0], vec![3.0, 3.0]];
    assert!(matches!(
        RidgeModel::fit(&["a", "b"], &x, &[1.0, 2.0, 3.0], 0.0),
        Err(PredictorError::Singular)
    ));
    assert!(solve(vec![vec![0.0]], vec![1.0]).is_none());
}

#[test]
fn shipped_predictor_reads_graph_variables() {
    let model = RidgeModel::shipped().unwrap();
    assert_eq!(
        model.features,
        GraphVariables::NAMES.map(String::from).to_vec()
    );
    let a = GraphAnalysis::of(
        &LongcatLevel::parse_ascii("@.#\n...\n...\n").unwrap(),
        DEFAULT_BUDGET,
    )
    .unwrap();
    assert!(model.predict(&a.variables).is_finite());
    let bad = RidgeModel::from_ron("x.ron", "(features: [\"states\"], means: [0.0]").unwrap_err();
    assert!(bad.to_string().starts_with("x.ron:1:"), "{bad}");
}

#[test]
fn bad_levels_are_refused_with_a_reason() {
    assert_eq!(
        LongcatLevel::parse_ascii("...\n.#.\n").unwrap_err(),
        LevelError::NoHead
    );
    assert_eq!(
        LongcatLevel::parse_ascii("@.\n.@\n").unwrap_err(),
        LevelError::ManyHeads { count: 2 }
    );
    let tall = "@\n".to_string() + &".\n".repeat(10);
    assert_eq!(
        LongcatLevel::parse_ascii(&tall).unwrap_err(),
        LevelError::TooLarge {
            width: 1,
            height: 11
        }
    );
    let e = LongcatLevel::parse_ascii("@.\n.?\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column 2: unknown cell character '?'"
    );
    assert!(
        LongcatLevel::parse_ascii("@..\n..\n").is_err(),
        "ragged rows"
    );
    // A head on a wall cannot be written in ASCII ('@' replaces the cell), and a level built
    // from cells has one cell type per square, so a head cell is never a wall: the head's
    // square counts as filled and nothing else about it is stored.
    let mut cells = Grid::filled(2, 1, Cell::Wall);
    cells.set(0, 0, Cell::Head);
    let walled = LongcatLevel::new(cells).unwrap();
    assert!(
        State::start(&walled).is_success(),
        "a head walled in with nothing to fill is already solved"
    );
}

#[test]
fn the_state_budget_stops_big_graphs() {
    // 2,287 states (the largest graph among 20,000 random 10×10 boards).
    let open = LongcatLevel::parse_ascii(
        "...#......\n.......##.\n..#.@.....\n.#.....#..\n....#....#\n.....#.#..\n..##......\n........#.\n....#.....\n....#....#\n",
    )
    .unwrap();
    assert_eq!(
        StateGraph::build(&open, DEFAULT_BUDGET).unwrap().len(),
        2287
    );
    let e = StateGraph::build(&open, 1000).unwrap_err();
    assert_eq!(e, GraphError::TooLarge { budget: 1000 });
    assert_eq!(
        e.to_string(),
        "graph too large: more than 1000 states (raise the budget to explore further)"
    );
    assert!(matches!(
        GraphAnalysis::of(&open, 50),
        Err(GraphError::TooLarge { budget: 50 })
    ));
    assert!(matches!(
        solver::solve(State::start(&open), 10),
        Err(GraphError::TooLarge { budget: 10 }) | Ok(Some(_))
    ));
}

#[test]
fn malformed_playtest_csv_names_the_line() {
    let p = Path::new("playtest.csv");
    let cases = [
        (
            "level,mean_seconds\na.ron,12\nb.ron\n",
            3,
            "expected 2 fields",
        ),
        ("a.ron,12\nb.ron,-4\n", 2, "finite number"),
        ("a.ron,12\nb.ron,NaN\n", 2, "finite number"),
        ("level,mean_seconds\n\n,5\n", 3, "level is empty"),
        ("a.ron,twelve\n", 1, "not a number"),
        ("level,mean_seconds\n", 1, "no data rows"),
    ];
    for (text, line, words) in cases {
        match parse_playtest_csv(p, text) {
            Err(PredictorError::Csv {
                line: l, message, ..
            }) => {
                assert_eq!(l, line, "{text:?}: {message}");
                assert!(message.contains(words), "{text:?}: {message}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn retrains_from_a_playtest_csv() {
    let dir = tempfile::tempdir().unwrap();
    let levels = [
        "@...\n",
        "@..\n##.\n##.\n",
        "@.\n..\n",
        "@.#\n...\n...\n",
        ".@.\n...\n",
        "@...\n....\n",
    ];
    let mut csv = String::from("level,mean_seconds\n");
    for (i, text) in levels.iter().enumerate() {
        std::fs::write(dir.path().join(format!("l{i}.txt")), text).unwrap();
        csv += &format!("l{i}.txt,{}\n", 5.0 + 3.0 * i as f64);
    }
    let path = dir.path().join("playtest.csv");
    std::fs::write(&path, &csv).unwrap();
    let set = playtest_training_set(&path).unwrap();
    assert_eq!(set.labels.len(), levels.len());
    let model = set.fit(1.0, "mean seconds", "test").unwrap();
    assert_eq!(model.rows, levels.len());
    // A row naming a missing level reports its line.
    std::fs::write(&path, "level,mean_seconds\nl0.txt,3\nmissing.txt,4\n").unwrap();
    let e = playtest_training_set(&path).unwrap_err();
    assert!(matches!(e, PredictorError::Csv { line: 3, .. }), "{e}");
}
