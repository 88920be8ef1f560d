//! The session that survives a restart: the level on each game's canvas (and the pack level
//! it edits in place), the generator settings and the candidates. Written with the settings
//! (every 10 s and on exit) to `session.ron` beside the recovery file; a file that is missing
//! or unreadable starts a fresh session and loses nothing else.

use super::{Desk, StudioApp};
use crate::app::editor::Editor;
use crate::game::{ConditionValue, Verdict};
use crate::generation::Candidate;
use crate::level::{Game, Level};
use crate::symmetry::Symmetry;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What is kept of a session.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Session {
    /// The level on each game's canvas.
    pub canvases: Vec<SavedCanvas>,
    /// Each game's generator settings.
    pub requests: Vec<SavedRequest>,
    /// The candidates, in order.
    pub candidates: Vec<SavedCandidate>,
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
    /// Levels wanted.
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// Keep only passing levels.
    pub validated_only: bool,
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
    /// Reads a session file (`None` when missing or unreadable).
    pub fn read(path: &Path) -> Option<Self> {
        let text = crate::files::read_text(path).ok()?;
        crate::files::from_ron(path, &text).ok()
    }

    /// Writes it atomically.
    ///
    /// # Errors
    /// The file error.
    pub fn write(&self, path: &Path) -> Result<(), crate::files::FileError> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let text = crate::files::to_ron(self)?;
        crate::files::write_atomic(path, text.as_bytes())
    }
}

/// The generator id of `game` named `name`, as the registry spells it.
fn generator_id(game: Game, name: &str) -> Option<&'static str> {
    let g = game.game().ok()?;
    crate::game::generator_of(g, name).ok().map(|g| g.id())
}

impl StudioApp {
    /// The session as it is now.
    pub fn session(&self) -> Session {
        let canvases = std::iter::once(&self.desk)
            .chain(self.parked.values())
            .map(|desk| {
                let pack_level = self
                    .find_level(desk.editor.source)
                    .and_then(|(p, i)| self.packs[p].path.clone().map(|path| (path, i)));
                SavedCanvas {
                    level: desk.editor.to_level(),
                    pack_level,
                }
            })
            .collect();
        let requests = crate::game::games()
            .iter()
            .filter_map(|g| self.generators.saved_request(g.id()))
            .map(|r| SavedRequest {
                game: r.game,
                generator: r.generator.to_string(),
                conditions: r
                    .conditions
                    .keys()
                    .filter_map(|k| r.conditions.get(k).map(|v| (k.to_string(), v.into())))
                    .collect(),
                count: r.count,
                seed: r.seed,
                validated_only: r.validated_only,
            })
            .collect();
        let candidates = self
            .generators
            .candidates
            .iter()
            .map(|c| SavedCandidate {
                level: c.level.clone(),
                generator: c.generator.to_string(),
                difficulty: c.difficulty,
                pass: c.verdict.pass,
                weak: c.verdict.weak,
                label: c.verdict.label.clone(),
                reason: c.verdict.reason.clone(),
            })
            .collect();
        Session {
            canvases,
            requests,
            candidates,
        }
    }

    /// Puts a saved session back: canvases (linked again to their pack level when that level
    /// is open with the same cells; otherwise as work in no pack, so nothing changes a
    /// pack), generator settings and candidates. Parts of unknown games are skipped.
    pub fn restore(&mut self, session: Session) {
        for saved in session.canvases {
            let Ok(mut editor) = Editor::from_level(&saved.level) else {
                continue;
            };
            let linked = saved.pack_level.and_then(|(path, i)| {
                let doc = self
                    .packs
                    .iter()
                    .find(|d| d.path.as_deref() == Some(path.as_path()))?;
                let level = doc.pack.levels.get(i)?;
                let same = level.cells == saved.level.cells;
                same.then(|| doc.level_ref(i).map(|r| (r, level.name.clone())))
                    .flatten()
            });
            if let Some((_, name)) = &linked {
                // The pack's name wins: a rename that was not saved is not brought back.
                editor.name = name.clone();
            }
            editor.source = linked.map(|(r, _)| r);
            let game = saved.level.game;
            *self.desk_mut(game) = Desk::new(editor);
        }
        for r in session.requests {
            let Some(id) = generator_id(r.game, &r.generator) else {
                continue;
            };
            self.generators.choose(r.game, id);
            let request = self.generators.request_mut(r.game);
            for (key, value) in r.conditions {
                let known = request.conditions.keys().find(|k| *k == key);
                if let Some(k) = known {
                    request.conditions.set(k, value.into());
                }
            }
            request.count = r.count;
            request.seed = r.seed;
            request.validated_only = r.validated_only;
        }
        self.generators.candidates = session
            .candidates
            .into_iter()
            .filter_map(|c| {
                Some(Candidate {
                    generator: generator_id(c.level.game, &c.generator)?,
                    level: c.level,
                    difficulty: c.difficulty,
                    verdict: Verdict {
                        pass: c.pass,
                        weak: c.weak,
                        label: c.label,
                        reason: c.reason,
                    },
                })
            })
            .collect();
    }

    /// Writes the session file (a failure is shown, and nothing else changes).
    pub fn save_session(&mut self) {
        let Some(path) = self.paths.session_file.clone() else {
            return;
        };
        if let Err(e) = self.session().write(&path) {
            self.errors
                .push(super::errors::AppError::Save(e.to_string()));
        }
    }
}
