//! The evaluation on hand-made courses with hand-computed figures.

use super::rules::*;
use super::*;

fn course(columns: &[[f64; 3]]) -> Course {
    Course::new(columns.to_vec()).unwrap()
}

#[test]
fn the_weights_sum_to_one() {
    assert!((WEIGHTS.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn battles_trade_strikes_with_the_player_first() {
    // 25 ATK against 50 HP: two strikes, one enemy strike in between.
    assert_eq!(battle(100.0, 25.0, 50.0, 10.0), 90.0);
    // 51 HP needs a third strike: two enemy strikes.
    assert_eq!(battle(100.0, 25.0, 51.0, 10.0), 80.0);
    // The player falls first.
    assert!(battle(15.0, 25.0, 100.0, 20.0) <= 0.0);
}

#[test]
fn a_course_every_strategy_wins() {
    // Two feeble enemies (HP 20, ATK 5) and a feeble boss (HP 80, ATK 10).
    let c = course(&[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]);
    let e = evaluate(&c);
    assert_eq!((e.strategies, e.wins), (4, 4));
    // f1: a 100 % win rate scores 0.
    assert_eq!(e.f[0], 0.0);
    // f3: every parameter at 0 sits at the edge of its range: g = 0.
    assert_eq!(e.f[2], 0.0);
    // f5: wins that retreat from enemy 1: 2 (masks 01 and 11); from enemy 2: 2.
    // 1 − (3·2 + 2·2) / (6·4) = 1 − 10/24.
    assert!((e.f[4] - (1.0 - 10.0 / 24.0)).abs() < 1e-12);
    // f6: the last two enemies are at 0.
    assert_eq!(e.f[5], 0.0);
    // f7: all-attack and all-retreat both win.
    assert_eq!(e.monotonous, 2);
    assert_eq!(e.f[6], 0.0);
    // All-attack by hand: each enemy (HP 20) falls to the first strike; the boss (HP 50,
    // ATK 8) to ATK 30·1.1² = 36.3 in two strikes, with one boss strike between: 92 left.
    let all_attack = play(&c, 0);
    assert!(all_attack.won);
    assert!((all_attack.final_hp - 92.0).abs() < 1e-9);
    // Retreat from both: 100 − 15 − 15 = 70; ATK 30 needs two strikes: 62 left.
    assert!((play(&c, 0b11).final_hp - 62.0).abs() < 1e-9);
    // f4 = mean of min((1 − final / 100) / 0.6, 1) over the four wins (92, 77, 77, 62):
    // the one-retreat strategies keep ATK 33 (two strikes at the boss): 100 − 15 − 8 = 77.
    let tough = [92.0, 77.0, 77.0, 62.0]
        .iter()
        .map(|hp: &f64| ((1.0 - hp / 100.0) / 0.6).min(1.0))
        .sum::<f64>()
        / 4.0;
    assert!((e.f[3] - tough).abs() < 1e-9, "{} vs {tough}", e.f[3]);
}

#[test]
fn a_course_no_strategy_wins() {
    // An overwhelming boss (HP 200, ATK 30): at most 85 HP meets five or more strikes of 30.
    let c = course(&[[0.5, 0.5, 0.5], [0.5, 0.5, 0.0], [1.0, 1.0, 0.0]]);
    let e = evaluate(&c);
    assert_eq!(e.wins, 0);
    assert_eq!(e.f[0], 0.0);
    assert_eq!((e.f[1], e.f[3]), (0.0, 0.0));
    assert_eq!((e.f[4], e.f[6]), (1.0, 1.0));
    // f3: recovery 0.5 → 1; enemies at 0.5 → 1; the boss at 1.0 → 0; 4 events.
    assert!((e.f[2] - 3.0 / 4.0).abs() < 1e-12);
    // f6: (0.5 + 0.5) · 2 / 4 = 0.5 → 0.5 / 0.7.
    assert!((e.f[5] - 0.5 / 0.7).abs() < 1e-12);
    let by_hand = 0.2 * 0.75 + 0.05 + 0.1 * (0.5 / 0.7) + 0.05;
    assert!((e.value - by_hand).abs() < 1e-12);
}

#[test]
fn win_rate_soundness_peaks_at_thirty_percent() {
    assert_eq!(win_rate_soundness(0.3), 1.0);
    assert!((win_rate_soundness(0.15) - 0.5).abs() < 1e-12);
    assert!((win_rate_soundness(0.45) - 0.5).abs() < 1e-12);
    assert_eq!(win_rate_soundness(0.0), 0.0);
    assert_eq!(win_rate_soundness(0.6), 0.0);
    assert_eq!(win_rate_soundness(0.9), 0.0);
}

#[test]
fn stored_rows_round_trip_in_hundredths() {
    let c = course(&[[0.5, 0.25, 0.7], [0.123, 1.0, 0.0], [0.9, 0.1, 0.0]]);
    let rows = c.to_rows();
    assert_eq!(rows, ["501290", "259910", "700000"]);
    let back = Course::from_rows(&rows).unwrap();
    assert_eq!(back, c.stored());
    let bad = |rows: &[&str]| {
        Course::from_rows(&rows.iter().map(|s| s.to_string()).collect::<Vec<_>>())
            .unwrap_err()
            .to_string()
    };
    assert!(bad(&["5012", "2599"]).contains("3 rows"));
    assert!(bad(&["5012", "2599", "701"]).contains("row 3"));
    assert!(bad(&["50x2", "2599", "7000"]).contains("'x' is not a digit"));
    assert!(bad(&["5012", "2599", "7010"]).contains("boss"));
    assert!(bad(&["50", "25", "00"]).contains("1 to 12 enemies"));
}

#[test]
#[ignore]
fn print_random_distribution() {
    let mut rng = studio_core::rng::Rng::new(1);
    let s = Structure::NINE;
    let mut rates = vec![0usize; 11];
    let mut evals = Vec::new();
    for _ in 0..5000 {
        let cols: Vec<[f64; 3]> = (0..s.columns())
            .map(|i| {
                let r = if s.recovers(i) { rng.unit() } else { 0.0 };
                [rng.unit(), rng.unit(), r]
            })
            .collect();
        let e = evaluate(&Course::new(cols).unwrap().stored());
        rates[(e.win_rate() * 10.0).floor() as usize] += 1;
        evals.push(e.value);
    }
    evals.sort_by(f64::total_cmp);
    let over = evals.iter().filter(|&&v| v > 0.9).count();
    let over8 = evals.iter().filter(|&&v| v > 0.8).count();
    println!("win-rate deciles {rates:?}");
    println!(
        "eval mean {:.3} median {:.3} max {:.3} >0.9 {over} >0.8 {over8}",
        evals.iter().sum::<f64>() / evals.len() as f64,
        evals[evals.len() / 2],
        evals[evals.len() - 1]
    );
}

#[test]
fn the_strategy_graph_ends_in_every_strategy_s_outcome() {
    use super::play::{Node, StrategyGraph};
    use studio_core::game::NodeClass;
    let c = course(&[[0.5, 0.5, 0.5], [0.3, 0.6, 0.0], [0.4, 0.2, 0.0]]);
    let e = evaluate(&c);
    let g = StrategyGraph::explore(c.clone(), Node::START, 10_000).unwrap();
    // Two choices at each of two enemies, one at the boss: at most 1 + 2 + 4 + 4 nodes.
    assert!(g.len() <= 11);
    let wins = g
        .nodes()
        .iter()
        .filter(|n| n.class == NodeClass::Success)
        .count();
    assert!(wins >= 1 && e.wins >= 1);
    assert!(wins <= e.wins);
}

#[test]
fn a_playtest_attacks_retreats_and_takes_back() {
    use super::play::CoursePlay;
    use studio_core::game::{PlayMove, PlayRules};
    let c = course(&[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]);
    let mut p = CoursePlay::new(c);
    assert!(p.apply(PlayMove::Wait), "retreat from enemy 1");
    assert_eq!(p.status().counters[0].1, "85 / 100");
    assert!(p.undo());
    assert!(p.apply(PlayMove::Act));
    assert!(p.apply(PlayMove::Act));
    // No retreat from the boss.
    assert!(!p.apply(PlayMove::Wait));
    assert!(p.apply(PlayMove::Act));
    let s = p.status();
    assert_eq!(s.outcome, Some(true));
    assert!(s.message.contains("92 HP left"), "{}", s.message);
    assert!(!p.apply(PlayMove::Act), "nothing after the end");
}

#[test]
#[ignore]
fn train_ddpg_briefly() {
    use super::ddpg::*;
    let episodes: usize = std::env::var("EPISODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let vs: usize = std::env::var("VS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut config = DdpgConfig::new(Structure::NINE, vs, 1);
    config.episodes = episodes;
    let t = train(&config, &mut |p| {
        if p.episode % 500 == 0 {
            println!("{} {:.3} {:.1}s", p.episode, p.mean_evaluation, p.seconds);
        }
        true
    })
    .unwrap();
    let mut rng = studio_core::rng::Rng::new(99);
    let starts: Vec<_> = (0..200)
        .map(|_| random_start(Structure::NINE, 1, &mut rng))
        .collect();
    let done = complete(&t.actor, starts, 1, &candle_core::Device::Cpu).unwrap();
    let vals: Vec<f64> = done.iter().map(|c| value_of(c)).collect();
    let mean = vals.iter().sum::<f64>() / vals.len() as f64;
    let above = vals.iter().filter(|&&v| v > 0.9).count();
    println!(
        "greedy mean {mean:.3}, above 0.9: {above}/200, {:.1}s",
        t.seconds
    );
}

#[test]
fn ddpg_trains_reproducibly_and_fills_courses_by_their_structure() {
    use super::ddpg::*;
    let run = || {
        let mut config = DdpgConfig::new(Structure::NINE, VIRTUAL_COMPLETIONS, 7);
        config.episodes = 60;
        let t = train(&config, &mut |_| true).unwrap();
        let mut rng = studio_core::rng::Rng::new(3);
        let starts: Vec<_> = (0..4)
            .map(|_| random_start(Structure::NINE, 2, &mut rng))
            .collect();
        complete(&t.actor, starts, 2, &candle_core::Device::Cpu).unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b, "same seed, same courses");
    for course in &a {
        assert_eq!(course.len(), 7);
        for (i, c) in course.iter().enumerate() {
            assert!(c.iter().all(|v| (0.0..=1.0).contains(v)));
            if !Structure::NINE.recovers(i) {
                assert_eq!(c[2], 0.0, "no recovery event after enemy {}", i + 1);
            }
        }
        assert!(Course::new(course.clone()).is_ok());
    }
}

#[test]
fn randomized_initialization_keeps_its_first_columns_random_and_seeded() {
    use super::ddpg::random_start;
    let mut r1 = studio_core::rng::Rng::new(5);
    let mut r2 = studio_core::rng::Rng::new(5);
    let a = random_start(Structure::NINE, 3, &mut r1);
    assert_eq!(a, random_start(Structure::NINE, 3, &mut r2));
    assert!(a[..3].iter().all(|c| c[0] > 0.0 || c[1] > 0.0));
    assert!(
        a[3..].iter().all(|c| *c == [0.0; 3]),
        "the rest is left to fill"
    );
}

#[test]
fn a_virtual_simulation_reward_is_the_mean_of_its_completions() {
    use super::ddpg::*;
    use candle_nn::{VarBuilder, VarMap};
    let varmap = VarMap::new();
    let actor = Actor::new(
        Structure::NINE,
        VarBuilder::from_varmap(&varmap, candle_core::DType::F32, &candle_core::Device::Cpu),
    )
    .unwrap();
    // Seeded weights: candle's own initialisation is not, and an unlucky actor can leave a
    // column at zero HP and zero ATK.
    studio_ml::seeded_init(&varmap, 4).unwrap();
    let mut rng = studio_core::rng::Rng::new(4);
    let start = random_start(Structure::NINE, 2, &mut rng);
    let gen = super::policy::ActorRl::new(&actor, None);
    let filling = super::policy::Filling::at(start.clone(), 2);
    let virt: Vec<Vec<[f64; 3]>> =
        studio_ml::rl::virtual_completions(&gen, &filling, VIRTUAL_COMPLETIONS, 0.3, &mut rng)
            .unwrap()
            .into_iter()
            .map(|f| f.columns)
            .collect();
    assert_eq!(virt.len(), 5);
    for v in &virt {
        assert_eq!(&v[..2], &start[..2], "the filled columns stay");
        assert!(
            v[2..].iter().all(|c| c[0] > 0.0 || c[1] > 0.0),
            "the rest is filled"
        );
    }
    let by_hand: f64 = virt.iter().map(|v| value_of(v)).sum::<f64>() / 5.0;
    let states: Vec<super::policy::Filling> = virt
        .iter()
        .map(|v| super::policy::Filling::at(v.clone(), 7))
        .collect();
    assert!((studio_ml::rl::virtual_reward(&gen, &states) - by_hand).abs() < 1e-12);
    // Noise makes the completions differ.
    assert!(virt.windows(2).any(|w| w[0] != w[1]));
}

/// A seeded, untrained network set: an actor with a critic, and a DQN.
fn untrained() -> (super::ddpg::Actor, super::ddpg::Critic, super::dqn::CourseQ) {
    use candle_nn::{VarBuilder, VarMap};
    let vb =
        |m: &VarMap| VarBuilder::from_varmap(m, candle_core::DType::F32, &candle_core::Device::Cpu);
    let (a, c, q) = (VarMap::new(), VarMap::new(), VarMap::new());
    let actor = super::ddpg::Actor::new(Structure::NINE, vb(&a)).unwrap();
    let critic = super::ddpg::Critic::new(Structure::NINE, vb(&c).pp("critic")).unwrap();
    let dqn = super::dqn::CourseQ::new(Structure::NINE, vb(&q).pp("q")).unwrap();
    for (m, seed) in [(&a, 1), (&c, 2), (&q, 3)] {
        studio_ml::seeded_init(m, seed).unwrap();
    }
    (actor, critic, dqn)
}

#[test]
fn the_dqn_sets_one_parameter_per_step_and_no_fountain_where_the_structure_has_none() {
    use super::policy::{Filling, QRl};
    use studio_ml::rl::Sequential;
    let (_, _, q) = untrained();
    let gen = QRl::new(&q);
    let mut rng = studio_core::rng::Rng::new(8);
    let start = super::ddpg::random_start(Structure::NINE, 1, &mut rng);
    let mut state = Filling::at(start.clone(), 1);
    let mut steps = 0;
    while !gen.done(&state) {
        let a = gen.random_action(&state, &mut rng);
        assert!(a <= 100);
        gen.apply(&mut state, &a);
        steps += 1;
    }
    // Six columns after the random one, two parameters each, and the fountains after the
    // 2nd and 4th enemy.
    assert_eq!(steps, 6 * 2 + 2);
    assert_eq!(steps, super::dqn::decisions(Structure::NINE, 1));
    assert_eq!(state.columns[0], start[0], "the random column stays");
    for (i, c) in state.columns.iter().enumerate() {
        if !Structure::NINE.recovers(i) {
            assert_eq!(c[2], 0.0, "column {i}");
        }
        if i > 0 {
            for v in c {
                assert_eq!((v * 100.0).round() / 100.0, *v, "hundredths");
            }
        }
    }
}

#[test]
fn dqn_and_supervised_training_are_reproducible() {
    let dqn = || {
        let mut config = super::dqn::DqnConfig::new(Structure::NINE, 4);
        config.episodes = 60;
        super::dqn::train(&config, &mut |_| true).unwrap().curve
    };
    assert_eq!(dqn(), dqn());
    let sl = || {
        let mut config = super::sl::SlConfig::new(Structure::NINE, 4);
        config.good = 20;
        config.evaluator_courses = 60;
        config.epochs = 5;
        let t = super::sl::train(&config, &mut |_| true).unwrap();
        let mut rng = studio_core::rng::Rng::new(1);
        let start = super::ddpg::random_start(Structure::NINE, 1, &mut rng);
        let v = t
            .critic
            .values(&start, 1, &[[0.5; 3], [0.1; 3]], &candle_core::Device::Cpu)
            .unwrap();
        (t.curve, v)
    };
    let (a, b) = (sl(), sl());
    assert_eq!(a, b);
    assert_eq!(a.0.len(), 1, "one greedy measurement every 5 epochs");
}

#[test]
fn dagp_is_greedy_when_no_candidate_is_far_enough_and_varies_otherwise() {
    use super::policy::{ActorRl, Filling};
    use studio_ml::rl::{complete, complete_dagp, Dagp};
    let (actor, critic, _) = untrained();
    let gen = ActorRl::new(&actor, Some(&critic));
    let mut rng = studio_core::rng::Rng::new(2);
    let start = super::ddpg::random_start(Structure::NINE, 1, &mut rng);
    let mut greedy = vec![Filling::at(start.clone(), 1)];
    complete(&gen, &mut greedy).unwrap();
    let dagp = |d: f64, seed: u64| {
        let mut states = vec![Filling::at(start.clone(), 1); 4];
        let mut rngs: Vec<_> = (0..4)
            .map(|i| studio_core::rng::Rng::derive(seed, i))
            .collect();
        complete_dagp(&gen, &mut states, Dagp { n: 10, d, p: 1.0 }, &mut rngs).unwrap();
        states
    };
    // No two columns are farther apart than √3.
    assert!(dagp(2.0, 1).iter().all(|s| *s == greedy[0]));
    let far = dagp(0.3, 1);
    assert_eq!(far, dagp(0.3, 1), "seeded");
    assert!(
        far.iter().all(|s| s.columns[0] == start[0]),
        "the first column stays"
    );
    assert!(far.iter().any(|s| *s != greedy[0]));
    assert!(
        far.windows(2).any(|w| w[0] != w[1]),
        "different courses from one start"
    );
    // Without a critic, DAGP says so.
    let blind = ActorRl::new(&actor, None);
    let mut states = vec![Filling::at(start.clone(), 1)];
    let mut rngs = vec![studio_core::rng::Rng::new(1)];
    let err = complete_dagp(
        &blind,
        &mut states,
        Dagp {
            n: 5,
            d: 0.1,
            p: 1.0,
        },
        &mut rngs,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("no critic"), "{err}");
}

#[test]
fn course_model_files_keep_the_critic_and_the_q_network() {
    use super::model::*;
    let dir = tempfile::tempdir().unwrap();
    let mut config = super::ddpg::DdpgConfig::new(Structure::NINE, 0, 5);
    config.episodes = 20;
    let t = super::ddpg::train(&config, &mut |_| true).unwrap();
    let side = |architecture: &str, critic: bool| CourseSidecar {
        architecture: architecture.into(),
        events: 9,
        hidden: super::ddpg::HIDDEN,
        virtual_completions: 0,
        seed: 5,
        episodes: 20,
        train_seconds: 0.0,
        curve: Vec::new(),
        greedy_mean_evaluation: 0.0,
        command: String::new(),
        critic,
        weights: None,
    };
    let with = dir.path().join("with.safetensors");
    save(
        &[&t.varmap, &t.critic_varmap],
        &side(ARCHITECTURE, true),
        &with,
    )
    .unwrap();
    let without = dir.path().join("without.safetensors");
    save(&[&t.varmap], &side(ARCHITECTURE, false), &without).unwrap();
    let mut dq = super::dqn::DqnConfig::new(Structure::NINE, 5);
    dq.episodes = 10;
    let tq = super::dqn::train(&dq, &mut |_| true).unwrap();
    let q = dir.path().join("q.safetensors");
    save(&[&tq.varmap], &side(Q_ARCHITECTURE, false), &q).unwrap();
    let dagp = studio_ml::rl::Dagp {
        n: 8,
        d: 0.2,
        p: 1.0,
    };
    let starts = || {
        let mut rng = studio_core::rng::Rng::new(6);
        (0..3)
            .map(|_| super::ddpg::random_start(Structure::NINE, 1, &mut rng))
            .collect::<Vec<_>>()
    };
    for path in [&with, &q] {
        let m = CourseModel::load(path).unwrap();
        assert!(m.has_values());
        let mut rngs: Vec<_> = (0..3).map(studio_core::rng::Rng::new).collect();
        let done = m.complete(starts(), 1, Some((dagp, &mut rngs))).unwrap();
        assert!(done.iter().all(|c| Course::new(c.clone()).is_ok()));
    }
    let loaded = CourseModel::load(&with).unwrap();
    let before = super::ddpg::complete(&t.actor, starts(), 1, &candle_core::Device::Cpu).unwrap();
    assert_eq!(
        loaded.complete(starts(), 1, None).unwrap(),
        before,
        "same actor"
    );
    let blind = CourseModel::load(&without).unwrap();
    assert!(!blind.has_values());
    let mut rngs: Vec<_> = (0..3).map(studio_core::rng::Rng::new).collect();
    let err = blind
        .complete(starts(), 1, Some((dagp, &mut rngs)))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no critic"), "{err}");
}

#[test]
fn a_parameter_slider_paints_the_two_digits_it_is_stored_in() {
    use studio_core::game::GameView;
    let rows: Vec<String> = ["50607080", "10203040", "00550000"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let strip = CourseGame.parameter_strip(&rows).unwrap();
    let labels: Vec<&str> = strip.events.iter().map(|e| e.label.as_str()).collect();
    assert_eq!(labels, ["Battle 1", "Battle 2", "Battle 3", "Boss"]);
    let battle2 = &strip.events[1];
    assert_eq!(battle2.params.len(), 3);
    assert_eq!(battle2.params[0].value, 0.6);
    assert_eq!(battle2.params[2].shown, "heals 55 HP");
    assert_eq!(strip.events[0].params[2].shown, "no fountain");
    assert_eq!(
        strip.events[3].params.len(),
        2,
        "the boss has no fountain after it"
    );
    // ATK of battle 3 (column 2) lives in row 1, cells 4 and 5.
    assert_eq!(
        strip.events[2].params[1].paint(0.37),
        vec![(4, 1, 3), (5, 1, 7)]
    );
    assert_eq!(
        strip.events[2].params[1].paint(1.5),
        vec![(4, 1, 9), (5, 1, 9)]
    );
    assert!(CourseGame.parameter_strip(&["5x".into()]).is_none());
}

/// Issue 31, D27: a course card shows the evaluation its GOOD / WEAK badge rests on.
#[test]
fn a_course_card_shows_the_evaluation_beside_the_win_rate() {
    use studio_core::game::Game;
    let rows: Vec<String> = ["50607080", "10203040", "00550000"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let course = Course::from_rows(&rows).unwrap();
    let analysis = super::analysis::analysis_of(&course, &super::rules::evaluate(&course));
    let mut level = studio_core::level::Level::bare(crate::ID, "c", rows);
    level.figures = analysis.figures.clone();
    let f = level.figures_of::<CourseFigures>().unwrap().clone();
    let text = CourseGame.card_text(&level, 1.0 - f.win_rate);
    assert_eq!(
        text,
        format!(
            "eval {:.2} · wins {:.0} %",
            f.evaluation,
            f.win_rate * 100.0
        )
    );
    assert_eq!(
        analysis.verdict.pass,
        f.evaluation >= super::analysis::GOOD_EVALUATION
    );
}

#[test]
fn a_course_sidecar_figure_that_is_not_a_number_is_refused_naming_the_file() {
    use super::model::{save, CourseModel};
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("m.safetensors");
    let side = dir.path().join("m.ron");
    std::fs::copy("models/course-ddpg-9.safetensors", &weights).unwrap();
    let text = std::fs::read_to_string("models/course-ddpg-9.ron").unwrap();
    for (field, says) in [
        ("greedy_mean_evaluation: ", "greedy_mean_evaluation NaN"),
        ("curve: [", "curve holds NaN at position 1"),
    ] {
        let at = text.find(field).unwrap() + field.len();
        let end = at + text[at..].find([',', ']']).unwrap();
        std::fs::write(&side, format!("{}NaN{}", &text[..at], &text[end..])).unwrap();
        let err = CourseModel::load(&weights).err().unwrap().to_string();
        assert!(err.contains("m.ron") && err.contains(says), "{err}");
    }
    // Saving refuses such a sidecar and writes nothing.
    std::fs::write(&side, &text).unwrap();
    let mut sidecar = CourseModel::load(&weights).unwrap().sidecar;
    sidecar.train_seconds = f64::NAN;
    let out = dir.path().join("diverged.safetensors");
    let err = save(&[], &sidecar, &out).unwrap_err().to_string();
    assert!(err.contains("train_seconds NaN"), "{err}");
    assert!(!out.exists());
}

/// The weights and curve of a short DDPG (`vs` 0) or VS-DDPG training, as one fingerprint.
fn ddpg_fingerprint(vs: usize) -> u64 {
    use super::ddpg::*;
    let mut config = DdpgConfig::new(Structure::NINE, vs, 11);
    config.episodes = 40;
    config.batch = 8;
    let t = train(&config, &mut |_| true).unwrap();
    let mut digest = studio_ml::weights_digest(&t.varmap).unwrap()
        ^ studio_ml::weights_digest(&t.critic_varmap)
            .unwrap()
            .rotate_left(1);
    for v in &t.curve {
        digest = digest.rotate_left(7) ^ v.to_bits();
    }
    digest
}

/// The shared actor-critic loop trains exactly as the course's own loop did: these are the
/// fingerprints of that loop's weights, recorded before it moved. Bit-exact float results can
/// change with the CPU's vector units, so this runs on demand
/// (`cargo test --release -p course -- --ignored fingerprint`), after any change to the loop.
#[test]
#[ignore = "bit-exact weights: run on demand after touching the actor-critic loop"]
fn ddpg_training_fingerprints_are_unchanged() {
    let got = (
        ddpg_fingerprint(0),
        ddpg_fingerprint(super::ddpg::VIRTUAL_COMPLETIONS),
    );
    println!("ddpg fingerprints {got:#x?}");
    assert_eq!(got, (0xd6bc_bf22_9e27_9320, 0x03f6_cc4d_6305_18bd));
}

#[test]
fn a_failed_job_tells_missing_weights_from_a_bad_request() {
    use studio_core::game::{Conditions, GenRequest, ModelCache, ModelError};
    use studio_core::generation::{run, RequestError};
    use studio_core::jobs::{Cancel, JobError};
    use studio_ml::WeightsError;
    let dir = tempfile::tempdir().unwrap();
    let mut request = GenRequest {
        game: crate::ID,
        generator: "ddpg",
        conditions: Conditions::default(),
        count: 1,
        seed: 0,
        validated_only: false,
        weights: Some(dir.path().join("none.safetensors")),
    };
    let models = ModelCache::new(dir.path());
    let failed = |r: &GenRequest| -> JobError {
        run(r, &models, &Cancel::default(), &mut |_, _| {}, &mut |_| {}).unwrap_err()
    };
    let missing = failed(&request);
    let weights = missing
        .downcast_ref::<ModelError>()
        .and_then(|e| e.downcast_ref::<WeightsError>());
    assert!(weights.is_some_and(WeightsError::is_missing), "{missing}");
    assert!(!missing.source_is::<RequestError>(), "{missing}");
    request.count = 0;
    let bad = failed(&request);
    assert!(bad.source_is::<RequestError>(), "{bad}");
    assert_eq!(bad.to_string(), "count must be at least 1");
}
