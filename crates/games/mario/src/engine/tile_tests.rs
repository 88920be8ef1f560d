//! The framework's further tiles, tick by tick. Each expected figure is the Mario AI
//! Framework's own: the same level text and button script were played by its engine
//! (`MarioWorld.update`, built from its public sources outside the repository, the way
//! `play --game mario LEVEL --actions SCRIPT --trace --sprites` prints) and the lines
//! compared; the figures below are read from those traces, and the rules that make them
//! are in `sprites.rs` and `world.rs`.

use super::*;
use crate::formats::read_mario_ai;
use crate::script;
use crate::tiles::Tile;
use std::sync::Arc;

/// A 16-row, 32-column framework level: `rows` places text at a row (padded with air);
/// rows 14 and 15 are ground unless given.
fn level(rows: &[(usize, &str)]) -> String {
    let mut out = String::new();
    for y in 0..16 {
        let given = rows.iter().find(|r| r.0 == y).map(|r| r.1);
        let row = given.unwrap_or(if y >= 14 {
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
        } else {
            ""
        });
        out.push_str(&format!("{row:-<32}\n"));
    }
    out
}

/// Every tick's world, from the framework's initial no-button update (tick 0) on.
fn trace(rows: &[(usize, &str)], buttons: &str) -> Vec<World> {
    let level = read_mario_ai(&level(rows)).expect("a level");
    let mut world = crate::evaluate::new_world(&Arc::new(LevelMap::from_level(&level)));
    world.step(Action::NONE);
    let mut out = vec![world.clone()];
    for action in script::parse(buttons).expect("a script") {
        if !world.is_running() {
            break;
        }
        world.step(action);
        out.push(world.clone());
    }
    out
}

fn only(world: &World) -> SpriteView {
    let all: Vec<SpriteView> = world.sprites().collect();
    assert_eq!(all.len(), 1, "{all:?}");
    all[0]
}

#[test]
fn a_red_koopa_turns_at_both_ledges_and_a_green_one_walks_off() {
    let t = trace(
        &[
            (11, "-----------r---k"),
            (12, "----------####-###"),
            (13, "-M"),
        ],
        "-*200",
    );
    let red = |w: &World| {
        w.sprites()
            .find(|s| s.kind == SpriteKind::RedKoopa)
            .expect("the red koopa")
    };
    // The framework: it starts at 182.25 walking left, turns at 164 (tick 11) and at 219
    // (tick 43), and never leaves the four blocks; the green koopa falls to the ground.
    assert_eq!(red(&t[0]).x, 182.25);
    assert_eq!(red(&t[11]).x, 164.0);
    assert_eq!(red(&t[43]).x, 219.0);
    assert!(t
        .iter()
        .all(|w| (164.0..=219.0).contains(&red(w).x) && red(w).y == 191.0));
    assert_eq!(red(&t[200]).x, 168.25);
    let green = t[200]
        .sprites()
        .find(|s| s.kind == SpriteKind::Koopa)
        .expect("the green koopa");
    assert_eq!((green.x, green.y), (228.0, 223.0));
}

#[test]
fn a_winged_goomba_hops_loses_its_wings_to_a_stomp_and_dies_to_the_next() {
    // Mario drops into a one-tile pit where the goomba hops between two walls.
    let t = trace(
        &[
            (5, "-----------M"),
            (11, "----------#-#"),
            (12, "----------#-#"),
            (13, "----------#G#"),
        ],
        "-*80",
    );
    let g = only(&t[1]);
    assert!(g.winged && g.born_winged);
    assert_eq!((g.x, g.y, g.ya), (187.5, 223.0, -10.0));
    // Tick 8: the stomp (Mario bounces at -15.2); the goomba keeps its place, without wings.
    assert_eq!(t[8].mario().vy(), -15.2);
    let g = only(&t[8]);
    assert!(!g.winged && g.born_winged);
    assert_eq!((g.x, g.ya), (181.75, 0.0));
    assert_eq!(only(&t[9]).ya, 2.0);
    // Tick 21: the second stomp kills it.
    assert_eq!(t[20].sprites().count(), 1);
    assert_eq!(t[21].sprites().count(), 0);
    assert_eq!(t[21].mario().y(), 217.0);
    assert!(t[80].is_running());
}

#[test]
fn winged_koopas_lose_their_wings_then_become_shells_and_spikies_hurt() {
    let pit = |enemy: &str, start: usize| {
        trace(
            &[
                (start, "-----------M"),
                (11, "----------#-#"),
                (12, "----------#-#"),
                (13, &format!("----------#{enemy}#")),
            ],
            "-*80",
        )
    };
    for enemy in ["K", "R"] {
        let t = pit(enemy, 5);
        let last = only(&t[80]);
        assert_eq!(last.kind, SpriteKind::Shell, "{enemy}");
        assert_eq!((last.x, last.y), (187.0, 223.0), "{enemy}");
        assert!(t[80].is_running());
    }
    // A spiky is never stomped: landing on it loses (tick 11 from row 5, 14 from row 2).
    let t = pit("y", 5);
    assert_eq!(t.len(), 12);
    assert_eq!(t[11].status(), Status::Lost(Cause::Enemy));
    assert!(t[11].mario().vy() > 0.0);
    let t = pit("Y", 8);
    assert_eq!(t.len(), 6);
    assert_eq!(t[5].status(), Status::Lost(Cause::Enemy));
}

#[test]
fn a_piranha_plant_rises_waits_and_stays_down_while_mario_is_near() {
    let far = trace(&[(12, "----------TT"), (13, "-M--------TT")], "-*300");
    let plant = |w: &World| only(w);
    // The framework: 1 px a tick from 209 up to 189, then back; turns at ticks 61, 121,
    // 182 and 242.
    assert_eq!((plant(&far[0]).x, plant(&far[0]).y), (177.0, 209.0));
    for (tick, y, ya) in [
        (60, 189.0, -1.0),
        (61, 191.0, 1.0),
        (121, 209.0, -1.0),
        (182, 191.0, 1.0),
    ] {
        let p = plant(&far[tick]);
        assert_eq!((p.y, p.ya), (y, ya), "tick {tick}");
    }
    // Mario standing on the pipe keeps it down until he walks away (ticks 121–215).
    let near = trace(
        &[(11, "-----M"), (12, "-----TT"), (13, "-----TT")],
        "-*200,R*10,-*200",
    );
    for (tick, world) in near.iter().enumerate().take(215).skip(121) {
        assert!(plant(world).y >= 209.0, "tick {tick}");
    }
    assert_eq!(plant(&near[215]).ya, -1.0);
}

#[test]
fn a_cannon_fires_a_bullet_bill_every_hundred_ticks_towards_mario() {
    let t = trace(&[(12, "--------------*"), (13, "-M------------*")], "-*250");
    assert_eq!(t[98].sprites().count(), 0);
    let bill = only(&t[99]);
    assert_eq!(bill.kind, SpriteKind::BulletBill);
    assert_eq!((bill.x, bill.y, bill.xa), (220.0, 207.0, -4.0));
    assert_eq!(only(&t[100]).x, 216.0);
    // It leaves the camera's reach at tick 172; the next comes at tick 199.
    assert_eq!(t[172].sprites().count(), 0);
    assert_eq!(only(&t[199]).x, 220.0);
    // From the left of Mario, it flies right.
    let t = trace(&[(12, "--*"), (13, "--*-------M")], "-*100");
    let bill = only(&t[99]);
    assert_eq!((bill.x, bill.xa), (52.0, 4.0));
}

#[test]
fn platforms_let_mario_up_from_below_and_hold_him_from_above() {
    let t = trace(
        &[(11, "--%%%%%%"), (12, "--||||||"), (13, "--||M|||")],
        "-*3,J*3,-*60",
    );
    let last = t.last().expect("ticks");
    assert_eq!((last.mario().x(), last.mario().y()), (72.0, 175.0));
    assert!(last.mario().on_ground());
}

#[test]
fn an_invisible_block_shows_when_bumped_and_gives_its_1_up() {
    let t = trace(
        &[(10, "-1----2"), (13, "-M")],
        "-*3,J*12,-*40,R*16,-*10,J*12,-*60",
    );
    // The framework: the 1-up mushroom rises out at tick 6, at (25, 167).
    assert_eq!(t[5].sprites().count(), 0);
    let up = only(&t[6]);
    assert_eq!(
        (up.kind, up.x, up.y),
        (SpriteKind::LifeMushroom, 25.0, 167.0)
    );
    assert_eq!(t[6].tiles_now(1, 10), Tile::UsedBlock);
    // The coin block pays at the second jump.
    assert_eq!(t.last().expect("ticks").coins(), 1);
    assert_eq!(t.last().expect("ticks").tiles_now(6, 10), Tile::UsedBlock);
    // Walking through an invisible block's cell sideways does nothing to it.
    let walk = trace(&[(13, "-M--2")], "R*30");
    assert_eq!(
        walk.last().expect("ticks").tiles_now(4, 13),
        Tile::HiddenCoinBlock
    );
}
