//! A fast yes/no solver: depth-first search that stops at the first solution and prunes
//! states that cannot be solved. The generators use it where the full graph is not needed.

use super::graph::GraphError;
use super::rules::{Direction, Geometry, State};
use std::collections::HashSet;

/// True when no play can fill the EMPTY cells from `state`: they form two or more regions,
/// or two of them are dead ends (at most one open neighbour, so each would have to be the
/// last cell filled).
pub(crate) fn is_hopeless(state: &State, geometry: &Geometry) -> bool {
    let empty = geometry.full & !state.filled();
    if empty == 0 {
        return false;
    }
    if geometry.is_split(empty) {
        return true;
    }
    let open = empty | 1u128 << state.head_index();
    geometry.dead_ends(empty, open).count_ones() >= 2
}

/// One solution from `state`, or `None` when there is none.
///
/// # Errors
/// [`GraphError::TooLarge`] when more than `budget` states were visited without an answer.
pub fn solve(state: State, budget: usize) -> Result<Option<Vec<Direction>>, GraphError> {
    let geometry = state.geometry();
    let mut lost: HashSet<u128> = HashSet::new();
    let mut path = Vec::new();
    let mut visits = 0usize;
    if search(state, &geometry, &mut lost, &mut path, &mut visits, budget)? {
        Ok(Some(path))
    } else {
        Ok(None)
    }
}

/// True when a solution exists from `state`.
///
/// # Errors
/// As [`solve`].
pub fn is_solvable(state: State, budget: usize) -> Result<bool, GraphError> {
    solve(state, budget).map(|s| s.is_some())
}

fn search(
    state: State,
    geometry: &Geometry,
    lost: &mut HashSet<u128>,
    path: &mut Vec<Direction>,
    visits: &mut usize,
    budget: usize,
) -> Result<bool, GraphError> {
    if state.filled() & geometry.full == geometry.full {
        return Ok(true);
    }
    if is_hopeless(&state, geometry) || lost.contains(&state.key()) {
        return Ok(false);
    }
    *visits += 1;
    if *visits > budget {
        return Err(GraphError::TooLarge { budget });
    }
    for direction in Direction::ALL {
        if let Some(next) = state.apply(direction) {
            path.push(direction);
            if search(next, geometry, lost, path, visits, budget)? {
                return Ok(true);
            }
            path.pop();
        }
    }
    lost.insert(state.key());
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{StateGraph, DEFAULT_BUDGET};
    use crate::LongcatGraph;
    use crate::LongcatLevel;

    #[test]
    fn agrees_with_the_graph() {
        for text in [
            "@..\n...\n",
            "@.#\n...\n..#\n",
            ".@.\n...\n",
            "...\n.@.\n...\n",
            "@...\n.##.\n....\n",
            "#.@\n...\n#..\n",
        ] {
            let level = LongcatLevel::parse_ascii(text).unwrap();
            let graph = StateGraph::build(&level, DEFAULT_BUDGET).unwrap();
            let start = State::start(&level);
            let answer = solve(start, DEFAULT_BUDGET).unwrap();
            assert_eq!(answer.is_some(), graph.solvable(), "{text}");
            if let Some(path) = answer {
                let end = path.iter().try_fold(start, |s, &d| s.apply(d)).unwrap();
                assert!(end.is_success());
            }
        }
    }
}
