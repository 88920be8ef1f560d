//! One open pack: its levels, the file it came from, whether it has unsaved changes, and the
//! difficulty and verdict of each level (from its stored figures, or measured by its game's
//! analysis off the UI thread and cached by cells).

use crate::game::AnalyseOptions;
use crate::jobs::Cancel;
use crate::level::{Game, Level, Pack};
use std::collections::HashMap;
use std::path::PathBuf;

/// What an analysis found for a level without stored figures.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Measured {
    /// The game's difficulty number (`None`: unsolvable, too large, or not a level).
    pub difficulty: Option<f64>,
    /// Whether the level passes its game's verdict (`None` when it could not be analysed).
    pub pass: Option<bool>,
    /// The verdict's badge (`UNSOLVABLE`), or why the analysis failed.
    pub label: String,
    /// A soft failure: the level works but is not worth keeping (trivial).
    pub weak: bool,
}

/// The cache key of a measured level: its game and cells.
pub type MeasureKey = (Game, Vec<String>);

/// Analyses levels with their game's analysis (on a worker thread, for the pack strip).
pub fn measure(levels: &[MeasureKey], cancel: &Cancel) -> Vec<(MeasureKey, Measured)> {
    let mut out = Vec::new();
    for (game, cells) in levels {
        if cancel.is_cancelled() {
            break;
        }
        let level = Level {
            game: *game,
            name: String::new(),
            cells: cells.clone(),
            symmetry: Default::default(),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        };
        let analysis = game.game().map_err(|e| e.to_string()).and_then(|g| {
            g.analyse(&level, &AnalyseOptions::default(), cancel)
                .map_err(|e| e.to_string())
        });
        let measured = match analysis {
            Ok(a) => Measured {
                difficulty: a.difficulty,
                pass: Some(a.verdict.pass),
                label: a.verdict.label,
                weak: a.verdict.weak,
            },
            Err(e) => Measured {
                difficulty: None,
                pass: None,
                label: if e.len() > 24 {
                    "not analysed".into()
                } else {
                    e
                },
                weak: false,
            },
        };
        out.push(((*game, cells.clone()), measured));
    }
    out
}

/// An open pack.
#[derive(Clone, Debug)]
pub struct PackDoc {
    /// The pack.
    pub pack: Pack,
    /// Where it is saved (`None` for a new pack).
    pub path: Option<PathBuf>,
    /// True when it differs from the file.
    pub dirty: bool,
    /// Difficulty and verdict of levels without stored figures, by game and cells.
    pub measured: HashMap<MeasureKey, Measured>,
    /// The level removed last and where it was, for "Undo remove".
    pub last_removed: Option<(usize, Level)>,
}

impl PackDoc {
    /// A pack read from `path`.
    pub fn opened(pack: Pack, path: PathBuf) -> Self {
        Self {
            pack,
            path: Some(path),
            dirty: false,
            measured: HashMap::new(),
            last_removed: None,
        }
    }

    /// A new empty pack.
    pub fn untitled(name: &str) -> Self {
        Self {
            pack: Pack::new(name),
            path: None,
            dirty: false,
            measured: HashMap::new(),
            last_removed: None,
        }
    }

    /// The name shown on the tab: the file name, with a star when unsaved.
    pub fn title(&self) -> String {
        let base = self
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| self.pack.name.clone());
        if self.dirty {
            format!("{base} *")
        } else {
            base
        }
    }

    /// The game most of its levels belong to (the first registered game when empty; the
    /// earlier-registered game on a tie).
    pub fn main_game(&self) -> Game {
        let games = crate::game::games();
        let count = |id: Game| self.pack.levels.iter().filter(|l| l.game == id).count();
        games
            .iter()
            .map(|g| g.id())
            .rev()
            .max_by_key(|&id| count(id))
            .filter(|&id| count(id) > 0)
            .unwrap_or_else(|| crate::game::registry::first().id())
    }

    /// A level's difficulty: its stored figures' (match-3 median moves), else what its
    /// game's analysis measured (Longcat player-model difficulty).
    pub fn difficulty(&self, level: &Level) -> Option<f64> {
        level
            .game
            .game()
            .ok()
            .and_then(|g| g.stored_difficulty(level))
            .or_else(|| self.measured_of(level).and_then(|m| m.difficulty))
    }

    /// Whether a level passes its game's verdict (stored figures first, then measured).
    pub fn verdict(&self, level: &Level) -> Option<bool> {
        level
            .game
            .game()
            .ok()
            .and_then(|g| g.stored_verdict(level))
            .or_else(|| self.measured_of(level).and_then(|m| m.pass))
    }

    /// Whether a failing level only fails softly (works, but is trivial).
    pub fn weak(&self, level: &Level) -> bool {
        level.game.game().is_ok_and(|g| g.stored_weak(level))
            || self.measured_of(level).is_some_and(|m| m.weak)
    }

    fn measured_of(&self, level: &Level) -> Option<&Measured> {
        self.measured.get(&(level.game, level.cells.clone()))
    }

    /// Levels whose difficulty is neither stored nor measured yet.
    pub fn unmeasured(&self) -> Vec<MeasureKey> {
        let mut out: Vec<MeasureKey> = self
            .pack
            .levels
            .iter()
            .filter(|l| {
                let stored = l.game.game().ok().and_then(|g| g.stored_difficulty(l));
                stored.is_none() && self.measured_of(l).is_none()
            })
            .map(|l| (l.game, l.cells.clone()))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Appends a level.
    pub fn add(&mut self, level: Level) {
        self.pack.levels.push(level);
        self.dirty = true;
    }

    /// Removes a level (ignored out of range).
    pub fn remove(&mut self, index: usize) {
        if index < self.pack.levels.len() {
            let level = self.pack.levels.remove(index);
            self.last_removed = Some((index, level));
            self.dirty = true;
        }
    }

    /// Puts the last removed level back where it was (or last, when the pack got shorter);
    /// returns its name.
    pub fn undo_remove(&mut self) -> Option<String> {
        let (index, level) = self.last_removed.take()?;
        let name = level.name.clone();
        let at = index.min(self.pack.levels.len());
        self.pack.levels.insert(at, level);
        self.dirty = true;
        Some(name)
    }

    /// Renames a level.
    pub fn rename(&mut self, index: usize, name: &str) {
        if let Some(l) = self.pack.levels.get_mut(index) {
            if l.name != name {
                l.name = name.to_string();
                self.dirty = true;
            }
        }
    }

    /// Moves a level to position `to` (counted after removing it).
    pub fn move_level(&mut self, from: usize, to: usize) {
        let n = self.pack.levels.len();
        if from < n && from != to {
            let level = self.pack.levels.remove(from);
            self.pack.levels.insert(to.min(n - 1), level);
            self.dirty = true;
        }
    }

    /// Orders levels from easiest to hardest (unknown difficulty last, order kept on ties).
    pub fn sort_by_difficulty(&mut self) {
        let keys: Vec<f64> = self
            .pack
            .levels
            .iter()
            .map(|l| self.difficulty(l).unwrap_or(f64::INFINITY))
            .collect();
        let mut keyed: Vec<(f64, Level)> =
            keys.into_iter().zip(self.pack.levels.drain(..)).collect();
        let before: Vec<String> = keyed.iter().map(|k| k.1.name.clone()).collect();
        keyed.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
        let after: Vec<String> = keyed.iter().map(|k| k.1.name.clone()).collect();
        self.pack.levels = keyed.into_iter().map(|k| k.1).collect();
        if before != after {
            self.dirty = true;
        }
    }

    /// The difficulty curve: (position, difficulty) of levels with a known difficulty.
    pub fn curve(&self, game: Game) -> Vec<[f64; 2]> {
        self.pack
            .levels
            .iter()
            .enumerate()
            .filter(|(_, l)| l.game == game)
            .filter_map(|(i, l)| self.difficulty(l).map(|d| [i as f64 + 1.0, d]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Figures;
    use crate::match3::{Layout, Validation, ValidationConfig};

    fn level(name: &str, median: f64) -> Level {
        let mut l = Level::from_layout(name, &Layout::open(5, 5).unwrap());
        let v: Validation = crate::match3::validate::summarise(
            vec![median as u32; 3],
            &ValidationConfig::default(),
        );
        l.figures = Some(Figures::Match3((&v).into()));
        l
    }

    #[test]
    fn reorder_sort_and_dirty() {
        let mut p = PackDoc::untitled("t");
        p.add(level("hard", 30.0));
        p.add(level("easy", 10.0));
        p.add(level("mid", 20.0));
        p.dirty = false;
        p.sort_by_difficulty();
        let names: Vec<&str> = p.pack.levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["easy", "mid", "hard"]);
        assert!(p.dirty);
        p.move_level(2, 0);
        assert_eq!(p.pack.levels[0].name, "hard");
        p.rename(0, "boss");
        p.remove(1);
        let names: Vec<&str> = p.pack.levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["boss", "mid"]);
        assert_eq!(p.curve(crate::match3::ID), vec![[1.0, 30.0], [2.0, 20.0]]);
    }
}
