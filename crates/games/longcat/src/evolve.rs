//! The pattern-based FI2Pop GA on Longcat boards: walls are the sprites whose groups the
//! pattern term scores, and the exact state graph is the constraint that keeps a board
//! solvable.
//!
//! Constraints (each 1 when met): the board is solvable (an unsolvable one scores 0.9 × the
//! share of its open cells the best play fills, so the infeasible population has a slope); it is non-trivial (player-model
//! difficulty at least [`NON_TRIVIAL_DIFFICULTY`], below it the share of the way there). No
//! wall-cover bound: the solution-down boards the GA starts from are often more than half
//! wall, and a nearly walled board is trivial anyway. Fitness terms: FPattern over the
//! wall groups, and the difficulty `d / (d + 20)` (0.5 at twice the non-trivial line).

use super::analysis::GraphAnalysis;
use super::difficulty::NON_TRIVIAL_DIFFICULTY;
use super::generators::solution_down;
use super::graph::DEFAULT_BUDGET;
use super::level::{size_conditions, size_of};
use super::level::{Cell, LongcatLevel};
use studio_core::evolve::generator::Breeder;
use studio_core::evolve::pattern::{self, Category, Fitness, Group};
use studio_core::evolve::{Constraint, Evaluation, Evolvable, Term};
use studio_core::game::{ConditionError, ConditionSpec, GenRequest};
use studio_core::grid::Grid;
use studio_core::level::Level;
use studio_core::rng::Rng;

/// States a judged board's graph may have (the editor's budget).
pub const GA_BUDGET: usize = DEFAULT_BUDGET;

const SPRITES: [Cell; 1] = [Cell::Wall];

/// The wall groups of a board.
pub fn wall_groups(cells: &Grid<Cell>) -> Vec<Group> {
    let mut categories = Grid::filled(cells.width(), cells.height(), None);
    for (x, y, c) in cells.iter() {
        if c == Cell::Wall {
            categories.set(x, y, Some(Category::Solid));
        }
    }
    pattern::groups(&categories)
}

/// The GA's view of Longcat boards of one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardEvolution {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// α or β.
    pub fitness: Fitness,
}

impl Evolvable for BoardEvolution {
    type Cell = Cell;

    /// A board of the solution-down generator.
    fn initial(&self, seed: u64) -> Grid<Cell> {
        match solution_down(self.width, self.height, &mut Rng::new(seed)) {
            Ok(level) => level.cells().clone(),
            Err(_) => Grid::filled(self.width.max(1), self.height.max(1), Cell::Empty),
        }
    }

    fn empty(&self) -> Cell {
        Cell::Empty
    }

    fn sprites(&self) -> &[Cell] {
        &SPRITES
    }

    fn fixed(&self, _: &Grid<Cell>, _: usize, _: usize) -> bool {
        false
    }

    /// Exactly one head: extras become empty (the survivor picked at random), a missing one
    /// goes on a random empty cell (any cell when none is empty).
    fn repair(&self, grid: &mut Grid<Cell>, rng: &mut Rng) {
        let heads: Vec<(usize, usize)> = grid
            .iter()
            .filter(|&(_, _, c)| c == Cell::Head)
            .map(|(x, y, _)| (x, y))
            .collect();
        if heads.len() > 1 {
            let keep = rng.index(heads.len());
            for (i, &(x, y)) in heads.iter().enumerate() {
                if i != keep {
                    grid.set(x, y, Cell::Empty);
                }
            }
        } else if heads.is_empty() {
            let empty: Vec<(usize, usize)> = grid
                .iter()
                .filter(|&(_, _, c)| c == Cell::Empty)
                .map(|(x, y, _)| (x, y))
                .collect();
            let (x, y) = if empty.is_empty() {
                (rng.index(grid.width()), rng.index(grid.height()))
            } else {
                empty[rng.index(empty.len())]
            };
            grid.set(x, y, Cell::Head);
        }
    }

    fn evaluate(&self, grid: &Grid<Cell>, _seed: u64) -> Evaluation {
        judge_board(grid, self.fitness)
    }
}

/// Judges a board as the GA does (exactly: no seed is needed).
pub fn judge_board(cells: &Grid<Cell>, fitness: Fitness) -> Evaluation {
    let walls = cells.cells().iter().filter(|&&c| c == Cell::Wall).count() as f64;
    let analysis = LongcatLevel::new(cells.clone())
        .map_err(|e| e.to_string())
        .and_then(|l| GraphAnalysis::of(&l, GA_BUDGET).map_err(|e| e.to_string()));
    let (solvable, difficulty) = match &analysis {
        Ok(a) => (a.solvable(), a.difficulty),
        Err(_) => (false, None),
    };
    // How near an unsolvable board comes: the most cells any play fills, of all open ones.
    let open = (cells.width() * cells.height() - walls as usize).max(1);
    let best_fill = match &analysis {
        Ok(a) => a
            .graph
            .nodes()
            .iter()
            .map(|n| (n.state.filled().count_ones() as usize).saturating_sub(walls as usize))
            .max()
            .unwrap_or(0)
            .min(open),
        Err(_) => 0,
    };
    let constraints = vec![
        Constraint {
            name: "solvable",
            value: if solvable {
                1.0
            } else {
                0.9 * best_fill as f64 / open as f64
            },
            text: match &analysis {
                Ok(a) if solvable => format!("solvable ({} states)", a.variables.states),
                Ok(_) => format!("no way to fill the board: at most {best_fill} of {open} cells"),
                Err(e) => e.clone(),
            },
        },
        Constraint {
            name: "non-trivial",
            value: difficulty.map_or(0.0, |d| (d / NON_TRIVIAL_DIFFICULTY).min(1.0)),
            text: difficulty.map_or("no difficulty (unsolvable)".into(), |d| {
                format!("difficulty {d:.1} of at least {NON_TRIVIAL_DIFFICULTY:.0}")
            }),
        },
    ];
    let groups = wall_groups(cells);
    let terms = vec![
        Term {
            name: "FPattern",
            value: pattern::f_pattern(&groups, fitness),
            text: format!(
                "{} wall groups, mean size {:.2}",
                groups.len(),
                pattern::mean_group_size(&groups)
            ),
        },
        Term {
            name: "difficulty",
            value: difficulty.map_or(0.0, |d| d / (d + 2.0 * NON_TRIVIAL_DIFFICULTY)),
            text: difficulty.map_or("unsolvable".into(), |d| format!("difficulty {d:.1}")),
        },
    ];
    Evaluation { constraints, terms }
}

/// Longcat's part of "Evolve (α)" / "Evolve (β)".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardBreeder;

impl Breeder for BoardBreeder {
    type Ga = BoardEvolution;

    fn descriptions(&self) -> [&'static str; 2] {
        [
            "FI2Pop genetic search judged on the exact state graph, rewarding walls grouped \
             into blocks (more clustered)",
            "FI2Pop genetic search judged on the exact state graph, rewarding lone walls \
             (more scattered)",
        ]
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        size_conditions(8)
    }

    fn validated_help(&self) -> &'static str {
        "Keep only non-trivial boards (every feasible board already is)"
    }

    fn ga(&self, request: &GenRequest, fitness: Fitness) -> Result<BoardEvolution, ConditionError> {
        let (width, height) = size_of(&request.conditions);
        Ok(BoardEvolution {
            width,
            height,
            fitness,
        })
    }

    fn to_level(&self, _: &GenRequest, cells: Grid<Cell>, name: String) -> Option<Level> {
        LongcatLevel::new(cells).ok().map(|l| l.to_level(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_core::evolve::{evolve, Settings};
    use studio_core::jobs::Cancel;

    #[test]
    fn a_solvable_non_trivial_board_is_feasible_and_the_others_say_why() {
        let board = |text: &str| LongcatLevel::parse_ascii(text).unwrap().cells().clone();
        // A board of the β GA (difficulty 38).
        let hard = board(
            "....#...\n..#...#.\n#..#....\n#......#\n###.@###\n#....###\n..#..###\n....####\n",
        );
        let e = judge_board(&hard, Fitness::Beta);
        assert!(e.feasible(), "{:?}", e.failed());
        assert!((e.terms[1].value - 38.0 / 58.0).abs() < 1e-9);
        // Solvable but trivial: one lone wall (α gives it the low weight, β the high).
        let easy = board("@..\n.#.\n...\n");
        let e = judge_board(&easy, Fitness::Alpha);
        assert_eq!(e.constraints[0].value, 1.0);
        assert_eq!(e.failed(), ["non-trivial: difficulty 1.0 of at least 10"]);
        assert_eq!(e.terms[0].value, pattern::WEIGHTS[0][0]);
        assert_eq!(judge_board(&easy, Fitness::Beta).terms[0].value, 1.0);
        // Unsolvable: graded by the most cells a play fills.
        let split = judge_board(&board("@.#..\n..#..\n..#..\n"), Fitness::Alpha);
        assert!(!split.feasible());
        assert!(split.failed()[0].starts_with("solvable: no way"));
        assert!(split.constraints[0].value > 0.0 && split.constraints[0].value < 0.9);
    }

    #[test]
    fn operators_keep_one_head_and_feasible_boards_meet_every_constraint() {
        let ga = BoardEvolution {
            width: 6,
            height: 6,
            fitness: Fitness::Beta,
        };
        let settings = Settings {
            population: 16,
            generations: 3,
            seed: 2,
            ..Settings::default()
        };
        let run = evolve(&ga, &settings, &Cancel::default(), &mut |_| {});
        assert!(!run.feasible.is_empty());
        for i in run.feasible.iter().chain(&run.infeasible) {
            let heads = i.cells.cells().iter().filter(|&&c| c == Cell::Head).count();
            assert_eq!(heads, 1);
        }
        for i in &run.feasible {
            assert!(i.evaluation.constraints.iter().all(|c| c.value >= 1.0));
        }
        let again = evolve(&ga, &settings, &Cancel::default(), &mut |_| {});
        assert!(run
            .feasible
            .iter()
            .zip(&again.feasible)
            .all(|(a, b)| a.cells == b.cells));
    }

    #[test]
    fn a_stopped_run_ends_after_its_first_generation_and_keeps_what_it_found() {
        let ga = BoardEvolution {
            width: 6,
            height: 6,
            fitness: Fitness::Alpha,
        };
        let cancel = Cancel::default();
        cancel.stop();
        let settings = Settings {
            population: 16,
            generations: 50,
            seed: 2,
            ..Settings::default()
        };
        let run = evolve(&ga, &settings, &cancel, &mut |_| {});
        assert!(run.stopped && !run.cancelled);
        assert_eq!(run.history.len(), 1);
        // What the initial population found is kept.
        assert!(run.history[0].feasible > 0);
        assert!(!run.feasible.is_empty());
    }
    #[test]
    fn the_best_so_far_is_told_each_time_it_improves_and_the_run_is_unchanged() {
        let ga = BoardEvolution {
            width: 6,
            height: 6,
            fitness: Fitness::Beta,
        };
        let settings = Settings {
            population: 16,
            generations: 6,
            seed: 2,
            ..Settings::default()
        };
        let mut told: Vec<(usize, f64, Grid<Cell>)> = Vec::new();
        let run = studio_core::evolve::evolve_keeping_best(
            &ga,
            &settings,
            &Cancel::default(),
            &mut |_| {},
            &mut |generation, best| {
                told.push((generation, best.evaluation.fitness(), best.cells.clone()));
            },
        );
        let plain = evolve(&ga, &settings, &Cancel::default(), &mut |_| {});
        // Hearing the best changes nothing about the run.
        assert!(run
            .feasible
            .iter()
            .map(|i| &i.cells)
            .eq(plain.feasible.iter().map(|i| &i.cells)));
        // Told in order of generation, each better than the last, the last one the run's best.
        assert!(!told.is_empty());
        assert!(told
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1 && w[0].2 != w[1].2));
        let last = told.last().unwrap();
        assert_eq!(last.2, run.feasible[0].cells);
        // A generation that tells a best has it among the run's history's best so far.
        for (generation, fitness, _) in &told {
            assert_eq!(run.history[*generation].best_feasible, Some(*fitness));
        }
    }
}
