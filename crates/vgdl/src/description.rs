//! A game description as its file states it ([`GameDesc`]): the game's own parameters, its
//! sprite tree (each sprite with the class and parameters it inherits from the sprites it is
//! nested under), the level mapping, the interactions and the terminations; and a level as
//! its file and the game's mapping place it ([`LevelDesc`]).
//!
//! Reading reports every problem as `FILE:LINE: what is wrong`. A leaf module: the compiler
//! and the engine read these types, and it names neither.
//!
//! The format, as GVGAI reads it: one block per set (`SpriteSet`, `LevelMapping`,
//! `InteractionSet`, `TerminationSet`, optionally `ParameterSet`) under a first line naming the
//! game class (`BasicGame square_size=40`); nesting by indentation (a tab counts as one
//! column, as GVGAI counts it); `#` starts a comment to the end of the line; `key=value`
//! parameters anywhere after the `>`.
//!
//! - a sprite: `name > Class key=value …`, or `name >` / `name > key=value` (the class comes
//!   from the sprite it is nested under); nested sprites inherit their parents' parameters
//!   and override them;
//! - a mapping: `c > sprite sprite …` (one level character, the sprites stacked in its cell);
//! - an interaction: `actor actee actee … > effect key=value …`, one rule per actee;
//! - a termination: `Class key=value …`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

/// A `key=value` parameter as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The key (`stype`).
    pub key: String,
    /// The value, unparsed (`sword`, `True`, `0.9`, `-1`).
    pub value: String,
}

/// One sprite of the sprite set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteDef {
    /// Its name (`monsterQuick`).
    pub name: String,
    /// Its class, its own or the nearest ancestor's (`RandomNPC`); `None` for a sprite that
    /// only groups others.
    pub class: Option<String>,
    /// Its parameters: its ancestors', overridden by its own.
    pub params: BTreeMap<String, String>,
    /// Its ancestors, the outermost first (`movable`, `enemy`).
    pub parents: Vec<String>,
    /// The sprites nested directly under it.
    pub children: Vec<String>,
    /// Its line in the file (1-based).
    pub line: usize,
}

impl SpriteDef {
    /// True when no sprite is nested under it (the sprites a level places and the engine
    /// moves; the others name groups of them).
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty()
    }
}

/// One interaction rule: what happens to `actor` when it meets `actee`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interaction {
    /// The first sprite (or group) of the rule.
    pub actor: String,
    /// The second.
    pub actee: String,
    /// The effect (`killSprite`, `stepBack`, `transformTo`).
    pub effect: String,
    /// The effect's parameters, in order.
    pub params: Vec<Param>,
    /// Its line in the file (1-based).
    pub line: usize,
}

/// One termination condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Termination {
    /// Its class (`SpriteCounter`, `Timeout`, `MultiSpriteCounter`).
    pub class: String,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// Its line in the file (1-based).
    pub line: usize,
}

/// A game description, as its file states it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameDesc {
    /// The game class of the first line (`BasicGame`).
    pub class: String,
    /// The game's own parameters (`square_size=40`).
    pub params: Vec<Param>,
    /// Every sprite, in the order of the file.
    pub sprites: Vec<SpriteDef>,
    /// Each level character and the sprites its cell holds, in the order of the file.
    pub mapping: Vec<(char, Vec<String>)>,
    /// The interaction rules, in the order of the file (GVGAI applies them in this order).
    pub interactions: Vec<Interaction>,
    /// The terminations, in the order of the file.
    pub terminations: Vec<Termination>,
    /// The parameter set's lines, as written (games that tune themselves; few use it).
    pub parameters: Vec<Param>,
}

impl GameDesc {
    /// The sprite named `name`.
    pub fn sprite(&self, name: &str) -> Option<&SpriteDef> {
        self.sprites.iter().find(|s| s.name == name)
    }

    /// The leaf sprites under `name` (itself when it is a leaf): what a rule or a
    /// termination naming a group applies to.
    pub fn leaves_of(&self, name: &str) -> Vec<&SpriteDef> {
        self.sprites
            .iter()
            .filter(|s| s.is_leaf() && (s.name == name || s.parents.iter().any(|p| p == name)))
            .collect()
    }
}

/// Why a description cannot be read: the file, the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VgdlError {
    /// The file as the caller named it.
    pub file: String,
    /// The line (1-based).
    pub line: usize,
    /// What is wrong, in words.
    pub message: String,
}

/// The most characters of a message an error prints: a message quotes the offending line, and
/// a line may be a megabyte long (F37).
const MAX_MESSAGE: usize = 300;

impl fmt::Display for VgdlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.message.chars().count();
        if total <= MAX_MESSAGE {
            return write!(f, "{}:{}: {}", self.file, self.line, self.message);
        }
        let shown: String = self.message.chars().take(MAX_MESSAGE).collect();
        write!(
            f,
            "{}:{}: {shown}… ({} more characters)",
            self.file,
            self.line,
            total - MAX_MESSAGE
        )
    }
}

impl std::error::Error for VgdlError {}

/// The block a line belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Sprites,
    Mapping,
    Interactions,
    Terminations,
    Parameters,
}

impl Block {
    fn named(word: &str) -> Option<Block> {
        match word.to_ascii_lowercase().as_str() {
            "spriteset" => Some(Block::Sprites),
            "levelmapping" => Some(Block::Mapping),
            "interactionset" => Some(Block::Interactions),
            "terminationset" => Some(Block::Terminations),
            "parameterset" => Some(Block::Parameters),
            _ => None,
        }
    }
}

/// A line with its content: comment cut, indentation counted, words split.
struct Line<'a> {
    number: usize,
    indent: usize,
    content: &'a str,
}

/// The lines that hold something, comments cut.
fn lines(text: &str) -> Vec<Line<'_>> {
    text.lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let raw = raw.split('#').next().unwrap_or("");
            let content = raw.trim();
            if content.is_empty() {
                return None;
            }
            // As GVGAI counts it: the column of the first character, a tab one column.
            let indent = raw.len() - raw.trim_start().len();
            Some(Line {
                number: i + 1,
                indent,
                content,
            })
        })
        .collect()
}

/// `key=value` words into parameters; a word without `=` is an error.
fn params<'a>(
    words: impl Iterator<Item = &'a str>,
    fail: &impl Fn(String) -> VgdlError,
) -> Result<Vec<Param>, VgdlError> {
    words
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok(Param {
                key: k.to_string(),
                value: v.to_string(),
            }),
            _ => Err(fail(format!(
                "“{w}” is not a parameter (parameters are written key=value)"
            ))),
        })
        .collect()
}

/// Reads a VGDL game description. `file` names it in errors.
///
/// # Errors
/// [`VgdlError`] at the first line that cannot be read: no game line, a line outside any
/// set, a sprite or rule without its `>`, a word that is not `key=value` where parameters
/// go, a mapping key that is not one character or mapped twice, or a rule or termination that
/// names a sprite the sprite set does not have.
pub fn parse(text: &str, file: &str) -> Result<GameDesc, VgdlError> {
    let lines = lines(text.strip_prefix('\u{feff}').unwrap_or(text));
    let err = |line: usize, message: String| VgdlError {
        file: file.to_string(),
        line,
        message,
    };
    let Some(first) = lines.first() else {
        return Err(err(1, "the file holds no game description".into()));
    };
    let mut desc = GameDesc::default();
    let mut words = first.content.split_whitespace();
    desc.class = words.next().unwrap_or_default().to_string();
    desc.params = params(words, &|m| err(first.number, m))?;
    let mut block: Option<(Block, usize)> = None;
    let mut tree = Tree::default();
    // The level characters mapped so far (looked up by hash, as the sprites are).
    let mut mapped: HashSet<char> = HashSet::new();
    for line in &lines[1..] {
        let fail = |m: String| err(line.number, m);
        if let Some(b) = Block::named(line.content) {
            block = Some((b, line.indent));
            tree.stack.clear();
            continue;
        }
        let Some((block, block_indent)) = block else {
            return Err(fail(format!(
                "“{}” is outside any set (SpriteSet, LevelMapping, InteractionSet, \
                 TerminationSet)",
                line.content
            )));
        };
        if line.indent <= block_indent {
            return Err(fail(format!(
                "“{}” is not indented under its set",
                line.content
            )));
        }
        match block {
            Block::Sprites => sprite_line(&mut desc, &mut tree, line, &fail)?,
            Block::Mapping => mapping_line(&mut desc, &mut mapped, line, &fail)?,
            Block::Interactions => interaction_line(&mut desc, line, &fail)?,
            Block::Terminations => {
                let mut words = line.content.split_whitespace();
                let class = words.next().unwrap_or_default().to_string();
                let params = params(words, &fail)?;
                desc.terminations.push(Termination {
                    class,
                    params,
                    line: line.number,
                });
            }
            Block::Parameters => {
                // `name > Class key=value`: kept as written (name → the rest).
                let (name, rest) = line.content.split_once('>').unwrap_or((line.content, ""));
                desc.parameters.push(Param {
                    key: name.trim().to_string(),
                    value: rest.trim().to_string(),
                });
            }
        }
    }
    // GVGAI's game maps `w` to `wall` and `A` to `avatar` before reading the file's mapping,
    // which may map them otherwise.
    for (c, sprite) in DEFAULT_MAPPING {
        if !mapped.contains(&c) {
            desc.mapping.push((c, vec![sprite.to_string()]));
        }
    }
    check_nesting(&desc, &tree.nestings, file)?;
    check_names(&desc, file)?;
    Ok(desc)
}

/// The sprite set as read so far, beyond the sprites themselves.
#[derive(Default)]
struct Tree {
    /// The sprite being nested under, by indentation: (indent, index in desc.sprites).
    stack: Vec<(usize, usize)>,
    /// Every nesting as written: (parent index, child name, line), for the cycle check.
    nestings: Vec<(usize, String, usize)>,
    /// Each sprite's place in desc.sprites: looked up by hash, so loading stays linear (F33:
    /// a walk over all sprites for each one made a 1 MiB description load for more than
    /// 300 s).
    sprite_at: HashMap<String, usize>,
}

/// Reads a line of the sprite set: a sprite, nested under the one above it with less
/// indentation, inheriting its class and parameters.
fn sprite_line(
    desc: &mut GameDesc,
    tree: &mut Tree,
    line: &Line<'_>,
    fail: &impl Fn(String) -> VgdlError,
) -> Result<(), VgdlError> {
    let Tree {
        stack,
        nestings,
        sprite_at,
    } = tree;
    let (name, rest) = line
        .content
        .split_once('>')
        .ok_or_else(|| fail("a sprite is written “name > Class key=value”".into()))?;
    let name = name.trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(fail(format!("“{name}” is not a sprite name")));
    }
    while stack
        .last()
        .is_some_and(|&(indent, _)| indent >= line.indent)
    {
        stack.pop();
    }
    let mut words = rest.split_whitespace().peekable();
    let own_class = words.next_if(|w| !w.contains('=')).map(str::to_string);
    let own = params(words, &fail)?;
    let parent = stack.last().map(|&(_, i)| i);
    let (mut parents, mut inherited, parent_class) = match parent {
        Some(i) => {
            let p = &desc.sprites[i];
            let mut chain = p.parents.clone();
            chain.push(p.name.clone());
            (chain, p.params.clone(), p.class.clone())
        }
        None => (Vec::new(), BTreeMap::new(), None),
    };
    for p in own {
        inherited.insert(p.key, p.value);
    }
    if let Some(i) = parent {
        desc.sprites[i].children.push(name.to_string());
        nestings.push((i, name.to_string(), line.number));
    }
    let class = own_class.or(parent_class);
    let at = match sprite_at.get(name).copied() {
        // Defined again (a few games do, under another group): as in GVGAI, the
        // later definition gives the class and parameters, and the sprite
        // belongs to the groups of both places.
        Some(i) => {
            let s = &mut desc.sprites[i];
            s.class = class.or(s.class.take());
            s.params.extend(inherited);
            for p in parents.drain(..) {
                if !s.parents.contains(&p) {
                    s.parents.push(p);
                }
            }
            i
        }
        None => {
            desc.sprites.push(SpriteDef {
                name: name.to_string(),
                class,
                params: inherited,
                parents: std::mem::take(&mut parents),
                children: Vec::new(),
                line: line.number,
            });
            sprite_at.insert(name.to_string(), desc.sprites.len() - 1);
            desc.sprites.len() - 1
        }
    };
    stack.push((line.indent, at));
    Ok(())
}

/// Reads a line of the level mapping: one character and the sprites of its cells.
fn mapping_line(
    desc: &mut GameDesc,
    mapped: &mut HashSet<char>,
    line: &Line<'_>,
    fail: &impl Fn(String) -> VgdlError,
) -> Result<(), VgdlError> {
    let (key, rest) = line
        .content
        .split_once('>')
        .ok_or_else(|| fail("a mapping is written “c > sprite sprite”".into()))?;
    let mut chars = key.trim().chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return Err(fail(format!("“{}” is not one level character", key.trim())));
    };
    let sprites: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
    // Every cell of the character holds the list (F28: 20,000 sprites a cell).
    if sprites.len() > MAX_SPRITES_PER_CELL {
        return Err(fail(format!(
            "the level character “{c}” places {} sprites in a cell; at most \
             {MAX_SPRITES_PER_CELL}",
            sprites.len()
        )));
    }
    if !mapped.insert(c) {
        return Err(fail(format!("the level character “{c}” is mapped twice")));
    }
    desc.mapping.push((c, sprites));
    Ok(())
}

/// Reads a line of the interaction set: one rule per second sprite named.
fn interaction_line(
    desc: &mut GameDesc,
    line: &Line<'_>,
    fail: &impl Fn(String) -> VgdlError,
) -> Result<(), VgdlError> {
    let (pair, rest) = line
        .content
        .split_once('>')
        .ok_or_else(|| fail("a rule is written “actor actee > effect key=value”".into()))?;
    let mut names = pair.split_whitespace();
    let actor = names
        .next()
        .ok_or_else(|| fail("a rule names its actor before the >".into()))?;
    let actees: Vec<&str> = names.collect();
    if actees.is_empty() {
        return Err(fail(format!(
            "the rule of “{actor}” names no second sprite"
        )));
    }
    let mut words = rest.split_whitespace();
    let effect = words
        .next()
        .ok_or_else(|| fail("a rule names its effect after the >".into()))?;
    let params = params(words, &fail)?;
    for actee in actees {
        desc.interactions.push(Interaction {
            actor: actor.to_string(),
            actee: actee.to_string(),
            effect: effect.to_string(),
            params: params.clone(),
            line: line.number,
        });
    }
    Ok(())
}

/// Refuses a sprite nested under itself, directly or through other groups (`floor >` under
/// `floor`, or `left` under `right` under `left`): every later walk of the sprite tree would
/// never end. One depth-first walk over the nestings as written; the error names the line that
/// closes the cycle and the cycle itself.
fn check_nesting(
    desc: &GameDesc,
    nestings: &[(usize, String, usize)],
    file: &str,
) -> Result<(), VgdlError> {
    let index: HashMap<&str, usize> = desc
        .sprites
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    let mut edges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); desc.sprites.len()];
    for (parent, child, line) in nestings {
        if let Some(&c) = index.get(child.as_str()) {
            edges[*parent].push((c, *line));
        }
    }
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; desc.sprites.len()];
    for root in 0..desc.sprites.len() {
        if state[root] != 0 {
            continue;
        }
        // The path: (sprite, next edge to follow).
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (at, ref mut next)) = path.last_mut() {
            let Some(&(child, line)) = edges[at].get(*next) else {
                state[at] = 2;
                path.pop();
                continue;
            };
            *next += 1;
            match state[child] {
                0 => {
                    state[child] = 1;
                    path.push((child, 0));
                }
                1 => {
                    let from = path.iter().position(|&(s, _)| s == child).unwrap_or(0);
                    let mut cycle: Vec<&str> = path[from..]
                        .iter()
                        .map(|&(s, _)| desc.sprites[s].name.as_str())
                        .collect();
                    cycle.push(&desc.sprites[child].name);
                    return Err(VgdlError {
                        file: file.to_string(),
                        line,
                        message: format!(
                            "“{}” is nested under itself ({}): a sprite cannot be its own \
                             group; rename one of them",
                            desc.sprites[child].name,
                            cycle.join(" > ")
                        ),
                    });
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The most sprites one level character may place in a cell.
pub const MAX_SPRITES_PER_CELL: usize = 64;

/// The level characters every game has unless its mapping says otherwise.
pub const DEFAULT_MAPPING: [(char, &str); 2] = [('w', "wall"), ('A', "avatar")];

/// Names GVGAI knows without a definition: `wall` and `avatar` (always registered, so a rule
/// may name them in a game that has none), the screen's edge `EOS` and the clock `TIME` (the
/// last two in any case).
fn built_in(name: &str) -> bool {
    matches!(name, "wall" | "avatar")
        || name.eq_ignore_ascii_case("EOS")
        || name.eq_ignore_ascii_case("TIME")
}

/// Every name a rule or termination uses is a sprite of the set (or one GVGAI knows).
fn check_names(desc: &GameDesc, file: &str) -> Result<(), VgdlError> {
    let names: HashSet<&str> = desc.sprites.iter().map(|s| s.name.as_str()).collect();
    let known = |n: &str| built_in(n) || names.contains(n);
    let unknown = |line: usize, what: &str, name: &str| VgdlError {
        file: file.to_string(),
        line,
        message: format!("{what} names “{name}”, which the sprite set does not define"),
    };
    for i in &desc.interactions {
        for name in [&i.actor, &i.actee] {
            if !known(name) {
                return Err(unknown(i.line, "the rule", name));
            }
        }
    }
    for t in &desc.terminations {
        for p in t.params.iter().filter(|p| p.key.starts_with("stype")) {
            if !known(&p.value) {
                return Err(unknown(t.line, "the termination", &p.value));
            }
        }
    }
    Ok(())
}

/// A level of a game, as its file and the game's mapping place it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelDesc {
    /// Columns: the first row's length, as GVGAI takes it.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Each cell's sprites, row by row, in the mapping's order (GVGAI places them in it).
    pub cells: Vec<Vec<String>>,
    /// Characters the mapping does not have, with how many cells hold each: GVGAI leaves such
    /// cells empty, so the studio does too, and says so.
    pub unmapped: Vec<(char, usize)>,
}

impl LevelDesc {
    /// The sprites of cell `(x, y)`.
    pub fn at(&self, x: usize, y: usize) -> &[String] {
        self.cells
            .get(y * self.width + x)
            .map_or(&[][..], Vec::as_slice)
    }
}

/// Reads a level of `game`: one character a cell, rows as lines; a row shorter than the first
/// is padded with spaces and a longer one cut, as GVGAI does. `file` names it in errors.
///
/// # Errors
/// [`VgdlError`] for a file without a row.
pub fn read_level(game: &GameDesc, text: &str, file: &str) -> Result<LevelDesc, VgdlError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    while rows
        .last()
        .is_some_and(|r| r.iter().all(|c| c.is_whitespace()))
    {
        rows.pop();
    }
    let width = rows.first().map_or(0, Vec::len);
    if width == 0 {
        return Err(VgdlError {
            file: file.to_string(),
            line: 1,
            message: "the level has no row".into(),
        });
    }
    let mapping: BTreeMap<char, &Vec<String>> = game.mapping.iter().map(|(c, s)| (*c, s)).collect();
    let mut unmapped: BTreeMap<char, usize> = BTreeMap::new();
    let mut cells = Vec::with_capacity(width * rows.len());
    for row in &rows {
        for x in 0..width {
            let c = row.get(x).copied().unwrap_or(' ');
            match mapping.get(&c) {
                Some(sprites) => cells.push((*sprites).clone()),
                None => {
                    *unmapped.entry(c).or_default() += 1;
                    cells.push(Vec::new());
                }
            }
        }
    }
    Ok(LevelDesc {
        width,
        height: rows.len(),
        cells,
        unmapped: unmapped.into_iter().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small game of our own, in GVGAI's layout.
    const GAME: &str = "BasicGame square_size=30 # a comment
  SpriteSet
    floor > Immovable hidden=True
    exit > Door color=GREEN
    movers >
      hero > MovingAvatar speed=1
      foe > RandomNPC cooldown=4
        fastFoe > cooldown=1
    rock > Immovable

  LevelMapping
    . > floor
    e > floor exit
    A > floor hero
    f > floor foe
    F > floor fastFoe
    r > rock

  InteractionSet
    movers rock > stepBack
    hero foe fastFoe > killSprite scoreChange=-1
    exit hero > killSprite scoreChange=1

  TerminationSet
    SpriteCounter stype=exit win=True
    SpriteCounter stype=hero win=False
    Timeout limit=500 win=False
";

    #[test]
    fn a_game_reads_into_its_sprite_tree_mapping_rules_and_terminations() {
        let g = parse(GAME, "mine.txt").unwrap();
        assert_eq!(g.class, "BasicGame");
        assert_eq!(
            g.params,
            vec![Param {
                key: "square_size".into(),
                value: "30".into()
            }]
        );
        let fast = g.sprite("fastFoe").unwrap();
        assert_eq!(
            fast.class.as_deref(),
            Some("RandomNPC"),
            "the class is inherited"
        );
        assert_eq!(
            fast.params["cooldown"], "1",
            "its own parameter overrides its parent's"
        );
        assert_eq!(fast.parents, ["movers", "foe"]);
        assert_eq!(fast.line, 8);
        assert_eq!(g.sprite("movers").unwrap().class, None);
        assert_eq!(g.sprite("movers").unwrap().children, ["hero", "foe"]);
        assert_eq!(g.sprite("rock").unwrap().parents, Vec::<String>::new());
        let leaves: Vec<&str> = g
            .leaves_of("movers")
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(leaves, ["hero", "fastFoe"]);
        assert_eq!(
            g.mapping.len(),
            7,
            "the six of the file and GVGAI's w (A is the file's)"
        );
        assert_eq!(g.mapping[6], ('w', vec!["wall".to_string()]));
        assert_eq!(
            g.mapping[1],
            ('e', vec!["floor".to_string(), "exit".to_string()])
        );
        // One rule per actee, in the file's order.
        let rules: Vec<(&str, &str, &str)> = g
            .interactions
            .iter()
            .map(|i| (i.actor.as_str(), i.actee.as_str(), i.effect.as_str()))
            .collect();
        assert_eq!(
            rules,
            [
                ("movers", "rock", "stepBack"),
                ("hero", "foe", "killSprite"),
                ("hero", "fastFoe", "killSprite"),
                ("exit", "hero", "killSprite"),
            ]
        );
        assert_eq!(g.interactions[1].params[0].value, "-1");
        assert_eq!(g.terminations.len(), 3);
        assert_eq!(g.terminations[2].class, "Timeout");
    }

    #[test]
    fn every_problem_names_the_file_and_line() {
        let bad = |text: &str| parse(text, "bad.txt").unwrap_err();
        let e = bad("BasicGame\n  SpriteSet\n    a Immovable\n");
        assert_eq!((e.line, e.file.as_str()), (3, "bad.txt"));
        assert!(e.message.contains("name > Class"), "{e}");
        let e = bad("BasicGame\n    a > Immovable\n");
        assert!(e.message.contains("outside any set"), "{e}");
        let e = bad(
            "BasicGame\n  SpriteSet\n    a > Immovable\n  InteractionSet\n    a b > stepBack\n",
        );
        assert_eq!(e.line, 5);
        assert!(
            e.message
                .contains("“b”, which the sprite set does not define"),
            "{e}"
        );
        let e = bad("BasicGame\n  LevelMapping\n    a > x\n    a > y\n");
        assert!(e.message.contains("mapped twice"), "{e}");
        let e = bad("BasicGame\n  SpriteSet\n    a > Immovable limit\n");
        assert!(e.message.contains("“limit” is not a parameter"), "{e}");
        let e = bad("BasicGame\n  LevelMapping\n    ab > a\n");
        assert!(e.message.contains("not one level character"), "{e}");
        let e = bad("BasicGame\n  SpriteSet\n    a > Immovable\n  TerminationSet\n    SpriteCounter stype=z win=True\n");
        assert!(e.message.contains("termination names “z”"), "{e}");
        assert_eq!(
            bad("# nothing\n").to_string(),
            "bad.txt:1: the file holds no game description"
        );
        let many = format!(
            "BasicGame\n  SpriteSet\n    floor > Immovable\n  LevelMapping\n    x > {}\n",
            "floor ".repeat(20_000)
        );
        let e = bad(&many);
        assert_eq!(e.line, 5);
        assert!(
            e.message
                .contains("places 20000 sprites in a cell; at most 64"),
            "{e}"
        );
        // A megabyte-long line is quoted in part (F37).
        let long = format!("BasicGame\n    {} > Immovable\n", "x".repeat(1 << 20));
        let shown = bad(&long).to_string();
        assert!(
            shown.len() < 1_000 && shown.contains("more characters)"),
            "{}",
            shown.len()
        );
    }

    #[test]
    fn a_sprite_nested_under_itself_is_refused_at_the_line_that_nests_it() {
        let bad = |text: &str| parse(text, "bad.txt").unwrap_err();
        // Directly (a renamed child), through two groups, and by a line duplicated with tabs
        // (GVGAI counts a tab as one column): F26, which overflowed the stack.
        let e = bad("BasicGame\n  SpriteSet\n    floor > Immovable\n      floor >\n");
        assert_eq!(e.line, 4);
        assert!(
            e.message
                .contains("“floor” is nested under itself (floor > floor)"),
            "{e}"
        );
        let e =
            bad("BasicGame\n  SpriteSet\n    left >\n      right >\n    right >\n      left >\n");
        assert_eq!(e.line, 6);
        assert!(e.message.contains("(left > right > left)"), "{e}");
        let e = bad(
            "BasicGame\n  SpriteSet\n    enemy >\n        bat > RandomNPC\n\t\t\t\t\tbat > RandomNPC\n        bat > RandomNPC\n",
        );
        assert!(e.message.contains("“bat” is nested under itself"), "{e}");
        // A deep tree without a cycle, and a sprite defined again under another group, still
        // read.
        let deep: String = (0..200)
            .map(|d| format!("{}s{d} >\n", " ".repeat(4 + d)))
            .collect();
        assert!(parse(&format!("BasicGame\n  SpriteSet\n{deep}"), "deep.txt").is_ok());
        assert!(parse(
            "BasicGame\n  SpriteSet\n    a >\n      c > Immovable\n    b >\n      c > Immovable\n",
            "twice.txt"
        )
        .is_ok());
    }

    #[test]
    fn built_in_names_and_a_sprite_defined_twice_read_as_gvgai_reads_them() {
        let g = parse(
            "BasicGame
  SpriteSet
    left >
      mole > Immovable img=a
    right >
      mole > RandomNPC cooldown=2
  InteractionSet
    mole wall EOS > stepBack
    mole TIME > killSprite timer=10
    mole eos > stepBack
",
            "twice.txt",
        )
        .unwrap();
        let mole = g.sprite("mole").unwrap();
        assert_eq!(
            mole.class.as_deref(),
            Some("RandomNPC"),
            "the later definition"
        );
        assert_eq!(mole.params["cooldown"], "2");
        assert_eq!(mole.parents, ["left", "right"], "in both groups");
        assert_eq!(g.sprites.len(), 3);
        assert_eq!(g.interactions.len(), 4);
    }

    #[test]
    fn a_level_places_each_characters_sprites_and_notes_the_unmapped_ones() {
        let g = parse(GAME, "mine.txt").unwrap();
        let level = read_level(&g, "rrrrr\nrA.e\nrfFzr\n\n", "l.txt").unwrap();
        assert_eq!((level.width, level.height), (5, 3));
        assert_eq!(level.at(1, 1), ["floor", "hero"]);
        assert_eq!(
            level.at(4, 1),
            Vec::<String>::new(),
            "a short row is padded"
        );
        assert_eq!(level.at(2, 2), ["floor", "fastFoe"]);
        assert_eq!(level.unmapped, vec![(' ', 1), ('z', 1)]);
        assert_eq!(
            read_level(&g, "\n", "e.txt").unwrap_err().to_string(),
            "e.txt:1: the level has no row"
        );
    }
}
