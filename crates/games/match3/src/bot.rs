//! Bots that play match-3 games: the scripted greedy player that validates levels, and a
//! random player as a sanity baseline.

use super::rules::{Geometry, PlayBoard, Swap, GOAL_RED};
use serde::{Deserialize, Serialize};
use studio_core::rng::Rng;

/// Which player makes the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum BotKind {
    /// Most red cleared by the move's own matches, then most tiles, then the lowest move,
    /// then a seeded tie-break.
    #[default]
    Greedy,
    /// A uniformly random legal move.
    Random,
}

/// The move a bot makes on `board`, or `None` when there is no legal move.
pub fn choose_move(kind: BotKind, board: &mut PlayBoard<'_>, rng: &mut Rng) -> Option<Swap> {
    match kind {
        BotKind::Greedy => greedy_move(board, rng),
        BotKind::Random => {
            let moves = board.legal_moves();
            (!moves.is_empty()).then(|| moves[rng.index(moves.len())])
        }
    }
}

fn greedy_move(board: &mut PlayBoard<'_>, rng: &mut Rng) -> Option<Swap> {
    let mut best: Option<((u32, u32, usize), Swap)> = None;
    let mut ties = 0u32;
    board.each_swap_outcome(|swap, red, total| {
        // `b` is the lower (or right) cell, so its index grows with the row.
        let key = (red, total, swap.b / super::layout::CANVAS_WIDTH);
        match &best {
            Some((k, _)) if key < *k => {}
            Some((k, _)) if key == *k => {
                ties += 1;
                if rng.below(ties + 1) == 0 {
                    best = Some((key, swap));
                }
            }
            _ => {
                best = Some((key, swap));
                ties = 0;
            }
        }
    });
    best.map(|(_, s)| s)
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Moves used when the goal was reached, `None` when it was not.
    pub solved_in: Option<u32>,
    /// Red tiles cleared.
    pub red: u32,
    /// Moves made.
    pub moves: u32,
    /// True when the game ended because no legal move could be found after reshuffling.
    pub stuck: bool,
}

/// Plays one seeded game of at most `max_moves` moves. Colours and the bot's choices come from
/// two streams of `seed`, so the same seed gives the same board whichever bot plays.
pub fn play_game(geometry: &Geometry, kind: BotKind, seed: u64, max_moves: u32) -> GameResult {
    let mut board = PlayBoard::new(geometry, Rng::derive(seed, 0));
    let mut bot_rng = Rng::derive(seed, 1);
    let mut red = 0;
    for moves in 0..max_moves {
        // A bot finds no move only when none is legal, and then draws nothing from its
        // stream: reshuffle then, as a board without a legal move must be.
        let swap = match choose_move(kind, &mut board, &mut bot_rng) {
            Some(swap) => Some(swap),
            None if board.reshuffle() => choose_move(kind, &mut board, &mut bot_rng),
            None => None,
        };
        let Some(swap) = swap else {
            return GameResult {
                solved_in: None,
                red,
                moves,
                stuck: true,
            };
        };
        if let Some(report) = board.play(swap, None) {
            red += report.red;
        }
        if red >= GOAL_RED {
            return GameResult {
                solved_in: Some(moves + 1),
                red,
                moves: moves + 1,
                stuck: false,
            };
        }
    }
    GameResult {
        solved_in: None,
        red,
        moves: max_moves,
        stuck: false,
    }
}
