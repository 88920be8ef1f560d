//! `export PACK --format json|png|tmj --out PATH`: the JSON export; a PNG sheet labelled with
//! each level's number, name, figure and verdict (stored figures first, else measured by its
//! game's analysis, as the window's pack strip does); or a folder of Tiled maps.

use crate::document::{pack_doc, PackDoc};
use crate::export::{self, tiled};
use crate::files;
use crate::jobs::Cancel;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The pack to export (.ron).
    pub pack: PathBuf,
    /// Output format: json (one file), png (a labelled sheet), tmj (a folder of Tiled maps,
    /// one per level, with the tilesets and a .world file), or, for Mario packs, vglc-mario
    /// or mario-ai (a folder of level text files).
    #[arg(long, default_value = "json")]
    pub format: String,
    /// Where to write (a file; a folder for tmj).
    #[arg(long)]
    pub out: PathBuf,
}

/// The pack's levels' labels: stored figures, else measured now.
fn notes(pack: crate::level::Pack) -> Vec<export::SheetNote> {
    let mut doc = PackDoc::with(pack, None, false);
    for (key, measured) in pack_doc::measure(&doc.unmeasured(), &Cancel::default()) {
        doc.measured.insert(key, measured);
    }
    export::notes_of(&doc)
}

pub fn run(args: &ExportArgs) -> Result<ExitCode> {
    let pack = files::load_pack(&args.pack)?;
    match args.format.as_str() {
        "json" => files::export_pack_json(&args.out, &pack)?,
        "png" => {
            let notes = notes(pack.clone());
            export::export_png(&args.out, &pack, &notes).map_err(|e| anyhow!(e))?
        }
        "tmj" => {
            let notes = notes(pack.clone());
            let written = tiled::export_tmj(&args.out, &pack, &notes).map_err(|e| anyhow!(e))?;
            println!(
                "wrote {} maps, {} tilesets and {} to {}",
                written.maps.len(),
                written.tilesets.len(),
                written
                    .world
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default(),
                args.out.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        "vglc-mario" | "mario-ai" => {
            let format = if args.format == "mario-ai" {
                crate::mario::formats::Format::MarioAi
            } else {
                crate::mario::formats::Format::Vglc
            };
            let written = crate::mario::formats::export_pack(&args.out, &pack, format)
                .map_err(|e| anyhow!(e))?;
            println!(
                "wrote {written} {} level files to {}",
                format.name(),
                args.out.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        other => bail!("unknown export format {other:?} (json, png, tmj, vglc-mario, mario-ai)"),
    }
    println!(
        "exported {} levels to {}",
        pack.levels.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
