//! Tests for the pattern cGAN: shapes, data windows, seeded determinism, Matching, the latent
//! map, and (when the VGLC data is present) a short real training.

use super::data::SAMPLE_PATTERNS;
use super::model::{CONTEXT_WIDTH, SAMPLE_WIDTH};
use super::*;
use candle_core::{DType, Device, Tensor};
use candle_nn::{VarBuilder, VarMap};
use studio_core::rng::Rng;

/// A small made-up level: ground with gaps, some bricks and goombas.
fn synthetic_level(name: &str, width: usize, seed: u64) -> Level {
    let mut rng = Rng::new(seed);
    let columns = (0..width)
        .map(|_| {
            let mut col = [Tile::Empty.index(); ROWS];
            if !rng.chance(0.15) {
                col[ROWS - 1] = Tile::Ground.index();
            }
            if rng.chance(0.2) {
                col[ROWS - 5] = Tile::Brick.index();
            }
            if rng.chance(0.1) {
                col[ROWS - 2] = Tile::Goomba.index();
            }
            col
        })
        .collect();
    Level {
        name: name.into(),
        columns,
    }
}

fn synthetic_data() -> CganData {
    let levels = (0..4)
        .map(|i| synthetic_level(&format!("s{i}"), 40, i))
        .collect();
    CganData::split(levels, 3, 1).unwrap()
}

fn weights(varmap: &VarMap) -> Vec<(String, Vec<f32>)> {
    let data = varmap.data().lock().unwrap();
    let mut out: Vec<_> = data
        .iter()
        .map(|(n, v)| {
            (
                n.clone(),
                v.flatten_all().unwrap().to_vec1::<f32>().unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn windows_are_column_major_and_slide_by_one() {
    let level = synthetic_level("a", 20, 1);
    assert_eq!(level.patterns().len(), 17);
    assert_eq!(level.samples().len(), 5);
    let p = level.pattern_at(2);
    assert_eq!(&p[ROWS..2 * ROWS], &level.columns[3]);
    let s = &level.samples()[1];
    assert_eq!(s[SAMPLE_PATTERNS - 1], level.pattern_at(1 + 12));
}

#[test]
fn networks_have_the_right_shapes() {
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
    let gen = Generator::new(vb.pp("gen")).unwrap();
    let disc = Discriminator::new(vb.pp("disc")).unwrap();
    studio_ml::seeded_init(&varmap, 5).unwrap();
    let ctx = Tensor::full(0.5f32, (2, CONTEXT_WIDTH), &Device::Cpu).unwrap();
    let z = Tensor::full(0.3f32, (2, Z_DIM), &Device::Cpu).unwrap();
    let out = gen.forward(&ctx, &z).unwrap();
    assert_eq!(out.dims(), &[2, CELLS]);
    let v: Vec<f32> = out.flatten_all().unwrap().to_vec1().unwrap();
    assert!(v.iter().all(|x| (0.0..=1.0).contains(x)));
    let sample = Tensor::full(0.1f32, (2, SAMPLE_WIDTH), &Device::Cpu).unwrap();
    let mut rng = Rng::new(1);
    assert_eq!(disc.forward(&sample, None).unwrap().dims(), &[2, 1]);
    assert_eq!(
        disc.forward(&sample, Some((0.4, &mut rng))).unwrap().dims(),
        &[2, 1]
    );
    let raw = generate_raw(&gen, &[EMPTY_PATTERN; 3], [0.1, 0.2, 0.3]).unwrap();
    assert_eq!(raw.len(), CELLS);
}

#[test]
fn same_seed_same_weights() {
    let data = synthetic_data();
    let config = CganConfig {
        seed: 11,
        epochs: 2,
        ..CganConfig::default()
    };
    let mut epochs = 0;
    let a = train(&data, &config, &mut |p| {
        epochs = p.epoch;
        p.d_loss.is_finite() && p.g_loss.is_finite()
    })
    .unwrap();
    assert_eq!(epochs, 2);
    let b = train(&data, &config, &mut |_| true).unwrap();
    let c = train(&data, &CganConfig { seed: 12, ..config }, &mut |_| true).unwrap();
    let (wa, wb, wc) = (weights(&a), weights(&b), weights(&c));
    assert!(wa.iter().any(|(n, _)| n.starts_with("gen.")));
    assert!(wa.iter().any(|(n, _)| n.starts_with("disc.")));
    assert_eq!(wa, wb);
    assert_ne!(wa, wc);
}

#[test]
fn cancelling_stops_after_the_first_epoch() {
    let data = synthetic_data();
    let mut calls = 0;
    train(&data, &CganConfig::default(), &mut |_| {
        calls += 1;
        false
    })
    .unwrap();
    assert_eq!(calls, 1);
}

#[test]
fn matching_finds_exact_legal_patterns() {
    let data = synthetic_data();
    let legal = &data.legal;
    assert!(legal.len() > 10 && legal.len() <= data.pattern_windows);
    for (i, p) in legal.patterns().iter().enumerate() {
        assert_eq!(legal.nearest(&normalise(p)), i);
        assert_eq!(legal.index_of(p), Some(i));
    }
    // A slightly noisy copy still matches.
    let mut noisy = legal.normalised()[3];
    noisy[5] += 0.02;
    assert_eq!(legal.nearest(&noisy), 3);
}

#[test]
fn latent_map_counts_and_picture() {
    let data = synthetic_data();
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
    let gen = Generator::new(vb.pp("gen")).unwrap();
    studio_ml::seeded_init(&varmap, 2).unwrap();
    let s = data.train[0];
    let map = latent_map(&gen, &[s[0], s[1], s[2]], 0.0, &data.legal, 11).unwrap();
    assert_eq!(map.raw_distance.len(), 121);
    assert_eq!(map.matched.len(), 121);
    assert!(map.distinct_matched >= 1 && map.distinct_matched <= map.distinct_raw);
    let path = std::env::temp_dir().join("mario-cgan-test-map.png");
    write_png(&map, &path).unwrap();
    let img = image::open(&path).unwrap();
    assert_eq!(img.width(), 11 * 4 * 2 + 12);
}

#[test]
fn real_levels_split_and_a_short_training_leaves_the_empty_pattern() {
    let dir = crate::formats::vglc_levels_dir();
    if !dir.exists() {
        eprintln!("skipping: {} missing", dir.display());
        return;
    }
    let data = CganData::load(&dir, 7, 3).unwrap();
    assert_eq!(data.train_levels.len() + data.test_levels.len(), 15);
    assert!(data.legal.len() < data.pattern_windows);
    let config = CganConfig {
        seed: 7,
        epochs: 20,
        ..CganConfig::default()
    };
    let varmap = train(&data, &config, &mut |_| true).unwrap();
    let gen = Generator::from_varmap(&varmap).unwrap();
    let empty = data.legal.index_of(&EMPTY_PATTERN);
    let mut rng = Rng::new(3);
    let (mut non_empty, mut total) = (0, 0);
    for s in data.test.iter().step_by(37) {
        let z = [rng.unit() as f32, rng.unit() as f32, rng.unit() as f32];
        let raw = generate_raw(&gen, &[s[0], s[1], s[2]], z).unwrap();
        total += 1;
        if Some(data.legal.nearest(&raw)) != empty {
            non_empty += 1;
        }
    }
    assert!(
        non_empty * 2 > total,
        "{non_empty} of {total} matched non-empty"
    );
}
