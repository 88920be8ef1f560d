//! `export PACK --format json|png|tmj --out PATH`: the JSON export; a PNG sheet labelled with
//! each level's number, name, figure and verdict (stored figures first, else measured by its
//! game's analysis, as the window's pack strip does); a folder of Tiled maps; or a format a
//! game adds ([`studio_core::formats::Exporter`]).

use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use studio_core::document::{pack_doc, PackDoc};
use studio_core::export::{self, tiled};
use studio_core::files;
use studio_core::jobs::Cancel;

#[derive(Args, Debug)]
#[command(after_help = formats_help())]
pub struct ExportArgs {
    /// The pack to export (.ron).
    pub pack: PathBuf,
    /// Output format: json (one file), png (a labelled sheet), tmj (a folder of Tiled maps,
    /// one per level, with the tilesets and a .world file), or a game's format (listed
    /// below).
    #[arg(long, default_value = "json")]
    pub format: String,
    /// Where to write (a file; a folder for tmj).
    #[arg(long)]
    pub out: PathBuf,
}

/// The games' export formats, one per line, for `export --help`.
fn formats_help() -> String {
    let mut text = String::from("Games' formats:");
    for exporter in studio_core::formats::exporters() {
        text.push_str(&format!("\n  {:<12} {}", exporter.format, exporter.help));
    }
    text
}

/// The pack's levels' labels: stored figures, else measured now.
fn notes(pack: studio_core::level::Pack) -> Vec<export::SheetNote> {
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
        other => {
            let exporters = studio_core::formats::exporters();
            let Some(exporter) = exporters.iter().find(|e| e.format == other) else {
                let mut known = vec!["json", "png", "tmj"];
                known.extend(exporters.iter().map(|e| e.format));
                bail!("unknown export format {other:?} ({})", known.join(", "));
            };
            let written = (exporter.export)(&args.out, &pack).map_err(|e| anyhow!(e))?;
            println!("wrote {written} to {}", args.out.display());
            return Ok(ExitCode::SUCCESS);
        }
    }
    println!(
        "exported {} levels to {}",
        pack.levels.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
