//! `eval --vgdl … --profile … --shard I/N --out PART` and `--merge PART…`: a profile's levels
//! played by N processes, each writing its block to a part file, and the table made from the
//! N parts, byte for byte the one-process run's (docs/files.md, "Sweeps split over
//! processes").
//!
//! A level's games depend on the level and the run's flags only (every level is played from
//! the same seeds), so a part keeps each level's figures and a fingerprint of what they depend
//! on; the merge refuses parts of another run, of another split, or missing ones, in words.

use crate::pooled::LevelGames;
use anyhow::{anyhow, bail, Result};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use studio_core::generation::Shard;
use studio_core::io;
use studio_core::parts::{self, PartKind};

/// A profile's part files.
const KIND: PartKind = PartKind {
    format: "level-studio profile part",
    version: 1,
    what: "a profile part",
    written_by: "`eval --vgdl … --shard I/N --out PART`",
    flags: "--vgdl, --profile, --games, --seed, --budget and --ticks",
};

/// One level of a profile run: its game (its place in `--vgdl`), its side (0 α, 1 β) and its
/// place on that side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Unit {
    pub game: usize,
    pub side: usize,
    pub level: usize,
}

/// Every level of a run, in the order the one-process run plays them: game by game, α then β.
pub(crate) fn units(levels: &[[Vec<Vec<String>>; 2]]) -> Vec<Unit> {
    let mut out = Vec::new();
    for (game, sides) in levels.iter().enumerate() {
        for (side, of_side) in sides.iter().enumerate() {
            out.extend((0..of_side.len()).map(|level| Unit { game, side, level }));
        }
    }
    out
}

/// What a level's games depend on, compared field by field at the merge: each game's
/// description and levels (fingerprints), the games per agent, the seed, the budget and the
/// game length. `--resamples` and `--json` only shape the table, so they may differ.
pub(crate) fn run_key(
    descriptions: &[PathBuf],
    levels: &[[Vec<Vec<String>>; 2]],
    games: u32,
    seed: u64,
    budget: usize,
    ticks: &str,
) -> Result<Value> {
    let side_print = |side: &[Vec<String>]| {
        let text: Vec<String> = side.iter().map(|l| l.join("\n")).collect();
        io::fnv1a_hex(text.join("\n\n").as_bytes())
    };
    let mut per_game = Vec::new();
    for (path, sides) in descriptions.iter().zip(levels) {
        let bytes = io::read_bytes(path).map_err(|e| anyhow!("{e}"))?;
        per_game.push(json!({
            "description": io::fnv1a_hex(&bytes),
            "alpha": side_print(&sides[0]),
            "beta": side_print(&sides[1]),
            "levels": [sides[0].len(), sides[1].len()],
        }));
    }
    Ok(json!({
        "vgdl": per_game,
        "games": games,
        "seed": seed,
        "budget": budget,
        "ticks": ticks,
    }))
}

/// The refusal of `--shard` with more parts than the run has levels.
pub(crate) fn check_parts(shard: Shard, units: usize) -> Result<()> {
    if shard.of > units {
        bail!(
            "--shard {}/{}: more parts than the {units} levels of the profile (α and β of every \
             game)",
            shard.index,
            shard.of
        );
    }
    Ok(())
}

/// One level's figures in a part: each number as its IEEE-754 bits (`f64::to_bits`), so the
/// merge reads back exactly what was played.
#[derive(Debug, Serialize, Deserialize)]
struct PartLevel {
    #[serde(flatten)]
    unit: Unit,
    win_rate: Vec<u64>,
    mean_score: Vec<u64>,
    rank: Vec<u64>,
    range: [u64; 2],
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn floats(v: &[u64]) -> Vec<f64> {
    v.iter().map(|&b| f64::from_bits(b)).collect()
}

/// Writes a shard's played levels to `path` (whole or not at all).
pub(crate) fn write_part(
    path: &Path,
    shard: Shard,
    run: &Value,
    played: &[(Unit, LevelGames)],
) -> Result<()> {
    let levels: Vec<PartLevel> = played
        .iter()
        .map(|(unit, g)| PartLevel {
            unit: *unit,
            win_rate: bits(&g.win_rate),
            mean_score: bits(&g.mean_score),
            rank: bits(&g.rank),
            range: [g.range.0.to_bits(), g.range.1.to_bits()],
        })
        .collect();
    parts::write(path, KIND, shard, run, &levels).map_err(|e| anyhow!("{e}"))
}

/// The first field in which two runs' keys differ, as words.
fn difference(part: &Value, here: &Value) -> String {
    let field = |k: &str| (part.get(k), here.get(k));
    for (key, flag) in [
        ("games", "--games"),
        ("seed", "--seed"),
        ("budget", "--budget"),
        ("ticks", "--ticks"),
    ] {
        let (a, b) = field(key);
        if a != b {
            return format!(
                "it was played with {flag} {}, this run has {}",
                a.map_or("?".into(), Value::to_string),
                b.map_or("?".into(), Value::to_string)
            );
        }
    }
    let (a, b) = field("vgdl");
    let (a, b) = (
        a.and_then(Value::as_array).map_or(&[][..], Vec::as_slice),
        b.and_then(Value::as_array).map_or(&[][..], Vec::as_slice),
    );
    if a.len() != b.len() {
        return format!(
            "it profiles {} games, this run {} (--vgdl)",
            a.len(),
            b.len()
        );
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        for (key, what) in [
            ("description", "its description"),
            ("alpha", "its α levels"),
            ("beta", "its β levels"),
        ] {
            if x.get(key) != y.get(key) {
                return format!("game {} (--vgdl) differs: {what} changed", i + 1);
            }
        }
    }
    "its run differs".into()
}

/// The played levels of every part, in the one-process run's order, once the parts are
/// shown to be the N parts of this very run.
///
/// # Errors
/// A part that does not read; parts of another run, another split, twice the same part, a
/// missing part, or a part whose levels are not its block's.
pub(crate) fn merge(paths: &[PathBuf], run: &Value, units: &[Unit]) -> Result<Vec<LevelGames>> {
    let parts: Vec<(PathBuf, Shard, Vec<PartLevel>)> =
        parts::read_all(paths, KIND, run, &difference).map_err(|e| anyhow!("{e}"))?;
    let mut out = Vec::with_capacity(units.len());
    for (path, shard, levels) in parts {
        let block = &units[shard.block(units.len())];
        let theirs: Vec<Unit> = levels.iter().map(|l| l.unit).collect();
        if theirs != block {
            bail!(
                "{}: its levels are not part {}/{}'s of this run (damaged, or edited)",
                path.display(),
                shard.index,
                shard.of
            );
        }
        out.extend(levels.into_iter().map(|l| LevelGames {
            win_rate: floats(&l.win_rate),
            mean_score: floats(&l.mean_score),
            rank: floats(&l.rank),
            range: (f64::from_bits(l.range[0]), f64::from_bits(l.range[1])),
        }));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels() -> Vec<[Vec<Vec<String>>; 2]> {
        let l = |s: &str| vec![s.to_string()];
        vec![[vec![l("a"), l("b")], vec![l("c")]], [vec![l("d")], vec![]]]
    }

    #[test]
    fn the_units_run_game_by_game_alpha_then_beta() {
        let u = units(&levels());
        let seen: Vec<(usize, usize, usize)> =
            u.iter().map(|u| (u.game, u.side, u.level)).collect();
        assert_eq!(seen, [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)]);
    }

    #[test]
    fn parts_merge_in_order_and_a_foreign_missing_or_doubled_part_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let desc = dir.path().join("g.txt");
        std::fs::write(&desc, "BasicGame\n").unwrap();
        let lv = levels();
        let descs = [desc.clone(), desc.clone()];
        let run = run_key(&descs, &lv, 5, 0, 200, "full").unwrap();
        let u = units(&lv);
        let games = |k: usize| LevelGames {
            win_rate: vec![k as f64 / 3.0, 0.1],
            mean_score: vec![-0.0, f64::MIN_POSITIVE],
            rank: vec![1.0 / 7.0, 0.0],
            range: (-1.5, k as f64),
        };
        let write = |i: usize, n: usize, run: &Value| {
            let s = Shard { index: i, of: n };
            let played: Vec<(Unit, LevelGames)> = u[s.block(u.len())]
                .iter()
                .map(|x| (*x, games(x.level + 10 * x.game)))
                .collect();
            let p = dir.path().join(format!("part-{i}-{n}.json"));
            write_part(&p, s, run, &played).unwrap();
            p
        };
        let parts: Vec<PathBuf> = (1..=3).map(|i| write(i, 3, &run)).collect();
        // Given in any order, the merge is every level's figures in the run's order, exactly.
        let merged = merge(
            &[parts[2].clone(), parts[0].clone(), parts[1].clone()],
            &run,
            &u,
        )
        .unwrap();
        assert_eq!(merged.len(), 4);
        for (m, x) in merged.iter().zip(&u) {
            let want = games(x.level + 10 * x.game);
            assert_eq!(bits(&m.win_rate), bits(&want.win_rate));
            assert_eq!(bits(&m.mean_score), bits(&want.mean_score));
            assert_eq!(m.range.1.to_bits(), want.range.1.to_bits());
        }
        let said = |r: Result<Vec<LevelGames>>| r.err().map(|e| e.to_string()).unwrap_or_default();
        // A missing part, a doubled one, one of another split, one of another run.
        assert!(said(merge(&parts[..2], &run, &u)).contains("part 3/3 is missing"));
        let doubled = [parts[0].clone(), parts[0].clone()];
        assert!(said(merge(&doubled, &run, &u)).contains("given twice"));
        let other_split = write(1, 2, &run);
        let mixed = [parts[0].clone(), other_split];
        assert!(said(merge(&mixed, &run, &u)).contains("the parts of one split"));
        let seeded = run_key(&descs, &lv, 5, 1, 200, "full").unwrap();
        let e = said(merge(&parts, &seeded, &u));
        assert!(e.contains("--seed 0, this run has 1"), "{e}");
        let mut moved = lv.clone();
        moved[1][0][0][0] = "e".into();
        let e = said(merge(
            &parts,
            &run_key(&descs, &moved, 5, 0, 200, "full").unwrap(),
            &u,
        ));
        assert!(
            e.contains("game 2 (--vgdl) differs: its α levels changed"),
            "{e}"
        );
        // A file that is not a part, and an edited part.
        let junk = dir.path().join("junk.json");
        std::fs::write(&junk, "{\"levels\": 3}").unwrap();
        assert!(said(merge(&[junk], &run, &u)).contains("not a profile part"));
        let text = std::fs::read_to_string(&parts[2]).unwrap();
        let edited = dir.path().join("edited.json");
        std::fs::write(&edited, text.replacen("\"level\": 0", "\"level\": 1", 1)).unwrap();
        let e = said(merge(
            &[parts[0].clone(), parts[1].clone(), edited],
            &run,
            &u,
        ));
        assert!(e.contains("its levels are not part 3/3's"), "{e}");
        // More parts than levels is refused before anything is played.
        assert!(check_parts(Shard { index: 1, of: 5 }, 4).is_err());
        assert!(check_parts(Shard { index: 4, of: 4 }, 4).is_ok());
    }
}
