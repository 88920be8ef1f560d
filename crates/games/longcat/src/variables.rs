//! The graph variables of SPEC §2.2, the numbers the difficulty predictor reads: counted by
//! the generic explorer for any game with a state graph.

pub use studio_core::game::explore::GraphVariables;
