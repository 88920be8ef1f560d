//! Agents that play the engine: the [`Agent`] trait, simple baselines ([`DoNothing`],
//! [`RandomAgent`], [`ForwardRunner`]), Baumgarten-style A* search ([`AStarAgent`]), the
//! thesis's human-like test player ([`HumanLikeAgent`], [`evaluate`]), and [`play`], which
//! runs an agent on a level and records what happened.

mod astar;
pub mod human;
#[cfg(test)]
mod human_tests;

pub use astar::{AStarAgent, MAX_JUMP_REWARD};
pub use human::{evaluate, trial, HumanLikeAgent, HumanStats, MeanSd, Trial, VirtualDamage};

use crate::engine::{Action, Cause, LevelMap, SpriteKind, Status, World};
use std::sync::Arc;
use studio_core::rng::Rng;

/// Something that chooses the buttons to hold for the next tick.
pub trait Agent {
    /// The action for the next tick of `world`.
    fn act(&mut self, world: &World) -> Action;
}

/// Holds no button, ever.
#[derive(Clone, Copy, Debug, Default)]
pub struct DoNothing;

impl Agent for DoNothing {
    fn act(&mut self, _world: &World) -> Action {
        Action::NONE
    }
}

/// Picks a random action from a small set and holds it for a few ticks.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: Rng,
    current: Action,
    hold: u32,
}

impl RandomAgent {
    /// The actions it picks from.
    pub const CHOICES: [Action; 8] = [
        Action::RUN_RIGHT,
        Action::RIGHT,
        Action::RUN_JUMP_RIGHT,
        Action::JUMP_RIGHT,
        Action::LEFT,
        Action::JUMP,
        Action::NONE,
        Action::RUN_JUMP_LEFT,
    ];

    /// A random agent drawing from `Rng::new(seed)`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Rng::new(seed),
            current: Action::NONE,
            hold: 0,
        }
    }
}

impl Agent for RandomAgent {
    fn act(&mut self, _world: &World) -> Action {
        if self.hold == 0 {
            self.current = Self::CHOICES[self.rng.index(Self::CHOICES.len())];
            self.hold = self.rng.range(2, 12) as u32;
        }
        self.hold -= 1;
        self.current
    }
}

/// Runs right, jumping (as high as it can) when a wall, a hole or an enemy is just ahead.
#[derive(Clone, Copy, Debug, Default)]
pub struct ForwardRunner;

impl ForwardRunner {
    fn danger_ahead(world: &World) -> bool {
        let m = world.mario();
        let map = world.map();
        let column = (m.x() / 16.0) as usize;
        let row = (m.y() / 16.0) as i64;
        let bottom = map.height() - 1;
        let solid = |x: usize, y: i64| {
            y >= 0 && y < map.height() as i64 && world.tiles_now(x, y as usize).is_solid()
        };
        let wall = (1..=2).any(|dy| solid(column + 1, row - dy + 1))
            && (m.x() % 16.0 > 4.0 || m.vx().abs() < 1.0);
        let reach = 8.0 + m.vx().max(0.0) * 3.0;
        let first = ((m.x() + 4.0) / 16.0) as usize;
        let last = ((m.x() + reach) / 16.0) as usize;
        let hole = (first..=last).any(|x| x < map.width() && !solid(x, bottom as i64));
        let enemy = world.enemies().any(|e| {
            let dx = e.x - m.x();
            let moving_shell = e.kind == SpriteKind::Shell && e.facing != 0;
            dx > -4.0 && dx < 40.0 + m.vx().max(0.0) * 2.0 && (e.y - m.y()).abs() < 32.0
                || moving_shell && dx.abs() < 64.0
        });
        wall || hole || enemy
    }
}

impl Agent for ForwardRunner {
    fn act(&mut self, world: &World) -> Action {
        let m = world.mario();
        if m.on_ground() {
            if m.may_jump() && Self::danger_ahead(world) {
                Action::RUN_JUMP_RIGHT
            } else {
                Action::RUN_RIGHT
            }
        } else if m.can_jump_higher() {
            Action::RUN_JUMP_RIGHT
        } else {
            Action::RUN_RIGHT
        }
    }
}

/// Damage Mario took during a game, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DamageEvent {
    /// The tick it happened on (1 for the first tick).
    pub tick: u32,
    /// What hurt him.
    pub cause: Cause,
}

/// How a game went.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Won, lost (and why), or still running when the tick limit came.
    pub status: Status,
    /// Ticks played.
    pub ticks: u32,
    /// Jumps started.
    pub jumps: u32,
    /// Mario's (x, y) in pixels at the start and after every tick.
    pub mario_path: Vec<(f32, f32)>,
    /// Every hit Mario took (shrinking included), and the final loss.
    pub damage_events: Vec<DamageEvent>,
}

/// Plays `agent` on a new game of `map` for at most `max_ticks` ticks.
pub fn play(map: &Arc<LevelMap>, agent: &mut dyn Agent, max_ticks: u32) -> Outcome {
    play_world(World::new(Arc::clone(map)), agent, max_ticks)
}

/// Plays `agent` from the given `world` (e.g. with big Mario) for at most `max_ticks` ticks.
pub fn play_world(mut world: World, agent: &mut dyn Agent, max_ticks: u32) -> Outcome {
    let mut outcome = Outcome {
        status: world.status(),
        ticks: 0,
        jumps: 0,
        mario_path: vec![(world.mario().x(), world.mario().y())],
        damage_events: Vec::new(),
    };
    while world.is_running() && outcome.ticks < max_ticks {
        let action = agent.act(&world);
        world.step(action);
        outcome.ticks += 1;
        let events = world.events();
        if events.jumped {
            outcome.jumps += 1;
        }
        if let Some(cause) = events.damage {
            outcome.damage_events.push(DamageEvent {
                tick: outcome.ticks,
                cause,
            });
        }
        outcome
            .mario_path
            .push((world.mario().x(), world.mario().y()));
    }
    outcome.status = world.status();
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Cause, Status};
    use crate::test_levels::{flat, hole3, sixty, vglc_1_1};
    use std::time::Instant;

    /// Waits, then walks right without ever jumping.
    struct WaitThenWalk(u32);

    impl Agent for WaitThenWalk {
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
    fn a_three_wide_hole_kills_the_walker_but_not_a_star() {
        let level = hole3();
        let walker = play(&level, &mut WaitThenWalk(20), 600);
        assert_eq!(walker.status, Status::Lost(Cause::Hole));
        let mut agent = AStarAgent::new();
        let outcome = play(&level, &mut agent, 600);
        assert_eq!(outcome.status, Status::Won, "{outcome:?}");
        assert!(outcome.jumps >= 1);
        assert!(outcome.damage_events.is_empty());
    }

    #[test]
    fn do_nothing_times_out_and_random_play_is_reproducible() {
        let outcome = play(&flat(30), &mut DoNothing, 10_000);
        assert_eq!(outcome.status, Status::Lost(Cause::Time));
        assert_eq!(outcome.ticks, 667);
        let a = play(&sixty(), &mut RandomAgent::new(9), 300);
        let b = play(&sixty(), &mut RandomAgent::new(9), 300);
        assert_eq!(a, b);
    }

    #[test]
    fn a_star_finishes_the_sixty_column_level() {
        let level = sixty();
        let mut agent = AStarAgent::new();
        let start = Instant::now();
        let outcome = play(&level, &mut agent, 2000);
        println!(
            "A* on the 60-column level: {:?} in {} ticks, {} jumps, {} nodes, {:?}",
            outcome.status,
            outcome.ticks,
            outcome.jumps,
            agent.nodes_simulated(),
            start.elapsed()
        );
        assert_eq!(outcome.status, Status::Won);
        assert!(outcome.ticks < 200, "{}", outcome.ticks);
    }

    #[test]
    fn the_forward_runner_gets_past_the_first_obstacles() {
        let outcome = play(&sixty(), &mut ForwardRunner, 2000);
        let furthest = outcome.mario_path.iter().map(|p| p.0).fold(0.0, f32::max);
        println!(
            "forward runner on the 60-column level: {:?}, {} ticks, furthest x {furthest}",
            outcome.status, outcome.ticks
        );
        assert!(furthest > 10.0 * 16.0, "it jumps the first pipe");
    }

    #[test]
    fn the_plan_is_readable_and_the_jump_reward_makes_a_star_jump_more() {
        let level = sixty();
        let mut agent = AStarAgent::new();
        let world = World::new(level.clone());
        let first = agent.act(&world);
        assert!(!agent.plan().is_empty());
        assert!(first.right() || first.jump());
        let plain = play(&level, &mut AStarAgent::new(), 2000);
        let mut jumper = AStarAgent::new().with_jump_reward(MAX_JUMP_REWARD);
        let jumpy = play(&level, &mut jumper, 2000);
        let height = |o: &Outcome| o.mario_path.iter().map(|p| 224.0 - p.1).sum::<f32>();
        println!(
            "jumps: plain {} (height sum {}), rewarded {} (height sum {}), {:?}",
            plain.jumps,
            height(&plain),
            jumpy.jumps,
            height(&jumpy),
            jumpy.status
        );
        assert!(height(&jumpy) / jumpy.ticks as f32 > height(&plain) / plain.ticks as f32);
    }

    #[test]
    fn a_star_finishes_vglc_1_1() {
        let Some(level) = vglc_1_1() else {
            println!("skipped: the VGLC's mario-1-1.txt is not here ($VGLC_DIR)");
            return;
        };
        let mut agent = AStarAgent::new();
        let start = Instant::now();
        let outcome = play(&level, &mut agent, 5000);
        let elapsed = start.elapsed();
        println!(
            "A* on VGLC 1-1: {:?} in {} ticks, {} jumps, {} damage, {} searches, {} nodes, {:?}",
            outcome.status,
            outcome.ticks,
            outcome.jumps,
            outcome.damage_events.len(),
            agent.searches(),
            agent.nodes_simulated(),
            elapsed
        );
        assert_eq!(outcome.status, Status::Won);
    }
}

#[cfg(test)]
mod survey {
    use super::*;
    use std::time::Instant;

    /// A* finishes every VGLC Super Mario Bros level present (skips when there are none).
    #[test]
    fn a_star_finishes_every_vglc_level() {
        let dir = crate::formats::vglc_levels_dir();
        let Ok(entries) = std::fs::read_dir(&dir) else {
            println!("skipped: {} is absent", dir.display());
            return;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let level = Arc::new(
                crate::formats::read_vglc(&text)
                    .map(|l| LevelMap::from_level(&l))
                    .unwrap(),
            );
            let mut agent = AStarAgent::new();
            let t0 = Instant::now();
            let outcome = play(&level, &mut agent, 5000);
            let runner = play(&level, &mut ForwardRunner, 5000);
            println!(
                "{:?}: {} columns, A* {:?} in {} ticks ({} jumps, {:.1} ms); \
                 forward runner {:?} at x {:.0}",
                path.file_name().unwrap_or_default(),
                level.width(),
                outcome.status,
                outcome.ticks,
                outcome.jumps,
                t0.elapsed().as_secs_f64() * 1e3,
                runner.status,
                runner.mario_path.last().map_or(0.0, |p| p.0)
            );
            assert_eq!(outcome.status, Status::Won, "{}", path.display());
        }
    }
}
