//! A game's identity as levels, packs and the command line name it.

use super::registry;
use serde::de::{self, EnumAccess, VariantAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Which game a level belongs to: the id of a registered game (`"toy"`).
///
/// Level files write the game's file tag as a bare identifier (`game: Toy`), which is what
/// format 1 files already hold; reading looks the tag up in the registry.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(&'static str);

impl GameId {
    /// A game id; games define theirs as a constant next to their rules.
    pub const fn new(id: &'static str) -> Self {
        Self(id)
    }

    /// The id as the command line and JSON write it.
    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// The registered game with this id.
    ///
    /// # Errors
    /// [`registry::UnknownGame`] when no registered game has this id.
    pub fn game(self) -> Result<&'static dyn super::Game, registry::UnknownGame> {
        registry::find(self.0)
    }
}

impl Default for GameId {
    /// The first registered game.
    fn default() -> Self {
        registry::games()
            .first()
            .map(|g| g.id())
            .unwrap_or(GameId(""))
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameId({})", self.0)
    }
}

impl FromStr for GameId {
    type Err = registry::UnknownGame;

    /// Parses a registered game's id or file tag, in any case (`my-game`, `MyGame`, `my_game`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        registry::find(s).map(|g| g.id())
    }
}

impl Serialize for GameId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let tag = registry::find(self.0).map_or(self.0, |g| g.file_tag());
        serializer.serialize_unit_variant("Game", 0, tag)
    }
}

struct GameVisitor;

impl<'de> Visitor<'de> for GameVisitor {
    type Value = GameId;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a game ({})", registry::names().join(", "))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<GameId, E> {
        v.parse().map_err(|e: registry::UnknownGame| E::custom(e))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<GameId, A::Error> {
        let (Tag(name), variant) = data.variant()?;
        variant.unit_variant()?;
        self.visit_str(&name)
    }
}

/// A game's tag as an enum variant name (RON writes it bare: `Toy`).
pub(crate) struct Tag(pub(crate) String);

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TagVisitor;
        impl Visitor<'_> for TagVisitor {
            type Value = Tag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a game name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Tag, E> {
                Ok(Tag(v.to_string()))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Tag, E> {
                Ok(Tag(String::from_utf8_lossy(v).into_owned()))
            }
        }
        deserializer.deserialize_identifier(TagVisitor)
    }
}

impl<'de> Deserialize<'de> for GameId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_enum("Game", &[], GameVisitor)
    }
}
