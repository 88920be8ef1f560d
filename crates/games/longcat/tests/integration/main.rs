//! Longcat's integration tests, one module per subject (`dqn`, `engine`, `graph`, `starter`). One
//! test binary, so a change links it once (`cargo test -p longcat --test integration <module>::`
//! runs one module).

mod dqn;
mod engine;
mod graph;
mod starter;
