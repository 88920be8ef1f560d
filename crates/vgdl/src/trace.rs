//! A game's state as one line of the reference traces (`reference/traces/` of the GVGAI
//! data): `t avatar TYPE cell_x cell_y px_x px_y orient_dx,dy hp HP/MAX res R=N,.. score S
//! over 0/1/trunc winner W act A hash H counts …`, one count per leaf sprite type in GVGAI's
//! numbering. `hash` is FNV-1a 64 over the sorted strings `"name x y;"` of every sprite's
//! pixel position (disabled sprites, a dead avatar, left out): equal hashes, equal layouts.

use crate::engine::{Action, State, Winner};

/// How the line says whether the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// Running.
    No,
    /// Ended by the game.
    Yes,
    /// Cut by the script's end.
    Truncated,
}

fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The layout hash: FNV-1a 64 over the sorted `"name x y;"` strings of every sprite in
/// play (disabled ones left out, as the reference leaves them).
pub fn layout_hash(state: &State) -> u64 {
    let rules = state.rules();
    let mut items: Vec<String> = state
        .groups
        .iter()
        .flatten()
        .filter(|s| !s.disabled)
        .map(|s| format!("{} {} {};", rules.types[s.kind].name, s.rect.x, s.rect.y))
        .collect();
    items.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for item in &items {
        for b in item.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// The header naming the counted types, as the reference's `counts` columns.
pub fn count_names(state: &State) -> Vec<&str> {
    let rules = state.rules();
    rules
        .leaves()
        .map(|k| rules.types[k].name.as_str())
        .collect()
}

/// The state after `t` cycles as a trace line; `next` is the action the script takes next
/// (`-` when none).
pub fn line(state: &State, t: usize, next: Option<Action>, over: Over) -> String {
    let rules = state.rules();
    let mut out = format!("{t} avatar ");
    match state.avatar().filter(|a| !a.disabled) {
        Some(a) => {
            let res = if a.resources.is_empty() {
                "-".to_string()
            } else {
                a.resources
                    .iter()
                    .map(|(k, n)| format!("{}={n}", rules.types[*k].name))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            out += &format!(
                "{} {} {} {} {} {},{} hp {}/{} res {res}",
                rules.types[a.kind].name,
                a.rect.x / state.block,
                a.rect.y / state.block,
                a.rect.x,
                a.rect.y,
                number(a.orientation.x),
                number(a.orientation.y),
                a.hp,
                a.max_hp,
            );
        }
        None => out += "- - - - - - hp - res -",
    }
    let winner = match state.winner {
        Winner::None => "NO_WINNER",
        Winner::Wins => "PLAYER_WINS",
        Winner::Loses => "PLAYER_LOSES",
        Winner::Stopped(_) => "STOPPED",
    };
    let over = match over {
        Over::No => "0",
        Over::Yes => "1",
        Over::Truncated => "trunc",
    };
    out += &format!(
        " score {} over {over} winner {winner} act {} hash {:016x} counts",
        number(state.score),
        next.map_or("-", Action::name),
        layout_hash(state)
    );
    for k in rules.leaves() {
        let n = state.groups[k].iter().filter(|s| !s.disabled).count();
        out += &format!(" {n}");
    }
    out
}
