//! The level being edited and the one place where edits happen: widgets emit
//! [`EditCommand`]s and [`Editor::apply`] changes the board and keeps undo/redo.

use super::board::{Board, Tile};
pub use super::history::Identity;
use super::history::{History, Step};
use super::pack_doc::LevelRef;
use crate::level::Level;

/// An edit, as widgets and shortcuts emit it.
#[derive(Clone, Debug, PartialEq)]
pub enum EditCommand {
    /// A stroke starts (mouse down): everything painted until [`EditCommand::EndStroke`] is
    /// one undo step.
    BeginStroke {
        /// What the undo step is called ("Brush BLOCK").
        label: String,
    },
    /// Paint cells (already mirrored) with tiles.
    Paint(Vec<(usize, usize, Tile)>),
    /// The stroke ends (mouse up, focus lost, or another command arrived).
    EndStroke,
    /// Replace the whole board as one undo step (new level, resize, a graph state, a level
    /// from the pack).
    Replace {
        /// The new board.
        board: Board,
        /// What the undo step is called ("New level").
        label: String,
        /// Which level the board is now, when the replace makes it another level (opening a
        /// level, a new one); undo brings the old name and pack link back.
        identity: Option<Identity>,
    },
    /// Records a change made outside the board (a level added to or removed from a pack) as
    /// one step of this history, so Edit > Undo and Redo reach it in order with the painting;
    /// `token` comes back from [`Editor::take_marker`] when the step is undone or redone.
    Mark {
        /// What the undo step is called ("Remove “level 3”").
        label: String,
        /// The owner's name for the change.
        token: u64,
        /// Which level the canvas is after the change, when the change makes it another (a
        /// level added to a pack is then edited in place); undo brings the old one back.
        identity: Option<Identity>,
    },
    /// Undo the last step.
    Undo,
    /// Redo the last undone step.
    Redo,
}

/// One level under edit: the board, its name and tags, its history and a revision number
/// that changes whenever the cells do (the live gauge watches it).
#[derive(Clone, Debug)]
pub struct Editor {
    board: Board,
    /// The level's name.
    pub name: String,
    /// The pack level this board is, edited in place (`None`: work in no pack).
    pub source: Option<LevelRef>,
    /// The level's tags, kept when it goes back into a pack.
    pub tags: Vec<String>,
    history: History,
    revision: u64,
    /// The marker of the step undone (false) or redone (true) last, until taken.
    marker: Option<(u64, bool)>,
}

impl Editor {
    /// An editor on a board.
    pub fn new(board: Board, name: impl Into<String>) -> Self {
        Self {
            board,
            name: name.into(),
            source: None,
            tags: Vec::new(),
            history: History::default(),
            revision: 1,
            marker: None,
        }
    }

    /// An editor on a stored level (its history starts empty).
    ///
    /// # Errors
    /// The problem in words when the level's cells are not a board.
    pub fn from_level(level: &Level) -> Result<Self, String> {
        let mut e = Self::new(Board::from_level(level)?, level.name.clone());
        e.tags = level.tags.clone();
        Ok(e)
    }

    /// The board as it is now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Changes whenever the cells change.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The undo/redo stacks.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// True while a stroke is being painted.
    pub fn stroke_open(&self) -> bool {
        self.history.is_open()
    }

    /// Which level the board is now.
    pub fn identity(&self) -> Identity {
        Identity {
            name: self.name.clone(),
            source: self.source,
        }
    }

    fn set_identity(&mut self, identity: Identity) {
        self.name = identity.name;
        self.source = identity.source;
    }

    /// The level as it would be stored now.
    pub fn to_level(&self) -> Level {
        self.board.to_level(&self.name, &self.tags)
    }

    /// Applies one command; returns true when the board changed. A command other than
    /// painting closes an open stroke first, so a stroke is never lost.
    pub fn apply(&mut self, command: EditCommand) -> bool {
        let changed = match command {
            EditCommand::BeginStroke { label } => {
                self.history.begin(&label, &self.board);
                false
            }
            EditCommand::Paint(cells) => {
                // Paint outside a stroke is still exactly one step.
                let lone = !self.history.is_open();
                if lone {
                    self.history.begin("Paint", &self.board);
                }
                let mut any = false;
                for (x, y, tile) in cells {
                    any |= self.board.set(x, y, tile);
                }
                if lone {
                    self.history.end(&self.board);
                }
                any
            }
            EditCommand::EndStroke => {
                self.history.end(&self.board);
                false
            }
            EditCommand::Replace {
                board,
                label,
                identity,
            } => {
                self.history.end(&self.board);
                let identities = identity.filter(|n| *n != self.identity()).map(|n| {
                    let old = self.identity();
                    self.set_identity(n.clone());
                    (old, n)
                });
                if board == self.board && identities.is_none() {
                    false
                } else {
                    let before = std::mem::replace(&mut self.board, board);
                    self.history.push(Step {
                        label,
                        before,
                        after: self.board.clone(),
                        identities,
                        marker: None,
                    });
                    true
                }
            }
            EditCommand::Mark {
                label,
                token,
                identity,
            } => {
                self.history.end(&self.board);
                let identities = identity.filter(|n| *n != self.identity()).map(|n| {
                    let old = self.identity();
                    self.set_identity(n.clone());
                    (old, n)
                });
                self.history.push(Step {
                    label,
                    before: self.board.clone(),
                    after: self.board.clone(),
                    identities,
                    marker: Some(token),
                });
                false
            }
            EditCommand::Undo => self.restore(false, |h, b| h.undo(b)),
            EditCommand::Redo => self.restore(true, |h, b| h.redo(b)),
        };
        if changed {
            self.revision += 1;
        }
        changed
    }

    /// The marker of the step just undone (`(token, false)`) or redone (`(token, true)`),
    /// once: the owner of the change applies it.
    pub fn take_marker(&mut self) -> Option<(u64, bool)> {
        self.marker.take()
    }

    fn restore(
        &mut self,
        redo: bool,
        f: impl FnOnce(&mut History, &Board) -> Option<(Board, Option<Identity>, Option<u64>)>,
    ) -> bool {
        match f(&mut self.history, &self.board) {
            Some((board, identity, marker)) => {
                self.marker = marker.map(|t| (t, redo));
                let changed = board != self.board;
                self.board = board;
                if let Some(identity) = identity {
                    self.set_identity(identity);
                }
                changed
            }
            None => false,
        }
    }
}
