//! One level as the studio stores it: which game, a name, the cells as rows of ASCII, the
//! symmetry, tags, the last validation figures and the designer's playtests.

use crate::symmetry::Symmetry;
use serde::de::{self, VariantAccess};
use serde::{Deserialize, Serialize};
use std::any::Any;

pub use crate::game::GameId as Game;

/// The non-empty lines of a level's text, without trailing spaces (its rows).
pub fn text_rows(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// A game's stored figures: what the last analysis of a level found, in the game's own type
/// (each game owns its figures; the core only stores, compares, copies and writes them).
///
/// Files write figures as the game's file tag around the game's own value
/// (`figures: Some(Toy((crates: 3, …)))`), which is what format 1 files hold.
pub trait GameFigures:
    FiguresObject + std::fmt::Debug + Send + Sync + erased_serde::Serialize
{
    /// The file tag of the game the figures belong to (`Toy`).
    fn tag(&self) -> &'static str;
    /// Every number stored, named, so a figure that is not finite can be refused.
    fn numbers(&self) -> Vec<(&'static str, f64)>;
}

erased_serde::serialize_trait_object!(GameFigures);

/// Copying, comparing and downcasting figures behind `dyn` (implemented for every
/// [`GameFigures`] type that is `Clone + PartialEq`).
pub trait FiguresObject: Any {
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn GameFigures>;
    /// True when `other` is of the same type and equal.
    fn same_as(&self, other: &dyn GameFigures) -> bool;
    /// The figures as [`Any`], to downcast to the game's type.
    fn as_any(&self) -> &dyn Any;
    /// The figures as mutable [`Any`].
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: GameFigures + Clone + PartialEq> FiguresObject for T {
    fn clone_box(&self) -> Box<dyn GameFigures> {
        Box::new(self.clone())
    }

    fn same_as(&self, other: &dyn GameFigures) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Reads one game's figures from a file (a game returns it from
/// [`Game::figures_reader`](crate::game::Game::figures_reader)), told the file tag of the
/// game they are read for (a game made at run time keeps it in its figures).
pub type FiguresReader = fn(
    &mut dyn erased_serde::Deserializer<'_>,
    &'static str,
) -> Result<Box<dyn GameFigures>, erased_serde::Error>;

/// The [`FiguresReader`] of figures type `T`.
pub fn figures_reader<T: GameFigures + serde::de::DeserializeOwned>() -> FiguresReader {
    |de, _| Ok(Box::new(erased_serde::deserialize::<T>(de)?))
}

/// The last validation result stored with a level: one game's [`GameFigures`].
pub struct Figures(Box<dyn GameFigures>);

impl Figures {
    /// Stores a game's figures.
    pub fn new(figures: impl GameFigures) -> Self {
        Self(Box::new(figures))
    }

    /// The figures as game type `T`, when they are of that type.
    pub fn get<T: GameFigures>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    /// The figures as game type `T`, to change them.
    pub fn get_mut<T: GameFigures>(&mut self) -> Option<&mut T> {
        self.0.as_any_mut().downcast_mut::<T>()
    }

    /// The file tag of the game the figures belong to.
    pub fn tag(&self) -> &'static str {
        self.0.tag()
    }

    /// Every number stored, named.
    pub fn numbers(&self) -> Vec<(&'static str, f64)> {
        self.0.numbers()
    }
}

impl Clone for Figures {
    fn clone(&self) -> Self {
        Self(self.0.clone_box())
    }
}

impl PartialEq for Figures {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_as(&*other.0)
    }
}

impl std::fmt::Debug for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple(self.tag()).field(&self.0).finish()
    }
}

impl Serialize for Figures {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_variant("Figures", 0, self.tag(), &*self.0)
    }
}

impl<'de> Deserialize<'de> for Figures {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_enum("Figures", &[], FiguresVisitor)
    }
}

struct FiguresVisitor;

impl<'de> de::Visitor<'de> for FiguresVisitor {
    type Value = Figures;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a game's figures (`GameTag(…)`)")
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Figures, A::Error> {
        let (crate::game::Tag(tag), variant) = data.variant()?;
        let (reader, tag) = crate::game::registry::find(&tag)
            .ok()
            .filter(|g| g.file_tag() == tag)
            .and_then(|g| Some((g.figures_reader()?, g.file_tag())))
            .ok_or_else(|| {
                de::Error::custom(format!("no registered game keeps figures named {tag:?}"))
            })?;
        variant.newtype_variant_seed(ReadFigures(reader, tag))
    }
}

/// Reads the value inside `Tag(…)` with the game's reader (and the game's file tag).
struct ReadFigures(FiguresReader, &'static str);

impl<'de> de::DeserializeSeed<'de> for ReadFigures {
    type Value = Figures;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Figures, D::Error> {
        let mut erased = <dyn erased_serde::Deserializer>::erase(deserializer);
        (self.0)(&mut erased, self.1)
            .map(Figures)
            .map_err(de::Error::custom)
    }
}

/// One attempt by the designer at playing a level inside the studio.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Playtest {
    /// Moves made.
    pub moves: u32,
    /// Seconds spent.
    pub seconds: f64,
    /// True when the goal was reached.
    pub solved: bool,
    /// The buttons held on each tick, for games played in real time (Mario's button script,
    /// `RS*60,RSJ*10`): the attempt can be played again, in the window or with `play`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
}

/// One level as stored in files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Which game the cells belong to.
    pub game: Game,
    /// A short human name.
    pub name: String,
    /// The cells, one string a row, in the game's ASCII alphabet.
    pub cells: Vec<String>,
    /// The symmetry (detected, or requested when generated).
    #[serde(default)]
    pub symmetry: Symmetry,
    /// Free tags (`"generated"`, `"avalon"`, a split name, …).
    #[serde(default)]
    pub tags: Vec<String>,
    /// The last validation result, if the level has been validated.
    #[serde(default)]
    pub figures: Option<Figures>,
    /// The designer's own attempts.
    #[serde(default)]
    pub playtests: Vec<Playtest>,
}

impl Level {
    /// A level of `game` with only its name and cells: no symmetry, tags, figures or
    /// playtests yet.
    pub fn bare(game: Game, name: impl Into<String>, cells: Vec<String>) -> Self {
        Self {
            game,
            name: name.into(),
            cells,
            symmetry: Default::default(),
            tags: Vec::new(),
            figures: None,
            playtests: Vec::new(),
        }
    }

    /// The first stored number that is not finite (NaN or infinite), named: such a figure
    /// cannot be written as JSON and means nothing to a designer.
    pub fn non_finite_number(&self) -> Option<String> {
        let mut numbers = self
            .figures
            .as_ref()
            .map(Figures::numbers)
            .unwrap_or_default();
        numbers.extend(
            self.playtests
                .iter()
                .map(|p| ("playtest seconds", p.seconds)),
        );
        numbers
            .into_iter()
            .find(|(_, v)| !v.is_finite())
            .map(|(name, v)| format!("its figure {name} is {v}, not a finite number"))
    }

    /// The stored figures as game type `T`, when the level has figures of that type.
    pub fn figures_of<T: GameFigures>(&self) -> Option<&T> {
        self.figures.as_ref().and_then(Figures::get)
    }

    /// The level's cells as ASCII art.
    pub fn ascii(&self) -> String {
        let mut s = self.cells.join("\n");
        s.push('\n');
        s
    }
}

/// A level pack: ordered levels with metadata.
///
/// A pack of a game the user opened from a description (a GVGAI game) carries that
/// description in `sources`, so the pack opens on any machine: a pack file is read in three
/// phases ([`crate::files::load_pack`]): its fields with the levels kept as text, then the
/// sources' games registered ([`registry::load_sources`](crate::game::registry::load_sources)),
/// then the levels, whose games are all known by then.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    /// File format version.
    #[serde(default = "Pack::format_version")]
    pub format: u32,
    /// The pack's name.
    pub name: String,
    /// What the pack is for.
    #[serde(default)]
    pub description: String,
    /// The descriptions of the games the levels need that the studio does not build in, as
    /// the file held them (files are written with those of the levels' games at the time).
    #[serde(default)]
    pub sources: Vec<crate::game::GameSource>,
    /// The levels, in play order.
    pub levels: Vec<Level>,
}

/// The descriptions of the games of `levels` that come from one (each once, in the order the
/// levels first name them).
pub fn sources_of(levels: &[Level]) -> Vec<crate::game::GameSource> {
    let mut seen: Vec<Game> = Vec::new();
    let mut sources = Vec::new();
    for level in levels {
        if seen.contains(&level.game) {
            continue;
        }
        seen.push(level.game);
        if let Some(source) = level.game.game().ok().and_then(|g| g.source()) {
            sources.push(source);
        }
    }
    sources
}

impl Serialize for Pack {
    /// The fields in order, with `sources` recomputed from the levels' games (left out when
    /// there is none, as files of built-in games have always been).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let sources = sources_of(&self.levels);
        let mut out = serializer.serialize_struct("Pack", 5)?;
        out.serialize_field("format", &self.format)?;
        out.serialize_field("name", &self.name)?;
        out.serialize_field("description", &self.description)?;
        if sources.is_empty() {
            out.skip_field("sources")?;
        } else {
            out.serialize_field("sources", &sources)?;
        }
        out.serialize_field("levels", &self.levels)?;
        out.end()
    }
}

impl Pack {
    /// The format version this build writes.
    pub fn format_version() -> u32 {
        1
    }

    /// An empty pack.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            format: Self::format_version(),
            name: name.into(),
            description: String::new(),
            sources: Vec::new(),
            levels: Vec::new(),
        }
    }
}
