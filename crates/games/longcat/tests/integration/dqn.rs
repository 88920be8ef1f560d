//! The learned Longcat generator: save/load, refusals, solvability of what it makes, and a
//! short training run that beats the random solution-down generator on 5×5.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[longcat::plugin]);
}

use longcat::dqn::env::{level_difficulty, random_episode};
use longcat::dqn::model::{self, DqnModel};
use longcat::dqn::policy::generate;
use longcat::dqn::train::{train, DqnTrainConfig};
use longcat::dqn::{DqnError, Policy};
use longcat::LongcatGraph;
use longcat::{PlayerModel, StateGraph};
use std::path::Path;
use studio_core::rng::Rng;

fn short_config(w: usize, h: usize, steps: usize) -> DqnTrainConfig {
    let mut c = DqnTrainConfig::new(w, h, 7);
    c.steps = steps;
    c.learn_start = 200;
    c.epsilon_decay = 0.5;
    c
}

#[test]
fn save_and_load_reproduce_q_values_bit_for_bit_and_training_is_seeded() {
    let dir = tempfile::tempdir().unwrap();
    let config = short_config(4, 4, 300);
    let (varmap, sidecar) = train(&config, &mut |_| true).unwrap();
    let path = dir.path().join("tiny.safetensors");
    model::save(&varmap, &sidecar, &path).unwrap();
    let loaded = DqnModel::load(&path).unwrap();
    let a = generate(&loaded, Policy::Temperature(0.0), 16, 1).unwrap();
    let again = DqnModel::load(&path).unwrap();
    assert_eq!(
        generate(&again, Policy::Temperature(0.0), 16, 1).unwrap(),
        a
    );
    let envs: Vec<_> = (0..16)
        .map(|s| longcat::dqn::env::SolutionDownEnv::new(4, 4, s))
        .collect();
    let refs: Vec<_> = envs.iter().collect();
    assert_eq!(
        loaded.net.q_values(&refs, &loaded.device).unwrap(),
        again.net.q_values(&refs, &again.device).unwrap()
    );
    // Same seed, same weights.
    let (varmap2, _) = train(&config, &mut |_| true).unwrap();
    let path2 = dir.path().join("tiny2.safetensors");
    model::save(&varmap2, &sidecar, &path2).unwrap();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&path2).unwrap()
    );
}

#[test]
fn short_training_beats_random_solution_down_on_5x5() {
    let (varmap, sidecar) = train(&short_config(5, 5, 1_000), &mut |_| true).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("five.safetensors");
    model::save(&varmap, &sidecar, &path).unwrap();
    let dqn = DqnModel::load(&path).unwrap();
    let levels = generate(&dqn, Policy::Temperature(0.0), 25, 0).unwrap();
    let learned = levels.iter().map(level_difficulty).sum::<f64>() / levels.len() as f64;
    let mut rng = Rng::new(99);
    let random = (0..2_000)
        .map(|_| level_difficulty(&random_episode(5, 5, &mut rng)))
        .sum::<f64>()
        / 2_000.0;
    assert!(
        learned > random,
        "greedy DQN mean difficulty {learned:.2} vs random {random:.2}"
    );
}

#[test]
fn every_generated_level_is_solvable() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join(model::SHIPPED_WEIGHTS);
    let dqn = DqnModel::load(&shipped).expect("the shipped DQN loads");
    for policy in [
        Policy::Temperature(0.0),
        Policy::Temperature(0.5),
        Policy::Diverse { n: 3, d: 1, p: 0.7 },
    ] {
        for level in generate(&dqn, policy, 128, 3).unwrap() {
            let graph = StateGraph::build(&level, 200_000).unwrap();
            assert!(PlayerModel::of(&graph).difficulty().is_some(), "{level:?}");
        }
    }
}

#[test]
fn refusals_are_clear() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join(model::SHIPPED_WEIGHTS);
    let dqn = DqnModel::load(&shipped).unwrap();
    let err = dqn.check_size(6, 6).unwrap_err().to_string();
    assert!(err.contains("6x6") && err.contains("8x8"), "{err}");
    let missing = DqnModel::load(Path::new("/nonexistent/dqn.safetensors")).unwrap_err();
    assert!(matches!(missing, DqnError::MissingWeights { .. }));
    assert!(missing.to_string().contains("disabled"));
    assert!(Policy::parse_diverse("3").is_err());
    assert!(Policy::parse_diverse("0,1").is_err());
    assert!(Policy::Temperature(1.5).check().is_err());
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.safetensors");
    std::fs::write(&bad, b"not a safetensors file").unwrap();
    std::fs::copy(model::sidecar_path(&shipped), model::sidecar_path(&bad)).unwrap();
    assert!(matches!(
        DqnModel::load(&bad).unwrap_err(),
        DqnError::CorruptWeights { .. }
    ));
}
