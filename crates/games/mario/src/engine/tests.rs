//! Engine tests: physics against hand-computed values, enemies, blocks, determinism.

use super::*;
use crate::agents::{play, Agent, DoNothing, RandomAgent};
use crate::test_levels::{flat, map, sixty};
use crate::tiles::Tile;

/// Distance covered after `n` ticks of holding a direction from rest, by the framework's
/// rule (accelerate, move, apply friction), in f64.
fn run_distance(acceleration: f64, n: u32) -> f64 {
    let (mut v, mut d) = (0.0f64, 0.0f64);
    for _ in 0..n {
        v += acceleration;
        d += v;
        v *= 0.89;
    }
    d
}

#[test]
fn mario_starts_standing_on_the_first_ground_column() {
    let world = World::new(flat(20));
    assert_eq!(world.mario().x(), 8.0);
    assert_eq!(world.mario().y(), 11.0 * 16.0 + 15.0);
    assert_eq!(world.time_left_ticks(), 666);
}

#[test]
fn running_right_on_flat_ground_matches_the_hand_computed_distance() {
    let mut world = World::new(flat(100));
    for _ in 0..30 {
        world.step(Action::RUN_RIGHT);
    }
    let expected = 8.0 + run_distance(1.2, 30);
    // Closed form: 10.909 · (30 − 0.89 · (1 − 0.89^30) / 0.11) ≈ 241.7 px.
    assert!((expected - 8.0 - 241.7).abs() < 0.2, "{expected}");
    assert!((f64::from(world.mario().x()) - expected).abs() < 0.01);
    assert!(world.mario().on_ground());
    assert_eq!(world.mario().y(), 191.0);

    let mut walker = World::new(flat(100));
    for _ in 0..30 {
        walker.step(Action::RIGHT);
    }
    let expected = 8.0 + run_distance(0.6, 30);
    assert!((f64::from(walker.mario().x()) - expected).abs() < 0.01);
}

#[test]
fn holding_jump_longer_jumps_higher() {
    let apex = |hold: u32| {
        let mut world = World::new(flat(30));
        for _ in 0..3 {
            world.step(Action::NONE);
        }
        let mut top = world.mario().y();
        for t in 0..30 {
            world.step(if t < hold { Action::JUMP } else { Action::NONE });
            top = top.min(world.mario().y());
        }
        assert!(world.mario().on_ground());
        191.0 - top
    };
    let (short, long) = (apex(1), apex(10));
    assert!(short > 10.0 && long > short + 20.0, "{short} {long}");
    assert!(long > 60.0 && long < 80.0, "{long}");
}

#[test]
fn time_runs_out_after_the_limit() {
    let mut world = World::new(flat(30)).with_time_limit(50);
    for _ in 0..50 {
        world.step(Action::NONE);
        assert!(world.is_running());
    }
    world.step(Action::NONE);
    assert_eq!(world.status(), Status::Lost(Cause::Time));
    assert_eq!(world.events().damage, Some(Cause::Time));
}

#[test]
fn reaching_the_goal_column_wins() {
    let mut world = World::new(flat(20));
    for _ in 0..100 {
        world.step(Action::RUN_RIGHT);
    }
    assert_eq!(world.status(), Status::Won);
    assert_eq!(world.mario().x(), 19.0 * 16.0);
}

#[test]
fn goomba_touching_small_mario_loses_with_cause_enemy() {
    let mut rows = vec!["-".repeat(30); 11];
    rows.push(format!("{}g{}", "-".repeat(12), "-".repeat(17)));
    rows.push("X".repeat(30));
    rows.push("X".repeat(30));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let outcome = play(&map(&refs), &mut DoNothing, 300);
    assert_eq!(outcome.status, Status::Lost(Cause::Enemy));
    assert_eq!(outcome.damage_events.len(), 1);
    assert_eq!(outcome.damage_events[0].cause, Cause::Enemy);
}

#[test]
fn big_mario_touched_by_a_goomba_shrinks_then_survives_a_while() {
    let mut rows = vec!["-".repeat(30); 11];
    rows.push(format!("{}g{}", "-".repeat(12), "-".repeat(17)));
    rows.push("X".repeat(30));
    rows.push("X".repeat(30));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut world = World::new(map(&refs)).with_big_mario(true);
    let mut hurt_at = None;
    for t in 0..300 {
        world.step(Action::NONE);
        if world.events().damage.is_some() {
            hurt_at = Some(t);
            break;
        }
    }
    assert!(hurt_at.is_some());
    assert!(world.is_running());
    assert!(!world.mario().big());
    assert_eq!(world.mario().invulnerable_ticks(), INVULNERABLE_TICKS);
    assert_eq!(world.pause_ticks(), POWER_UP_PAUSE);
}

/// Waits `delay` ticks, then holds JUMP; returns the world after the first stomp, if any.
fn stomp_after(map: &std::sync::Arc<LevelMap>, delay: u32) -> Option<World> {
    let mut world = World::new(map.clone());
    for t in 0..200 {
        world.step(if t < delay {
            Action::NONE
        } else {
            Action::JUMP
        });
        if world.events().stomps > 0 {
            return Some(world);
        }
        if !world.is_running() {
            return None;
        }
    }
    None
}

#[test]
fn stomping_a_goomba_kills_it() {
    let mut rows = vec!["-".repeat(30); 11];
    rows.push(format!("{}g{}", "-".repeat(12), "-".repeat(17)));
    rows.push("X".repeat(30));
    rows.push("X".repeat(30));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let level = map(&refs);
    let world = (0..150)
        .find_map(|delay| stomp_after(&level, delay + 3))
        .expect("some jump timing stomps the goomba");
    assert!(world.is_running());
    assert_eq!(world.enemies().count(), 0);
    assert!(world.mario().vy() < 0.0, "Mario bounces off");
}

#[test]
fn stomping_a_koopa_leaves_a_shell_and_kicking_it_sends_it_sliding() {
    let mut rows = vec!["-".repeat(40); 11];
    rows.push(format!("{}k{}", "-".repeat(12), "-".repeat(27)));
    rows.push("X".repeat(40));
    rows.push("X".repeat(40));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let level = map(&refs);
    let mut world = (0..150)
        .find_map(|delay| stomp_after(&level, delay + 3))
        .expect("some jump timing stomps the koopa");
    let shells: Vec<SpriteView> = world.enemies().collect();
    assert_eq!(shells.len(), 1);
    assert_eq!(shells[0].kind, SpriteKind::Shell);
    assert_eq!(shells[0].facing, 0);
    // Walk into the still shell: kicked (or stomped again), it slides away.
    let mut kicked = false;
    for _ in 0..80 {
        let shell_x = world.enemies().next().map_or(0.0, |s| s.x);
        let action = if shell_x > world.mario().x() {
            Action::RIGHT
        } else {
            Action::LEFT
        };
        world.step(action);
        if world.enemies().any(|s| s.facing != 0) {
            kicked = true;
            break;
        }
    }
    assert!(kicked);
    let x0 = world.enemies().next().map_or(0.0, |s| s.x);
    world.step(Action::NONE);
    let x1 = world.enemies().next().map_or(0.0, |s| s.x);
    assert!((x1 - x0).abs() > 5.0, "the shell slides: {x0} → {x1}");
}

/// 14 rows: ground at rows 12–13, Mario at column 3, `tile` at row 8 above him.
fn block_above(tile: char) -> std::sync::Arc<LevelMap> {
    let mut rows = vec!["-".repeat(20); 12];
    rows[8] = format!("---{tile}----------------");
    rows[11] = "---M-------#--------".to_string();
    rows.push("X".repeat(20));
    rows.push("X".repeat(20));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    map(&refs)
}

fn jump_under(world: &mut World) -> TickEvents {
    let mut all = TickEvents::default();
    for _ in 0..3 {
        world.step(Action::NONE);
    }
    for _ in 0..25 {
        world.step(Action::JUMP);
        let e = *world.events();
        all.bumps += e.bumps;
        all.bricks_broken += e.bricks_broken;
        all.coins += e.coins;
    }
    all
}

#[test]
fn big_mario_breaks_a_brick_small_mario_only_bumps_it() {
    let level = block_above('S');
    let mut big = World::new(level.clone()).with_big_mario(true);
    let events = jump_under(&mut big);
    assert_eq!(events.bricks_broken, 1);
    assert_eq!(big.tiles_now(3, 8), Tile::Empty);
    assert_eq!(big.changed_tiles(), 1);

    let mut small = World::new(level);
    let events = jump_under(&mut small);
    assert!(events.bumps >= 1);
    assert_eq!(events.bricks_broken, 0);
    assert_eq!(small.tiles_now(3, 8), Tile::Brick);
}

#[test]
fn coin_boxes_pay_once_and_become_used() {
    for letter in ['!', 'C'] {
        let mut world = World::new(block_above(letter));
        let events = jump_under(&mut world);
        assert_eq!(events.coins, 1, "{letter}");
        assert_eq!(world.coins(), 1);
        assert_eq!(world.tiles_now(3, 8), Tile::UsedBlock);
        jump_under(&mut world);
        assert_eq!(world.coins(), 1);
    }
}

#[test]
fn an_item_box_releases_a_mushroom_that_makes_mario_big() {
    let mut world = World::new(block_above('@'));
    jump_under(&mut world);
    assert_eq!(world.tiles_now(3, 8), Tile::UsedBlock);
    let mut grew = false;
    for _ in 0..400 {
        world.step(Action::NONE);
        if world.mario().big() {
            grew = true;
            break;
        }
    }
    assert!(
        grew,
        "the mushroom walks right, turns at the wall and reaches Mario"
    );
    assert_eq!(world.sprites().count(), 0);
}

#[test]
fn touching_a_coin_collects_it() {
    let mut rows = vec!["-".repeat(20); 12];
    rows[11] = "------o-------------".to_string();
    rows.push("X".repeat(20));
    rows.push("X".repeat(20));
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut world = World::new(map(&refs));
    for _ in 0..40 {
        world.step(Action::RIGHT);
    }
    assert_eq!(world.coins(), 1);
    assert_eq!(world.tiles_now(6, 11), Tile::Empty);
}

#[test]
fn replaying_recorded_actions_gives_the_same_trajectory() {
    let level = sixty();
    for seed in 0..4 {
        let mut agent = RandomAgent::new(seed);
        let mut world = World::new(level.clone());
        let mut actions = Vec::new();
        let mut trace = Vec::new();
        for _ in 0..500 {
            let action = agent.act(&world);
            world.step(action);
            actions.push(action);
            let enemies: Vec<(f32, f32)> = world.enemies().map(|e| (e.x, e.y)).collect();
            trace.push((
                world.mario().x(),
                world.mario().y(),
                world.status(),
                enemies,
            ));
        }
        let mut replay = World::new(level.clone());
        for (t, &action) in actions.iter().enumerate() {
            replay.step(action);
            let enemies: Vec<(f32, f32)> = replay.enemies().map(|e| (e.x, e.y)).collect();
            let now = (
                replay.mario().x(),
                replay.mario().y(),
                replay.status(),
                enemies,
            );
            assert_eq!(now, trace[t], "seed {seed}, tick {t}");
        }
    }
}

#[test]
fn falling_into_a_hole_loses_with_cause_hole() {
    let outcome = play(&crate::test_levels::hole3(), &mut WalkAfterWaiting(10), 400);
    assert_eq!(outcome.status, Status::Lost(Cause::Hole));
    assert_eq!(
        outcome.damage_events.last().map(|d| d.cause),
        Some(Cause::Hole)
    );
}

/// Waits some ticks, then walks right without ever jumping.
pub(crate) struct WalkAfterWaiting(pub u32);

impl Agent for WalkAfterWaiting {
    fn act(&mut self, _world: &World) -> Action {
        if self.0 > 0 {
            self.0 -= 1;
            Action::NONE
        } else {
            Action::RIGHT
        }
    }
}

#[test]
fn parses_letters_and_reports_bad_ones() {
    assert_eq!(
        LevelMap::from_ascii("--\n-Z\nXX").err(),
        Some(LevelError::Letter {
            row: 2,
            column: 2,
            letter: 'Z'
        })
    );
    assert!(matches!(
        LevelMap::from_ascii("---\n--\nXXX"),
        Err(LevelError::Ragged { row: 2, .. })
    ));
    assert_eq!(
        LevelMap::from_ascii("---\n---").err(),
        Some(LevelError::NoStart)
    );
    let level = sixty();
    assert_eq!((level.width(), level.height()), (60, 14));
    assert_eq!(level.enemy_count(), 4);
    assert_eq!(level.goal_column(), 59);
}
