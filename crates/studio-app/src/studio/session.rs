//! Putting the session back and taking it: the level on each game's canvas (and the pack
//! level it edits in place), the generator settings and the candidates. Written with the
//! settings (every 10 s and on exit) to `session.ron` beside the recovery file; what is stored
//! and how it is read and checked is GUI-free ([`studio_core::document::session`]).

use super::{Desk, StudioApp};
use crate::editor::Editor;
use studio_core::game::Verdict;
use studio_core::generation::Candidate;
use studio_core::level::Game;

pub use studio_core::document::session::{
    SavedCandidate, SavedCanvas, SavedRequest, SavedValue, Session,
};

/// The generator id of `game` named `name`, as the registry spells it (or a tool window's,
/// whose levels are candidates too).
fn generator_id(game: Game, name: &str) -> Option<&'static str> {
    let tools = studio_core::game::registry::entries::<studio_ui::Tool>();
    let by_tool = tools
        .iter()
        .filter(|t| t.game == game)
        .flat_map(|t| t.generators.iter().copied())
        .find(|&g| g == name);
    if by_tool.is_some() {
        return by_tool;
    }
    let g = game.game().ok()?;
    studio_core::game::generator_of(g, name)
        .ok()
        .map(|g| g.id())
}

fn saved(c: &Candidate) -> SavedCandidate {
    SavedCandidate {
        level: c.level.clone(),
        generator: c.generator.to_string(),
        difficulty: c.difficulty,
        pass: c.verdict.pass,
        weak: c.verdict.weak,
        label: c.verdict.label.clone(),
        reason: c.verdict.reason.clone(),
    }
}

fn restored(c: SavedCandidate) -> Option<Candidate> {
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
        let requests = studio_core::game::games()
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
        let candidates = self.generators.candidates.iter().map(saved).collect();
        let previous = studio_core::game::games()
            .iter()
            .filter_map(|g| self.generators.previous.get(&g.id()))
            .flatten()
            .map(saved)
            .collect();
        Session {
            games: Default::default(),
            canvases,
            requests,
            candidates,
            previous,
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
            .filter_map(restored)
            .collect();
        self.generators.previous.clear();
        for c in session.previous.into_iter().filter_map(restored) {
            self.generators
                .previous
                .entry(c.level.game)
                .or_default()
                .push(c);
        }
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
