//! The `level-studio` binary: a sub-command runs headless; no sub-command opens the studio.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Like other command-line tools, stop quietly when the reader of our output goes away
    // (`level-studio validate … | head`) instead of panicking on the broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // The models allocate and free tensors of a few megabytes at every step. glibc's defaults
    // give each its own fresh pages (mmap) and hand them back at once, so most of a training's
    // time went to the kernel zeroing pages: keep freed memory for the next step instead
    // (measured on the dungeon level VAE: 23 s to 7 s for 30 epochs, the same weights).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's thresholds; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
    level_studio::install_games();
    match level_studio::cli::run_from_args() {
        Some(code) => code,
        None => open_window(),
    }
}

#[cfg(feature = "gui")]
fn open_window() -> ExitCode {
    match level_studio::app::run_native() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: could not open the studio window: {e}");
            eprintln!("(the command line works without a display: level-studio --help)");
            ExitCode::FAILURE
        }
    }
}

#[cfg(not(feature = "gui"))]
fn open_window() -> ExitCode {
    level_studio::cli::print_help();
    eprintln!(
        "(this build has no window: build with the default `gui` feature to open the studio)"
    );
    ExitCode::SUCCESS
}
