//! The pattern-based FI2Pop GA on match-3 layouts: BLOCK and GAP cells are the sprites whose
//! groups the pattern term scores, and the bots' validation is the constraint that keeps a
//! layout playable.
//!
//! Constraints (each 1 when met): the measured size is the requested one; the layout is well
//! formed (every PLAYFIELD cell has a PLAYFIELD neighbour, all of them connected); at least
//! half the play area is PLAYFIELD; the greedy bot's median over [`GA_GAMES`] seeded games is
//! within the move limit. Fitness terms: FPattern, and how near that median is to the target
//! moves.

use super::layout::{layout_level, size_conditions, size_of};
use super::layout::{Cell, Layout};
use super::synth;
use super::validate::{validate, ValidationConfig};
use studio_core::evolve::generator::Breeder;
use studio_core::evolve::pattern::{self, Category, Fitness, Group};
use studio_core::evolve::{Constraint, Evaluation, Evolvable, Term};
use studio_core::game::{ConditionError, ConditionKind, ConditionSpec, ConditionValue, GenRequest};
use studio_core::grid::Grid;
use studio_core::level::Level;
use studio_core::rng::Rng;
use studio_core::symmetry::{self, Symmetry};

/// Bot games per layout when the GA judges one (the window's validation plays 30).
pub const GA_GAMES: u32 = 10;
/// The designers' move limit the validation constraint uses.
pub const MOVE_LIMIT: u32 = 20;
/// The least share of the play area that is PLAYFIELD.
pub const MIN_PLAYFIELD: f64 = 0.5;

const SPRITES: [Cell; 2] = [Cell::Block, Cell::Gap];

/// The pattern category of a cell: BLOCK is solid, GAP other; PLAYFIELD is no sprite.
pub fn category(cell: Cell) -> Option<Category> {
    match cell {
        Cell::Block => Some(Category::Solid),
        Cell::Gap => Some(Category::Other),
        Cell::Playfield => None,
    }
}

/// The BLOCK and GAP groups of a play area.
pub fn area_groups(area: &Grid<Cell>) -> Vec<Group> {
    let mut categories = Grid::filled(area.width(), area.height(), None);
    for (x, y, c) in area.iter() {
        categories.set(x, y, category(c));
    }
    pattern::groups(&categories)
}

/// The GA's view of match-3 play areas of one size and symmetry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayoutEvolution {
    /// Play-area width.
    pub width: usize,
    /// Play-area height.
    pub height: usize,
    /// Kept by repairing every child (mirroring its kept part).
    pub symmetry: Symmetry,
    /// The moves the designer aims at.
    pub target_moves: f64,
    /// α or β.
    pub fitness: Fitness,
}

impl Evolvable for LayoutEvolution {
    type Cell = Cell;

    /// A layout of the rule-based synthesiser (an open area when it finds none).
    fn initial(&self, seed: u64) -> Grid<Cell> {
        let mut rng = Rng::new(seed);
        let features = rng.index(2 + self.width * self.height / 16);
        synth::synthesise(self.width, self.height, self.symmetry, features, &mut rng)
            .map(|l| l.area_cells())
            .unwrap_or_else(|| Grid::filled(self.width, self.height, Cell::Playfield))
    }

    fn empty(&self) -> Cell {
        Cell::Playfield
    }

    fn sprites(&self) -> &[Cell] {
        &SPRITES
    }

    fn fixed(&self, _: &Grid<Cell>, _: usize, _: usize) -> bool {
        false
    }

    /// Mirrors the kept part, so every child has the requested symmetry.
    fn repair(&self, grid: &mut Grid<Cell>, _: &mut Rng) {
        *grid = symmetry::mirror(grid, self.symmetry);
    }

    fn evaluate(&self, grid: &Grid<Cell>, seed: u64) -> Evaluation {
        judge_layout(grid, self, seed)
    }
}

/// Judges a play area as the GA does.
pub fn judge_layout(area: &Grid<Cell>, ga: &LayoutEvolution, seed: u64) -> Evaluation {
    let cells = (area.width() * area.height()).max(1) as f64;
    let playfield = area
        .cells()
        .iter()
        .filter(|&&c| c == Cell::Playfield)
        .count() as f64;
    let share = playfield / cells;
    let layout = Layout::from_area(area).ok();
    let size = layout.as_ref().map(|l| l.size());
    let wanted = (ga.width, ga.height);
    let mut constraints = vec![
        Constraint {
            name: "size",
            value: match size {
                Some(s) if s == wanted => 1.0,
                Some((w, h)) => {
                    let off = w.abs_diff(wanted.0) + h.abs_diff(wanted.1);
                    1.0 / (1.0 + off as f64)
                }
                None => 0.0,
            },
            text: match size {
                Some((w, h)) => format!("measures {w}x{h}, wanted {}x{}", wanted.0, wanted.1),
                None => "not a layout".into(),
            },
        },
        Constraint {
            name: "well formed",
            value: if synth::well_formed(area) { 1.0 } else { 0.0 },
            text: "every PLAYFIELD cell beside another, all connected".into(),
        },
        Constraint {
            name: "open",
            value: (share / MIN_PLAYFIELD).min(1.0),
            text: format!(
                "{:.0} % PLAYFIELD of at least {:.0} %",
                share * 100.0,
                MIN_PLAYFIELD * 100.0
            ),
        },
    ];
    let config = ValidationConfig {
        games: GA_GAMES,
        limit: MOVE_LIMIT,
        seed,
        ..ValidationConfig::default()
    };
    let validation = layout.as_ref().map(|l| validate(l, &config));
    let median = match &validation {
        Some(Ok(v)) => Some(v.median_moves),
        _ => None,
    };
    constraints.push(Constraint {
        name: "valid",
        value: match median {
            Some(m) if m <= MOVE_LIMIT as f64 => 1.0,
            Some(m) => MOVE_LIMIT as f64 / m,
            None => 0.0,
        },
        text: match (&validation, median) {
            (_, Some(m)) => format!("bot median {m:.1} moves of at most {MOVE_LIMIT}"),
            (Some(Err(e)), _) => e.to_string(),
            _ => "not a layout".into(),
        },
    });
    let groups = area_groups(area);
    let target = ga.target_moves.max(1.0);
    let terms = vec![
        Term {
            name: "FPattern",
            value: pattern::f_pattern(&groups, ga.fitness),
            text: format!(
                "{} groups, mean size {:.2}",
                groups.len(),
                pattern::mean_group_size(&groups)
            ),
        },
        Term {
            name: "target moves",
            value: median.map_or(0.0, |m| (1.0 - (m - target).abs() / target).max(0.0)),
            text: median.map_or("no median".into(), |m| {
                format!("median {m:.1} for a target of {target:.0}")
            }),
        },
    ];
    Evaluation { constraints, terms }
}

/// Match-3's part of "Evolve (α)" / "Evolve (β)".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutBreeder;

impl Breeder for LayoutBreeder {
    type Ga = LayoutEvolution;

    fn descriptions(&self) -> [&'static str; 2] {
        [
            "FI2Pop genetic search judged by the bots, rewarding BLOCK and GAP cells grouped \
             into shapes (more clustered)",
            "FI2Pop genetic search judged by the bots, rewarding lone BLOCK and GAP cells \
             (more scattered)",
        ]
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        let mut specs = size_conditions();
        specs.push(ConditionSpec {
            key: "moves",
            label: "Target moves",
            kind: ConditionKind::Float {
                min: 1.0,
                max: MOVE_LIMIT as f64,
                step: 0.5,
            },
            default: ConditionValue::Float(15.0),
            required: false,
            help: "the bots' median moves the fitness aims at",
        });
        specs
    }

    fn validated_help(&self) -> &'static str {
        "Keep only layouts the bots find valid in the 30-game validation"
    }

    fn ga(
        &self,
        request: &GenRequest,
        fitness: Fitness,
    ) -> Result<LayoutEvolution, ConditionError> {
        let (width, height, symmetry) = size_of(&request.conditions);
        let target_moves = request.conditions.float("moves").unwrap_or(15.0);
        Ok(LayoutEvolution {
            width,
            height,
            symmetry,
            target_moves,
            fitness,
        })
    }

    fn to_level(&self, request: &GenRequest, cells: Grid<Cell>, name: String) -> Option<Level> {
        let layout = Layout::from_area(&cells).ok()?;
        let mut level = layout_level(&layout, size_of(&request.conditions).2);
        level.name = name;
        Some(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_core::evolve::{evolve, Settings};
    use studio_core::jobs::Cancel;

    fn ga(fitness: Fitness) -> LayoutEvolution {
        LayoutEvolution {
            width: 7,
            height: 9,
            symmetry: Symmetry::Vertical,
            target_moves: 15.0,
            fitness,
        }
    }

    #[test]
    fn an_open_area_meets_every_constraint_and_a_blocked_one_fails_by_name() {
        let open = Grid::filled(7, 9, Cell::Playfield);
        let e = judge_layout(&open, &ga(Fitness::Alpha), 1);
        assert!(e.feasible(), "{:?}", e.failed());
        // No sprite: FPattern is 0.
        assert_eq!(e.terms[0].value, 0.0);
        let mut blocked = open.clone();
        for y in 0..9 {
            for x in 0..5 {
                blocked.set(x, y, Cell::Block);
            }
        }
        let e = judge_layout(&blocked, &ga(Fitness::Alpha), 1);
        assert!(!e.feasible());
        let failed = e.failed().join("; ");
        assert!(failed.contains("size: measures 2x9"), "{failed}");
        assert!(failed.contains("open: 29 % PLAYFIELD"), "{failed}");
    }

    #[test]
    fn children_keep_the_symmetry_and_a_seed_gives_the_same_run() {
        let settings = Settings {
            population: 12,
            generations: 2,
            seed: 5,
            ..Settings::default()
        };
        let run = |f| evolve(&ga(f), &settings, &Cancel::default(), &mut |_| {});
        let (a, b) = (run(Fitness::Alpha), run(Fitness::Alpha));
        assert!(!a.feasible.is_empty());
        let cells = |r: &studio_core::evolve::Run<Cell>| -> Vec<Grid<Cell>> {
            r.feasible.iter().map(|i| i.cells.clone()).collect()
        };
        assert_eq!(cells(&a), cells(&b));
        for i in a.feasible.iter().chain(&a.infeasible) {
            assert_eq!(symmetry::mirror(&i.cells, Symmetry::Vertical), i.cells);
        }
        for i in &a.feasible {
            assert!(i.evaluation.constraints.iter().all(|c| c.value >= 1.0));
        }
    }
}
