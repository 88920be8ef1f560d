//! GVGAI's own engine, traced tick by tick under a fixed button script (`reference/traces/`
//! of the GVGAI data, read in place when it is here): the deterministic games must agree on
//! every line, the stochastic ones too, since the engine draws `java.util.Random` where
//! GVGAI draws it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Arc;

use vgdl::engine::{Action, State};
use vgdl::trace::{line, Over};

fn data() -> Option<PathBuf> {
    let dir = std::env::var_os("GVGAI_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/gvgai")
        });
    dir.join("reference/traces").is_dir().then_some(dir)
}

/// The reference's script: RIGHT, DOWN, LEFT, UP, USE, NIL ten ticks each, repeated (USE
/// is NIL for an avatar without it), 200 ticks.
fn script(state: &State) -> Vec<Action> {
    let has_use = state.actions().contains(&Action::Use);
    let cycle = [
        Action::Right,
        Action::Down,
        Action::Left,
        Action::Up,
        Action::Use,
        Action::Nil,
    ];
    (0..200)
        .map(|t| {
            let a = cycle[(t / 10) % 6];
            if a == Action::Use && !has_use {
                Action::Nil
            } else {
                a
            }
        })
        .collect()
}

/// Our trace of `game`'s level 0 with `seed`, in the reference's layout.
pub fn our_trace(dir: &std::path::Path, game: &str, seed: i64) -> Vec<String> {
    let gp = dir.join("gridphysics");
    let text = std::fs::read_to_string(gp.join(format!("{game}.txt"))).unwrap();
    let desc = vgdl::parse(&text, game).unwrap();
    let rules = Arc::new(vgdl::compile(&desc, game).unwrap());
    let level_text = std::fs::read_to_string(gp.join(format!("{game}_lvl0.txt"))).unwrap();
    let level = vgdl::read_level(&desc, &level_text, "lvl0").unwrap();
    let mut state = State::new(rules, &level, seed).unwrap();
    let actions = script(&state);
    let mut out = Vec::new();
    for (t, &action) in actions.iter().chain([Action::Nil].iter()).enumerate() {
        if state.is_over() {
            out.push(line(&state, t, None, Over::Yes));
            break;
        }
        if t == 200 {
            out.push(line(&state, t, None, Over::Truncated));
            break;
        }
        out.push(line(&state, t, Some(action), Over::No));
        state.step(action);
    }
    out
}

fn reference(dir: &std::path::Path, game: &str, seed: i64) -> Vec<String> {
    let path = dir.join(format!(
        "reference/traces/{game}_lvl0_script-seed{seed}.txt"
    ));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn compare(game: &str, seed: i64) {
    let Some(dir) = data() else {
        eprintln!("skipped: GVGAI's data is not here (set GVGAI_DIR)");
        return;
    };
    let ours = our_trace(&dir, game, seed);
    let theirs = reference(&dir, game, seed);
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(
            a, b,
            "{game} seed {seed}: the first line that differs (ours, then GVGAI's)"
        );
    }
    assert_eq!(
        ours.len(),
        theirs.len(),
        "{game} seed {seed}: trace lengths"
    );
}

#[test]
fn sokoban_agrees_with_gvgai_tick_by_tick() {
    compare("sokoban", 1);
}

#[test]
fn painter_agrees_with_gvgai_tick_by_tick() {
    compare("painter", 1);
}

#[test]
fn zelda_agrees_with_gvgai_tick_by_tick_with_javas_random_numbers() {
    for seed in 1..=3 {
        compare("zelda", seed);
    }
}

#[test]
fn survive_zombies_agrees_with_gvgai_tick_by_tick_with_javas_random_numbers() {
    for seed in 1..=3 {
        compare("survivezombies", seed);
    }
}

#[test]
fn angels_and_demons_agrees_with_gvgai_tick_by_tick_with_javas_random_numbers() {
    for seed in 1..=3 {
        compare("angelsdemons", seed);
    }
}
