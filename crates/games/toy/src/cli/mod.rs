//! The toy's own command, `toy-count PACK`: each level's crates. What a game's command looks
//! like: its flags (a clap `Args` struct), its run, its bounds (none: it takes no number) and
//! the least command line that reaches it.

use clap::{Args, FromArgMatches};
use std::path::PathBuf;
use std::process::ExitCode;
use studio_cli::{GameCommand, Slot};
use studio_core::files;

/// `toy-count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    /// The pack (or level file) to count.
    pub pack: PathBuf,
}

/// Each toy level's name and crates, one line each.
///
/// # Errors
/// A file that cannot be read.
pub fn count(args: &CountArgs) -> anyhow::Result<Vec<String>> {
    let levels = files::load_levels(&args.pack)?;
    Ok(levels
        .iter()
        .filter(|l| l.game == crate::TOY)
        .map(|l| format!("{}: {} crates", l.name, crate::level::crates(l)))
        .collect())
}

/// The command as the plug-in registers it.
pub fn command() -> GameCommand {
    GameCommand {
        game: crate::TOY,
        slot: Slot::Own {
            name: "toy-count",
            about: "Count the crates of each toy level of a pack",
        },
        models: &[],
        args: CountArgs::augment_args,
        run: |m| {
            for line in count(&CountArgs::from_arg_matches(m)?)? {
                println!("{line}");
            }
            Ok(ExitCode::SUCCESS)
        },
        bounds: &[],
        example: &["toy-count", "never.ron"],
    }
}
