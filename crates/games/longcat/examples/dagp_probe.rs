//! Probe a few DQN policies on fewer levels than the full evaluation:
//! `cargo run --release --example dagp_probe -- 3000 T0.2 D3,1,0.2 …`.

// Examples fail loudly on purpose: they are probes, and a panic names what went wrong.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use longcat::dqn::eval::summarise;
use longcat::dqn::model::{DqnModel, SHIPPED_WEIGHTS};
use longcat::dqn::policy::generate;
use longcat::dqn::Policy;
use std::time::Instant;

fn main() {
    // The shipped models and levels are read by their paths from the repository root.
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[longcat::plugin]);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args[0].parse().expect("count");
    let dqn = DqnModel::load(std::path::Path::new(SHIPPED_WEIGHTS)).expect("model");
    for a in &args[1..] {
        let policy = if let Some(t) = a.strip_prefix('T') {
            Policy::Temperature(t.parse().unwrap())
        } else {
            Policy::parse_diverse(&a[1..]).unwrap()
        };
        let t = Instant::now();
        let levels = generate(&dqn, policy, count, 0).unwrap();
        let r = summarise(&policy.label(), &levels, t);
        println!(
            "{:<22} dup {:5.1} %  non-trivial {:5.1} %  mean {:5.2}  {:.1} s",
            r.setting,
            100.0 * r.duplicate_share,
            100.0 * r.non_trivial_share,
            r.mean_difficulty,
            r.seconds
        );
    }
}
