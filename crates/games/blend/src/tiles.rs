//! The unified 15-tile set of level-blending-learned-representation Table I, and which game
//! each tile comes from.
//!
//! Two VGLC pitfalls the set inherits: `-` is Lode Runner's rope *and* Zelda's void (Table I
//! merges them into "passable, climbable, rope, empty"), and Lode Runner's `M` is the player's
//! spawn, not a monster (Table I merges it with Zelda's monster into "damaging, spawn, solid,
//! hazard"). Zelda's `B` (block) and Lode Runner's `B` (solid ground) merge too. These three
//! tiles belong to both games, so they do not count when a segment is called LR-like or
//! LoZ-like.

/// A unified tile's properties (Table I's affordances).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Props {
    /// The player cannot be inside it; it can stand on it.
    pub solid: bool,
    /// The player can be inside it.
    pub passable: bool,
    /// Ladders, ropes, stairs.
    pub climbable: bool,
    /// Lode Runner's diggable brick.
    pub diggable: bool,
    /// Gold.
    pub gold: bool,
    /// Enemies and hazards.
    pub damaging: bool,
    /// Zelda's elements (lava, water), which block the Zelda agent without a ladder.
    pub element: bool,
    /// Doors.
    pub door: bool,
}

/// Which game a tile comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Only Lode Runner uses it.
    LodeRunner,
    /// Only Zelda uses it.
    Zelda,
    /// Both games (`B`, `-`, `M`).
    Both,
}

/// The 15 tiles in Table I's order.
pub const LETTERS: [char; 15] = [
    'B', 'b', '.', '-', '#', 'G', 'E', 'M', 'F', 'P', 'I', 'O', 'D', 'S', 'W',
];

const NONE: Props = Props {
    solid: false,
    passable: false,
    climbable: false,
    diggable: false,
    gold: false,
    damaging: false,
    element: false,
    door: false,
};

/// Table I's properties of a letter; `None` for a letter not in the set.
pub fn props(letter: char) -> Option<Props> {
    Some(match letter {
        // Solid, Ground, Block.
        'B' => Props {
            solid: true,
            ..NONE
        },
        // Solid, Diggable, Ground.
        'b' => Props {
            solid: true,
            diggable: true,
            ..NONE
        },
        // Passable, Empty.
        '.' => Props {
            passable: true,
            ..NONE
        },
        // Passable, Climbable, Rope, Empty.
        '-' => Props {
            passable: true,
            climbable: true,
            ..NONE
        },
        // Passable, Climbable, Ladder.
        '#' => Props {
            passable: true,
            climbable: true,
            ..NONE
        },
        // Passable, Pickupable, Gold.
        'G' => Props {
            passable: true,
            gold: true,
            ..NONE
        },
        // Damaging, Enemy.
        'E' => Props {
            damaging: true,
            ..NONE
        },
        // Damaging, Spawn, Solid, Hazard.
        'M' => Props {
            solid: true,
            damaging: true,
            ..NONE
        },
        // Solid (Zelda's floor).
        'F' => Props {
            solid: true,
            ..NONE
        },
        // Element.
        'P' => Props {
            element: true,
            ..NONE
        },
        // Element, Block.
        'I' => Props {
            element: true,
            solid: true,
            ..NONE
        },
        // Element, Solid.
        'O' => Props {
            element: true,
            solid: true,
            ..NONE
        },
        // Solid, Openable.
        'D' => Props {
            solid: true,
            door: true,
            ..NONE
        },
        // Passable, Climbable (Zelda's stair).
        'S' => Props {
            passable: true,
            climbable: true,
            ..NONE
        },
        // Solid, Wall.
        'W' => Props {
            solid: true,
            ..NONE
        },
        _ => return None,
    })
}

/// The game a letter comes from.
pub fn origin(letter: char) -> Origin {
    match letter {
        'b' | '.' | '#' | 'G' | 'E' => Origin::LodeRunner,
        'F' | 'P' | 'I' | 'O' | 'D' | 'S' | 'W' => Origin::Zelda,
        _ => Origin::Both,
    }
}

/// Names shown in the palette, in [`LETTERS`] order.
pub const NAMES: [&str; 15] = [
    "BLOCK",
    "BRICK",
    "EMPTY",
    "ROPE/VOID",
    "LADDER",
    "GOLD",
    "ENEMY",
    "SPAWN/MONSTER",
    "FLOOR",
    "ELEMENT",
    "ELEMENT+BLOCK",
    "ELEMENT+FLOOR",
    "DOOR",
    "STAIR",
    "WALL",
];

/// Colours in [`LETTERS`] order: Lode Runner's tiles warm, Zelda's cool, shared ones grey.
pub const COLOURS: [[u8; 3]; 15] = [
    [120, 112, 104],
    [168, 84, 52],
    [66, 62, 78],
    [150, 140, 120],
    [214, 180, 80],
    [250, 210, 40],
    [214, 60, 60],
    [196, 80, 200],
    [200, 196, 170],
    [50, 110, 210],
    [40, 80, 150],
    [90, 150, 200],
    [150, 100, 50],
    [110, 170, 120],
    [70, 86, 110],
];
