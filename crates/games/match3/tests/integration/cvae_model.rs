//! The cVAE network: shapes, the masked loss, mirroring, save/load, a few training steps.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
}

use candle_core::{DType, Device, Tensor};
use candle_nn::{VarBuilder, VarMap};
use match3::cvae::arch::{loss, Cvae, CLASSES};
use match3::cvae::encoding::{encoder_batch, kept_cells, layouts_from_logits};
use match3::cvae::generator::{save, snapshot};
use match3::cvae::train::initial_sidecar;
use match3::cvae::{
    Condition, CvaeModel, CvaeProgress, CvaeTrainConfig, ModelKind, Sample, TrainingSet,
};
use match3::layout::{area_origin, Cell, CANVAS_CELLS, CANVAS_HEIGHT, CANVAS_WIDTH};
use match3::Match3Level;
use std::path::Path;
use studio_core::files::load_pack;
use studio_core::rng::Rng;
use studio_core::symmetry::Symmetry;
use studio_ml::seeded_init;

fn tiny_set(n: usize) -> TrainingSet {
    let pack = load_pack(Path::new("levels/match3/paper/train.ron")).unwrap();
    let samples = pack
        .levels
        .iter()
        .take(n)
        .map(|l| Sample::from_level(l, None).unwrap())
        .collect();
    TrainingSet {
        dir: "levels/match3/paper".into(),
        samples,
        hash: "test".into(),
    }
}

fn model(kind: ModelKind, seed: u64) -> (VarMap, Cvae) {
    let varmap = VarMap::new();
    let cvae = Cvae::new(
        kind,
        VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu),
    )
    .unwrap();
    seeded_init(&varmap, seed).unwrap();
    (varmap, cvae)
}

#[test]
fn forward_shapes() {
    for kind in [ModelKind::Avalon, ModelKind::Vanilla] {
        let (_, cvae) = model(kind, 1);
        let x = Tensor::zeros(
            (2, kind.encoder_channels(), CANVAS_HEIGHT, CANVAS_WIDTH),
            DType::F32,
            &Device::Cpu,
        )
        .unwrap();
        let (mu, logvar) = cvae.encode(&x).unwrap();
        assert_eq!(mu.dims(), &[2, 5]);
        assert_eq!(logvar.dims(), &[2, 5]);
        let cond = Tensor::zeros((2, kind.decoder_inputs() - 5), DType::F32, &Device::Cpu).unwrap();
        let eps = Tensor::zeros((2, 5), DType::F32, &Device::Cpu).unwrap();
        let (logits, _, _) = cvae.forward(&x, &cond, &eps).unwrap();
        assert_eq!(logits.dims(), &[2, CLASSES, CANVAS_HEIGHT, CANVAS_WIDTH]);
    }
    assert_eq!(ModelKind::Avalon.encoder_channels(), 5);
    assert_eq!(ModelKind::Vanilla.decoder_inputs(), 5 + 6 + 8);
}

#[test]
fn the_loss_ignores_masked_cells() {
    let set = tiny_set(4);
    let refs: Vec<&Sample> = set.samples.iter().collect();
    let (_, target, mask) =
        encoder_batch(ModelKind::Avalon, &refs, &set.move_range(), &Device::Cpu).unwrap();
    let mask_values = mask.flatten_all().unwrap().to_vec1::<f32>().unwrap();
    let mut rng = Rng::new(3);
    let base: Vec<f32> = (0..4 * CLASSES * CANVAS_CELLS)
        .map(|_| rng.normal() as f32)
        .collect();
    let zeros = Tensor::zeros((4, 5), DType::F32, &Device::Cpu).unwrap();
    let total = |logits: &[f32]| {
        let t = Tensor::from_slice(
            logits,
            (4, CLASSES, CANVAS_HEIGHT, CANVAS_WIDTH),
            &Device::Cpu,
        )
        .unwrap();
        loss(&t, &target, &mask, &zeros, &zeros)
            .unwrap()
            .total
            .to_scalar::<f32>()
            .unwrap()
    };
    let (mut outside, mut inside) = (base.clone(), base.clone());
    let masked = mask_values.iter().position(|&m| m == 0.0).unwrap();
    let kept = mask_values.iter().position(|&m| m == 1.0).unwrap();
    let (i, c) = (masked / CANVAS_CELLS, masked % CANVAS_CELLS);
    for class in 0..CLASSES {
        outside[(i * CLASSES + class) * CANVAS_CELLS + c] += 5.0 * class as f32 - 3.0;
    }
    let (i, c) = (kept / CANVAS_CELLS, kept % CANVAS_CELLS);
    inside[(i * CLASSES) * CANVAS_CELLS + c] += 4.0;
    assert_eq!(
        total(&base),
        total(&outside),
        "a masked cell changed the loss"
    );
    assert_ne!(
        total(&base),
        total(&inside),
        "a kept cell did not change the loss"
    );
    // The mask is the symmetry mask inside the play area: a vertical 5x6 level keeps 3x6 cells.
    let kept = kept_cells(5, 6, Symmetry::Vertical);
    assert_eq!(kept.iter().filter(|&&k| k).count(), 18);
    let (x0, y0) = area_origin(5, 6);
    assert!(kept[y0 * CANVAS_WIDTH + x0 + 2] && !kept[y0 * CANVAS_WIDTH + x0 + 3]);
}

#[test]
fn generation_mirrors_exactly_and_keeps_outside_blocked() {
    let mut rng = Rng::new(9);
    for (w, h) in [(4, 4), (5, 7), (9, 11), (6, 5)] {
        for symmetry in Symmetry::ALL {
            let logits: Vec<f32> = (0..CLASSES * CANVAS_CELLS)
                .map(|_| rng.normal() as f32)
                .collect();
            let layout =
                &layouts_from_logits(&logits, &[Condition::new(w, h, symmetry, None)]).unwrap()[0];
            let area = layout.area_cells();
            let (x0, y0) = area_origin(w, h);
            for (x, y, cell) in layout.canvas().iter() {
                let inside = (x0..x0 + w).contains(&x) && (y0..y0 + h).contains(&y);
                assert!(
                    inside || cell == Cell::Block,
                    "{w}x{h} {symmetry}: outside cell not BLOCK"
                );
            }
            let (aw, ah) = (area.width(), area.height());
            for (x, y, cell) in area.iter() {
                if symmetry.mirrors_left_right() {
                    assert_eq!(
                        cell,
                        area.get(aw - 1 - x, y),
                        "{w}x{h} {symmetry}\n{layout:?}"
                    );
                }
                if symmetry.mirrors_top_bottom() {
                    assert_eq!(
                        cell,
                        area.get(x, ah - 1 - y),
                        "{w}x{h} {symmetry}\n{layout:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn save_and_load_reproduce_outputs_bit_for_bit() {
    let set = tiny_set(8);
    let config = CvaeTrainConfig::new(ModelKind::Avalon, 5);
    let (varmap, _) = model(ModelKind::Avalon, 5);
    let sidecar = initial_sidecar(&config, &set);
    let live = CvaeModel::from_varmap(&varmap, sidecar.clone(), &Device::Cpu).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.safetensors");
    save(&snapshot(&varmap).unwrap(), &sidecar, &path).unwrap();
    let loaded = CvaeModel::load(&path).unwrap();
    // What was saved, plus the stamp of the weights written beside it.
    let stamp = studio_ml::WeightsStamp::of(&std::fs::read(&path).unwrap());
    assert_eq!(loaded.sidecar().weights.as_ref(), Some(&stamp));
    let mut unstamped = loaded.sidecar().clone();
    unstamped.weights = None;
    assert_eq!(unstamped, sidecar);
    let pack = load_pack(Path::new("levels/match3/paper/train.ron")).unwrap();
    let za = live.encode(&pack.levels[0]).unwrap();
    let zb = loaded.encode(&pack.levels[0]).unwrap();
    assert_eq!(
        za.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        zb.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
    );
    let c = Condition::new(7, 9, Symmetry::Vertical, Some(15.0));
    assert_eq!(
        live.generate(&c, 8, 1).unwrap(),
        loaded.generate(&c, 8, 1).unwrap()
    );
}

#[test]
fn a_few_training_steps_lower_the_loss_and_training_is_seeded() {
    let set = tiny_set(32);
    let config = CvaeTrainConfig {
        epochs: 12,
        batch_size: 16,
        select: false,
        ..CvaeTrainConfig::new(ModelKind::Avalon, 2)
    };
    let run = || {
        let mut losses = Vec::new();
        let trained = match3::cvae::train(&config, &set, |p| {
            if let CvaeProgress::Epoch { loss, .. } = p {
                losses.push(loss)
            }
        })
        .unwrap();
        (losses, trained)
    };
    let (losses, a) = run();
    assert!(losses.last().unwrap() < &(losses[0] * 0.8), "{losses:?}");
    let (again, b) = run();
    assert_eq!(losses, again, "same seed, same losses");
    let bits = |t: &match3::cvae::Trained| {
        t.tensors["dec3.weight"]
            .flatten_all()
            .unwrap()
            .to_vec1::<f32>()
            .unwrap()
    };
    assert_eq!(bits(&a), bits(&b));
}

#[test]
fn free_bits_keep_the_latent_from_collapsing() {
    let set = tiny_set(32);
    let last_kl = |free_bits: f64| {
        let config = CvaeTrainConfig {
            epochs: 12,
            batch_size: 16,
            select: false,
            kl_weight: 4.0,
            free_bits,
            ..CvaeTrainConfig::new(ModelKind::Avalon, 2)
        };
        let mut kl = Vec::new();
        let trained = match3::cvae::train(&config, &set, |p| {
            if let CvaeProgress::Epoch { kl: k, .. } = p {
                kl.push(k)
            }
        })
        .unwrap();
        assert_eq!(trained.sidecar.training.free_bits, free_bits);
        *kl.last().unwrap()
    };
    let (plain, free) = (last_kl(0.0), last_kl(1.0));
    assert!(
        free > 2.0 * plain,
        "KL {free} with free bits, {plain} without"
    );
}

#[test]
fn the_fast_cpu_decoder_matches_candle() {
    let set = tiny_set(4);
    for kind in [ModelKind::Avalon, ModelKind::Vanilla] {
        let (varmap, _) = model(kind, 11);
        let g = CvaeModel::from_varmap(
            &varmap,
            initial_sidecar(&CvaeTrainConfig::new(kind, 11), &set),
            &Device::Cpu,
        )
        .unwrap();
        let fast =
            match3::cvae::fast::FastDecoder::new(model_decoder(&varmap, kind).decoder()).unwrap();
        let mut rng = Rng::new(4);
        let n = 6;
        let z_hat: Vec<f32> = (0..n * kind.decoder_inputs())
            .map(|_| rng.normal() as f32)
            .collect();
        let a = g.logits_candle(&z_hat, n).unwrap();
        let b = fast.decode(&z_hat, n);
        let worst = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0f32, f32::max);
        assert!(worst < 1e-4, "{kind}: fast decoder differs by {worst}");
    }
}

fn model_decoder(varmap: &VarMap, kind: ModelKind) -> Cvae {
    Cvae::new(
        kind,
        VarBuilder::from_varmap(varmap, DType::F32, &Device::Cpu),
    )
    .unwrap()
}

/// Logits that want PLAYFIELD everywhere, with margins that grow cell by cell, so the
/// cheapest change is known.
fn open_logits(margin_of: impl Fn(usize) -> f32) -> Vec<f32> {
    let mut logits = vec![0f32; CLASSES * CANVAS_CELLS];
    for cell in 0..CANVAS_CELLS {
        logits[2 * CANVAS_CELLS + cell] = margin_of(cell);
    }
    logits
}

#[test]
fn the_novel_layout_is_the_cheapest_change_that_keeps_the_size() {
    use match3::cvae::encoding::novel_layout_from_logits;
    let condition = Condition::new(6, 6, Symmetry::Vertical, None);
    // Every cell wants PLAYFIELD; the first cell of the play area costs least to change.
    let logits = open_logits(|cell| 1.0 + cell as f32 / 10.0);
    let open = layouts_from_logits(&logits, &[condition]).unwrap()[0].clone();
    assert_eq!(open.counts()[2], 36, "argmax is the open 6x6");
    let novel = novel_layout_from_logits(&logits, 0, &condition, |l| *l == open)
        .expect("a novel 6x6 exists");
    assert_ne!(novel, open);
    assert_eq!(novel.size(), (6, 6));
    assert_eq!(novel.symmetry(), Symmetry::Vertical);
    // One kept cell changed (two cells with its mirror image), to GAP or BLOCK at the
    // corner the logits make cheapest: the top-left cell of the area and its mirror.
    assert_eq!(novel.counts()[2], 34);
    let (x0, y0) = area_origin(6, 6);
    assert_ne!(novel.get(x0, y0), Cell::Playfield);
    assert_ne!(novel.get(x0 + 5, y0), Cell::Playfield);
    // Ruling out that layout too moves to the next cheapest one.
    let next = novel_layout_from_logits(&logits, 0, &condition, |l| *l == open || *l == novel)
        .expect("another novel 6x6 exists");
    assert!(next != novel && next != open && next.size() == (6, 6));
    // When every nearby layout is known there is no answer rather than a copy.
    assert!(novel_layout_from_logits(&logits, 0, &condition, |_| true).is_none());
}

#[test]
fn a_short_draw_is_pushed_to_the_fresh_distance_by_the_cheapest_cells() {
    use match3::cvae::encoding::pushed_layout_from_logits;
    use match3::cvae::metrics::canvas_distance;
    let condition = Condition::new(6, 6, Symmetry::Vertical, None);
    let logits = open_logits(|cell| 1.0 + cell as f32 / 10.0);
    let open = layouts_from_logits(&logits, &[condition]).unwrap()[0].clone();
    // Kept cells of the 6x6 vertical mask: 3 wide, 6 high, all PLAYFIELD (class 2).
    let start = vec![2; 18];
    let distance = |l: &match3::Layout| Some(canvas_distance(l, &open));
    let pushed = pushed_layout_from_logits(&logits, 0, &condition, &start, 3, 6, distance)
        .expect("a 6x6 three cells from the open one exists");
    assert_eq!(pushed.size(), (6, 6));
    assert_eq!(pushed.symmetry(), Symmetry::Vertical);
    // Mirrored kept cells change two canvas cells each: two changes, four cells.
    assert_eq!(canvas_distance(&pushed, &open), 4);
    // Already far enough: the start is kept as it is.
    let far = |_: &match3::Layout| Some(5);
    let kept = pushed_layout_from_logits(&logits, 0, &condition, &start, 3, 6, far).unwrap();
    assert_eq!(kept, open);
    // No change allowed and not far enough: no answer rather than a near copy.
    assert!(pushed_layout_from_logits(&logits, 0, &condition, &start, 3, 0, distance).is_none());
}

#[test]
fn shipped_avalon_never_hands_out_a_training_level() {
    let avalon = CvaeModel::load(Path::new("models/avalon-main.safetensors")).unwrap();
    let pack = load_pack(Path::new("levels/match3/main/train.ron")).unwrap();
    let training: std::collections::HashSet<_> =
        pack.levels.iter().map(|l| l.layout().unwrap()).collect();
    // The small sizes, where the raw decoder lands on the open rectangle most often.
    let mut copies_raw = 0;
    for (w, h) in [(4, 4), (5, 4), (4, 5), (5, 5), (6, 4)] {
        for symmetry in Symmetry::MIRRORED {
            let want = vec![Condition::new(w, h, symmetry, Some(15.0)); 16];
            let raw = avalon.generate_each_with(&want, 3, false).unwrap();
            copies_raw += raw.iter().filter(|l| training.contains(*l)).count();
            let novel = avalon.generate_each(&want, 3).unwrap();
            for (l, r) in novel.iter().zip(&raw) {
                assert!(!training.contains(l), "{w}x{h} {symmetry}: a copy\n{l:?}");
                assert_eq!(l.size(), (w, h));
                assert!(
                    avalon.is_training_level(r) || l == r,
                    "a novel level was changed"
                );
            }
        }
    }
    assert!(copies_raw > 0, "the check saw no copies to replace");
}

#[test]
fn per_cell_sampling_keeps_size_symmetry_and_novelty_and_repeats_with_its_seed() {
    use match3::cvae::Decoding;
    let avalon = CvaeModel::load(Path::new("models/avalon-main.safetensors")).unwrap();
    let mut want = Vec::new();
    for (w, h) in [(4, 4), (6, 5), (7, 9), (9, 11)] {
        for symmetry in Symmetry::MIRRORED {
            want.extend(std::iter::repeat_n(
                Condition::new(w, h, symmetry, Some(16.0)),
                8,
            ));
        }
    }
    let hot = Decoding::Sampled { temperature: 2.0 };
    let a = avalon.generate_each_decoded(&want, 11, hot).unwrap();
    assert_eq!(a, avalon.generate_each_decoded(&want, 11, hot).unwrap());
    assert_ne!(a, avalon.generate_each_decoded(&want, 12, hot).unwrap());
    for (l, c) in a.iter().zip(&want) {
        assert!(!avalon.is_training_level(l), "a copy of a training level");
        // Mirrored cells follow their kept cell: the play area has the asked symmetry.
        let holds = match c.symmetry {
            Symmetry::Vertical => [Symmetry::Vertical, Symmetry::Quadrant].contains(&l.symmetry()),
            Symmetry::Horizontal => {
                [Symmetry::Horizontal, Symmetry::Quadrant].contains(&l.symmetry())
            }
            _ => l.symmetry() == Symmetry::Quadrant,
        };
        assert!(holds, "{c:?}: {:?}", l.symmetry());
    }
    // A hot draw differs from the argmax more often than a cold one; near zero it is the argmax.
    let argmax = avalon.generate_each(&want, 11).unwrap();
    let differ = |t: f32| {
        let s = avalon
            .generate_each_decoded(&want, 11, Decoding::Sampled { temperature: t })
            .unwrap();
        s.iter().zip(&argmax).filter(|(x, y)| x != y).count()
    };
    assert_eq!(differ(1e-4), 0);
    assert!(
        differ(3.0) > differ(0.5),
        "{} vs {}",
        differ(3.0),
        differ(0.5)
    );
}

#[test]
fn fresh_levels_keep_their_distance_from_every_training_layout() {
    use match3::cvae::metrics::nearest_training_distances;
    use match3::cvae::Decoding;
    let avalon = CvaeModel::load(Path::new("models/avalon-main.safetensors")).unwrap();
    let training = TrainingSet::load(Path::new("levels/match3/main"))
        .unwrap()
        .layouts();
    let fresh = Decoding::Fresh {
        min_distance: 3,
        temperature: 1.0,
    };
    let mut want = Vec::new();
    for (w, h) in [(4, 4), (5, 6), (7, 9), (9, 11)] {
        for symmetry in Symmetry::MIRRORED {
            want.extend(std::iter::repeat_n(
                Condition::new(w, h, symmetry, Some(16.0)),
                6,
            ));
        }
    }
    let a = avalon.generate_each_decoded(&want, 5, fresh).unwrap();
    assert_eq!(a, avalon.generate_each_decoded(&want, 5, fresh).unwrap());
    let distances = nearest_training_distances(&a, &training);
    let far = distances
        .iter()
        .filter(|d| d.is_none_or(|d| d >= 3))
        .count();
    // Best effort per level (the farthest draw when none gets there): at 4×4 few draws
    // get there, at 9×11 nearly all.
    assert!(far * 2 > a.len(), "{far} of {} at 3 cells", a.len());
    for (l, c) in a.iter().zip(&want) {
        assert_eq!(l.size(), (c.width, c.height));
        assert!(!avalon.is_training_level(l));
    }
    let argmax = avalon.generate_each(&want, 5).unwrap();
    let argmax_far = nearest_training_distances(&argmax, &training)
        .iter()
        .filter(|d| d.is_none_or(|d| d >= 3))
        .count();
    assert!(far > argmax_far, "{far} fresh vs {argmax_far} argmax");
    // What the designer gets (distinct levels) holds the promise for every level.
    let seven = Condition::new(7, 9, Symmetry::Vertical, Some(17.0));
    let (levels, _) = avalon
        .generate_distinct_decoded(&seven, 8, 2, 200, fresh)
        .unwrap();
    assert_eq!(levels.len(), 8);
    for (l, d) in levels
        .iter()
        .zip(nearest_training_distances(&levels, &training))
    {
        assert!(d.is_none_or(|d| d >= 3), "{d:?}");
        assert_eq!(avalon.training_distance(l).unwrap(), d);
        assert!(avalon.is_new(l, fresh).unwrap());
    }
}

#[test]
fn fresh_levels_need_the_training_layouts_the_model_saw() {
    use match3::cvae::{Decoding, ModelError};
    let dir = tempfile::tempdir().unwrap();
    let copy = |data: &str| {
        let weights = dir.path().join("m.safetensors");
        std::fs::copy("models/avalon-main.safetensors", &weights).unwrap();
        let side = std::fs::read_to_string("models/avalon-main.ron").unwrap();
        assert!(side.contains("data: \"levels/match3/main\""));
        let side = side.replace("data: \"levels/match3/main\"", &format!("data: {data:?}"));
        std::fs::write(dir.path().join("m.ron"), side).unwrap();
        CvaeModel::load(&weights).unwrap()
    };
    let fresh = Decoding::Fresh {
        min_distance: 4,
        temperature: 1.0,
    };
    let want = [Condition::new(6, 6, Symmetry::Vertical, Some(15.0))];
    // The folder is gone: a clear error, no levels.
    let missing = dir.path().join("nowhere");
    let gone = copy(missing.to_str().unwrap());
    let err = gone.generate_each_decoded(&want, 0, fresh).unwrap_err();
    assert!(matches!(err, ModelError::TrainingLayouts { .. }), "{err}");
    assert!(
        err.to_string().contains("training layouts in") && err.to_string().contains("nowhere"),
        "{err}"
    );
    assert!(gone.check_decoding(fresh).is_err());
    assert!(gone.check_decoding(Decoding::Novel).is_ok());
    // The folder holds other levels than the model saw: refused, not measured against them.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::copy("levels/match3/main/test.ron", other.join("train.ron")).unwrap();
    let changed = copy(other.to_str().unwrap());
    let err = changed.check_decoding(fresh).unwrap_err();
    assert!(err.to_string().contains("has changed since"), "{err}");
    // Given the layouts, it generates.
    let given = copy(missing.to_str().unwrap());
    let samples = TrainingSet::load(Path::new("levels/match3/main"))
        .unwrap()
        .samples;
    assert!(given.set_training(&samples));
    assert!(!given.set_training(&samples), "set twice");
    assert_eq!(
        given.generate_each_decoded(&want, 0, fresh).unwrap().len(),
        1
    );
}
