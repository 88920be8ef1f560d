//! A course: `b` enemies and a boss as a 3 × (b+1) matrix of values in `[0, 1]` (per column
//! the enemy's HP and ATK, then the rate of the recovery event after it, 0 for none; the last
//! column is the boss). Stored as three rows of two-digit hundredths per column (`50` = 0.50;
//! the largest is `99`), so a course reads as its matrix in any text editor and in the studio's
//! canvas. Also the ranges its values stand for (HP and ATK of enemies and the boss), the
//! game's id, its digit palette and the course's event strip.

use std::fmt;
use studio_core::game::{GameId, ParamStrip, StripEvent, StripParam, TileInfo};

/// The player's maximum (and starting) HP.
pub const MAX_HP: f64 = 100.0;
/// An enemy's HP range (the thesis's 20–120).
pub const ENEMY_HP: (f64, f64) = (20.0, 120.0);
/// An enemy's ATK range (the thesis's 5–30).
pub const ENEMY_ATK: (f64, f64) = (5.0, 30.0);
/// The boss's HP range (wider and higher than an enemy's; the thesis gives no numbers).
pub const BOSS_HP: (f64, f64) = (50.0, 200.0);
/// The boss's ATK range.
pub const BOSS_ATK: (f64, f64) = (8.0, 30.0);
/// The most enemies a course may have (2^12 strategies).
pub const MAX_ENEMIES: usize = 12;

/// A value in `[0, 1]` mapped into `range`.
pub fn scale(v: f64, range: (f64, f64)) -> f64 {
    range.0 + v.clamp(0.0, 1.0) * (range.1 - range.0)
}

/// The id of course levels.
pub const ID: GameId = GameId::new("course");

/// Courses: chains of battles and recoveries ending in a boss.
#[derive(Clone, Copy, Debug, Default)]
pub struct CourseGame;

/// Why rows are not a course.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CourseError {
    /// An event count other than the thesis's two structures.
    #[error("courses come with 9 or 12 events (the thesis's two structures), not {0}")]
    Events(usize),
    /// Not three rows.
    #[error("a course has 3 rows (HP, ATK, recovery), not {0}")]
    Rows(usize),
    /// Rows of different lengths, or an odd length.
    #[error("every row holds two digits per column and the rows are equally long (row {row} has {len} characters)")]
    Ragged {
        /// The row (1-based).
        row: usize,
        /// Its length.
        len: usize,
    },
    /// A character that is not a digit.
    #[error("row {row}, column {column}: {found:?} is not a digit")]
    NotDigit {
        /// The row (1-based).
        row: usize,
        /// The character column (1-based).
        column: usize,
        /// What was there.
        found: char,
    },
    /// Too few or too many columns.
    #[error("a course has 1 to {max} enemies and a boss, not {columns} columns")]
    Columns {
        /// Columns given.
        columns: usize,
        /// The most enemies allowed.
        max: usize,
    },
    /// The boss's column has a recovery rate.
    #[error("the boss (last column) has no recovery event: its recovery must be 00")]
    BossRecovery,
    /// A value outside [0, 1].
    #[error("column {column}: {value} is outside 0..=1")]
    Range {
        /// The column (1-based).
        column: usize,
        /// The value.
        value: String,
    },
}

/// A course's event structure: how many enemies and which are followed by a recovery event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Structure {
    /// Enemies before the boss.
    pub enemies: usize,
    /// The enemies (0-based) followed by a recovery event.
    pub recoveries: &'static [usize],
}

impl Structure {
    /// The thesis's 9-event course (Fig. 5.5a): 6 enemies, recoveries after the 2nd and 4th,
    /// the boss.
    pub const NINE: Structure = Structure {
        enemies: 6,
        recoveries: &[1, 3],
    };
    /// The 12-event course (Fig. 5.5b): 8 enemies, recoveries after the 2nd, 4th and 6th,
    /// the boss.
    pub const TWELVE: Structure = Structure {
        enemies: 8,
        recoveries: &[1, 3, 5],
    };

    /// The structure of a course of `events` events (9 or 12).
    ///
    /// # Errors
    /// [`CourseError::Events`] for any other count.
    pub fn of_events(events: usize) -> Result<Structure, CourseError> {
        match events {
            9 => Ok(Structure::NINE),
            12 => Ok(Structure::TWELVE),
            n => Err(CourseError::Events(n)),
        }
    }

    /// Events: enemies, recoveries and the boss.
    pub fn events(&self) -> usize {
        self.enemies + self.recoveries.len() + 1
    }

    /// Columns of the matrix.
    pub fn columns(&self) -> usize {
        self.enemies + 1
    }

    /// True when column `i` has a recovery event.
    pub fn recovers(&self, i: usize) -> bool {
        self.recoveries.contains(&i)
    }
}

/// A course as a matrix of normalised values, one `[hp, atk, recovery]` per column.
#[derive(Clone, PartialEq)]
pub struct Course {
    columns: Vec<[f64; 3]>,
}

impl fmt::Debug for Course {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_rows().join("/"))
    }
}

/// A value as stored: hundredths, at most 0.99.
pub fn stored(v: f64) -> f64 {
    (v.clamp(0.0, 1.0) * 100.0).round().min(99.0) / 100.0
}

impl Course {
    /// A course from its columns (enemies, then the boss).
    ///
    /// # Errors
    /// [`CourseError`]: too few or many columns, a value out of range, a boss recovery.
    pub fn new(columns: Vec<[f64; 3]>) -> Result<Self, CourseError> {
        if columns.len() < 2 || columns.len() > MAX_ENEMIES + 1 {
            return Err(CourseError::Columns {
                columns: columns.len(),
                max: MAX_ENEMIES,
            });
        }
        for (i, c) in columns.iter().enumerate() {
            if let Some(v) = c.iter().find(|v| !(0.0..=1.0).contains(*v)) {
                return Err(CourseError::Range {
                    column: i + 1,
                    value: v.to_string(),
                });
            }
        }
        if columns.last().is_some_and(|c| c[2] > 0.0) {
            return Err(CourseError::BossRecovery);
        }
        Ok(Self { columns })
    }

    /// The course with every value rounded to hundredths as files store it.
    pub fn stored(&self) -> Course {
        Course {
            columns: self
                .columns
                .iter()
                .map(|c| [stored(c[0]), stored(c[1]), stored(c[2])])
                .collect(),
        }
    }

    /// The columns, enemies then the boss.
    pub fn columns(&self) -> &[[f64; 3]] {
        &self.columns
    }

    /// Enemies before the boss.
    pub fn enemies(&self) -> usize {
        self.columns.len() - 1
    }

    /// Events: enemies, recovery events and the boss.
    pub fn events(&self) -> usize {
        self.columns.len()
            + (0..self.enemies())
                .filter(|&i| self.recovery(i) > 0.0)
                .count()
    }

    /// Normalised HP and ATK of enemy `i` (the boss at `i == enemies`).
    pub fn normalised(&self, i: usize) -> (f64, f64) {
        (self.columns[i][0], self.columns[i][1])
    }

    /// HP and ATK of enemy `i`.
    pub fn enemy(&self, i: usize) -> (f64, f64) {
        let (hp, atk) = self.normalised(i);
        (scale(hp, ENEMY_HP).round(), scale(atk, ENEMY_ATK))
    }

    /// HP and ATK of the boss.
    pub fn boss(&self) -> (f64, f64) {
        let (hp, atk) = self.normalised(self.enemies());
        (scale(hp, BOSS_HP).round(), scale(atk, BOSS_ATK))
    }

    /// The recovery rate after enemy `i` (0: no recovery event).
    pub fn recovery(&self, i: usize) -> f64 {
        self.columns[i][2]
    }

    /// The three stored rows (HP, ATK, recovery), two digits per column.
    pub fn to_rows(&self) -> Vec<String> {
        (0..3)
            .map(|r| {
                self.columns
                    .iter()
                    .map(|c| format!("{:02}", (stored(c[r]) * 100.0).round() as u32))
                    .collect()
            })
            .collect()
    }

    /// A course from stored rows.
    ///
    /// # Errors
    /// [`CourseError`] naming the row and column.
    pub fn from_rows(rows: &[String]) -> Result<Self, CourseError> {
        if rows.len() != 3 {
            return Err(CourseError::Rows(rows.len()));
        }
        let len = rows[0].chars().count();
        for (r, row) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != len || n % 2 == 1 {
                return Err(CourseError::Ragged { row: r + 1, len: n });
            }
            if let Some((c, found)) = row.chars().enumerate().find(|(_, c)| !c.is_ascii_digit()) {
                return Err(CourseError::NotDigit {
                    row: r + 1,
                    column: c + 1,
                    found,
                });
            }
        }
        let digits: Vec<Vec<u32>> = rows
            .iter()
            .map(|r| r.chars().filter_map(|c| c.to_digit(10)).collect())
            .collect();
        let columns = (0..len / 2)
            .map(|i| {
                let v = |r: usize| f64::from(digits[r][2 * i] * 10 + digits[r][2 * i + 1]) / 100.0;
                [v(0), v(1), v(2)]
            })
            .collect();
        Self::new(columns)
    }
}

const fn digit(ascii: char, name: &'static str, rgb: [u8; 3]) -> TileInfo {
    TileInfo { ascii, name, rgb }
}

/// The ten digits, dark (0) to bright (9).
pub(crate) const TILES: [TileInfo; 10] = [
    digit('0', "0", [38, 42, 64]),
    digit('1', "1", [46, 58, 92]),
    digit('2', "2", [52, 78, 120]),
    digit('3', "3", [56, 100, 142]),
    digit('4', "4", [58, 124, 156]),
    digit('5', "5", [70, 148, 160]),
    digit('6', "6", [102, 172, 150]),
    digit('7', "7", [150, 192, 128]),
    digit('8', "8", [206, 208, 110]),
    digit('9', "9", [250, 222, 110]),
];

/// Event colours in the strip: battle, recovery, boss, and a passed event.
pub(crate) const BATTLE_RGB: [u8; 3] = [196, 72, 64];
pub(crate) const RECOVERY_RGB: [u8; 3] = [70, 130, 220];
pub(crate) const BOSS_RGB: [u8; 3] = [40, 36, 44];
pub(crate) const PASSED_RGB: [u8; 3] = [92, 92, 98];
pub(crate) const HP_RGB: [u8; 3] = [76, 187, 94];
pub(crate) const EMPTY_RGB: [u8; 3] = [58, 58, 64];

/// The event strip of a course: per enemy `B` (and `R` after it for a recovery event), then
/// `K` for the boss.
pub fn strip(course: &Course) -> Vec<char> {
    let mut out = Vec::new();
    for i in 0..course.enemies() {
        out.push('B');
        if course.recovery(i) > 0.0 {
            out.push('R');
        }
    }
    out.push('K');
    out
}

/// A course as sliders: per battle its HP, ATK and the fountain after it (0: none), then the
/// boss's HP and ATK; each shows its value in the game.
pub fn parameter_strip(course: &Course) -> Option<ParamStrip> {
    let cols = course.columns();
    let param = |name, value: f64, shown: String, i: usize, row: usize| StripParam {
        name,
        value,
        shown,
        cells: [(2 * i, row), (2 * i + 1, row)],
        tile: None,
    };
    let mut events = Vec::with_capacity(cols.len());
    for (i, col) in cols.iter().enumerate() {
        let boss = i == course.enemies();
        let (hp, atk) = if boss { course.boss() } else { course.enemy(i) };
        let mut params = vec![
            param("HP", col[0], format!("{hp:.0} HP"), i, 0),
            param("ATK", col[1], format!("{atk:.0} ATK"), i, 1),
        ];
        if !boss {
            let heal = (col[2] * MAX_HP).round();
            params.push(StripParam {
                tile: Some(('R', FOUNTAIN_RGB)),
                ..param(
                    "Fountain after",
                    col[2],
                    if col[2] > 0.0 {
                        format!("heals {heal:.0} HP")
                    } else {
                        "no fountain".into()
                    },
                    i,
                    2,
                )
            });
        }
        events.push(StripEvent {
            label: if boss {
                "Boss".into()
            } else {
                format!("Battle {}", i + 1)
            },
            glyph: if boss { 'K' } else { 'B' },
            rgb: if boss { BOSS_RGB } else { BATTLE_RGB },
            params,
        });
    }
    Some(ParamStrip { events })
}

/// The colour of a fountain (recovery) event in strips.
pub const FOUNTAIN_RGB: [u8; 3] = RECOVERY_RGB;
