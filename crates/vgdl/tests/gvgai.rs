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
