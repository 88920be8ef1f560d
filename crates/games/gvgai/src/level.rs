//! A GVGAI game's levels: one [`VgdlGame`] per VGDL description the user opens, registered
//! at run time, with its palette (the description's level mapping, each character a coloured
//! letter, the colour from the character's role: no GVGAI image is shipped), the tile of each
//! role, and its levels checked and converted to and from GVGAI's text and the engine's state.
//!
//! A game is known by its description's text: opening the same text twice gives the same
//! game, and packs of its levels carry the text ([`studio_core::game::GameSource`]), so they
//! open wherever the studio runs.

use crate::load::Game as Loaded;
use crate::roles;
use std::sync::{Arc, Mutex};
use studio_core::evolve::pattern::Category;
use studio_core::formats::FormatError;
use studio_core::game::registry::{self, SourceLoader};
use studio_core::game::{Game, GameSource, TileInfo};
use studio_core::level::Level;
use vgdl::{LevelDesc, State};

/// The kind of [`GameSource`] this plug-in reads.
pub const SOURCE_KIND: &str = "vgdl";

/// The largest side of a level (GVGAI's largest grid levels are under 40 cells a side).
pub const MAX_SIDE: usize = 100;

/// A GVGAI game opened from its description.
pub struct VgdlGame {
    pub(crate) id: &'static str,
    pub(crate) tag: &'static str,
    pub(crate) name: &'static str,
    /// The file the description was read from (its name only).
    pub(crate) file: String,
    /// The description's text.
    pub(crate) text: String,
    /// The description, read and compiled.
    pub game: Loaded,
    pub(crate) tiles: &'static [TileInfo],
    /// Each tile's role.
    roles: Vec<Category>,
    /// The tile of the avatar (the first character that places one).
    pub(crate) avatar: Option<u8>,
    /// The tile of an empty cell (the background: the most plain character).
    pub(crate) empty: u8,
    /// The tile of the border wall, when the mapping has `w` for a wall.
    pub(crate) wall: Option<u8>,
    /// The tile standing for each sprite type in the playtest's view, when a character
    /// places it (its colour and letter), else `None`.
    kind_tile: Vec<Option<u8>>,
}

impl std::fmt::Debug for VgdlGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VgdlGame({})", self.id)
    }
}

static OPENED: Mutex<Vec<&'static VgdlGame>> = Mutex::new(Vec::new());

/// FNV-1a (32 bits) of the text with its line ends made `\n`: what tells two descriptions of
/// the same name apart.
fn text_hash(text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.replace("\r\n", "\n").bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// Why a VGDL description does not open as a studio game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// The description does not read, or uses a feature the engine lacks (`FILE:LINE: why`).
    Vgdl(vgdl::VgdlError),
    /// It reads, but the studio cannot show it (a level mapping that places no avatar, more
    /// characters than the palette holds), in words naming the file.
    Refused(String),
    /// A thread panicked while opening a game.
    Poisoned,
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Vgdl(e) => e.fmt(f),
            OpenError::Refused(why) => f.write_str(why),
            OpenError::Poisoned => f.write_str("the games list is poisoned"),
        }
    }
}

impl std::error::Error for OpenError {}

impl From<vgdl::VgdlError> for OpenError {
    fn from(e: vgdl::VgdlError) -> Self {
        OpenError::Vgdl(e)
    }
}

/// The game of `text` (read from a file named `file`), registered with the studio: the one
/// opened before when the text is the same.
///
/// # Errors
/// [`OpenError::Vgdl`] for a description that does not read or uses a feature the engine
/// lacks (`FILE:LINE: why`), [`OpenError::Refused`] for one without an avatar in its level
/// mapping.
pub fn open(file: &str, text: &str) -> Result<&'static VgdlGame, OpenError> {
    let hash = text_hash(text);
    let mut opened = OPENED.lock().map_err(|_| OpenError::Poisoned)?;
    let stem = stem_of(file);
    if let Some(game) = opened
        .iter()
        .find(|g| text_hash(&g.text) == hash && g.game_stem() == stem)
    {
        return Ok(game);
    }
    let desc = vgdl::parse(text, file)?;
    let rules = Arc::new(vgdl::compile(&desc, file)?);
    let loaded = Loaded { desc, rules };
    let game = VgdlGame::new(file, text, &stem, hash, loaded)?;
    let game: &'static VgdlGame = Box::leak(Box::new(game));
    registry::register(game);
    opened.push(game);
    Ok(game)
}

/// The opened game of id `id` (every [`VgdlGame`] is made by [`open`]).
pub fn opened(id: &str) -> Option<&'static VgdlGame> {
    OPENED
        .lock()
        .ok()
        .and_then(|o| o.iter().copied().find(|g| g.id == id))
}

/// The file name's stem in lower-case letters and digits (`game` when none is left).
fn stem_of(file: &str) -> String {
    let stem: String = std::path::Path::new(file)
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned())
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if stem.is_empty() {
        "game".into()
    } else {
        stem
    }
}

/// The file tag levels of the description `text` (read from `file`) are written with
/// (`Vgdl_zelda_1a2b3c4d`): the file's stem and a hash of the text, so two descriptions of
/// one name stay two games.
pub fn file_tag_for(file: &str, text: &str) -> String {
    format!("Vgdl_{}_{:08x}", stem_of(file), text_hash(text))
}

/// Reads a pack's VGDL source (the [`SourceLoader`] this plug-in adds).
fn load_source(source: &GameSource) -> Result<&'static dyn Game, FormatError> {
    open(&source.file, &source.text)
        .map(|g| g as &'static dyn Game)
        .map_err(FormatError::game)
}

/// The loader packs use to register their GVGAI games.
pub const LOADER: SourceLoader = SourceLoader {
    kind: SOURCE_KIND,
    load: load_source,
};

/// The colour of a role.
pub(crate) fn role_rgb(role: Category) -> [u8; 3] {
    match role {
        Category::Solid => [96, 86, 78],
        Category::Collectible => [232, 188, 48],
        Category::Harmful => [214, 66, 56],
        Category::Goal => [146, 70, 178],
        Category::Other => [112, 150, 196],
    }
}

/// `rgb` a little lighter or darker by `step` (characters of one role told apart).
fn shade(rgb: [u8; 3], step: usize) -> [u8; 3] {
    let delta = [0i32, 28, -24, 48, -40, 14, -12][step % 7];
    rgb.map(|c| (i32::from(c) + delta).clamp(0, 255) as u8)
}

impl VgdlGame {
    fn new(
        file: &str,
        text: &str,
        stem: &str,
        hash: u32,
        game: Loaded,
    ) -> Result<VgdlGame, OpenError> {
        let rules = &game.rules;
        let is_avatar = |name: &str| {
            rules
                .kind(name)
                .is_some_and(|k| rules.types[k].class.is_some_and(|c| c.is_avatar()))
        };
        let char_roles = roles::character_roles(&game);
        let mapping = &game.desc.mapping;
        // The background: the sprite every other character also places (GVGAI's floor).
        let common: Vec<&String> = mapping
            .first()
            .map(|(_, s)| {
                s.iter()
                    .filter(|n| mapping.iter().filter(|(_, o)| o.contains(n)).count() > 1)
                    .collect()
            })
            .unwrap_or_default();
        let mut counts = [0usize; 5];
        let mut tiles = Vec::new();
        let mut tile_roles = Vec::new();
        let mut avatar = None;
        for (i, ((c, sprites), (_, role))) in mapping.iter().zip(&char_roles).enumerate() {
            let own: Vec<&String> = sprites.iter().filter(|s| !common.contains(s)).collect();
            let shown = if own.is_empty() {
                sprites.iter().collect()
            } else {
                own
            };
            let name: String = shown
                .iter()
                .map(|s| s.to_ascii_uppercase())
                .collect::<Vec<_>>()
                .join(" + ");
            let has_avatar = sprites.iter().any(|s| is_avatar(s));
            if has_avatar && avatar.is_none() {
                avatar = Some(i as u8);
            }
            let slot = match role {
                Category::Solid => 0,
                Category::Collectible => 1,
                Category::Harmful => 2,
                Category::Goal => 3,
                Category::Other => 4,
            };
            let rgb = if has_avatar {
                [62, 168, 84]
            } else {
                counts[slot] += 1;
                shade(role_rgb(*role), counts[slot] - 1)
            };
            tiles.push(TileInfo {
                ascii: *c,
                name: Box::leak(name.into_boxed_str()),
                rgb,
            });
            tile_roles.push(*role);
        }
        if tiles.len() > usize::from(u8::MAX) {
            return Err(OpenError::Refused(format!(
                "{file}: {} level characters is more than the studio's palette holds (255)",
                tiles.len()
            )));
        }
        // The empty cell: a character placing only the background (else the fewest sprites),
        // never the avatar's.
        let empty = mapping
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i as u8) != avatar)
            .min_by_key(|(_, (_, s))| {
                let plain = s.iter().all(|n| common.contains(&n));
                (!plain, s.len())
            })
            .map_or(0, |(i, _)| i as u8);
        // Paint the empty cell in a pale floor colour.
        if let Some(t) = tiles.get_mut(usize::from(empty)) {
            t.rgb = [232, 224, 204];
        }
        let wall = mapping
            .iter()
            .position(|(c, s)| *c == 'w' && s.iter().any(|n| n == "wall"))
            .map(|i| i as u8);
        let mut kind_tile = vec![None; rules.types.len()];
        for (i, (_, sprites)) in mapping.iter().enumerate() {
            for s in sprites {
                if common.contains(&s) && sprites.len() > 1 {
                    continue;
                }
                if let Some(k) = rules.kind(s) {
                    kind_tile[k].get_or_insert(i as u8);
                }
            }
        }
        let title = {
            let mut t = stem.to_string();
            if let Some(f) = t.get_mut(0..1) {
                f.make_ascii_uppercase();
            }
            t
        };
        Ok(VgdlGame {
            id: Box::leak(format!("vgdl-{stem}-{hash:08x}").into_boxed_str()),
            tag: Box::leak(file_tag_for(file, text).into_boxed_str()),
            name: Box::leak(format!("{title} (GVGAI)").into_boxed_str()),
            file: std::path::Path::new(file)
                .file_name()
                .map_or(file.to_string(), |f| f.to_string_lossy().into_owned()),
            text: text.to_string(),
            game,
            tiles: Box::leak(tiles.into_boxed_slice()),
            roles: tile_roles,
            avatar,
            empty,
            wall,
            kind_tile,
        })
    }

    fn game_stem(&self) -> &str {
        self.id
            .strip_prefix("vgdl-")
            .and_then(|s| s.rsplit_once('-'))
            .map_or("", |(stem, _)| stem)
    }

    /// The description's file name.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The role of each tile (the pattern GA's categories).
    pub fn tile_roles(&self) -> &[Category] {
        &self.roles
    }

    /// The avatar's tile.
    pub fn avatar_tile(&self) -> Option<u8> {
        self.avatar
    }

    /// The empty cell's tile.
    pub fn empty_tile(&self) -> u8 {
        self.empty
    }

    /// The border wall's tile, when the game has one.
    pub fn wall_tile(&self) -> Option<u8> {
        self.wall
    }

    /// The tile that stands for sprite type `kind` in the playtest's view, when a character
    /// places it.
    pub fn kind_tile(&self, kind: usize) -> Option<u8> {
        self.kind_tile.get(kind).copied().flatten()
    }

    /// The tile of character `c`.
    pub fn tile_of(&self, c: char) -> Option<u8> {
        self.tiles
            .iter()
            .position(|t| t.ascii == c)
            .map(|i| i as u8)
    }

    /// The engine's view of `rows` (a studio level's cells).
    ///
    /// # Errors
    /// Rows that do not read as a level.
    pub fn level_desc(&self, rows: &[String]) -> Result<LevelDesc, String> {
        vgdl::read_level(&self.game.desc, &rows.join("\n"), &self.file).map_err(|e| e.to_string())
    }

    /// A game of `rows` ready to play, seeded with `seed`.
    ///
    /// # Errors
    /// Rows that are no level of the game (no avatar, a character it does not map).
    pub fn state(&self, rows: &[String], seed: i64) -> Result<State, String> {
        self.check_rows(rows)?;
        let level = self.level_desc(rows)?;
        State::new(self.game.rules.clone(), &level, seed).map_err(|e| e.message)
    }

    /// Why `rows` are no level of the game (a size, a character it does not map, ragged
    /// rows, no avatar).
    ///
    /// # Errors
    /// That reason, in words.
    pub fn check_rows(&self, rows: &[String]) -> Result<(), String> {
        let width = rows.first().map_or(0, |r| r.chars().count());
        if width == 0 {
            return Err("the level has no row".into());
        }
        if width > MAX_SIDE || rows.len() > MAX_SIDE {
            return Err(format!(
                "{width} x {} is larger than a level may be ({MAX_SIDE} x {MAX_SIDE})",
                rows.len()
            ));
        }
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() != width {
                return Err(format!(
                    "row {} has {} cells where the first has {width}",
                    y + 1,
                    row.chars().count()
                ));
            }
            for (x, c) in row.chars().enumerate() {
                if self.tile_of(c).is_none() {
                    return Err(format!(
                        "row {}, column {}: {c:?} is not in {}'s level mapping",
                        y + 1,
                        x + 1,
                        self.file
                    ));
                }
            }
        }
        let Some(avatar) = self.avatar.map(|t| self.tiles[usize::from(t)].ascii) else {
            return Err(format!("{} maps no character to an avatar", self.file));
        };
        if !rows.iter().any(|r| r.contains(avatar)) {
            return Err(format!("the level has no avatar ({avatar:?})"));
        }
        Ok(())
    }

    /// Reads GVGAI's level text: rows padded with the empty cell to the first row's width (as
    /// GVGAI pads with spaces), and each character the mapping lacks read as the empty cell.
    /// Answers the rows and, when some were replaced, a line saying which and how many.
    pub fn rows_from_gvgai(&self, text: &str) -> (Vec<String>, Option<String>) {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines: Vec<&str> = text.lines().collect();
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        let width = lines.first().map_or(0, |l| l.chars().count());
        let empty = self.tiles[usize::from(self.empty)].ascii;
        let mut unmapped: std::collections::BTreeMap<char, usize> = Default::default();
        let rows = lines
            .iter()
            .map(|l| {
                let mut chars: Vec<char> = l.chars().take(width).collect();
                chars.resize(width, ' ');
                chars
                    .into_iter()
                    .map(|c| {
                        if self.tile_of(c).is_some() {
                            c
                        } else {
                            *unmapped.entry(c).or_default() += 1;
                            empty
                        }
                    })
                    .collect()
            })
            .collect();
        let note = (!unmapped.is_empty()).then(|| {
            let list: Vec<String> = unmapped
                .iter()
                .map(|(c, n)| format!("{n} × {c:?}"))
                .collect();
            format!(
                "{} not in the level mapping, read as the empty cell {empty:?}",
                list.join(", ")
            )
        });
        (rows, note)
    }

    /// A studio level of `rows` named `name`.
    pub fn level(&self, name: impl Into<String>, rows: Vec<String>) -> Level {
        Level::bare(self.id(), name, rows)
    }
}
