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

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The shortest win: its actions.
    Win(Vec<Action>),
    /// Every state reachable was seen: no win.
    NoWin,
    /// The budget of states ran out first.
    OutOfBudget,
}

/// The shortest sequence of the avatar's actions (NIL included) that wins from `start`,
/// searching at most `budget` distinct states.
pub fn shortest_win(start: &State, budget: usize) -> Found {
    let mut seen: HashSet<u64> = HashSet::new();
    // Each node: the state and where it came from (index of parent, action).
    let mut nodes: Vec<(usize, Action)> = vec![(usize::MAX, Action::Nil)];
    let mut queue: VecDeque<(usize, State)> = VecDeque::new();
    seen.insert(state_key(start));
    queue.push_back((0, start.clone()));
    while let Some((at, state)) = queue.pop_front() {
        let mut actions: Vec<Action> = state.actions().to_vec();
        actions.push(Action::Nil);
        for action in actions {
            let mut next = state.clone();
            next.step(action);
            if next.winner == Winner::Loses {
                continue;
            }
            let key = state_key(&next);
            if !seen.insert(key) {
                continue;
            }
            nodes.push((at, action));
            let me = nodes.len() - 1;
            if next.winner == Winner::Wins {
                let mut path = Vec::new();
                let mut i = me;
                while i != 0 {
                    path.push(nodes[i].1);
                    i = nodes[i].0;
                }
                path.reverse();
                return Found::Win(path);
            }
            if seen.len() >= budget {
                return Found::OutOfBudget;
            }
            queue.push_back((me, next));
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
            Found::OutOfBudget
        );
    }
}
