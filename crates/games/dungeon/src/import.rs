//! Importers: GVGAI Zelda level text (the room's own letters) and the VGLC Zelda dungeons.
//!
//! A VGLC dungeon file is a grid of rooms, each 11 columns × 16 rows of text and transposed
//! relative to the game (16 wide × 11 high on screen); a room of `-` only is no room. Letters:
//! `W` wall, `F` floor, `B` block, `P` water (lava or water), `O` and `I` block, `S` stair →
//! floor, `M` monster (normal speed), `-` void → wall, `D` door. A VGLC room has no avatar, key
//! or exit, so the importer places them: the avatar at the middle cell of one doorway (a group
//! of touching `D` cells) picked by the seed, the exit at the middle of the doorway farthest
//! from it by walking distance (or, in a room with one doorway, at the floor cell farthest from
//! it), and the key on the floor cell farthest from the nearer of the two (then from both;
//! ties broken by the seed). The other doorways are walled up. A room whose doorways and floor
//! the avatar cannot reach keeps its exit where the rule puts it, and is simply unsolvable.

use super::room::{Cell, Room, RoomError, Speed};
use std::path::{Path, PathBuf};
use studio_core::datasets::zelda::{vglc_files, vglc_terrains};
use studio_core::formats::{self, FormatError, ImportRequest, Importer};
use studio_core::grid::GridError;
use studio_core::grid::{breadth_first, Grid, FOUR};
use studio_core::rng::Rng;

/// Why an import failed.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A file could not be read.
    #[error(transparent)]
    File(#[from] studio_core::io::FileError),
    /// A GVGAI level is not a room.
    #[error("{path}: {error}")]
    Room {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: RoomError,
    },
    /// A VGLC file is not a grid of rooms, or the folder has none.
    #[error(transparent)]
    Vglc(#[from] studio_core::datasets::VglcError),
}

impl From<ImportError> for FormatError {
    fn from(error: ImportError) -> Self {
        match error {
            ImportError::File(e) => FormatError::File(e),
            ImportError::Vglc(e) => FormatError::Vglc(e),
            ImportError::Room { path, error } => {
                let line = match &error {
                    RoomError::Grid(
                        GridError::Ragged { line, .. } | GridError::UnknownChar { line, .. },
                    ) => Some(*line),
                    _ => None,
                };
                FormatError::malformed(&path, line, error.to_string())
            }
        }
    }
}

/// One room read from a VGLC file and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// A name that says where the room came from (`tloz1_1 room 3,2`).
    pub name: String,
    /// The playable room, or why none could be made: a room with no floor (an interior of
    /// void, or of `O`/`I` tiles, which are blocks here) has nowhere for the avatar and key.
    pub room: Result<Room, RoomError>,
    /// The terrain as it was in the file, before the avatar, key and exit were placed (in
    /// game orientation): what counts distinct layouts.
    pub terrain: Vec<String>,
}

/// Reads a GVGAI Zelda level file: its letters are the room's own.
///
/// # Errors
/// [`ImportError`] naming the file, and the line and column of a bad letter.
pub fn gvgai_room(path: &Path) -> Result<Room, ImportError> {
    let text = studio_core::io::read_text(path)?;
    Room::parse_ascii(&text).map_err(|error| ImportError::Room {
        path: path.to_path_buf(),
        error,
    })
}

/// Every room of every dungeon file in `dir`, placed with `seed`.
///
/// # Errors
/// As [`vglc_files`] and [`vglc_rooms`].
pub fn vglc_dir(dir: &Path, seed: u64) -> Result<Vec<Imported>, ImportError> {
    let mut out = Vec::new();
    for path in vglc_files(dir)? {
        let text = studio_core::io::read_text(&path)?;
        out.extend(vglc_rooms(&path, &text, seed)?);
    }
    Ok(out)
}

/// The rooms of one VGLC dungeon file's text, placed with `seed` (each room's own stream);
/// a room that cannot be played says why in its `room`.
///
/// # Errors
/// [`ImportError::Vglc`] at the first line of the wrong length or letter VGLC does not use.
pub fn vglc_rooms(path: &Path, text: &str, seed: u64) -> Result<Vec<Imported>, ImportError> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("dungeon");
    Ok(vglc_terrains(path, text)?
        .into_iter()
        .enumerate()
        .map(|(i, (name, terrain))| {
            let mut rng = Rng::derive(seed, (i as u64) << 32 | fnv(stem));
            Imported {
                name,
                room: place(&terrain, &mut rng),
                terrain,
            }
        })
        .collect())
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    }) & 0xffff_ffff
}

/// A room from VGLC terrain rows (game orientation): doors become the avatar and the exit.
fn place(terrain: &[String], rng: &mut Rng) -> Result<Room, RoomError> {
    let (w, h) = (terrain[0].chars().count(), terrain.len());
    let mut cells = Grid::filled(w, h, Cell::Wall);
    let mut doors = Grid::filled(w, h, false);
    for (y, row) in terrain.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let cell = match c {
                'F' | 'S' => Cell::Floor,
                'B' | 'O' | 'I' => Cell::Block,
                'P' => Cell::Water,
                'M' => Cell::Monster(Speed::Normal),
                'D' => {
                    doors.set(x, y, true);
                    Cell::Wall
                }
                _ => Cell::Wall,
            };
            cells.set(x, y, cell);
        }
    }
    let doorways = groups(&doors);
    let floor = |cells: &Grid<Cell>| -> Vec<(usize, usize)> {
        cells
            .iter()
            .filter(|c| c.2 == Cell::Floor)
            .map(|c| (c.0, c.1))
            .collect()
    };
    if floor(&cells).is_empty() {
        return Err(RoomError::NoFloor);
    }
    // The avatar: the middle of a seeded doorway, or a seeded floor cell in a doorless room.
    let avatar = if doorways.is_empty() {
        let f = floor(&cells);
        f[rng.index(f.len())]
    } else {
        middle(&doorways[rng.index(doorways.len())])
    };
    cells.set(avatar.0, avatar.1, Cell::Avatar);
    // Walking distances from the avatar (doorways are passable while measuring).
    let open = |cells: &Grid<Cell>, x: usize, y: usize| {
        doors.get(x, y)
            || matches!(
                cells.get(x, y),
                Cell::Floor | Cell::Monster(_) | Cell::Avatar
            )
    };
    let from_avatar = distances(&cells, avatar, &open);
    let far = |d: &Grid<Option<u32>>, p: (usize, usize)| d.get(p.0, p.1).map_or(0, |v| v + 1);
    let exit = {
        let others: Vec<(usize, usize)> = doorways
            .iter()
            .map(|g| middle(g))
            .filter(|&m| m != avatar)
            .collect();
        let candidates = if others.is_empty() {
            floor(&cells)
        } else {
            others
        };
        best(&candidates, rng, |&p| far(&from_avatar, p))
    };
    let Some(exit) = exit else {
        return Err(RoomError::Count {
            what: "cells for the exit",
            letter: 'g',
            found: 0,
            why: " besides the avatar's",
        });
    };
    cells.set(exit.0, exit.1, Cell::Exit);
    let from_exit = distances(&cells, exit, &open);
    // Far from the nearer of the two first, then from both.
    let key = best(&floor(&cells), rng, |&p| {
        let (a, e) = (far(&from_avatar, p), far(&from_exit, p));
        a.min(e) * 4096 + a + e
    });
    let Some(key) = key else {
        return Err(RoomError::Count {
            what: "floor cells for the key",
            letter: '+',
            found: 0,
            why: "",
        });
    };
    cells.set(key.0, key.1, Cell::Key);
    Room::new(cells)
}

/// The candidate with the highest score; ties broken by `rng`.
fn best<T: Copy>(candidates: &[T], rng: &mut Rng, score: impl Fn(&T) -> u32) -> Option<T> {
    let top = candidates.iter().map(&score).max()?;
    let tied: Vec<T> = candidates
        .iter()
        .copied()
        .filter(|c| score(c) == top)
        .collect();
    Some(tied[rng.index(tied.len())])
}

/// Groups of 4-connected true cells, each in reading order, the groups in reading order.
fn groups(mask: &Grid<bool>) -> Vec<Vec<(usize, usize)>> {
    let mut seen = Grid::filled(mask.width(), mask.height(), false);
    let mut out = Vec::new();
    for (x, y, on) in mask.iter() {
        if !on || seen.get(x, y) {
            continue;
        }
        let reach = breadth_first(mask.width(), mask.height(), (x, y), |at| {
            mask.neighbours(at, &FOUR)
                .filter(|&(nx, ny)| mask.get(nx, ny))
        });
        let mut group = reach.reached().to_vec();
        for &(gx, gy) in &group {
            seen.set(gx, gy, true);
        }
        group.sort_by_key(|&(gx, gy)| (gy, gx));
        out.push(group);
    }
    out
}

fn middle(group: &[(usize, usize)]) -> (usize, usize) {
    group[group.len() / 2]
}

/// Breadth-first walking distances from `from` over cells `open` lets through (and the exit
/// and the key).
fn distances(
    cells: &Grid<Cell>,
    from: (usize, usize),
    open: &dyn Fn(&Grid<Cell>, usize, usize) -> bool,
) -> Grid<Option<u32>> {
    breadth_first(cells.width(), cells.height(), from, |at| {
        cells.neighbours(at, &FOUR).filter(|&(x, y)| {
            open(cells, x, y) || matches!(cells.get(x, y), Cell::Exit | Cell::Key)
        })
    })
    .distances()
}

/// `import --format gvgai-zelda`: GVGAI Zelda level files, one room each.
///
/// # Errors
/// A file that cannot be read or is not a room, named.
pub fn import_gvgai(request: &ImportRequest) -> Result<formats::Imported, FormatError> {
    let mut levels = Vec::new();
    for path in &request.paths {
        let room = gvgai_room(path)?;
        levels.push(crate::room::to_level(&room, formats::stem(path, "room")));
    }
    Ok(formats::Imported {
        levels,
        title: "GVGAI Zelda".into(),
        noun: "rooms".into(),
        skipped: Vec::new(),
    })
}

/// `import --format vglc-zelda`: a folder of VGLC Zelda dungeons (or its parent) as rooms,
/// the avatar, key and exit placed from the request's seed; rooms without floor are skipped.
///
/// # Errors
/// Not one folder, or a folder without dungeon files.
pub fn import_vglc(request: &ImportRequest) -> Result<formats::Imported, FormatError> {
    let [dir] = request.paths.as_slice() else {
        return Err(FormatError::refused("vglc-zelda takes one folder"));
    };
    let mut imported = formats::Imported {
        title: format!("VGLC Zelda (seed {})", request.seed),
        noun: "rooms".into(),
        ..formats::Imported::default()
    };
    for found in vglc_dir(dir, request.seed)? {
        match found.room {
            Ok(room) => imported
                .levels
                .push(crate::room::to_level(&room, found.name)),
            Err(e) => imported
                .skipped
                .push(format!("{} (no floor): {e}", found.name)),
        }
    }
    Ok(imported)
}

/// The formats the dungeon reads.
pub const IMPORTERS: [Importer; 2] = [
    Importer {
        format: "gvgai-zelda",
        label: "GVGAI Zelda levels",
        help: "GVGAI Zelda level files, one room each",
        menu: None,
        import: import_gvgai,
    },
    Importer {
        format: "vglc-zelda",
        label: "VGLC Zelda dungeons",
        help: "a folder of VGLC Zelda dungeons (or its parent), cut into rooms",
        menu: None,
        import: import_vglc,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// One room of text (11 columns × 16 rows): two doorways on the first and last text rows
    /// (the room's left and right edges in the game).
    fn one_room() -> String {
        let mut rows = vec!["WWWWDDDWWWW".to_string()];
        for i in 0..14 {
            rows.push(if i == 6 { "WWFFFMFFFWW" } else { "WWFFFFFFFWW" }.to_string());
        }
        rows.push("WWWWDDDWWWW".to_string());
        rows.join("\n") + "\n"
    }

    #[test]
    fn a_vglc_room_is_transposed_and_gets_avatar_exit_and_key() {
        let rooms = vglc_rooms(Path::new("tloz0_0.txt"), &one_room(), 7).unwrap();
        assert_eq!(rooms.len(), 1);
        let r = rooms[0].room.as_ref().unwrap();
        assert_eq!((r.width(), r.height()), (16, 11));
        // The doorways are on the left and right edges; the avatar takes one, the exit the
        // other, and the key is in the middle, far from both.
        let (a, e) = (r.avatar(), r.exit());
        assert_eq!(a.1, 5);
        assert_eq!(e.1, 5);
        assert_eq!([a.0.min(e.0), a.0.max(e.0)], [0, 15]);
        assert!((6..=9).contains(&r.key().0), "{:?}", r.key());
        assert_eq!(r.monsters(), &[((7, 5), Speed::Normal)]);
        // Same seed, same room.
        let again = vglc_rooms(Path::new("tloz0_0.txt"), &one_room(), 7).unwrap();
        assert_eq!(again[0].room.as_ref(), Ok(r));
    }

    #[test]
    fn a_malformed_vglc_file_is_placed() {
        let mut text = one_room();
        text.replace_range(13..14, "x");
        let err = vglc_rooms(Path::new("d.txt"), &text, 0)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("d.txt:2:2:"), "{err}");
        let err = vglc_rooms(Path::new("d.txt"), "WWW\n", 0)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a grid"), "{err}");
    }
}
