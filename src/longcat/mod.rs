//! Longcat, the one-cat sliding puzzle: level model, rules, the full state graph with node
//! classes, difficulty measured on the graph, and generators.

pub mod level;

pub use level::{check_cells, level_from_ascii, Cell, LevelError, LongcatLevel};
