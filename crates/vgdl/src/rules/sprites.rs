//! The sprite set compiled: each type numbered as GVGAI numbers it, with its class, its
//! parameters read into its starting values, its subtypes, and the sprite order.

use std::collections::{HashMap, HashSet};

use super::class::{Class, LOOKS, SPRITE_PARAMS};
use super::{error, Dir, Kind, ParamReader};
use crate::description::{GameDesc, Param, SpriteDef, VgdlError};

/// A sprite type, compiled.
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// Its name.
    pub name: String,
    /// Its class; `None` for a group that no level places.
    pub class: Option<Class>,
    /// Its line in the file (0 for the built-in `wall` and `avatar`).
    pub line: usize,
    /// True when no type is nested under it.
    pub leaf: bool,
    /// Its ancestors and itself, outermost first (GVGAI's `itypes`).
    pub itypes: Vec<Kind>,
    /// The singleton flag: never two of it at once.
    pub singleton: bool,
    /// The sprite it starts as (position and size set when placed).
    pub proto: Proto,
}

/// The values a new sprite of a type starts with.
#[derive(Clone, Debug)]
pub struct Proto {
    /// Speed, in cells a move (GVGAI's `speed`).
    pub speed: f64,
    /// Ticks between moves (at least 1).
    pub cooldown: i32,
    /// Its direction.
    pub orientation: Dir,
    /// Whether it has a direction.
    pub oriented: bool,
    /// Whether it never moves by itself.
    pub is_static: bool,
    /// Whether it turns before moving.
    pub rotate_in_place: bool,
    /// Health points, their maximum and their limit.
    pub hp: (i32, i32, i32),
    /// `limit` of a flicker (ticks) or a resource (the most one may hold).
    pub limit: i32,
    /// `value` of a resource; `cons` of a random mover.
    pub value: i32,
    /// `prob` of a spawn point.
    pub prob: f64,
    /// `total` of a spawn point (0: no end).
    pub total: i32,
    /// The type a spawn point, chaser or shooter names (`stype`).
    pub stype: Option<Kind>,
    /// A spawn point's orientation for what it spawns.
    pub spawn_orientation: Dir,
    /// A chaser's largest distance (-1: any).
    pub max_distance: f64,
    /// A shooter's ammunition (a resource type), if it needs one.
    pub ammo: Option<Kind>,
    /// Ticks to live (-1: no end), GVGAI's `timeToLive`.
    pub ttl: i32,
    /// A spreader's chance to spread to each neighbour.
    pub spread_prob: f64,
    /// A random-missile bomber's missiles.
    pub missiles: Vec<Kind>,
    /// What an ongoing turning avatar leaves where it was.
    pub behind: Kind,
    /// A flak avatar's least ammunition to shoot (-1: any) and what a shot costs.
    pub min_ammo: i32,
    /// See `min_ammo`.
    pub ammo_cost: i32,
}

/// The sprite set, compiled: each type by name, each type in GVGAI's numbering, each
/// type's subtypes, and the sprite order.
pub(super) struct SpriteSet {
    pub(super) by_name: HashMap<String, Kind>,
    pub(super) types: Vec<TypeDef>,
    pub(super) subtypes: Vec<Vec<Kind>>,
    pub(super) order: Vec<Kind>,
}

/// Compiles the sprite set, listing in `missing` the classes and parameters the engine does
/// not run.
pub(super) fn compile(
    desc: &GameDesc,
    file: &str,
    missing: &mut Vec<VgdlError>,
) -> Result<SpriteSet, VgdlError> {
    // GVGAI's numbering: wall, avatar, then the sprite set in the file's order.
    // Names are looked up by hash: a walk over every type for each name made loading
    // quadratic (F33).
    let mut names: Vec<String> = vec!["wall".into(), "avatar".into()];
    let mut by_name: HashMap<String, Kind> = HashMap::new();
    by_name.insert("wall".into(), 0);
    by_name.insert("avatar".into(), 1);
    for s in &desc.sprites {
        if !by_name.contains_key(&s.name) {
            by_name.insert(s.name.clone(), names.len());
            names.push(s.name.clone());
        }
    }
    let defs: HashMap<&str, &SpriteDef> = desc
        .sprites
        .iter()
        .rev()
        .map(|d| (d.name.as_str(), d))
        .collect();
    let kind_of = |name: &str| by_name.get(name).copied();
    let mut types = Vec::with_capacity(names.len());
    for name in &names {
        let def = defs.get(name.as_str()).copied();
        let kind = types.len();
        types.push(type_def(name, kind, def, file, &kind_of, missing)?);
    }
    let subtypes = subtypes(&names, &defs, &types, &kind_of);
    let order = sprite_order(desc, &kind_of);
    Ok(SpriteSet {
        by_name,
        types,
        subtypes,
        order,
    })
}

/// The type `name`, number `kind`, from its definition `def` (none for a built-in the file
/// does not define).
fn type_def(
    name: &str,
    kind: Kind,
    def: Option<&SpriteDef>,
    file: &str,
    kind_of: &dyn Fn(&str) -> Option<Kind>,
    missing: &mut Vec<VgdlError>,
) -> Result<TypeDef, VgdlError> {
    let (class_name, params, line, leaf, parents) = match def {
        Some(d) => (
            d.class.clone(),
            d.params
                .iter()
                .map(|(k, v)| Param {
                    key: k.clone(),
                    value: v.clone(),
                })
                .collect::<Vec<_>>(),
            d.line,
            d.is_leaf(),
            d.parents.clone(),
        ),
        // The built-ins GVGAI defines when the file does not.
        None if name == "wall" => (Some("Immovable".into()), Vec::new(), 0, true, vec![]),
        None => (Some("MovingAvatar".into()), Vec::new(), 0, true, vec![]),
    };
    let class = class_of(name, class_name.as_deref(), leaf, line, file, missing);
    let reader = ParamReader {
        params: &params,
        file,
        line,
    };
    for p in &params {
        let own = class.map_or(&[][..], Class::own_params);
        let known = SPRITE_PARAMS.contains(&p.key.as_str())
            || LOOKS.contains(&p.key.as_str())
            || own.contains(&p.key.as_str());
        // A group's parameters only matter to the sprites under it, which check them.
        if !known && class.is_some() {
            missing.push(error(
                file,
                line,
                format!(
                    "the parameter {}={} of {name} ({}) is not supported yet",
                    p.key,
                    p.value,
                    class_name.as_deref().unwrap_or("")
                ),
            ));
        }
    }
    let proto = proto(class, leaf, &reader, kind_of)?;
    let mut itypes: Vec<Kind> = parents.iter().filter_map(|p| kind_of(p)).collect();
    itypes.push(kind);
    Ok(TypeDef {
        name: name.to_string(),
        class,
        line,
        leaf,
        itypes,
        singleton: reader.flag("singleton")?,
        proto,
    })
}

/// The class named `class_name` of the sprite `name`; none (listed in `missing`) for a class
/// the engine does not run, or for a leaf without a class.
fn class_of(
    name: &str,
    class_name: Option<&str>,
    leaf: bool,
    line: usize,
    file: &str,
    missing: &mut Vec<VgdlError>,
) -> Option<Class> {
    match class_name {
        // A sprite a level places or a rule makes needs a class (its own or a parent's):
        // without one it never moves and stacks where it is made (the probe's lasers
        // with the word `Missile` lost; F34).
        None if leaf => {
            missing.push(error(
                file,
                line,
                format!(
                    "the sprite {name} has no class, its own or a parent's (e.g. \
                     `{name} > Immovable`)"
                ),
            ));
            None
        }
        None => None,
        Some(c) => match Class::named(c) {
            Some(class) => Some(class),
            None => {
                missing.push(error(
                    file,
                    line,
                    format!("the sprite class {c} (of {name}) is not supported yet"),
                ));
                None
            }
        },
    }
}

/// Subtypes as GVGAI lists them: a type's own chain, then its children's subtypes.
fn subtypes(
    names: &[String],
    defs: &HashMap<&str, &SpriteDef>,
    types: &[TypeDef],
    kind_of: &dyn Fn(&str) -> Option<Kind>,
) -> Vec<Vec<Kind>> {
    let mut subtypes: Vec<Vec<Kind>> = vec![Vec::new(); types.len()];
    let children: Vec<Vec<Kind>> = names
        .iter()
        .map(|n| {
            defs.get(n.as_str())
                .map(|d| d.children.iter().filter_map(|c| kind_of(c)).collect())
                .unwrap_or_default()
        })
        .collect();
    fn fill(
        k: Kind,
        types: &[TypeDef],
        children: &[Vec<Kind>],
        out: &mut Vec<Vec<Kind>>,
    ) -> Vec<Kind> {
        if !out[k].is_empty() {
            return out[k].clone();
        }
        let mut list = types[k].itypes.clone();
        let mut listed: HashSet<Kind> = list.iter().copied().collect();
        for &c in &children[k] {
            for s in fill(c, types, children, out) {
                if listed.insert(s) {
                    list.push(s);
                }
            }
        }
        out[k] = list.clone();
        list
    }
    for k in 0..types.len() {
        fill(k, types, &children, &mut subtypes);
    }
    subtypes
}

/// The sprite order: wall and avatar first, then each leaf where it is (last) defined;
/// the avatar moved to the end. (A name is defined once in `desc.sprites`, so only the
/// built-ins' first places are ever taken back.)
fn sprite_order(desc: &GameDesc, kind_of: &dyn Fn(&str) -> Option<Kind>) -> Vec<Kind> {
    let mut order_tmp: Vec<Kind> = vec![0, 1];
    for s in desc.sprites.iter().filter(|s| s.is_leaf()) {
        if let Some(k) = kind_of(&s.name) {
            if k < 2 {
                order_tmp.retain(|&o| o != k);
            }
            order_tmp.push(k);
        }
    }
    let mut order: Vec<Kind> = order_tmp.iter().copied().filter(|&k| k != 1).collect();
    order.push(1);
    order
}

/// A type's starting values, from its class's defaults and its parameters.
fn proto(
    class: Option<Class>,
    leaf: bool,
    p: &ParamReader<'_>,
    kind_of: &dyn Fn(&str) -> Option<Kind>,
) -> Result<Proto, VgdlError> {
    use Class::*;
    let c = class.unwrap_or(Immovable);
    let speed_default = c.default_speed();
    let oriented_default = c.oriented_by_default();
    let orientation_default = c.default_orientation();
    let orientation = match p.get("orientation") {
        None => orientation_default,
        Some(v) => {
            Dir::named(v).ok_or_else(|| p.err(format!("orientation={v} is no direction")))?
        }
    };
    let dir_param = |key: &str| -> Result<Dir, VgdlError> {
        match p.get(key) {
            None => Ok(Dir::NONE),
            Some(v) => Dir::named(v).ok_or_else(|| p.err(format!("{key}={v} is no direction"))),
        }
    };
    let hp = p.int("healthPoints", 0)?;
    let mut max_hp = p.int("maxHealthPoints", 0)?;
    if max_hp == 0 {
        max_hp = hp;
    }
    let stype = match p.get("stype") {
        None => None,
        // A shooter with several weapons (`a,b`) shoots the first.
        Some(v) => {
            let first = v.split(',').next().unwrap_or(v);
            Some(
                kind_of(first)
                    .ok_or_else(|| p.err(format!("stype={v} is not a sprite of the game")))?,
            )
        }
    };
    // A group's sprites name their own (the group's class only passes on).
    if leaf && c.needs_stype() && stype.is_none() {
        return Err(p.err(format!("a {c:?} needs its stype=")));
    }
    let ammo = match p.get("ammo") {
        None => None,
        Some(v) => {
            Some(kind_of(v).ok_or_else(|| p.err(format!("ammo={v} is not a sprite of the game")))?)
        }
    };
    let limit_default = match c {
        Resource => 2,
        _ => 1,
    };
    let missiles = match p.get("stypeMissile").or(p.get("stypes")) {
        None => Vec::new(),
        Some(v) => v
            .split(',')
            .map(|m| {
                kind_of(m).ok_or_else(|| {
                    p.err(format!("stypeMissile={v}: {m} is not a sprite of the game"))
                })
            })
            .collect::<Result<_, _>>()?,
    };
    if leaf && c == BomberRandomMissile && missiles.is_empty() {
        return Err(p.err("a BomberRandomMissile needs its stypeMissile=".into()));
    }
    // What an ongoing turning avatar leaves behind (GVGAI's type 0, the wall, when unset).
    let behind = match p.get("spawnBehind") {
        None => 0,
        Some(v) => kind_of(v)
            .ok_or_else(|| p.err(format!("spawnBehind={v} is not a sprite of the game")))?,
    };
    let value_key = if c == Resource { "value" } else { "cons" };
    let value_default = i32::from(c == Resource);
    Ok(Proto {
        speed: p.float("speed", speed_default)?,
        cooldown: p
            .int(
                "cooldown",
                if matches!(c, SpawnPoint | Bomber) {
                    1
                } else {
                    0
                },
            )?
            .max(1),
        oriented: oriented_default || !orientation.is_none(),
        orientation,
        is_static: matches!(
            c,
            Immovable | Door | SpawnPoint | Portal | SpawnPointMultiSprite
        ),
        rotate_in_place: p.get("rotateInPlace").map_or(
            matches!(
                c,
                OrientedAvatar
                    | ShootAvatar
                    | MissileAvatar
                    | OngoingAvatar
                    | OngoingShootAvatar
                    | OngoingTurningAvatar
            ),
            |v| v.eq_ignore_ascii_case("true"),
        ),
        hp: (hp.min(max_hp), max_hp, p.int("limitHealthPoints", 1000)?),
        limit: p.int("limit", limit_default)?,
        value: p.int(value_key, value_default)?,
        prob: p.float("prob", 1.0)?,
        total: p.int("total", 0)?,
        stype,
        spawn_orientation: dir_param("spawnorientation")?,
        max_distance: p.float("maxDistance", -1.0)?,
        ammo,
        ttl: p.int("timeToLive", -1)?,
        spread_prob: p.float("spreadprob", 1.0)?,
        missiles,
        behind,
        min_ammo: p.int("minAmmo", -1)?,
        ammo_cost: p.int("ammoCost", 1)?,
    })
}
