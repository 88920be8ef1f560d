//! Courses as a registered game: the matrix as digit tiles, the exact evaluation in the gauge
//! and `validate`, the strategy tree in the state-graph viewer, and a playtest that chooses
//! attack or retreat per battle.

use super::matrix::{Course, Structure};
use super::rules::{
    battle, evaluate, step, Evaluation, Player, ATK_GAIN, MAX_ENEMIES, MAX_HP, RETREAT_COST,
    WEIGHTS,
};
use super::CourseFigures;
use serde_json::json;
use std::sync::Arc;
use studio_core::game::explore::{GraphPicture, StateGraph, StateSpace};
use studio_core::game::{
    AnalyseOptions, Analysis, AsciiError, CellLook, Game, GameId, Gauge, LevelGenerator,
    ParamStrip, PlayInput, PlayMove, PlayRules, PlayStatus, SizeRules, StripEvent, StripParam,
    TileInfo, TileMark, Verdict,
};
use studio_core::grid::Grid;
use studio_core::jobs::{Cancel, JobError};
use studio_core::level::{Figures, Level};

/// The id of course levels.
pub const ID: GameId = GameId::new("course");

/// A course whose evaluation reaches this is GOOD.
pub const GOOD_EVALUATION: f64 = 0.8;

/// Courses: chains of battles and recoveries ending in a boss.
#[derive(Clone, Copy, Debug, Default)]
pub struct CourseGame;

const fn digit(ascii: char, name: &'static str, rgb: [u8; 3]) -> TileInfo {
    TileInfo { ascii, name, rgb }
}

/// The ten digits, dark (0) to bright (9).
const TILES: [TileInfo; 10] = [
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
const BATTLE_RGB: [u8; 3] = [196, 72, 64];
const RECOVERY_RGB: [u8; 3] = [70, 130, 220];
const BOSS_RGB: [u8; 3] = [40, 36, 44];
const PASSED_RGB: [u8; 3] = [92, 92, 98];
const HP_RGB: [u8; 3] = [76, 187, 94];
const EMPTY_RGB: [u8; 3] = [58, 58, 64];

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

/// The evaluation as the gauge, the level file and `validate` show it.
pub fn analysis_of(course: &Course, e: &Evaluation) -> Analysis {
    let rate = e.win_rate();
    let verdict = if e.wins == 0 {
        Verdict {
            pass: false,
            weak: false,
            label: "UNWINNABLE".into(),
            reason: "no attack / retreat strategy beats the boss".into(),
        }
    } else if e.value >= GOOD_EVALUATION {
        Verdict {
            pass: true,
            weak: false,
            label: "GOOD".into(),
            reason: format!("evaluation {:.3} ≥ {GOOD_EVALUATION}", e.value),
        }
    } else {
        Verdict {
            pass: false,
            weak: true,
            label: "WEAK".into(),
            reason: format!("evaluation {:.3} < {GOOD_EVALUATION}", e.value),
        }
    };
    let names = [
        "f1 win-rate soundness",
        "f2 dramatic survival",
        "f3 moderate parameters",
        "f4 tough wins",
        "f5 early escapes",
        "f6 strong late enemies",
        "f7 varied wins",
    ];
    let short = [
        "f1 win rate",
        "f2 drama",
        "f3 moderate",
        "f4 tough",
        "f5 escapes",
        "f6 late foes",
        "f7 varied",
    ];
    let mut fields = serde_json::Map::new();
    fields.insert("evaluation".into(), json!(e.value));
    fields.insert("win_rate".into(), json!(rate));
    for (i, f) in e.f.iter().enumerate() {
        fields.insert(format!("f{}", i + 1), json!(f));
    }
    fields.insert("strategies".into(), json!(e.strategies));
    fields.insert("wins".into(), json!(e.wins));
    fields.insert("dramatic".into(), json!(e.dramatic));
    fields.insert("monotonous".into(), json!(e.monotonous));
    fields.insert("enemies".into(), json!(course.enemies()));
    fields.insert("events".into(), json!(course.events()));
    fields.insert(
        "strip".into(),
        json!(strip(course).into_iter().collect::<String>()),
    );
    let summary = format!(
        "{} events, evaluation {:.3}, {} of {} strategies win ({:.1} %)\n  {}",
        course.events(),
        e.value,
        e.wins,
        e.strategies,
        rate * 100.0,
        e.f.iter()
            .enumerate()
            .map(|(i, f)| format!("f{} {f:.3}", i + 1))
            .collect::<Vec<_>>()
            .join(" · ")
    );
    let mut events = Vec::new();
    for i in 0..course.enemies() {
        let (hp, atk) = course.enemy(i);
        let mut text = format!("HP {hp:.0} · ATK {atk:.1}");
        if course.recovery(i) > 0.0 {
            text.push_str(&format!(
                " · then recover {:.0} %",
                course.recovery(i) * 100.0
            ));
        }
        events.push((format!("enemy {}", i + 1), text));
    }
    let (hp, atk) = course.boss();
    events.push(("boss".into(), format!("HP {hp:.0} · ATK {atk:.1}")));
    let gauge = Gauge {
        title: "Evaluation".into(),
        headline: format!("Evaluation {:.3}", e.value),
        value: Some(e.value),
        scale: (0.0, 1.0),
        threshold: Some((GOOD_EVALUATION, "good".into())),
        good_below: false,
        band: None,
        notes: vec![
            format!(
                "Win rate {:.1} % (target 30 %): {} of {} attack / retreat strategies beat the boss",
                rate * 100.0,
                e.wins,
                e.strategies
            ),
            format!(
                "{} winning strategies survive a crisis, {} only attack or only retreat",
                e.dramatic, e.monotonous
            ),
        ],
        histogram: None,
        curve: None,
        rates: Some((
            "Evaluation terms (weights 0.4 · 0.1 · 0.2 · 0.1 · 0.05 · 0.1 · 0.05)".into(),
            short
                .iter()
                .zip(e.f)
                .map(|(n, f)| (n.to_string(), f))
                .collect(),
        )),
        tables: vec![
            ("Events".into(), events),
            (
                "Terms × weights".into(),
                names
                    .iter()
                    .zip(e.f.iter().zip(WEIGHTS))
                    .map(|(n, (f, w))| (n.to_string(), format!("{f:.3} × {w} = {:.3}", f * w)))
                    .collect(),
            ),
        ],
    };
    let graph = StrategyGraph::explore(course.clone(), Node::START, 1 << 16)
        .ok()
        .map(|g| Arc::new(GraphPicture::new(g)) as Arc<dyn studio_core::game::StateGraphView>);
    Analysis {
        difficulty: Some(1.0 - rate),
        verdict,
        figures: Some(Figures::new(CourseFigures {
            evaluation: e.value,
            win_rate: rate,
            f: e.f,
            strategies: e.strategies,
            wins: e.wins,
        })),
        gauge,
        fields,
        summary,
        graph,
        graph_note: None,
        detail: Some(Arc::new(e.clone())),
    }
}

impl Game for CourseGame {
    fn id(&self) -> GameId {
        ID
    }

    fn name(&self) -> &'static str {
        "Course"
    }

    fn file_tag(&self) -> &'static str {
        "Course"
    }

    fn figures_reader(&self) -> Option<studio_core::level::FiguresReader> {
        Some(studio_core::level::figures_reader::<super::CourseFigures>())
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &TILES
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (4, 3),
            max: (2 * (MAX_ENEMIES + 1), 3),
            default: (2 * Structure::NINE.columns(), 3),
        }
    }

    fn check(&self, rows: &[String]) -> Result<(), AsciiError> {
        Course::from_rows(rows)
            .map(|_| ())
            .map_err(AsciiError::rule)
    }

    /// A course of `width / 2` columns: enemies and a boss at the middle of their ranges, a
    /// recovery event of rate 0.5 after every second enemy.
    fn blank(&self, width: usize, height: usize) -> Level {
        let (w, _) = self.size_rules().clamp(width, height);
        let columns = (w / 2).max(2);
        let course = Course::new(
            (0..columns)
                .map(|i| {
                    let rate = if i % 2 == 1 && i + 1 < columns {
                        0.5
                    } else {
                        0.0
                    };
                    [0.5, 0.5, rate]
                })
                .collect(),
        );
        let cells = course.map_or_else(|_| vec!["5050".into(); 3], |c| c.to_rows());
        Level {
            game: ID,
            name: format!("{} events", cells[0].len() / 2),
            cells,
            symmetry: Default::default(),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        }
    }

    fn level_from_ascii(&self, name: &str, text: &str) -> Result<Level, AsciiError> {
        let rows = studio_core::level::text_rows(text);
        Course::from_rows(&rows).map_err(|e| AsciiError::Level(e.to_string()))?;
        Ok(Level::bare(ID, name, rows))
    }

    fn analyse(
        &self,
        level: &Level,
        _options: &AnalyseOptions,
        cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        let course = Course::from_rows(&level.cells).map_err(|e| e.to_string())?;
        if cancel.is_cancelled() {
            return Err(JobError::Cancelled);
        }
        Ok(analysis_of(&course, &evaluate(&course)))
    }

    fn stored_difficulty(&self, level: &Level) -> Option<f64> {
        level
            .figures_of::<CourseFigures>()
            .map(|f| 1.0 - f.win_rate)
    }

    fn stored_verdict(&self, level: &Level) -> Option<bool> {
        level
            .figures_of::<CourseFigures>()
            .map(|f| f.evaluation >= GOOD_EVALUATION)
    }

    fn stored_weak(&self, level: &Level) -> bool {
        level
            .figures_of::<CourseFigures>()
            .is_some_and(|f| f.wins > 0 && f.evaluation < GOOD_EVALUATION)
    }

    fn difficulty_name(&self) -> &'static str {
        "1 − win rate"
    }

    fn difficulty_text(&self, difficulty: f64) -> String {
        format!("wins {:.0} %", (1.0 - difficulty) * 100.0)
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        super::generators::all()
    }

    fn sheet_columns(&self) -> usize {
        4
    }

    fn has_state_graph(&self) -> bool {
        true
    }

    fn play(&self, level: &Level, _seed: u64) -> Option<Result<Box<dyn PlayRules>, AsciiError>> {
        Some(
            Course::from_rows(&level.cells)
                .map(|c| Box::new(CoursePlay::new(c)) as Box<dyn PlayRules>)
                .map_err(AsciiError::rule),
        )
    }

    fn card_text(&self, level: &Level, difficulty: f64) -> String {
        // The GOOD / WEAK badge is the evaluation's: the card shows it first.
        match level.figures_of::<CourseFigures>() {
            Some(f) => format!(
                "eval {:.2} · wins {:.0} %",
                f.evaluation,
                f.win_rate * 100.0
            ),
            None => self.difficulty_text(difficulty),
        }
    }
}

impl studio_core::game::GameView for CourseGame {
    fn play_keys(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("attack the enemy", "Space or Right"),
            ("retreat", "Left or ."),
            ("take back a turn", "Backspace or U"),
        ]
    }

    fn tile_mark(&self, tile: u8) -> TileMark {
        TileMark::Glyph(char::from(b'0' + tile.min(9)))
    }

    fn default_brush(&self) -> u8 {
        5
    }

    fn parameter_strip(&self, rows: &[String]) -> Option<ParamStrip> {
        parameter_strip(&Course::from_rows(rows).ok()?)
    }
}

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
