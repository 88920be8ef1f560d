//! The toy's rules: clearing crates, as positions for the core's generic state-graph explorer
//! ([`Clearing`]) and as the playtest's rules ([`ClearCrates`], a click clears a crate).

use crate::level::{MAX_CELLS, TILES};
use studio_core::game::explore::StateSpace;
use studio_core::game::{CellLook, PlayInput, PlayMove, PlayRules, PlayStatus, TileMark};
use studio_core::grid::Grid;
use studio_core::level::Level;

/// The toy's positions for the generic explorer: which crates are left (a bit per cell) on a
/// board of the level's size; a move clears one crate.
pub struct Clearing;

/// Crates left, and the board's width and height.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Crates {
    /// A bit per cell that still holds a crate.
    left: u64,
    /// Board width.
    width: u8,
    /// Board height.
    height: u8,
}

impl Clearing {
    pub(crate) fn start(level: &Level) -> Crates {
        let width = level.cells.first().map_or(0, |r| r.len());
        let left = level
            .cells
            .concat()
            .chars()
            .enumerate()
            .filter(|&(_, c)| c == 'x')
            .fold(0u64, |m, (i, _)| m | 1 << i);
        Crates {
            left,
            width: width as u8,
            height: level.cells.len() as u8,
        }
    }
}

impl StateSpace<MAX_CELLS> for Clearing {
    type State = Crates;
    type Key = u64;
    type Move = usize;
    type Context = ();
    fn moves() -> [usize; MAX_CELLS] {
        std::array::from_fn(|i| i)
    }
    fn key(s: &Crates) -> u64 {
        s.left
    }
    fn step(_: &(), s: &Crates, i: usize) -> Option<Crates> {
        (s.left & 1 << i != 0).then_some(Crates {
            left: s.left & !(1 << i),
            ..*s
        })
    }
    fn is_success(_: &(), s: &Crates) -> bool {
        s.left == 0
    }
    fn progress(s: &Crates) -> u32 {
        64 - s.left.count_ones()
    }
    fn cells(_: &(), s: &Crates) -> usize {
        usize::from(s.width) * usize::from(s.height)
    }
    fn look(_: &(), s: &Crates) -> Grid<CellLook> {
        let (w, h) = (usize::from(s.width), usize::from(s.height));
        let mut g = Grid::filled(w, h, CellLook::default());
        for i in 0..w * h {
            let tile = usize::from(s.left & 1 << i != 0);
            g.set(
                i % w,
                i / w,
                CellLook {
                    rgb: TILES[tile].rgb,
                    mark: TileMark::Plain,
                },
            );
        }
        g
    }
}

/// The toy's playtest: click a crate to clear it; solved when none is left.
pub(crate) struct ClearCrates {
    pub(crate) rows: Vec<String>,
    pub(crate) moves: u32,
}

impl ClearCrates {
    fn crates(&self) -> usize {
        self.rows.concat().matches('x').count()
    }
}

impl PlayRules for ClearCrates {
    fn view(&self) -> Grid<CellLook> {
        let (w, h) = (self.rows[0].len(), self.rows.len());
        let mut g = Grid::filled(w, h, CellLook::default());
        for (y, row) in self.rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let tile = usize::from(c == 'x');
                g.set(
                    x,
                    y,
                    CellLook {
                        rgb: TILES[tile].rgb,
                        mark: TileMark::Plain,
                    },
                );
            }
        }
        g
    }
    fn input(&self) -> PlayInput {
        PlayInput::Click
    }
    fn apply(&mut self, mv: PlayMove) -> bool {
        let PlayMove::Click(x, y) = mv else {
            return false;
        };
        let Some(row) = self.rows.get_mut(y) else {
            return false;
        };
        if row.as_bytes().get(x) != Some(&b'x') {
            return false;
        }
        row.replace_range(x..=x, "o");
        self.moves += 1;
        true
    }
    fn status(&self) -> PlayStatus {
        let left = self.crates();
        PlayStatus {
            moves: self.moves,
            outcome: (left == 0).then_some(true),
            message: if left == 0 {
                format!("Cleared in {} clicks", self.moves)
            } else {
                "Click the crates".into()
            },
            counters: vec![("Crates left".into(), left.to_string())],
        }
    }
}
