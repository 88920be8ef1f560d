//! A long `generate` run's saves (`PackOut`): an edit made between two saves is kept, and the
//! run goes on in a sibling file.

use level_studio::cli::pack_out::PackOut;
use level_studio::files;
use level_studio::level::Pack;
use level_studio::match3::{Layout, Match3Level};

fn pack(n: usize) -> Pack {
    let mut pack = Pack::new("p");
    for _ in 0..n {
        pack.levels.push(level_studio::level::Level::from_layout(
            "l",
            &Layout::open(5, 5).unwrap(),
        ));
    }
    pack
}

#[test]
fn an_edit_between_saves_is_kept_and_the_run_goes_to_a_sibling() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.ron");
    let mut out = PackOut::new(&path).unwrap();
    out.save(&pack(1)).unwrap();
    out.save(&pack(2)).unwrap();
    assert_eq!(out.path(), path);
    // The designer's edit: same length, other bytes, and a new file.
    let edited = "(name: \"mine\", levels: [])\n";
    std::fs::write(&path, edited).unwrap();
    out.save(&pack(3)).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    let sibling = dir.path().join("out-2.ron");
    assert_eq!(out.path(), sibling);
    assert_eq!(out.diverted_from(), Some(path.as_path()));
    assert_eq!(files::load_pack(&sibling).unwrap().levels.len(), 3);
    out.save(&pack(4)).unwrap();
    assert_eq!(files::load_pack(&sibling).unwrap().levels.len(), 4);
}

#[test]
fn a_file_made_before_the_first_save_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.ron");
    let mut out = PackOut::new(&path).unwrap();
    std::fs::write(&path, "(name: \"mine\", levels: [])\n").unwrap();
    out.save(&pack(1)).unwrap();
    assert_eq!(out.path(), dir.path().join("out-2.ron"));
}
