//! The editing board with real games' hooks: match-3 mirroring inside its play area, Longcat's
//! one head, the fill tool's regions.

use level_studio::document::board::{Board, Tile};
use level_studio::game::{registry, Game};
use level_studio::symmetry::Symmetry;

fn game(name: &str) -> &'static dyn Game {
    registry::find(name).unwrap()
}

fn tile(b: &Board, name: &str) -> Tile {
    b.tile_named(name).unwrap()
}

#[test]
fn mirrored_match3_brush_stays_in_the_play_area_on_odd_and_even_sizes() {
    // 4×4 area at columns 2..6, rows 3..7: vertical mirror of column 2 is column 5.
    let b = Board::blank(game("match3"), 4, 4);
    let f = b.mirror_frame(2, 3);
    assert_eq!((f.x, f.y, f.width, f.height), (2, 3, 4, 4));
    assert_eq!(
        Board::mirrored(2, 3, f, Symmetry::Vertical),
        vec![(2, 3), (5, 3)]
    );
    // 5×5 area: the centre column mirrors onto itself.
    let b = Board::blank(game("match3"), 5, 5);
    let f = b.mirror_frame(4, 3);
    assert_eq!(
        Board::mirrored(4, 3, f, Symmetry::Quadrant),
        vec![(4, 3), (4, 7)]
    );
}

#[test]
fn painting_the_head_moves_it_and_the_last_playfield_is_kept() {
    let mut b = Board::blank(game("longcat"), 4, 4);
    let (head, empty) = (tile(&b, "HEAD"), tile(&b, "EMPTY"));
    assert!(b.set(2, 2, head));
    assert_eq!(b.get(0, 0), empty);
    assert_eq!(b.to_rows().concat().matches('@').count(), 1);
    let level = game("match3").level_from_ascii("one", ".#\n##\n").unwrap();
    let mut m = Board::from_level(&level).unwrap();
    let a = m.play_area().unwrap();
    assert!(!m.set(a.x, a.y, tile(&m, "BLOCK")));
    assert!(!m.set(0, 0, 7), "a tile the game does not have");
}

#[test]
fn flood_region_is_four_connected() {
    let level = game("longcat")
        .level_from_ascii("f", "@.#\n.##\n#..\n")
        .unwrap();
    let b = Board::from_level(&level).unwrap();
    assert_eq!(b.flood_region(1, 0).len(), 1);
    assert_eq!(b.flood_region(2, 0).len(), 3);
}
