//! `generate --game match3 --model synth`: the rule-based synthesiser from the command line.

use super::generate::{refuse_unused, GenerateArgs};
use crate::files;
use crate::level::{Figures, Level, Match3Figures, Pack};
use crate::match3::{self, synth, ValidationConfig};
use crate::rng::Rng;
use anyhow::{bail, Result};
use std::process::ExitCode;

pub fn generate(args: &GenerateArgs) -> Result<ExitCode> {
    refuse_unused(
        args,
        &[
            ("moves", args.moves.is_some()),
            ("temperature", args.temperature.is_some()),
            ("diverse", args.diverse.is_some()),
        ],
    )?;
    let (w, h) = args.size.unwrap_or((7, 9));
    if !match3::layout::WIDTHS.contains(&w) || !match3::layout::HEIGHTS.contains(&h) {
        bail!("size {w}x{h} is outside match-3's range (width 4..=9, height 4..=11)");
    }
    let mut rng = Rng::new(args.seed);
    let mut pack = Pack::new(format!("synth {w}x{h}"));
    let mut attempts = 0;
    while pack.levels.len() < args.count && attempts < args.count * 50 {
        attempts += 1;
        let symmetry = args
            .symmetry
            .unwrap_or_else(|| synth::designer_symmetry(&mut rng));
        let features = rng.index(2 + w * h / 16);
        let Some(layout) = synth::synthesise(w, h, symmetry, features, &mut rng) else {
            continue;
        };
        let v = match3::validate(
            &layout,
            &ValidationConfig {
                seed: args.seed,
                ..Default::default()
            },
        )?;
        if args.validate && !v.valid {
            continue;
        }
        let mut level = Level::from_layout(
            format!("synth-{w}x{h}-{:03}", pack.levels.len() + 1),
            &layout,
        );
        level.tags = vec!["generated".into(), "synth".into()];
        level.figures = Some(Figures::Match3(Match3Figures::from(&v)));
        pack.levels.push(level);
    }
    files::save_pack(&args.out, &pack)?;
    println!(
        "wrote {} levels to {} ({attempts} attempts)",
        pack.levels.len(),
        args.out.display()
    );
    if pack.levels.len() < args.count {
        eprintln!(
            "warning: only {} of {} requested levels were found",
            pack.levels.len(),
            args.count
        );
    }
    Ok(ExitCode::SUCCESS)
}
