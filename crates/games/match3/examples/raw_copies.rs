//! Diagnostic: which of the raw decoder's sweep levels (`eval --raw`) are training layouts.
//! One line per condition: size, symmetry, moves asked, the level's blocked share, and, for a
//! copy, the copied training level's moves and blocked share; then how many copies are the
//! open rectangle (no BLOCK or GAP in the play area), and how the copies split between
//! requests easier than every training layout of their size (the easiest layout is then the
//! closest answer the data holds) and requests some layout of that size meets.
//! `cargo run --release --example raw_copies [-- WEIGHTS [SEED]]` (the shipped Avalon, seed 0)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::cvae::metrics::blocked_share;
use match3::cvae::sweep::sweep_conditions;
use match3::cvae::{CvaeModel, TrainingSet};

fn main() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    let arg = |i: usize| std::env::args().nth(i);
    let weights = arg(1).unwrap_or_else(|| "models/avalon-main.safetensors".into());
    let seed: u64 = arg(2).map_or(0, |s| s.parse().unwrap());
    let g = CvaeModel::load(weights.as_ref()).unwrap();
    let train = TrainingSet::load(g.sidecar().training.data.as_ref()).unwrap();
    let min = g.kind().uses_moves().then_some(g.sidecar().moves.min);
    let conditions = sweep_conditions(min, seed);
    let raw = g.generate_each_with(&conditions, seed, false).unwrap();
    let (mut copies, mut open_copies) = (0, 0);
    // Requests below the easiest training layout of their size, and the copies among them.
    let (mut below, mut below_copies) = (0, 0);
    // Copies of the easiest training layout of their size.
    let mut easiest_copies = 0;
    for (c, l) in conditions.iter().zip(&raw) {
        let copied = train.samples.iter().find(|s| &s.layout == l);
        let moves = c.moves.unwrap_or(f64::NAN);
        let easiest = train
            .samples
            .iter()
            .filter(|s| s.width == c.width && s.height == c.height)
            .map(|s| s.moves)
            .fold(f64::INFINITY, f64::min);
        let unreachable = moves < easiest;
        below += usize::from(unreachable);
        if let Some(s) = copied {
            copies += 1;
            below_copies += usize::from(unreachable);
            easiest_copies += usize::from(s.moves == easiest);
            open_copies += usize::from(blocked_share(l) == 0.0);
            println!(
                "{}x{} {:?} asked {moves:.1}: copy of a training level at {:.1} moves, blocked {:.2}",
                c.width,
                c.height,
                c.symmetry,
                s.moves,
                blocked_share(l)
            );
        } else {
            println!(
                "{}x{} {:?} asked {moves:.1}: new, blocked {:.2}",
                c.width,
                c.height,
                c.symmetry,
                blocked_share(l)
            );
        }
    }
    println!(
        "copies {copies} of {}; of them open rectangles {open_copies}, the easiest layout of \
         their size {easiest_copies}",
        raw.len()
    );
    println!(
        "requests easier than every training layout of their size: {below} of {}, \
         {below_copies} of them copied; requests within reach: {}, {} of them copied",
        raw.len(),
        raw.len() - below,
        copies - below_copies
    );
}
