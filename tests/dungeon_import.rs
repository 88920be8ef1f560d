//! The VGLC Zelda importer on the real corpus in `../shared/data/vglc/` (skipped, with the
//! reason printed, where the corpus is absent).

// Tests fail loudly on purpose: an unwrap or expect here is an assertion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use level_studio::dungeon::import::{vglc_dir, vglc_files, ImportError};
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
        Err(ImportError::NoDungeons(_))
    ));
}
