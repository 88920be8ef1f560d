//! `play --game mario LEVEL --actions SCRIPT [--trace]`: plays a button script on a level and
//! prints how the game went, or with `--trace` one tab-separated line per tick (`tick x y xa ya
//! on_ground status`), tick 0 being the state after the Mario AI Framework's initial
//! no-button update. How anyone checks the engine against the framework's, tick by tick.

use crate::engine::{Action, LevelMap, SpriteKind, SpriteView, Status, World};
use crate::formats::{read_mario_ai, read_vglc};
use crate::level::MarioLevel;
use crate::script;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use studio_core::game::GameId;

/// `play --game mario`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (mario).
    #[arg(long)]
    pub game: Option<GameId>,
    /// The level: a Mario level file (the Mario AI Framework's text, the VGLC's, or a studio
    /// level `.ron`), or a pack and a level's place in it, `PACK.ron#N` (N from 1, as the
    /// pack's cards are numbered).
    pub level: String,
    /// The buttons held on each tick: a comma list of BUTTONS*N, buttons L R D S J (left,
    /// right, down, speed, jump) or - for none, e.g. RS*60,RSJ*10,-*5,R*20.
    #[arg(long, allow_hyphen_values = true)]
    pub actions: String,
    /// Print one tab-separated line per tick: tick x y xa ya on_ground status (x, y: Mario's
    /// feet in pixels; xa, ya: his speed; status RUNNING, WIN or LOSE), from tick 0.
    #[arg(long)]
    pub trace: bool,
    /// With --trace, add every live sprite to each line: a tab, then its kind as the
    /// framework names it (GOOMBA_WINGED, RED_KOOPA, ENEMY_FLOWER, BULLET_BILL, SHELL, …), x,
    /// y, xa and ya, newest sprite first as the framework lists them.
    #[arg(long, requires = "trace")]
    pub sprites: bool,
    /// How to read a text level: vglc-mario or mario-ai (default: by its rows, 14 the VGLC's,
    /// else the framework's).
    #[arg(long)]
    pub format: Option<String>,
    /// Print the outcome as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Reads the level `spec` names (a file, or `PACK.ron#N`).
///
/// # Errors
/// A file that cannot be read or is not a Mario level, a place the pack does not have.
pub fn read_level(spec: &str, format: Option<&str>) -> Result<MarioLevel> {
    if let Some((pack, place)) = spec.rsplit_once('#') {
        let path = Path::new(pack);
        let pack = studio_core::files::load_pack(path)?;
        let n: usize = place.parse().map_err(|_| {
            anyhow!(
                "“{place}” after # is not a level number (1 to {})",
                pack.levels.len()
            )
        })?;
        let level = n
            .checked_sub(1)
            .and_then(|i| pack.levels.get(i))
            .ok_or_else(|| {
                anyhow!(
                    "{} has levels 1 to {}, not {n}",
                    path.display(),
                    pack.levels.len()
                )
            })?;
        if level.game != crate::level::ID {
            bail!(
                "level {n} of {} is a {} level, not a Mario level",
                path.display(),
                level.game
            );
        }
        return Ok(MarioLevel::from_rows(&level.cells)?);
    }
    let path = Path::new(spec);
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if extension == "ron" || extension == "json" {
        let level = studio_core::files::load_level_hinted(path, Some(crate::level::ID))?;
        if level.game != crate::level::ID {
            bail!(
                "{} is a {} level, not a Mario level",
                path.display(),
                level.game
            );
        }
        return Ok(MarioLevel::from_rows(&level.cells)?);
    }
    let text = studio_core::io::read_text(path)?;
    let rows = text.lines().filter(|l| !l.trim().is_empty()).count();
    let format = match format {
        Some(f) => f,
        None if rows == 14 => "vglc-mario",
        None => "mario-ai",
    };
    let level = match format {
        "vglc-mario" => read_vglc(&text),
        "mario-ai" => read_mario_ai(&text),
        other => bail!("--format {other}: Mario level text is vglc-mario or mario-ai"),
    };
    level.with_context(|| format!("{} read as {format}", path.display()))
}

/// The status column of a trace.
fn status_word(status: Status) -> &'static str {
    match status {
        Status::Running => "RUNNING",
        Status::Won => "WIN",
        Status::Lost(_) => "LOSE",
    }
}

/// A sprite's kind as the framework's `SpriteType` names it.
fn framework_name(s: &SpriteView) -> &'static str {
    match (s.kind, s.born_winged) {
        (SpriteKind::Goomba, false) => "GOOMBA",
        (SpriteKind::Goomba, true) => "GOOMBA_WINGED",
        (SpriteKind::Koopa, false) => "GREEN_KOOPA",
        (SpriteKind::Koopa, true) => "GREEN_KOOPA_WINGED",
        (SpriteKind::RedKoopa, false) => "RED_KOOPA",
        (SpriteKind::RedKoopa, true) => "RED_KOOPA_WINGED",
        (SpriteKind::Spiky, false) => "SPIKY",
        (SpriteKind::Spiky, true) => "SPIKY_WINGED",
        (SpriteKind::Shell, _) => "SHELL",
        (SpriteKind::Mushroom, _) => "MUSHROOM",
        (SpriteKind::LifeMushroom, _) => "LIFE_MUSHROOM",
        (SpriteKind::Piranha, _) => "ENEMY_FLOWER",
        (SpriteKind::BulletBill, _) => "BULLET_BILL",
    }
}

/// One line of the trace (with `sprites`, every live sprite after Mario's figures).
fn trace_line(tick: usize, world: &World, sprites: bool) -> String {
    let m = world.mario();
    let mut line = format!(
        "{tick}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\t{}\t{}",
        m.x(),
        m.y(),
        m.vx(),
        m.vy(),
        m.on_ground(),
        status_word(world.status())
    );
    if sprites {
        let all: Vec<SpriteView> = world.sprites().collect();
        for s in all.iter().rev() {
            line.push_str(&format!(
                "\t{} {:.4} {:.4} {:.4} {:.4}",
                framework_name(s),
                s.x,
                s.y,
                s.xa,
                s.ya
            ));
        }
    }
    line
}

/// Plays `actions` on `level` as the framework's game loop does: one no-button update, then
/// one update per tick of the script, until the game ends or the script does. Calls `each`
/// with every tick's number (0 for the first update) and the world after it. The time limit is
/// the studio's (as in the playtest, whose kept attempts this replays exactly): the
/// framework's 666 ticks, or 4 a column on a level longer than that allows.
pub fn play(level: &MarioLevel, actions: &[Action], mut each: impl FnMut(usize, &World)) -> World {
    let mut world = crate::evaluate::new_world(&Arc::new(LevelMap::from_level(level)));
    world.step(Action::NONE);
    each(0, &world);
    for (i, &action) in actions.iter().enumerate() {
        if !world.is_running() {
            break;
        }
        world.step(action);
        each(i + 1, &world);
    }
    world
}

/// Runs `play --game mario`.
///
/// # Errors
/// An unreadable level or script, or a closed standard output.
pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let level = read_level(&args.level, args.format.as_deref())?;
    let actions = script::parse(&args.actions)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = None;
    let mut ticks = 0;
    let world = play(&level, &actions, |tick, world| {
        ticks = tick;
        if args.trace && failed.is_none() {
            if let Err(e) = writeln!(out, "{}", trace_line(tick, world, args.sprites)) {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let m = world.mario();
    let status = status_word(world.status());
    let cause = match world.status() {
        Status::Lost(c) => Some(format!("{c:?}").to_lowercase()),
        _ => None,
    };
    if args.json {
        let value = json!({
            "status": status,
            "cause": cause,
            "ticks": ticks,
            "script_ticks": actions.len(),
            "x": m.x(),
            "y": m.y(),
            "coins": world.coins(),
        });
        writeln!(out, "{value}")?;
    } else if !args.trace {
        let why = cause.map_or_else(String::new, |c| format!(" ({c})"));
        writeln!(
            out,
            "{status}{why} at tick {ticks} of {} scripted: Mario at x {:.4}, y {:.4}, {} coins",
            actions.len(),
            m.x(),
            m.y(),
            world.coins()
        )?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
