//! Playtesting a blend segment under the rules of the game it is like (the majority of its
//! single-game tiles), turn by turn, with the agents' own moves and goals:
//!
//! - **Lode Runner-like**: the runner starts on the spawn `M`, else where the agent's top
//!   start is. Left / right walk, up climbs a ladder, down climbs down or lets go of a rope,
//!   Space digs the brick below on the side faced (the hole stays open), and whoever stands on
//!   nothing falls until something holds them. The runner goes where the agent can, and into
//!   an enemy (`E`), which loses. Touching gold takes it; won with half the gold (the agent's
//!   bar). A segment without gold, which the agent calls unplayable, is still a small game
//!   here: reach the bottom start's row.
//! - **Zelda-like**: the hero starts at the walkable cell nearest the bottom-left corner
//!   and must reach the one nearest the top-right (the agent's first corner pair); four-way
//!   moves on the cells the agent walks (floor, doors, stairs, monsters and Lode Runner's open
//!   cells; walls, blocks, bricks, elements and void block). Each step onto a damaging tile
//!   costs one of three hearts.
//!
//! Every move can be taken back.

use super::agents::{lr_climb, lr_free, lr_stands, lr_start, nearest_free, zelda_free, Cells};
use super::metrics::{likeness, Likeness};
use super::tiles::{props, COLOURS, LETTERS};
use studio_core::game::{CellLook, Heading, PlayInput, PlayMove, PlayRules, PlayStatus, TileMark};
use studio_core::grid::Grid;

/// Hearts of the Zelda-like hero.
pub const HEARTS: u32 = 3;

/// The rules a segment is played by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Gravity, ladders, ropes, digging, gold.
    LodeRunner,
    /// Four-way moves from corner to corner.
    Zelda,
}

#[derive(Clone, Debug, PartialEq)]
struct State {
    cells: Cells,
    at: (usize, usize),
    facing: Heading,
    moves: u32,
    gold_taken: usize,
    hearts: u32,
    outcome: Option<bool>,
    message: String,
}

/// A blend segment being played.
pub struct BlendPlay {
    rules: Rules,
    gold: usize,
    goal: Option<(usize, usize)>,
    goal_row: Option<usize>,
    state: State,
    history: Vec<State>,
}

impl BlendPlay {
    /// A game of `rows` under the rules of the game they are like.
    ///
    /// # Errors
    /// A segment with no cell to start on, in words.
    pub fn new(rows: &[String]) -> Result<Self, String> {
        super::level::check_rows(rows)?;
        let cells: Cells = rows.iter().map(|r| r.chars().collect()).collect();
        let (h, w) = (cells.len(), cells[0].len());
        let rules = match likeness(rows) {
            Likeness::LodeRunner => Rules::LodeRunner,
            Likeness::Zelda => Rules::Zelda,
        };
        let gold = cells.iter().flatten().filter(|&&c| c == 'G').count();
        let (start, goal, goal_row) = match rules {
            Rules::LodeRunner => {
                let spawn = (0..h)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .find(|&(x, y)| cells[y][x] == 'M');
                let start = spawn.or_else(|| lr_start(&cells, true));
                let bottom = lr_start(&cells, false).map(|b| b.1);
                (start, None, (gold == 0).then_some(bottom).flatten())
            }
            Rules::Zelda => (
                nearest_free(&cells, (0, h - 1)),
                nearest_free(&cells, (w - 1, 0)),
                None,
            ),
        };
        let at = start.ok_or("no cell to start on: the segment is all wall or element")?;
        let mut state = State {
            cells,
            at,
            facing: Heading::Right,
            moves: 0,
            gold_taken: 0,
            hearts: HEARTS,
            outcome: None,
            message: String::new(),
        };
        state.message = match rules {
            Rules::LodeRunner if gold > 0 => format!(
                "Lode Runner rules: take {} of the {gold} gold. Arrows move and climb, Space digs",
                gold.div_ceil(2)
            ),
            Rules::LodeRunner => "Lode Runner rules: no gold here (the agent calls it unplayable); get down to the bottom".into(),
            Rules::Zelda => "Zelda rules: reach the top-right corner (the star)".into(),
        };
        let mut play = Self {
            rules,
            gold,
            goal,
            goal_row: None,
            state,
            history: Vec::new(),
        };
        if rules == Rules::LodeRunner {
            // The first fall is not a move: a runner who lands on the goal row starts from the
            // top start instead, and a segment whose every start lands there has nothing to
            // play (a playtest never starts won).
            play.fall();
            if goal_row.is_some() && goal_row == Some(play.state.at.1) {
                if let Some(top) = lr_start(&play.state.cells, true) {
                    play.state.at = top;
                    play.fall();
                }
            }
            if play.state.outcome.is_some() {
                return Err(format!("nothing to play: {}", play.state.message));
            }
            if goal_row.is_some() && goal_row == Some(play.state.at.1) {
                return Err(
                    "nothing to play: there is no gold, and the runner starts on the bottom \
                     row it would have to reach"
                        .into(),
                );
            }
            play.goal_row = goal_row;
        }
        Ok(play)
    }

    /// The rules in play.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Where the player is.
    pub fn position(&self) -> (usize, usize) {
        self.state.at
    }

    fn get(&self, x: i64, y: i64) -> Option<char> {
        (x >= 0 && y >= 0)
            .then(|| {
                self.state
                    .cells
                    .get(y as usize)
                    .and_then(|r| r.get(x as usize))
            })
            .flatten()
            .copied()
    }

    fn supported(&self) -> bool {
        let (x, y) = (self.state.at.0 as i64, self.state.at.1 as i64);
        lr_stands(&self.state.cells, x, y)
    }

    /// Falls until something holds the runner.
    fn fall(&mut self) {
        while !self.supported() && self.state.outcome.is_none() {
            let (x, y) = self.state.at;
            self.enter((x, y + 1));
        }
    }

    /// Steps onto a cell: gold, enemies, hearts and the goal.
    fn enter(&mut self, to: (usize, usize)) {
        let s = &mut self.state;
        s.at = to;
        let here = s.cells[to.1][to.0];
        match self.rules {
            Rules::LodeRunner => {
                if here == 'G' {
                    s.cells[to.1][to.0] = '.';
                    s.gold_taken += 1;
                    s.message = format!("Gold! {} of {}", s.gold_taken, self.gold);
                }
                if here == 'E' {
                    s.outcome = Some(false);
                    s.message = "An enemy caught you.".into();
                } else if (self.gold > 0 && 2 * s.gold_taken >= self.gold)
                    || self.goal_row == Some(to.1)
                {
                    s.outcome = Some(true);
                    s.message = format!("Through in {} moves!", s.moves);
                }
            }
            Rules::Zelda => {
                if props(here).is_some_and(|p| p.damaging) {
                    s.hearts = s.hearts.saturating_sub(1);
                    s.message = format!("Ouch: {} hearts left", s.hearts);
                    if s.hearts == 0 {
                        s.outcome = Some(false);
                        s.message = "Out of hearts.".into();
                    }
                }
                if s.outcome.is_none() && self.goal == Some(to) {
                    s.outcome = Some(true);
                    s.message = format!("Across in {} moves!", s.moves);
                }
            }
        }
    }

    fn go(&mut self, h: Heading) -> bool {
        let (x, y) = (self.state.at.0 as i64, self.state.at.1 as i64);
        let (dx, dy) = match h {
            Heading::Up => (0, -1),
            Heading::Down => (0, 1),
            Heading::Left => (-1, 0),
            Heading::Right => (1, 0),
        };
        if matches!(h, Heading::Left | Heading::Right) {
            self.state.facing = h;
        }
        let Some(target) = self.get(x + dx, y + dy) else {
            return false;
        };
        let allowed = match self.rules {
            Rules::Zelda => zelda_free(target),
            Rules::LodeRunner => {
                let here = self.get(x, y).unwrap_or('.');
                // Enemies keep the agent out; a playtest lets the runner walk into one (and lose).
                (lr_free(target) || target == 'E')
                    && match h {
                        Heading::Up => lr_climb(here),
                        Heading::Down => true,
                        Heading::Left | Heading::Right => self.supported(),
                    }
            }
        };
        if !allowed {
            return false;
        }
        self.state.moves += 1;
        self.enter(((x + dx) as usize, (y + dy) as usize));
        if self.rules == Rules::LodeRunner {
            self.fall();
        }
        true
    }

    fn dig(&mut self) -> bool {
        if self.rules != Rules::LodeRunner || !self.supported() {
            return false;
        }
        let dx = if self.state.facing == Heading::Left {
            -1
        } else {
            1
        };
        let (x, y) = (self.state.at.0 as i64, self.state.at.1 as i64);
        let side_free = self.get(x + dx, y).is_some_and(lr_free);
        if !side_free || self.get(x + dx, y + 1) != Some('b') {
            return false;
        }
        self.state.cells[(y + 1) as usize][(x + dx) as usize] = '.';
        self.state.moves += 1;
        self.state.message = "Dug a hole".into();
        true
    }
}

impl PlayRules for BlendPlay {
    fn view(&self) -> Grid<CellLook> {
        let s = &self.state;
        let (h, w) = (s.cells.len(), s.cells[0].len());
        let mut grid = Grid::filled(w, h, CellLook::default());
        for (y, row) in s.cells.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let rgb = LETTERS
                    .iter()
                    .position(|&l| l == c)
                    .map_or([255, 0, 255], |k| COLOURS[k]);
                let mark = match c {
                    'E' | 'M' => TileMark::Monster(1),
                    _ => TileMark::Plain,
                };
                grid.set(x, y, CellLook { rgb, mark });
            }
        }
        if let Some((gx, gy)) = self.goal {
            grid.set(
                gx,
                gy,
                CellLook {
                    rgb: [250, 220, 80],
                    mark: TileMark::Glyph('*'),
                },
            );
        }
        let (x, y) = s.at;
        grid.set(
            x,
            y,
            CellLook {
                rgb: [240, 240, 240],
                mark: TileMark::Facing(s.facing),
            },
        );
        grid
    }

    fn input(&self) -> PlayInput {
        PlayInput::Directions
    }

    fn apply(&mut self, mv: PlayMove) -> bool {
        if self.state.outcome.is_some() {
            return false;
        }
        let before = self.state.clone();
        let done = match mv {
            PlayMove::Go(h) => self.go(h),
            PlayMove::Act => self.dig(),
            PlayMove::Wait | PlayMove::Swap(..) | PlayMove::Click(..) => false,
        };
        if done {
            self.history.push(before);
        }
        done
    }

    fn status(&self) -> PlayStatus {
        let s = &self.state;
        let mut counters = vec![(
            "Rules".to_string(),
            match self.rules {
                Rules::LodeRunner => "Lode Runner",
                Rules::Zelda => "Zelda",
            }
            .to_string(),
        )];
        match self.rules {
            Rules::LodeRunner if self.gold > 0 => {
                counters.push(("Gold".into(), format!("{} / {}", s.gold_taken, self.gold)));
            }
            Rules::LodeRunner => {}
            Rules::Zelda => counters.push(("Hearts".into(), format!("{} / {HEARTS}", s.hearts))),
        }
        PlayStatus {
            moves: s.moves,
            outcome: s.outcome,
            message: s.message.clone(),
            counters,
        }
    }

    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(s) => {
                self.state = s;
                true
            }
            None => false,
        }
    }
}
