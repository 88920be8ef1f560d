//! The starter pack `levels/dungeon/starter.ron`: fifteen hand-made rooms in rising
//! difficulty, checked against the engine (their stored figures are what the analysis says
//! now). `cargo test --release -p dungeon --test integration starter:: -- --ignored` rewrites the pack from the
//! rooms below.

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// This game registered, and the repository root as the working folder (the shipped models
/// and levels are read by their paths from there), as the binary runs.
#[ctor::ctor]
fn install_game() {
    let _ = std::env::set_current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    studio_core::game::registry::install(&[dungeon::plugin]);
}

use dungeon::DungeonFigures;
use dungeon::Room;
use dungeon::{analysis::analyse_room, to_level};
use std::path::Path;
use studio_core::files;
use studio_core::game::AnalyseOptions;
use studio_core::jobs::Cancel;
use studio_core::level::Pack;

const PACK: &str = "levels/dungeon/starter.ron";

/// The rooms: a name line, then the room, blank lines between.
const ROOMS: &str = "\
01 Corridor
wwwwwwwww
wA..+..gw
wwwwwwwww

02 Round the corner
wwwwwww
wA...ww
wwww.ww
w+...ww
w.wwwww
w....gw
wwwwwww

03 The key behind you
wwwwwwwww
w+..A..gw
w.wwwww.w
w.......w
wwwwwwwww

04 Blocks in the way
wwwwwwwwwww
wA..B...B.w
w.B.B.B.B.w
w.B...B..+w
w.BBBBBBB.w
wg........w
wwwwwwwwwww

05 Water maze
wwwwwwwwwww
wA~.....~gw
w.~.~~~.~.w
w.~.~+~.~.w
w...~.~...w
w.~~~.~~~~w
w.........w
wwwwwwwwwww

06 Slow guard
wwwwwwwwwww
wA........w
w.wwwwwww.w
w.w..3..w.w
w.w.....w.w
w+...w...gw
wwwwwwwwwww

07 A monster you must kill
wwwwwwwwwwww
wA...3...+gw
wwwwwwwwwwww

08 Key behind a monster
wwwwwwwwwww
wA........w
w.wwwwwww.w
w.w+.2..w.w
w.ww.wwww.w
w.........w
wwwwwwwwwgw
wwwwwwwwwww

09 Quick in the open
wwwwwwwwwww
wA........w
w.........w
w....1....w
w.........w
w+.......gw
wwwwwwwwwww

10 Two guards
wwwwwwwwwwwww
wA..........w
w.ww.www.ww.w
w.w2.....w..w
w.w..www.w..w
w+...w3.....w
wwwwwwwwww.gw
wwwwwwwwwwwww

11 Slow and quick
wwwwwwwwwwwww
wA....~.....w
w.....~..3..w
w..1..~.....w
w.....~.....w
w+..........w
wwwwwwwwwwwgw
wwwwwwwwwwwww

12 Bridge over water
wwwwwwwwwwwww
wA~~~~~~~~~+w
w.~.......~.w
w.....~.2...w
w~~~~~~~~~~.w
wg..........w
wwwwwwwwwwwww

13 Guarded exit
wwwwwwwwwwwww
w+.........Aw
w.wwwwwwwww.w
w...........w
wwwwwwwww.www
w.1.....3...w
wg..........w
wwwwwwwwwwwww

14 Crowded hall
wwwwwwwwwwwwwww
wA...2.....2..w
w.B.....B.....w
w...1.....3...w
w.....B.....B.w
w.2.......1...w
w.............w
w+...........gw
wwwwwwwwwwwwwww

15 Labyrinth
wwwwwwwwwwwwwwww
wA.w.....w.....w
w..w.ww..w.ww.ww
w..1..w.....w..w
ww.ww.wwww.ww..w
w.....w.2w..w.ww
w.www.w..w..w..w
w...w....w..3..w
www.wwwwww.wwwww
w+.........w..gw
w....ww........w
wwwwwwwwwwwwwwww
";

fn rooms() -> Vec<(String, Room)> {
    ROOMS
        .trim()
        .split("\n\n")
        .map(|block| {
            let (name, text) = block.split_once('\n').unwrap();
            (name.to_string(), Room::parse_ascii(text).unwrap())
        })
        .collect()
}

fn analyse(room: &Room) -> studio_core::game::Analysis {
    analyse_room(room, &AnalyseOptions::default(), &Cancel::default()).unwrap()
}

#[test]
fn stored_figures_match_the_engine_and_the_planner_wins_the_solvable_rooms() {
    let pack = files::load_pack(Path::new(PACK)).unwrap();
    assert!(pack.levels.len() >= 15);
    let mut planner = Vec::new();
    for level in &pack.levels {
        let room = Room::from_rows(&level.cells).unwrap();
        let now = analyse(&room);
        assert_eq!(
            now.figures.as_ref(),
            level.figures.as_ref(),
            "{}",
            level.name
        );
        let f = level.figures_of::<DungeonFigures>().unwrap();
        assert!(f.solvable, "{}", level.name);
        let rate = |agent: &str| f.agents.iter().find(|a| a.agent == agent).unwrap().win_rate;
        assert_eq!(rate("do-nothing"), 0.0, "{}", level.name);
        planner.push(rate("planner"));
    }
    let mean = planner.iter().sum::<f64>() / planner.len() as f64;
    eprintln!("planner mean win rate over the pack: {mean:.3}");
    assert!(mean >= 0.9, "{planner:?}");
}

#[test]
#[ignore = "rewrites levels/dungeon/starter.ron"]
fn build_starter() {
    let mut pack = Pack::new("Dungeon starter");
    pack.description =
        "Fifteen hand-made rooms in rising difficulty: corridors, keys behind you, water, \
         monsters to pass, to kill and to outrun."
            .into();
    for (name, room) in rooms() {
        let mut level = to_level(&room, name);
        level.figures = analyse(&room).figures;
        assert!(level.figures_of::<dungeon::DungeonFigures>().is_some());
        pack.levels.push(level);
    }
    files::save_pack(Path::new(PACK), &pack).unwrap();
}
