//! The sprite classes the engine runs, the parameters each reads, and their defaults.

use super::Dir;

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
    pub(super) fn named(word: &str) -> Option<Class> {
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

    /// A sprite's speed when it sets none, in cells a move.
    pub(super) fn default_speed(self) -> f64 {
        use Class::*;
        match self {
            Missile | RandomNPC | Chaser | Fleeing | MovingAvatar | OrientedAvatar
            | ShootAvatar | HorizontalAvatar | VerticalAvatar | FlakAvatar | RandomMissile
            | MissileAvatar | RandomBomber | OngoingAvatar | OngoingShootAvatar
            | OngoingTurningAvatar | LOSChaser => 1.0,
            _ => 0.0,
        }
    }

    /// Whether a sprite has a direction when it sets none.
    pub(super) fn oriented_by_default(self) -> bool {
        use Class::*;
        matches!(
            self,
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
        )
    }

    /// A sprite's direction when it sets none.
    pub(super) fn default_orientation(self) -> Dir {
        use Class::*;
        match self {
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
        }
    }

    /// Whether a sprite of the class names the type it shoots, spawns, chases or sends to
    /// (`stype`).
    pub(super) fn needs_stype(self) -> bool {
        use Class::*;
        matches!(
            self,
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
    }

    /// The parameters the class reads (beyond every sprite's).
    pub(super) fn own_params(self) -> &'static [&'static str] {
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
pub(super) const SPRITE_PARAMS: [&str; 9] = [
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
pub(super) const LOOKS: [&str; 11] = [
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
