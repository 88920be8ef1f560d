//! The battle rules of a course and its exact evaluation over every attack / retreat strategy
//! (rl-quality-diversity §5.1.4).
//!
//! The thesis leaves the damage rule open; ours: the player has [`MAX_HP`] and a base ATK of
//! [`PLAYER_ATK`]; in a battle the player strikes first and the two trade strikes, each
//! removing the striker's ATK from the other's HP, until one has none left (HP ≤ 0 loses); a
//! won battle raises the player's ATK by [`ATK_GAIN`]; retreating costs [`RETREAT_COST`] × max
//! HP (no retreat from the boss); a recovery event adds its rate × max HP, capped at max HP.

use super::matrix::Course;
pub use super::matrix::{scale, BOSS_ATK, BOSS_HP, ENEMY_ATK, ENEMY_HP, MAX_ENEMIES, MAX_HP};

/// The player's ATK at the start of a course.
pub const PLAYER_ATK: f64 = 30.0;
/// How much a won battle raises the player's ATK (10 %).
pub const ATK_GAIN: f64 = 0.10;
/// What a retreat costs, as a share of max HP.
pub const RETREAT_COST: f64 = 0.15;
/// The winning rate f1 rewards most.
pub const TARGET_WIN_RATE: f64 = 0.3;
/// The weights of f1…f7 (they sum to 1).
pub const WEIGHTS: [f64; 7] = [0.4, 0.1, 0.2, 0.1, 0.05, 0.1, 0.05];

/// What one strategy leads to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playthrough {
    /// The boss was beaten.
    pub won: bool,
    /// HP at the end (≤ 0 when lost).
    pub final_hp: f64,
    /// The player reached a recovery event of rate ≥ 0.5 with HP ≤ 30 % of max.
    pub dramatic: bool,
    /// The event (enemy index; the boss is `enemies`) where the player fell, if lost.
    pub fell_at: Option<usize>,
}

/// One battle: the player (`hp`, `atk`) strikes first. Returns the player's HP after it
/// (≤ 0: lost).
pub fn battle(mut hp: f64, atk: f64, mut enemy_hp: f64, enemy_atk: f64) -> f64 {
    loop {
        enemy_hp -= atk;
        if enemy_hp <= 0.0 {
            return hp;
        }
        hp -= enemy_atk;
        if hp <= 0.0 {
            return hp;
        }
    }
}

/// The player's state between events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    /// Current HP.
    pub hp: f64,
    /// Current ATK.
    pub atk: f64,
}

impl Player {
    /// The player at the start of a course.
    pub const START: Player = Player {
        hp: MAX_HP,
        atk: PLAYER_ATK,
    };
}

/// What happened at one enemy event (its battle or retreat, then its recovery event).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The player after the event (HP ≤ 0: fallen).
    pub player: Player,
    /// A dramatic moment at the recovery event.
    pub dramatic: bool,
}

/// Enemy `i` met with `retreat` (or fought), then its recovery event, if any.
pub fn step(course: &Course, i: usize, player: Player, retreat: bool) -> Step {
    let mut p = player;
    if retreat {
        p.hp -= RETREAT_COST * MAX_HP;
    } else {
        let (hp, atk) = course.enemy(i);
        p.hp = battle(p.hp, p.atk, hp, atk);
        if p.hp > 0.0 {
            p.atk *= 1.0 + ATK_GAIN;
        }
    }
    if p.hp <= 0.0 {
        return Step {
            player: p,
            dramatic: false,
        };
    }
    let rate = course.recovery(i);
    let dramatic = rate > 0.0 && p.hp <= 0.3 * MAX_HP && rate >= 0.5;
    if rate > 0.0 {
        p.hp = (p.hp + rate * MAX_HP).min(MAX_HP);
    }
    Step {
        player: p,
        dramatic,
    }
}

/// Plays strategy `retreats` (bit `i` set: retreat from enemy `i`) through the course.
pub fn play(course: &Course, retreats: u32) -> Playthrough {
    let mut p = Player::START;
    let mut dramatic = false;
    for i in 0..course.enemies() {
        let s = step(course, i, p, retreats >> i & 1 == 1);
        p = s.player;
        dramatic |= s.dramatic;
        if p.hp <= 0.0 {
            return Playthrough {
                won: false,
                final_hp: p.hp,
                dramatic,
                fell_at: Some(i),
            };
        }
    }
    let (hp, atk) = course.boss();
    let final_hp = battle(p.hp, p.atk, hp, atk);
    Playthrough {
        won: final_hp > 0.0,
        final_hp,
        dramatic,
        fell_at: (final_hp <= 0.0).then_some(course.enemies()),
    }
}

/// The exact evaluation of a course: every strategy played, f1…f7 and their weighted sum.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// f = Σ wᵢ fᵢ.
    pub value: f64,
    /// f1…f7.
    pub f: [f64; 7],
    /// Strategies (2^enemies).
    pub strategies: usize,
    /// Winning strategies.
    pub wins: usize,
    /// Winning strategies with a dramatic moment.
    pub dramatic: usize,
    /// Winning strategies that only attack or only retreat.
    pub monotonous: usize,
    /// The winning strategies, as retreat masks (bit `i`: retreat from enemy `i`).
    pub winning: Vec<u32>,
}

impl Evaluation {
    /// The share of strategies that win.
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.strategies.max(1) as f64
    }
}

/// `g(x, y) = min(x / y, (1 − x) / y, 1)`: 1 inside `[y, 1 − y]`, falling to 0 at the ends.
pub fn g(x: f64, y: f64) -> f64 {
    (x / y).min((1.0 - x) / y).min(1.0)
}

/// f1: 1 at the target win rate (30 %), 0 at 0 and at ≥ 60 %, linear between.
pub fn win_rate_soundness(rate: f64) -> f64 {
    if rate >= 2.0 * TARGET_WIN_RATE {
        0.0
    } else {
        (1.0 - (rate - TARGET_WIN_RATE).abs() / TARGET_WIN_RATE).max(0.0)
    }
}

/// Evaluates a course exactly (rl-quality-diversity §5.1.4, our reading where it is terse):
///
/// - f1 winning-rate soundness ([`win_rate_soundness`]);
/// - f2 dramatic survival: winning strategies with a dramatic moment / winning strategies;
/// - f3 moderate parameters: (Σ over recovery events g(rate, 0.2) + Σ over enemies and the
///   boss min(g(ATK, 0.05), g(HP, 0.05))) / events;
/// - f4 tough wins: the mean over winning strategies of min((1 − final HP / max HP) / 0.6, 1);
/// - f5 early escapes: 1 − (3 n₁ + 2 n₂ + n₃) / (6 × wins), nᵢ the winning strategies that
///   retreat from enemy i;
/// - f6 weak late enemies: min(0.7, Σ over the last two enemies before the boss of
///   (ATK + HP) / 4) / 0.7;
/// - f7 monotonous wins: 1 − 0.5 × (winning strategies that only attack or only retreat).
///
/// With no winning strategy f2 and f4 are 0 and f5 and f7 are 1 (no escape or monotony
/// works).
pub fn evaluate(course: &Course) -> Evaluation {
    let b = course.enemies();
    let strategies = 1usize << b;
    let all = if b == 0 { 0 } else { (1u32 << b) - 1 };
    let mut wins = 0;
    let mut dramatic = 0;
    let mut monotonous = 0;
    let mut toughness = 0.0;
    let mut retreats = [0usize; 3];
    let mut winning = Vec::new();
    for s in 0..strategies as u32 {
        let p = play(course, s);
        if !p.won {
            continue;
        }
        wins += 1;
        winning.push(s);
        dramatic += usize::from(p.dramatic);
        monotonous += usize::from(s == 0 || s == all);
        toughness += ((1.0 - p.final_hp / MAX_HP) / 0.6).min(1.0);
        for (i, r) in retreats.iter_mut().enumerate() {
            if i < b && s >> i & 1 == 1 {
                *r += 1;
            }
        }
    }
    let n_win = wins as f64;
    let f1 = win_rate_soundness(wins as f64 / strategies as f64);
    let f2 = if wins > 0 {
        dramatic as f64 / n_win
    } else {
        0.0
    };
    let mut moderate = 0.0;
    for i in 0..b {
        let rate = course.recovery(i);
        if rate > 0.0 {
            moderate += g(rate, 0.2);
        }
    }
    for i in 0..=b {
        let (hp, atk) = course.normalised(i);
        moderate += g(atk, 0.05).min(g(hp, 0.05));
    }
    let f3 = moderate / course.events() as f64;
    let f4 = if wins > 0 { toughness / n_win } else { 0.0 };
    let f5 = if wins > 0 {
        1.0 - (3 * retreats[0] + 2 * retreats[1] + retreats[2]) as f64 / (6.0 * n_win)
    } else {
        1.0
    };
    let late: f64 = (b.saturating_sub(2)..b)
        .map(|i| {
            let (hp, atk) = course.normalised(i);
            hp + atk
        })
        .sum();
    let f6 = (late / 4.0).min(0.7) / 0.7;
    let f7 = 1.0 - 0.5 * monotonous as f64;
    let f = [f1, f2, f3, f4, f5, f6, f7];
    Evaluation {
        value: f.iter().zip(WEIGHTS).map(|(f, w)| f * w).sum(),
        f,
        strategies,
        wins,
        dramatic,
        monotonous,
        winning,
    }
}
