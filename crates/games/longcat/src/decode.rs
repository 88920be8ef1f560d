//! Decoding a learned model's cell scores into a Longcat level by walking: the level is the
//! walk of its own solution, as the solution-down generator builds one, and a beam search
//! picks the walk whose cells the model most believes empty. Every level it makes is
//! solvable by construction; the model decides which one (docs/level-vae.md, "Longcat").

use super::level::LongcatLevel;
use super::rules::Direction;
use studio_core::game::TileScores;

/// Partial walks kept at each step of the search.
pub const BEAM: usize = 32;

/// A walk under way: where it started, where the head is, the cells it filled, the cells it
/// has made walls (where a slide stopped against an unvisited cell), and its score.
#[derive(Clone, Copy, Debug)]
struct Walk {
    start: usize,
    head: usize,
    body: u128,
    walls: u128,
    score: f32,
}

/// The level whose solution walk the scores favour most, among the walks a beam of
/// [`BEAM`] keeps: the head where `@` is likeliest against `#`, each slide's cells scored by
/// how much likelier `.` is than `#` there; the cells the walk never visits are walls.
/// `None` for a board Longcat does not take (empty or over 128 cells).
pub fn walk_decode(scores: &TileScores<'_>) -> Option<LongcatLevel> {
    let (width, height) = (scores.width, scores.height);
    let cells = width * height;
    if cells == 0 || cells > 128 {
        return None;
    }
    let head_gain = scores.margins('@', '#');
    let empty_gain = scores.margins('.', '#');
    let mut beam: Vec<Walk> = (0..cells)
        .map(|c| Walk {
            start: c,
            head: c,
            body: 1u128 << c,
            walls: 0,
            score: finite(head_gain[c]),
        })
        .collect();
    keep_best(&mut beam);
    let mut best = beam[0];
    while !beam.is_empty() {
        let mut next = Vec::with_capacity(beam.len() * 16);
        for walk in &beam {
            for d in Direction::ALL {
                slides(walk, d, width, height, &empty_gain, &mut next);
            }
        }
        keep_best(&mut next);
        if let Some(top) = next.first().filter(|w| better(w, &best)) {
            best = *top;
        }
        beam = next;
    }
    let full = if cells == 128 {
        u128::MAX
    } else {
        (1u128 << cells) - 1
    };
    LongcatLevel::from_walls(width, height, full & !best.body, best.start).ok()
}

/// Every slide from `walk`'s head in direction `d`: 1, 2, … cells through unvisited,
/// unwalled cells; the cell after the last must stop the cat, so it becomes a wall unless it
/// is the edge, the body or a wall already.
fn slides(
    walk: &Walk,
    d: Direction,
    width: usize,
    height: usize,
    empty_gain: &[f32],
    out: &mut Vec<Walk>,
) {
    let mut at = walk.head;
    let (mut body, mut score) = (walk.body, walk.score);
    while let Some(n) = step(width, height, at, d) {
        if (walk.body | walk.walls) & 1u128 << n != 0 {
            break;
        }
        at = n;
        body |= 1u128 << n;
        score += finite(empty_gain[n]);
        let stopper = step(width, height, at, d);
        let walls = match stopper {
            Some(s) if body & 1u128 << s == 0 => walk.walls | 1u128 << s,
            _ => walk.walls,
        };
        out.push(Walk {
            start: walk.start,
            head: at,
            body,
            walls,
            score,
        });
    }
}

/// The neighbour of cell `i` in direction `d`, if on the board.
fn step(width: usize, height: usize, i: usize, d: Direction) -> Option<usize> {
    let (dx, dy) = d.delta();
    let (x, y) = (
        (i % width) as i64 + dx as i64,
        (i / width) as i64 + dy as i64,
    );
    (x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height)
        .then(|| y as usize * width + x as usize)
}

/// A score the search can add: a model's minus infinity (a tile it rules out) as a very
/// low number, so sums stay comparable.
fn finite(score: f32) -> f32 {
    score.max(-1.0e6)
}

/// Higher score first; ties by start, head, body and walls, so the search is the same on
/// every run.
fn better(a: &Walk, b: &Walk) -> bool {
    order(a, b) == std::cmp::Ordering::Less
}

fn order(a: &Walk, b: &Walk) -> std::cmp::Ordering {
    b.score
        .total_cmp(&a.score)
        .then(a.start.cmp(&b.start))
        .then(a.head.cmp(&b.head))
        .then(a.body.cmp(&b.body))
        .then(a.walls.cmp(&b.walls))
}

/// Keeps the [`BEAM`] best walks, one per (start, head, body): two walks that filled the same
/// cells the same way score the same.
fn keep_best(walks: &mut Vec<Walk>) {
    walks.sort_by(order);
    walks.dedup_by(|a, b| a.start == b.start && a.head == b.head && a.body == b.body);
    walks.truncate(BEAM);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GraphAnalysis;

    /// The level a model sure of every cell of `art` (`#`, `.`, `@`) by `margin` decodes to.
    fn decode(art: &[&str], margin: f32) -> LongcatLevel {
        let palette = ['#', '.', '@'];
        let scores = TileScores::sure_of(art, &palette, margin);
        walk_decode(&TileScores {
            width: art[0].len(),
            height: art.len(),
            palette: &palette,
            scores: &scores,
        })
        .unwrap()
    }

    #[test]
    fn a_sure_model_of_a_solvable_level_decodes_to_that_level() {
        let art = ["@..#", "##.#", "##..", "####"];
        let level = decode(&art, 5.0);
        assert_eq!(
            level,
            LongcatLevel::from_rows(&art.map(String::from)).unwrap()
        );
    }

    #[test]
    fn an_unsolvable_picture_decodes_to_a_solvable_level_near_it() {
        // The two lone cells on the right cannot both be filled: the walk gives one up.
        let art = ["@....", "####.", "#.#..", "#####"];
        let level = decode(&art, 3.0);
        let analysis = GraphAnalysis::of(&level, 10_000).unwrap();
        assert!(analysis.solvable());
        let rows: Vec<char> = level.to_level("x").cells.concat().chars().collect();
        let want: Vec<char> = art.concat().chars().collect();
        let same = rows.iter().zip(&want).filter(|(a, b)| a == b).count();
        assert!(same >= 18, "{level:?}");
    }

    #[test]
    fn every_decoding_of_noise_is_solvable_and_the_same_twice() {
        let mut rng = studio_core::rng::Rng::new(7);
        let palette = ['#', '.', '@'];
        for _ in 0..30 {
            let scores: Vec<f32> = (0..8 * 8 * 3).map(|_| rng.normal() as f32).collect();
            let s = TileScores {
                width: 8,
                height: 8,
                palette: &palette,
                scores: &scores,
            };
            let level = walk_decode(&s).unwrap();
            assert_eq!(walk_decode(&s).unwrap(), level);
            assert!(GraphAnalysis::of(&level, 1_000_000).unwrap().solvable());
        }
    }
}
