//! The `level-studio` binary: a sub-command runs headless; no arguments prints help.

use std::process::ExitCode;

fn main() -> ExitCode {
    match level_studio::cli::run_from_args() {
        Some(code) => code,
        None => {
            level_studio::cli::print_help();
            ExitCode::SUCCESS
        }
    }
}
