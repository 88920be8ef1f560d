//! The session that survives a restart, as stored: the level on each game's canvas (and the
//! pack level it edits in place), the generator settings and the candidates, in `session.ron`
//! beside the recovery file. Reading it checks every number (conditions against their
//! generator's ranges, counts, difficulties, level figures), so a damaged or hand-edited file
//! can only lose the values that are wrong. GUI-free; the window puts a session back.

use crate::document::startup::{checked_level, checked_number, Checked};
use crate::game::{ConditionKind, ConditionSpec, ConditionValue};
use crate::io::FileError;
use crate::level::{Game, Level};
use crate::symmetry::Symmetry;
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// What is kept of a session.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Session {
    /// The run-time games (GVGAI's) the levels below may name: first, so reading registers
    /// them before the levels are read.
    #[serde(default)]
    pub games: crate::game::registry::RuntimeGames,
    /// The level on each game's canvas.
    pub canvases: Vec<SavedCanvas>,
    /// Each game's generator settings.
    pub requests: Vec<SavedRequest>,
    /// The candidates, in order.
    pub candidates: Vec<SavedCandidate>,
    /// Each game's set put aside by the last run ("Previous"), in order.
    #[serde(default)]
    pub previous: Vec<SavedCandidate>,
}

/// One game's canvas.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedCanvas {
    /// The level as it was.
    pub level: Level,
    /// The pack file and place of the pack level it edited in place.
    pub pack_level: Option<(PathBuf, usize)>,
}

/// A generator request.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedRequest {
    /// The game.
    pub game: Game,
    /// The generator's id.
    pub generator: String,
    /// The conditions by key.
    pub conditions: Vec<(String, SavedValue)>,
    /// Levels wanted, in [`SavedRequest::COUNT`].
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// Keep only passing levels.
    pub validated_only: bool,
}

impl SavedRequest {
    /// How many levels one run of the window's generator panel makes.
    pub const COUNT: RangeInclusive<usize> = 1..=64;
}

/// A condition's value.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub enum SavedValue {
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// A symmetry.
    Symmetry(Symmetry),
    /// On or off.
    Flag(bool),
}

impl From<ConditionValue> for SavedValue {
    fn from(v: ConditionValue) -> Self {
        match v {
            ConditionValue::Int(i) => SavedValue::Int(i),
            ConditionValue::Float(f) => SavedValue::Float(f),
            ConditionValue::Symmetry(s) => SavedValue::Symmetry(s),
            ConditionValue::Flag(b) => SavedValue::Flag(b),
        }
    }
}

impl From<SavedValue> for ConditionValue {
    fn from(v: SavedValue) -> Self {
        match v {
            SavedValue::Int(i) => ConditionValue::Int(i),
            SavedValue::Float(f) => ConditionValue::Float(f),
            SavedValue::Symmetry(s) => ConditionValue::Symmetry(s),
            SavedValue::Flag(b) => ConditionValue::Flag(b),
        }
    }
}

/// A candidate with its analysis.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedCandidate {
    /// The level.
    pub level: Level,
    /// The generator that made it.
    pub generator: String,
    /// Its difficulty.
    pub difficulty: Option<f64>,
    /// Passes its game's verdict.
    pub pass: bool,
    /// Fails softly.
    pub weak: bool,
    /// The badge.
    pub label: String,
    /// Why, in words.
    pub reason: String,
}

impl Session {
    /// Reads a session from the text of its file and checks it ([`Session::check`]).
    ///
    /// # Errors
    /// [`FileError::Parse`] when the text is not a session.
    pub fn from_text(path: &Path, text: &str) -> Result<Checked<Session>, FileError> {
        let mut session: Session = crate::io::from_ron(path, text)?;
        let notes = session.check();
        Ok(Checked {
            value: session,
            notes,
        })
    }

    /// Brings every number into range: levels as [`checked_level`] does (a level that is not
    /// one of its game is dropped), each known condition into its generator's range (a value
    /// that is not finite, or of the wrong kind, gets the condition's default), counts into
    /// [`SavedRequest::COUNT`], and a difficulty that is not finite is forgotten. Returns what
    /// changed, in words.
    pub fn check(&mut self) -> Vec<String> {
        let mut notes = Vec::new();
        self.canvases = std::mem::take(&mut self.canvases)
            .into_iter()
            .filter_map(|mut c| {
                c.level = checked_level(c.level, "session canvas", &mut notes)?;
                Some(c)
            })
            .collect();
        for r in &mut self.requests {
            let (min, max) = (*SavedRequest::COUNT.start(), *SavedRequest::COUNT.end());
            if !SavedRequest::COUNT.contains(&r.count) {
                let near = r.count.clamp(min, max);
                notes.push(format!(
                    "session: {} count {} is outside {min}–{max}; {near} is used",
                    r.generator, r.count
                ));
                r.count = near;
            }
            let specs = r
                .game
                .game()
                .ok()
                .and_then(|g| crate::game::generator_of(g, &r.generator).ok())
                .map(|g| g.conditions())
                .unwrap_or_default();
            for (key, value) in &mut r.conditions {
                if let Some(spec) = specs.iter().find(|s| s.key == key.as_str()) {
                    let (checked, note) = checked_condition(spec, (*value).into());
                    *value = checked.into();
                    notes.extend(note.map(|n| format!("session: {}: {n}", r.generator)));
                }
            }
        }
        self.candidates = checked_candidates(std::mem::take(&mut self.candidates), &mut notes);
        self.previous = checked_candidates(std::mem::take(&mut self.previous), &mut notes);
        notes
    }

    /// Writes it atomically.
    ///
    /// # Errors
    /// The file error.
    pub fn write(&self, path: &Path) -> Result<(), FileError> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let text = crate::io::to_ron(self)?;
        crate::io::write_atomic(path, text.as_bytes())
    }
}

/// Candidates whose levels are levels of their game, with finite difficulties (what changed
/// goes to `notes`).
fn checked_candidates(list: Vec<SavedCandidate>, notes: &mut Vec<String>) -> Vec<SavedCandidate> {
    list.into_iter()
        .filter_map(|mut c| {
            c.level = checked_level(c.level, "session candidate", notes)?;
            if c.difficulty.is_some_and(|d| !d.is_finite()) {
                notes.push(format!(
                    "session: candidate “{}”: difficulty {:?} is not a finite number; dropped",
                    c.level.name, c.difficulty
                ));
                c.difficulty = None;
            }
            Some(c)
        })
        .collect()
}

/// A condition's value brought into its spec's kind and range: a whole number for a number
/// condition is read as that number, a finite number for a whole-number condition is
/// rounded; then out-of-range values go to the nearest end and values that are not finite or
/// of another kind to the default. The note says what changed.
pub fn checked_condition(
    spec: &ConditionSpec,
    value: ConditionValue,
) -> (ConditionValue, Option<String>) {
    let key = spec.key;
    match (&spec.kind, value) {
        (ConditionKind::Int { min, max }, ConditionValue::Int(v)) => {
            if (*min..=*max).contains(&v) {
                (value, None)
            } else {
                let near = v.clamp(*min, (*max).max(*min));
                (
                    ConditionValue::Int(near),
                    Some(format!("{key} {v} is outside {min}–{max}; {near} is used")),
                )
            }
        }
        (ConditionKind::Int { .. }, ConditionValue::Float(v)) if v.is_finite() => {
            // `as` saturates: a huge number becomes the largest whole number, then clamped.
            checked_condition(spec, ConditionValue::Int(v.round() as i64))
        }
        (ConditionKind::Float { min, max, .. }, ConditionValue::Float(v)) => {
            let default = match spec.default {
                ConditionValue::Float(d) => d,
                ConditionValue::Int(d) => d as f64,
                _ => *min,
            };
            let (v, note) = checked_number(key, v, *min..=*max, default);
            (ConditionValue::Float(v), note)
        }
        (ConditionKind::Float { .. }, ConditionValue::Int(v)) => {
            checked_condition(spec, ConditionValue::Float(v as f64))
        }
        (ConditionKind::Symmetry, ConditionValue::Symmetry(_))
        | (ConditionKind::Flag, ConditionValue::Flag(_)) => (value, None),
        _ => (
            spec.default,
            Some(format!(
                "{key} {value} is not a value {key} takes; {} is used",
                spec.default
            )),
        ),
    }
}
