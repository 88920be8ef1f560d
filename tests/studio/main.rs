//! The studio's library and command line with every shipped game installed, one module per
//! subject: files and packs (`files`), bad input (`bad_input`, `fuzz`, `reliability`), the flag
//! ranges (`bounds`), each game's commands (`*_cli`), the cVAE files (`cvae_files`), the
//! document model with real games' hooks (`document_*`), games as plug-ins (`registry`, which
//! also registers the toy game). One test binary, so a change links
//! it once (`cargo test --test studio files::` runs one module).

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// Asserts that a run of the studio succeeded, with its stderr as the message.
#[track_caller]
pub fn assert_ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The studio's games, installed as the binary installs them.
#[ctor::ctor]
fn install_games() {
    level_studio::install_games();
}

mod architecture;
mod bad_input;
mod blend_cli;
mod bounds;
mod cli_match3;
mod course_cli;
mod cvae_cli;
mod cvae_files;
mod device_cli;
mod document_board;
mod document_editor;
mod dungeon_cli;
mod dungeon_import;
mod files;
mod fuzz;
mod level_vae_cli;
mod longcat_cli;
mod mario_cli;
mod mario_files;
mod mario_play;
mod pack_out;
mod registry;
mod reliability;
mod shard_cli;
mod vgdl_cli;
mod vgdl_zelda;
