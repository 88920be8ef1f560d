//! A [`GameDesc`] compiled into what the engine runs: sprite types numbered as GVGAI numbers
//! them, each with its class and parameters read into values, the sprite order (the order
//! of updates), each type's subtypes, the interaction set grouped by pair of types as GVGAI
//! groups it, and the terminations. Everything the engine does not support is refused here,
//! as `FILE:LINE: what`, so a game either runs as GVGAI runs it or says why not.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::{GameDesc, Param, SpriteDef, VgdlError};

/// A sprite type's index (GVGAI's `itype`): `wall` 0, `avatar` 1, then the sprite set's
/// sprites in the order of the file.
pub type Kind = usize;

/// A direction (GVGAI's `Direction`: unit vectors, or none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dir {
    /// Right is +1.
    pub x: f64,
    /// Down is +1.
    pub y: f64,
}

impl Dir {
    /// No direction.
    pub const NONE: Dir = Dir { x: 0.0, y: 0.0 };
    /// Up.
    pub const UP: Dir = Dir { x: 0.0, y: -1.0 };
    /// Down.
    pub const DOWN: Dir = Dir { x: 0.0, y: 1.0 };
    /// Left.
    pub const LEFT: Dir = Dir { x: -1.0, y: 0.0 };
    /// Right.
    pub const RIGHT: Dir = Dir { x: 1.0, y: 0.0 };
    /// GVGAI's "not chosen yet" direction of a random missile.
    pub const NIL: Dir = Dir { x: -1.0, y: -1.0 };
    /// GVGAI's base directions in its order (random moves index this list).
    pub const BASE: [Dir; 4] = [Dir::UP, Dir::LEFT, Dir::DOWN, Dir::RIGHT];

    /// True for no direction.
    pub fn is_none(self) -> bool {
        self.x == 0.0 && self.y == 0.0
    }

    /// The vector scaled to length one (none stays none), as GVGAI's `normalise`.
    pub fn normalised(self) -> Dir {
        let m = (self.x * self.x + self.y * self.y).sqrt();
        if m == 0.0 {
            Dir::NONE
        } else {
            Dir {
                x: self.x / m,
                y: self.y / m,
            }
        }
    }

    fn named(word: &str) -> Option<Dir> {
        match word.to_ascii_uppercase().as_str() {
            "UP" => Some(Dir::UP),
            "DOWN" => Some(Dir::DOWN),
            "LEFT" => Some(Dir::LEFT),
            "RIGHT" => Some(Dir::RIGHT),
            "NONE" => Some(Dir::NONE),
            _ => None,
        }
    }
}

/// The sprite classes the engine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Never moves.
    Immovable,
    /// An immovable the avatar may walk into (GVGAI's portal flag only).
    Door,
    /// Moves only when pushed.
    Passive,
    /// A collectible amount of itself.
    Resource,
    /// Lives `limit` ticks.
    Flicker,
    /// A flicker with a direction (a sword's slash).
    OrientedFlicker,
    /// Moves straight on in its direction.
    Missile,
    /// Moves in a random direction, keeping it `cons` moves.
    RandomNPC,
    /// Moves towards the nearest sprite of `stype` (or away: `Fleeing`).
    Chaser,
    /// Chaser's opposite.
    Fleeing,
    /// Spawns `stype` with probability `prob` every `cooldown` ticks.
    SpawnPoint,
    /// A spawn point that moves like a missile.
    Bomber,
    /// The player: moves in four directions.
    MovingAvatar,
    /// The player, turning before it moves.
    OrientedAvatar,
    /// An oriented player that shoots `stype` with USE.
    ShootAvatar,
    /// The player, moving only left and right.
    HorizontalAvatar,
    /// The player, moving only up and down.
    VerticalAvatar,
    /// A horizontal player that shoots `stype` upwards with USE.
    FlakAvatar,
    /// A flicker that spreads copies of `stype` (or itself) to its four neighbours.
    Spreader,
    /// An immovable that names where `teleportToExit` sends a sprite (`stype`).
    Portal,
    /// A missile that picks a random direction when it first moves.
    RandomMissile,
    /// The player as a missile: always moving on, the keys only given.
    MissileAvatar,
    /// A spawn point that moves in a random direction every tick.
    RandomBomber,
    /// A bomber that spawns one of several missiles (`stypeMissile`) at random.
    BomberRandomMissile,
    /// The player always moving on; the keys turn it.
    OngoingAvatar,
    /// An ongoing player that shoots with USE.
    OngoingShootAvatar,
    /// An ongoing player that turns only sideways and leaves `spawnBehind` where it was.
    OngoingTurningAvatar,
    /// A spawn point that spawns each of `stypes` at once.
    SpawnPointMultiSprite,
    /// A chaser that sees only along its last direction.
    LOSChaser,
}

impl Class {
    fn named(word: &str) -> Option<Class> {
        Some(match word {
            "Immovable" => Class::Immovable,
            "Door" => Class::Door,
            "Passive" => Class::Passive,
            "Resource" => Class::Resource,
            "Flicker" => Class::Flicker,
            "OrientedFlicker" => Class::OrientedFlicker,
            "Missile" => Class::Missile,
            "RandomNPC" => Class::RandomNPC,
            "Chaser" => Class::Chaser,
            "Fleeing" => Class::Fleeing,
            "SpawnPoint" => Class::SpawnPoint,
            "Bomber" => Class::Bomber,
            "MovingAvatar" => Class::MovingAvatar,
            "OrientedAvatar" => Class::OrientedAvatar,
            "ShootAvatar" => Class::ShootAvatar,
            "HorizontalAvatar" => Class::HorizontalAvatar,
            "VerticalAvatar" => Class::VerticalAvatar,
            "FlakAvatar" => Class::FlakAvatar,
            "Spreader" => Class::Spreader,
            "Portal" => Class::Portal,
            "RandomMissile" => Class::RandomMissile,
            "MissileAvatar" => Class::MissileAvatar,
            "RandomBomber" => Class::RandomBomber,
            "BomberRandomMissile" => Class::BomberRandomMissile,
            "OngoingAvatar" => Class::OngoingAvatar,
            "OngoingShootAvatar" => Class::OngoingShootAvatar,
            "OngoingTurningAvatar" => Class::OngoingTurningAvatar,
            "SpawnPointMultiSprite" => Class::SpawnPointMultiSprite,
            "LOSChaser" => Class::LOSChaser,
            _ => return None,
        })
    }

    /// True for the player's classes.
    pub fn is_avatar(self) -> bool {
        matches!(
            self,
            Class::MovingAvatar
                | Class::OrientedAvatar
                | Class::ShootAvatar
                | Class::HorizontalAvatar
                | Class::VerticalAvatar
                | Class::FlakAvatar
                | Class::MissileAvatar
                | Class::OngoingAvatar
                | Class::OngoingShootAvatar
                | Class::OngoingTurningAvatar
        )
    }

    /// The parameters the class reads (beyond every sprite's).
    fn own_params(self) -> &'static [&'static str] {
        match self {
            Class::Resource => &["value", "limit"],
            Class::Flicker | Class::OrientedFlicker => &["limit"],
            Class::Spreader => &["limit", "stype", "spreadprob"],
            Class::Portal => &["stype"],
            Class::RandomNPC => &["cons"],
            Class::Chaser | Class::Fleeing | Class::LOSChaser => &["cons", "stype", "maxDistance"],
            Class::OngoingTurningAvatar => &["spawnBehind"],
            Class::SpawnPointMultiSprite => &["prob", "total", "stypes", "spawnorientation"],
            Class::SpawnPoint | Class::Bomber | Class::RandomBomber => {
                &["prob", "total", "stype", "spawnorientation"]
            }
            Class::BomberRandomMissile => {
                &["prob", "total", "stype", "spawnorientation", "stypeMissile"]
            }
            Class::ShootAvatar | Class::OngoingShootAvatar => &["stype", "ammo"],
            Class::FlakAvatar => &["stype", "ammo", "minAmmo", "ammoCost"],
            _ => &[],
        }
    }
}

/// Parameters every sprite reads, and those that only change how it looks (GVGAI draws them;
/// the engine has nothing to do with them).
const SPRITE_PARAMS: [&str; 9] = [
    "timeToLive",
    "speed",
    "cooldown",
    "orientation",
    "singleton",
    "healthPoints",
    "maxHealthPoints",
    "limitHealthPoints",
    "rotateInPlace",
];
const LOOKS: [&str; 11] = [
    "img",
    "color",
    "hidden",
    "invisible",
    "autotiling",
    "randomtiling",
    "frameRate",
    "shrinkfactor",
    "portal",
    "draw_arrow",
    "orientedImg",
];

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

/// An interaction's effect with its parameters read.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Back to where it was before this tick's moves (with `pixelPerfect`, just out of the
    /// other sprite instead).
    StepBack {
        /// Stop at the other sprite's edge.
        pixel_perfect: bool,
    },
    /// Dies.
    KillSprite,
    /// Both die.
    KillBoth,
    /// Becomes a sprite of `to`.
    TransformTo {
        /// The new type.
        to: Kind,
        /// The other sprite dies too.
        kill_second: bool,
        /// The new sprite keeps the old one's direction.
        force_orientation: bool,
    },
    /// Every sprite (but those of `except`) back to where it was before this tick's moves.
    UndoAll {
        /// Types left where they are.
        except: Vec<Kind>,
    },
    /// Pushed on one cell the way the other moved.
    BounceForward,
    /// Turns back.
    ReverseDirection,
    /// Turns back and steps back.
    TurnAround,
    /// Gains health points (the other dies with `kill_second`).
    AddHealthPoints {
        /// How many.
        value: i32,
        /// The other sprite dies when this gains.
        kill_second: bool,
    },
    /// Loses health points, dying at `limit`.
    SubtractHealthPoints {
        /// How many.
        value: i32,
        /// Dies at or under this.
        limit: i32,
        /// The score change instead of the rule's when it dies.
        score_if_killed: i32,
        /// Another type's first sprite loses them instead.
        of: Option<Kind>,
    },
    /// Spawns `what` on itself.
    Spawn {
        /// The type spawned.
        what: Kind,
    },
    /// Its amount of `resource` changes by `value` within the resource's limit.
    ChangeResource {
        /// The resource type.
        resource: Kind,
        /// The change.
        value: i32,
        /// The other sprite dies when it changes.
        kill_resource: bool,
    },
    /// A resource sprite (this one) is collected by the other.
    CollectResource {
        /// The resource dies when collected.
        kill_resource: bool,
    },
    /// Spawns `what` when it holds at least `limit` of `resource`.
    SpawnIfHasMore {
        /// The resource type.
        resource: Kind,
        /// The amount.
        limit: i32,
        /// The type spawned.
        what: Kind,
        /// How much it spends.
        spend: i32,
    },
    /// Dies when the other holds at least `limit` of `resource`.
    KillIfOtherHasMore {
        /// The resource type.
        resource: Kind,
        /// The amount.
        limit: i32,
        /// The other spends `limit` of it.
        subtract: bool,
    },
    /// Dies when it holds at least `limit` of `resource`.
    KillIfHasMore {
        /// The resource type.
        resource: Kind,
        /// The amount.
        limit: i32,
    },
    /// Dies when it holds at most `limit` of `resource`.
    KillIfHasLess {
        /// The resource type.
        resource: Kind,
        /// The amount.
        limit: i32,
    },
    /// Takes the other's direction (with probability `prob`), and with `align` its row or
    /// column.
    AttractGaze {
        /// Lines up with the other too.
        align: bool,
    },
    /// Every sprite of `from` becomes one of `to`.
    TransformToAll {
        /// The type transformed.
        from: Kind,
        /// The new type.
        to: Kind,
        /// The other sprite dies too.
        kill_second: bool,
        /// The new sprites keep the old ones' directions.
        force_orientation: bool,
    },
    /// Becomes `to` when the sprites of `count` number `geq` to `leq`, else `otherwise`.
    TransformIfCount {
        /// The new type.
        to: Kind,
        /// The type counted.
        count: Kind,
        /// The least count.
        geq: i32,
        /// The most.
        leq: i32,
        /// The type it becomes otherwise, if any.
        otherwise: Option<Kind>,
        /// The other sprite dies too.
        kill_second: bool,
        /// The new sprite keeps the old one's direction.
        force_orientation: bool,
    },
    /// Becomes a sprite of one of `of`'s subtypes, at random.
    TransformToRandomChild {
        /// The group whose subtypes it may become.
        of: Kind,
        /// The other sprite dies too.
        kill_second: bool,
        /// The new sprite keeps the old one's direction.
        force_orientation: bool,
    },
    /// Becomes the one sprite of `to`: the one there was becomes `back` again.
    TransformToSingleton {
        /// The singleton type.
        to: Kind,
        /// What the previous one becomes.
        back: Kind,
        /// The new one faces against the other's direction.
        take_orientation: bool,
    },
    /// Every sprite of `what` dies.
    KillAll {
        /// The type.
        what: Kind,
    },
    /// Dies when it did not move or met the other head on.
    KillIfFrontal,
    /// Dies when it did not move or did not meet the other head on.
    KillIfNotFrontal,
    /// Dies when the other came down on it from above.
    KillIfFromAbove,
    /// Moves onto the other (taking its direction with `orient`).
    Align {
        /// Takes the other's direction too.
        orient: bool,
    },
    /// Sent to a random sprite of the type the other (a portal) names.
    TeleportToExit,
    /// This tick, rules with effect `effect` between its type and `what` are off.
    ShieldFrom {
        /// The other type.
        what: Kind,
        /// The effect shielded from.
        effect: String,
    },
    /// A copy of it appears where it is.
    CloneSprite,
    /// Spawns `what` when it holds at most `limit` of `resource`.
    SpawnIfHasLess {
        /// The resource type.
        resource: Kind,
        /// The amount.
        limit: i32,
        /// The type spawned.
        what: Kind,
    },
    /// Spawns `what` where the other was before it moved.
    SpawnBehind {
        /// The type spawned.
        what: Kind,
    },
    /// A resource (this one) collected by the other if it holds `value` of `held`.
    CollectResourceIfHeld {
        /// What the collector must hold.
        held: Kind,
        /// How much.
        value: i32,
        /// The resource dies when met.
        kill_resource: bool,
    },
    /// Starts a clock: `timer` ticks later, `effect` runs once (or every `timer` ticks when
    /// `repeating`) on no sprite — so only effects that need none act (`transformToAll`).
    AddTimer {
        /// Ticks until it runs.
        timer: i32,
        /// Whether it runs again.
        repeating: bool,
        /// What runs.
        effect: Box<Effect>,
        /// Its name (`transformToAll`).
        name: String,
    },
    /// Every sprite of `what` gets speed `value`.
    SetSpeedForAll {
        /// The type.
        what: Kind,
        /// The speed.
        value: f64,
    },
    /// Moved along with the other (a log carrying a frog), once a tick.
    PullWithIt {
        /// Put right on the other.
        pixel_perfect: bool,
    },
    /// Spawns `what` one cell beside the other (or beside where it was, with `step_back`).
    SpawnBeside {
        /// The type spawned.
        what: Kind,
        /// Which side.
        dir: Dir,
        /// From the other's place before it moved.
        step_back: bool,
    },
    /// Gains health points up to its limit.
    AddHealthPointsToMax {
        /// How many.
        value: i32,
        /// The other dies.
        kill_second: bool,
    },
    /// Wraps to the other side of the screen.
    WrapAround,
    /// Flips to a random direction.
    FlipDirection,
}

impl Effect {
    fn named(
        word: &str,
        p: &ParamReader<'_>,
        kind: &dyn Fn(&str) -> Result<Kind, VgdlError>,
    ) -> Result<Option<Effect>, VgdlError> {
        let stype = |key: &str| -> Result<Kind, VgdlError> {
            let name = p.required(key)?;
            kind(name)
        };
        Ok(Some(match word {
            "stepBack" => Effect::StepBack {
                pixel_perfect: p.flag("pixelPerfect")?,
            },
            "killSprite" => Effect::KillSprite,
            "killBoth" => Effect::KillBoth,
            "transformTo" => Effect::TransformTo {
                to: stype("stype")?,
                kill_second: p.flag("killSecond")?,
                force_orientation: p.flag("forceOrientation")?,
            },
            "undoAll" => Effect::UndoAll {
                except: match p.get("notStype") {
                    Some(list) => list.split(',').map(kind).collect::<Result<_, _>>()?,
                    None => Vec::new(),
                },
            },
            "bounceForward" => Effect::BounceForward,
            "reverseDirection" => Effect::ReverseDirection,
            "turnAround" => Effect::TurnAround,
            "addHealthPoints" => Effect::AddHealthPoints {
                value: p.int("value", 1)?,
                kill_second: p.flag("killSecond")?,
            },
            "subtractHealthPoints" => Effect::SubtractHealthPoints {
                value: p.int("value", 1)?,
                limit: p.int("limit", 0)?,
                score_if_killed: p.int("scoreChangeIfKilled", 0)?,
                of: p.get("stype").map(kind).transpose()?,
            },
            "spawn" => Effect::Spawn {
                what: stype("stype")?,
            },
            "changeResource" => Effect::ChangeResource {
                resource: stype("resource")?,
                value: p.int("value", 1)?,
                kill_resource: p.flag("killResource")?,
            },
            "collectResource" => Effect::CollectResource {
                kill_resource: p
                    .get("killResource")
                    .is_none_or(|v| v.eq_ignore_ascii_case("true")),
            },
            "spawnIfHasMore" => Effect::SpawnIfHasMore {
                resource: stype("resource")?,
                limit: p.int("limit", 0)?,
                what: stype("stype")?,
                spend: p.int("spend", 0)?,
            },
            "killIfOtherHasMore" => Effect::KillIfOtherHasMore {
                resource: stype("resource")?,
                limit: p.int("limit", 0)?,
                subtract: p.flag("subtract")?,
            },
            "killIfHasMore" => Effect::KillIfHasMore {
                resource: stype("resource")?,
                limit: p.int("limit", 0)?,
            },
            "killIfHasLess" => Effect::KillIfHasLess {
                resource: stype("resource")?,
                limit: p.int("limit", 0)?,
            },
            "attractGaze" => Effect::AttractGaze {
                align: p.flag("align")?,
            },
            "transformToAll" => Effect::TransformToAll {
                from: stype("stype")?,
                to: stype("stypeTo")?,
                kill_second: p.flag("killSecond")?,
                force_orientation: p.flag("forceOrientation")?,
            },
            "transformIfCount" => Effect::TransformIfCount {
                to: stype("stype")?,
                count: stype("stypeCount")?,
                geq: p.int("geq", 0)?,
                leq: p.int("leq", 10_000)?,
                otherwise: p.get("estype").map(kind).transpose()?,
                kill_second: p.flag("killSecond")?,
                force_orientation: p.flag("forceOrientation")?,
            },
            "transformToRandomChild" => Effect::TransformToRandomChild {
                of: stype("stype")?,
                kill_second: p.flag("killSecond")?,
                force_orientation: p.flag("forceOrientation")?,
            },
            "transformToSingleton" => Effect::TransformToSingleton {
                to: stype("stype")?,
                back: stype("stype_other")?,
                take_orientation: p.flag("takeOrientation")?,
            },
            "killAll" => Effect::KillAll {
                what: stype("stype")?,
            },
            "killIfFrontal" => Effect::KillIfFrontal,
            "killIfNotFrontal" => Effect::KillIfNotFrontal,
            "killIfFromAbove" => Effect::KillIfFromAbove,
            "align" => Effect::Align {
                orient: p
                    .get("orient")
                    .is_none_or(|v| v.eq_ignore_ascii_case("true")),
            },
            "teleportToExit" => Effect::TeleportToExit,
            "shieldFrom" => Effect::ShieldFrom {
                what: stype("stype")?,
                effect: p.required("ftype")?.to_string(),
            },
            "cloneSprite" => Effect::CloneSprite,
            "spawnIfHasLess" => Effect::SpawnIfHasLess {
                resource: stype("resource")?,
                limit: p.int("limit", 0)?,
                what: stype("stype")?,
            },
            "spawnBehind" => Effect::SpawnBehind {
                what: stype("stype")?,
            },
            "collectResourceIfHeld" => Effect::CollectResourceIfHeld {
                held: stype("heldResource")?,
                value: p.int("value", 1)?,
                kill_resource: p
                    .get("killResource")
                    .is_none_or(|v| v.eq_ignore_ascii_case("true")),
            },
            "addTimer" => {
                let ftype = p.required("ftype")?;
                // The inner effect reads the same parameters: an addTimer of an addTimer
                // would read itself for ever.
                if ftype == "addTimer" {
                    return Err(p.err("ftype=addTimer: a timer cannot start another timer".into()));
                }
                let Some(inner) = Effect::named(ftype, p, kind)? else {
                    return Ok(None);
                };
                let (timer, repeating) = (p.int("timer", -1)?, p.flag("repeating")?);
                if repeating && timer < 1 {
                    return Err(p.err(format!(
                        "timer={timer} with repeating=True: a repeating timer needs at least 1 \
                         tick, or it runs again in the same tick for ever"
                    )));
                }
                Effect::AddTimer {
                    timer,
                    repeating,
                    effect: Box::new(inner),
                    name: ftype.to_string(),
                }
            }
            "setSpeedForAll" => Effect::SetSpeedForAll {
                what: stype("stype")?,
                value: p.float("value", 0.0)?,
            },
            "pullWithIt" => Effect::PullWithIt {
                pixel_perfect: p.flag("pixelPerfect")?,
            },
            "spawnAbove" | "spawnBelow" | "spawnLeft" | "spawnRight" => Effect::SpawnBeside {
                what: stype("stype")?,
                dir: match word {
                    "spawnAbove" => Dir::UP,
                    "spawnBelow" => Dir::DOWN,
                    "spawnLeft" => Dir::LEFT,
                    _ => Dir::RIGHT,
                },
                step_back: p.flag("stepBack")?,
            },
            "addHealthPointsToMax" => Effect::AddHealthPointsToMax {
                value: p.int("value", 1)?,
                kill_second: p.flag("killSecond")?,
            },
            "wrapAround" => Effect::WrapAround,
            "flipDirection" => Effect::FlipDirection,
            _ => return Ok(None),
        }))
    }

    /// The parameters the effect reads (beyond every effect's `scoreChange`, `prob`,
    /// `repeat` and the counters).
    fn own_params(word: &str) -> &'static [&'static str] {
        match word {
            "transformTo" => &["stype", "killSecond", "forceOrientation"],
            "stepBack" => &["pixelPerfect"],
            "attractGaze" => &["align"],
            "transformToAll" => &["stype", "stypeTo", "killSecond", "forceOrientation"],
            "transformIfCount" => &[
                "stype",
                "stypeCount",
                "geq",
                "leq",
                "estype",
                "killSecond",
                "forceOrientation",
            ],
            "killAll" | "spawnBehind" => &["stype"],
            "transformToRandomChild" => &["stype", "killSecond", "forceOrientation"],
            "transformToSingleton" => &["stype", "stype_other", "takeOrientation"],
            "align" => &["orient"],
            "shieldFrom" => &["stype", "ftype"],
            "spawnIfHasLess" => &["resource", "limit", "stype"],
            "collectResourceIfHeld" => &["heldResource", "value", "killResource"],
            "addHealthPointsToMax" => &["value", "killSecond"],
            "addTimer" => &["timer", "ftype", "repeating", "nextExecution"],
            "setSpeedForAll" => &["stype", "value"],
            "pullWithIt" => &["pixelPerfect"],
            "spawnAbove" | "spawnBelow" | "spawnLeft" | "spawnRight" => &["stype", "stepBack"],
            "undoAll" => &["notStype"],
            "addHealthPoints" => &["value", "killSecond"],
            "subtractHealthPoints" => &["value", "limit", "scoreChangeIfKilled", "stype"],
            "spawn" => &["stype"],
            "changeResource" => &["resource", "value", "killResource"],
            "collectResource" => &["killResource"],
            "spawnIfHasMore" => &["resource", "limit", "stype", "spend"],
            "killIfOtherHasMore" => &["resource", "limit", "subtract"],
            "killIfHasMore" | "killIfHasLess" => &["resource", "limit"],
            _ => &[],
        }
    }
}

/// A rule as the engine applies it: the effect, its score change and its probability.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// What happens.
    pub effect: Effect,
    /// The score change for the player (`scoreChange`).
    pub score: i32,
    /// `prob` (the effects that read it draw a number even at 1, as GVGAI does).
    pub prob: f64,
    /// The rule's line.
    pub line: usize,
    /// The effect's name as written (`stepBack`: what `shieldFrom` names).
    pub name: String,
    /// The rule's place in the interaction set (0 for the first line): what
    /// [`crate::engine::State::fired`] records.
    pub index: usize,
}

/// A termination, compiled.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// Ends when the sprites of `kind` (not disabled) number at most `limit`.
    SpriteCounter {
        /// The type counted.
        kind: Kind,
        /// The count.
        limit: i32,
        /// Whether the player wins.
        win: bool,
    },
    /// Ends when the sprites of the types number exactly `limit` (or more, with `min`).
    MultiSpriteCounter {
        /// The types counted together.
        kinds: Vec<Kind>,
        /// The count.
        limit: i32,
        /// A lower bound instead of an exact count.
        min: bool,
        /// Whether the player wins.
        win: bool,
    },
    /// Ends when the sprites of `kind` (not disabled) number at least `limit`.
    SpriteCounterMore {
        /// The type counted.
        kind: Kind,
        /// The count.
        limit: i32,
        /// Whether the player wins.
        win: bool,
    },
    /// Ends when the sprites of `kind` number exactly `limit` and exactly `subtypes` of its
    /// types have sprites.
    MultiSpriteCounterSubTypes {
        /// The group counted.
        kind: Kind,
        /// The count.
        limit: i32,
        /// How many of its types must have sprites.
        subtypes: i32,
        /// Whether the player wins.
        win: bool,
    },
    /// Ends at tick `limit`.
    Timeout {
        /// The tick.
        limit: i32,
        /// Whether the player wins.
        win: bool,
    },
}

/// A game, compiled for the engine.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The file, as named.
    pub file: String,
    /// The sprite types in GVGAI's numbering.
    pub types: Vec<TypeDef>,
    /// The sprite order: updates run from its end to its start; `avatar` is last.
    pub order: Vec<Kind>,
    /// Each type's subtypes in GVGAI's order (what a rule naming the type applies to).
    pub subtypes: Vec<Vec<Kind>>,
    /// The rules between pairs of types, grouped by pair in the order each pair first
    /// appears, each pair's rules in the file's order.
    pub pairs: Vec<(Kind, Kind, Vec<Rule>)>,
    /// The types with rules at the screen's edge, one entry per rule line as GVGAI lists
    /// them, each with all of the type's edge rules.
    pub eos: Vec<Kind>,
    /// Each type's edge rules.
    pub eos_rules: Vec<Vec<Rule>>,
    /// The terminations in order.
    pub terminations: Vec<Term>,
    /// Each level character's types, in order.
    pub mapping: BTreeMap<char, Vec<Kind>>,
    /// The most of each resource type a sprite may hold (0 for types that are no resource).
    pub resource_limit: Vec<i32>,
    /// The game's `square_size`, when it sets one.
    pub square_size: Option<i32>,
    /// The types whose sprites never move: static classes that no rule moves (the engine
    /// finds their overlaps through a grid kept between ticks).
    pub fixed: Vec<bool>,
    /// The types some rule names first (directly or through a group), and second.
    pub first_in_rules: Vec<bool>,
    /// See `first_in_rules`.
    pub second_in_rules: Vec<bool>,
    /// The timed rules (`T TIME > effect timer=N`), in the file's order.
    pub timed: Vec<Timed>,
    /// Each type by its name (what [`Rules::kind`] looks up).
    by_name: HashMap<String, Kind>,
}

/// A rule run by the clock (GVGAI's `TimeEffect`): on every sprite of `kind` (or on none, for
/// one an `addTimer` started) at tick `next`, then every `timer` ticks when `repeating`.
#[derive(Clone, Debug, PartialEq)]
pub struct Timed {
    /// The sprites it runs on; `None` for none (only effects that need no sprite act).
    pub kind: Option<Kind>,
    /// The rule (its score change applies each time it runs).
    pub rule: Rule,
    /// Ticks between runs.
    pub timer: i32,
    /// Whether it runs again.
    pub repeating: bool,
    /// Its first tick (-1: the first cycle).
    pub next: i32,
}

impl Rules {
    /// The type named `name`.
    pub fn kind(&self, name: &str) -> Option<Kind> {
        self.by_name.get(name).copied()
    }

    /// The leaf types in GVGAI's numbering (the types a trace counts).
    pub fn leaves(&self) -> impl Iterator<Item = Kind> + '_ {
        (0..self.types.len()).filter(|&k| self.types[k].leaf)
    }
}

/// Reads parameters with GVGAI's conversions, naming the line in errors.
struct ParamReader<'a> {
    params: &'a [Param],
    file: &'a str,
    line: usize,
}

impl ParamReader<'_> {
    fn err(&self, message: String) -> VgdlError {
        VgdlError {
            file: self.file.to_string(),
            line: self.line,
            message,
        }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|p| p.key == key)
            .map(|p| p.value.as_str())
    }

    fn required(&self, key: &str) -> Result<&str, VgdlError> {
        self.get(key)
            .ok_or_else(|| self.err(format!("the rule needs its {key}=")))
    }

    fn int(&self, key: &str, default: i32) -> Result<i32, VgdlError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| self.err(format!("{key}={v} is not a whole number"))),
        }
    }

    fn float(&self, key: &str, default: f64) -> Result<f64, VgdlError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| self.err(format!("{key}={v} is not a number"))),
        }
    }

    fn flag(&self, key: &str) -> Result<bool, VgdlError> {
        match self.get(key) {
            None => Ok(false),
            Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
            Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
            Some(v) => Err(self.err(format!("{key}={v} is neither True nor False"))),
        }
    }
}

/// The most times one rule may repeat (`repeat=N`).
pub const MAX_REPEAT: i32 = 1_000;

/// Compiles a description for the engine.
///
/// # Errors
/// [`VgdlError`] at the line of the first sprite class, effect, termination or parameter the
/// engine does not run, or of a parameter whose value does not read.
pub fn compile(desc: &GameDesc, file: &str) -> Result<Rules, VgdlError> {
    let (rules, mut missing) = compile_all(desc, file)?;
    if missing.is_empty() {
        Ok(rules)
    } else {
        Err(missing.swap_remove(0))
    }
}

/// Everything in a description the engine does not run yet (each sprite class, effect,
/// termination and parameter, with its line), or the first value that does not read.
pub fn missing(desc: &GameDesc, file: &str) -> Vec<VgdlError> {
    match compile_all(desc, file) {
        Ok((_, missing)) => missing,
        Err(e) => vec![e],
    }
}

/// The rules, with every unsupported feature listed beside them (the rules then leave those
/// parts out); an error for a value that does not read.
fn compile_all(desc: &GameDesc, file: &str) -> Result<(Rules, Vec<VgdlError>), VgdlError> {
    let mut missing: Vec<VgdlError> = Vec::new();
    let err = |line: usize, message: String| VgdlError {
        file: file.to_string(),
        line,
        message,
    };
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
        let class = match class_name.as_deref() {
            // A sprite a level places or a rule makes needs a class (its own or a parent's):
            // without one it never moves and stacks where it is made (the probe's lasers
            // with the word `Missile` lost; F34).
            None if leaf => {
                missing.push(err(
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
                    missing.push(err(
                        line,
                        format!("the sprite class {c} (of {name}) is not supported yet"),
                    ));
                    None
                }
            },
        };
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
                missing.push(err(
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
        let proto = proto(class, leaf, &reader, &kind_of)?;
        let mut itypes: Vec<Kind> = parents.iter().filter_map(|p| kind_of(p)).collect();
        itypes.push(types.len());
        types.push(TypeDef {
            name: name.clone(),
            class,
            line,
            leaf,
            itypes,
            singleton: reader.flag("singleton")?,
            proto,
        });
    }
    // Subtypes as GVGAI lists them: a type's own chain, then its children's subtypes.
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
        fill(k, &types, &children, &mut subtypes);
    }
    // The sprite order: wall and avatar first, then each leaf where it is (last) defined;
    // the avatar moved to the end. (A name is defined once in `desc.sprites`, so only the
    // built-ins' first places are ever taken back.)
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
    // Rules.
    let mut pairs: Vec<(Kind, Kind, Vec<Rule>)> = Vec::new();
    let mut pair_at: HashMap<(Kind, Kind), usize> = HashMap::new();
    let mut eos: Vec<Kind> = Vec::new();
    let mut eos_rules: Vec<Vec<Rule>> = vec![Vec::new(); types.len()];
    let mut timed_rules: Vec<Timed> = Vec::new();
    let lookup = |line: usize| {
        move |name: &str| -> Result<Kind, VgdlError> {
            kind_of(name).ok_or_else(|| err(line, format!("“{name}” is not a sprite of the game")))
        }
    };
    for (index, i) in desc.interactions.iter().enumerate() {
        let reader = ParamReader {
            params: &i.params,
            file,
            line: i.line,
        };
        let is = |n: &str, w: &str| n.eq_ignore_ascii_case(w);
        let timed = is(&i.actor, "TIME") || is(&i.actee, "TIME");
        let Some(effect) = Effect::named(&i.effect, &reader, &lookup(i.line))? else {
            missing.push(err(
                i.line,
                format!("the effect {} is not supported yet", i.effect),
            ));
            continue;
        };
        let own = Effect::own_params(&i.effect);
        for p in &i.params {
            let general = matches!(
                p.key.as_str(),
                "scoreChange" | "prob" | "repeat" | "counter" | "counterElse" | "count"
            );
            let timing = timed && matches!(p.key.as_str(), "timer" | "repeating" | "nextExecution");
            let delegated = i.effect == "addTimer"
                && reader
                    .get("ftype")
                    .is_some_and(|f| Effect::own_params(f).contains(&p.key.as_str()));
            if !general && !timing && !delegated && !own.contains(&p.key.as_str()) {
                missing.push(err(
                    i.line,
                    format!(
                        "the parameter {}={} of {} is not supported yet",
                        p.key, p.value, i.effect
                    ),
                ));
            }
        }
        let score = match reader.get("scoreChange") {
            None => 0,
            // GVGAI reads the first player's part of `a,b`.
            Some(v) => v
                .split(',')
                .next()
                .unwrap_or("0")
                .parse()
                .map_err(|_| err(i.line, format!("scoreChange={v} is not a whole number")))?,
        };
        let rule = Rule {
            effect,
            score,
            prob: reader.float("prob", 1.0)?,
            line: i.line,
            name: i.effect.clone(),
            index,
        };
        let repeat = reader.int("repeat", 1)?;
        // GVGAI stores a rule once per repeat: a bound keeps a slip of the keyboard from
        // asking for hundreds of gigabytes (F27).
        if !(0..=MAX_REPEAT).contains(&repeat) {
            return Err(VgdlError {
                file: file.to_string(),
                line: i.line,
                message: format!("repeat={repeat}: a rule repeats 0 to {MAX_REPEAT} times"),
            });
        }
        let repeat = repeat as usize;
        if timed {
            // GVGAI: the sprite named beside TIME; its first run at tick 0 unless
            // `nextExecution` is given, which plans it `timer` ticks in.
            let k = if is(&i.actor, "TIME") {
                lookup(i.line)(&i.actee)?
            } else {
                lookup(i.line)(&i.actor)?
            };
            let timer = reader.int("timer", -1)?;
            let repeating = reader.flag("repeating")?;
            // Planned again `timer` ticks on: at 0 or fewer it is due again in the same
            // tick, for ever (GVGAI's clock loops there too).
            if repeating && timer < 1 {
                return Err(VgdlError {
                    file: file.to_string(),
                    line: i.line,
                    message: format!(
                        "timer={timer} with repeating=True: a repeating TIME rule needs a \
                         timer of at least 1 tick, or it runs again in the same tick for ever"
                    ),
                });
            }
            let next = if reader.int("nextExecution", -1)? != -1 {
                timer
            } else {
                -1
            };
            timed_rules.push(Timed {
                kind: Some(k),
                rule,
                timer,
                repeating,
                next,
            });
            continue;
        }
        if is(&i.actee, "EOS") || is(&i.actor, "EOS") {
            let k = if is(&i.actee, "EOS") {
                lookup(i.line)(&i.actor)?
            } else {
                lookup(i.line)(&i.actee)?
            };
            eos.push(k);
            for _ in 0..repeat {
                eos_rules[k].push(rule.clone());
            }
            continue;
        }
        let a = lookup(i.line)(&i.actor)?;
        let b = lookup(i.line)(&i.actee)?;
        let at = *pair_at.entry((a, b)).or_insert_with(|| {
            pairs.push((a, b, Vec::new()));
            pairs.len() - 1
        });
        for _ in 0..repeat {
            pairs[at].2.push(rule.clone());
        }
    }
    let mut terminations = Vec::new();
    for t in &desc.terminations {
        let reader = ParamReader {
            params: &t.params,
            file,
            line: t.line,
        };
        let win = reader.get("win").is_some_and(|w| {
            w.split(',')
                .next()
                .unwrap_or("")
                .eq_ignore_ascii_case("true")
        });
        let allowed: &[&str] = match t.class.as_str() {
            "SpriteCounter" => &["stype", "limit", "win", "count_score"],
            "MultiSpriteCounter" => &[
                "stype1",
                "stype2",
                "stype3",
                "limit",
                "min",
                "win",
                "count_score",
            ],
            "Timeout" => &["limit", "win", "count_score"],
            "SpriteCounterMore" => &["stype", "limit", "win", "count_score"],
            "MultiSpriteCounterSubTypes" => {
                &["stype1", "limit", "subTypesNum", "win", "count_score"]
            }
            other => {
                missing.push(err(
                    t.line,
                    format!("the termination {other} is not supported yet"),
                ));
                continue;
            }
        };
        if let Some(p) = t.params.iter().find(|p| !allowed.contains(&p.key.as_str())) {
            missing.push(err(
                t.line,
                format!(
                    "the parameter {}={} of {} is not supported yet",
                    p.key, p.value, t.class
                ),
            ));
            continue;
        }
        let limit = reader.int("limit", 0)?;
        terminations.push(match t.class.as_str() {
            "SpriteCounter" => Term::SpriteCounter {
                kind: lookup(t.line)(reader.required("stype")?)?,
                limit,
                win,
            },
            "MultiSpriteCounter" => Term::MultiSpriteCounter {
                kinds: ["stype1", "stype2", "stype3"]
                    .iter()
                    .filter_map(|k| reader.get(k))
                    .map(lookup(t.line))
                    .collect::<Result<_, _>>()?,
                limit,
                min: reader.flag("min")?,
                win,
            },
            "SpriteCounterMore" => Term::SpriteCounterMore {
                kind: lookup(t.line)(reader.required("stype")?)?,
                limit,
                win,
            },
            "MultiSpriteCounterSubTypes" => Term::MultiSpriteCounterSubTypes {
                kind: lookup(t.line)(reader.required("stype1")?)?,
                limit,
                subtypes: reader.int("subTypesNum", -1)?,
                win,
            },
            _ => Term::Timeout { limit, win },
        });
    }
    let mut mapping = BTreeMap::new();
    for (c, sprites) in &desc.mapping {
        let kinds = sprites
            .iter()
            .map(|s| {
                kind_of(s).ok_or_else(|| {
                    err(
                        1,
                        format!("the level character “{c}” places “{s}”, which the sprite set does not define"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        mapping.insert(*c, kinds);
    }
    let resource_limit = types
        .iter()
        .map(|t| {
            if t.class == Some(Class::Resource) {
                t.proto.limit
            } else {
                0
            }
        })
        .collect();
    let square_size: Option<i32> = desc
        .params
        .iter()
        .find(|p| p.key == "square_size")
        .and_then(|p| p.value.parse().ok());
    // Positions and speeds are measured in squares: 0 divides by zero in every step and a
    // negative size turns the game around (F32).
    if let Some(size) = square_size.filter(|&s| !(1..=10_000).contains(&s)) {
        return Err(VgdlError {
            file: file.to_string(),
            line: 1,
            message: format!("square_size={size}: a square is 1 to 10,000 pixels"),
        });
    }
    let game_reader = ParamReader {
        params: &desc.params,
        file,
        line: 1,
    };
    for p in &desc.params {
        // `obs` names the path finder's obstacles, which only the path chasers use.
        if !matches!(
            p.key.as_str(),
            "square_size" | "key_handler" | "no_players" | "obs"
        ) {
            missing.push(game_reader.err(format!(
                "the game parameter {}={} is not supported yet",
                p.key, p.value
            )));
        }
    }
    // A static class stays where it is unless a rule moves it as its first sprite (stepping
    // back, or undoing, leaves a sprite that never moved where it is).
    let moves = |e: &Effect| {
        matches!(
            e,
            Effect::BounceForward
                | Effect::TurnAround
                | Effect::WrapAround
                | Effect::StepBack {
                    pixel_perfect: true
                }
                | Effect::AttractGaze { align: true }
                | Effect::Align { .. }
                | Effect::TeleportToExit
                | Effect::PullWithIt { .. }
        )
    };
    let mut fixed: Vec<bool> = types.iter().map(|t| t.proto.is_static).collect();
    for (a, _, list) in &pairs {
        if list.iter().any(|r| moves(&r.effect)) {
            for &k in &subtypes[*a] {
                fixed[k] = false;
            }
        }
    }
    for &k in &eos {
        if eos_rules[k].iter().any(|r| moves(&r.effect)) {
            for &s in &subtypes[k] {
                fixed[s] = false;
            }
        }
    }
    let mut first_in_rules = vec![false; types.len()];
    let mut second_in_rules = vec![false; types.len()];
    for (a, b, _) in &pairs {
        for &k in &subtypes[*a] {
            first_in_rules[k] = true;
        }
        for &k in &subtypes[*b] {
            second_in_rules[k] = true;
        }
    }
    let rules = Rules {
        by_name,
        file: file.to_string(),
        types,
        order,
        subtypes,
        pairs,
        eos,
        eos_rules,
        terminations,
        mapping,
        resource_limit,
        square_size,
        fixed,
        first_in_rules,
        second_in_rules,
        timed: timed_rules,
    };
    Ok((rules, missing))
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
    let speed_default = match c {
        Missile | RandomNPC | Chaser | Fleeing | MovingAvatar | OrientedAvatar | ShootAvatar
        | HorizontalAvatar | VerticalAvatar | FlakAvatar | RandomMissile | MissileAvatar
        | RandomBomber | OngoingAvatar | OngoingShootAvatar | OngoingTurningAvatar | LOSChaser => {
            1.0
        }
        _ => 0.0,
    };
    let oriented_default = matches!(
        c,
        Missile
            | OrientedFlicker
            | Bomber
            | OrientedAvatar
            | ShootAvatar
            | RandomMissile
            | MissileAvatar
            | RandomBomber
            | BomberRandomMissile
            | OngoingAvatar
            | OngoingShootAvatar
            | OngoingTurningAvatar
            | SpawnPointMultiSprite
    );
    let orientation_default = match c {
        OrientedAvatar
        | ShootAvatar
        | Bomber
        | MissileAvatar
        | RandomBomber
        | BomberRandomMissile
        | OngoingAvatar
        | OngoingShootAvatar
        | OngoingTurningAvatar
        | SpawnPointMultiSprite => Dir::RIGHT,
        RandomMissile => Dir::NIL,
        _ => Dir::NONE,
    };
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
    if leaf
        && matches!(
            c,
            ShootAvatar
                | FlakAvatar
                | SpawnPoint
                | Bomber
                | RandomBomber
                | Chaser
                | Fleeing
                | LOSChaser
                | Portal
                | OngoingShootAvatar
        )
        && stype.is_none()
    {
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
