//! The plain room generators (the pattern-based GA comes in its own issue), each seeded:
//!
//! - **random**: a walled room whose every inside cell is one of the seven sprites (floor,
//!   wall, block, water, and the three monsters), uniformly; the avatar, key and exit then take
//!   three distinct inside cells. The naive baseline.
//! - **constructive**: GVGAI's constructive generator, re-implemented from its description.
//!   The cover of each sprite category is a share of the inside (solid 22 %, harmful 4 %); a
//!   solid border; short solid corridors (2 to 4 cells of wall, block or water) laid one at a
//!   time and kept only while the floor stays connected, until the solid cover is reached;
//!   the avatar on a random floor cell; the monsters (harmful) on floor cells far from it (the
//!   farther half by walking distance); the key (collectible) on a random floor cell; then the
//!   exit (goal) among the floor cells farthest from the avatar.

use super::room::{size_conditions, to_level, Cell, Room, RoomError, Speed, MAX_SIDE, MIN_SIDE};
use studio_core::game::{ConditionSpec, GenRequest, GenerationContext, LevelGenerator, LevelSink};
use studio_core::grid::{breadth_first, Grid, FOUR};
use studio_core::jobs::JobError;
use studio_core::rng::Rng;

/// Share of the inside the constructive generator covers with solid sprites.
pub const SOLID_COVER: f64 = 0.22;
/// Share of the inside it covers with monsters.
pub const HARMFUL_COVER: f64 = 0.04;

/// Why a room could not be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The size is outside what a room can be.
    #[error("size {width}x{height} is outside {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}")]
    Size {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// Too small an inside for the avatar, key and exit.
    #[error("size {width}x{height} leaves fewer than 3 inside cells for the avatar, key and exit")]
    TooSmall {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// The room broke a rule (a bug: generators place exactly one of each).
    #[error(transparent)]
    Room(#[from] RoomError),
}

fn check_size(width: usize, height: usize) -> Result<(), GenerateError> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
        return Err(GenerateError::Size { width, height });
    }
    if (width - 2) * (height - 2) < 3 {
        return Err(GenerateError::TooSmall { width, height });
    }
    Ok(())
}

/// A `width × height` room of floor inside a wall border.
pub(crate) fn walled(width: usize, height: usize) -> Grid<Cell> {
    let mut g = Grid::filled(width, height, Cell::Floor);
    for x in 0..width {
        g.set(x, 0, Cell::Wall);
        g.set(x, height - 1, Cell::Wall);
    }
    for y in 0..height {
        g.set(0, y, Cell::Wall);
        g.set(width - 1, y, Cell::Wall);
    }
    g
}

fn inside(width: usize, height: usize) -> Vec<(usize, usize)> {
    (1..height - 1)
        .flat_map(|y| (1..width - 1).map(move |x| (x, y)))
        .collect()
}

/// A room of uniformly random sprites.
///
/// # Errors
/// [`GenerateError`] for a size that cannot hold a room.
pub fn random_room(width: usize, height: usize, seed: u64) -> Result<Room, GenerateError> {
    check_size(width, height)?;
    let mut rng = Rng::new(seed);
    let mut g = walled(width, height);
    const SPRITES: [Cell; 7] = [
        Cell::Floor,
        Cell::Wall,
        Cell::Block,
        Cell::Water,
        Cell::Monster(Speed::Quick),
        Cell::Monster(Speed::Normal),
        Cell::Monster(Speed::Slow),
    ];
    let mut cells = inside(width, height);
    for &(x, y) in &cells {
        g.set(x, y, SPRITES[rng.index(SPRITES.len())]);
    }
    rng.shuffle(&mut cells);
    for (thing, &(x, y)) in [Cell::Avatar, Cell::Key, Cell::Exit].iter().zip(&cells) {
        g.set(x, y, *thing);
    }
    Ok(Room::new(g)?)
}

/// Walking distances from `from` over floor (`u32::MAX` where unreachable).
fn distances(g: &Grid<Cell>, from: (usize, usize)) -> Grid<u32> {
    breadth_first(g.width(), g.height(), from, |at| {
        g.neighbours(at, &FOUR)
            .filter(|&(x, y)| !g.get(x, y).is_solid())
    })
    .distances_or_max()
}

fn floor_cells(g: &Grid<Cell>) -> Vec<(usize, usize)> {
    g.iter()
        .filter(|c| c.2 == Cell::Floor)
        .map(|c| (c.0, c.1))
        .collect()
}

fn connected(g: &Grid<Cell>) -> bool {
    let floor = floor_cells(g);
    let Some(&first) = floor.first() else {
        return false;
    };
    let d = distances(g, first);
    floor.iter().all(|&(x, y)| d.get(x, y) != u32::MAX)
}

/// A room built the way GVGAI's constructive generator builds one.
///
/// # Errors
/// [`GenerateError`] for a size that cannot hold a room.
pub fn constructive_room(width: usize, height: usize, seed: u64) -> Result<Room, GenerateError> {
    check_size(width, height)?;
    let mut rng = Rng::new(seed);
    let mut g = walled(width, height);
    let area = (width - 2) * (height - 2);
    let solid_target = (area as f64 * SOLID_COVER).round() as usize;
    let mut solid = 0;
    // Short corridors of solid sprites, each kept only while the floor stays connected; a
    // bounded number of tries so a crowded room ends.
    for _ in 0..area * 8 {
        if solid >= solid_target {
            break;
        }
        let kind = [Cell::Wall, Cell::Wall, Cell::Block, Cell::Water][rng.index(4)];
        let len = 2 + rng.index(3);
        let (dx, dy) = [(1i64, 0i64), (0, 1)][rng.index(2)];
        let (x0, y0) = (1 + rng.index(width - 2), 1 + rng.index(height - 2));
        let mut placed = Vec::new();
        for k in 0..len as i64 {
            let (x, y) = (x0 as i64 + dx * k, y0 as i64 + dy * k);
            if x < 1 || y < 1 || x >= width as i64 - 1 || y >= height as i64 - 1 {
                break;
            }
            let (x, y) = (x as usize, y as usize);
            if g.get(x, y) == Cell::Floor {
                g.set(x, y, kind);
                placed.push((x, y));
            }
        }
        if floor_cells(&g).len() < 3 || !connected(&g) {
            for (x, y) in placed {
                g.set(x, y, Cell::Floor);
            }
        } else {
            solid += placed.len();
        }
    }
    let floor = floor_cells(&g);
    let avatar = floor[rng.index(floor.len())];
    g.set(avatar.0, avatar.1, Cell::Avatar);
    let from_avatar = distances(&g, avatar);
    let mut far: Vec<(usize, usize)> = floor_cells(&g);
    far.sort_by_key(|&(x, y)| std::cmp::Reverse(from_avatar.get(x, y)));
    // Monsters on the farther half, leaving room for the key and the exit.
    let harmful = ((area as f64 * HARMFUL_COVER).round() as usize).min(far.len().saturating_sub(2));
    let mut farther: Vec<(usize, usize)> = far[..far.len().div_ceil(2)].to_vec();
    rng.shuffle(&mut farther);
    for &(x, y) in farther.iter().take(harmful) {
        g.set(x, y, Cell::Monster(Speed::ALL[rng.index(3)]));
    }
    let floor = floor_cells(&g);
    let key = floor[rng.index(floor.len())];
    g.set(key.0, key.1, Cell::Key);
    let floor = floor_cells(&g);
    let top = floor
        .iter()
        .map(|&(x, y)| from_avatar.get(x, y))
        .max()
        .unwrap_or(0);
    let farthest: Vec<(usize, usize)> = floor
        .iter()
        .copied()
        .filter(|&(x, y)| from_avatar.get(x, y) + 2 >= top)
        .collect();
    let exit = farthest[rng.index(farthest.len())];
    g.set(exit.0, exit.1, Cell::Exit);
    Ok(Room::new(g)?)
}

/// The two plain generators, as the registry lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomGenerator {
    /// Uniform sprites in a walled room.
    Random,
    /// GVGAI's constructive generator.
    Constructive,
}

impl RoomGenerator {
    fn make(self, w: usize, h: usize, seed: u64) -> Result<Room, GenerateError> {
        match self {
            RoomGenerator::Random => random_room(w, h, seed),
            RoomGenerator::Constructive => constructive_room(w, h, seed),
        }
    }
}

impl LevelGenerator for RoomGenerator {
    fn id(&self) -> &'static str {
        match self {
            RoomGenerator::Random => "random",
            RoomGenerator::Constructive => "constructive",
        }
    }

    fn label(&self) -> &'static str {
        match self {
            RoomGenerator::Random => "Random",
            RoomGenerator::Constructive => "Constructive",
        }
    }

    fn description(&self) -> &'static str {
        match self {
            RoomGenerator::Random => "every inside cell a random sprite: the naive baseline",
            RoomGenerator::Constructive => {
                "GVGAI's constructive generator: solid corridors keeping the floor connected, \
                 monsters far from the avatar, the exit farthest"
            }
        }
    }

    fn conditions(&self) -> Vec<ConditionSpec> {
        size_conditions(4)
    }

    fn validated_help(&self) -> &'static str {
        "Keep only rooms the planner wins at least half its games in"
    }

    fn generate(
        &self,
        request: &GenRequest,
        ctx: &GenerationContext<'_>,
        sink: &mut dyn LevelSink,
    ) -> Result<(), JobError> {
        let (w, h) = request.conditions.size().unwrap_or((13, 9));
        for attempt in 0u64.. {
            if ctx.cancel.is_cancelled() {
                return Err(JobError::Cancelled);
            }
            let seed = studio_core::rng::Rng::derive(request.seed, attempt).next_u64();
            let room = self
                .make(w, h, seed)
                .map_err(|e| JobError::failed(e.to_string()))?;
            if !sink.offer(to_level(&room, "generated")) {
                return Ok(());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::{skeleton, DEFAULT_BUDGET};

    #[test]
    fn both_generators_are_seeded_and_refuse_impossible_sizes() {
        for f in [random_room, constructive_room] {
            assert_eq!(f(13, 9, 4).unwrap(), f(13, 9, 4).unwrap());
            assert_ne!(f(13, 9, 4).unwrap(), f(13, 9, 5).unwrap());
            assert!(matches!(f(17, 9, 0), Err(GenerateError::Size { .. })));
            assert!(matches!(f(3, 3, 0), Err(GenerateError::TooSmall { .. })));
            let small = f(3, 5, 0).unwrap();
            assert_eq!((small.width(), small.height()), (3, 5));
        }
    }

    #[test]
    fn constructive_rooms_are_connected_with_far_monsters_and_mostly_solvable() {
        let mut solvable = 0;
        for seed in 0..40 {
            let room = constructive_room(13, 9, seed).unwrap();
            // Every floor cell is reachable from the avatar.
            let mut cells = room.cells().clone();
            for (x, y, c) in room.cells().iter() {
                if !c.is_solid() {
                    cells.set(x, y, Cell::Floor);
                }
            }
            assert!(connected(&cells), "seed {seed}: {room:?}");
            let d = distances(&cells, room.avatar());
            let mean = |cs: &[(usize, usize)]| {
                cs.iter().map(|&(x, y)| f64::from(d.get(x, y))).sum::<f64>() / cs.len() as f64
            };
            let floor: Vec<(usize, usize)> = floor_cells(&cells);
            let monsters: Vec<(usize, usize)> = room.monsters().iter().map(|m| m.0).collect();
            assert!(!monsters.is_empty());
            assert!(mean(&monsters) >= mean(&floor), "seed {seed}");
            if skeleton(&room, DEFAULT_BUDGET).unwrap().solvable() {
                solvable += 1;
            }
        }
        assert!(solvable >= 30, "{solvable} of 40 solvable");
    }
}
