//! The two random generators of the thesis: puzzle-up (place the head, add walls one by one,
//! keep the solvable boards) and solution-down (walk a random solution and place the walls
//! its turns need; always solvable). Both take a size and a seeded [`Rng`].

use super::level::{LongcatLevel, MAX_SIDE};
use super::rules::{Direction, Geometry, State};
use super::solver;
use studio_core::rng::Rng;

/// Most walls the puzzle-up generator places in one attempt (the thesis's best case).
pub const PUZZLE_UP_MAX_WALLS: usize = 10;

/// States the puzzle-up solver may visit for one board before calling it unsolved.
pub const PUZZLE_UP_SOLVER_BUDGET: usize = 100_000;

/// Why a generator cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeneratorError {
    /// The requested size is not a Longcat board.
    #[error("size {width}x{height} is outside Longcat's 1x1 to 10x10")]
    Size {
        /// The requested width, in cells.
        width: usize,
        /// The requested height, in cells.
        height: usize,
    },
    /// The generator name is not known.
    #[error("unknown Longcat generator {0:?} (puzzle-up, solution-down)")]
    Unknown(String),
}

/// The random generators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RandomGenerator {
    /// Head, then walls one by one; every solvable intermediate board is kept.
    PuzzleUp,
    /// A random solution walk, walls where its turns need them; always solvable.
    SolutionDown,
}

impl RandomGenerator {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            RandomGenerator::PuzzleUp => "puzzle-up",
            RandomGenerator::SolutionDown => "solution-down",
        }
    }

    /// The generator of a command-line name.
    ///
    /// # Errors
    /// [`GeneratorError::Unknown`].
    pub fn from_name(name: &str) -> Result<Self, GeneratorError> {
        match name {
            "puzzle-up" => Ok(RandomGenerator::PuzzleUp),
            "solution-down" => Ok(RandomGenerator::SolutionDown),
            other => Err(GeneratorError::Unknown(other.to_string())),
        }
    }

    /// One generation attempt: the levels it produced (solution-down: exactly one;
    /// puzzle-up: every solvable intermediate board, often none).
    ///
    /// # Errors
    /// [`GeneratorError::Size`].
    pub fn attempt(
        self,
        width: usize,
        height: usize,
        rng: &mut Rng,
    ) -> Result<Vec<LongcatLevel>, GeneratorError> {
        match self {
            RandomGenerator::PuzzleUp => puzzle_up(width, height, rng),
            RandomGenerator::SolutionDown => solution_down(width, height, rng).map(|l| vec![l]),
        }
    }
}

fn check_size(width: usize, height: usize) -> Result<(), GeneratorError> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        Err(GeneratorError::Size { width, height })
    } else {
        Ok(())
    }
}

/// A level from a wall mask and the head's cell index, on a board [`check_size`] accepted.
///
/// # Errors
/// [`GeneratorError::Size`]: the head is on the board, so only the size can be wrong.
fn level_of(
    width: usize,
    height: usize,
    walls: u128,
    head: usize,
) -> Result<LongcatLevel, GeneratorError> {
    LongcatLevel::from_walls(width, height, walls, head)
        .map_err(|_| GeneratorError::Size { width, height })
}

/// The neighbour of cell `i` in `direction`, if inside the board.
fn neighbour(width: usize, height: usize, i: usize, direction: Direction) -> Option<usize> {
    let (dx, dy) = direction.delta();
    let (x, y) = ((i % width) as i32 + dx, (i / width) as i32 + dy);
    (x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height)
        .then(|| y as usize * width + x as usize)
}

/// Solution-down: start anywhere, step to a random free neighbour until none is left; where
/// the walk turns, the cell straight ahead becomes a wall (unless it is body or the edge), so
/// the cat stops there; at the end every cell the walk did not visit becomes a wall.
///
/// # Errors
/// [`GeneratorError::Size`].
pub fn solution_down(
    width: usize,
    height: usize,
    rng: &mut Rng,
) -> Result<LongcatLevel, GeneratorError> {
    check_size(width, height)?;
    let full = Geometry::new(width, height).full;
    let start = rng.index(width * height);
    let mut body = 1u128 << start;
    let mut walls = 0u128;
    let mut head = start;
    let mut heading: Option<Direction> = None;
    // The free neighbours of the head: the step's direction and the cell it enters.
    let mut options = [(Direction::Up, 0); 4];
    loop {
        let mut count = 0;
        for d in Direction::ALL {
            if let Some(n) = neighbour(width, height, head, d) {
                if (body | walls) & 1u128 << n == 0 {
                    options[count] = (d, n);
                    count += 1;
                }
            }
        }
        if count == 0 {
            break;
        }
        let (d, next) = options[rng.index(count)];
        if let Some(previous) = heading.filter(|&p| p != d) {
            if let Some(ahead) = neighbour(width, height, head, previous) {
                if body & 1u128 << ahead == 0 {
                    walls |= 1u128 << ahead;
                }
            }
        }
        head = next;
        body |= 1u128 << head;
        heading = Some(d);
    }
    walls |= full & !body;
    level_of(width, height, walls, start)
}

/// True when the open cells (not walls) are 4-connected and at most one EMPTY cell is a
/// dead end: the puzzle-up generator's sanity checks on a board.
pub(crate) fn passes_board_checks(geometry: &Geometry, walls: u128, head: usize) -> bool {
    let open = geometry.full & !walls;
    let empty = open & !(1u128 << head);
    !geometry.is_split(open) && geometry.dead_ends(empty, open).count_ones() <= 1
}

/// Puzzle-up: place the head at random, then up to [`PUZZLE_UP_MAX_WALLS`] walls one by one
/// on random free cells, rejecting a wall that segregates the board or makes more than one
/// dead end (the next random cell is tried instead); after each wall the board is solved and
/// kept if solvable. A board the solver cannot settle within [`PUZZLE_UP_SOLVER_BUDGET`]
/// states counts as unsolvable.
///
/// # Errors
/// [`GeneratorError::Size`].
pub fn puzzle_up(
    width: usize,
    height: usize,
    rng: &mut Rng,
) -> Result<Vec<LongcatLevel>, GeneratorError> {
    check_size(width, height)?;
    let geometry = Geometry::new(width, height);
    let cells = width * height;
    let head = rng.index(cells);
    let mut walls = 0u128;
    let mut kept = Vec::new();
    let mut free: Vec<usize> = (0..cells).filter(|&i| i != head).collect();
    for _ in 0..PUZZLE_UP_MAX_WALLS {
        rng.shuffle(&mut free);
        let Some(pos) = free
            .iter()
            .position(|&i| passes_board_checks(&geometry, walls | 1u128 << i, head))
        else {
            break;
        };
        walls |= 1u128 << free.swap_remove(pos);
        let level = level_of(width, height, walls, head)?;
        if solver::is_solvable(State::start(&level), PUZZLE_UP_SOLVER_BUDGET).unwrap_or(false) {
            kept.push(level);
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_levels() {
        let a = solution_down(6, 5, &mut Rng::new(9)).unwrap();
        let b = solution_down(6, 5, &mut Rng::new(9)).unwrap();
        assert_eq!(a, b);
        assert_eq!((a.width(), a.height()), (6, 5));
    }

    #[test]
    fn refuses_boards_larger_than_ten() {
        assert_eq!(
            solution_down(11, 3, &mut Rng::new(1)).unwrap_err(),
            GeneratorError::Size {
                width: 11,
                height: 3
            }
        );
        assert!(puzzle_up(0, 3, &mut Rng::new(1)).is_err());
    }
}
