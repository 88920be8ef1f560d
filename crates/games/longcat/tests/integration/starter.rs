//! The starter pack `levels/longcat/starter.ron`: a check that its stored figures are what the
//! engine computes now, and (ignored) the builder that wrote it:
//! `cargo test --release -p longcat --test integration starter:: -- --ignored` rewrites the pack.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[longcat::plugin]);
}

use longcat::LongcatFigures;
use longcat::*;
use studio_core::files;
use studio_core::level::{Figures, Pack};
use studio_core::rng::Rng;
#[test]
fn stored_figures_match_the_engine() {
    let predictor = RidgeModel::shipped().unwrap();
    let pack = files::load_pack(std::path::Path::new("levels/longcat/starter.ron")).unwrap();
    assert!(pack.levels.len() >= 15);
    let mut last = 0.0;
    for level in &pack.levels {
        let cat = LongcatLevel::from_rows(&level.cells).unwrap();
        let a = GraphAnalysis::of(&cat, DEFAULT_BUDGET).unwrap();
        let stored = level
            .figures_of::<LongcatFigures>()
            .expect("figures stored");
        let now = a.figures(&predictor);
        assert_eq!(
            (stored.states, stored.branches, stored.difficulty),
            (now.states, now.branches, now.difficulty),
            "{}",
            level.name
        );
        assert!(
            (stored.predicted_difficulty - now.predicted_difficulty).abs() < 1e-6,
            "{}: retrain? run the builder",
            level.name
        );
        let d = a.difficulty.expect("solvable");
        assert!(d >= last, "{} is easier than the level before", level.name);
        last = d;
    }
}

/// Hand-made tutorial levels, then the generated level nearest each target difficulty
/// (attempt `i` of a generator with seed `s` is what `generate --seed s` makes at attempt `i`).
#[test]
#[ignore]
fn build_starter() {
    let predictor = RidgeModel::shipped().unwrap();
    let hand = [
        ("Corridor", "@....\n"),
        ("First turn", "@..\n##.\n##.\n"),
        ("Two ways round", "@.\n..\n"),
        ("Three ways", ".@.\n...\n"),
        ("Wrong turn", "@.#\n...\n...\n"),
        ("Long room", "@...\n....\n"),
    ];
    let mut items: Vec<(f64, studio_core::level::Level)> = Vec::new();
    for (name, text) in hand {
        let l = LongcatLevel::parse_ascii(text).unwrap();
        let a = GraphAnalysis::of(&l, DEFAULT_BUDGET).unwrap();
        let mut lv = l.to_level(name);
        lv.tags = vec!["hand-made".into()];
        lv.figures = Some(Figures::new(a.figures(&predictor)));
        items.push((a.difficulty.unwrap(), lv));
    }
    let mut pool: Vec<(f64, usize, String, LongcatLevel)> = Vec::new();
    for (g, (w, h), seed) in [
        (RandomGenerator::SolutionDown, (6, 6), 21u64),
        (RandomGenerator::SolutionDown, (7, 7), 22),
        (RandomGenerator::SolutionDown, (8, 8), 23),
        (RandomGenerator::PuzzleUp, (6, 6), 24),
        (RandomGenerator::PuzzleUp, (8, 8), 25),
    ] {
        for i in 0..4000 {
            for l in g.attempt(w, h, &mut Rng::derive(seed, i)).unwrap() {
                let a = GraphAnalysis::of(&l, DEFAULT_BUDGET).unwrap();
                if let Some(d) = a.difficulty {
                    pool.push((
                        d,
                        a.graph.len(),
                        format!("{} {w}x{h}, seed {seed} attempt {i}", g.name()),
                        l,
                    ));
                }
            }
        }
    }
    let targets = [
        3.0, 4.0, 6.0, 8.0, 11.0, 15.0, 20.0, 30.0, 45.0, 70.0, 100.0,
    ];
    for (k, t) in targets.iter().enumerate() {
        // Every third level from puzzle-up; nearest difficulty first, then fewer states.
        let want_pu = k % 3 == 2;
        let best = pool
            .iter()
            .filter(|p| p.2.starts_with("puzzle-up") == want_pu || *t > 60.0)
            .min_by(|a, b| {
                ((a.0 - t).abs(), a.1)
                    .partial_cmp(&((b.0 - t).abs(), b.1))
                    .unwrap()
            })
            .unwrap()
            .clone();
        let a = GraphAnalysis::of(&best.3, DEFAULT_BUDGET).unwrap();
        let mut lv = best.3.to_level(best.2.clone());
        lv.tags = vec![
            "generated".into(),
            best.2.split(' ').next().unwrap().to_string(),
        ];
        lv.figures = Some(Figures::new(a.figures(&predictor)));
        items.push((best.0, lv));
    }
    items.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut pack = Pack::new("Longcat starter");
    pack.description = "Hand-made tutorial levels, then levels picked from the puzzle-up and solution-down random generators, in rising player-model difficulty.".into();
    for (i, (_, mut lv)) in items.into_iter().enumerate() {
        lv.name = format!("{:02} {}", i + 1, lv.name);
        pack.levels.push(lv);
    }
    files::save_pack(std::path::Path::new("levels/longcat/starter.ron"), &pack).unwrap();
}
