//! GVGAI games' integration tests, one module per subject (`conformance`, `stored_figures`, `studio_game`). One test binary, so a change links it once
//! (`cargo test -p gvgai --test integration <module>::` runs one module).

mod conformance;
mod stored_figures;
mod studio_game;
