//! The playtest of a GVGAI game: the engine one game cycle a key (arrows or WASD move, Space
//! is USE, `.` lets a tick pass), with ticks taken back, drawn as the canvas draws the level.

use crate::level::{role_rgb, VgdlGame};
use studio_core::evolve::pattern::Category;
use studio_core::game::{
    CellLook, Game, GameView, Heading, PlayInput, PlayMove, PlayRules, PlayStatus, TileMark,
};
use studio_core::grid::Grid;
use vgdl::{Action, State, Winner};

/// The ticks a playtest keeps to take back.
const UNDO_TICKS: usize = 2_000;

/// A playtest: the engine, one tick a key.
pub struct VgdlPlay {
    game: &'static VgdlGame,
    state: State,
    history: Vec<State>,
    moves: u32,
}

impl VgdlPlay {
    /// A playtest of `state`.
    pub fn new(game: &'static VgdlGame, state: State) -> VgdlPlay {
        VgdlPlay {
            game,
            state,
            history: Vec::new(),
            moves: 0,
        }
    }

    /// The game as it stands.
    pub fn state(&self) -> &State {
        &self.state
    }
}

impl PlayRules for VgdlPlay {
    fn view(&self) -> Grid<CellLook> {
        let (w, h) = (
            self.state.size.0.max(1) as usize,
            self.state.size.1.max(1) as usize,
        );
        let game = self.game;
        let empty = game.tiles()[usize::from(game.empty_tile())];
        let mut view = Grid::filled(
            w,
            h,
            CellLook {
                rgb: empty.rgb,
                mark: TileMark::Plain,
            },
        );
        let rules = self.state.rules();
        let block = self.state.block.max(1);
        let avatar_kind = self.state.avatar().map(|a| a.kind);
        let look_of = |kind: usize| -> Option<CellLook> {
            match game.kind_tile(kind) {
                Some(t) if t == game.empty_tile() => None,
                Some(t) => Some(CellLook {
                    rgb: game.tiles()[usize::from(t)].rgb,
                    mark: game.tile_mark(t),
                }),
                None => {
                    // A sprite no character places (a sword, a shot, honey): its role's
                    // colour and its name's first letter.
                    let name = &rules.types[kind].name;
                    Some(CellLook {
                        rgb: role_rgb(Category::Other),
                        mark: TileMark::Glyph(name.chars().next().unwrap_or('?')),
                    })
                }
            }
        };
        // Fixed sprites first, movers over them, the avatar last.
        let mut kinds: Vec<usize> = (0..self.state.groups.len()).collect();
        kinds.sort_by_key(|&k| (!rules.fixed[k], Some(k) == avatar_kind));
        for k in kinds {
            let Some(look) = look_of(k) else { continue };
            for s in &self.state.groups[k] {
                if s.disabled {
                    continue;
                }
                let cx = (s.rect.x + block / 2).div_euclid(block);
                let cy = (s.rect.y + block / 2).div_euclid(block);
                if (0..w as i32).contains(&cx) && (0..h as i32).contains(&cy) {
                    let mut look = look;
                    if Some(k) == avatar_kind {
                        let o = s.orientation;
                        look.mark = match (o.x, o.y) {
                            _ if o.is_none() || o == vgdl::rules::Dir::NIL => TileMark::Avatar,
                            (x, _) if x < 0.0 => TileMark::Facing(Heading::Left),
                            (x, _) if x > 0.0 => TileMark::Facing(Heading::Right),
                            (_, y) if y < 0.0 => TileMark::Facing(Heading::Up),
                            (_, y) if y > 0.0 => TileMark::Facing(Heading::Down),
                            _ => TileMark::Avatar,
                        };
                    }
                    view.set(cx as usize, cy as usize, look);
                }
            }
        }
        view
    }

    fn input(&self) -> PlayInput {
        PlayInput::Directions
    }

    fn apply(&mut self, mv: PlayMove) -> bool {
        if self.state.is_over() {
            return false;
        }
        let action = match mv {
            PlayMove::Go(Heading::Left) => Action::Left,
            PlayMove::Go(Heading::Right) => Action::Right,
            PlayMove::Go(Heading::Up) => Action::Up,
            PlayMove::Go(Heading::Down) => Action::Down,
            PlayMove::Act => Action::Use,
            PlayMove::Wait => Action::Nil,
            PlayMove::Swap(..) | PlayMove::Click(..) => return false,
        };
        if action != Action::Nil && !self.state.actions().contains(&action) {
            return false;
        }
        if self.history.len() >= UNDO_TICKS {
            self.history.remove(0);
        }
        self.history.push(self.state.clone());
        self.state.step(action);
        self.moves += 1;
        true
    }

    fn status(&self) -> PlayStatus {
        let s = &self.state;
        let outcome = match s.winner {
            Winner::Wins => Some(true),
            Winner::Loses => Some(false),
            _ => None,
        };
        let message = match outcome {
            // Counted in the designer's moves, as "Moves" beside it counts (W17): the
            // engine's clock reads 0 while its first move is judged.
            Some(true) => format!("Won on move {} with score {}!", self.moves, s.score),
            Some(false) => format!("Lost on move {} (score {}).", self.moves, s.score),
            None => format!("Tick {} of {}", s.tick.max(0), vgdl::engine::MAX_TICKS),
        };
        let mut counters = vec![("Score".to_string(), format!("{}", s.score))];
        if let Some(a) = s.avatar() {
            if a.max_hp > 0 {
                counters.push(("Health".into(), a.hp.to_string()));
            }
        }
        PlayStatus {
            moves: self.moves,
            outcome,
            message,
            counters,
        }
    }

    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(state) => {
                self.state = state;
                self.moves = self.moves.saturating_sub(1);
                true
            }
            None => false,
        }
    }
}
