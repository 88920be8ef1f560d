//! Breadth-first search over a game's states: the shortest win, action by action, for a
//! game that is deterministic from where it stands (the monsters frozen with
//! [`State::freeze_npcs`](crate::State::freeze_npcs), say). What the studio compares with the
//! dungeon game's exact skeleton (issue 45, item 7).

use std::collections::{HashSet, VecDeque};

use crate::engine::{Action, State, Winner};

/// A state's identity for the search: every sprite in play with its place, direction, age and
/// holdings, and the avatar's type (the score and the tick count left out: they do not change
/// what can still happen in a game without a time limit reached).
pub fn state_key(state: &State) -> u64 {
    // A fast multiply-xor hash (the keys only need to tell states apart within one search).
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut mix = |v: u64| {
        h = (h ^ v).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    };
    let rules = state.rules();
    for (k, group) in state.groups.iter().enumerate() {
        mix(k as u64);
        if rules.fixed[k] {
            // Fixed sprites never move: which of them are left says it all.
            for s in group.iter().filter(|s| !s.dead) {
                mix(u64::from(s.id));
            }
            continue;
        }
        for s in group.iter().filter(|s| !s.dead) {
            mix((s.rect.x as u32 as u64) << 32 | s.rect.y as u32 as u64);
            mix(s.orientation.x.to_bits() ^ s.orientation.y.to_bits().rotate_left(17));
            mix((s.counter as u32 as u64) << 32 | s.hp as u32 as u64);
            mix(u64::from(s.disabled) | u64::from(s.first_tick) << 1);
            mix(s.lastmove.min(rules.types[k].proto.cooldown) as u32 as u64);
            for &(r, n) in &s.resources {
                mix((r as u64) << 32 | n as u32 as u64);
            }
        }
    }
    mix(u64::from(state.winner_code()));
    h
}

/// Which of a search's budgets ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The number of distinct states it may see.
    States,
    /// The memory it may hold (its index of states seen and the waiting states).
    Memory,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The shortest win: its actions.
    Win(Vec<Action>),
    /// Every state reachable was seen: no win.
    NoWin,
    /// A budget ran out first (which one), after this many distinct states.
    OutOfBudget(Budget, usize),
}

/// The memory a search holds at most unless told otherwise: 1 GiB (measured peaks: 0.84 GB
/// for a million states of GVGAI's Sokoban level 0, docs/vgdl.md).
pub const SEARCH_MEMORY: usize = 1 << 30;

/// The shortest sequence of the avatar's actions (NIL included) that wins from `start`,
/// searching at most `budget` distinct states within [`SEARCH_MEMORY`].
pub fn shortest_win(start: &State, budget: usize) -> Found {
    shortest_win_within(start, budget, SEARCH_MEMORY)
}

/// Bytes the search's index takes per state seen: its key in the set of states seen and its
/// parent link and action, with the spare room and the copies of growing them.
const INDEX_BYTES: usize = 48;

/// As [`shortest_win`], holding at most about `memory` bytes. Each state seen costs only its
/// key and a link to its parent with the action (F29: keeping every waiting state whole took
/// 10.5 KB a state on Sokoban, 67 KB on plants, so the default million states needed 10–67
/// GB); waiting states are kept whole while they fit in what the index leaves of `memory`,
/// and the others are found again, when their turn comes, by replaying their actions from
/// `start` (the engine is deterministic from a state, its random numbers included).
pub fn shortest_win_within(start: &State, budget: usize, memory: usize) -> Found {
    let mut seen: HashSet<u64> = HashSet::new();
    // Each node: its parent's index and the action from it (the root's parent is itself).
    let mut nodes: Vec<(u32, Action)> = vec![(0, Action::Nil)];
    // The waiting nodes, each with its state while memory allows.
    let mut queue: VecDeque<(u32, Option<Box<State>>)> = VecDeque::new();
    let mut held = 0usize;
    let reserve = budget.saturating_mul(INDEX_BYTES).min(memory);
    seen.insert(state_key(start));
    queue.push_back((0, Some(Box::new(start.clone()))));
    let path = |nodes: &[(u32, Action)], mut i: usize| {
        let mut path = Vec::new();
        while i != 0 {
            path.push(nodes[i].1);
            i = nodes[i].0 as usize;
        }
        path.reverse();
        path
    };
    while let Some((at, kept)) = queue.pop_front() {
        let state = match kept {
            Some(state) => {
                held = held.saturating_sub(state.held_bytes());
                *state
            }
            None => {
                let mut state = start.clone();
                for action in path(&nodes, at as usize) {
                    state.step(action);
                }
                state
            }
        };
        let mut actions: Vec<Action> = state.actions().to_vec();
        actions.push(Action::Nil);
        for action in actions {
            let mut next = state.clone();
            next.step(action);
            if next.winner != Winner::None && next.winner != Winner::Wins {
                // Lost, or stopped by the engine's work bound: no way on from here.
                continue;
            }
            let key = state_key(&next);
            if !seen.insert(key) {
                continue;
            }
            if nodes.len() >= u32::MAX as usize {
                return Found::OutOfBudget(Budget::States, seen.len());
            }
            nodes.push((at, action));
            let me = nodes.len() - 1;
            if next.winner == Winner::Wins {
                return Found::Win(path(&nodes, me));
            }
            if seen.len() >= budget {
                return Found::OutOfBudget(Budget::States, seen.len());
            }
            let index = seen.len() * INDEX_BYTES + queue.len() * size_of::<(u32, usize)>();
            if index > memory {
                return Found::OutOfBudget(Budget::Memory, seen.len());
            }
            // States are counted short of what the allocator takes for them (each list its
            // own block): they may fill three quarters of what the index leaves, the index's
            // room for the whole state budget set aside from the start (states kept early are
            // not given back when the index grows).
            let bytes = next.held_bytes();
            if held + bytes <= (memory - reserve.max(index)) / 4 * 3 {
                held += bytes;
                queue.push_back((me as u32, Some(Box::new(next))));
            } else {
                queue.push_back((me as u32, None));
            }
        }
    }
    Found::NoWin
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A crate to push into a hole, a wall in the way of the direct route.
    const PUSH: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    hole > Immovable
    crate > Passive
    avatar > MovingAvatar
  LevelMapping
    . > floor
    o > floor hole
    c > floor crate
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    crate avatar > bounceForward
    crate wall > undoAll
    crate hole > killSprite scoreChange=3
  TerminationSet
    SpriteCounter stype=crate win=True
";

    fn start(level: &str) -> State {
        let desc = crate::parse(PUSH, "push.txt").unwrap();
        let rules = Arc::new(crate::compile(&desc, "push.txt").unwrap());
        let level = crate::read_level(&desc, level, "l.txt").unwrap();
        State::new(rules, &level, 0).unwrap()
    }

    #[test]
    fn the_shortest_win_is_found_and_a_lost_cause_is_said() {
        assert_eq!(
            shortest_win(&start("wwwwwww\nwAc..ow\nwwwwwww\n"), 10_000),
            Found::Win(vec![Action::Right; 3])
        );
        // Round the pillar: down, right twice, up, then push right twice.
        let found = shortest_win(&start("wwwwww\nw.c.ow\nwAw..w\nw....w\nwwwwww\n"), 10_000);
        let Found::Win(path) = found else {
            panic!("{found:?}")
        };
        let mut s = start("wwwwww\nw.c.ow\nwAw..w\nw....w\nwwwwww\n");
        for &a in &path {
            s.step(a);
        }
        assert_eq!(s.winner, Winner::Wins, "the path found wins");
        // A crate in a corner can never reach the hole.
        assert_eq!(
            shortest_win(&start("wwwww\nwc..w\nw.A.w\nw..ow\nwwwww\n"), 10_000),
            Found::NoWin
        );
        assert_eq!(
            shortest_win(
                &start("wwwwwwwwww\nw........w\nwA.c....ow\nw........w\nwwwwwwwwww\n"),
                3
            ),
            Found::OutOfBudget(Budget::States, 3)
        );
    }

    #[test]
    fn a_search_short_of_memory_replays_its_states_and_says_when_memory_ran_out() {
        let level = "wwwwwwwwww\nw........w\nwA.c.....w\nw......o.w\nwwwwwwwwww\n";
        let whole = shortest_win(&start(level), 100_000);
        let Found::Win(path) = &whole else {
            panic!("{whole:?}")
        };
        // Room for the index of every state seen but for only a few states whole: the rest
        // are found again by replaying their actions, and the answer is the same.
        let one = start(level).held_bytes();
        assert!(one > 1000, "{one} bytes a state");
        let index_only = 64 * 1024;
        assert_eq!(
            shortest_win_within(&start(level), 100_000, index_only),
            whole
        );
        assert_eq!(
            shortest_win_within(&start(level), 100_000, index_only + 5 * one),
            whole
        );
        assert!(path.len() > 5, "{path:?}");
        // Too little even for the index: memory is the budget that ran out.
        assert!(matches!(
            shortest_win_within(&start(level), 100_000, 1000),
            Found::OutOfBudget(Budget::Memory, n) if n < 1000 / INDEX_BYTES + 2
        ));
    }
}
