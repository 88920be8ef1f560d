//! GVGAI's five Zelda levels and the fewest-tick wins its own forward model found by BFS
//! (monsters made `Immovable`; ../shared/reports/dungeon-vs-gvgai.md §2), replayed on the
//! dungeon's rules: each recorded action sequence wins at the same tick, and the skeleton
//! graph's shortest solution is exactly as long.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[dungeon::plugin]);
}

use dungeon::skeleton::{skeleton, DEFAULT_BUDGET};
use dungeon::{Action, Dir, Outcome, Play, Room};

/// The levels as GVGAI ships them (`examples/gridphysics/zelda_lvl0..4.txt`, spaces as `.`),
/// with GVGAI's BFS solution (U D L R a move or a turn, S the sword).
const LEVELS: [(&str, &str); 5] = [
    (
        "wwwwwwwwwwwww\nwA.......w..w\nw..w........w\nw...w...w.+ww\nwww.w2..wwwww\nw.......w.g.w\nw.2........ww\nw.....2....ww\nwwwwwwwwwwwww\n",
        "RRRRRRRDDRRRDDUULLLLDDDDDRRRRUU",
    ),
    (
        "wwwwwwwwwwwww\nw.3.gw....1.w\nw..www......w\nw..........2w\nw.......wwwww\nw.......w+..w\nw...w...w...w\nwA..w.......w\nwwwwwwwwwwwww\n",
        "RRUUURRRRRDDDRRRUUUDDDLLLLLUUULLLLUUUUSURRR",
    ),
    (
        "wwwwwwwwwwwww\nw..3.ww....Aw\nw....w......w\nw.w.....wwwww\nw+w........1w\nw.w..wwwwwwww\nw.......w...w\nw...2w....wgw\nwwwwwwwwwwwww\n",
        "LLLLLDDDLLLLLUULLLDDDDDDRRRRRRRDDRRRUURRRDD",
    ),
    (
        "wwwwwwwwwwwww\nw..........gw\nw....w......w\nw.w.w..1....w\nw+w.........w\nww1..2..3...w\nw..w..w.w.w.w\nw...A.......w\nwwwwwwwwwwwww\n",
        "UUULLUUUULLLDDDUUUURRRRRRRRRRR",
    ),
    (
        "wwwwwwwwwwwww\nw....w....g.w\nw...www.....w\nw.2..www....w\nw..wwwwwww..w\nw......w....w\nw....w...2..w\nwA...w+...1.w\nwwwwwwwwwwwww\n",
        "RRRUUURRRDDDRRRSRUUUUUUU",
    ),
];

/// GVGAI's fewest ticks to a win on each level.
const FEWEST: [usize; 5] = [31, 43, 43, 30, 24];

fn action(letter: char) -> Action {
    match letter {
        'U' => Action::Move(Dir::Up),
        'D' => Action::Move(Dir::Down),
        'L' => Action::Move(Dir::Left),
        'R' => Action::Move(Dir::Right),
        'S' => Action::Sword,
        other => panic!("no action {other:?}"),
    }
}

#[test]
fn gvgai_recorded_solutions_win_at_the_same_tick() {
    for (level, ((text, solution), fewest)) in LEVELS.iter().zip(FEWEST).enumerate() {
        assert_eq!(solution.len(), fewest);
        let room = Room::parse_ascii(text).unwrap();
        // Monsters that never move, as in GVGAI's BFS: only the avatar's half of each tick.
        let mut play = Play::start(&room);
        for (i, letter) in solution.chars().enumerate() {
            assert_eq!(
                play.outcome,
                Outcome::Playing,
                "lvl{level}: over before tick {i}"
            );
            play.tick += 1;
            play.avatar_acts(&room, action(letter));
        }
        assert_eq!(
            (play.outcome, play.tick as usize),
            (Outcome::Won, fewest),
            "lvl{level}"
        );
        let graph = skeleton(&room, DEFAULT_BUDGET).unwrap();
        let shortest = graph.shortest_solution().unwrap();
        assert_eq!(
            shortest.len(),
            fewest,
            "lvl{level}: the skeleton's shortest win"
        );
    }
}
