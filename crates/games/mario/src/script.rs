//! Button scripts: the buttons held on each tick, written as a comma list of `BUTTONS*N`
//! (`RS*60,RSJ*10,-*5,R*20`): L R D S J for left, right, down, speed and jump, `-` for none,
//! `*N` the ticks they are held (one without it). `play --game mario --actions` reads them;
//! the playtest writes each attempt's buttons in the same form, so an attempt can be played
//! again on the command line or in the window.

use crate::engine::Action;
use std::fmt;

/// The most ticks a script may hold (an hour of play at 30 ms a tick).
pub const MAX_TICKS: usize = 120_000;

/// Why a script cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// The part of the script (1-based, counting commas) that is wrong.
    pub part: usize,
    /// What is wrong with it, in words.
    pub reason: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "button script, part {}: {} (a script is a comma list of BUTTONS*N, buttons L R D S \
             J for left, right, down, speed, jump or - for none, e.g. RS*60,RSJ*10,-*5)",
            self.part, self.reason
        )
    }
}

impl std::error::Error for ScriptError {}

/// The buttons of one letter.
fn button(letter: char) -> Option<Action> {
    match letter.to_ascii_uppercase() {
        'L' => Some(Action::LEFT),
        'R' => Some(Action::RIGHT),
        'D' => Some(Action::DOWN),
        'S' => Some(Action::SPEED),
        'J' => Some(Action::JUMP),
        _ => None,
    }
}

/// The buttons of each tick of `script`.
///
/// # Errors
/// [`ScriptError`]: an unknown button, a repeat that is not a whole number from 1, an empty
/// part, or more than [`MAX_TICKS`] ticks in all.
pub fn parse(script: &str) -> Result<Vec<Action>, ScriptError> {
    let mut out = Vec::new();
    for (i, part) in script.split(',').enumerate() {
        let fail = |reason: String| ScriptError {
            part: i + 1,
            reason,
        };
        let part = part.trim();
        if part.is_empty() {
            return Err(fail("it is empty".into()));
        }
        let (letters, times) = match part.split_once('*') {
            Some((letters, n)) => {
                let n: usize = n
                    .trim()
                    .parse()
                    .map_err(|_| fail(format!("“{n}” after * is not a whole number")))?;
                if n == 0 {
                    return Err(fail("*0 holds the buttons for no tick".into()));
                }
                (letters.trim(), n)
            }
            None => (part, 1),
        };
        let action = if letters == "-" {
            Action::NONE
        } else {
            let mut action = Action::NONE;
            for c in letters.chars() {
                let b = button(c).ok_or_else(|| {
                    fail(format!(
                        "“{c}” is not a button (L R D S J, or - alone for none)"
                    ))
                })?;
                action = action.with(b);
            }
            if letters.is_empty() {
                return Err(fail("no buttons before the *".into()));
            }
            action
        };
        if out.len() + times > MAX_TICKS {
            return Err(fail(format!(
                "the script runs past {MAX_TICKS} ticks, the most it may hold"
            )));
        }
        out.extend(std::iter::repeat_n(action, times));
    }
    Ok(out)
}

/// The letters of one tick's buttons (`-` for none), in the order L R D S J.
fn letters(action: Action) -> String {
    let mut s: String = [
        (Action::LEFT, 'L'),
        (Action::RIGHT, 'R'),
        (Action::DOWN, 'D'),
        (Action::SPEED, 'S'),
        (Action::JUMP, 'J'),
    ]
    .into_iter()
    .filter(|(b, _)| action.contains(*b))
    .map(|(_, c)| c)
    .collect();
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// `actions` as a script, runs of the same buttons folded (`R*3,RJ*2`): [`parse`] reads it
/// back to the same ticks.
pub fn write(actions: &[Action]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < actions.len() {
        let run = actions[i..]
            .iter()
            .take_while(|&&a| a == actions[i])
            .count();
        let l = letters(actions[i]);
        parts.push(if run == 1 { l } else { format!("{l}*{run}") });
        i += run;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_reads_as_the_issue_writes_it_and_writes_back_the_same() {
        let script = "RS*60,RSJ*10,-*5,R*20";
        let actions = parse(script).unwrap();
        assert_eq!(actions.len(), 95);
        assert_eq!(actions[0], Action::RIGHT.with(Action::SPEED));
        assert_eq!(actions[60], Action::RUN_JUMP_RIGHT);
        assert_eq!(actions[70], Action::NONE);
        assert_eq!(actions[94], Action::RIGHT);
        assert_eq!(write(&actions), script);
        // Letters in any order and case, a part without a repeat, spaces.
        assert_eq!(
            parse(" jr , l ").unwrap(),
            vec![Action::JUMP_RIGHT, Action::LEFT]
        );
        assert_eq!(write(&[]), "");
    }

    #[test]
    fn a_bad_script_names_its_part_and_what_is_wrong() {
        let bad = |s: &str| parse(s).unwrap_err();
        assert_eq!(bad("R*2,X*3").part, 2);
        assert!(bad("R*2,X*3").reason.contains("“X” is not a button"));
        assert!(bad("R*two").reason.contains("not a whole number"));
        assert!(bad("R*0").reason.contains("no tick"));
        assert!(bad("R,,J").reason.contains("empty"));
        assert!(bad("*4").reason.contains("no buttons"));
        assert!(bad("R*120001").reason.contains("120000 ticks"));
        assert!(bad("-R").reason.contains("“-” is not a button"));
        let shown = bad("Q").to_string();
        assert!(
            shown.starts_with("button script, part 1: “Q” is not a button"),
            "{shown}"
        );
    }
}
