//! The VGLC Zelda importer on the real corpus in `../shared/data/vglc/` (skipped, with the
//! reason printed, where the corpus is absent).

use crate::assert_ok;
use level_studio::datasets::zelda::vglc_files;
use level_studio::datasets::VglcError;
use level_studio::dungeon::import::{vglc_dir, ImportError};
use std::collections::HashSet;
use std::path::Path;

const CORPUS: &str = "../shared/data/vglc/The Legend of Zelda";

#[test]
fn every_vglc_zelda_room_imports_and_placement_is_seeded() {
    let dir = Path::new(CORPUS);
    if !dir.exists() {
        eprintln!("skipped: the VGLC corpus is not at {CORPUS}");
        return;
    }
    assert_eq!(vglc_files(dir).unwrap().len(), 18);
    let rooms = vglc_dir(dir, 0).unwrap();
    let distinct: HashSet<&Vec<String>> = rooms.iter().map(|r| &r.terrain).collect();
    eprintln!("{} rooms, {} distinct layouts", rooms.len(), distinct.len());
    assert_eq!(rooms.len(), 459);
    assert_eq!(distinct.len(), 267);
    let mut unplayable = 0;
    for r in &rooms {
        match &r.room {
            Ok(room) => assert_eq!((room.width(), room.height()), (16, 11), "{}", r.name),
            Err(e) => {
                // Only rooms without a floor cell: void inside, or O/I tiles (blocks).
                assert!(e.to_string().contains("floor"), "{}: {e}", r.name);
                assert!(
                    r.terrain.iter().all(|row| !row.contains(['F', 'S'])),
                    "{}",
                    r.name
                );
                unplayable += 1;
            }
        }
    }
    eprintln!("{unplayable} rooms have no floor");
    assert_eq!(unplayable, 52);
    assert_eq!(vglc_dir(dir, 0).unwrap(), rooms);
    let other = vglc_dir(dir, 1).unwrap();
    assert_ne!(other, rooms, "another seed places another way somewhere");
}

#[test]
fn a_folder_without_dungeon_files_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        vglc_dir(dir.path(), 0),
        Err(ImportError::Vglc(VglcError::NoDungeons(_)))
    ));
}

#[test]
fn the_import_command_writes_a_pack_and_refuses_an_empty_folder() {
    let dir = tempfile::tempdir().unwrap();
    let studio = || std::process::Command::new(env!("CARGO_BIN_EXE_level-studio"));
    // GVGAI letters round-trip.
    let gvgai = dir.path().join("zelda_lvl0.txt");
    let text = "wwwwwwwwwwwww\nwA.......w..w\nw..w........w\nw...w...w.+ww\nwww.w2..wwwww\nw.......w.g.w\nw.w.....w...w\nw1....3.....w\nwwwwwwwwwwwww\n";
    std::fs::write(&gvgai, text).unwrap();
    let out_pack = dir.path().join("gvgai.ron");
    let out = studio()
        .args(["import", "--format", "gvgai-zelda"])
        .arg(&gvgai)
        .arg("--out")
        .arg(&out_pack)
        .output()
        .unwrap();
    assert_ok(&out);
    let pack = level_studio::files::load_pack(&out_pack).unwrap();
    assert_eq!(pack.levels[0].cells.join("\n") + "\n", text);

    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let none = dir.path().join("none.ron");
    let out = studio()
        .args(["import", "--format", "vglc-zelda"])
        .arg(&empty)
        .arg("--out")
        .arg(&none)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no VGLC Zelda dungeon files"));
    assert!(!none.exists());

    let corpus = Path::new(CORPUS);
    if !corpus.exists() {
        eprintln!("skipped the corpus part: the VGLC corpus is not at {CORPUS}");
        return;
    }
    let all = dir.path().join("vglc.ron");
    let out = studio()
        .args(["import", "--format", "vglc-zelda"])
        .arg(corpus)
        .arg("--out")
        .arg(&all)
        .output()
        .unwrap();
    assert_ok(&out);
    assert_eq!(
        level_studio::files::load_pack(&all).unwrap().levels.len(),
        459 - 52
    );
}
