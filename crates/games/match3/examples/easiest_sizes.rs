//! Prints [`match3::easiest::EASIEST`] as measured from the shipped dataset
//! (`levels/match3/main`), ready to paste after a change to the dataset or the bots.
//! `cargo run --release --example easiest_sizes`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::dataset::SPLITS;
use match3::easiest::measure_easiest;
use match3::layout::WIDTHS;
use match3::Match3Figures;
use match3::Match3Level;
use studio_core::files::load_pack;

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    let mut levels = Vec::new();
    for split in SPLITS {
        let pack = load_pack(format!("levels/match3/main/{split}.ron").as_ref()).unwrap();
        for level in &pack.levels {
            let moves = level.figures_of::<Match3Figures>().unwrap().median_moves;
            levels.push((level.layout().unwrap(), moves));
        }
    }
    for (row, width) in measure_easiest(&levels).iter().zip(WIDTHS) {
        let cells: Vec<String> = row.iter().map(|m| format!("{m:.1}")).collect();
        println!("    [{}], // width {width}", cells.join(", "));
    }
}
