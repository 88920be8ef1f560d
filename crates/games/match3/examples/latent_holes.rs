//! Diagnostic: where the raw decoder's open rectangles come from. For every training level:
//! its encoder mean decoded at its own condition (is it reconstructed? is the result the open
//! rectangle?), a prior sample decoded at the same condition, and z = 0; then how far the
//! encoder means spread in each latent dimension.
//! `cargo run --release --example latent_holes [-- WEIGHTS [SEED]]` (the shipped Avalon, seed 0)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::cvae::arch::LATENT;
use match3::cvae::metrics::blocked_share;
use match3::cvae::{CvaeModel, TrainingSet};
use studio_core::rng::Rng;

fn main() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    let arg = |i: usize| std::env::args().nth(i);
    let weights = arg(1).unwrap_or_else(|| "models/avalon-main.safetensors".into());
    let seed: u64 = arg(2).map_or(0, |s| s.parse().unwrap());
    let g = CvaeModel::load(weights.as_ref()).unwrap();
    let train = TrainingSet::load(g.sidecar().training.data.as_ref()).unwrap();
    let mut rng = Rng::new(seed);
    let n = train.samples.len();
    let (mut rebuilt, mut rebuilt_open, mut prior_open, mut zero_open) = (0, 0, 0, 0);
    let (mut prior_copy, mut data_open) = (0, 0);
    // The same four counts over the levels of at most 20 moves, the range the sweep asks.
    let mut easy = [0usize; 5];
    let mut means: Vec<Vec<f32>> = Vec::with_capacity(n);
    let open = |l: &match3::Layout| blocked_share(l) == 0.0;
    for s in &train.samples {
        let c = [s.condition()];
        let mu = g.encode_sample(s).unwrap();
        let back = g.decode(&mu, &c).unwrap().remove(0);
        rebuilt += usize::from(back == s.layout);
        rebuilt_open += usize::from(open(&back));
        data_open += usize::from(open(&s.layout));
        let z: Vec<f32> = (0..LATENT).map(|_| rng.normal() as f32).collect();
        let prior = g.decode(&z, &c).unwrap().remove(0);
        prior_open += usize::from(open(&prior));
        prior_copy += usize::from(g.is_training_level(&prior));
        let zero = g.decode(&[0.0; LATENT], &c).unwrap().remove(0);
        zero_open += usize::from(open(&zero));
        if s.moves <= 20.0 {
            let counts = [
                1,
                usize::from(open(&s.layout)),
                usize::from(back == s.layout),
                usize::from(open(&prior)),
                usize::from(open(&zero)),
            ];
            for (e, k) in easy.iter_mut().zip(counts) {
                *e += k;
            }
        }
        means.push(mu);
    }
    let pct = |k: usize| 100.0 * k as f64 / n as f64;
    println!(
        "{n} training levels at their own conditions ({:.1} % open rectangles):",
        pct(data_open)
    );
    println!(
        "  encoder mean decoded: the level itself {:.1} %, the open rectangle {:.1} %",
        pct(rebuilt),
        pct(rebuilt_open)
    );
    println!(
        "  prior sample decoded: the open rectangle {:.1} %, a training level {:.1} %",
        pct(prior_open),
        pct(prior_copy)
    );
    println!(
        "  z = 0 decoded: the open rectangle {:.1} %",
        pct(zero_open)
    );
    let share = |k: usize| 100.0 * k as f64 / easy[0].max(1) as f64;
    println!(
        "the {} of at most 20 moves ({:.1} % open rectangles): mean decoded to itself {:.1} %; the open rectangle from a prior sample {:.1} %, from z = 0 {:.1} %",
        easy[0],
        share(easy[1]),
        share(easy[2]),
        share(easy[3]),
        share(easy[4])
    );
    for d in 0..LATENT {
        let v: Vec<f64> = means.iter().map(|m| f64::from(m[d])).collect();
        let mean = v.iter().sum::<f64>() / n as f64;
        let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        println!("  latent dimension {d}: encoder means {mean:+.2} ± {sd:.2}");
    }
}
