//! Tests for the pattern cGAN: shapes, data windows, seeded determinism, Matching, the latent
//! map, and (when the VGLC data is present) a short real training.

use super::data::SAMPLE_PATTERNS;
use super::model::{cut_mask, insert, one_hot, Conv3, CONTEXT_WIDTH, NEXT, SAMPLE_WIDTH};
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
    let hot = one_hot(&[0, 3], &Device::Cpu).unwrap();
    let mut rng = Rng::new(1);
    assert_eq!(disc.forward(&sample, &hot, None).unwrap().dims(), &[2, 1]);
    assert_eq!(
        disc.forward(&sample, &hot, Some((0.4, &mut rng)))
            .unwrap()
            .dims(),
        &[2, 1]
    );
    // Every position of the four-way duplication gives a pattern.
    for p in 0..4 {
        let hot = one_hot(&[p, p], &Device::Cpu).unwrap();
        let out = gen.forward_at(&sample, &hot, &z).unwrap();
        assert_eq!(out.dims(), &[2, CELLS]);
    }
    let raw = generate_raw(&gen, &[EMPTY_PATTERN; 3], [0.1, 0.2, 0.3]).unwrap();
    assert_eq!(raw.len(), CELLS);
}

/// A tensor's values, flattened.
fn values(t: candle_core::Result<Tensor>) -> Vec<f32> {
    t.unwrap().flatten_all().unwrap().to_vec1().unwrap()
}

#[test]
fn the_cut_pattern_is_the_one_at_its_position_and_the_generator_never_sees_it() {
    let dev = Device::Cpu;
    let window: Vec<f32> = (0..SAMPLE_WIDTH).map(|i| i as f32 / 1000.0).collect();
    let window = Tensor::from_vec(window, (1, SAMPLE_WIDTH), &dev).unwrap();
    let hot = one_hot(&[2], &dev).unwrap();
    let mask = values(cut_mask(&hot));
    for (i, m) in mask.iter().enumerate() {
        assert_eq!(*m == 1.0, (2 * CELLS..3 * CELLS).contains(&i), "cell {i}");
    }
    let pattern = Tensor::full(0.5f32, (1, CELLS), &dev).unwrap();
    let other = insert(&window, &cut_mask(&hot).unwrap(), &pattern).unwrap();
    for (i, v) in values(Ok(other.clone())).iter().enumerate() {
        let want = if (2 * CELLS..3 * CELLS).contains(&i) {
            0.5
        } else {
            i as f32 / 1000.0
        };
        assert!((v - want).abs() < 1e-6, "cell {i}: {v} for {want}");
    }
    // What is in the cut place does not reach the generator's output.
    let varmap = VarMap::new();
    let gen = Generator::new(VarBuilder::from_varmap(&varmap, DType::F32, &dev).pp("gen")).unwrap();
    studio_ml::seeded_init(&varmap, 4).unwrap();
    let z = Tensor::new(&[[0.2f32, 0.7, 0.4]], &dev).unwrap();
    assert_eq!(
        values(gen.forward_at(&window, &hot, &z)),
        values(gen.forward_at(&other, &hot, &z))
    );
    // The studio's next pattern is position 4, after the three given.
    let ctx = window.narrow(1, 0, CONTEXT_WIDTH).unwrap();
    let next_hot = one_hot(&[NEXT], &dev).unwrap();
    assert_eq!(
        values(gen.forward(&ctx, &z)),
        values(gen.forward_at(&window, &next_hot, &z))
    );
}

#[test]
fn the_gathered_convolution_equals_a_direct_one() {
    let dev = Device::Cpu;
    let (cols, rows, cin, cout) = (5, 4, 2, 3);
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &dev);
    let conv = Conv3::new(cin, cout, (cols, rows), 2, vb.pp("c")).unwrap();
    studio_ml::seeded_init(&varmap, 9).unwrap();
    let w: Vec<f32> = varmap.data().lock().unwrap()["c.weight"]
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap();
    let bias: Vec<f32> = varmap.data().lock().unwrap()["c.bias"].to_vec1().unwrap();
    let input: Vec<f32> = (0..cols * rows * cin)
        .map(|i| ((i * 7) % 11) as f32 / 10.0)
        .collect();
    let out: Vec<f32> = conv
        .forward(&Tensor::from_vec(input.clone(), (1, cols * rows * cin), &dev).unwrap())
        .unwrap()
        .flatten_all()
        .unwrap()
        .to_vec1()
        .unwrap();
    let (oc, or) = (cols.div_ceil(2), rows.div_ceil(2));
    assert_eq!(conv.positions(), oc * or);
    assert_eq!(out.len(), oc * or * cout);
    for ox in 0..oc {
        for oy in 0..or {
            for o in 0..cout {
                let mut sum = bias[o];
                for dx in 0..3 {
                    for dy in 0..3 {
                        let (x, y) = (2 * ox + dx, 2 * oy + dy);
                        if x == 0 || y == 0 || x > cols || y > rows {
                            continue;
                        }
                        let (x, y) = (x - 1, y - 1);
                        for c in 0..cin {
                            let k = (dx * 3 + dy) * cin + c;
                            sum += w[o * 9 * cin + k] * input[(x * rows + y) * cin + c];
                        }
                    }
                }
                let got = out[(ox * or + oy) * cout + o];
                assert!(
                    (got - sum).abs() < 1e-5,
                    "({ox}, {oy}, {o}): {got} vs {sum}"
                );
            }
        }
    }
}

#[test]
fn same_seed_same_weights() {
    // Three trainings: levels of 20 columns (3 × 17 samples) keep them quick.
    let levels = (0..4)
        .map(|i| synthetic_level(&format!("s{i}"), 20, i))
        .collect();
    let data = CganData::split(levels, 3, 1).unwrap();
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
    let mut data = CganData::load(&dir, 7, 3).unwrap();
    assert_eq!(data.train_levels.len() + data.test_levels.len(), 15);
    assert!(data.legal.len() < data.pattern_windows);
    // Every eighth training sample: an eighth of the work of the whole set, spread over all
    // twelve training levels.
    let before = data.train.len();
    data.train = data.train.into_iter().step_by(8).collect();
    assert!(data.train.len() * 8 >= before);
    let config = CganConfig {
        seed: 7,
        epochs: 2,
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
