//! The Mario tiles (rl-quality-diversity Table 3.2) and their letters. The studio writes the
//! Mario AI Framework's letters where the framework has the tile, so its level text reads
//! almost unchanged; the VGLC's letters are mapped on import and export (`formats`).

use studio_core::game::TileInfo;
use studio_core::grid::AsciiCell;

/// One tile of a Mario level, in palette order (a level's cells are stored by letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Tile {
    /// Air (`-`).
    Empty = 0,
    /// Ground (`X`): only ground holds up the bottom row; a column without it is a hole.
    Ground = 1,
    /// A solid stair block (`#`).
    Block = 2,
    /// A brick (`S`): big Mario breaks it by bumping it from below.
    Brick = 3,
    /// A brick with a coin (`C`): bumped, it gives a coin and becomes an empty block.
    CoinBrick = 4,
    /// An item box (`@`): bumped, it gives a mushroom and becomes an empty block.
    ItemBox = 5,
    /// A coin question block (`!`): bumped, it gives a coin and becomes an empty block.
    CoinBox = 6,
    /// An empty (used) block (`D`).
    UsedBlock = 7,
    /// A coin (`o`), taken by touching it.
    Coin = 8,
    /// The pipe's top-left part (`<`).
    PipeTopLeft = 9,
    /// The pipe's top-right part (`>`).
    PipeTopRight = 10,
    /// The pipe's left side (`[`).
    PipeLeft = 11,
    /// The pipe's right side (`]`).
    PipeRight = 12,
    /// A cannon's top (`B`).
    CannonTop = 13,
    /// A cannon's body (`b`).
    CannonBody = 14,
    /// Where a goomba starts (`g`).
    Goomba = 15,
    /// Where a green koopa starts (`k`); stomped, it becomes a shell.
    Koopa = 16,
    /// Mario's start (`M`), at most one.
    Start = 17,
    /// The goal (`F`), at most one: the level is won when Mario reaches its column.
    Goal = 18,
    /// A jump-through platform (`%`): it holds up whatever lands on it from above and lets
    /// everything pass from below and from the sides.
    Platform = 19,
    /// The background under a jump-through platform (`|`): air.
    PlatformBack = 20,
    /// Where a spiky starts (`y`): it cannot be stomped.
    Spiky = 21,
    /// Where a winged spiky starts (`Y`): it hops, and cannot be stomped.
    WingedSpiky = 22,
    /// Where a winged goomba starts (`G`): it hops; a stomp takes its wings.
    WingedGoomba = 23,
    /// Where a winged green koopa starts (`K`): it hops; a stomp takes its wings.
    WingedKoopa = 24,
    /// Where a red koopa starts (`r`): it turns at ledges; stomped, it becomes a shell.
    RedKoopa = 25,
    /// Where a winged red koopa starts (`R`).
    WingedRedKoopa = 26,
    /// A pipe's top-left part with a piranha plant in it (`T`): the plant rises and sinks,
    /// and cannot be stomped.
    PiranhaPipe = 27,
    /// An invisible block with a 1-up (`1`): it blocks only from below, bumped it shows.
    HiddenLifeBlock = 28,
    /// An invisible block with a coin (`2`): it blocks only from below, bumped it shows.
    HiddenCoinBlock = 29,
    /// A brick with a 1-up mushroom (`L`).
    LifeBrick = 30,
    /// A brick with a mushroom (`U`).
    MushroomBrick = 31,
}

impl Tile {
    /// Every tile, in palette order.
    pub const ALL: [Tile; 32] = [
        Tile::Empty,
        Tile::Ground,
        Tile::Block,
        Tile::Brick,
        Tile::CoinBrick,
        Tile::ItemBox,
        Tile::CoinBox,
        Tile::UsedBlock,
        Tile::Coin,
        Tile::PipeTopLeft,
        Tile::PipeTopRight,
        Tile::PipeLeft,
        Tile::PipeRight,
        Tile::CannonTop,
        Tile::CannonBody,
        Tile::Goomba,
        Tile::Koopa,
        Tile::Start,
        Tile::Goal,
        Tile::Platform,
        Tile::PlatformBack,
        Tile::Spiky,
        Tile::WingedSpiky,
        Tile::WingedGoomba,
        Tile::WingedKoopa,
        Tile::RedKoopa,
        Tile::WingedRedKoopa,
        Tile::PiranhaPipe,
        Tile::HiddenLifeBlock,
        Tile::HiddenCoinBlock,
        Tile::LifeBrick,
        Tile::MushroomBrick,
    ];

    /// The tiles of the thesis's Table 3.2 (the first 19): the ones the generators and their
    /// training levels use. Patterns are normalised by this count (`patterns::normalised`).
    pub const THESIS_TILES: usize = 19;

    /// The letter level files use.
    pub const fn ascii(self) -> char {
        match self {
            Tile::Empty => '-',
            Tile::Ground => 'X',
            Tile::Block => '#',
            Tile::Brick => 'S',
            Tile::CoinBrick => 'C',
            Tile::ItemBox => '@',
            Tile::CoinBox => '!',
            Tile::UsedBlock => 'D',
            Tile::Coin => 'o',
            Tile::PipeTopLeft => '<',
            Tile::PipeTopRight => '>',
            Tile::PipeLeft => '[',
            Tile::PipeRight => ']',
            Tile::CannonTop => 'B',
            Tile::CannonBody => 'b',
            Tile::Goomba => 'g',
            Tile::Koopa => 'k',
            Tile::Start => 'M',
            Tile::Goal => 'F',
            Tile::Platform => '%',
            Tile::PlatformBack => '|',
            Tile::Spiky => 'y',
            Tile::WingedSpiky => 'Y',
            Tile::WingedGoomba => 'G',
            Tile::WingedKoopa => 'K',
            Tile::RedKoopa => 'r',
            Tile::WingedRedKoopa => 'R',
            Tile::PiranhaPipe => 'T',
            Tile::HiddenLifeBlock => '1',
            Tile::HiddenCoinBlock => '2',
            Tile::LifeBrick => 'L',
            Tile::MushroomBrick => 'U',
        }
    }

    /// The tile written with letter `c`.
    pub fn from_ascii(c: char) -> Option<Tile> {
        Tile::ALL.into_iter().find(|t| t.ascii() == c)
    }

    /// The tile's palette index.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The tile at palette index `i`.
    pub fn from_index(i: u8) -> Option<Tile> {
        Tile::ALL.get(usize::from(i)).copied()
    }

    /// True for tiles Mario and the enemies cannot pass through.
    pub const fn is_solid(self) -> bool {
        matches!(
            self,
            Tile::Ground
                | Tile::Block
                | Tile::Brick
                | Tile::CoinBrick
                | Tile::ItemBox
                | Tile::CoinBox
                | Tile::UsedBlock
                | Tile::PipeTopLeft
                | Tile::PipeTopRight
                | Tile::PipeLeft
                | Tile::PipeRight
                | Tile::CannonTop
                | Tile::CannonBody
                | Tile::PiranhaPipe
                | Tile::LifeBrick
                | Tile::MushroomBrick
        )
    }

    /// True when the tile stops something moving `ya` pixels down (positive) or up
    /// (negative), as the framework's tile features say: solid tiles always, a jump-through
    /// platform only from above, an invisible block only from below.
    pub const fn blocks(self, ya: f32) -> bool {
        match self {
            Tile::Platform => ya > 0.0,
            Tile::HiddenLifeBlock | Tile::HiddenCoinBlock => ya < 0.0,
            t => t.is_solid(),
        }
    }

    /// True for an enemy's start (a piranha plant's pipe included).
    pub const fn is_enemy(self) -> bool {
        matches!(
            self,
            Tile::Goomba
                | Tile::Koopa
                | Tile::Spiky
                | Tile::WingedSpiky
                | Tile::WingedGoomba
                | Tile::WingedKoopa
                | Tile::RedKoopa
                | Tile::WingedRedKoopa
                | Tile::PiranhaPipe
        )
    }

    /// True for a tile bumping from below does something to (a brick, a box, an invisible
    /// block).
    pub const fn is_bumpable(self) -> bool {
        matches!(
            self,
            Tile::Brick
                | Tile::CoinBrick
                | Tile::ItemBox
                | Tile::CoinBox
                | Tile::HiddenLifeBlock
                | Tile::HiddenCoinBlock
                | Tile::LifeBrick
                | Tile::MushroomBrick
        )
    }

    /// True for a tile the game can change while playing (bumpable blocks and coins).
    pub const fn is_changeable(self) -> bool {
        self.is_bumpable() || matches!(self, Tile::Coin)
    }
}

impl AsciiCell for Tile {
    fn to_ascii(self) -> char {
        self.ascii()
    }

    fn from_ascii(c: char) -> Option<Self> {
        Tile::from_ascii(c)
    }
}

const fn tile(ascii: char, name: &'static str, rgb: [u8; 3]) -> TileInfo {
    TileInfo { ascii, name, rgb }
}

/// The palette, in [`Tile`] order.
pub(crate) const TILES: [TileInfo; 32] = [
    tile('-', "SKY", [120, 152, 252]),
    tile('X', "GROUND", [164, 84, 32]),
    tile('#', "BLOCK", [128, 80, 52]),
    tile('S', "BRICK", [204, 92, 36]),
    tile('C', "COIN BRICK", [214, 120, 52]),
    tile('@', "ITEM BOX", [236, 150, 28]),
    tile('!', "COIN BOX", [248, 200, 56]),
    tile('D', "EMPTY BLOCK", [142, 112, 92]),
    tile('o', "COIN", [252, 222, 80]),
    tile('<', "PIPE TOP LEFT", [56, 180, 72]),
    tile('>', "PIPE TOP RIGHT", [40, 150, 60]),
    tile('[', "PIPE LEFT", [48, 164, 64]),
    tile(']', "PIPE RIGHT", [34, 132, 52]),
    tile('B', "CANNON TOP", [70, 70, 84]),
    tile('b', "CANNON BODY", [96, 96, 110]),
    tile('g', "GOOMBA", [150, 86, 44]),
    tile('k', "KOOPA", [70, 176, 70]),
    tile('M', "MARIO START", [228, 48, 40]),
    tile('F', "GOAL", [250, 250, 250]),
    tile('%', "PLATFORM", [186, 120, 64]),
    tile('|', "PLATFORM BACK", [150, 170, 246]),
    tile('y', "SPIKY", [200, 40, 40]),
    tile('Y', "WINGED SPIKY", [232, 92, 92]),
    tile('G', "WINGED GOOMBA", [182, 118, 76]),
    tile('K', "WINGED KOOPA", [120, 206, 120]),
    tile('r', "RED KOOPA", [214, 64, 48]),
    tile('R', "WINGED RED KOOPA", [240, 116, 100]),
    tile('T', "PIRANHA PIPE", [24, 120, 40]),
    tile('1', "HIDDEN 1-UP", [132, 162, 250]),
    tile('2', "HIDDEN COIN", [140, 168, 248]),
    tile('L', "1-UP BRICK", [196, 84, 60]),
    tile('U', "MUSHROOM BRICK", [216, 104, 44]),
];
