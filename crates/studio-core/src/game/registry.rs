//! The registry: the games the studio knows, and what each brings with it. The window's game
//! switch, the generator sidebar, the command line's `--game` and `--model`, file loading,
//! exports and sorting all iterate it. Nothing here names a game: the binary installs its one
//! list of plug-ins ([`install`]), and each plug-in adds its game through a [`Registry`].
//! Tests add games the same way (or one at a time with [`register`]).
//!
//! Besides games, a plug-in adds what its game brings, each kind through a typed method of
//! the crate that owns the kind: importers, exporters and source loaders here
//! ([`Registry::add_importer`], [`Registry::add_exporter`], [`Registry::add_source_loader`]),
//! the command line's game commands in `studio-cli` (`RegisterCommands::add_command`), the
//! window's playtests and tool windows in `studio-ui` (`RegisterWindowParts`). Each shell
//! reads back the entries of its own types ([`entries`]); the registry knows none of them,
//! only the names that make two of them one too many.

use super::{
    AnalyseOptions, Analysis, AsciiError, Game, GameId, GameSource, LevelGenerator, SizeRules,
    TileInfo,
};
use crate::formats::{Exporter, FormatError, Importer};
use crate::jobs::{Cancel, JobError};
use crate::level::Level;
use std::any::Any;
use std::sync::{Arc, RwLock};

/// One entry a plug-in added beside its game (a command, a tool window, an importer), with
/// the names it takes (`import format "vglc-mario"`): no two entries share one.
#[derive(Clone)]
struct Entry {
    value: Arc<dyn Any + Send + Sync>,
    names: Vec<String>,
}

/// What a plug-in adds to the studio, handed to its `plugin(&mut Registry)` function.
#[derive(Default)]
pub struct Registry {
    games: Vec<&'static dyn Game>,
    entries: Vec<Entry>,
}

impl Registry {
    /// Adds a game; the same game added again is kept once.
    ///
    /// # Panics
    /// When another game already has its id or file tag: two plug-ins would read each other's
    /// files (a mistake in the binary's list of plug-ins, said at start, never ignored).
    pub fn add_game(&mut self, game: &'static dyn Game) {
        if self.games.iter().any(|g| same_game(*g, game)) {
            return;
        }
        if let Some(other) = self.games.iter().find(|g| clashes(**g, game)) {
            panic!("{}", duplicate_message(*other, game));
        }
        self.games.push(game);
    }

    /// Adds an importer (`import --format`, File > Import).
    ///
    /// # Panics
    /// When an importer of that format is registered already (see [`Registry::add_game`]).
    pub fn add_importer(&mut self, importer: Importer) {
        let name = format!("import format {:?}", importer.format);
        self.add_shell_entry(importer, vec![name]);
    }

    /// Adds an exporter (`export --format`, File > Export).
    ///
    /// # Panics
    /// When an exporter of that format is registered already.
    pub fn add_exporter(&mut self, exporter: Exporter) {
        let name = format!("export format {:?}", exporter.format);
        self.add_shell_entry(exporter, vec![name]);
    }

    /// Adds the loader of a kind of [`GameSource`] (the GVGAI plug-in's for `vgdl`).
    ///
    /// # Panics
    /// When a loader of that kind is registered already.
    pub fn add_source_loader(&mut self, loader: SourceLoader) {
        let name = format!("game source loader {:?}", loader.kind);
        self.add_shell_entry(loader, vec![name]);
    }

    /// For the shells' typed registration methods only (the command line's `add_command`,
    /// the window's `add_playtest` and `add_tool`), never for a plug-in: adds an entry of a
    /// type a shell defines, taking `names` (what makes a second one a duplicate, in words:
    /// `eval --game match3 --model avalon`). The shell reads entries back with [`entries`].
    ///
    /// # Panics
    /// When an entry already registered takes one of `names`: two plug-ins would answer one
    /// command or format (said at start, never ignored).
    #[doc(hidden)]
    pub fn add_shell_entry<T: Any + Send + Sync>(&mut self, entry: T, names: Vec<String>) {
        let entry = Entry {
            value: Arc::new(entry),
            names,
        };
        if let Some(name) = clash_of(&self.entries, &entry) {
            panic!("{}", duplicate_entry_message(name));
        }
        self.entries.push(entry);
    }
}

/// The first name `entry` takes that an entry of `entries` took already.
fn clash_of<'a>(entries: &[Entry], entry: &'a Entry) -> Option<&'a str> {
    entry
        .names
        .iter()
        .find(|name| entries.iter().any(|e| e.names.contains(name)))
        .map(String::as_str)
}

fn duplicate_entry_message(name: &str) -> String {
    format!(
        "two plug-ins register {name}: give each its own name, or leave one out of the list \
         of plug-ins"
    )
}

/// True when `a` and `b` are one game (a plug-in installed twice): the same id, file tag
/// and name. (Addresses cannot tell: games are zero-sized statics, which may share one.)
fn same_game(a: &'static dyn Game, b: &'static dyn Game) -> bool {
    a.id() == b.id() && a.file_tag() == b.file_tag() && a.name() == b.name()
}

/// True when two different games would share an id or a file tag.
fn clashes(a: &'static dyn Game, b: &'static dyn Game) -> bool {
    !same_game(a, b) && (a.id() == b.id() || a.file_tag() == b.file_tag())
}

fn duplicate_message(registered: &dyn Game, added: &dyn Game) -> String {
    format!(
        "two plug-ins register one game id or file tag: \"{}\" ({}, tag {}) is registered \
         and \"{}\" ({}, tag {}) asks for the same; give each game its own id and tag",
        registered.name(),
        registered.id(),
        registered.file_tag(),
        added.name(),
        added.id(),
        added.file_tag()
    )
}

/// A plug-in: one function that adds a game (and what comes with it) to the registry.
pub type Plugin = fn(&mut Registry);

static INSTALLED: RwLock<Vec<&'static dyn Game>> = RwLock::new(Vec::new());
static ENTRIES: RwLock<Vec<Entry>> = RwLock::new(Vec::new());
/// The plug-ins installed so far, by address (one that adds commands but no game is known
/// by this alone).
static PLUGINS: RwLock<Vec<usize>> = RwLock::new(Vec::new());

/// Runs each plug-in, in order, and adds what they register to the studio's registry (after
/// what is there already; a game registered twice is kept once). The binary calls it once
/// with its list of games before anything reads a level.
pub fn install(plugins: &[Plugin]) {
    let mut registry = Registry {
        games: games(),
        entries: ENTRIES.read().map(|e| e.clone()).unwrap_or_default(),
    };
    let mut seen = PLUGINS.read().map(|p| p.clone()).unwrap_or_default();
    for plugin in plugins {
        // A plug-in installed before (by itself, or by its games being all there already)
        // does not add its entries twice.
        let address = *plugin as usize;
        if seen.contains(&address) {
            continue;
        }
        seen.push(address);
        let mut added = Registry::default();
        plugin(&mut added);
        let repeated = !added.games.is_empty()
            && added
                .games
                .iter()
                .all(|g| registry.games.iter().any(|r| same_game(*r, *g)));
        if repeated {
            continue;
        }
        // A different game under a registered id or tag is a mistake in the list of
        // plug-ins: said before anything is installed, never silently dropped.
        for game in &added.games {
            if let Some(other) = registry.games.iter().find(|g| clashes(**g, *game)) {
                panic!("{}", duplicate_message(*other, *game));
            }
        }
        for entry in &added.entries {
            if let Some(name) = clash_of(&registry.entries, entry) {
                panic!("{}", duplicate_entry_message(name));
            }
        }
        for game in added.games {
            registry.add_game(game);
        }
        registry.entries.extend(added.entries);
    }
    if let Ok(mut installed) = INSTALLED.write() {
        *installed = registry.games;
    }
    if let Ok(mut entries) = ENTRIES.write() {
        *entries = registry.entries;
    }
    if let Ok(mut installed) = PLUGINS.write() {
        *installed = seen;
    }
}

/// The entries of type `T` the installed plug-ins added, in the order they were added.
pub fn entries<T: Any + Send + Sync>() -> Vec<Arc<T>> {
    ENTRIES
        .read()
        .map(|all| {
            all.iter()
                .filter_map(|e| Arc::clone(&e.value).downcast::<T>().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Generators made at run time (a level VAE a designer trained on a pack), by game: they
/// join the game's own in every list ([`super::generators_of`]).
static LEARNED: RwLock<Vec<(GameId, Arc<dyn LevelGenerator>)>> = RwLock::new(Vec::new());

/// Adds a generator made at run time to `game`'s list, in place of one with the same id.
pub fn add_learned(game: GameId, generator: Arc<dyn LevelGenerator>) {
    if let Ok(mut all) = LEARNED.write() {
        all.retain(|(g, known)| !(*g == game && known.id() == generator.id()));
        all.push((game, generator));
    }
}

/// The generators made at run time for `game`, in the order they were added.
pub fn learned(game: GameId) -> Vec<Arc<dyn LevelGenerator>> {
    LEARNED
        .read()
        .map(|all| {
            all.iter()
                .filter(|(g, _)| *g == game)
                .map(|(_, known)| Arc::clone(known))
                .collect()
        })
        .unwrap_or_default()
}

/// What reads a [`GameSource`] of one kind into a registered game (the GVGAI plug-in's for
/// `vgdl`): a plug-in adds it with [`Registry::add_source_loader`].
#[derive(Clone, Copy, Debug)]
pub struct SourceLoader {
    /// The sources it reads (`vgdl`).
    pub kind: &'static str,
    /// Reads one and registers its game (nothing when it is registered already).
    pub load: fn(&GameSource) -> Result<&'static dyn Game, FormatError>,
}

/// Registers the games of `sources` (a pack's), each through the loader of its kind.
///
/// # Errors
/// [`FormatError::UnknownSource`] for a source of a kind no plug-in reads,
/// [`FormatError::SourceRefused`] for one its loader refuses.
pub fn load_sources(sources: &[GameSource]) -> Result<(), FormatError> {
    let loaders = entries::<SourceLoader>();
    for source in sources {
        let loader = loaders
            .iter()
            .find(|l| l.kind == source.kind)
            .ok_or_else(|| FormatError::UnknownSource {
                file: source.file.clone(),
                kind: source.kind.clone(),
            })?;
        (loader.load)(source).map_err(|error| FormatError::SourceRefused {
            file: source.file.clone(),
            error: Box::new(error),
        })?;
    }
    Ok(())
}

/// The descriptions of every game made at run time (GVGAI's), as a field of a file that
/// may name any of them (the session, the crash-recovery autosave). Written first, it
/// registers them on reading before any level names them; writing always writes those
/// registered now, whatever was read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimeGames(pub Vec<GameSource>);

impl serde::Serialize for RuntimeGames {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let now: Vec<GameSource> = games().iter().filter_map(|g| g.source()).collect();
        now.serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for RuntimeGames {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let sources = Vec::<GameSource>::deserialize(deserializer)?;
        load_sources(&sources).map_err(serde::de::Error::custom)?;
        Ok(RuntimeGames(sources))
    }
}

/// No registered game has this name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?} (registered: {registered})")]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
    /// The registered ids, comma-separated.
    pub registered: String,
}

/// Every registered game, in the order they were installed.
pub fn games() -> Vec<&'static dyn Game> {
    INSTALLED.read().map(|g| g.clone()).unwrap_or_default()
}

/// The first registered game: what the window shows when nothing else is chosen (a
/// placeholder with no tiles when nothing is registered).
pub fn first() -> &'static dyn Game {
    games().first().copied().unwrap_or(&NoGame)
}

/// The ids of the registered games.
pub fn names() -> Vec<&'static str> {
    games().iter().map(|g| g.id().as_str()).collect()
}

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The game with this id or file tag (any case; `-` and `_` ignored: `my-game` is `mygame`).
///
/// # Errors
/// [`UnknownGame`] listing the registered ids.
pub fn find(name: &str) -> Result<&'static dyn Game, UnknownGame> {
    let wanted = normalise(name);
    games()
        .into_iter()
        .find(|g| normalise(g.id().as_str()) == wanted || normalise(g.file_tag()) == wanted)
        .ok_or_else(|| UnknownGame {
            name: name.to_string(),
            registered: names().join(", "),
        })
}

/// Adds one game at run time (tests register a toy game this way). A game whose id is
/// already registered is ignored, so registering twice is harmless.
pub fn register(game: &'static dyn Game) {
    if let Ok(mut installed) = INSTALLED.write() {
        if !installed.iter().any(|g| g.id() == game.id()) {
            installed.push(game);
        }
    }
}

/// What [`first`] returns when no game is registered: a game with no tiles that nothing can
/// be made of, so a misconfigured build shows an empty studio instead of crashing.
struct NoGame;

impl Game for NoGame {
    fn id(&self) -> GameId {
        GameId::new("none")
    }

    fn name(&self) -> &'static str {
        "No game registered"
    }

    fn file_tag(&self) -> &'static str {
        "None"
    }

    fn tiles(&self) -> &'static [TileInfo] {
        &[]
    }

    fn size_rules(&self) -> SizeRules {
        SizeRules {
            min: (1, 1),
            max: (1, 1),
            default: (1, 1),
        }
    }

    fn check(&self, _rows: &[String]) -> Result<(), AsciiError> {
        Err(AsciiError::rule("no game is registered in this build"))
    }

    fn blank(&self, _width: usize, _height: usize) -> Level {
        Level::bare(self.id(), "untitled", Vec::new())
    }

    fn level_from_ascii(&self, _name: &str, _text: &str) -> Result<Level, AsciiError> {
        Err(AsciiError::Level(
            "no game is registered in this build".into(),
        ))
    }

    fn analyse(
        &self,
        _level: &Level,
        _options: &AnalyseOptions,
        _cancel: &Cancel,
    ) -> Result<Analysis, JobError> {
        Err(JobError::failed("no game is registered in this build"))
    }

    fn stored_difficulty(&self, _level: &Level) -> Option<f64> {
        None
    }

    fn stored_verdict(&self, _level: &Level) -> Option<bool> {
        None
    }

    fn generators(&self) -> Vec<Arc<dyn LevelGenerator>> {
        Vec::new()
    }
}

impl super::GameView for NoGame {}

#[cfg(test)]
mod tests {
    use super::*;

    fn importer(format: &'static str) -> Importer {
        Importer {
            format,
            label: "test levels",
            help: "test files",
            menu: None,
            import: |_| Ok(crate::formats::Imported::default()),
        }
    }

    fn exporter(format: &'static str) -> Exporter {
        Exporter {
            format,
            label: "test levels",
            help: "a test folder",
            export: |_, _| Ok(String::new()),
        }
    }

    #[test]
    #[should_panic(expected = "two plug-ins register import format \"twice-test\"")]
    fn a_second_importer_of_one_format_is_refused() {
        let mut registry = Registry::default();
        registry.add_importer(importer("twice-test"));
        registry.add_importer(importer("twice-test"));
    }

    #[test]
    fn an_importer_and_an_exporter_may_share_a_format() {
        let mut registry = Registry::default();
        registry.add_importer(importer("both-test"));
        registry.add_exporter(exporter("both-test"));
        assert_eq!(registry.entries.len(), 2);
    }

    #[test]
    fn two_plug_ins_with_one_exporter_stop_the_start_before_anything_is_installed() {
        fn first(registry: &mut Registry) {
            registry.add_exporter(exporter("clash-test"));
        }
        // Another body than `first`'s: identical functions may share one address.
        fn second(registry: &mut Registry) {
            registry.add_importer(importer("clash-test"));
            registry.add_exporter(exporter("clash-test"));
        }
        let said = std::panic::catch_unwind(|| install(&[first, second])).unwrap_err();
        let said = said.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(said.contains("export format \"clash-test\""), "{said}");
        assert!(crate::formats::exporters()
            .iter()
            .all(|e| e.format != "clash-test"));
    }
}
