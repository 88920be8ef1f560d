//! The pattern term of the pattern-based GA (pattern-based-ga-generator): sprites of one
//! category that touch (4-connected) form a group; a lone sprite is a *single*, two a *pair*,
//! three or more a *group*. FPattern scores each sprite by the class of the group it belongs
//! to, with a low / medium / high weight per category; **α** rewards groups, **β** (the
//! weights inverted) rewards lone sprites.

use crate::game::Overlay;
use crate::grid::Grid;

/// The sprite categories the pattern term tells apart (GVGAI's game analyser's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Walls, blocks, water: what the avatar cannot walk through.
    Solid,
    /// What the avatar picks up (the key).
    Collectible,
    /// What hurts the avatar (monsters).
    Harmful,
    /// What ends the level (the exit).
    Goal,
    /// Any other sprite.
    Other,
}

impl Category {
    /// Every category, in the order of [`WEIGHTS`].
    pub const ALL: [Category; 5] = [
        Category::Solid,
        Category::Collectible,
        Category::Harmful,
        Category::Goal,
        Category::Other,
    ];

    /// The name in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Category::Solid => "solid",
            Category::Collectible => "collectible",
            Category::Harmful => "harmful",
            Category::Goal => "goal",
            Category::Other => "other",
        }
    }
}

/// Which fitness: α rewards grouped sprites, β (the paper's inverse) lone ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fitness {
    /// The paper's original pattern fitness: groups high, singles low.
    Alpha,
    /// The inverse: singles high, groups low.
    Beta,
}

impl Fitness {
    /// `alpha` or `beta`.
    pub fn name(self) -> &'static str {
        match self {
            Fitness::Alpha => "alpha",
            Fitness::Beta => "beta",
        }
    }

    /// The Greek letter, for labels.
    pub fn letter(self) -> &'static str {
        match self {
            Fitness::Alpha => "α",
            Fitness::Beta => "β",
        }
    }
}

/// The size class of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SizeClass {
    /// One sprite alone.
    Single,
    /// Two sprites together.
    Pair,
    /// Three or more.
    Group,
}

impl SizeClass {
    /// The class of a group of `size` sprites.
    pub fn of(size: usize) -> Self {
        match size {
            0 | 1 => SizeClass::Single,
            2 => SizeClass::Pair,
            _ => SizeClass::Group,
        }
    }

    /// `single`, `pair` or `group`.
    pub fn name(self) -> &'static str {
        match self {
            SizeClass::Single => "single",
            SizeClass::Pair => "pair",
            SizeClass::Group => "group",
        }
    }
}

/// The α weights (single, pair, group) per category, in the order of [`Category::ALL`].
/// The paper names the levels low / medium / high but gives no numbers; these are ours.
/// Solid sprites lean hardest on grouping (walls read as rooms and corridors, a lone wall
/// as noise); the key and the exit are always single in a room, so their weights
/// only shift every room alike.
pub const WEIGHTS: [[f64; 3]; 5] = [
    [0.1, 0.4, 1.0],
    [0.3, 0.7, 1.0],
    [0.2, 0.6, 1.0],
    [0.5, 0.75, 1.0],
    [0.2, 0.6, 1.0],
];

/// The weight of a sprite of `category` in a group of class `class` under `fitness`: β
/// swaps the single and group weights of α.
pub fn weight(fitness: Fitness, category: Category, class: SizeClass) -> f64 {
    let [low, medium, high] = WEIGHTS[category as usize];
    match (fitness, class) {
        (Fitness::Alpha, SizeClass::Single) | (Fitness::Beta, SizeClass::Group) => low,
        (_, SizeClass::Pair) => medium,
        (Fitness::Alpha, SizeClass::Group) | (Fitness::Beta, SizeClass::Single) => high,
    }
}

/// One group: its category and cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The sprites' category.
    pub category: Category,
    /// Its cells `(x, y)`.
    pub cells: Vec<(usize, usize)>,
}

impl Group {
    /// Its size class.
    pub fn class(&self) -> SizeClass {
        SizeClass::of(self.cells.len())
    }
}

/// The 4-connected groups of same-category sprites in `categories` (`None`: no sprite).
pub fn groups(categories: &Grid<Option<Category>>) -> Vec<Group> {
    let (w, h) = (categories.width(), categories.height());
    let mut seen = vec![false; w * h];
    let mut out = Vec::new();
    for (x, y, category) in categories.iter() {
        let Some(category) = category else { continue };
        if seen[y * w + x] {
            continue;
        }
        seen[y * w + x] = true;
        let mut cells = vec![(x, y)];
        let mut next = 0;
        while next < cells.len() {
            let (cx, cy) = cells[next];
            next += 1;
            let around = [
                (cx.wrapping_sub(1), cy),
                (cx + 1, cy),
                (cx, cy.wrapping_sub(1)),
                (cx, cy + 1),
            ];
            for (nx, ny) in around {
                if nx < w
                    && ny < h
                    && !seen[ny * w + nx]
                    && categories.get(nx, ny) == Some(category)
                {
                    seen[ny * w + nx] = true;
                    cells.push((nx, ny));
                }
            }
        }
        out.push(Group { category, cells });
    }
    out
}

/// FPattern: the mean weight of every sprite, each weighted by its group's class and
/// category; in 0..=1. A room without sprites scores 0.
pub fn f_pattern(groups: &[Group], fitness: Fitness) -> f64 {
    let sprites: usize = groups.iter().map(|g| g.cells.len()).sum();
    if sprites == 0 {
        return 0.0;
    }
    let total: f64 = groups
        .iter()
        .map(|g| g.cells.len() as f64 * weight(fitness, g.category, g.class()))
        .sum();
    total / sprites as f64
}

/// The tint of each size class on the canvas's Patterns overlay: three blues from pale to
/// deep. No red or green: a lone wall is not an error, and the GA's β wants them.
pub fn class_rgb(class: SizeClass) -> [u8; 3] {
    match class {
        SizeClass::Single => [170, 200, 230],
        SizeClass::Pair => [90, 160, 255],
        SizeClass::Group => [120, 90, 240],
    }
}

/// Whether the overlay outlines sprites of `category`: the walls, blocks and other tiles
/// whose grouping shapes a level. The key, the exit and the monsters are left alone: a room
/// holds one key and one exit, so they are always "single", and outlining them says nothing.
pub fn outlined(category: Category) -> bool {
    matches!(category, Category::Solid | Category::Other)
}

/// The Patterns overlay: every wall or block ([`outlined`]) tinted by its group's size class,
/// with a legend that says what is counted.
pub fn overlay(groups: &[Group]) -> Overlay {
    let groups: Vec<&Group> = groups.iter().filter(|g| outlined(g.category)).collect();
    let mut cells = Vec::new();
    for g in &groups {
        let [r, gr, b] = class_rgb(g.class());
        cells.extend(g.cells.iter().map(|&(x, y)| (x, y, [r, gr, b, 120])));
    }
    let count = |class: SizeClass| groups.iter().filter(|g| g.class() == class).count();
    Overlay {
        cells,
        legend: [SizeClass::Single, SizeClass::Pair, SizeClass::Group]
            .into_iter()
            .map(|c| {
                let n = count(c);
                let label = match c {
                    SizeClass::Single => format!("{n} alone"),
                    SizeClass::Pair if n == 1 => "1 pair".to_string(),
                    SizeClass::Pair => format!("{n} pairs"),
                    SizeClass::Group if n == 1 => "1 group of 3+".to_string(),
                    SizeClass::Group => format!("{n} groups of 3+"),
                };
                (label, class_rgb(c))
            })
            .collect(),
    }
}

/// The mean number of sprites per group (0 without sprites).
pub fn mean_group_size(groups: &[Group]) -> f64 {
    if groups.is_empty() {
        return 0.0;
    }
    groups.iter().map(|g| g.cells.len()).sum::<usize>() as f64 / groups.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Categories from text: `s` solid, `c` collectible, `h` harmful, `g` goal, `.` none.
    fn grid(text: &str) -> Grid<Option<Category>> {
        let rows: Vec<&str> = text.lines().collect();
        let mut g = Grid::filled(rows[0].len(), rows.len(), None);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let category = match c {
                    's' => Some(Category::Solid),
                    'c' => Some(Category::Collectible),
                    'h' => Some(Category::Harmful),
                    'g' => Some(Category::Goal),
                    _ => None,
                };
                g.set(x, y, category);
            }
        }
        g
    }

    #[test]
    fn groups_are_four_connected_and_of_one_category() {
        // A bar of three solids, a diagonal pair (two singles), a solid touching a harmful
        // (two singles), and a pair of harmfuls.
        let g = groups(&grid("sss.\n....\ns.s.\n.s.h\nhh.s\n"));
        let mut sizes: Vec<(Category, usize)> =
            g.iter().map(|g| (g.category, g.cells.len())).collect();
        sizes.sort();
        assert_eq!(
            sizes,
            vec![
                (Category::Solid, 1),
                (Category::Solid, 1),
                (Category::Solid, 1),
                (Category::Solid, 1),
                (Category::Solid, 3),
                (Category::Harmful, 1),
                (Category::Harmful, 2),
            ]
        );
        assert!((mean_group_size(&g) - 10.0 / 7.0).abs() < 1e-12);
    }

    #[test]
    fn alpha_and_beta_order_grouped_and_scattered_rooms_oppositely() {
        // Six solids in two bars against six lone solids.
        let grouped = groups(&grid("sss....\n.......\nsss....\n"));
        let scattered = groups(&grid("s.s.s..\n.......\ns.s.s..\n"));
        let a = |g: &[Group]| f_pattern(g, Fitness::Alpha);
        let b = |g: &[Group]| f_pattern(g, Fitness::Beta);
        assert!((a(&grouped) - 1.0).abs() < 1e-12);
        assert!((a(&scattered) - 0.1).abs() < 1e-12);
        assert!((b(&grouped) - 0.1).abs() < 1e-12);
        assert!((b(&scattered) - 1.0).abs() < 1e-12);
        // A pair scores the medium weight under both.
        let pair = groups(&grid("ss.\n...\n"));
        assert!((a(&pair) - 0.4).abs() < 1e-12 && (b(&pair) - 0.4).abs() < 1e-12);
        assert_eq!(f_pattern(&[], Fitness::Alpha), 0.0);
        assert_eq!(mean_group_size(&grouped), 3.0);
        assert_eq!(mean_group_size(&scattered), 1.0);
    }

    /// Issue 47, E13: the overlay outlines walls and blocks only (never the key, the exit or
    /// a monster, always "single" in a room), in no colour that reads as an error.
    #[test]
    fn the_overlay_outlines_walls_only_and_counts_them_in_words() {
        // A lone wall, a bar of three walls, a key, an exit and a monster.
        let g = groups(&grid("s.sss\n.....\nc.g.h\n"));
        let o = overlay(&g);
        let mut outlined: Vec<(usize, usize)> = o.cells.iter().map(|c| (c.0, c.1)).collect();
        outlined.sort();
        assert_eq!(outlined, vec![(0, 0), (2, 0), (3, 0), (4, 0)]);
        let labels: Vec<&str> = o.legend.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(labels, ["1 alone", "0 pairs", "1 group of 3+"]);
        for (_, [r, g, b]) in &o.legend {
            assert!(*b > *r && *b > *g, "a blue, not red or green: {r} {g} {b}");
        }
    }
}
