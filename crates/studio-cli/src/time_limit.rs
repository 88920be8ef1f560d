//! `--time-limit SECONDS`, taken by every command: the process ends once the command has run
//! that long, saying so, with exit code 124 (as `timeout` ends a command). A bound for a batch,
//! a sweep on a cluster or a probe, where a GA or a profile that plays many games could run for
//! minutes (docs/files.md). Every file the studio writes is replaced atomically and written
//! under a lock the kernel frees when the process ends, so a command stopped mid-save leaves the
//! old file or the new one, never a mix; a `generate --out` run keeps the pack it saved last
//! (every 10 s), and `generate --vgdl` writes each run's best level as it improves.

use std::ffi::OsString;
use std::process::ExitCode;
use std::time::Duration;

/// The exit code of a command stopped at its time limit.
pub const EXIT: u8 = 124;
/// The longest limit taken, in seconds: a week.
pub const MOST_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// Takes `--time-limit S` / `--time-limit=S` out of `words` (the program name first), before a
/// `--`; `None` when it is not given. A missing or non-numeric value, one not above 0 or
/// past a week, or the flag given twice is refused in words (exit 2).
///
/// # Errors
/// The exit code, once the refusal is printed.
pub fn take_time_limit(
    words: Vec<OsString>,
) -> Result<(Vec<OsString>, Option<Duration>), ExitCode> {
    let refuse = |why: String| {
        eprintln!("error: {why}");
        ExitCode::from(2)
    };
    let mut kept = Vec::with_capacity(words.len());
    let mut given: Option<Duration> = None;
    let mut words = words.into_iter().enumerate();
    while let Some((i, word)) = words.next() {
        let text = word.to_string_lossy().into_owned();
        if text == "--" {
            kept.push(word);
            kept.extend(words.map(|(_, w)| w));
            break;
        }
        let value = if i >= 2 && text == "--time-limit" {
            match words.next() {
                Some((_, v)) => v.to_string_lossy().into_owned(),
                None => return Err(refuse("--time-limit needs a value: seconds".into())),
            }
        } else if let Some(v) = text.strip_prefix("--time-limit=").filter(|_| i >= 2) {
            v.to_string()
        } else {
            kept.push(word);
            continue;
        };
        if given.is_some() {
            return Err(refuse("--time-limit is given twice".into()));
        }
        given = Some(parse(&value).map_err(refuse)?);
    }
    Ok((kept, given))
}

/// Seconds above 0 and at most a week.
fn parse(value: &str) -> Result<Duration, String> {
    match value.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MOST_SECONDS => Ok(Duration::from_secs_f64(s)),
        Ok(s) => Err(format!(
            "--time-limit {s} is out of range: seconds above 0, at most {MOST_SECONDS} (a week)"
        )),
        Err(_) => Err(format!("--time-limit {value:?} is not a number of seconds")),
    }
}

/// Ends the process once `limit` has passed, saying which command ran past it.
pub fn start(limit: Duration, command: &str) {
    let command = command.to_string();
    let _ = std::thread::Builder::new()
        .name("time-limit".into())
        .spawn(move || {
            std::thread::sleep(limit);
            eprintln!(
                "\nerror: `level-studio {command}` ran past its time limit of {} s \
                 (--time-limit) and was stopped; the files it wrote are whole (each is \
                 replaced at once), and one it had not finished was not written (a GA run \
                 on a VGDL game keeps the best level it had found, tagged unfinished)",
                limit.as_secs_f64()
            );
            std::process::exit(i32::from(EXIT));
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn the_flag_is_taken_anywhere_after_the_command_and_refused_when_bad() {
        let (kept, limit) = take_time_limit(words("ls eval --time-limit 2.5 --count 3")).unwrap();
        assert_eq!(kept, words("ls eval --count 3"));
        assert_eq!(limit, Some(Duration::from_millis(2500)));
        let (kept, limit) = take_time_limit(words("ls play --time-limit=10 x")).unwrap();
        assert_eq!(
            (kept, limit),
            (words("ls play x"), Some(Duration::from_secs(10)))
        );
        // After `--` it is a value, not the flag.
        let (kept, limit) = take_time_limit(words("ls play -- --time-limit 3")).unwrap();
        assert_eq!((kept, limit), (words("ls play -- --time-limit 3"), None));
        for bad in [
            "ls eval --time-limit",
            "ls eval --time-limit 0",
            "ls eval --time-limit -1",
            "ls eval --time-limit nan",
            "ls eval --time-limit 1e30",
            "ls eval --time-limit soon",
            "ls eval --time-limit 1 --time-limit 2",
        ] {
            assert!(take_time_limit(words(bad)).is_err(), "{bad}");
        }
    }
}
