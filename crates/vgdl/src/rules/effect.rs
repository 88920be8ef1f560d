//! The effects the engine runs, each read from its rule's name and parameters.

use super::{Dir, Kind, ParamReader};
use crate::description::VgdlError;

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
    /// The effect named `word`, its parameters read from `p` (`kind` finds the sprite types
    /// they name); none for an effect the engine does not run.
    ///
    /// # Errors
    /// A parameter that does not read, or names no sprite of the game.
    pub(super) fn named(
        word: &str,
        p: &ParamReader<'_>,
        kind: &dyn Fn(&str) -> Result<Kind, VgdlError>,
    ) -> Result<Option<Effect>, VgdlError> {
        for family in [
            Effect::kill_or_transform,
            Effect::motion,
            Effect::holding,
            Effect::spawning,
            Effect::game_wide,
        ] {
            if let Some(effect) = family(word, p, kind)? {
                return Ok(Some(effect));
            }
        }
        Ok(None)
    }

    /// The effects that kill or transform a sprite.
    fn kill_or_transform(
        word: &str,
        p: &ParamReader<'_>,
        kind: &dyn Fn(&str) -> Result<Kind, VgdlError>,
    ) -> Result<Option<Effect>, VgdlError> {
        let stype = |key: &str| -> Result<Kind, VgdlError> {
            let name = p.required(key)?;
            kind(name)
        };
        Ok(Some(match word {
            "killSprite" => Effect::KillSprite,
            "killBoth" => Effect::KillBoth,
            "transformTo" => Effect::TransformTo {
                to: stype("stype")?,
                kill_second: p.flag("killSecond")?,
                force_orientation: p.flag("forceOrientation")?,
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
            _ => return Ok(None),
        }))
    }

    /// The effects that move or turn a sprite.
    fn motion(
        word: &str,
        p: &ParamReader<'_>,
        kind: &dyn Fn(&str) -> Result<Kind, VgdlError>,
    ) -> Result<Option<Effect>, VgdlError> {
        Ok(Some(match word {
            "stepBack" => Effect::StepBack {
                pixel_perfect: p.flag("pixelPerfect")?,
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
            "attractGaze" => Effect::AttractGaze {
                align: p.flag("align")?,
            },
            "align" => Effect::Align {
                orient: p
                    .get("orient")
                    .is_none_or(|v| v.eq_ignore_ascii_case("true")),
            },
            "teleportToExit" => Effect::TeleportToExit,
            "pullWithIt" => Effect::PullWithIt {
                pixel_perfect: p.flag("pixelPerfect")?,
            },
            "wrapAround" => Effect::WrapAround,
            "flipDirection" => Effect::FlipDirection,
            _ => return Ok(None),
        }))
    }

    /// The effects on what a sprite holds: resources and health points.
    fn holding(
        word: &str,
        p: &ParamReader<'_>,
        kind: &dyn Fn(&str) -> Result<Kind, VgdlError>,
    ) -> Result<Option<Effect>, VgdlError> {
        let stype = |key: &str| -> Result<Kind, VgdlError> {
            let name = p.required(key)?;
            kind(name)
        };
        Ok(Some(match word {
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
            "addHealthPointsToMax" => Effect::AddHealthPointsToMax {
                value: p.int("value", 1)?,
                kill_second: p.flag("killSecond")?,
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
            "collectResourceIfHeld" => Effect::CollectResourceIfHeld {
                held: stype("heldResource")?,
                value: p.int("value", 1)?,
                kill_resource: p
                    .get("killResource")
                    .is_none_or(|v| v.eq_ignore_ascii_case("true")),
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
            _ => return Ok(None),
        }))
    }

    /// The effects that make sprites.
    fn spawning(
        word: &str,
        p: &ParamReader<'_>,
        kind: &dyn Fn(&str) -> Result<Kind, VgdlError>,
    ) -> Result<Option<Effect>, VgdlError> {
        let stype = |key: &str| -> Result<Kind, VgdlError> {
            let name = p.required(key)?;
            kind(name)
        };
        Ok(Some(match word {
            "spawn" => Effect::Spawn {
                what: stype("stype")?,
            },
            "cloneSprite" => Effect::CloneSprite,
            "spawnIfHasMore" => Effect::SpawnIfHasMore {
                resource: stype("resource")?,
                limit: p.int("limit", 0)?,
                what: stype("stype")?,
                spend: p.int("spend", 0)?,
            },
            "spawnIfHasLess" => Effect::SpawnIfHasLess {
                resource: stype("resource")?,
                limit: p.int("limit", 0)?,
                what: stype("stype")?,
            },
            "spawnBehind" => Effect::SpawnBehind {
                what: stype("stype")?,
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
            _ => return Ok(None),
        }))
    }

    /// The effects on the game at large: shields, timers, speeds.
    fn game_wide(
        word: &str,
        p: &ParamReader<'_>,
        kind: &dyn Fn(&str) -> Result<Kind, VgdlError>,
    ) -> Result<Option<Effect>, VgdlError> {
        let stype = |key: &str| -> Result<Kind, VgdlError> {
            let name = p.required(key)?;
            kind(name)
        };
        Ok(Some(match word {
            "shieldFrom" => Effect::ShieldFrom {
                what: stype("stype")?,
                effect: p.required("ftype")?.to_string(),
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
            _ => return Ok(None),
        }))
    }

    /// The parameters the effect reads (beyond every effect's `scoreChange`, `prob`,
    /// `repeat` and the counters).
    pub(super) fn own_params(word: &str) -> &'static [&'static str] {
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
