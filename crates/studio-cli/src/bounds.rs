//! The range of every numeric flag of the command line, one definition each: `generate`,
//! `eval`, `train` and the other sub-commands take their parsers from here, so a flag means
//! the same numbers wherever it appears, and a value out of range is refused by clap (exit 2,
//! naming the flag and its range) before any work starts.
//!
//! The ranges are generous for real use (the shipped trainings and sweeps in `docs/*.md` use a
//! fraction of each) yet bounded so that no request can exhaust the memory of a 24 GiB
//! machine. Where a generator condition already has a range (the GA's population and
//! generations; fresh cells, target moves and cell temperature; events), the flag takes that
//! range (the game's tests check the two agree). [`TABLE`] lists the shell's numeric flags and
//! each game's commands bring theirs; [`all`] lists both (docs/files.md's "Bounds" table), and
//! a test checks them against the command line itself.

use std::fmt;

/// An inclusive range of whole numbers a flag takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole {
    /// The smallest value taken.
    pub min: u64,
    /// The largest value taken.
    pub max: u64,
}

impl Whole {
    /// `min` to `max`, both taken.
    pub const fn new(min: u64, max: u64) -> Self {
        Self { min, max }
    }

    /// True when `n` is in the range.
    pub fn contains(self, n: u64) -> bool {
        (self.min..=self.max).contains(&n)
    }

    /// Reads a flag's text as a whole number in the range.
    ///
    /// # Errors
    /// Text that is not a whole number, or one outside the range, in words with the range.
    pub fn parse<T: TryFrom<u64>>(self, text: &str) -> Result<T, String> {
        let t = text.trim();
        let n = match t.parse::<u64>() {
            Ok(n) => n,
            // All digits but too long for 64 bits: out of range, like any other large number.
            Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(format!("{t} is out of range ({self})"))
            }
            Err(_) => return Err(format!("{t:?} is not a whole number ({self})")),
        };
        if !self.contains(n) {
            return Err(format!("{n} is out of range ({self})"));
        }
        T::try_from(n).map_err(|_| format!("{n} is out of range ({self})"))
    }

    /// The parser clap runs on the flag's text (`value_parser = X.parser::<usize>()`).
    pub fn parser<T>(self) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
    where
        T: TryFrom<u64> + Clone + Send + Sync + 'static,
    {
        move |text: &str| self.parse(text)
    }
}

impl fmt::Display for Whole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} to {}", grouped(self.min), grouped(self.max))
    }
}

/// A range of real numbers a flag takes; NaN and the infinities are never in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Real {
    /// The lower bound.
    pub min: f64,
    /// The upper bound.
    pub max: f64,
    /// True when `min` itself is not taken (only numbers above it).
    pub above_min: bool,
    /// True when `max` itself is not taken (only numbers below it).
    pub below_max: bool,
}

impl Real {
    /// `min` to `max`, both taken.
    pub const fn closed(min: f64, max: f64) -> Self {
        Self {
            min,
            max,
            above_min: false,
            below_max: false,
        }
    }

    /// More than `min`, at most `max`.
    pub const fn above(min: f64, max: f64) -> Self {
        Self {
            above_min: true,
            ..Self::closed(min, max)
        }
    }

    /// At least `min`, less than `max`.
    pub const fn below(min: f64, max: f64) -> Self {
        Self {
            below_max: true,
            ..Self::closed(min, max)
        }
    }

    /// True when `v` is a finite number in the range.
    pub fn contains(self, v: f64) -> bool {
        let low = if self.above_min {
            v > self.min
        } else {
            v >= self.min
        };
        let high = if self.below_max {
            v < self.max
        } else {
            v <= self.max
        };
        v.is_finite() && low && high
    }

    /// Reads a flag's text as a number in the range.
    ///
    /// # Errors
    /// Text that is not a number, NaN, an infinity, or a number outside the range, in words
    /// with the range.
    pub fn parse(self, text: &str) -> Result<f64, String> {
        let t = text.trim();
        let v: f64 = t
            .parse()
            .map_err(|_| format!("{t:?} is not a number ({self})"))?;
        if !self.contains(v) {
            return Err(format!("{t} is out of range ({self})"));
        }
        Ok(v)
    }

    /// The parser clap runs on the flag's text (`value_parser = X.parser()`).
    pub fn parser(self) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
        move |text: &str| self.parse(text)
    }
}

impl fmt::Display for Real {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.above_min, self.below_max) {
            (false, false) => write!(f, "{} to {}", self.min, self.max),
            (true, false) => write!(f, "more than {}, at most {}", self.min, self.max),
            (false, true) => write!(f, "at least {}, less than {}", self.min, self.max),
            (true, true) => write!(f, "more than {}, less than {}", self.min, self.max),
        }
    }
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

// ---- Levels and their size ----

/// Cells a side of `--size WxH` (each game narrows it to its own sizes).
pub const SIDE: Whole = Whole::new(1, 64);
/// `generate --count`: levels one run makes (the pack so far is saved every 10 s).
pub const LEVELS: Whole = Whole::new(1, 100_000);
/// `eval --count`: levels or courses one sweep draws (at least 2: diversity takes pairs; at
/// most 10,000: diversity compares every pair, 5e7 at the top, and batch decoders take
/// them all at once, a few hundred MB at the top).
pub const SWEEP_LEVELS: Whole = Whole::new(2, 10_000);
/// `eval --attempts`: generation attempts, ten times the thesis's 20,000 (each kept in
/// memory, with a learned generator's cache of the states it saw).
pub const ATTEMPTS: Whole = Whole::new(1, 200_000);

/// Reads `WxH`, each side in [`SIDE`].
///
/// # Errors
/// Text that is not `WxH`, or a side outside [`SIDE`], in words.
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (w, h) = s
        .to_ascii_lowercase()
        .split_once('x')
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(|| format!("size {s:?} is not {SIZE_WORDS}"))?;
    let side = |text: &str, which: &str| {
        text.trim().parse::<u64>().map_err(|_| {
            format!("size {s:?}: the {which} is not a whole number of cells ({SIZE_WORDS})")
        })
    };
    let (w, h) = (side(&w, "width")?, side(&h, "height")?);
    if !SIDE.contains(w) || !SIDE.contains(h) {
        return Err(format!("size {s:?} is out of range ({SIZE_WORDS})"));
    }
    Ok((w as usize, h as usize))
}

/// How the help and errors state `--size`'s range ([`SIDE`]).
const SIZE_WORDS: &str = "WxH, each side 1 to 64 cells";

// ---- Analysis ----

/// `validate --games`: games the bots play per level.
pub const BOT_GAMES: Whole = Whole::new(1, 10_000);
/// `validate --limit`: the designers' move limit.
pub const MOVE_LIMIT: Whole = Whole::new(1, 1_000);
/// `validate --budget`, `graph --budget`: the largest state graph to explore (about 5 GB of
/// states at the top).
pub const STATE_BUDGET: Whole = Whole::new(1, 50_000_000);
/// `interpolate --steps`: in-between levels of one walk.
pub const STEPS: Whole = Whole::new(1, 100);

// ---- Generator conditions (the generators' own ranges) ----

/// `--generations` (generate, eval): FI2Pop generations after the initial one.
pub const GENERATIONS: Whole = Whole::new(
    studio_core::evolve::generator::MIN_GENERATIONS as u64,
    studio_core::evolve::generator::MAX_GENERATIONS as u64,
);
/// `--population` (generate, eval): FI2Pop levels per generation.
pub const POPULATION: Whole = Whole::new(
    studio_core::evolve::generator::MIN_POPULATION as u64,
    studio_core::evolve::generator::MAX_POPULATION as u64,
);
/// `--fresh` (generate, eval): cells a level differs from every training level of its size
/// in (0: off, the cheapest edit of a copy): the `fresh` condition's range (its game's tests
/// check the two agree).
pub const FRESH: Whole = Whole::new(0, 12);
/// `--temperature` (generate, eval): the cell temperature (0: the argmax), the `temperature`
/// condition's widest range; a generator whose condition is a probability narrows it to 0–1.
pub const TEMPERATURE: Real = Real::closed(0.0, 3.0);
/// `generate --moves`: the target median moves, the `moves` condition's range.
pub const MOVES: Real = Real::closed(1.0, 40.0);
/// The event counts a strip of events takes (`--events`).
pub const EVENTS: [usize; 2] = [9, 12];

/// Reads `--events`: one of [`EVENTS`].
///
/// # Errors
/// Any other text, in words.
pub fn parse_events(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .ok()
        .filter(|n| EVENTS.contains(n))
        .ok_or_else(|| format!("{s:?} is not 9 or 12 events (the two structures there are)"))
}

/// Checks `--dagp` / `--diverse` "n,d[,p]" (n 1 to 1,000 candidates, d ≥ 0, p 0 to 1: see
/// `Dagp::parse`); the generator narrows it (to its own candidates and distances).
///
/// # Errors
/// The text and what it should be, in words.
pub fn parse_dagp(s: &str) -> Result<String, String> {
    studio_ml::rl::Dagp::parse(s).map_err(|e| format!("{e} ({DAGP_WORDS})"))?;
    Ok(s.to_string())
}

/// How the help and errors state the range of `--dagp` and `--diverse`.
const DAGP_WORDS: &str = "n 1 to 1,000, d at least 0, p 0 to 1";

// ---- eval ----

/// `eval --games`: games each agent plays on each level.
pub const AGENT_GAMES: Whole = Whole::new(1, 1_000);
/// `eval --rooms`: levels evolved per fitness, one run each.
pub const ROOMS: Whole = Whole::new(1, 100);
/// `eval --ri`: random first decisions. The longest walk of the largest board (10 × 10 cells)
/// takes 99 steps; each game narrows it to its own levels, in words.
pub const RI: Whole = Whole::new(0, 99);
/// `eval --ri`: values a list may hold (a table row each). No game has more than 100 settings
/// to randomize (0–99 steps), so a longer list only repeats rows.
pub const RI_ROWS: usize = 100;

/// Refuses an `--ri` list longer than [`RI_ROWS`].
///
/// # Errors
/// The list's length and the most it takes, in words.
pub fn check_ri_rows(ri: &[usize]) -> anyhow::Result<()> {
    if ri.len() > RI_ROWS {
        anyhow::bail!(
            "--ri lists {} values; it takes at most {RI_ROWS} (a table row each)",
            ri.len()
        );
    }
    Ok(())
}
/// `eval --filter`: the lowest evaluation kept.
pub const FILTER: Real = Real::closed(0.0, 1.0);
/// `eval --budget` (with `--validated`): levels generated and validated per condition.
pub const VALIDATED_BUDGET: Whole = Whole::new(1, 100_000);
/// The validated sweep's tolerance, in moves: a level is on target within it.
pub const SWEEP_TOLERANCE: f64 = 2.0;
/// `eval --margin` (with `--validated`): the safety margin in moves, below the tolerance.
pub const MARGIN: Real = Real::below(0.0, SWEEP_TOLERANCE);
/// `eval --limit-margin` (with `--validated`): the safety margin below the move limit.
pub const LIMIT_MARGIN: Real = Real::closed(0.0, 10.0);

// ---- train ----

/// `train --epochs`: epochs, episodes or steps (the shipped trainings use up to 100,000).
pub const EPOCHS: Whole = Whole::new(1, 1_000_000);
/// `train --valid-repeats` (cVAEs): times each valid level is shown per epoch.
pub const VALID_REPEATS: Whole = Whole::new(1, 100);
/// `train --checkpoints` (cVAEs): checkpoints scored (and written) per run.
pub const CHECKPOINTS: Whole = Whole::new(1, 100);
/// `train --selection-sweeps` (cVAEs): 144-level sweeps averaged per checkpoint.
pub const SELECTION_SWEEPS: Whole = Whole::new(1, 100);
/// `train --virtual-completions` (DQNs): completions per step (0: the shipped rewards).
pub const VIRTUAL_COMPLETIONS: Whole = Whole::new(0, 100);
/// `train --virtual-completions` (course VS-DDPG): completions per step (0 would be DDPG).
pub const COURSE_VIRTUAL_COMPLETIONS: Whole = Whole::new(1, 100);
/// `train --updates-per-step` (Mario's TD3 actors): gradient updates a training round.
pub const UPDATES_PER_STEP: Whole = Whole::new(1, 100);
/// `train --test-every` (Mario's TD3 actors): episodes between test phases.
pub const TEST_EVERY: Whole = Whole::new(1, 100_000);
/// `train --test-levels` (Mario's TD3 actors): levels made in each test phase.
pub const TEST_LEVELS: Whole = Whole::new(1, 1_000);
/// `train --completion-noise` (VS-DDPG, VS-TD3): the virtual completions' Gaussian noise.
pub const COMPLETION_NOISE: Real = Real::closed(0.0, 1.0);
/// `train --actor-lr` / `--critic-lr` (course DDPGs, Mario TD3s): learning rates.
pub const LEARNING_RATE: Real = Real::above(0.0, 1.0);
/// `train --tau` (course DDPGs): the soft target update rate.
pub const TAU: Real = Real::above(0.0, 1.0);
/// `train --patience` (VAEs): epochs without a lower validation loss before stopping.
pub const PATIENCE: Whole = Whole::new(0, 100_000);
/// `train --trace` (VAEs): prior samples whose E-distance is traced every 10 epochs.
pub const TRACE: Whole = Whole::new(0, 10_000);
/// `train --kl-weight` (cVAEs): the weight of the KL term.
pub const KL_WEIGHT: Real = Real::above(0.0, 100.0);
/// `train --free-bits` (cVAEs): nats per latent dimension the KL does not charge.
pub const FREE_BITS: Real = Real::closed(0.0, 10.0);
/// `train --blocked-weight` (cVAEs): the cross-entropy weight of BLOCK and GAP cells.
pub const BLOCKED_WEIGHT: Real = Real::closed(1.0, 100.0);
/// `train --max-copies` (cVAEs): the share of raw copies a selectable checkpoint may make.
pub const MAX_COPIES: Real = Real::closed(0.0, 1.0);

/// What a numeric flag takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// A seed: any whole number 0 to 2⁶⁴ − 1.
    Seed,
    /// Whole numbers.
    Whole(Whole),
    /// Real numbers.
    Real(Real),
    /// `WxH`, each side in [`SIDE`].
    Size,
    /// One of [`EVENTS`].
    Events,
    /// "n,d[,p]", as [`parse_dagp`].
    Dagp,
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Range::Seed => write!(f, "0 to 2^64 − 1"),
            Range::Whole(w) => w.fmt(f),
            Range::Real(r) => r.fmt(f),
            Range::Size => f.write_str(SIZE_WORDS),
            Range::Events => write!(f, "9 or 12"),
            Range::Dagp => f.write_str(DAGP_WORDS),
        }
    }
}

/// A numeric flag of some sub-commands and its range.
#[derive(Clone, Copy, Debug)]
pub struct Bound {
    /// The sub-commands that take the flag with this meaning.
    pub commands: &'static [&'static str],
    /// The flag, without its dashes.
    pub flag: &'static str,
    /// What it takes.
    pub range: Range,
}

/// A row of a bounds table.
pub const fn bound(commands: &'static [&'static str], flag: &'static str, range: Range) -> Bound {
    Bound {
        commands,
        flag,
        range,
    }
}

const GEN: &[&str] = &["generate"];

/// The numeric flags of the shell's sub-commands and their ranges; the games' `eval`,
/// `train` and own sub-commands bring theirs ([`GameCommand::bounds`](crate::GameCommand)).
/// [`all`] lists both (docs/files.md's "Bounds" table).
pub const TABLE: &[Bound] = &[
    bound(&["generate", "validate", "import"], "seed", Range::Seed),
    bound(GEN, "size", Range::Size),
    bound(GEN, "count", Range::Whole(LEVELS)),
    bound(GEN, "moves", Range::Real(MOVES)),
    bound(GEN, "temperature", Range::Real(TEMPERATURE)),
    bound(GEN, "fresh", Range::Whole(FRESH)),
    bound(GEN, "generations", Range::Whole(GENERATIONS)),
    bound(GEN, "population", Range::Whole(POPULATION)),
    bound(GEN, "events", Range::Events),
    bound(GEN, "diverse", Range::Dagp),
    bound(GEN, "seconds", Range::Real(INPAINT_SECONDS)),
    bound(&["validate"], "games", Range::Whole(BOT_GAMES)),
    bound(&["validate"], "limit", Range::Whole(MOVE_LIMIT)),
    bound(&["validate", "graph"], "budget", Range::Whole(STATE_BUDGET)),
    bound(&["interpolate"], "steps", Range::Whole(STEPS)),
];

/// `generate --inpaint --seconds`: how long a region's search may take.
pub const INPAINT_SECONDS: Real = Real::above(0.0, 600.0);
/// `train --model level-vae --epochs`: most epochs of a level VAE.
pub const VAE_EPOCHS: Whole = Whole::new(1, studio_ml::level_vae::MAX_EPOCHS as u64);
/// `train --model level-vae --holdout`: the share of levels held out.
pub const HOLDOUT: Real = Real::closed(0.0, 0.5);
/// `train --model level-vae --beta`: the KL term's weight.
pub const VAE_BETA: Real = Real::above(0.0, 10.0);
/// `train --model level-vae --latent`: latent dimensions.
pub const LATENT: Whole = Whole::new(2, 256);
/// `eval --model FILE.safetensors --count`: raw levels judged.
pub const VAE_LEVELS: Whole = Whole::new(1, 10_000);
/// `eval --model FILE.safetensors --width`: columns of a side-scroller's levels.
pub const COLUMNS: Whole = Whole::new(2, 1_000);

/// The numeric flags of the level VAE's `train` and `eval` (the shell runs both for every
/// game), with the least command line that reaches them.
pub const LEVEL_VAE: &[(&str, &[&str], Bound)] = &[
    (
        "train level-vae",
        TRAIN_VAE,
        bound(&[], "seed", Range::Seed),
    ),
    ("eval level-vae", EVAL_VAE, bound(&[], "seed", Range::Seed)),
    (
        "eval level-vae",
        EVAL_VAE,
        bound(&[], "temperature", Range::Real(TEMPERATURE)),
    ),
    (
        "train level-vae",
        TRAIN_VAE,
        bound(&[], "epochs", Range::Whole(VAE_EPOCHS)),
    ),
    (
        "train level-vae",
        TRAIN_VAE,
        bound(&[], "holdout", Range::Real(HOLDOUT)),
    ),
    (
        "train level-vae",
        TRAIN_VAE,
        bound(&[], "latent", Range::Whole(LATENT)),
    ),
    (
        "train level-vae",
        TRAIN_VAE,
        bound(&[], "beta", Range::Real(VAE_BETA)),
    ),
    (
        "train level-vae",
        TRAIN_VAE,
        bound(&[], "window", Range::Size),
    ),
    (
        "eval level-vae",
        EVAL_VAE,
        bound(&[], "count", Range::Whole(VAE_LEVELS)),
    ),
    (
        "eval level-vae",
        EVAL_VAE,
        bound(&[], "width", Range::Whole(COLUMNS)),
    ),
];

const TRAIN_VAE: &[&str] = &[
    "train",
    "--model",
    "level-vae",
    "--pack",
    "never.ron",
    "--out",
    "never.safetensors",
];
const EVAL_VAE: &[&str] = &["eval", "--model", "never.safetensors"];

/// The least command line of each shell sub-command that has numeric flags (the files need
/// not exist: clap refuses a flag before anything is read).
const SHELL_BASES: &[&[&str]] = &[
    &["generate", "--model", "fi2pop-alpha", "--out", "never.ron"],
    &["validate", "never.ron"],
    &["graph", "never.ron"],
    &[
        "interpolate",
        "a.ron",
        "b.ron",
        "--model",
        "any",
        "--out",
        "never.ron",
    ],
    &["import", "--format", "any", "a.txt", "--out", "never.ron"],
];

/// One numeric flag of one command line: what the "Bounds" table lists and tests check.
#[derive(Clone, Debug)]
pub struct Row {
    /// The sub-command and, for a game's, the game (`eval GAME`).
    pub command: String,
    /// The flag, without its dashes.
    pub flag: &'static str,
    /// What it takes.
    pub range: Range,
    /// The least command line that reaches the flag.
    pub base: &'static [&'static str],
}

/// Every numeric flag of the command line, the shell's and the installed games', with its
/// range: one row per (command, flag).
pub fn all() -> Vec<Row> {
    let mut rows = Vec::new();
    for b in TABLE {
        for &command in b.commands {
            let base = SHELL_BASES
                .iter()
                .find(|base| base[0] == command)
                .copied()
                .unwrap_or(&[]);
            rows.push(Row {
                command: command.to_string(),
                flag: b.flag,
                range: b.range,
                base,
            });
        }
    }
    for (command, base, b) in LEVEL_VAE {
        rows.push(Row {
            command: command.to_string(),
            flag: b.flag,
            range: b.range,
            base,
        });
    }
    for command in crate::game_commands() {
        let name = crate::clap_command(&command).get_name().to_string();
        let key = format!("{name} {}", command.game);
        if matches!(command.slot, crate::Slot::Eval | crate::Slot::Train) {
            rows.push(Row {
                command: key.clone(),
                flag: "seed",
                range: Range::Seed,
                base: command.example,
            });
        }
        for b in command.bounds {
            rows.push(Row {
                command: key.clone(),
                flag: b.flag,
                range: b.range,
                base: command.example,
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_in_words() {
        assert_eq!(EPOCHS.to_string(), "1 to 1,000,000");
        assert_eq!(MARGIN.to_string(), "at least 0, less than 2");
        assert_eq!(KL_WEIGHT.to_string(), "more than 0, at most 100");
        assert_eq!(
            EPOCHS.parse::<usize>("0").unwrap_err(),
            "0 is out of range (1 to 1,000,000)"
        );
        assert!(EPOCHS.parse::<usize>("18446744073709551616").is_err());
        assert!(EPOCHS
            .parse::<usize>("many")
            .unwrap_err()
            .contains("not a whole number"));
        assert!(KL_WEIGHT.parse("0").is_err() && KL_WEIGHT.parse("NaN").is_err());
        assert_eq!(parse_size("8x9"), Ok((8, 9)));
        assert!(parse_size("8").is_err() && parse_size("65x9").is_err());
        assert_eq!(parse_events("12"), Ok(12));
        assert!(parse_events("10").is_err());
    }
}
