//! Mario's integration tests, one module per subject (`framework_text`, `starter`). One test
//! binary, so a change links it once (`cargo test -p mario --test integration <module>::` runs one
//! module).

mod framework_text;
mod starter;
