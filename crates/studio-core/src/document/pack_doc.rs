//! One open pack: its levels, the file it came from, whether it has unsaved changes, and the
//! difficulty and verdict of each level (from its stored figures, or measured by its game's
//! analysis off the UI thread and cached by cells).

use crate::game::AnalyseOptions;
use crate::jobs::Cancel;
use crate::level::{Game, Level, Pack};
use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// A level of an open pack that keeps pointing at it while levels are added, moved, sorted
/// or removed around it (the canvas edits it in place through this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LevelRef {
    /// The pack's [`PackDoc::uid`].
    pub pack: u64,
    /// The level's id within the pack.
    pub level: u64,
}

/// Session-unique numbers for packs and their levels.
fn next_uid() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

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
    /// The figures the analysis found, which [`PackDoc::record_measured`] stores in the
    /// levels of these cells so the pack is saved with them.
    pub figures: Option<crate::level::Figures>,
}

/// The cache key of a measured level: its game and cells.
pub type MeasureKey = (Game, Vec<String>);

/// A [`MeasureKey`] seen through a borrow, so the strip looks a level's figures up every
/// frame without copying its cells (a 20,000-level pack would copy them all each frame).
pub trait MeasureKeyView {
    /// The game and the cells.
    fn view(&self) -> (Game, &[String]);
}

impl MeasureKeyView for MeasureKey {
    fn view(&self) -> (Game, &[String]) {
        (self.0, &self.1)
    }
}

impl MeasureKeyView for (Game, &[String]) {
    fn view(&self) -> (Game, &[String]) {
        *self
    }
}

impl<'a> Borrow<dyn MeasureKeyView + 'a> for MeasureKey {
    fn borrow(&self) -> &(dyn MeasureKeyView + 'a) {
        self
    }
}

// Hashes as `MeasureKey` does: a `Vec` hashes as its slice.
impl Hash for dyn MeasureKeyView + '_ {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.view().hash(state);
    }
}

impl PartialEq for dyn MeasureKeyView + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.view() == other.view()
    }
}

impl Eq for dyn MeasureKeyView + '_ {}

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
                figures: a.figures,
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
                figures: None,
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
    /// Names this open pack for [`LevelRef`]s (unique in the session).
    pub uid: u64,
    /// One id per level, in the levels' order (changed only by the methods below).
    ids: Vec<u64>,
    /// The pack as its file holds it (when it was opened or last saved), so undoing back to
    /// it clears the unsaved mark.
    saved: Option<Pack>,
    /// See [`PackDoc::version`].
    version: u64,
    /// The game an empty pack was started for (its [`PackDoc::main_game`] until it holds
    /// levels).
    started_for: Option<Game>,
    /// True for the empty pack the strip keeps for a game with no pack open: it has no tab
    /// and is never recovered, until a level goes into it.
    placeholder: bool,
}

/// A level taken out of a pack, with what puts it back in its place (and its link to the
/// canvas with it).
#[derive(Clone, Debug, PartialEq)]
pub struct Removed {
    /// Where it was.
    pub index: usize,
    /// The level.
    pub level: Level,
    /// Its id in the pack, so a canvas linked to it is linked again when it comes back.
    id: u64,
}

impl PackDoc {
    /// A pack read from `path`.
    pub fn opened(pack: Pack, path: PathBuf) -> Self {
        Self::with(pack, Some(path), false)
    }

    /// A new empty pack.
    pub fn untitled(name: &str) -> Self {
        Self::with(Pack::new(name), None, false)
    }

    /// A new empty pack for `game`, named after it ("untitled Mario").
    pub fn untitled_for(game: Game) -> Self {
        let name = game
            .game()
            .map_or_else(|_| game.to_string(), |g| g.name().to_string());
        let mut doc = Self::untitled(&format!("untitled {name}"));
        doc.started_for = Some(game);
        doc
    }

    /// What the strip holds for a game with no pack open: an empty pack for `game` with no
    /// tab of its own (see [`PackDoc::is_placeholder`]).
    pub fn placeholder(game: Game) -> Self {
        let mut doc = Self::untitled_for(game);
        doc.placeholder = true;
        doc
    }

    /// True while this is a placeholder nothing went into: no tab, not saved, not
    /// recovered, and it makes way for the next pack opened.
    pub fn is_placeholder(&self) -> bool {
        self.placeholder && self.path.is_none() && !self.dirty && self.pack.levels.is_empty()
    }

    /// A pack from anywhere (the recovery file), saved at `path` or not, with unsaved
    /// changes or not.
    pub fn with(pack: Pack, path: Option<PathBuf>, dirty: bool) -> Self {
        Self {
            ids: pack.levels.iter().map(|_| next_uid()).collect(),
            saved: (!dirty && path.is_some()).then(|| pack.clone()),
            pack,
            path,
            dirty,
            measured: HashMap::new(),
            uid: next_uid(),
            version: 0,
            started_for: None,
            placeholder: false,
        }
    }

    /// The pack was just written to its file: it is clean, and this is what undo comes back to.
    pub fn mark_saved(&mut self) {
        self.dirty = false;
        self.saved = Some(self.pack.clone());
    }

    /// Clears the unsaved mark when the pack is back to what its file holds (an undo back to
    /// the saved cells): the same name, description and levels, their figures and symmetry
    /// aside (the gauge may have measured them anew; the symmetry follows the cells).
    pub fn refresh_dirty(&mut self) {
        if !self.dirty {
            return;
        }
        if self.saved.as_ref().is_some_and(|saved| self.holds(saved)) {
            self.dirty = false;
        }
    }

    /// True when the open pack holds what `pack` holds: the same name, description and
    /// levels, their figures and symmetry aside (measuring fills figures in; the symmetry
    /// follows the cells).
    pub fn holds(&self, pack: &Pack) -> bool {
        let same = |a: &Level, b: &Level| {
            a.name == b.name && a.cells == b.cells && a.tags == b.tags && a.playtests == b.playtests
        };
        pack.name == self.pack.name
            && pack.description == self.pack.description
            && pack.levels.len() == self.pack.levels.len()
            && pack
                .levels
                .iter()
                .zip(&self.pack.levels)
                .all(|(a, b)| same(a, b))
    }

    /// The reference to level `index` (`None` out of range).
    pub fn level_ref(&self, index: usize) -> Option<LevelRef> {
        let level = *self.ids.get(index)?;
        Some(LevelRef {
            pack: self.uid,
            level,
        })
    }

    /// Where the referenced level is now (`None`: another pack's, or removed).
    pub fn index_of(&self, r: LevelRef) -> Option<usize> {
        if r.pack != self.uid || self.ids.len() != self.pack.levels.len() {
            return None;
        }
        self.ids.iter().position(|&id| id == r.level)
    }

    /// A name no level of the pack has yet: `name`, else `name (2)`, `name (3)`, ….
    pub fn unique_name(&self, name: &str) -> String {
        let taken = |n: &str| self.pack.levels.iter().any(|l| l.name == n);
        if !taken(name) {
            return name.to_string();
        }
        (2..)
            .map(|k| format!("{name} ({k})"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| name.to_string())
    }

    /// Puts the canvas's version of level `index` in its place: its cells, symmetry and
    /// figures (name, tags and playtests stay). Figures are taken with new cells, or when the
    /// level has none and `fill_figures` (the canvas changed it earlier, and the gauge has
    /// now answered), so looking at a level never marks the pack unsaved. Returns true when
    /// the level changed.
    pub fn update_level(&mut self, index: usize, edited: &Level, fill_figures: bool) -> bool {
        let Some(level) = self.pack.levels.get_mut(index) else {
            return false;
        };
        let new_cells = level.cells != edited.cells;
        if new_cells {
            level.cells = edited.cells.clone();
            level.symmetry = edited.symmetry;
            level.figures = edited.figures.clone();
        } else if fill_figures && level.figures.is_none() && edited.figures.is_some() {
            level.figures = edited.figures.clone();
        } else {
            return false;
        }
        self.changed();
        // Back to the file's cells (an undo), new figures or not: nothing to save.
        self.refresh_dirty();
        true
    }

    /// The name shown on the tab: the pack's name, with a star when unsaved.
    pub fn title(&self) -> String {
        if self.dirty {
            format!("{} *", self.pack.name)
        } else {
            self.pack.name.clone()
        }
    }

    /// Renames the pack (its name inside the file; the file keeps its path).
    pub fn rename_pack(&mut self, name: &str) {
        if self.pack.name != name {
            self.pack.name = name.to_string();
            self.changed();
        }
    }

    /// The game most of its levels belong to (when empty, the game it was started for, else
    /// the first registered game; the earlier-registered game on a tie).
    pub fn main_game(&self) -> Game {
        let games = crate::game::games();
        let count = |id: Game| self.pack.levels.iter().filter(|l| l.game == id).count();
        games
            .iter()
            .map(|g| g.id())
            .rev()
            .max_by_key(|&id| count(id))
            .filter(|&id| count(id) > 0)
            .or(self.started_for)
            .unwrap_or_else(|| crate::game::registry::first().id())
    }

    /// A level's difficulty: its stored figures' (median moves), else what its game's
    /// analysis measured (a player-model difficulty).
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

    /// Keeps what the strip measured for the levels of `key` and stores its figures in each
    /// such level that has none, so saving writes them and the reopened pack needs no
    /// measuring (a GVGAI level takes seconds). Measuring is looking: the unsaved mark and
    /// the version stay, as the difficulty shown does not change.
    pub fn record_measured(&mut self, key: MeasureKey, measured: Measured) {
        if let Some(figures) = &measured.figures {
            let (game, cells) = (key.0, &key.1);
            for level in &mut self.pack.levels {
                if level.figures.is_none() && level.game == game && level.cells == *cells {
                    level.figures = Some(figures.clone());
                }
            }
        }
        self.measured.insert(key, measured);
    }

    /// What the strip measured for a level without stored figures (looked up without a copy
    /// of its cells).
    pub fn measured_of(&self, level: &Level) -> Option<&Measured> {
        let key: (Game, &[String]) = (level.game, &level.cells);
        self.measured.get(&key as &dyn MeasureKeyView)
    }

    /// Counts changes to the levels (their order, cells, figures and names): the strip redraws
    /// its curve only when this or the measured figures changed.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Something changed: the pack is unsaved and its version moves on.
    fn changed(&mut self) {
        self.placeholder = false;
        self.dirty = true;
        self.version += 1;
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

    /// At most `limit` levels whose difficulty is neither stored nor measured yet, those at
    /// the places in `first` (the cards on screen) before the rest, then in pack order; and
    /// how many such levels the pack holds in all. A big pack is measured a batch at a time,
    /// so its cards fill in as results arrive, the visible ones first.
    pub fn unmeasured_batch(&self, first: &[usize], limit: usize) -> (Vec<MeasureKey>, usize) {
        let needs = |l: &Level| {
            let stored = l.game.game().ok().and_then(|g| g.stored_difficulty(l));
            stored.is_none() && self.measured_of(l).is_none()
        };
        let left = self.pack.levels.iter().filter(|l| needs(l)).count();
        let order = first
            .iter()
            .copied()
            .chain(0..self.pack.levels.len())
            .filter_map(|i| self.pack.levels.get(i));
        let mut out: Vec<MeasureKey> = Vec::new();
        for level in order {
            if out.len() >= limit {
                break;
            }
            let key = (level.game, level.cells.clone());
            if needs(level) && !out.contains(&key) {
                out.push(key);
            }
        }
        (out, left)
    }

    /// Appends a level.
    pub fn add(&mut self, level: Level) {
        self.insert(self.pack.levels.len(), level);
    }

    /// Puts a level at `index` (the end when past it).
    pub fn insert(&mut self, index: usize, level: Level) {
        let at = index.min(self.pack.levels.len());
        self.pack.levels.insert(at, level);
        self.ids.insert(at.min(self.ids.len()), next_uid());
        self.changed();
    }

    /// Takes level `index` out (`None` out of range), with what puts it back.
    pub fn take(&mut self, index: usize) -> Option<Removed> {
        if index >= self.pack.levels.len() {
            return None;
        }
        let level = self.pack.levels.remove(index);
        let id = if index < self.ids.len() {
            self.ids.remove(index)
        } else {
            next_uid()
        };
        self.changed();
        Some(Removed { index, level, id })
    }

    /// What takes level `index` out again later ([`PackDoc::take_again`]): undoing an add.
    pub fn handle(&self, index: usize) -> Option<Removed> {
        Some(Removed {
            index,
            level: self.pack.levels.get(index)?.clone(),
            id: *self.ids.get(index)?,
        })
    }

    /// Takes out the level that `removed` once took and [`PackDoc::put_back`] returned
    /// (redo of a removal), wherever it is now; `None` when it is no longer in the pack.
    pub fn take_again(&mut self, removed: &Removed) -> Option<Removed> {
        let index = self.ids.iter().position(|&id| id == removed.id)?;
        self.take(index)
    }

    /// Puts a taken level back where it was (or last, when the pack got shorter); returns
    /// its name.
    pub fn put_back(&mut self, removed: Removed) -> String {
        let name = removed.level.name.clone();
        let at = removed.index.min(self.pack.levels.len());
        self.pack.levels.insert(at, removed.level);
        self.ids.insert(at.min(self.ids.len()), removed.id);
        self.changed();
        name
    }

    /// Renames a level.
    pub fn rename(&mut self, index: usize, name: &str) {
        if let Some(l) = self.pack.levels.get_mut(index) {
            if l.name != name {
                l.name = name.to_string();
                self.changed();
            }
        }
    }

    /// Moves a level to position `to` (counted after removing it).
    pub fn move_level(&mut self, from: usize, to: usize) {
        let n = self.pack.levels.len();
        if from < n && from != to {
            let level = self.pack.levels.remove(from);
            self.pack.levels.insert(to.min(n - 1), level);
            if from < self.ids.len() {
                let id = self.ids.remove(from);
                self.ids.insert(to.min(self.ids.len()), id);
            }
            self.changed();
        }
    }

    /// The levels' ids in pack order: what [`PackDoc::reorder`] puts back (undoing a move or
    /// a sort).
    pub fn order(&self) -> Vec<u64> {
        self.ids.clone()
    }

    /// Puts the levels in the order of `ids` (from [`PackDoc::order`]); levels whose id is
    /// not there keep their relative order after the others. Returns false when nothing moved.
    pub fn reorder(&mut self, ids: &[u64]) -> bool {
        if self.ids.len() != self.pack.levels.len() || self.ids.as_slice() == ids {
            return false;
        }
        let rank = |id: &u64| ids.iter().position(|i| i == id).unwrap_or(usize::MAX);
        let mut order: Vec<usize> = (0..self.ids.len()).collect();
        order.sort_by_key(|&i| rank(&self.ids[i]));
        let mut levels: Vec<Option<Level>> = self.pack.levels.drain(..).map(Some).collect();
        self.pack.levels = order.iter().filter_map(|&o| levels[o].take()).collect();
        self.ids = order.iter().map(|&o| self.ids[o]).collect();
        self.changed();
        true
    }

    /// Orders levels from easiest to hardest (unknown difficulty last, order kept on ties).
    pub fn sort_by_difficulty(&mut self) {
        let keys: Vec<f64> = self
            .pack
            .levels
            .iter()
            .map(|l| self.difficulty(l).unwrap_or(f64::INFINITY))
            .collect();
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by(|&a, &b| {
            keys[a]
                .partial_cmp(&keys[b])
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        if order.iter().enumerate().all(|(i, &o)| i == o) {
            return;
        }
        let mut levels: Vec<Option<Level>> = self.pack.levels.drain(..).map(Some).collect();
        self.pack.levels = order.iter().filter_map(|&o| levels[o].take()).collect();
        if self.ids.len() == order.len() {
            self.ids = order.iter().map(|&o| self.ids[o]).collect();
        }
        self.changed();
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
    use crate::testing;

    fn level(name: &str, difficulty: f64) -> Level {
        testing::register();
        testing::level(name, 5, 5, Some(difficulty))
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
        p.take(1);
        let names: Vec<&str> = p.pack.levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["boss", "mid"]);
        assert_eq!(p.curve(testing::ID), vec![[1.0, 30.0], [2.0, 20.0]]);
    }

    #[test]
    fn a_level_ref_follows_its_level_through_moves_sorts_and_removal() {
        let mut p = PackDoc::untitled("t");
        for (n, m) in [("a", 30.0), ("b", 10.0), ("c", 20.0)] {
            p.add(level(n, m));
        }
        let a = p.level_ref(0).unwrap();
        p.sort_by_difficulty();
        assert_eq!(p.index_of(a), Some(2));
        p.move_level(2, 0);
        assert_eq!(p.index_of(a), Some(0));
        p.insert(0, level("new", 5.0));
        assert_eq!(p.index_of(a), Some(1));
        let removed = p.take(1).unwrap();
        assert_eq!(p.index_of(a), None);
        p.put_back(removed.clone());
        assert_eq!(p.index_of(a), Some(1));
        let again = p.take_again(&removed).unwrap();
        assert_eq!(p.index_of(a), None);
        p.put_back(again);
        assert_eq!(p.index_of(a), Some(1));
        assert_eq!(PackDoc::untitled("o").index_of(a), None);
        assert_eq!(p.unique_name("a"), "a (2)");
        assert_eq!(p.unique_name("z"), "z");
    }
}
