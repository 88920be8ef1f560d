//! Validated generation per sweep condition, split by whether the condition's size is one
//! whose easiest layouts take 19–21 moves on 120 games (see `edge_probe`).
//! `cargo run --release --example validated_edges [-- SEED]`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use level_studio::match3::cvae::sidecar::Feasibility;
use level_studio::match3::cvae::sweep::sweep_conditions;
use level_studio::match3::cvae::{generate_validated, CvaeModel, ValidatedRequest};

const EDGE: [(usize, usize); 7] = [(8, 6), (9, 6), (6, 7), (7, 7), (6, 8), (5, 10), (5, 11)];

fn main() {
    let seed: u64 = std::env::args().nth(1).map_or(0, |s| s.parse().unwrap());
    let g = CvaeModel::load("models/avalon-main.safetensors".as_ref()).unwrap();
    let (mut edge, mut edge_ok, mut rest, mut rest_ok) = (0, 0, 0, 0);
    for (i, mut c) in sweep_conditions(Some(g.sidecar().moves.min), seed)
        .into_iter()
        .enumerate()
    {
        if let Feasibility::Infeasible {
            nearest_same_size, ..
        } = g.feasibility(&c)
        {
            match nearest_same_size {
                Some(n) if n.moves.is_none_or(|m| m <= 20.0) => c = n,
                _ => continue,
            }
        }
        let r = ValidatedRequest {
            budget: 64,
            ..ValidatedRequest::new(c, 1, seed.wrapping_add(i as u64 * 7919))
        };
        let Ok(report) = generate_validated(&g, &r, None) else {
            continue; // beyond the margin
        };
        let ok = usize::from(!report.accepted.is_empty());
        if EDGE.contains(&(c.width, c.height)) {
            edge += 1;
            edge_ok += ok;
        } else {
            rest += 1;
            rest_ok += ok;
            if ok == 0 {
                println!(
                    "missed {}x{} {:?} at {:.1}",
                    c.width,
                    c.height,
                    c.symmetry,
                    c.moves.unwrap()
                );
            }
        }
    }
    println!("seed {seed}: edge sizes {edge_ok} of {edge}; other sizes {rest_ok} of {rest}");
}
