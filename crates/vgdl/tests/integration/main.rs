//! The VGDL reader's and engine's integration tests, one module per subject (`gvgai`, `limits`,
//! `loading`, `mutants`, `traces`). One test binary, so a change links it once (`cargo test -p vgdl
//! --test integration <module>::` runs one module).

mod gvgai;
mod limits;
mod loading;
mod mutants;
mod traces;
