//! Mario level text of other tools, read and written: the VGLC's Super Mario Bros levels
//! (tile key `smb.json`) and the Mario AI Framework's level text. Every letter of either
//! format is read; letters that are another letter's tile are listed in [`VGLC_MAPPED`] and
//! [`MARIO_AI_MAPPED`] (and in `docs/mario.md`); a letter neither has is refused with its row
//! and column. An imported framework file is kept with its level and written back with its
//! own letters (`source`).

use super::level::{LevelError, MarioLevel};
use super::tiles::Tile;
use studio_core::grid::Grid;

mod source;
pub use source::{source_tag, source_text, write_mario_ai, SOURCE_TAG};

/// The folder of the VGLC's processed Super Mario Bros levels: under `$VGLC_DIR`, else
/// beside the repository (`../shared/data/vglc`).
pub fn vglc_levels_dir() -> std::path::PathBuf {
    studio_core::datasets::vglc_dir().join("Super Mario Bros/Processed")
}

/// The text of VGLC level `name` (`1-1`), when the corpus is here.
pub fn vglc_level_text(name: &str) -> Option<String> {
    studio_core::io::read_text(&vglc_levels_dir().join(format!("mario-{name}.txt"))).ok()
}

/// A text format of Mario levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The VGLC's processed Super Mario Bros text (14 rows).
    Vglc,
    /// The Mario AI Framework's level text (16 rows).
    MarioAi,
}

impl Format {
    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Format::Vglc => "vglc-mario",
            Format::MarioAi => "mario-ai",
        }
    }
}

/// VGLC letters mapped to a tile that is not their exact meaning: (letter, tile, why).
pub const VGLC_MAPPED: [(char, Tile, &str); 3] = [
    (
        '?',
        Tile::CoinBox,
        "a full question block: the VGLC does not say whether it holds a coin or a mushroom",
    ),
    ('Q', Tile::UsedBlock, "an empty question block"),
    (
        'E',
        Tile::Goomba,
        "any enemy: the VGLC does not say which, so every enemy is a goomba",
    ),
];

/// Mario AI Framework letters that are another letter's tile: (letter, tile, why). Every
/// other letter of the framework is a studio tile of its own (`Tile::ascii`).
pub const MARIO_AI_MAPPED: [(char, Tile, &str); 6] = [
    ('E', Tile::Goomba, "another letter for a goomba"),
    (
        '?',
        Tile::ItemBox,
        "another letter for the mushroom question block",
    ),
    (
        'Q',
        Tile::CoinBox,
        "another letter for the coin question block",
    ),
    (
        't',
        Tile::PipeLeft,
        "a pipe cell: its top and sides are worked out from its neighbours, as the framework does",
    ),
    (
        'T',
        Tile::PiranhaPipe,
        "a pipe cell with a piranha plant: the plant lives in the pipe's top-left cell",
    ),
    (
        '*',
        Tile::CannonBody,
        "a cannon cell: the top of a column of them is the cannon's head",
    ),
];

/// Why text is not a Mario level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// A letter the format does not have, or one the studio cannot play.
    #[error("row {row}, column {column}: {letter:?} is not a {format} tile{why}")]
    Letter {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        column: usize,
        /// The letter.
        letter: char,
        /// The format's name.
        format: &'static str,
        /// Why, when the format has the letter but the studio cannot play it.
        why: String,
    },
    /// Rows of different lengths.
    #[error("row {row} has {found} columns where row 1 has {expected}")]
    Ragged {
        /// 1-based row.
        row: usize,
        /// Columns of row 1.
        expected: usize,
        /// Columns of this row.
        found: usize,
    },
    /// The cells break a level rule (size, markers).
    #[error(transparent)]
    Level(#[from] LevelError),
}

fn vglc_tile(c: char) -> Option<Tile> {
    Some(match c {
        'X' => Tile::Ground,
        'S' => Tile::Brick,
        '-' => Tile::Empty,
        '?' => Tile::CoinBox,
        'Q' => Tile::UsedBlock,
        'E' => Tile::Goomba,
        '<' => Tile::PipeTopLeft,
        '>' => Tile::PipeTopRight,
        '[' => Tile::PipeLeft,
        ']' => Tile::PipeRight,
        'o' => Tile::Coin,
        'B' => Tile::CannonTop,
        'b' => Tile::CannonBody,
        _ => return None,
    })
}

fn mario_ai_tile(c: char) -> Option<Tile> {
    if let Some(&(_, tile, _)) = MARIO_AI_MAPPED.iter().find(|m| m.0 == c) {
        return Some(tile);
    }
    Tile::from_ascii(c)
}

fn text_rows(text: &str) -> Vec<&str> {
    let mut rows: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    while rows.last().is_some_and(|r| r.trim().is_empty()) {
        rows.pop();
    }
    rows
}

fn read_grid(
    text: &str,
    format: Format,
    tile: impl Fn(char) -> Result<Tile, String>,
) -> Result<Grid<Tile>, FormatError> {
    let rows = text_rows(text);
    let width = rows.first().map_or(0, |r| r.chars().count());
    let mut cells = Grid::filled(width, rows.len(), Tile::Empty);
    for (y, row) in rows.iter().enumerate() {
        let found = row.chars().count();
        if found != width {
            return Err(FormatError::Ragged {
                row: y + 1,
                expected: width,
                found,
            });
        }
        for (x, c) in row.chars().enumerate() {
            let t = tile(c).map_err(|why| FormatError::Letter {
                row: y + 1,
                column: x + 1,
                letter: c,
                format: format.name(),
                why,
            })?;
            cells.set(x, y, t);
        }
    }
    Ok(cells)
}

/// A level from the VGLC's Super Mario Bros text.
///
/// # Errors
/// [`FormatError`]: a letter outside `smb.json`'s key (with its row and column), ragged
/// rows, or a size outside the level rules.
pub fn read_vglc(text: &str) -> Result<MarioLevel, FormatError> {
    let cells = read_grid(text, Format::Vglc, |c| vglc_tile(c).ok_or_else(String::new))?;
    Ok(MarioLevel::new(cells)?)
}

/// The VGLC text `text` without its piranha plants, and how many were taken out.
///
/// The VGLC writes every enemy as `E`, the piranha plants in pipes too: an `E` standing on a
/// pipe's top (`<` or `>` right below it) is one in the original game. The thesis played
/// Table 6.2's levels with "some complicated gimmicks … (e.g., Piranha Plant in level 4-1 …)
/// excluded"; read as goombas, these plants stand on the pipes and are most of 4-1's, 6-2's
/// (28 of 31) and a quarter of 8-1's enemies. Each becomes an empty cell; nothing else changes.
pub fn without_piranha_plants(text: &str) -> (String, usize) {
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let mut out = rows.clone();
    let mut removed = 0;
    for (y, pair) in rows.windows(2).enumerate() {
        for (x, &c) in pair[0].iter().enumerate() {
            if c == 'E' && matches!(pair[1].get(x), Some('<' | '>')) {
                out[y][x] = '-';
                removed += 1;
            }
        }
    }
    let text = out
        .iter()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n");
    (text, removed)
}

/// A level from the Mario AI Framework's level text. Every letter the framework reads is
/// read; pipes written as `t`/`T` columns get their parts as the framework's `MarioLevel`
/// works them out (a pipe one column wide is its left half here), and a `T` pipe's top-left
/// cell holds a piranha plant; a column of `*` is a cannon with its head on top.
///
/// # Errors
/// [`FormatError`]: a letter the framework does not have (with its row and column), ragged
/// rows, or a size outside the level rules.
pub fn read_mario_ai(text: &str) -> Result<MarioLevel, FormatError> {
    let raw: Vec<Vec<char>> = text_rows(text)
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let at = |x: usize, y: usize| raw.get(y).and_then(|r| r.get(x)).copied();
    let is_pipe = |c: Option<char>| matches!(c, Some('t' | 'T'));
    let mut cells = read_grid(text, Format::MarioAi, |c| {
        mario_ai_tile(c).ok_or_else(String::new)
    })?;
    for y in 0..cells.height() {
        for x in 0..cells.width() {
            let c = at(x, y);
            if is_pipe(c) {
                // The framework: a pipe cell is "single" when neither neighbour is a pipe
                // letter (never in the first or last column); its part counts 1 for a left
                // part to its left and 1 (single) or 2 for a pipe letter above.
                let single = x + 1 < cells.width()
                    && !is_pipe(at(x + 1, y))
                    && x > 0
                    && !is_pipe(at(x - 1, y));
                let right = x > 0
                    && matches!(
                        cells.get(x - 1, y),
                        Tile::PipeTopLeft | Tile::PipeLeft | Tile::PiranhaPipe
                    );
                let below_top = y > 0 && is_pipe(at(x, y - 1));
                let tile = match (single, right, below_top) {
                    (true, _, false) => Tile::PipeTopLeft,
                    (true, _, true) => Tile::PipeLeft,
                    (false, false, false) if c == Some('T') => Tile::PiranhaPipe,
                    (false, false, false) => Tile::PipeTopLeft,
                    (false, true, false) => Tile::PipeTopRight,
                    (false, false, true) => Tile::PipeLeft,
                    (false, true, true) => Tile::PipeRight,
                };
                cells.set(x, y, tile);
            } else if c == Some('*') && (y == 0 || at(x, y - 1) != Some('*')) {
                cells.set(x, y, Tile::CannonTop);
            }
        }
    }
    // Without `M` the framework starts Mario in the first column, on its lowest floor: the
    // first cell that is not solid above the lowest solid one (`findFirstFloor`). The studio
    // marks that cell, so the level starts where the framework starts it. A first column
    // without a floor starts him above the level, where he falls through the column and is
    // lost; the studio starts him in the column's top cell, to the same fall.
    if !raw.iter().flatten().any(|&c| c == 'M') {
        let solid = |c: Option<char>| c.is_some_and(|c| "X#@!BCQ<>[]?SUD%tT".contains(c));
        let floor = (0..cells.height())
            .rev()
            .skip_while(|&y| !solid(at(0, y)))
            .find(|&y| !solid(at(0, y)));
        cells.set(0, floor.unwrap_or(0), Tile::Start);
    }
    Ok(MarioLevel::new(cells)?)
}

/// The letter a tile takes in the VGLC's text (markers, invisible blocks and a platform's
/// background become air, enemies `E`, the item and coin boxes `?`, the empty block `Q`,
/// bricks `S`, stair blocks and platforms `X`, a piranha plant's pipe a plain pipe).
pub fn vglc_letter(tile: Tile) -> char {
    match tile {
        Tile::Empty | Tile::Start | Tile::Goal => '-',
        Tile::Ground | Tile::Block => 'X',
        Tile::Brick | Tile::CoinBrick | Tile::LifeBrick | Tile::MushroomBrick => 'S',
        Tile::ItemBox | Tile::CoinBox => '?',
        Tile::UsedBlock => 'Q',
        Tile::PiranhaPipe => '<',
        // The VGLC has no platform, no invisible block and one enemy letter.
        Tile::Platform => 'X',
        Tile::PlatformBack | Tile::HiddenCoinBlock | Tile::HiddenLifeBlock => '-',
        t if t.is_enemy() => 'E',
        other => other.ascii(),
    }
}

/// The letter the studio writes in the framework's text for the cell at (`x`, `y`): the
/// tile's own letter, the framework's where it has the tile; a piranha plant's pipe top is a
/// `T` pair, the only way the framework's text places a plant.
fn mario_ai_letter(level: &MarioLevel, x: usize, y: usize) -> char {
    match level.get(x, y) {
        Tile::PipeTopRight if x > 0 && level.get(x - 1, y) == Tile::PiranhaPipe => 'T',
        t => t.ascii(),
    }
}

/// A level as text of `format` in the studio's letters, one line a row, each ended by a
/// newline. (An imported framework level is written back with its own letters by
/// [`write_mario_ai`].)
pub fn write(level: &MarioLevel, format: Format) -> String {
    let mut out = String::with_capacity((level.width() + 1) * level.height());
    for y in 0..level.height() {
        for x in 0..level.width() {
            out.push(match format {
                Format::Vglc => vglc_letter(level.get(x, y)),
                Format::MarioAi => mario_ai_letter(level, x, y),
            });
        }
        out.push('\n');
    }
    out
}

/// Writes every level of a Mario pack as text of `format` as folder `dir`, one file a level
/// named by its place and name (`01-level-name.txt`, the name shortened to 80 characters);
/// returns how many were written. The folder is written aside and swapped in whole
/// ([`studio_core::io::export_folder`]): no level of an earlier, longer export stays, an error
/// half-way leaves the old folder as it was, and a link, a file, a folder of another user or
/// one holding other files is refused, untouched.
///
/// # Errors
/// A [`studio_core::formats::FormatError`]: a level that is not a Mario level (refused), a
/// `dir` that is not replaced (nothing is written then), or a file that cannot be written.
pub fn export_pack(
    dir: &std::path::Path,
    pack: &studio_core::level::Pack,
    format: Format,
) -> Result<usize, studio_core::formats::FormatError> {
    use studio_core::formats::FormatError as Refusal;
    let mut texts = Vec::new();
    for (i, level) in pack.levels.iter().enumerate() {
        if level.game != crate::level::ID {
            return Err(Refusal::refused(format!(
                "level {} ({:?}) is a {} level: only Mario levels export as {}",
                i + 1,
                level.name,
                level.game,
                format.name()
            )));
        }
        let mario = MarioLevel::from_rows(&level.cells)
            .map_err(|e| Refusal::refused(format!("level {} ({:?}): {e}", i + 1, level.name)))?;
        let stem: String = studio_core::export::name_without_place(&level.name, i + 1)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let width = pack.levels.len().to_string().len().max(2);
        let stem = studio_core::io::truncate_name(stem.trim_matches('-'), MAX_STEM);
        let text = match format {
            Format::Vglc => write(&mario, format),
            Format::MarioAi => write_mario_ai(&mario, source_text(&level.tags)),
        };
        texts.push((format!("{:0width$}-{stem}.txt", i + 1), text));
    }
    let kind = studio_core::io::FolderExport {
        what: match format {
            Format::Vglc => "VGLC Mario export",
            Format::MarioAi => "Mario AI Framework export",
        },
        owns: is_export_file,
    };
    studio_core::io::export_folder(dir, kind, |fresh| {
        for (name, text) in &texts {
            studio_core::io::write_new(&fresh.join(name), text.as_bytes())?;
        }
        Ok(texts.len())
    })
}

/// The longest level name a text export's file name keeps (file names stay far below the
/// 255 bytes a file system takes).
const MAX_STEM: usize = 80;

/// Whether a file of this name is one a Mario text export writes (`NN-name.txt`).
pub fn is_export_file(name: &str) -> bool {
    name.ends_with(".txt")
        && name
            .split_once('-')
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Mario levels from files, or folders of `.txt` files (sorted by name), in `format`'s text.
///
/// # Errors
/// [`studio_core::formats::FormatError::Malformed`]: a file that is not a level, with its
/// name, row and column (nothing is written then).
fn import(
    request: &studio_core::formats::ImportRequest,
    format: Format,
) -> Result<studio_core::formats::Imported, studio_core::formats::FormatError> {
    use studio_core::formats::{files_in, stem, FormatError as Malformed, Imported};
    let mut levels = Vec::new();
    for path in files_in(&request.paths, "txt")? {
        let text = studio_core::io::read_text(&path)?;
        let level = match format {
            Format::Vglc => read_vglc(&text),
            Format::MarioAi => read_mario_ai(&text),
        }
        .map_err(|e| {
            let row = match &e {
                FormatError::Letter { row, .. } | FormatError::Ragged { row, .. } => Some(*row),
                FormatError::Level(_) => None,
            };
            Malformed::malformed(&path, row, format!("{e}; nothing was written"))
        })?;
        let mut level = crate::level::to_level(&level, stem(&path, "level"));
        if format == Format::MarioAi {
            // Kept with the level, so an export writes the file's own letters back.
            level.tags.push(source_tag(&text));
        }
        levels.push(level);
    }
    Ok(Imported {
        levels,
        title: match format {
            Format::Vglc => "VGLC Super Mario Bros".into(),
            Format::MarioAi => "Mario AI Framework levels".into(),
        },
        noun: "Mario levels".into(),
        skipped: Vec::new(),
    })
}

/// The formats Mario reads.
pub const IMPORTERS: [studio_core::formats::Importer; 2] = [
    studio_core::formats::Importer {
        format: "vglc-mario",
        label: "VGLC Super Mario Bros levels",
        help: "VGLC Super Mario Bros level files or their folder",
        menu: None,
        import: |request| import(request, Format::Vglc),
    },
    studio_core::formats::Importer {
        format: "mario-ai",
        label: "Mario AI Framework levels",
        help: "Mario AI Framework level files or their folder",
        menu: None,
        import: |request| import(request, Format::MarioAi),
    },
];

/// The formats Mario writes: a folder of level text files.
pub const EXPORTERS: [studio_core::formats::Exporter; 2] = [
    studio_core::formats::Exporter {
        format: "vglc-mario",
        label: "VGLC Super Mario Bros levels",
        help: "a folder of VGLC Super Mario Bros level files (Mario packs)",
        export: |dir, pack| {
            export_pack(dir, pack, Format::Vglc).map(|n| format!("{n} vglc-mario level files"))
        },
    },
    studio_core::formats::Exporter {
        format: "mario-ai",
        label: "Mario AI Framework levels",
        help: "a folder of Mario AI Framework level files (Mario packs)",
        export: |dir, pack| {
            export_pack(dir, pack, Format::MarioAi).map(|n| format!("{n} mario-ai level files"))
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piranha_plants_are_the_enemies_on_pipe_tops() {
        let text = level_text(&[
            "-E----E---E-----------------",
            "-<>---<>--------------------",
            "-[]---[]--E-----------------",
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        ]);
        let (out, removed) = without_piranha_plants(&text);
        assert_eq!(
            removed, 2,
            "the two on pipe tops, not the one in the air or on the ground"
        );
        let level = read_vglc(&out).expect("still a level");
        let enemies = level
            .cells()
            .cells()
            .iter()
            .filter(|&&t| t == Tile::Goomba)
            .count();
        assert_eq!(enemies, 2);
        assert_eq!(out.lines().count(), text.lines().count());
        // The thesis's levels: every enemy of 4-1 and 28 of 6-2's 31 stand on a pipe; 1-1 has none.
        for (name, plants) in [("1-1", 0), ("4-1", 4), ("6-2", 28)] {
            if let Some(text) = vglc_level_text(name) {
                assert_eq!(without_piranha_plants(&text).1, plants, "{name}");
            }
        }
    }

    fn level_text(body: &[&str]) -> String {
        let width = body[0].len();
        let mut text = String::new();
        for _ in body.len()..14 {
            text.push_str(&"-".repeat(width));
            text.push('\n');
        }
        for row in body {
            text.push_str(row);
            text.push('\n');
        }
        text
    }

    #[test]
    fn vglc_letters_map_and_round_trip() {
        let text = level_text(&[
            "--?Q-----S---E--o--",
            "---------------<>--",
            "XXXXXXX---XXXX[]XXX",
        ]);
        let level = read_vglc(&text).unwrap();
        assert_eq!(level.get(2, 11), Tile::CoinBox);
        assert_eq!(level.get(3, 11), Tile::UsedBlock);
        assert_eq!(level.get(13, 11), Tile::Goomba);
        assert_eq!(level.holes(), 3);
        assert_eq!(write(&level, Format::Vglc), text);
    }

    #[test]
    fn unknown_letters_are_refused_with_their_place() {
        let text = level_text(&["XXXXXXXXXXZXXXXXXXX"]);
        let err = read_vglc(&text).unwrap_err();
        assert_eq!(
            err,
            FormatError::Letter {
                row: 14,
                column: 11,
                letter: 'Z',
                format: "vglc-mario",
                why: String::new()
            }
        );
        assert!(err.to_string().contains("row 14, column 11"));
        let unknown = level_text(&["XXXXXXZXXXXXXXXXXXX"]);
        let err = read_mario_ai(&unknown).unwrap_err().to_string();
        assert!(err.contains("row 14, column 7"), "{err}");
        assert!(err.contains("'Z'"), "{err}");
    }

    #[test]
    fn every_framework_letter_is_its_own_tile_and_round_trips() {
        let text = level_text(&[
            "-M---y-Y-G-K-r-R-1-2--F",
            "-%%%-----TT---LU-*-----",
            "-|||-----TT-------*----",
            "XXXXXXXXXXXXXXXXXXXXXXX",
        ]);
        let level = read_mario_ai(&text).unwrap();
        let row = |y: usize| {
            (0..level.width())
                .map(|x| level.get(x, y))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            row(10)
                .into_iter()
                .filter(|t| t.is_enemy())
                .collect::<Vec<_>>(),
            [
                Tile::Spiky,
                Tile::WingedSpiky,
                Tile::WingedGoomba,
                Tile::WingedKoopa,
                Tile::RedKoopa,
                Tile::WingedRedKoopa
            ]
        );
        assert_eq!(level.get(17, 10), Tile::HiddenLifeBlock);
        assert_eq!(level.get(19, 10), Tile::HiddenCoinBlock);
        assert_eq!(level.get(1, 11), Tile::Platform);
        assert_eq!(level.get(1, 12), Tile::PlatformBack);
        // The flower pipe: its top-left cell holds the plant, the rest is pipe.
        assert_eq!(level.get(9, 11), Tile::PiranhaPipe);
        assert_eq!(level.get(10, 11), Tile::PipeTopRight);
        assert_eq!(level.get(9, 12), Tile::PipeLeft);
        assert_eq!(level.get(10, 12), Tile::PipeRight);
        assert_eq!(level.get(14, 11), Tile::LifeBrick);
        assert_eq!(level.get(15, 11), Tile::MushroomBrick);
        // Two separate `*` columns: each top is a cannon's head.
        assert_eq!(level.get(17, 11), Tile::CannonTop);
        assert_eq!(level.get(18, 12), Tile::CannonTop);
        // Written back, the framework's reader makes the same level.
        let back = read_mario_ai(&write(&level, Format::MarioAi)).unwrap();
        assert_eq!(back, level);
        // The VGLC has fewer letters: enemies `E`, the platform solid, hidden blocks air.
        let vglc = read_vglc(&write(&level, Format::Vglc)).unwrap();
        assert_eq!(vglc.get(5, 10), Tile::Goomba);
        assert_eq!(vglc.get(17, 10), Tile::Empty);
        assert_eq!(vglc.get(1, 11), Tile::Ground);
    }

    #[test]
    fn a_single_pipe_column_has_no_plant_as_in_the_framework() {
        let text = level_text(&[
            "-M--T-----------F",
            "----T------------",
            "XXXXXXXXXXXXXXXXX",
        ]);
        let level = read_mario_ai(&text).unwrap();
        assert_eq!(level.get(4, 11), Tile::PipeTopLeft);
        assert_eq!(level.get(4, 12), Tile::PipeLeft);
    }

    /// Every level file of the Mario AI Framework's `levels/` folders, when a folder is named
    /// by `MARIO_AI_LEVELS` (the framework is not in the repository): all import.
    #[test]
    fn every_framework_level_file_imports_when_the_folder_is_named() {
        let Some(dir) = std::env::var_os("MARIO_AI_LEVELS") else {
            return;
        };
        let mut files = Vec::new();
        let mut stack = vec![std::path::PathBuf::from(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "txt") {
                    files.push(p);
                }
            }
        }
        assert!(!files.is_empty());
        let failed: Vec<String> = files
            .iter()
            .filter_map(|p| {
                let text = std::fs::read_to_string(p).unwrap();
                read_mario_ai(&text)
                    .err()
                    .map(|e| format!("{}: {e}", p.display()))
            })
            .collect();
        assert!(
            failed.is_empty(),
            "{} of {}: {:?}",
            failed.len(),
            files.len(),
            &failed[..failed.len().min(5)]
        );
    }

    #[test]
    fn framework_pipes_and_bullet_bills_get_their_parts() {
        let text = level_text(&[
            "-M-----tt-----*---F",
            "-------tt-----*----",
            "XXXXXXXXXXXXXXXXXXX",
        ]);
        let level = read_mario_ai(&text).unwrap();
        assert_eq!(level.get(7, 11), Tile::PipeTopLeft);
        assert_eq!(level.get(8, 11), Tile::PipeTopRight);
        assert_eq!(level.get(7, 12), Tile::PipeLeft);
        assert_eq!(level.get(8, 12), Tile::PipeRight);
        assert_eq!(level.get(14, 11), Tile::CannonTop);
        assert_eq!(level.get(14, 12), Tile::CannonBody);
        assert_eq!(level.start_cell(), Some((1, 11)));
        assert_eq!(level.goal_column(), 18);
        let back = read_mario_ai(&write(&level, Format::MarioAi)).unwrap();
        assert_eq!(back, level);
    }

    #[test]
    fn ragged_rows_are_refused() {
        let mut text = level_text(&["XXXXXXXXXXXXXXXXXXX"]);
        text.push_str("XX\n");
        assert!(matches!(
            read_vglc(&text),
            Err(FormatError::Ragged { row: 15, .. })
        ));
    }

    #[test]
    fn every_vglc_level_imports_when_the_corpus_is_here() {
        let dir = vglc_levels_dir();
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipped: {} is absent", dir.display());
            return;
        };
        let mut count = 0;
        for entry in entries.flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let level =
                read_vglc(&text).unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
            assert_eq!(level.height(), 14);
            count += 1;
        }
        assert_eq!(count, 15);
    }
}
