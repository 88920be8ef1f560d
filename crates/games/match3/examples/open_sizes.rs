//! The median moves the default bot validation records on open boards of every size, one
//! row a height (4..=11), one column a width (4..=9): `cargo run --release --example open_sizes`.

// Examples fail loudly on purpose: they are probes, and a panic names what went wrong.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use match3::{validate, Layout, ValidationConfig};
fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[match3::plugin]);
    for h in 4..=11 {
        let row: Vec<String> = (4..=9)
            .map(|w| {
                format!(
                    "{:5.1}",
                    validate(&Layout::open(w, h).unwrap(), &ValidationConfig::default())
                        .unwrap()
                        .median_moves
                )
            })
            .collect();
        println!("h={h:2} {}", row.join(" "));
    }
}
