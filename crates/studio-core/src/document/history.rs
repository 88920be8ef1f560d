//! Undo and redo as a stack of board snapshots (boards are at most 10×11 cells, so a whole
//! board per step is cheaper than being clever), with an open step for the stroke in progress.

use super::board::Board;
use super::pack_doc::LevelRef;

/// Which level a board is: its name and, when it is a pack level edited in place, which
/// one (edits then change that pack entry).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// The level's name.
    pub name: String,
    /// The pack level the canvas edits in place (`None`: work in no pack).
    pub source: Option<LevelRef>,
}

impl Identity {
    /// A level in no pack.
    pub fn loose(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            source: None,
        }
    }

    /// A pack level edited in place.
    pub fn in_pack(name: impl Into<String>, source: LevelRef) -> Self {
        Self {
            name: name.into(),
            source: Some(source),
        }
    }
}

/// One undoable step: the board before and after, and what the designer did.
#[derive(Clone, Debug)]
pub struct Step {
    /// What the step did, for the Edit menu ("Brush", "Fill", …).
    pub label: String,
    /// The board before the step.
    pub before: Board,
    /// The board after the step.
    pub after: Board,
    /// Which level the board was before and after, when the step made it another level
    /// (opening a level, a new level).
    pub identities: Option<(Identity, Identity)>,
    /// A change outside the board that this step stands for in the one Edit > Undo history
    /// (a level removed from a pack): the owner's token, handed back when the step is undone
    /// or redone (see [`Editor::take_marker`](super::editor::Editor::take_marker)).
    pub marker: Option<u64>,
}

/// The undo and redo stacks of one board.
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Step>,
    redo: Vec<Step>,
    open: Option<(String, Board)>,
}

/// Steps kept before the oldest is dropped.
pub const HISTORY_LIMIT: usize = 500;

impl History {
    /// Starts a step (a stroke): remembers the board as it is now. A step already open is
    /// closed first, so nothing is ever lost.
    pub fn begin(&mut self, label: &str, board: &Board) {
        if self.open.is_some() {
            self.end(board);
        }
        self.open = Some((label.to_string(), board.clone()));
    }

    /// True while a stroke is open.
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Closes the open step with the board as it is now; a step that changed nothing is
    /// dropped. Returns true when a step was recorded.
    pub fn end(&mut self, board: &Board) -> bool {
        match self.open.take() {
            Some((label, before)) if &before != board => {
                self.push(Step {
                    label,
                    before,
                    after: board.clone(),
                    identities: None,
                    marker: None,
                });
                true
            }
            _ => false,
        }
    }

    /// Records a finished step (and clears the redo stack).
    pub fn push(&mut self, step: Step) {
        self.undo.push(step);
        if self.undo.len() > HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undoes the last step, closing an open stroke first; returns the board to show, when
    /// the step made it another level which level it is again, and the step's marker.
    pub fn undo(&mut self, board: &Board) -> Option<(Board, Option<Identity>, Option<u64>)> {
        self.end(board);
        let step = self.undo.pop()?;
        let shown = (
            step.before.clone(),
            step.identities.as_ref().map(|n| n.0.clone()),
            step.marker,
        );
        self.redo.push(step);
        Some(shown)
    }

    /// Redoes the last undone step; returns the board (and which level it is) to show, and
    /// the step's marker.
    pub fn redo(&mut self, board: &Board) -> Option<(Board, Option<Identity>, Option<u64>)> {
        self.end(board);
        let step = self.redo.pop()?;
        let shown = (
            step.after.clone(),
            step.identities.as_ref().map(|n| n.1.clone()),
            step.marker,
        );
        self.undo.push(step);
        Some(shown)
    }

    /// The label of the step Undo would undo.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|s| s.label.as_str())
    }

    /// The label of the step Redo would redo.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    /// The marker of the step Undo would undo (`None`: a board step).
    pub fn undo_marker(&self) -> Option<u64> {
        self.undo.last().and_then(|s| s.marker)
    }

    /// Steps that can be undone.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    /// Steps that can be redone.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }
}
