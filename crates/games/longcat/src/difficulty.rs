//! The player model of SPEC §2.2, computed exactly on the state graph, and the line between
//! trivial and non-trivial levels on its scale.
//!
//! A player picks uniformly among the legal moves, restarts at once on a dead or fail state,
//! and is charged one unit for each move taken where there was a real choice (out-degree ≥ 2).
//! `P(s)` is the chance that one attempt from `s` succeeds and `M(s)` its expected charge; the
//! difficulty is `M(start) / P(start)`, the expected charge until the first success (Wald's
//! identity over independent attempts).

pub use studio_core::game::explore::PlayerModel;

/// Levels with a player-model difficulty below this are trivial.
///
/// One unit is one real choice made by a random player who already discards visibly dead
/// boards. A level with one fork of up to four moves, whose wrong arms need no further
/// choice, costs at most 4 (`P = 1/k`, `M = 1`); two binary forks in a row cost 6
/// (`P = 1/4`, `M = 1.5`). Non-trivial starts at 10: the player should expect to make ten real
/// choices: more than any level with a single decision point or two binary forks in a row,
/// while three in a row (`P = 1/8`, `M = 1.75`, 14) is non-trivial. The thesis calls a level trivial below 20 seconds of predicted completion
/// time, which left 8.2 % of the solution-down random generator's 8×8 levels non-trivial;
/// this threshold, chosen on the scale's own meaning and not tuned, gives 9.9 % on the same
/// generator (README table), so both scales draw the line in about the same place.
pub const NON_TRIVIAL_DIFFICULTY: f64 = 10.0;

/// True when a level's difficulty is at least [`NON_TRIVIAL_DIFFICULTY`].
pub fn is_non_trivial(difficulty: Option<f64>) -> bool {
    difficulty.is_some_and(|d| d >= NON_TRIVIAL_DIFFICULTY)
}
