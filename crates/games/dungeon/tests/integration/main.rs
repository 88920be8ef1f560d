//! The dungeon's integration tests, one module per subject (`gvgai`, `starter`). One test binary,
//! so a change links it once (`cargo test -p dungeon --test integration <module>::` runs one
//! module).

mod gvgai;
mod starter;
