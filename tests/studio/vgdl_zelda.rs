//! Issue 45, item 7: the dungeon game (hand-written GVGAI Zelda) and GVGAI's own Zelda run by
//! the VGDL engine agree on GVGAI's five Zelda levels: the shortest win with the monsters
//! frozen (the dungeon's exact skeleton against a breadth-first search of the VGDL states),
//! and do-nothing and random statistics over 100 games (win rate within 10 points, mean score
//! within max(15 %, 0.5), mean ticks within 15 %, each widened to 2.5 standard errors of the
//! difference). GVGAI's files are read in place where the shared data is.

use level_studio::dungeon::agents::{play_game, AgentKind};
use level_studio::dungeon::rules::{Outcome, TICK_LIMIT};
use level_studio::gvgai;
use level_studio::gvgai::vgdl;
use std::path::PathBuf;
use vgdl::search::{shortest_win, Found};

fn gridphysics() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/gvgai/gridphysics");
    dir.is_dir().then_some(dir)
}

fn mean_sd(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    (
        m,
        (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt(),
    )
}

#[test]
fn the_dungeon_and_vgdl_zelda_agree_on_gvgais_five_levels() {
    let Some(dir) = gridphysics() else {
        eprintln!("skipped: GVGAI's data is not here");
        return;
    };
    let game = gvgai::load::game(&dir.join("zelda.txt")).unwrap();
    let mut misses = Vec::new();
    for level in 0..5 {
        let path = dir.join(format!("zelda_lvl{level}.txt"));
        let room = level_studio::dungeon::import::gvgai_room(&path).unwrap();
        let desc = gvgai::load::level(&game, &path).unwrap();
        // The shortest win with the monsters frozen.
        let skeleton = level_studio::dungeon::skeleton::skeleton(&room, 2_000_000).unwrap();
        let theirs = skeleton.shortest_solution().map(|s| s.len());
        let mut frozen = vgdl::State::new(game.rules.clone(), &desc, 0).unwrap();
        frozen.freeze_npcs(true);
        let ours = match shortest_win(&frozen, 2_000_000) {
            Found::Win(actions) => Some(actions.len()),
            other => panic!("level {level}: {other:?}"),
        };
        println!("level {level}: shortest win, dungeon {theirs:?}, VGDL {ours:?}");
        assert_eq!(theirs, ours, "level {level}: the shortest wins differ");
        // Do-nothing and random, 100 games each.
        for (agent, name) in [
            (AgentKind::DoNothing, "donothing"),
            (AgentKind::Random, "random"),
        ] {
            let dungeon: Vec<_> = (0..100)
                .map(|g| play_game(&room, agent, 0, g, TICK_LIMIT))
                .collect();
            let vgdl: Vec<_> = (0..100)
                .map(|seed| {
                    let state = vgdl::State::new(game.rules.clone(), &desc, seed).unwrap();
                    let mut a =
                        gvgai::agents::named(name, gvgai::cli::play::agent_seed(seed), &game)
                            .unwrap();
                    gvgai::agents::play_out(state, a.as_mut())
                })
                .collect();
            let dw = dungeon.iter().filter(|r| r.outcome == Outcome::Won).count() as f64 / 100.0;
            let vw = vgdl.iter().filter(|o| o.won).count() as f64 / 100.0;
            // GVGAI reports a won game's score as at least 1.
            let (ds, dss) = mean_sd(
                &dungeon
                    .iter()
                    .map(|r| {
                        let s = f64::from(r.score);
                        if r.outcome == Outcome::Won && s <= 0.0 {
                            1.0
                        } else {
                            s
                        }
                    })
                    .collect::<Vec<_>>(),
            );
            let (vs, vss) = mean_sd(&vgdl.iter().map(|o| o.score).collect::<Vec<_>>());
            let (dt, dts) = mean_sd(
                &dungeon
                    .iter()
                    .map(|r| f64::from(r.ticks))
                    .collect::<Vec<_>>(),
            );
            let (vt, vts) = mean_sd(&vgdl.iter().map(|o| f64::from(o.ticks)).collect::<Vec<_>>());
            let se = |a: f64, b: f64| ((a * a + b * b) / 100.0).sqrt();
            let p = (dw + vw) / 2.0;
            for (what, a, b, margin) in [
                (
                    "win rate",
                    dw,
                    vw,
                    0.10f64.max(2.5 * (p * (1.0 - p) * 0.02).sqrt()),
                ),
                (
                    "mean score",
                    ds,
                    vs,
                    (0.15 * ds.abs()).max(0.5).max(2.5 * se(dss, vss)),
                ),
                ("mean ticks", dt, vt, (0.15 * dt).max(2.5 * se(dts, vts))),
            ] {
                let line = format!(
                    "level {level} {name} {what}: dungeon {a:.3}, VGDL {b:.3}, margin {margin:.3}"
                );
                println!("{line}");
                if (a - b).abs() > margin {
                    misses.push(line);
                }
            }
        }
    }
    // 30 comparisons at 2.5 standard errors: about one in 80 falls outside by chance.
    assert!(misses.len() <= 1, "outside the margins: {misses:#?}");
}
