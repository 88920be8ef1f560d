//! The engine bounds its work (issue 70, F34): a game whose sprites multiply onto one cell is
//! stopped with a "limit reached" outcome instead of running quadratic ticks, and a game that
//! stays small never meets the bound.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};
use vgdl::{Action, Limit, State, Winner};

/// A spawn point stacking a blob a tick on its cell, each blob cloning itself on meeting
/// another: thousands of sprites on one cell within a few ticks.
const STACK: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    hole > SpawnPoint stype=blob prob=1 cooldown=1
    blob > Immovable
    avatar > MovingAvatar
  LevelMapping
    . > floor
    h > floor hole
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    blob blob > cloneSprite
  TerminationSet
    SpriteCounter stype=avatar win=False
";

/// A spreader filling the level, each new mould meeting its neighbours' stacks.
const SPREAD: &str = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    mould > Spreader stype=mould spreadprob=1 limit=1000000
    gem > Resource
    avatar > MovingAvatar
  LevelMapping
    . > floor
    m > floor mould
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    mould mould > killIfHasMore resource=gem limit=5
  TerminationSet
    SpriteCounter stype=avatar win=False
";

const LEVEL: &str = "wwwwwwwwwwwww\nwA..........w\nw.....h.....w\nw...........w\nwwwwwwwwwwwww\n";

fn start(text: &str, level: &str) -> State {
    let desc = vgdl::parse(text, "g.txt").unwrap();
    let rules = Arc::new(vgdl::compile(&desc, "g.txt").unwrap());
    let level = vgdl::read_level(&desc, level, "l.txt").unwrap();
    State::new(rules, &level, 0).unwrap()
}

/// Steps `state` with NIL until it ends or `ticks` pass; the time it took.
fn run(state: &mut State, ticks: usize) -> Duration {
    let t = Instant::now();
    for _ in 0..ticks {
        if state.is_over() {
            break;
        }
        state.step(Action::Nil);
    }
    t.elapsed()
}

#[test]
fn sprites_that_multiply_on_one_cell_stop_the_game_with_the_work_limit() {
    // Unbounded, 20 ticks of this took 18.6 s and 784 MB (the probe's `stackclone`).
    let mut state = start(STACK, LEVEL);
    let took = run(&mut state, 2000);
    assert_eq!(
        state.winner,
        Winner::Stopped(Limit::Work),
        "tick {}",
        state.tick
    );
    assert!(state.tick < 20, "stopped at tick {}", state.tick);
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert_eq!(state.stopped(), Some(Limit::Work));
    assert!(Limit::Work.to_string().starts_with("limit reached"));
    // A stopped game stays stopped, neither won nor lost.
    state.step(Action::Nil);
    assert_eq!(state.winner, Winner::Stopped(Limit::Work));
}

#[test]
fn a_spreader_filling_the_level_stops_within_the_bound() {
    // Unbounded, 200 ticks of this took 20 s (the probe's `spreader`).
    let level = "wwwwwwwwwwwww\nwA..........w\nw.....m.....w\nw...........w\nwwwwwwwwwwwww\n";
    let mut state = start(SPREAD, level);
    let took = run(&mut state, 2000);
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_eq!(
        state.winner,
        Winner::Stopped(Limit::Work),
        "tick {}",
        state.tick
    );
}

#[test]
fn the_tick_budget_is_the_callers_to_set_and_a_small_game_stays_far_below_it() {
    // A game without multiplying sprites: a few dozen pairs a tick, never stopped.
    let push = "BasicGame square_size=10
  SpriteSet
    floor > Immovable
    crate > Passive
    avatar > MovingAvatar
  LevelMapping
    . > floor
    c > floor crate
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    crate avatar > bounceForward
    crate wall > undoAll
  TerminationSet
    Timeout limit=100 win=True
";
    let level = "wwwwwww\nwA.c..w\nw.....w\nwwwwwww\n";
    let mut state = start(push, level);
    let mut most = 0;
    while !state.is_over() {
        state.step(Action::Right);
        most = most.max(state.tick_work());
    }
    assert_eq!(state.winner, Winner::Wins);
    assert!(most > 0 && most < 1000, "{most} pairs in a tick");
    // The same game with a budget below its own need is stopped at its first tick.
    let mut state = start(push, level);
    state.set_work(1, u64::MAX);
    state.step(Action::Right);
    assert_eq!(state.winner, Winner::Stopped(Limit::Work));
    // A caller's time budget or cancel ends a running game, not a finished one.
    let mut state = start(push, level);
    state.stop(Limit::Cancelled);
    assert_eq!(state.stopped(), Some(Limit::Cancelled));
    state.stop(Limit::Time);
    assert_eq!(
        state.stopped(),
        Some(Limit::Cancelled),
        "the first reason stays"
    );
}

#[test]
fn a_whole_game_is_bounded_too() {
    // Each tick below its budget, the game's total past its own.
    let level = "wwwwwwwwwwwww\nwA..........w\nw.....m.....w\nw...........w\nwwwwwwwwwwwww\n";
    let mut state = start(SPREAD, level);
    state.set_work(u64::MAX, 10_000);
    run(&mut state, 2000);
    assert_eq!(state.winner, Winner::Stopped(Limit::Work));
    assert!(state.game_work() > 10_000 && state.tick_work() <= 10_000 + 2_000);
}

/// The long mutation run's find: a repeating clock rule whose timer is 0 or less is due
/// again in the same tick, for ever (GVGAI loops there too); the reader refuses it in words,
/// and an addTimer of an addTimer is refused instead of reading itself for ever.
#[test]
fn a_repeating_timer_of_zero_ticks_is_refused() {
    let game = |interaction: &str| {
        format!(
            "BasicGame
  SpriteSet
    floor > Immovable
    plant > Immovable
    avatar > MovingAvatar
  LevelMapping
    . > floor
    f > floor plant
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
    {interaction}
  TerminationSet
    Timeout limit=100 win=True
"
        )
    };
    for rule in [
        "plant TIME > killSprite timer=-1 repeating=True",
        "plant TIME > killSprite timer=0 repeating=True",
        "avatar plant > addTimer timer=0 repeating=True ftype=killSprite",
        "avatar plant > addTimer timer=5 ftype=addTimer",
    ] {
        let text = game(rule);
        let desc = vgdl::parse(&text, "g.txt").unwrap();
        let err = vgdl::compile(&desc, "g.txt")
            .err()
            .unwrap_or_else(|| panic!("{rule}"));
        let said = err.to_string();
        assert!(said.contains("g.txt:") && said.contains("timer"), "{said}");
    }
    // A repeating clock of one tick is fine and plays.
    let text = game("plant TIME > killSprite timer=1 repeating=True");
    let mut state = start(&text, "wwwww\nwAf.w\nwwwww\n");
    run(&mut state, 200);
    assert!(
        state.is_over(),
        "the timeout ends it at tick {}",
        state.tick
    );
}

/// F34's last suggestion: a leaf sprite with no class, its own or a parent's (the probe's
/// lasers with the word `Missile` lost), is refused in words instead of stacking where it is
/// made.
#[test]
fn a_leaf_sprite_with_no_class_is_refused() {
    let text = "BasicGame
  SpriteSet
    floor > Immovable
    cannon > SpawnPoint stype=laser prob=1 cooldown=1
    laser > orientation=LEFT speed=1
    avatar > MovingAvatar
  LevelMapping
    . > floor
    c > floor cannon
    A > floor avatar
  InteractionSet
    avatar wall > stepBack
  TerminationSet
    Timeout limit=100 win=True
";
    let desc = vgdl::parse(text, "g.txt").unwrap();
    let err = vgdl::compile(&desc, "g.txt").err().unwrap().to_string();
    assert!(
        err.contains("g.txt:5") && err.contains("laser has no class"),
        "{err}"
    );
    // A group without a class over leaves that have one stays fine.
    let grouped = text.replace(
        "    laser > orientation=LEFT speed=1\n",
        "    shots >\n      laser > Missile orientation=LEFT speed=1\n",
    );
    let desc = vgdl::parse(&grouped, "g.txt").unwrap();
    vgdl::compile(&desc, "g.txt").unwrap();
}
