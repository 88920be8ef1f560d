//! The player's actions as GVGAI names them, and button scripts made of them.

use crate::rules::Dir;

/// A player's action, as GVGAI names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Nothing.
    Nil,
    /// Left.
    Left,
    /// Right.
    Right,
    /// Up.
    Up,
    /// Down.
    Down,
    /// Use (shoot, swing).
    Use,
}

impl Action {
    /// GVGAI's name of the action (`LEFT`, `NIL`).
    pub fn name(self) -> &'static str {
        match self {
            Action::Nil => "NIL",
            Action::Left => "LEFT",
            Action::Right => "RIGHT",
            Action::Up => "UP",
            Action::Down => "DOWN",
            Action::Use => "USE",
        }
    }

    /// The action named `word` (GVGAI's names, any case, with or without `ACTION_`).
    pub fn named(word: &str) -> Option<Action> {
        let w = word.to_ascii_uppercase();
        let w = w.strip_prefix("ACTION_").unwrap_or(&w);
        Some(match w {
            "NIL" | "NONE" => Action::Nil,
            "LEFT" => Action::Left,
            "RIGHT" => Action::Right,
            "UP" => Action::Up,
            "DOWN" => Action::Down,
            "USE" => Action::Use,
            _ => return None,
        })
    }

    pub(super) fn dir(self) -> Dir {
        match self {
            Action::Left => Dir::LEFT,
            Action::Right => Dir::RIGHT,
            Action::Up => Dir::UP,
            Action::Down => Dir::DOWN,
            Action::Nil | Action::Use => Dir::NONE,
        }
    }
}

/// Reads a button script: a comma list of `ACTION*N` (or `ACTION` for once) with GVGAI's
/// action names, e.g. `RIGHT*10,USE,NIL*5`.
///
/// # Errors
/// A message naming the part that does not read.
pub fn parse_script(text: &str) -> Result<Vec<Action>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, times) = match part.split_once('*') {
            Some((n, t)) => (
                n.trim(),
                t.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("“{part}”: the count after * is not a whole number"))?,
            ),
            None => (part, 1),
        };
        let action = Action::named(name).ok_or_else(|| {
            format!("“{part}”: {name} is not an action (LEFT RIGHT UP DOWN USE NIL)")
        })?;
        if times > 1_000_000 {
            return Err(format!("“{part}”: at most 1,000,000 ticks a part"));
        }
        // The whole script too (F30: 3,000 parts of a million ticks asked for 4 GB).
        if out.len() + times > MAX_SCRIPT_TICKS {
            return Err(format!(
                "the script is longer than {MAX_SCRIPT_TICKS} ticks in all (at “{part}”)"
            ));
        }
        out.extend(std::iter::repeat_n(action, times));
    }
    Ok(out)
}

/// The most ticks a whole button script may hold.
pub const MAX_SCRIPT_TICKS: usize = 10_000_000;
