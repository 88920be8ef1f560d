//! Decoding a learned model's cell scores into a Mario level under Mario's structures: the
//! terrain takes each cell's best tile, pipes and cannons are built whole where the scores
//! favour them as a whole, and walking enemies start standing on something. A cell-by-cell
//! decoding leaves half pipes, pipe tops with no body and goombas in the sky
//! (docs/level-vae.md, "Mario").

use crate::tiles::Tile;
use studio_core::game::TileScores;

/// The objects built whole: a pipe (two columns) and a cannon (one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Object {
    Pipe,
    Cannon,
}

impl Object {
    fn columns(self) -> usize {
        match self {
            Object::Pipe => 2,
            Object::Cannon => 1,
        }
    }

    /// The tiles that may stand at column `c` of the object, on its top row or below it.
    fn parts(self, c: usize, top: bool) -> &'static [Tile] {
        match (self, c, top) {
            (Object::Pipe, 0, true) => &[Tile::PipeTopLeft, Tile::PiranhaPipe],
            (Object::Pipe, _, true) => &[Tile::PipeTopRight],
            (Object::Pipe, 0, false) => &[Tile::PipeLeft],
            (Object::Pipe, _, false) => &[Tile::PipeRight],
            (Object::Cannon, _, true) => &[Tile::CannonTop],
            (Object::Cannon, _, false) => &[Tile::CannonBody],
        }
    }
}

/// True for a tile only an object places.
fn is_object_part(t: Tile) -> bool {
    matches!(
        t,
        Tile::PipeTopLeft
            | Tile::PipeTopRight
            | Tile::PipeLeft
            | Tile::PipeRight
            | Tile::PiranhaPipe
            | Tile::CannonTop
            | Tile::CannonBody
    )
}

/// True for an enemy that walks (it starts on something, not in the air).
fn walks(t: Tile) -> bool {
    matches!(t, Tile::Goomba | Tile::Koopa | Tile::RedKoopa | Tile::Spiky)
}

/// One placement of an object: its left column, top and bottom rows, the tile of each
/// column's top, and how much likelier the scores make it than the terrain it covers.
#[derive(Clone, Copy, Debug)]
struct Placement {
    object: Object,
    x: usize,
    top: usize,
    bottom: usize,
    top_tile: [Tile; 2],
    gain: f32,
}

/// The level the scores favour under Mario's structures. Every pipe is a top pair over two
/// columns of body reaching down to the ground (or the level's bottom), every cannon a top
/// over a body, and no walking enemy starts in the air. `None` for an empty board or a
/// palette with a letter Mario does not have.
pub fn structure_decode(scores: &TileScores<'_>) -> Option<Vec<String>> {
    let (w, h) = (scores.width, scores.height);
    if w == 0 || h == 0 {
        return None;
    }
    let tiles: Vec<Tile> = scores
        .palette
        .iter()
        .map(|&c| Tile::from_ascii(c))
        .collect::<Option<_>>()?;
    let score = |x: usize, y: usize, t: Tile| scores.get(x, y, t.ascii());
    let mut grid = vec![Tile::Empty; w * h];
    let mut base = vec![f32::NEG_INFINITY; w * h];
    for y in 0..h {
        for x in 0..w {
            for &t in tiles.iter().filter(|&&t| !is_object_part(t)) {
                let s = score(x, y, t);
                if s > base[y * w + x] {
                    (grid[y * w + x], base[y * w + x]) = (t, s);
                }
            }
        }
    }
    let mut placements = Vec::new();
    for object in [Object::Pipe, Object::Cannon] {
        let cols = object.columns();
        for x in 0..=w.saturating_sub(cols) {
            if x + cols > w {
                break;
            }
            for top in 0..h {
                if let Some(p) = place(object, x, top, w, h, &grid, &base, &score) {
                    placements.push(p);
                }
            }
        }
    }
    placements.sort_by(|a, b| {
        b.gain
            .total_cmp(&a.gain)
            .then(a.x.cmp(&b.x))
            .then(a.top.cmp(&b.top))
    });
    let mut taken = vec![false; w * h];
    for p in placements {
        let cells = || {
            (p.top..=p.bottom)
                .flat_map(move |y| (p.x..p.x + p.object.columns()).map(move |x| (x, y)))
        };
        if cells().any(|(x, y)| taken[y * w + x]) {
            continue;
        }
        for (x, y) in cells() {
            taken[y * w + x] = true;
            let c = x - p.x;
            grid[y * w + x] = if y == p.top {
                p.top_tile[c]
            } else {
                p.object.parts(c, false)[0]
            };
        }
    }
    stand_enemies(&mut grid, w, h);
    Some(
        (0..h)
            .map(|y| grid[y * w..(y + 1) * w].iter().map(|t| t.ascii()).collect())
            .collect(),
    )
}

/// The placement of `object` at column `x` with its top at row `top`: its body runs down
/// to the row above the first solid terrain under any of its columns (or to the bottom
/// row); `None` unless the scores make it likelier than the terrain it would cover.
#[allow(clippy::too_many_arguments)]
fn place(
    object: Object,
    x: usize,
    top: usize,
    w: usize,
    h: usize,
    grid: &[Tile],
    base: &[f32],
    score: &impl Fn(usize, usize, Tile) -> f32,
) -> Option<Placement> {
    let cols = object.columns();
    let mut bottom = top;
    while bottom + 1 < h && !(0..cols).any(|c| grid[(bottom + 1) * w + x + c].is_solid()) {
        bottom += 1;
    }
    let mut top_tile = [Tile::Empty; 2];
    let mut gain = 0.0f32;
    for c in 0..cols {
        let (tile, s) = object
            .parts(c, true)
            .iter()
            .map(|&t| (t, score(x + c, top, t)))
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        top_tile[c] = tile;
        gain += s - base[top * w + x + c];
        for y in top + 1..=bottom {
            gain += score(x + c, y, object.parts(c, false)[0]) - base[y * w + x + c];
        }
    }
    (gain.is_finite() && gain > 0.0).then_some(Placement {
        object,
        x,
        top,
        bottom,
        top_tile,
        gain,
    })
}

/// Moves each walking enemy that starts in the air down onto the first solid tile below it
/// (through air only); one with nothing under it, or its way blocked, becomes air.
fn stand_enemies(grid: &mut [Tile], w: usize, h: usize) {
    for y in (0..h).rev() {
        for x in 0..w {
            let t = grid[y * w + x];
            if !walks(t) {
                continue;
            }
            let mut at = y;
            while at + 1 < h && grid[(at + 1) * w + x] == Tile::Empty {
                at += 1;
            }
            grid[y * w + x] = Tile::Empty;
            if at + 1 < h && grid[(at + 1) * w + x].is_solid() {
                grid[at * w + x] = t;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The level a model sure of every cell of `art` by `margin` decodes to.
    fn decode(art: &[&str], margin: f32) -> Vec<String> {
        let palette: Vec<char> = Tile::ALL.iter().map(|t| t.ascii()).collect();
        let scores = TileScores::sure_of(art, &palette, margin);
        structure_decode(&TileScores {
            width: art[0].len(),
            height: art.len(),
            palette: &palette,
            scores: &scores,
        })
        .unwrap()
    }

    #[test]
    fn a_sure_model_of_a_well_formed_level_decodes_to_that_level() {
        let art = ["----------", "---<>--B--", "-g-[]--b-k", "XXXXXXXXXX"];
        assert_eq!(decode(&art, 5.0), art.map(String::from));
    }

    /// Every pipe top is a pair with a body under it down to something solid or the bottom
    /// row, and every body cell has its other half.
    fn pipes_are_whole(rows: &[String]) -> bool {
        let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
        let at = |x: usize, y: usize| grid.get(y).and_then(|r| r.get(x)).copied();
        let terrain = |c: Option<char>| {
            c.and_then(Tile::from_ascii)
                .is_some_and(|t| t.is_solid() && !is_object_part(t))
        };
        (0..grid.len()).all(|y| {
            (0..grid[y].len()).all(|x| match grid[y][x] {
                '<' | 'T' => {
                    at(x + 1, y) == Some('>')
                        && (y + 1..grid.len())
                            .take_while(|&b| !(terrain(at(x, b)) || terrain(at(x + 1, b))))
                            .all(|b| at(x, b) == Some('[') && at(x + 1, b) == Some(']'))
                }
                '[' => at(x + 1, y) == Some(']'),
                ']' => x > 0 && at(x - 1, y) == Some('['),
                '>' => x > 0 && matches!(at(x - 1, y), Some('<' | 'T')),
                _ => true,
            })
        })
    }

    #[test]
    fn half_pipes_and_tops_over_sure_air_are_removed() {
        // A pipe's right half only (its left half sure to be air), and a top pair over cells
        // sure to be air: neither is likelier whole than the terrain it would cover.
        let art = ["------<>--", "--]-------", "--]-------", "XXXXXXXXXX"];
        let rows = decode(&art, 5.0);
        assert!(pipes_are_whole(&rows), "{rows:?}");
        assert_eq!(&rows[..3], ["----------"; 3], "{rows:?}");
        assert_eq!(rows[3], "XXXXXXXXXX");
    }

    #[test]
    fn noise_decodes_to_whole_pipes_and_the_same_level_twice() {
        let palette: Vec<char> = Tile::ALL.iter().map(|t| t.ascii()).collect();
        let mut rng = studio_core::rng::Rng::new(7);
        let (w, h) = (24, 14);
        let scores: Vec<f32> = (0..w * h * palette.len())
            .map(|_| (rng.unit() * 4.0) as f32)
            .collect();
        let s = TileScores {
            width: w,
            height: h,
            palette: &palette,
            scores: &scores,
        };
        let rows = structure_decode(&s).unwrap();
        assert!(pipes_are_whole(&rows), "{rows:#?}");
        assert_eq!(structure_decode(&s).unwrap(), rows);
    }

    #[test]
    fn a_palette_mario_lacks_and_an_empty_board_are_refused() {
        let palette = ['-', '?'];
        let scores = [0.0, -1.0];
        let odd = TileScores {
            width: 1,
            height: 1,
            palette: &palette,
            scores: &scores,
        };
        assert!(structure_decode(&odd).is_none());
        let empty = TileScores {
            width: 0,
            height: 0,
            palette: &palette,
            scores: &[],
        };
        assert!(structure_decode(&empty).is_none());
    }
}
