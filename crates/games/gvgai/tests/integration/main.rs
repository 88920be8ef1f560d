//! GVGAI games' integration tests, one module per subject (`conformance`, `stored_figures`,
//! `studio_game`). One test binary, so a change links it once (`cargo test -p gvgai --test
//! integration <module>::` runs one module).

mod conformance;
mod stored_figures;
mod studio_game;

/// A key-and-door game of our own with a monster: the avatar takes the key, then the door
/// (the stored-figures and studio-game tests play it).
pub const DOOR: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable hidden=True
    door > Door
    key > Immovable
    monster > RandomNPC cooldown=4
    avatar > MovingAvatar
      bare >
      keyed >
  LevelMapping
    . > floor
    g > floor door
    k > floor key
    m > floor monster
    A > floor bare
  InteractionSet
    avatar wall > stepBack
    monster wall > stepBack
    bare door > stepBack
    door keyed > killSprite scoreChange=2
    bare key > transformTo stype=keyed killSecond=True scoreChange=1
    avatar monster > killSprite scoreChange=-1
  TerminationSet
    SpriteCounter stype=door win=True
    SpriteCounter stype=avatar win=False
";
