//! Playing a level, for any game: the rules a playtest drives (the view, the kind of input,
//! a move, the status, undo). A game offers them through [`Game::play`](super::Game::play);
//! the window draws the view and turns keys and clicks into [`PlayMove`]s. Games with a
//! bespoke playtest widget (a cascade animation) register it with their window parts.

use super::CellLook;
use crate::grid::Grid;

/// How the player gives moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayInput {
    /// Arrow keys or WASD (and Space and `.` for the action and waiting, where the game
    /// has them).
    Directions,
    /// Click a cell, then a neighbour, to swap them.
    Swap,
    /// Click a cell.
    Click,
}

/// One of the four directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heading {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

/// A move, as the window reads it from the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayMove {
    /// A direction key.
    Go(Heading),
    /// Swap two neighbouring cells `(x, y)`.
    Swap((usize, usize), (usize, usize)),
    /// Click cell `(x, y)`.
    Click(usize, usize),
    /// The action key (Space): the game's one action besides moving (a sword).
    Act,
    /// Let a tick pass without acting (`.`), in games where time passes.
    Wait,
}

/// Where a game in progress stands.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PlayStatus {
    /// Moves made.
    pub moves: u32,
    /// `Some(true)` solved, `Some(false)` failed, `None` while playing.
    pub outcome: Option<bool>,
    /// A line for the player ("Solved in 12 moves!").
    pub message: String,
    /// Counters shown above the board (`("Crates left", "3")`).
    pub counters: Vec<(String, String)>,
}

/// A game in progress.
pub trait PlayRules: Send {
    /// The board as the player sees it now.
    fn view(&self) -> Grid<CellLook>;
    /// How the player gives moves.
    fn input(&self) -> PlayInput;
    /// Plays a move; false when the rules refuse it (nothing changes).
    fn apply(&mut self, mv: PlayMove) -> bool;
    /// Moves, outcome, message and counters.
    fn status(&self) -> PlayStatus;
    /// Takes back the last move; false when there is none (or the game has no undo).
    fn undo(&mut self) -> bool {
        false
    }
    /// A name for each row of [`PlayRules::view`], drawn left of the board, for a game whose
    /// rows are not a map (the course: its events, then the player's HP as a bar); empty for
    /// a map.
    fn row_names(&self) -> Vec<String> {
        Vec::new()
    }
}
