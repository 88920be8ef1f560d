//! One open pack: its levels, the file it came from, whether it has unsaved changes, and the
//! difficulty of each level (stored match-3 figures, or Longcat difficulty measured off the UI
//! thread and cached by cells).

use crate::level::{Game, Level, Pack};
use std::collections::HashMap;
use std::path::PathBuf;

/// An open pack.
#[derive(Clone, Debug)]
pub struct PackDoc {
    /// The pack.
    pub pack: Pack,
    /// Where it is saved (`None` for a new pack).
    pub path: Option<PathBuf>,
    /// True when it differs from the file.
    pub dirty: bool,
    /// Longcat difficulty by cells (`None` inside: unsolvable or too large).
    pub longcat_difficulty: HashMap<Vec<String>, Option<f64>>,
}

impl PackDoc {
    /// A pack read from `path`.
    pub fn opened(pack: Pack, path: PathBuf) -> Self {
        Self {
            pack,
            path: Some(path),
            dirty: false,
            longcat_difficulty: HashMap::new(),
        }
    }

    /// A new empty pack.
    pub fn untitled(name: &str) -> Self {
        Self {
            pack: Pack::new(name),
            path: None,
            dirty: false,
            longcat_difficulty: HashMap::new(),
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

    /// The game most of its levels belong to (match-3 when empty).
    pub fn main_game(&self) -> Game {
        let longcat = self
            .pack
            .levels
            .iter()
            .filter(|l| l.game == crate::longcat::ID)
            .count();
        if longcat * 2 > self.pack.levels.len() {
            crate::longcat::ID
        } else {
            crate::match3::ID
        }
    }

    /// A level's difficulty: match-3 median moves, Longcat player-model difficulty.
    pub fn difficulty(&self, level: &Level) -> Option<f64> {
        match level.game {
            crate::match3::ID => level.match3_figures().map(|f| f.median_moves),
            crate::longcat::ID => self.longcat_difficulty.get(&level.cells).copied().flatten(),
            other => other.game().ok()?.stored_difficulty(level),
        }
    }

    /// Longcat levels whose difficulty is not known yet.
    pub fn unmeasured(&self) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = self
            .pack
            .levels
            .iter()
            .filter(|l| {
                l.game == crate::longcat::ID && !self.longcat_difficulty.contains_key(&l.cells)
            })
            .map(|l| l.cells.clone())
            .collect();
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
            self.pack.levels.remove(index);
            self.dirty = true;
        }
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
