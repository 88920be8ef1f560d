//! VS-TD3's parallel judging (issue 66): the 36 levels of one episode (5 completions of each
//! of the 7 steps before the last, and the level) judged on a rayon pool of 1 thread and of 2,
//! the actor frozen. Episodes are played by the shipped VS-TD3 actor steering the shipped CGAN
//! with the start of training's exploration (noise 0.2, ε 0.5), seeds 0..EPISODES; each is
//! judged on both pools, alternately, and the judgements must agree bit for bit. Needs the
//! VGLC levels (`$VGLC_DIR` or `../shared/data/vglc`).
//! Run: `cargo bench -j1 --bench mario_vs_judging [-- EPISODES]`.

use mario::generators::load_td3_bundle;
use mario::patterns::PatLegal;
use mario::td3::vs::{judge, play_frozen, Judged};
use mario::td3::{Build, RANDOM_START, VIRTUAL_COMPLETIONS};
use std::path::Path;
use std::time::Instant;
use studio_core::rng::Rng;

/// The judgements as bits, to compare across pools.
fn bits(j: &Judged) -> Vec<u64> {
    j.completions
        .iter()
        .flatten()
        .map(|c| c.evaluation.to_bits())
        .chain(std::iter::once(j.evaluation.to_bits()))
        .collect()
}

fn main() -> anyhow::Result<()> {
    // Candle on one thread, as in training: the pools below are the judgements' own.
    std::env::set_var("RAYON_NUM_THREADS", "1");
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[mario::plugin]);
    let episodes: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(6);
    let Ok(pat) = PatLegal::default_set() else {
        eprintln!("skipped: the VGLC folder is absent");
        return Ok(());
    };
    let path = Path::new("models").join(mario::td3::file::weights_file("vs-td3"));
    let bundle = match load_td3_bundle(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("skipped: {e}");
            return Ok(());
        }
    };
    let gen = bundle.rl(&pat);
    let pool = |n: usize| rayon::ThreadPoolBuilder::new().num_threads(n).build();
    let (one, two) = (pool(1)?, pool(2)?);
    let (mut t1, mut t2) = (Vec::new(), Vec::new());
    for episode in 0..episodes {
        let mut rng = Rng::new(episode as u64);
        let mut build = Build::start(&pat, &mut rng);
        studio_ml::rl::randomize(&gen, &mut build, RANDOM_START, &mut rng);
        let steps = play_frozen(&gen, &mut build, (0.2, 0.5), &mut rng)?;
        let timed = |p: &rayon::ThreadPool| {
            let t = Instant::now();
            let j = p.install(|| judge(&gen, &steps, VIRTUAL_COMPLETIONS, 0.2, (1, episode)))?;
            Ok::<_, anyhow::Error>((t.elapsed().as_secs_f64(), j))
        };
        // Alternate which pool goes first, so a neighbour's load falls on both alike.
        let ((a, ja), (b, jb)) = if episode % 2 == 0 {
            let a = timed(&one)?;
            (a, timed(&two)?)
        } else {
            let b = timed(&two)?;
            (timed(&one)?, b)
        };
        anyhow::ensure!(
            bits(&ja) == bits(&jb),
            "episode {episode}: the pools disagree"
        );
        println!(
            "episode {episode}: {} judgements, 1 thread {a:.2} s, 2 threads {b:.2} s ({:.2}×)",
            bits(&ja).len(),
            a / b
        );
        t1.push(a);
        t2.push(b);
    }
    let (s1, s2) = (t1.iter().sum::<f64>(), t2.iter().sum::<f64>());
    println!(
        "{episodes} episodes: 1 thread {:.2} s an episode, 2 threads {:.2} s: {:.2}× (bit-identical)",
        s1 / episodes as f64,
        s2 / episodes as f64,
        s1 / s2
    );
    Ok(())
}
