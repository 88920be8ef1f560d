//! Shipped weights load and generate; bad weight files and bad conditions give typed errors.

use level_studio::files::load_pack;
use level_studio::match3::cvae::generator::sidecar_path;
use level_studio::match3::cvae::{
    generate_validated, generate_validated_pooled, Condition, CvaeModel, Feasibility, ModelError,
    ModelKind, ValidatedRequest,
};
use level_studio::symmetry::Symmetry;
use std::path::{Path, PathBuf};

const SHIPPED: [(&str, ModelKind); 6] = [
    ("avalon-paperlike", ModelKind::Avalon),
    ("vanilla-paperlike", ModelKind::Vanilla),
    ("avalon-main", ModelKind::Avalon),
    ("vanilla-main", ModelKind::Vanilla),
    ("avalon-stylized", ModelKind::Avalon),
    ("vanilla-stylized", ModelKind::Vanilla),
];

fn weights(name: &str) -> PathBuf {
    PathBuf::from(format!("models/{name}.safetensors"))
}

/// Copies a shipped model (weights + sidecar) into `dir` under `name`.
fn copy_model(from: &str, dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(format!("{name}.safetensors"));
    std::fs::copy(weights(from), &to).unwrap();
    std::fs::copy(sidecar_path(&weights(from)), sidecar_path(&to)).unwrap();
    to
}

#[test]
fn the_shipped_weights_load_and_generate() {
    for (name, kind) in SHIPPED {
        let g = CvaeModel::load(&weights(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(g.kind(), kind);
        let c = Condition::new(7, 9, Symmetry::Quadrant, kind.uses_moves().then_some(16.0));
        let levels = g.generate(&c, 4, 1).unwrap();
        assert_eq!(levels.len(), 4);
        assert!(
            levels.iter().all(|l| l.symmetry() == Symmetry::Quadrant),
            "{name}"
        );
        assert_eq!(
            levels,
            g.generate(&c, 4, 1).unwrap(),
            "{name}: same seed, same levels"
        );
    }
}

#[test]
fn a_generator_can_be_shared_with_worker_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<CvaeModel>();
}

#[test]
fn encode_and_interpolate() {
    let g = CvaeModel::load(&weights("avalon-main")).unwrap();
    let pack = load_pack(Path::new("levels/match3/main/test.ron")).unwrap();
    let (a, b) = (&pack.levels[0], &pack.levels[7]);
    assert_eq!(g.encode(a).unwrap().len(), 5);
    let walk = g.interpolate(a, b, 4).unwrap();
    assert_eq!(walk.between.len(), 4);
    assert_eq!(walk.conditions.len(), 4);
}

#[test]
fn bad_weight_files_give_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.safetensors");
    assert!(matches!(
        CvaeModel::load(&missing),
        Err(ModelError::MissingWeights { .. })
    ));

    let truncated = copy_model("avalon-main", dir.path(), "truncated");
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    assert!(matches!(
        CvaeModel::load(&truncated),
        Err(ModelError::CorruptWeights { .. })
    ));

    let no_sidecar = copy_model("avalon-main", dir.path(), "lonely");
    std::fs::remove_file(sidecar_path(&no_sidecar)).unwrap();
    assert!(matches!(
        CvaeModel::load(&no_sidecar),
        Err(ModelError::MissingSidecar { .. })
    ));

    // Avalon weights beside a Vanilla sidecar: the sidecar's stamp is of other weights.
    let mixed = copy_model("avalon-main", dir.path(), "mixed");
    std::fs::copy(sidecar_path(&weights("vanilla-main")), sidecar_path(&mixed)).unwrap();
    assert!(matches!(
        CvaeModel::load(&mixed),
        Err(ModelError::CorruptWeights { .. })
    ));
    // ... and once restamped (the designer vouches for them), the encoder's first layer
    // mismatches the Vanilla architecture.
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_level-studio"))
        .args(["train", "--model", "vanilla", "--restamp", "--out"])
        .arg(&mixed)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(matches!(
        CvaeModel::load(&mixed),
        Err(ModelError::ShapeMismatch { .. })
    ));

    // A sidecar of another architecture (a 16-d latent).
    let other = copy_model("avalon-main", dir.path(), "other");
    let text = std::fs::read_to_string(sidecar_path(&other))
        .unwrap()
        .replacen("latent: 5", "latent: 16", 1);
    std::fs::write(sidecar_path(&other), text).unwrap();
    assert!(matches!(
        CvaeModel::load(&other),
        Err(ModelError::WrongArchitecture { .. })
    ));

    let garbled = copy_model("avalon-main", dir.path(), "garbled");
    std::fs::write(sidecar_path(&garbled), "(format: ").unwrap();
    assert!(matches!(
        CvaeModel::load(&garbled),
        Err(ModelError::CorruptSidecar { .. })
    ));
}

#[test]
fn bad_conditions_give_typed_errors_and_infeasible_ones_a_nearest() {
    let g = CvaeModel::load(&weights("avalon-main")).unwrap();
    let err = |c: Condition| g.generate(&c, 1, 0).unwrap_err();
    assert!(matches!(
        err(Condition::new(3, 9, Symmetry::None, Some(15.0))),
        ModelError::SizeOutOfRange { .. }
    ));
    assert!(matches!(
        err(Condition::new(9, 12, Symmetry::None, Some(15.0))),
        ModelError::SizeOutOfRange { .. }
    ));
    assert!(matches!(
        err(Condition::new(7, 9, Symmetry::None, Some(0.0))),
        ModelError::MovesOutOfRange { .. }
    ));
    assert!(matches!(
        err(Condition::new(7, 9, Symmetry::None, Some(41.0))),
        ModelError::MovesOutOfRange { .. }
    ));
    assert!(matches!(
        err(Condition::new(7, 9, Symmetry::None, None)),
        ModelError::MovesRequired { .. }
    ));
    // The paper's example: 4x4 in 10 moves. No 4x4 training level is valid, so nothing at
    // 4x4 is suggested; the suggestion is a size whose training levels are valid.
    match g.feasibility(&Condition::new(4, 4, Symmetry::Vertical, Some(10.0))) {
        Feasibility::Infeasible {
            reason,
            nearest_same_size,
            nearest_same_moves: Some(c),
        } => {
            assert!(reason.contains("4x4 never gives a valid level"), "{reason}");
            assert!(nearest_same_size.is_none());
            assert_ne!((c.width, c.height), (4, 4));
            assert_eq!(
                g.feasibility(&c),
                Feasibility::Feasible,
                "the suggestion is feasible"
            );
            assert!(c.moves.unwrap() <= 20.0);
        }
        other => panic!("4x4 in 10 moves reported {other:?}"),
    }
    // Too few moves for a size that can be valid: the same size at its fewest valid moves.
    match g.feasibility(&Condition::new(7, 9, Symmetry::Vertical, Some(3.0))) {
        Feasibility::Infeasible {
            nearest_same_size: Some(s),
            ..
        } => {
            assert_eq!((s.width, s.height), (7, 9));
            assert_eq!(g.feasibility(&s), Feasibility::Feasible);
        }
        other => panic!("7x9 in 3 moves reported {other:?}"),
    }
    assert_eq!(
        g.feasibility(&Condition::new(9, 11, Symmetry::Vertical, Some(20.0))),
        Feasibility::Feasible
    );
}

#[test]
fn validated_generation_keeps_valid_levels_near_the_moves() {
    let g = CvaeModel::load(&weights("avalon-main")).unwrap();
    let request = ValidatedRequest {
        budget: 128,
        ..ValidatedRequest::new(Condition::new(9, 10, Symmetry::Vertical, Some(17.0)), 2, 3)
    };
    let report = generate_validated(&g, &request, None).unwrap();
    assert!(report.attempts <= 128);
    for a in &report.accepted {
        assert!(
            a.validation.valid && (a.validation.median_moves - 17.0).abs() <= request.tolerance
        );
    }
    assert!(
        !report.accepted.is_empty(),
        "no valid 9x10 level in 128 attempts"
    );
    // The margin is there so that a fresh validation (a bot seed the generation never
    // used) still finds the accepted levels valid and near the moves.
    let fresh = level_studio::match3::ValidationConfig {
        seed: 4242,
        ..Default::default()
    };
    for a in &report.accepted {
        let v = level_studio::match3::validate(&a.layout, &fresh).unwrap();
        assert!(
            v.valid && (v.median_moves - 17.0).abs() <= request.tolerance,
            "{v:?}"
        );
    }
}

#[test]
fn validated_generation_refuses_moves_too_near_the_limit_to_promise() {
    let g = CvaeModel::load(&weights("avalon-main")).unwrap();
    let request =
        ValidatedRequest::new(Condition::new(9, 10, Symmetry::Vertical, Some(19.6)), 1, 0);
    let err = generate_validated(&g, &request, None).unwrap_err();
    assert!(matches!(err, ModelError::BeyondMargin { .. }), "{err}");
    assert!(err.to_string().contains("at most 19.5 moves"), "{err}");
    // 19.5 itself can be asked for.
    let ok = ValidatedRequest {
        budget: 16,
        ..ValidatedRequest::new(Condition::new(9, 10, Symmetry::Vertical, Some(19.5)), 1, 0)
    };
    assert!(generate_validated(&g, &ok, None).is_ok());
}

#[test]
fn validated_generation_refuses_what_no_layout_of_the_size_can_take() {
    let g = CvaeModel::load(&weights("avalon-main")).unwrap();
    // 8x6's easiest layout takes 20 moves: nothing of that size can be promised.
    let edge = ValidatedRequest::new(Condition::new(8, 6, Symmetry::Vertical, Some(18.0)), 1, 0);
    let err = generate_validated(&g, &edge, None).unwrap_err();
    assert!(
        matches!(err, ModelError::BelowEasiest { least: None, .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("pick a larger board (8x7 can be)"),
        "{err}"
    );
    // 9x10's takes 13: 10 moves is refused with the fewest that can be asked for, which
    // is accepted.
    let low = ValidatedRequest::new(Condition::new(9, 10, Symmetry::Vertical, Some(10.0)), 1, 0);
    let err = generate_validated(&g, &low, None).unwrap_err();
    assert!(
        matches!(err, ModelError::BelowEasiest { least: Some(m), .. } if m == 12.0),
        "{err}"
    );
    assert!(err.to_string().contains("at least 12 moves"), "{err}");
    let least = ValidatedRequest {
        budget: 16,
        ..ValidatedRequest::new(Condition::new(9, 10, Symmetry::Vertical, Some(12.0)), 1, 0)
    };
    assert!(least.check_promise(true).is_ok());
    // The vanilla model has no moves: only the size is refused.
    let vanilla = CvaeModel::load(&weights("vanilla-main")).unwrap();
    let any = ValidatedRequest::new(Condition::new(6, 7, Symmetry::Vertical, None), 1, 0);
    let err = generate_validated(&vanilla, &any, None).unwrap_err();
    assert!(err.to_string().contains("as valid"), "{err}");
}

#[test]
fn a_pool_never_hands_out_a_level_twice() {
    let g = CvaeModel::load(&weights("avalon-main")).unwrap();
    let request = ValidatedRequest {
        budget: 128,
        ..ValidatedRequest::new(Condition::new(9, 11, Symmetry::Vertical, Some(14.0)), 2, 1)
    };
    let mut pool = level_studio::match3::cvae::CandidatePool::default();
    let first = generate_validated_pooled(&g, &request, &mut pool, None).unwrap();
    let again = generate_validated_pooled(&g, &request, &mut pool, None).unwrap();
    assert!(!first.accepted.is_empty() && !again.accepted.is_empty());
    for a in &again.accepted {
        assert!(
            first.accepted.iter().all(|f| f.layout != a.layout),
            "the same seed handed out a level twice"
        );
    }
    for a in first.accepted.iter().chain(&again.accepted) {
        assert!(
            !g.is_training_level(&a.layout),
            "a training level was handed out"
        );
    }
    // Without the pool the same seed gives the first request's levels again.
    let fresh = generate_validated(&g, &request, None).unwrap();
    assert_eq!(fresh.accepted[0].layout, first.accepted[0].layout);
}

#[test]
fn distinct_generation_fills_the_count_with_different_levels() {
    let g = CvaeModel::load(&weights("avalon-main")).unwrap();
    let c = Condition::new(7, 9, Symmetry::Vertical, Some(15.0));
    let plain = g.generate(&c, 24, 5).unwrap();
    let mut plain_distinct: Vec<_> = Vec::new();
    for l in &plain {
        if !plain_distinct.contains(l) {
            plain_distinct.push(l.clone());
        }
    }
    assert!(plain_distinct.len() < 24, "the plain batch already differs");
    let (levels, attempts) = g.generate_distinct(&c, 24, 5, 1000).unwrap();
    assert_eq!(levels.len(), 24);
    let set: std::collections::HashSet<_> = levels.iter().collect();
    assert_eq!(set.len(), 24, "all different");
    assert!(attempts > 24 && attempts <= 1000);
    assert_eq!(
        &levels[..plain_distinct.len()],
        &plain_distinct[..],
        "first round first"
    );
    assert_eq!(
        g.generate_distinct(&c, 24, 5, 1000).unwrap(),
        (levels, attempts),
        "same seed, same levels"
    );
    // 4x4 with quadrant symmetry allows only a handful of layouts: the budget ends it.
    let tiny = Condition::new(4, 4, Symmetry::Quadrant, Some(15.0));
    let (few, tried) = g.generate_distinct(&tiny, 16, 1, 300).unwrap();
    assert!(few.len() < 16 && !few.is_empty());
    assert_eq!(tried, 300);
}
