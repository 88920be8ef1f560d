//! Match-3's integration tests, one module per subject (`bots`, `cvae_metrics`, `cvae_model`). One
//! test binary, so a change links it once (`cargo test -p match3 --test integration <module>::`
//! runs one module).

mod bots;
mod cvae_metrics;
mod cvae_model;
