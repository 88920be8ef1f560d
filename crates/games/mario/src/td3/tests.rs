//! Tests for the TD3 generators: the state's channels, seeded level making with RI and DAGP,
//! a short training saved and loaded back, and files that are refused in words.

use super::file::{load, save, Td3Sidecar, ARCHITECTURE};
use super::train::{train, Td3Config, VsReward};
use super::*;
use crate::cgan::EMPTY_PATTERN;
use crate::Tile;
use candle_core::{DType, Device, Tensor};
use candle_nn::{VarBuilder, VarMap};

/// A pattern of ground with a hole in column `gap` (none when 4) and a goomba when asked.
fn pattern(gap: usize, goomba: bool) -> Pattern {
    let mut p = EMPTY_PATTERN;
    for c in 0..PATTERN_COLUMNS {
        if c != gap {
            p[c * ROWS + ROWS - 1] = Tile::Ground.index();
            p[c * ROWS + ROWS - 2] = Tile::Ground.index();
        }
    }
    if goomba {
        p[ROWS + ROWS - 3] = Tile::Goomba.index();
    }
    p
}

/// Legal patterns from three small made-up levels.
fn pat() -> PatLegal {
    let levels: Vec<(String, MarioLevel)> = (0..3)
        .map(|i| {
            let ps: Vec<Pattern> = (0..10)
                .map(|k| pattern((k + i) % 6, (k * (i + 1)) % 4 == 1))
                .collect();
            (format!("s{i}"), MarioLevel::new(assemble(&ps)).unwrap())
        })
        .collect();
    PatLegal::from_levels(&levels)
}

/// An untrained CGAN with seeded weights, saved under `gen.` like the real one.
fn cgan(seed: u64) -> (VarMap, Generator) {
    let map = VarMap::new();
    let g =
        Generator::new(VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu).pp("gen")).unwrap();
    studio_ml::seeded_init(&map, seed).unwrap();
    (map, g)
}

fn tiny_config(vs: usize) -> Td3Config {
    tiny(Td3Config::new(vs, 3))
}

/// `c` cut to 6 episodes of batches of 4, tested every 3 on 2 levels.
fn tiny(mut c: Td3Config) -> Td3Config {
    c.episodes = 6;
    c.batch = 4;
    c.test_every = 3;
    c.test_levels = 2;
    c
}

#[test]
fn the_state_has_walls_enemies_and_holes_and_minus_one_where_nothing_is_built() {
    let mut rng = Rng::new(1);
    let p = pat();
    let mut build = Build::start(&p, &mut rng);
    let mut x = Vec::new();
    features(&build, &mut x);
    assert_eq!(x.len(), STATE_WIDTH);
    assert!(x.iter().all(|&v| v == -1.0));
    build.push(pattern(2, true));
    let mut x = Vec::new();
    features(&build, &mut x);
    let plane = ROWS * STATE_COLUMNS;
    let at = |ch: usize, r: usize, c: usize| x[ch * plane + r * STATE_COLUMNS + c];
    assert_eq!(at(0, ROWS - 1, 0), 1.0, "ground is a wall");
    assert_eq!(at(0, ROWS - 1, 2), 0.0, "the gap is not");
    assert_eq!(at(2, ROWS - 1, 2), 1.0, "the gap is a hole");
    assert_eq!(at(2, ROWS - 1, 0), 0.0);
    assert_eq!(at(1, ROWS - 3, 1), 1.0, "the goomba");
    assert_eq!(at(0, 0, 4), -1.0, "pattern 2 is not built yet");
}

#[test]
fn levels_are_seeded_and_ri_and_dagp_change_what_they_should() {
    let p = pat();
    let (_, g) = cgan(4);
    let map = VarMap::new();
    let actor =
        Actor::new(VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu).pp("actor")).unwrap();
    let cmap = VarMap::new();
    let critic =
        Critic::new(VarBuilder::from_varmap(&cmap, DType::F32, &Device::Cpu).pp("critic")).unwrap();
    let gen = MarioRl {
        cgan: &g,
        pat: &p,
        actor: Some(&actor),
        critic: Some(&critic),
        length: LEVEL_PATTERNS,
    };
    let a = make_levels(&gen, 6, 9, Making::default()).unwrap();
    assert_eq!(a, make_levels(&gen, 6, 9, Making::default()).unwrap());
    assert_ne!(a, make_levels(&gen, 6, 10, Making::default()).unwrap());
    for b in &a {
        assert_eq!(b.patterns.len(), LEVEL_PATTERNS);
        assert!(
            b.patterns.iter().all(|q| p.index_of(q).is_some()),
            "Matching"
        );
        assert_eq!(b.level().unwrap().width(), 41);
    }
    // DAGP decides the 4th-6th patterns only: the first three are the same.
    let dagp = Dagp {
        n: 20,
        d: 0.0,
        p: 1.0,
    };
    let d = make_levels(
        &gen,
        6,
        9,
        Making {
            random: RANDOM_START,
            dagp: Some(dagp),
        },
    )
    .unwrap();
    for (x, y) in a.iter().zip(&d) {
        assert_eq!(x.patterns[..3], y.patterns[..3]);
    }
    // Without an actor only randomized initialization can make a level.
    let blind = MarioRl {
        actor: None,
        critic: None,
        ..gen
    };
    assert!(make_levels(&blind, 2, 1, Making::default()).is_err());
    let all_random = Making {
        random: LEVEL_PATTERNS,
        dagp: None,
    };
    assert_eq!(make_levels(&blind, 2, 1, all_random).unwrap().len(), 2);
    // DAGP's distance is KL_pattern: zero between a pattern and itself.
    assert_eq!(kl_pattern(&pattern(1, false), &pattern(1, false)), 0.0);
    assert!(kl_pattern(&pattern(1, false), &pattern(4, true)) > 0.0);
}

/// A training run with no progress reports and no checkpoints.
fn quietly(g: &Generator, p: &PatLegal, config: &Td3Config) -> super::train::Trained {
    train(g, p, config, &mut |_| true, &mut |_, _, _| Ok(())).unwrap()
}

#[test]
fn testing_the_target_actor_too_leaves_the_training_as_it_was_and_keeps_the_best_of_both() {
    let p = pat();
    let (_, g) = cgan(4);
    let plain = quietly(&g, &p, &tiny_config(0));
    let mut config = tiny_config(0);
    config.test_average = true;
    let mut kept_scores = Vec::new();
    let both = train(&g, &p, &config, &mut |_| true, &mut |_, _, progress| {
        kept_scores.push((progress.best_test, progress.best_is_average));
        Ok(())
    })
    .unwrap();
    // The live actor learns exactly as without the extra tests.
    assert_eq!(plain.test_curve, both.test_curve);
    assert!(plain.average_curve.is_empty() && !plain.kept_average);
    assert_eq!(both.average_curve.len(), both.test_curve.len());
    // The kept actor is the best test of either, and the checkpoint says whose.
    let best = both
        .test_curve
        .iter()
        .chain(&both.average_curve)
        .map(|&(_, v)| v)
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(both.best.1, best);
    let live_best = both.test_curve.iter().any(|&(_, v)| v == best);
    assert_eq!(both.kept_average, !live_best);
    assert_eq!(kept_scores.last(), Some(&(best, both.kept_average)));
}

#[test]
fn a_run_stopped_after_an_episode_is_the_longer_runs_beginning() {
    let p = pat();
    let (_, g) = cgan(4);
    let full = quietly(&g, &p, &tiny_config(0));
    let mut config = tiny_config(0);
    config.stop_after = Some(3);
    let cut = quietly(&g, &p, &config);
    // The same schedule as the six-episode run, stopped after episode 3 and its test phase.
    assert_eq!(cut.test_curve, full.test_curve[..1].to_vec());
    assert_eq!(full.test_curve.len(), 2);
    assert!(cut.best.0 <= 3);
    // Past the run's end it is the whole run.
    config.stop_after = Some(60);
    let whole = quietly(&g, &p, &config);
    assert_eq!(whole.test_curve, full.test_curve);
}

#[test]
fn a_short_training_is_seeded_saves_loads_and_bad_files_are_refused() {
    let p = pat();
    let (_, g) = cgan(4);
    let mut checkpoints = 0;
    let run = |checkpoints: &mut usize| {
        train(&g, &p, &tiny_config(2), &mut |_| true, &mut |_, _, _| {
            *checkpoints += 1;
            Ok(())
        })
        .unwrap()
    };
    let t = run(&mut checkpoints);
    assert!(checkpoints >= 1, "the first test phase is a best");
    assert_eq!(t.test_curve.len(), 2);
    assert!(t.test_curve.iter().all(|(_, v)| v.is_finite()));
    let again = run(&mut checkpoints);
    let weights = |m: &VarMap| {
        let mut v: Vec<(String, Vec<f32>)> = m
            .data()
            .lock()
            .unwrap()
            .iter()
            .map(|(k, t)| (k.clone(), t.flatten_all().unwrap().to_vec1().unwrap()))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    assert_eq!(
        weights(&t.actor_map),
        weights(&again.actor_map),
        "same seed"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mario-td3.safetensors");
    let sidecar = Td3Sidecar {
        architecture: ARCHITECTURE.into(),
        widths: Td3Sidecar::expected_widths(),
        kind: "vs-td3".into(),
        virtual_completions: 2,
        seed: 3,
        episodes: 6,
        cgan: None,
        train_seconds: t.seconds,
        curve: t.curve.clone(),
        test_curve: t.test_curve.clone(),
        kept: t.best,
        kept_average: t.kept_average,
        average_curve: t.average_curve.clone(),
        command: "test".into(),
        weights: None,
    };
    save(&t.actor_map, &t.critic_map, &sidecar, &path).unwrap();
    let model = load(&path).unwrap();
    let vb = VarBuilder::from_varmap(&t.actor_map, DType::F32, &Device::Cpu);
    let actor = Actor::new(vb.pp("actor")).unwrap();
    let mut rng = Rng::new(5);
    let b = Build::start(&p, &mut rng);
    assert_eq!(
        model.actor.act(std::slice::from_ref(&b)).unwrap(),
        actor.act(std::slice::from_ref(&b)).unwrap()
    );
    assert_eq!(
        model.critic.values(&b, &[[0.1, 0.2, 0.3]]).unwrap().len(),
        1
    );

    // A sidecar figure that is not a number: nothing is written.
    let mut bad = sidecar.clone();
    bad.curve.push(f64::NAN);
    let other = dir.path().join("nan.safetensors");
    let err = save(&t.actor_map, &t.critic_map, &bad, &other)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a number"), "{err}");
    assert!(!other.exists());
    // Damaged weights and a foreign architecture are refused in words.
    std::fs::write(&path, b"not safetensors").unwrap();
    let err = load(&path).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("mario-td3.safetensors"), "{err}");
    let side = studio_ml::sidecar_path(&path);
    let text = std::fs::read_to_string(&side).unwrap();
    std::fs::write(&side, text.replace(ARCHITECTURE, "mario-td3-cnn-v9")).unwrap();
    let err = load(&path).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("architecture"), "{err}");
}

#[test]
fn the_reported_figure_is_the_mean_of_the_last_fifth_of_the_test_phases() {
    let mut side: Td3Sidecar = load(std::path::Path::new("models/mario-td3.safetensors"))
        .map(|m| m.sidecar)
        .unwrap_or_else(|e| panic!("{e}"));
    side.test_curve = (1..=10).map(|i| (i * 100, i as f64 / 10.0)).collect();
    // Ten phases: the last two, 0.9 and 1.0.
    let (mean, first, last) = side.last_fifth_test_mean().unwrap();
    assert!((mean - 0.95).abs() < 1e-12);
    assert_eq!((first, last), (900, 1000));
    // Three phases: at least one counts.
    side.test_curve.truncate(3);
    assert_eq!(side.last_fifth_test_mean(), Some((0.3, 300, 300)));
    side.test_curve.clear();
    assert_eq!(side.last_fifth_test_mean(), None);
}

#[test]
fn the_critics_gradient_shrinks_near_the_cubes_bounds_and_turns_back_past_them() {
    let t = |v: &[f32]| Tensor::from_vec(v.to_vec(), (1, v.len()), &Device::Cpu).unwrap();
    // Rising at 0.25 keeps three quarters; falling at 0.25 a quarter; rising past 1 turns
    // back down; falling below 0 turns back up.
    let g = model::inverted_gradient(&t(&[1.0, -1.0, 2.0, -2.0]), &t(&[0.25, 0.25, 1.5, -0.5]))
        .unwrap()
        .to_vec2::<f32>()
        .unwrap();
    assert_eq!(g, vec![vec![0.75, -0.25, -1.0, 1.0]]);
}

#[test]
fn the_actor_acts_inside_the_cube() {
    let map = VarMap::new();
    let actor =
        Actor::new(VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu).pp("actor")).unwrap();
    // Weights far from 0 push the raw output outside [0, 1]; what acts stays inside.
    for var in map.all_vars() {
        let big = (var.as_tensor().ones_like().unwrap() * 3.0).unwrap();
        var.set(&big).unwrap();
    }
    let legal = pat();
    let mut rng = Rng::new(3);
    let b = Build::start(&legal, &mut rng);
    let raw = actor
        .raw(&model::state_tensor(std::slice::from_ref(&b), &Device::Cpu).unwrap())
        .unwrap();
    assert!(raw.flatten_all().unwrap().to_vec1::<f32>().unwrap()[0].abs() > 1.0);
    for z in actor.act(&[b]).unwrap()[0] {
        assert!((0.0..=1.0).contains(&z), "{z}");
    }
}

/// The kept weights and the curves of a short training, as one fingerprint.
fn td3_fingerprint(config: &Td3Config) -> u64 {
    let p = pat();
    let (_, g) = cgan(4);
    let t = quietly(&g, &p, config);
    let mut digest = studio_ml::weights_digest(&t.actor_map).unwrap()
        ^ studio_ml::weights_digest(&t.critic_map)
            .unwrap()
            .rotate_left(1);
    for (e, v) in &t.test_curve {
        digest = digest.rotate_left(7) ^ v.to_bits() ^ *e as u64;
    }
    for v in &t.curve {
        digest = digest.rotate_left(7) ^ v.to_bits();
    }
    digest
}

/// The shared actor-critic loop trains exactly as Mario's own loop did: the first two are
/// the fingerprints of that loop's weights on the earlier recipe (`Td3Config::two_core`, VS-TD3
/// judged live), recorded before it moved; then VS-TD3 on that recipe frozen and judged on
/// rayon with the thesis's reward (`mean`); then TD3 and VS-TD3 (`value`) on the thesis's
/// recipe, the defaults since issue 66. Bit-exact float results can change with the CPU's
/// vector units, so this runs on demand (`cargo test --release -p mario -- --ignored
/// fingerprint`), after any change to the loop.
#[test]
#[ignore = "bit-exact weights: run on demand after touching the actor-critic loop"]
fn td3_training_fingerprints_are_unchanged() {
    let two_core = |vs| tiny(Td3Config::two_core(vs, 3));
    let mut frozen_mean = two_core(2);
    frozen_mean.vs_reward = VsReward::Mean;
    let got = [
        td3_fingerprint(&two_core(0)),
        td3_fingerprint(&two_core(2)),
        td3_fingerprint(&frozen_mean),
        td3_fingerprint(&tiny_config(0)),
        td3_fingerprint(&tiny_config(2)),
    ];
    println!("td3 fingerprints {got:#x?}");
    assert_eq!(
        got,
        [
            0x22d6_b851_4bfe_861a,
            0xcb27_3dd8_e0bd_bcca,
            0xd153_8be2_c535_591d,
            0x43eb_def4_3099_e4dc,
            0xa926_b757_1a06_659f,
        ]
    );
}

/// A short VS-TD3 training on a pool of `threads` threads.
fn vs_on_threads(threads: usize) -> super::train::Trained {
    let p = pat();
    let (_, g) = cgan(4);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| quietly(&g, &p, &tiny_config(2)))
}

#[test]
fn vs_td3_trains_the_same_weights_on_one_thread_and_on_two() {
    let (one, two) = (vs_on_threads(1), vs_on_threads(2));
    let digest = |t: &super::train::Trained| {
        (
            studio_ml::weights_digest(&t.actor_map).unwrap(),
            studio_ml::weights_digest(&t.critic_map).unwrap(),
        )
    };
    assert_eq!(digest(&one), digest(&two));
    assert_eq!(one.test_curve, two.test_curve);
    // It learnt: the kept actor is not the untrained one.
    let maps = studio_ml::actor_critic::ActorCriticMaps::new();
    let [a, ..] = maps.builders(&Device::Cpu);
    Actor::new(a.pp("actor")).unwrap();
    maps.start(3).unwrap();
    assert_ne!(
        digest(&one).0,
        studio_ml::weights_digest(&maps.actor).unwrap()
    );
}

#[test]
fn an_episodes_judgements_are_the_same_on_any_pool_and_each_draws_its_own_stream() {
    let p = pat();
    let (_, g) = cgan(4);
    let map = VarMap::new();
    let actor =
        Actor::new(VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu).pp("actor")).unwrap();
    studio_ml::seeded_init(&map, 5).unwrap();
    let gen = MarioRl {
        cgan: &g,
        pat: &p,
        actor: Some(&actor),
        critic: None,
        length: LEVEL_PATTERNS,
    };
    let mut rng = Rng::new(8);
    let mut build = Build::start(&p, &mut rng);
    studio_ml::rl::randomize(&gen, &mut build, RANDOM_START, &mut rng);
    let steps = vs::play_frozen(&gen, &mut build, (0.2, 0.5), &mut rng).unwrap();
    assert_eq!(steps.len(), LEVEL_PATTERNS - RANDOM_START);
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| vs::judge(&gen, &steps, 5, 0.3, (11, 4)).unwrap())
    };
    let (one, two) = (on(1), on(2));
    // 5 completions of each of the 7 steps before the last, and the level: 36 judgements.
    assert_eq!(one.completions.len(), 7);
    assert!(one.completions.iter().all(|c| c.len() == 5));
    let view = |j: &vs::Judged| {
        let c: Vec<(Vec<Pattern>, u64, u64)> = j
            .completions
            .iter()
            .flatten()
            .map(|c| {
                (
                    c.build.patterns.clone(),
                    c.build.eval_seed,
                    c.evaluation.to_bits(),
                )
            })
            .collect();
        (c, j.evaluation.to_bits())
    };
    assert_eq!(view(&one), view(&two));
    // Each completion keeps the step's patterns, finishes the level and has its own trials.
    for (s, completions) in one.completions.iter().enumerate() {
        for c in completions {
            assert_eq!(
                c.build.patterns[..s + RANDOM_START + 1],
                steps[s].after.patterns[..]
            );
            assert_eq!(c.build.patterns.len(), LEVEL_PATTERNS);
        }
    }
    let mut seeds: Vec<u64> = one
        .completions
        .iter()
        .flatten()
        .map(|c| c.build.eval_seed)
        .collect();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), 35);
    assert_eq!(one.evaluation, reward_of(&steps[6 + 1].after));
    // Another episode draws other completions.
    let other = vs::judge(&gen, &steps, 5, 0.3, (11, 5)).unwrap();
    assert_ne!(view(&other).0, view(&one).0);
}

/// An actor of seeded weights steering `g` over `p`.
fn seeded_actor(seed: u64) -> (VarMap, Actor) {
    let map = VarMap::new();
    let actor =
        Actor::new(VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu).pp("actor")).unwrap();
    studio_ml::seeded_init(&map, seed).unwrap();
    (map, actor)
}

#[test]
fn with_value_rewards_what_is_remembered_does_not_depend_on_the_completions() {
    let p = pat();
    let (_, g) = cgan(4);
    let (_, a) = seeded_actor(5);
    let gen = MarioRl {
        cgan: &g,
        pat: &p,
        actor: Some(&a),
        critic: None,
        length: LEVEL_PATTERNS,
    };
    let mut rng = Rng::new(8);
    let mut build = Build::start(&p, &mut rng);
    studio_ml::rl::randomize(&gen, &mut build, RANDOM_START, &mut rng);
    let steps = vs::play_frozen(&gen, &mut build, (0.2, 0.5), &mut rng).unwrap();
    let judged = vs::judge(&gen, &steps, 3, 0.2, (1, 0)).unwrap();
    // The same steps as a later actor might complete them: other completions, other scores.
    let mut later = judged.clone();
    for c in later.completions.iter_mut().flatten() {
        c.evaluation = 1.0 - c.evaluation;
        c.build.patterns.reverse();
    }
    let remembered = |j: &vs::Judged, mode| j.remembered_rewards(&steps, mode);
    assert_eq!(
        remembered(&judged, VsReward::Value),
        remembered(&later, VsReward::Value)
    );
    assert_ne!(
        remembered(&judged, VsReward::Mean),
        remembered(&later, VsReward::Mean)
    );
    // Value's rewards are TD3's: they add up to the evaluation less the r_mono of the start.
    let sum: f64 = remembered(&judged, VsReward::Value).iter().sum();
    let start = vs::mono_of_first(&steps[0].before, RANDOM_START);
    assert!((sum - (judged.evaluation - start)).abs() < 1e-9, "{sum}");
    // The completions move the steps' values instead, which are learnt at once, not kept.
    assert_ne!(judged.values(&steps, 0.99), later.values(&steps, 0.99));
}

#[test]
fn a_completions_return_is_tds_rewards_discounted_from_its_step() {
    let p = pat();
    let mut rng = Rng::new(2);
    let mut build = Build::start(&p, &mut rng);
    for k in 0..LEVEL_PATTERNS {
        build.push(pattern(k % 5, k % 3 == 0));
    }
    let c = vs::Completion {
        build: build.clone(),
        evaluation: 0.6,
    };
    let mono = |n| vs::mono_of_first(&build, n);
    // Undiscounted, the r_mono rises telescope: the evaluation less r_mono before the step.
    let from = 4;
    assert!((c.td3_return(from, 1.0) - (0.6 - mono(from))).abs() < 1e-12);
    // From the last step alone: the rest of the evaluation. One step earlier, discounted:
    // that step's rise of r_mono plus γ times it.
    let last = LEVEL_PATTERNS - 1;
    let tail = 0.6 - mono(last);
    assert!((c.td3_return(last, 0.5) - tail).abs() < 1e-12);
    let before = mono(last) - mono(last - 1);
    assert!((c.td3_return(last - 1, 0.5) - (before + 0.5 * tail)).abs() < 1e-12);
    assert!(
        mono(LEVEL_PATTERNS) > 0.0,
        "the level has some monotony to pay"
    );
}
