//! Hand-counted state graphs of tiny Longcat levels: every class and every graph variable is
//! checked against counts worked out on paper (the reasoning is in the comments), and the
//! player model on levels small enough to compute by hand.
//!
//! Coordinates are `(x, y)`, `y = 0` the top row.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[longcat::plugin]);
}

use longcat::LongcatGraph;
use longcat::{
    Direction, GraphAnalysis, GraphVariables, LongcatLevel, NodeClass, State, StateGraph,
    DEFAULT_BUDGET,
};

fn analyse(text: &str) -> GraphAnalysis {
    GraphAnalysis::of(
        &LongcatLevel::parse_ascii(text).expect("a valid level"),
        DEFAULT_BUDGET,
    )
    .expect("small graph")
}

/// [success, fail, dead, solution, indeterminate] node counts.
fn classes(a: &GraphAnalysis) -> [usize; 5] {
    let mut c = [0; 5];
    for n in a.graph.nodes() {
        c[n.class as usize] += 1;
    }
    c
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn corridor() {
    // `@...`: the only legal move is R, which slides the head to (3,0) and fills everything.
    // Two states: the start (solution, out-degree 1) and the success. No branch anywhere.
    let a = analyse("@...\n");
    assert_eq!(
        a.variables,
        GraphVariables {
            states: 2,
            size: 4,
            branches: 0,
            solutions: 1,
            fails: 0,
            shortest_solution: Some(1),
            solution_branches: 0,
            non_dead: 2,
            dead: 0,
            indeterminate: 0,
            indeterminate_branches: 0,
        }
    );
    assert_eq!(classes(&a), [1, 0, 0, 1, 0]);
    let start = a.graph.node(a.graph.start());
    assert_eq!(start.class, NodeClass::Solution);
    assert_eq!(
        start.edges().map(|e| e.action).collect::<Vec<_>>(),
        vec![Direction::Right]
    );
    assert_eq!(a.graph.node(1).depth, 1);
    // The player never chooses: P = 1, M = 0, difficulty 0.
    assert_eq!(a.difficulty, Some(0.0));
}

#[test]
fn l_shape() {
    // @..      R slides to (2,0) (the edge stops it); from there L is body, U/R are edges,
    // ##.      D slides to (2,2) and fills the last cell. Three states in a chain:
    // ##.      start (solution) → (2,0) (solution) → (2,2) (success). Shortest solution RD.
    let a = analyse("@..\n##.\n##.\n");
    assert_eq!(
        a.variables,
        GraphVariables {
            states: 3,
            size: 9,
            branches: 0,
            solutions: 1,
            fails: 0,
            shortest_solution: Some(2),
            solution_branches: 0,
            non_dead: 3,
            dead: 0,
            indeterminate: 0,
            indeterminate_branches: 0,
        }
    );
    assert_eq!(classes(&a), [1, 0, 0, 2, 0]);
    assert_eq!(
        a.graph.shortest_solution(),
        Some(vec![Direction::Right, Direction::Down])
    );
    let depths: Vec<u32> = a.graph.nodes().iter().map(|n| n.depth).collect();
    assert_eq!(depths, vec![0, 1, 2]);
    assert_eq!(a.difficulty, Some(0.0));
}

#[test]
fn room_with_two_solutions() {
    // @.   From the start R goes to (1,0) and D to (0,1) (U, L: edges). Each arm then has
    // ..   one move: after R only D (to (1,1)), then only L (to (0,1)) → all filled;
    //      after D only R (to (1,1)), then only U (to (1,0)) → all filled. The two full
    // boards differ by the head's cell, so there are two success states.
    // States: start, R, D, RD, DR, RDL, DRU = 7. Branches: the start has out-degree 2 → 1.
    // Classes: 2 success, 5 solution (start, R, D, RD, DR). Shortest solution 3.
    let a = analyse("@.\n..\n");
    assert_eq!(
        a.variables,
        GraphVariables {
            states: 7,
            size: 4,
            branches: 1,
            solutions: 2,
            fails: 0,
            shortest_solution: Some(3),
            solution_branches: 1,
            non_dead: 7,
            dead: 0,
            indeterminate: 0,
            indeterminate_branches: 0,
        }
    );
    assert_eq!(classes(&a), [2, 0, 0, 5, 0]);
    // Both arms succeed: P(start) = 1; the start is the only choice: M(start) = 1.
    assert!(close(a.player.start_success_chance(), 1.0));
    assert!(close(a.player.start_expected_charge(), 1.0));
    assert_eq!(a.difficulty, Some(1.0));
}

#[test]
fn fail_dead_and_indeterminate_states() {
    // @.#   The start (0,0) has two moves (U, L: edges):
    // ...   R → head (1,0) (the wall stops it): call it A.
    // ...   D → head (0,2): call it B.
    //
    // A: only D (L body, R wall, U edge) → A1, head (1,2), column 1 filled. A1's EMPTY cells
    //    are {(0,1),(0,2)} and {(2,1),(2,2)}: two regions → dead. A1 has two moves:
    //    L → (0,2) (dead: {(0,1)} and {(2,1),(2,2)}), then U → (0,1): no move left → fail;
    //    R → (2,2) (dead: {(0,1),(0,2)} and {(2,1)}), then U → (2,1) (the wall stops it):
    //    no move left → fail.
    //    A itself: six connected EMPTY cells, a move, but every path runs into A1 → A is
    //    indeterminate (out-degree 1, so no indeterminate branch).
    // B: only R → (2,2); then only U → (2,1) (wall above); then only L → (1,1) ((0,1) is
    //    body); then only U → (1,0), the last cell → success. Moves D R U L U: 5.
    //
    // States: start, A, A1, A1L, A1LU, A1R, A1RU, B, BR, BRU, BRUL, BRULU = 12.
    // Classes: success 1 (BRULU), fail 2 (A1LU, A1RU), dead 3 (A1, A1L, A1R),
    // solution 5 (start, B, BR, BRU, BRUL), indeterminate 1 (A).
    // Branches: the start (2 moves) and A1 (2 moves) → 2; solution branches 1 (the start).
    let a = analyse("@.#\n...\n...\n");
    assert_eq!(
        a.variables,
        GraphVariables {
            states: 12,
            size: 9,
            branches: 2,
            solutions: 1,
            fails: 2,
            shortest_solution: Some(5),
            solution_branches: 1,
            non_dead: 9,
            dead: 3,
            indeterminate: 1,
            indeterminate_branches: 0,
        }
    );
    assert_eq!(classes(&a), [1, 2, 3, 5, 1]);
    let start = a.graph.node(0);
    let a_node = a.graph.node(start.successor(Direction::Right).unwrap());
    assert_eq!(a_node.class, NodeClass::Indeterminate);
    let a1 = a.graph.node(a_node.successor(Direction::Down).unwrap());
    assert_eq!(a1.class, NodeClass::Dead);
    assert_eq!(a1.depth, 2);
    let fail = a.graph.node(
        a.graph
            .node(a1.successor(Direction::Left).unwrap())
            .successor(Direction::Up)
            .unwrap(),
    );
    assert_eq!(fail.class, NodeClass::Fail);
    assert_eq!(fail.out_degree(), 0);
    // Player model: A leads only to the dead A1 (P = 0, M = 0, the player restarts there),
    // B's chain has no choice (P = 1, M = 0). The start: P = (0 + 1)/2 = 1/2,
    // M = (0 + 0)/2 + 1 = 1. Difficulty = 1 / (1/2) = 2.
    assert!(close(a.player.start_success_chance(), 0.5));
    assert!(close(a.player.start_expected_charge(), 1.0));
    assert_eq!(a.difficulty, Some(2.0));
}

#[test]
fn dead_at_the_start_is_unsolvable() {
    // .@..  The head splits the EMPTY cells into {(0,0)} and {(2,0),(3,0)}: the start is
    // dead. L → (0,0): R is body → fail. R → (3,0): L is body → fail. Three states.
    let a = analyse(".@..\n");
    assert_eq!(classes(&a), [0, 2, 1, 0, 0]);
    assert_eq!(a.variables.shortest_solution, None);
    assert_eq!(a.variables.branches, 1);
    assert_eq!(a.variables.non_dead, 2);
    assert!(!a.solvable());
    assert_eq!(a.difficulty, None);
}

#[test]
fn player_model_on_paper() {
    // .@.   Start (1,0). U is the edge. Three moves:
    // ...   L → (0,0), then only D → (0,1), then only R → (2,1), then only U → (2,0): solved.
    //       R → the mirror image: solved after R D L U.
    //       D → (1,1): the EMPTY cells {(0,0),(0,1)} and {(2,0),(2,1)} are split → dead.
    //       From there L → (0,1) (dead) → U → (0,0): fail; R → (2,1) (dead) → U: fail.
    // States: start + 4 (L arm) + 4 (R arm) + 5 (D arm) = 14.
    // P(start) = (1 + 1 + 0)/3 = 2/3; M(start) = (0 + 0 + 0)/3 + 1 = 1 (the arms have no
    // choice; the dead arm ends the attempt at once). Difficulty = 1 / (2/3) = 1.5.
    let a = analyse(".@.\n...\n");
    assert_eq!(a.variables.states, 14);
    assert_eq!(classes(&a), [2, 2, 3, 7, 0]);
    assert!(close(a.player.start_success_chance(), 2.0 / 3.0));
    assert!(close(a.player.start_expected_charge(), 1.0));
    assert!(close(a.difficulty.unwrap(), 1.5));

    // @...   Start (0,0): R → (3,0), D → (0,1) (U, L: edges).
    // ....   R arm: from (3,0) only D → (3,1); then only L → (0,1): solved (R D L).
    //        D arm: from (0,1) only R → (3,1); then only U → (3,0) (the edge stops it);
    //        then only L → (1,0) ((0,0) is body): solved (D R U L).
    // States: 1 + 3 + 4 = 8. Both arms solve without a choice: P = 1, M = 1 (the start's
    // fork), difficulty 1.
    let b = analyse("@...\n....\n");
    assert!(close(b.player.start_success_chance(), 1.0));
    assert_eq!(b.difficulty, Some(1.0));
    assert_eq!(b.variables.solutions, 2);
    assert_eq!(b.variables.states, 8);
    assert_eq!(b.variables.shortest_solution, Some(3));
}

#[test]
fn player_model_with_a_fork_inside_an_arm() {
    // Per-node values follow the definition at every node, whatever the level:
    // success P = 1, M = 0; dead/fail P = 0, M = 0; otherwise the means over successors,
    // plus one in M where the out-degree is at least 2.
    let a = analyse("...\n.@.\n...\n");
    for (id, node) in a.graph.nodes().iter().enumerate() {
        let (p, m) = (a.player.success_chance[id], a.player.expected_charge[id]);
        match node.class {
            NodeClass::Success => assert!(p == 1.0 && m == 0.0),
            NodeClass::Fail | NodeClass::Dead => assert!(p == 0.0 && m == 0.0),
            _ => {
                let d = node.out_degree() as f64;
                let mp: f64 = node
                    .edges()
                    .map(|e| a.player.success_chance[e.to])
                    .sum::<f64>()
                    / d;
                let mm: f64 = node
                    .edges()
                    .map(|e| a.player.expected_charge[e.to])
                    .sum::<f64>()
                    / d;
                assert!(close(p, mp));
                assert!(close(
                    m,
                    mm + if node.out_degree() >= 2 { 1.0 } else { 0.0 }
                ));
            }
        }
    }
}

#[test]
fn graph_edges_follow_the_rules() {
    let level = LongcatLevel::parse_ascii("@....\n..#..\n.....\n").unwrap();
    let graph = StateGraph::build(&level, DEFAULT_BUDGET).unwrap();
    assert_eq!(graph.node(0).state, State::start(&level));
    for node in graph.nodes() {
        for d in Direction::ALL {
            match (node.state.apply(d), node.successor(d)) {
                (Some(s), Some(to)) => {
                    assert_eq!(graph.node(to).state, s);
                    assert!(graph.node(to).depth <= node.depth + 1);
                }
                (None, None) => {}
                other => panic!("edge {d} disagrees with the rules: {other:?}"),
            }
        }
    }
}
