//! A course played: where a playthrough stands, the strategy tree of every attack / retreat
//! choice (the state space the graph viewer explores) and the playtest's rules.

use super::matrix::{
    strip, Course, BATTLE_RGB, BOSS_RGB, EMPTY_RGB, HP_RGB, PASSED_RGB, RECOVERY_RGB,
};
use super::rules::{battle, step, Player, ATK_GAIN, MAX_ENEMIES, MAX_HP, RETREAT_COST};
use studio_core::game::explore::{StateGraph, StateSpace};
use studio_core::game::{CellLook, PlayInput, PlayMove, PlayRules, PlayStatus, TileMark};
use studio_core::grid::Grid;

/// Where a playthrough stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stage {
    /// Before enemy `i` (the boss at `i == enemies`).
    Before(usize),
    /// The boss is beaten.
    Won,
    /// The player fell at enemy `i`.
    Fell(usize),
}

/// A node of the strategy tree: the player before an event, or the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// Where the playthrough is.
    pub stage: Stage,
    /// The player.
    pub player: Player,
}

impl Node {
    /// Before the first enemy, at full strength.
    pub const START: Node = Node {
        stage: Stage::Before(0),
        player: Player::START,
    };

    /// The node after choosing `retreat` (or attack); `None` where the choice does not exist
    /// (retreat from the boss, anything after the end).
    pub fn next(&self, course: &Course, retreat: bool) -> Option<Node> {
        let Stage::Before(i) = self.stage else {
            return None;
        };
        if i == course.enemies() {
            if retreat {
                return None;
            }
            let (hp, atk) = course.boss();
            let left = battle(self.player.hp, self.player.atk, hp, atk);
            let player = Player {
                hp: left,
                atk: self.player.atk * (1.0 + ATK_GAIN),
            };
            return Some(Node {
                stage: if left > 0.0 {
                    Stage::Won
                } else {
                    Stage::Fell(i)
                },
                player,
            });
        }
        let s = step(course, i, self.player, retreat);
        Some(Node {
            stage: if s.player.hp > 0.0 {
                Stage::Before(i + 1)
            } else {
                Stage::Fell(i)
            },
            player: s.player,
        })
    }

    /// The strip with the events passed dimmed, and an HP bar as wide as the strip under it.
    pub fn look(&self, course: &Course) -> Grid<CellLook> {
        let events = strip(course);
        // As wide as the events: no blank column after the boss.
        let width = events.len().max(1);
        let mut g = Grid::filled(
            width,
            2,
            CellLook {
                rgb: EMPTY_RGB,
                mark: TileMark::Plain,
            },
        );
        let upto = match self.stage {
            Stage::Before(i) => i,
            Stage::Won => course.enemies() + 1,
            Stage::Fell(i) => i + 1,
        };
        // The enemy each event belongs to (a recovery event to the enemy before it).
        let mut owner = Vec::with_capacity(events.len());
        let mut k = 0;
        for &e in &events {
            if e == 'R' {
                owner.push(k - 1);
            } else {
                owner.push(k);
                k += 1;
            }
        }
        for (x, (&e, &k)) in events.iter().zip(&owner).enumerate() {
            let rgb = match e {
                _ if k < upto => PASSED_RGB,
                'B' => BATTLE_RGB,
                'R' => RECOVERY_RGB,
                _ => BOSS_RGB,
            };
            g.set(
                x,
                0,
                CellLook {
                    rgb,
                    mark: TileMark::Glyph(e),
                },
            );
        }
        // The second row is the player's HP as a bar of + across the strip (a full bar: 100 HP).
        let filled = ((self.player.hp.max(0.0) / MAX_HP) * width as f64).round() as usize;
        for x in 0..width {
            g.set(
                x,
                1,
                CellLook {
                    rgb: if x < filled { HP_RGB } else { EMPTY_RGB },
                    mark: if x < filled {
                        TileMark::Glyph('+')
                    } else {
                        TileMark::Plain
                    },
                },
            );
        }
        g
    }
}

/// The strategy tree as the explorer's state space: attack or retreat at every enemy.
#[derive(Clone, Copy, Debug, Default)]
pub struct StrategySpace;

/// The course's strategy graph.
pub type StrategyGraph = StateGraph<StrategySpace, 2>;

impl StateSpace<2> for StrategySpace {
    type State = Node;
    type Key = (u8, u8, u64, u64);
    /// `true`: retreat.
    type Move = bool;
    type Context = Course;

    fn moves() -> [bool; 2] {
        [false, true]
    }

    fn key(n: &Node) -> Self::Key {
        let (kind, at) = match n.stage {
            Stage::Before(i) => (0, i as u8),
            Stage::Won => (1, 0),
            Stage::Fell(i) => (2, i as u8),
        };
        (kind, at, n.player.hp.to_bits(), n.player.atk.to_bits())
    }

    fn step(course: &Course, n: &Node, retreat: bool) -> Option<Node> {
        n.next(course, retreat)
    }

    fn is_success(_: &Course, n: &Node) -> bool {
        n.stage == Stage::Won
    }

    /// Events passed; a won course counts past every enemy ([`MAX_ENEMIES`] + 1).
    fn progress(n: &Node) -> u32 {
        match n.stage {
            Stage::Before(i) => i as u32,
            Stage::Fell(i) => i as u32 + 1,
            Stage::Won => MAX_ENEMIES as u32 + 2,
        }
    }

    fn cells(course: &Course, _: &Node) -> usize {
        strip(course).len().max(10) * 2
    }

    fn label(retreat: bool) -> char {
        if retreat {
            'R'
        } else {
            'A'
        }
    }

    fn look(course: &Course, n: &Node) -> Grid<CellLook> {
        n.look(course)
    }
}

/// A playtest: Space or Right attacks, Left or `.` retreats; Backspace takes a choice back.
pub struct CoursePlay {
    course: Course,
    path: Vec<Node>,
}

impl CoursePlay {
    /// A playthrough from the start.
    pub fn new(course: Course) -> Self {
        Self {
            course,
            path: vec![Node::START],
        }
    }

    fn now(&self) -> Node {
        self.path.last().copied().unwrap_or(Node::START)
    }
}

impl PlayRules for CoursePlay {
    fn view(&self) -> Grid<CellLook> {
        self.now().look(&self.course)
    }

    fn input(&self) -> PlayInput {
        PlayInput::Directions
    }

    fn apply(&mut self, mv: PlayMove) -> bool {
        let retreat = match mv {
            PlayMove::Act | PlayMove::Go(studio_core::game::Heading::Right) => false,
            PlayMove::Wait | PlayMove::Go(studio_core::game::Heading::Left) => true,
            _ => return false,
        };
        match self.now().next(&self.course, retreat) {
            Some(n) => {
                self.path.push(n);
                true
            }
            None => false,
        }
    }

    fn status(&self) -> PlayStatus {
        let n = self.now();
        let enemies = self.course.enemies();
        let (outcome, message) = match n.stage {
            Stage::Won => (
                Some(true),
                format!("The boss is beaten with {:.0} HP left!", n.player.hp),
            ),
            Stage::Fell(i) if i == enemies => (Some(false), "Fallen to the boss".into()),
            Stage::Fell(i) => (Some(false), format!("Fallen at enemy {}", i + 1)),
            Stage::Before(i) if i == enemies => {
                let (hp, atk) = self.course.boss();
                (
                    None,
                    format!("The boss (HP {hp:.0}, ATK {atk:.1}): Space to attack"),
                )
            }
            Stage::Before(i) => {
                let (hp, atk) = self.course.enemy(i);
                (
                    None,
                    format!(
                        "Enemy {} (HP {hp:.0}, ATK {atk:.1}): Space or Right attacks, Left \
                         retreats (costs {:.0} HP)",
                        i + 1,
                        RETREAT_COST * MAX_HP
                    ),
                )
            }
        };
        PlayStatus {
            moves: (self.path.len() - 1) as u32,
            outcome,
            message,
            counters: vec![
                (
                    "HP".into(),
                    format!("{:.0} / {MAX_HP:.0}", n.player.hp.max(0.0)),
                ),
                ("ATK".into(), format!("{:.1}", n.player.atk)),
            ],
        }
    }

    /// The events, then the HP bar (one + for each share of 100 HP).
    fn row_names(&self) -> Vec<String> {
        vec![
            "Events".into(),
            format!("HP {:.0}", self.now().player.hp.max(0.0)),
        ]
    }

    fn undo(&mut self) -> bool {
        if self.path.len() > 1 {
            self.path.pop();
            true
        } else {
            false
        }
    }
}
