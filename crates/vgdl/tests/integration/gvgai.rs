//! Every game description GVGAI ships reads (when its folder is here: `GVGAI_DIR`, else the
//! shared data folder beside the repository; GPL test data, read in place, never copied).

use std::path::PathBuf;

fn gridphysics() -> Option<PathBuf> {
    let dir = std::env::var_os("GVGAI_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/gvgai")
        })
        .join("gridphysics");
    dir.is_dir().then_some(dir)
}

#[test]
fn every_gvgai_game_description_reads() {
    let Some(dir) = gridphysics() else {
        eprintln!("skipped: GVGAI's games are not here (set GVGAI_DIR)");
        return;
    };
    let mut games: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            p.extension().is_some_and(|e| e == "txt")
                && !name.contains("_lvl")
                && !name.ends_with("_ggame")
                && !name.ends_with("_glvl")
        })
        .collect();
    games.sort();
    let mut failed = Vec::new();
    let mut sprites = 0;
    let mut levels = 0;
    let mut unmapped: Vec<String> = Vec::new();
    for path in &games {
        let text = std::fs::read_to_string(path).unwrap();
        match vgdl::parse(&text, &path.display().to_string()) {
            Ok(g) => {
                assert!(!g.sprites.is_empty(), "{}: no sprites", path.display());
                assert!(
                    !g.terminations.is_empty(),
                    "{}: no terminations",
                    path.display()
                );
                sprites += g.sprites.len();
                // Its levels read with its mapping.
                let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                for k in 0..5 {
                    let lvl = dir.join(format!("{stem}_lvl{k}.txt"));
                    let Ok(text) = std::fs::read_to_string(&lvl) else {
                        continue;
                    };
                    match vgdl::read_level(&g, &text, &lvl.display().to_string()) {
                        Ok(level) => {
                            levels += 1;
                            // Only blanks: the games that leave a cell empty with a space.
                            for (c, _) in &level.unmapped {
                                if *c != ' ' {
                                    failed.push(format!("{}: “{c}” is not mapped", lvl.display()));
                                }
                            }
                            if !level.unmapped.is_empty() {
                                unmapped.push(lvl.display().to_string());
                            }
                        }
                        Err(e) => failed.push(e.to_string()),
                    }
                }
            }
            Err(e) => failed.push(e.to_string()),
        }
    }
    assert!(games.len() >= 100, "{} games found", games.len());
    assert!(
        failed.is_empty(),
        "{} of {} did not read:\n{}",
        failed.len(),
        games.len(),
        failed.join("\n")
    );
    assert!(levels >= 500, "{levels} levels");
    eprintln!(
        "{} games, {sprites} sprites, {levels} levels; with blank cells the mapping lacks (left empty, as GVGAI does): {}",
        games.len(),
        unmapped.len()
    );
}

/// The engine's work bounds (F34) sit well above what GVGAI's own games need: every game's
/// five levels, a do-nothing game and two random ones each, none stopped and none within a
/// quarter of either bound (the most per tick and per game are printed for docs/vgdl.md).
#[test]
fn no_gvgai_game_comes_near_the_work_bounds() {
    use vgdl::engine::{GAME_WORK, TICK_WORK};
    use vgdl::{Action, State};
    let Some(dir) = gridphysics() else {
        eprintln!("skipped: GVGAI's games are not here (set GVGAI_DIR)");
        return;
    };
    let mut games: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".txt")?.to_string();
            (!stem.contains("_lvl") && !stem.ends_with("_ggame") && !stem.ends_with("_glvl"))
                .then_some(stem)
        })
        .collect();
    games.sort();
    let (mut tick_most, mut game_most) = ((0, String::new()), (0, String::new()));
    for game in &games {
        let text = std::fs::read_to_string(dir.join(format!("{game}.txt"))).unwrap();
        let Ok(desc) = vgdl::parse(&text, game) else {
            continue;
        };
        let Ok(rules) = vgdl::compile(&desc, game) else {
            continue;
        };
        let rules = std::sync::Arc::new(rules);
        for l in 0..5 {
            let Ok(text) = std::fs::read_to_string(dir.join(format!("{game}_lvl{l}.txt"))) else {
                continue;
            };
            let Ok(level) = vgdl::read_level(&desc, &text, "level") else {
                continue;
            };
            for seed in 0..3u64 {
                let Ok(mut state) = State::new(rules.clone(), &level, seed as i64) else {
                    continue;
                };
                let mut x = seed.wrapping_mul(7919).wrapping_add(17);
                while !state.is_over() {
                    x = x
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let actions = state.actions();
                    let action = if seed == 0 || actions.is_empty() {
                        Action::Nil
                    } else {
                        actions[(x >> 33) as usize % actions.len()]
                    };
                    state.step(action);
                    if state.tick_work() > tick_most.0 {
                        tick_most = (state.tick_work(), format!("{game} level {l} seed {seed}"));
                    }
                }
                assert_eq!(state.stopped(), None, "{game} level {l} seed {seed}");
                if state.game_work() > game_most.0 {
                    game_most = (state.game_work(), format!("{game} level {l} seed {seed}"));
                }
            }
        }
    }
    println!("most pairs in a tick: {} ({})", tick_most.0, tick_most.1);
    println!("most pairs in a game: {} ({})", game_most.0, game_most.1);
    assert!(tick_most.0 < TICK_WORK / 4, "{tick_most:?}");
    assert!(game_most.0 < GAME_WORK / 4, "{game_most:?}");
}
