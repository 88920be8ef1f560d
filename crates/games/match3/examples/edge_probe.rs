//! Can a layout other than the open rectangle be as easy? For each size, every one-cell
//! change (mirrored for vertical symmetry) of the open rectangle to BLOCK or GAP, validated
//! with 120 games; prints the open rectangle's median and the easiest change's.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::layout::{area_origin, Cell, Layout};
use match3::{validate, ValidationConfig};
use studio_core::symmetry::{mirrored_cells, Symmetry};

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    let config = ValidationConfig {
        games: 120,
        ..Default::default()
    };
    for (w, h) in [
        (8, 6),
        (9, 6),
        (6, 7),
        (7, 7),
        (6, 8),
        (5, 10),
        (5, 11),
        (6, 9),
        (7, 8),
        (8, 8),
    ] {
        let open = Layout::open(w, h).unwrap();
        let base = validate(&open, &config).unwrap().median_moves;
        let (x0, y0) = area_origin(w, h);
        let mut best = (f64::INFINITY, String::new());
        for y in 0..h {
            for x in 0..w.div_ceil(2) {
                for cell in [Cell::Block, Cell::Gap] {
                    let mut l = open.clone();
                    for (mx, my) in mirrored_cells(x, y, w, h, Symmetry::Vertical) {
                        l.set(x0 + mx, y0 + my, cell);
                    }
                    if l.size() != (w, h) {
                        continue;
                    }
                    if let Ok(v) = validate(&l, &config) {
                        if v.median_moves < best.0 {
                            best = (v.median_moves, format!("{cell:?} at ({x},{y})"));
                        }
                    }
                }
            }
        }
        println!(
            "{w}x{h}: open {base}, easiest one-cell change {} ({})",
            best.0, best.1
        );
    }
}
